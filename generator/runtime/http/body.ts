/**
 * Request bodies: gathering raw chunks under a size limit and a time limit, and parsing JSON
 * only from strict UTF-8. Shared by the callback router and the stand-in.
 */
import type { InboundRequest } from "./types.js";

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
 * mistake, refused when the router (or the stand-in: `owner`) is created.
 */
export function bodyTimeout(ms: number | undefined, owner = "createCallbackRouter"): number {
  if (ms === undefined) return defaultBodyTimeoutMs;
  if (typeof ms !== "number" || !(ms > 0))
    throw new Error(
      `${owner}: bodyTimeoutMs must be a positive number of milliseconds (Infinity: no limit), not ${String(ms)}`,
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
  const text = strictText(bytes);
  return text === undefined ? { ok: false } : parseJsonText(text);
}

/** The text of bytes that must be valid UTF-8 (a BOM is kept), or `undefined`. */
export function strictText(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Parses JSON text (from `strictText`, where a caller needs to tell bytes that are not UTF-8
 * from text that is not JSON); never throws. `JSON.parse` keeps no stack per level: a body
 * nested as deep as its size allows parses.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
