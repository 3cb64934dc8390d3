/**
 * Bodies: gathering raw chunks under a size limit and a time limit, parsing JSON only from
 * strict UTF-8, and the JSON answers, from a handler's result without a promise where it
 * gives none.
 */
import type { InboundRequest, OutboundResponse } from "./types.js";

/** Default largest body the router reads: 1 MiB. */
export const defaultBodyLimit: number = 1024 * 1024;

/**
 * Default longest wait for a whole body: 10 s. The service sends its small JSON bodies at
 * once; only a slow or stalled sender (a slowloris) takes longer.
 */
export const defaultBodyTimeoutMs = 10_000;

/** Longest delay a timer takes (about 24.8 days); a longer one would fire at once instead. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * The body time limit of the options: the default when unset, `Infinity` (no limit) for
 * `Infinity` or anything longer than a timer can wait. Anything but a positive number is a
 * mistake, refused when the router is created.
 */
export function bodyTimeout(ms: number | undefined): number {
  if (ms === undefined) return defaultBodyTimeoutMs;
  if (typeof ms !== "number" || !(ms > 0))
    throw new Error(
      `createCallbackRouter: bodyTimeoutMs must be a positive number of milliseconds (Infinity: no limit), not ${String(ms)}`,
    );
  return ms > maxTimerMs ? Infinity : ms;
}

/** A timer that calls `fire` after `ms`, or none when there is no limit. */
export function startTimer(
  ms: number,
  fire: () => void,
): ReturnType<typeof setTimeout> | undefined {
  return ms === Infinity ? undefined : setTimeout(fire, ms);
}

/** What `readWithin` gives when the body did not arrive in time. */
export const timedOut: unique symbol = Symbol("body timed out");

/**
 * `request.readBody`, or `timedOut` once `ms` have passed first; the reader's signal then
 * aborts so it can stop. One timer, cleared when the body is in.
 */
export function readWithin(
  request: InboundRequest,
  limit: number,
  ms: number,
): Promise<Uint8Array<ArrayBuffer> | undefined | typeof timedOut> {
  if (ms === Infinity) return request.readBody(limit);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => {
      resolve(timedOut);
      controller.abort();
    }, ms);
  });
  let read: Promise<Uint8Array<ArrayBuffer> | undefined>;
  try {
    read = request.readBody(limit, controller.signal);
  } catch (error) {
    clearTimeout(timer);
    throw error;
  }
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** One buffer of all chunks, in order. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Whether a `Content-Length` header already announces more than `limit` bytes. */
export function announcesTooMuch(contentLength: string | null | undefined, limit: number): boolean {
  if (contentLength === null || contentLength === undefined || !/^\d+$/.test(contentLength.trim()))
    return false;
  return Number(contentLength.trim()) > limit;
}

/**
 * Reads a Web stream up to `limit` bytes. Past the limit it cancels the stream (nothing more
 * is read or kept) and returns `undefined`. When `signal` aborts (the router stopped
 * waiting) the stream is cancelled too, and what it returns then is not used.
 */
export async function readStreamLimited(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return concatBytes(chunks, size);
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/** Parses JSON from bytes that must be valid UTF-8; never throws. */
export function parseJson(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(strictDecoder.decode(bytes)) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Response headers of a JSON answer; a fresh object per answer (an adapter may add to it), without a spread. */
function jsonHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  };
  return extra === undefined ? headers : Object.assign(headers, extra);
}

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): OutboundResponse {
  return { status, headers: jsonHeaders(headers), body: JSON.stringify(body) };
}

/** A handler's answer with `field` set to the event name, first; anything but a plain object as it is. */
export function withEvent(result: unknown, field: string, event: string): unknown {
  const plain = typeof result === "object" && result !== null && !Array.isArray(result);
  return plain ? { [field]: event, ...result, [field]: event } : result;
}

/** Whether `await` would wait for the value: a promise or any other thenable. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Runs a handler and turns what it returns into the answer, synchronously when it does not
 * return a promise (`await` would wait for any thenable, so this does too); whatever it
 * throws or rejects with, or `answer` throws on, goes to `failed`.
 */
export function runHandler(
  call: () => unknown,
  answer: (result: unknown) => OutboundResponse,
  failed: (error: unknown) => OutboundResponse,
): OutboundResponse | Promise<OutboundResponse> {
  const settle = (result: unknown): OutboundResponse => {
    try {
      return answer(result);
    } catch (error) {
      return failed(error);
    }
  };
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    return failed(error);
  }
  return isThenable(result) ? Promise.resolve(result).then(settle, failed) : settle(result);
}
