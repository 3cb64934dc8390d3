/**
 * The one origin credentials are sent to: the base address's, checked when the client is
 * constructed; and redirects. fetch follows redirects by default and sends the request's
 * headers, credentials included, wherever the server points. The client asks fetch not to
 * (`redirect: "manual"`) and follows only redirects within that origin, at most
 * `maxRedirects` in a row.
 */
import { ClientOptionsError, RedirectError } from "./errors.js";
import { redact } from "./redact.js";

/**
 * A URL, or one relative to the page in a browser; undefined when it is neither. (Deno
 * throws on reading `location` unless started with --location, hence the second try.)
 */
function parseUrl(value: unknown): URL | undefined {
  try {
    return new URL(String(value));
  } catch {
    try {
      return new URL(String(value), (globalThis as { location?: { href: string } }).location?.href);
    } catch {
      return undefined;
    }
  }
}

/**
 * The base address without its trailing slashes, and its origin (the only one credentials
 * are sent to). Refuses an address fetch could not use, or that holds a password (fetch
 * refuses those, and it would reach log lines), with an error that never repeats it.
 */
export function baseAddress(baseUrl: unknown): { base: string; origin: string } {
  const url = parseUrl(baseUrl);
  const problem =
    url === undefined || !/^https?:$/.test(url.protocol)
      ? "is not an http: or https: URL"
      : url.username || url.password
        ? "has a user name or password in it: pass credentials as their own options"
        : /[?#]/.test(url.href)
          ? "has a query or a fragment, which the paths of the endpoints cannot follow"
          : undefined;
  if (problem || !url) throw new ClientOptionsError("baseUrl", problem ?? "");
  return { base: url.href.replace(/\/+$/, ""), origin: url.origin };
}

/** The next request of a redirect the client follows. */
export interface Hop {
  url: string;
  /** The redirect turns the request into a GET without a body, as fetch would (303; 301 and 302 of a POST). */
  toGet: boolean;
}

/** Where an attempt stands: its endpoint, address, method and the redirects it followed. */
export interface HopContext {
  endpointId: string;
  url: string;
  method: string;
  hops: number;
}

/**
 * The next request when `response` is a redirect the client follows; undefined when it is
 * no redirect (a 3xx without Location is an answer like any other). Throws a RedirectError
 * for a redirect it does not follow. `secrets` keep a credential out of the message, which
 * names the origin the server asked for.
 */
export function redirectHop(
  response: Response,
  at: HopContext,
  origin: string,
  maxRedirects: number,
  secrets: readonly string[],
): Hop | undefined {
  const { endpointId, method } = at;
  const status = response.status;
  const refuse = (why: string) =>
    new RedirectError(redact(`${endpointId} was redirected${why}`, secrets), endpointId, status);
  // With redirect: "manual", browsers give an opaque response that hides the Location.
  if (response.type === "opaqueredirect")
    throw refuse(", and this runtime hides where to (a browser does): not followed");
  const location = response.headers.get("location");
  if (location === null || ![301, 302, 303, 307, 308].includes(status)) return undefined;
  let target: URL | undefined;
  try {
    target = new URL(location, at.url);
  } catch {
    // Not a URL: refused below.
  }
  if (!target) throw refuse(` (${status}) to an address that is not a URL: not followed`);
  if (target.origin !== origin)
    throw refuse(
      ` (${status}) to another origin, ${target.origin}: not followed, so that no credential leaves ${origin}`,
    );
  if (target.username || target.password)
    throw refuse(` (${status}) to an address with a user name or password: not followed`);
  if (at.hops >= maxRedirects) throw refuse(` more than ${maxRedirects} times: not followed`);
  const toGet =
    status === 303
      ? method !== "GET" && method !== "HEAD"
      : (status === 301 || status === 302) && method === "POST";
  return { url: target.href, toGet };
}
