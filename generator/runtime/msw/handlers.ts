/**
 * The stand-in as msw request handlers, for browser and component tests: every request to
 * the API's addresses goes to the stand-in's `fetch` (its credentials, refusals,
 * validation and state, as `createStandIn()` answers), and an override replaces one
 * endpoint's success answer, typed by the endpoint, while the stand-in still checks the
 * request. msw is the package's optional peer dependency: only this entry imports it, and
 * the rest is Web APIs (`Request`, `Response`, `URL`).
 */
import { http, type HttpHandler } from "msw";
import { splitTarget } from "../http/target.js";
import { noteHeader } from "../testing/answers.js";
import { findRoute } from "../testing/core.js";
import { standInTable, type StandIn, type StandInOptions } from "../testing/stand-in.js";
import type { RouteResponse } from "../testing/table.js";

export interface MswOptions extends StandInOptions {
  /** The base URL the code under test calls the API at: the client's `baseUrl`. */
  baseUrl: string;
  /** The client's `hosts` option, for endpoints served from another address (its spec's default otherwise). */
  hosts?: Readonly<Record<string, string>>;
  /** The stand-in to answer with (one `listen` serves as well); default: a new one with these options. */
  standIn?: StandIn;
}

/** What an override's function is called with: the request (a copy of it) and its path parameters. */
export interface MswAnswerRequest {
  request: Request;
  params: Readonly<Record<string, string>>;
}

/**
 * An endpoint's answer in an override: the value a success carries (the stand-in checks the
 * request first and answers its refusals as ever), or a function that gives it, or gives a
 * `Response` to send as it is, before the stand-in sees the request.
 */
export type MswAnswer<T> = T | ((call: MswAnswerRequest) => T | Response | Promise<T | Response>);

/** The stand-in's handlers, an override per endpoint, and the stand-in itself (state, reset). */
export interface MswStandIn<Answers> {
  /** `setupServer(...handlers)` or `setupWorker(...handlers)`: one handler for the API's addresses. */
  handlers: HttpHandler[];
  /**
   * A handler for `server.use(...)` that answers the endpoint `id` with `answer`; every other
   * request falls through to the next handler.
   */
  override<Id extends keyof Answers & string>(id: Id, answer: MswAnswer<Answers[Id]>): HttpHandler;
  standIn: StandIn;
}

/** An address requests are taken at: its origin and its path without a trailing `/`. */
interface Address {
  origin: string;
  path: string;
}

function addressOf(url: string, what: string): Address {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(
      `msw handlers: ${what} must be an absolute URL, not ${JSON.stringify(url)}`,
    );
  }
  return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, "") };
}

/** The request's target below one of the addresses (`/v1/x?y=1`), or `undefined`: not the API's. */
function targetBelow(addresses: readonly Address[], request: Request): string | undefined {
  const url = new URL(request.url);
  for (const { origin, path } of addresses) {
    if (url.origin !== origin) continue;
    if (url.pathname !== path && !url.pathname.startsWith(`${path}/`)) continue;
    return (url.pathname.slice(path.length) || "/") + url.search;
  }
  return undefined;
}

/** The target of a POST to one of the token URLs (its path, as the stand-in's token endpoint takes it). */
function tokenTarget(tokenUrls: readonly string[], request: Request): string | undefined {
  if (request.method !== "POST") return undefined;
  const url = new URL(request.url);
  return tokenUrls.includes(url.origin + url.pathname) ? url.pathname + url.search : undefined;
}

/** The request as the stand-in reads it: at the target, as if the API were at the root. */
async function relocated(request: Request, target: string): Promise<Request> {
  const url = new URL(request.url);
  if (url.pathname + url.search === target) return request;
  const bodied = request.method !== "GET" && request.method !== "HEAD";
  return new Request(url.origin + target, {
    method: request.method,
    headers: request.headers,
    ...(bodied ? { body: await request.arrayBuffer() } : {}),
  });
}

/** The media type the stand-in sends a streamed answer with. */
function streamType(response: RouteResponse): string {
  return (
    response.contentType ?? (response.kind === "sse" ? "text/event-stream" : "application/jsonl")
  );
}

/** The stand-in's success answer with the override's value as its body, in the response's kind. */
function withBody(served: Response, response: RouteResponse, value: unknown): Response {
  if (response.kind === "none") return served;
  if (response.kind === "sse" || response.kind === "jsonl")
    throw new TypeError("msw override: a streamed answer is given as a Response");
  const headers = new Headers(served.headers);
  headers.delete("content-length");
  headers.delete(noteHeader);
  const body =
    response.kind === "json"
      ? JSON.stringify(value)
      : response.kind === "binary"
        ? (value as Blob)
        : String(value);
  return new Response(body, { status: served.status, headers });
}

/**
 * The msw handlers of the stand-in `make(options)` makes (or `options.standIn`) at
 * `options.baseUrl` and its hosts' addresses (`hostDefaults`: the spec's, which
 * `options.hosts` overrides).
 */
export function mswStandIn<Answers>(
  make: (options: StandInOptions) => StandIn,
  options: MswOptions,
  hostDefaults: Readonly<Record<string, string>> = {},
): MswStandIn<Answers> {
  const standIn = options.standIn ?? make(options);
  const table = standInTable(standIn);
  if (!table) throw new TypeError("msw handlers: give them a stand-in made by createStandIn");
  const hosts = { ...hostDefaults, ...options.hosts };
  const addresses = [
    addressOf(options.baseUrl, "baseUrl"),
    ...Object.entries(hosts).map(([name, url]) => addressOf(url, `hosts.${name}`)),
  ];
  // the token URLs the spec writes absolute, at their own origin (an OAuth server's)
  const tokenUrls = (table.tokenEndpoints ?? []).flatMap((t) =>
    t.origin ? [`${t.origin}${t.path}`] : [],
  );
  const all = http.all("*", async ({ request }) => {
    const target = targetBelow(addresses, request) ?? tokenTarget(tokenUrls, request);
    return target === undefined ? undefined : standIn.fetch(await relocated(request, target));
  });
  const override = (id: string, answer: unknown): HttpHandler => {
    if (!table.routes.some((route) => route.endpoint === id))
      throw new TypeError(`msw override: ${JSON.stringify(id)} is no endpoint of ${table.title}`);
    return http.all("*", async ({ request }) => {
      const target = targetBelow(addresses, request);
      const pathname = target === undefined ? undefined : splitTarget(target)?.pathname;
      if (target === undefined || pathname === undefined) return undefined;
      const routed = findRoute(table, request.method.toUpperCase(), pathname);
      if (!("route" in routed) || routed.route.endpoint !== id) return undefined;
      const value =
        typeof answer === "function"
          ? await answer({ request: request.clone(), params: { ...routed.found } })
          : answer;
      if (value instanceof Response) return value;
      const served = await standIn.fetch(await relocated(request, target));
      if (!served.ok || request.method === "HEAD") return served;
      // a request whose body flag asked for the stream got it: a value is no answer to it
      const { streamResponse } = routed.route;
      const streamed =
        streamResponse !== undefined &&
        served.headers.get("content-type") === streamType(streamResponse);
      return withBody(served, streamed ? streamResponse : routed.route.response, value);
    });
  };
  return { handlers: [all], override, standIn };
}
