/**
 * Headers HTTP writes itself rather than an API's spec: how a message is framed and the
 * connection it travels on, in both directions; on a request also the host and `Expect`, on
 * a response also the body's media type and encoding. One module, so the spec format's
 * check, the importer and the stand-in agree on them.
 */

/**
 * An HTTP header name (a token of RFC 9110 5.6.2): the only kind of name a request can send.
 * The spec format's header parameters and signature headers are held to it, and import leaves
 * out (or, for an API key, makes no credential of) a header named otherwise.
 */
export const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Framing and hop-by-hop headers (RFC 9110 7.6.1, 8.6; RFC 9112 6). */
const framingHeaders = [
  "connection",
  "content-length",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

/**
 * Request headers fetch writes itself, from the request and the connection: never a
 * parameter a caller gives (a `Content-Length` that disagrees with the body fails the call,
 * Vercel's artifact upload). The spec format refuses them as header parameters
 * (build-operations.ts), and import leaves them out with a note (import/operations.ts).
 */
export const fetchWrittenHeaders: ReadonlySet<string> = new Set([
  ...framingHeaders,
  "expect",
  "host",
]);

/**
 * Response headers the server writes for itself: the framing, the media type and the
 * encoding of the body. VTEX documents its answers' `Content-Length`, `Connection` and
 * `Content-Encoding`; made-up values of them are no HTTP a client can read
 * (`Content-Length: cedar`), so the stand-in leaves them to the server (stand-in-http.ts).
 */
export const serverWrittenHeaders: ReadonlySet<string> = new Set([
  ...framingHeaders,
  "content-encoding",
  "content-type",
]);
