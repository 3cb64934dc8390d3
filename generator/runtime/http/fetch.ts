/**
 * A request handler (the callback router's, the stand-in's) as a Fetch API handler
 * (`Request` -> `Response`): Deno, Bun, Cloudflare Workers, Hono and any runtime with
 * `Request`/`Response`. Some Fetch runtimes drop the body of a GET request; a callback sent
 * as GET with a body (`product.info`) needs one that keeps it, or the node adapter.
 */
import { readStreamLimited } from "./body.js";
import type { InboundRequest, OutboundResponse } from "./types.js";

/** A Fetch API handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Path and query of a request URL. */
function targetOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** A Fetch `Request` as the core reads it: its body read no further than the core asks. */
export function inboundOf(request: Request): InboundRequest {
  return {
    method: request.method,
    target: targetOf(request.url),
    headers: request.headers,
    readBody: (limit, signal) => readStreamLimited(request.body, limit, signal),
  };
}

/** The core's answer as a Fetch `Response`. */
export function responseOf(answer: OutboundResponse): Response {
  const noBody = answer.status === 204 || answer.status === 205 || answer.status === 304;
  return new Response(noBody ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}

/**
 * A Fetch handler over a request core; an unknown path is a 404 like any other refusal. It
 * never rejects: the core answers every request, errors included.
 */
export function createFetchHandler(
  handle: (request: InboundRequest) => Promise<OutboundResponse>,
): FetchHandler {
  return async (request) => responseOf(await handle(inboundOf(request)));
}
