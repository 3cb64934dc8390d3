/**
 * Raw bodies: gathering chunks under a size limit, and parsing JSON only from strict UTF-8.
 */

/** Default largest body the router reads: 1 MiB. */
export const defaultBodyLimit = 1024 * 1024;

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
 * is read or kept) and returns `undefined`.
 */
export async function readStreamLimited(
  stream: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
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
