/**
 * The one origin credentials are sent to: the base address's, checked when the client is
 * constructed; and redirects. fetch follows redirects by default and sends the request's
 * headers, credentials included, wherever the server points. The client asks fetch not to
 * (`redirect: "manual"`) and follows only redirects within that origin, at most
 * `maxRedirects` in a row.
 */
import { ClientOptionsError, RedirectError } from "./errors.js";
import { redact } from "./redact.js";

/** `value` as a URL (relative to what `base` gives), or undefined when it is none. */
function parseUrl(value: unknown, base?: () => string | undefined): URL | undefined {
  try {
    return new URL(String(value), base?.());
  } catch {
    return undefined;
  }
}

/**
 * The base address without its trailing slashes, and its origin (the only one credentials
 * are sent to). Refuses an address fetch could not use, or that holds a password (fetch
 * refuses those, and it would reach log lines), with an error that never repeats it. In a
 * browser it may be relative to the page (read only then: Deno throws on reading `location`
 * unless started with --location).
 */
export function baseAddress(
  baseUrl: unknown,
  option = "baseUrl",
): { base: string; origin: string } {
  const url =
    parseUrl(baseUrl) ??
    parseUrl(baseUrl, () => (globalThis as { location?: { href: string } }).location?.href);
  const problem =
    !url || !/^https?:$/.test(url.protocol)
      ? "is not an http: or https: URL"
      : url.username || url.password
        ? "holds a user name or password: pass credentials as their own options"
        : /[?#]/.test(url.href)
          ? "has a query or fragment, which endpoint paths cannot follow"
          : "";
  if (problem) throw new ClientOptionsError(option, problem);
  return { base: url!.href.replace(/\/+$/, ""), origin: url!.origin };
}

/** Where an attempt stands: its endpoint, address, method and the redirects it followed. */
export interface HopContext {
  endpointId: string;
  url: string;
  method: string;
  hops: number;
}

/**
 * Moves `at` on to the next request when `response` is a redirect the client follows, and
 * says whether the request becomes a GET without body there (a 303; a 301 or 302 of a POST,
 * as fetch would). Returns undefined when it is no redirect (a 3xx without Location is an
 * answer like any other). Throws a RedirectError for a redirect it does not follow, its
 * message redacted against `secrets`: it names the origin the server asked for.
 */
export function redirectHop(
  response: Response,
  at: HopContext,
  origin: string,
  maxRedirects: number,
  secrets: readonly string[],
): { toGet: boolean } | undefined {
  const { status, headers, type } = response;
  const location = headers.get("location");
  // With redirect: "manual", browsers give an opaque response (status 0) that hides the Location.
  const opaque = type === "opaqueredirect";
  if (!opaque && (location === null || ![301, 302, 303, 307, 308].includes(status))) return;
  const target = opaque ? undefined : parseUrl(location, () => at.url);
  const why = opaque
    ? "to where this runtime hides"
    : !target
      ? "to an address that is not a URL"
      : target.origin !== origin
        ? `to another origin, ${target.origin}`
        : target.username || target.password
          ? "to an address with a user name or password"
          : at.hops >= maxRedirects
            ? `more than ${maxRedirects} times`
            : "";
  const id = at.endpointId;
  if (why)
    throw new RedirectError(
      redact(`${id} was redirected (${status}) ${why}: not followed`, secrets),
      id,
      status,
    );
  const toGet =
    status === 303 ? !/^(GET|HEAD)$/.test(at.method) : status < 303 && at.method === "POST";
  at.url = target!.href;
  at.hops++;
  return { toGet };
}
