/**
 * A request core (the callback router's, the stand-in's) as a node:http request listener,
 * and as Express (or Connect) middleware when mounted before any body parser: the router's
 * signature covers the raw bytes, so the listener must read the stream itself. Typed
 * structurally against the objects Node passes in; nothing else of Node is used, so the
 * package still type-checks without Node's types.
 */
import { concatBytes, startTimer } from "./body.js";
import type { Answer, Begun, HeaderReader, OutboundResponse, RequestCore } from "./types.js";

/** The part of node:http's `IncomingMessage` the adapter uses. */
export interface NodeRequestLike {
  method?: string | undefined;
  url?: string | undefined;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** True once the stream was read, e.g. by a body parser. */
  readableEnded?: boolean;
  /** Set by body parsers; a `Uint8Array` (from `express.raw()`) is used when the stream is spent. */
  body?: unknown;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  removeListener(
    event: "data" | "end" | "error" | "close",
    listener: (...args: never[]) => void,
  ): unknown;
  resume(): unknown;
}

/** The part of node:http's `ServerResponse` the adapter uses. */
export interface NodeResponseLike {
  headersSent?: boolean;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: string): unknown;
}

/** A node:http listener that also works as Express middleware (`next` gets unknown paths). */
export type NodeListener = (
  request: NodeRequestLike,
  response: NodeResponseLike,
  next?: (error?: unknown) => void,
) => void;

const encoder = new TextEncoder();

/** Headers of a Node request, read as `Headers#get` would (repeated values joined by `, `). */
function nodeHeaders(headers: NodeRequestLike["headers"]): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** A request whose body is to be read: what `core.begin` gives when it has no answer yet. */
type Reading = Exclude<Begun, { answer: OutboundResponse }>;

/**
 * Reads the request stream up to `begun.limit` bytes, then settles the answer: `complete`
 * with the bytes, or with `undefined` past the limit (it stops keeping data and lets the
 * rest drain unread; the answer closes the connection), `timedOut` when the whole body has
 * not come within `begun.timeoutMs` (the same), or `failed` with the error; one in all.
 * Callbacks, not a promise: reading the body costs no microtask, and one timer unless the
 * body is already in.
 */
function readNodeBody(
  request: NodeRequestLike,
  begun: Reading,
  settle: (make: () => Answer) => void,
): void {
  const { limit } = begun;
  const done = (body: Uint8Array<ArrayBuffer> | undefined) => settle(() => begun.complete(body));
  const fail = (error: unknown) => settle(() => begun.failed(error));
  if (request.readableEnded) {
    if (request.body instanceof Uint8Array)
      done(
        request.body.byteLength > limit
          ? undefined
          : concatBytes([request.body], request.body.byteLength),
      );
    else
      fail(
        new Error(
          "the request body was already read: mount the callback router before any body parser",
        ),
      );
    return;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const timer = startTimer(begun.timeoutMs, () => {
    stop();
    request.resume();
    settle(begun.timedOut);
  });
  const stop = () => {
    clearTimeout(timer);
    request.removeListener("data", onData);
    request.removeListener("end", onEnd);
    request.removeListener("error", onError);
    request.removeListener("close", onClose);
  };
  function onData(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > limit) {
      stop();
      request.resume();
      done(undefined);
      return;
    }
    chunks.push(bytes);
  }
  function onEnd(): void {
    stop();
    // one chunk (a small body): no copy; Node never reuses the memory of a chunk it handed out
    done(chunks.length === 1 ? ownBytes(chunks[0]!) : concatBytes(chunks, size));
  }
  function onError(error: Error): void {
    stop();
    fail(error);
  }
  function onClose(): void {
    stop();
    fail(new Error("the request closed before its body ended"));
  }
  request.on("data", onData);
  request.on("end", onEnd);
  request.on("error", onError);
  request.on("close", onClose);
}

/** A chunk as the body, when it is backed by a plain `ArrayBuffer` (else a copy). */
function ownBytes(chunk: Uint8Array): Uint8Array<ArrayBuffer> {
  return chunk.buffer instanceof ArrayBuffer
    ? (chunk as Uint8Array<ArrayBuffer>)
    : concatBytes([chunk], chunk.byteLength);
}

/** Writes the core's answer, unless the response was already sent. */
function send(response: NodeResponseLike, answer: OutboundResponse): void {
  if (response.headersSent) return;
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/**
 * A node:http listener / Express middleware over a request core. The core is driven
 * directly (route, read the body with callbacks, complete): a request whose handler returns
 * a promise costs that one promise. An unknown path goes to `next` when there is one. The
 * core answers its own errors; an error here (writing the answer) goes to `next(error)`, or
 * to `onError` and the generic 500 when it can still be sent.
 */
export function createNodeListener(core: RequestCore): NodeListener {
  return (request, response, next) => {
    const fallback = (error: unknown): void => {
      if (next) return next(error);
      try {
        send(response, core.fail(error, request.url ?? "/"));
      } catch {
        // the connection is gone: nothing left to answer
      }
    };
    const write = (answer: OutboundResponse): void => {
      try {
        if (answer.unmatched && next) next();
        else send(response, answer);
      } catch (error) {
        fallback(error);
      }
    };
    /** Writes what `make` answers, now or once its promise settles. */
    const settle = (make: () => Answer): void => {
      try {
        const answer = make();
        if (answer instanceof Promise) answer.then(write, fallback);
        else write(answer);
      } catch (error) {
        fallback(error);
      }
    };
    try {
      const begun = core.begin(
        request.method ?? "GET",
        request.url ?? "/",
        nodeHeaders(request.headers),
      );
      if (begun.answer !== undefined) return write(begun.answer);
      readNodeBody(request, begun, settle);
    } catch (error) {
      fallback(error);
    }
  };
}
