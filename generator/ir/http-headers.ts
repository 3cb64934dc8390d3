/**
 * Request headers fetch writes itself, from the request and the connection: never a
 * parameter a caller gives (a `Content-Length` that disagrees with the body fails the call).
 * The spec format refuses them as header parameters (build-operations.ts), and import leaves
 * them out with a note (import/operations.ts): one list, so the two agree.
 */
export const fetchWrittenHeaders: ReadonlySet<string> = new Set([
  "connection",
  "content-length",
  "expect",
  "host",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);
