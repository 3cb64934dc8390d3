/**
 * The whole of a request for an adapter that does not read bodies itself (Fetch, or one
 * written by hand): `begin`, read the body (no longer than the core's deadline), `complete`.
 */
import { readWithin, timedOut } from "./body.js";
import type { InboundRequest, OutboundResponse, RequestCore } from "./types.js";

/** A request through `core`, start to answer. Never rejects. */
export async function handleRequest(
  core: RequestCore,
  request: InboundRequest,
): Promise<OutboundResponse> {
  try {
    const begun = core.begin(request.method, request.target, request.headers);
    if (begun.answer !== undefined) return begun.answer;
    let body: Uint8Array<ArrayBuffer> | undefined | typeof timedOut;
    try {
      body = await readWithin(request, begun.limit, begun.timeoutMs);
    } catch (error) {
      return begun.failed(error);
    }
    return body === timedOut ? begun.timedOut() : await begun.complete(body);
  } catch (error) {
    return core.fail(error, request.target);
  }
}
