/**
 * The router as a node:http request listener, and as Express (or Connect) middleware when
 * mounted before any body parser: the signature covers the raw bytes, so the router must
 * read the stream itself. Typed structurally against the objects Node passes in; nothing
 * else of Node is used, so the package still type-checks without Node's types.
 */
import { concatBytes } from "./body.js";
import type { InboundRequest, OutboundResponse } from "./core.js";
import type { HeaderReader } from "./signature.js";

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

/**
 * Reads the request stream up to `limit` bytes. Past the limit it stops keeping data, lets
 * the rest drain unread (the answer closes the connection) and resolves `undefined`.
 */
function readNodeBody(
  request: NodeRequestLike,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (request.readableEnded) {
    if (request.body instanceof Uint8Array)
      return Promise.resolve(
        request.body.byteLength > limit
          ? undefined
          : concatBytes([request.body], request.body.byteLength),
      );
    return Promise.reject(
      new Error(
        "the request body was already read: mount the callback router before any body parser",
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const stop = () => {
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
        resolve(undefined);
        return;
      }
      chunks.push(bytes);
    }
    function onEnd(): void {
      stop();
      resolve(concatBytes(chunks, size));
    }
    function onError(error: Error): void {
      stop();
      reject(error);
    }
    function onClose(): void {
      stop();
      reject(new Error("the request closed before its body ended"));
    }
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("close", onClose);
  });
}

/** Writes the core's answer, unless the response was already sent. */
function send(response: NodeResponseLike, answer: OutboundResponse): void {
  if (response.headersSent) return;
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** A node:http listener / Express middleware over the router core. */
export function createNodeListener(
  handle: (request: InboundRequest) => Promise<OutboundResponse>,
): NodeListener {
  return (request, response, next) => {
    const inbound: InboundRequest = {
      method: request.method ?? "GET",
      target: request.url ?? "/",
      headers: nodeHeaders(request.headers),
      readBody: (limit) => readNodeBody(request, limit),
    };
    handle(inbound)
      .then((answer) => (answer.unmatched && next ? next() : send(response, answer)))
      .catch((error: unknown) => {
        if (next) return next(error);
        try {
          send(response, { status: 500, headers: {}, body: "" });
        } catch {
          // the connection is gone: nothing left to answer
        }
      });
  };
}
