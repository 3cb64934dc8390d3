/**
 * What a server adapter (node.ts, fetch.ts) and the request handling behind it exchange: a
 * request as received, the answer to write, and a request after the checks that need no
 * body. Shared by the callback router (runtime/callbacks) and the stand-in (runtime/testing),
 * so both answer every request through the same adapters, limits and deadline.
 */

/** Reads a request header by name, in any letter case (as `Headers#get` does). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request as the core sees it, whichever server received it. */
export interface InboundRequest {
  method: string;
  /** Path and query as received, e.g. `/oauth/login?state=...` (an absolute URL is accepted too). */
  target: string;
  headers: HeaderReader;
  /**
   * The raw body, read no further than `limit` bytes: `undefined` once it is larger. `signal`
   * aborts when the router stopped waiting (`bodyTimeoutMs`): stop reading then.
   */
  readBody(limit: number, signal?: AbortSignal): Promise<Uint8Array<ArrayBuffer> | undefined>;
}

/** The core's answer; an adapter writes it out. */
export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** No route has this path: a framework adapter may hand the request on instead. */
  unmatched?: true;
}

/** An answer, or the promise of one when the signature check or the handler is asynchronous. */
export type Answer = OutboundResponse | Promise<OutboundResponse>;

/** A request after the checks that need no body: an answer already, or what to do with the body. */
export type Begun =
  | { answer: OutboundResponse }
  | {
      answer?: undefined;
      /** Read no further than this many bytes; pass `undefined` to `complete` once it is larger. */
      limit: number;
      /** Wait no longer than this many milliseconds for the body, then answer `timedOut()`; `Infinity`: no limit. */
      timeoutMs: number;
      /** The rest, from the raw body: signature, JSON, validation, handler. */
      complete(body: Uint8Array<ArrayBuffer> | undefined): Answer;
      /** The body could not be read: the generic 500, after `onError`. */
      failed(error: unknown): OutboundResponse;
      /** The body did not arrive within `timeoutMs`: 408, closing the connection. */
      timedOut(): OutboundResponse;
    };

/**
 * What the adapters drive: `begin` routes a request and makes the checks that need no body,
 * `fail` is the answer to an error outside it (an adapter's). Neither throws.
 */
export interface RequestCore {
  begin(method: string, target: string, headers: HeaderReader): Begun;
  /** The generic 500 for an error outside the core (an adapter's), after `onError` has seen it. */
  fail(error: unknown, target: string): OutboundResponse;
}
