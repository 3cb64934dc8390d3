/**
 * Reading a response body with a size limit. `response.text()` reads a body whole, however
 * big the server makes it (or a gzip bomb unpacks to); reading the stream stops at the limit
 * and cancels the rest, so memory stays bounded whatever the server sends.
 */
import type { Ending } from "./timeout.js";

/** What was read of a body: its text, and whether the body went on past the limit. */
export interface BodyText {
  text: string;
  /** The body is longer than the limit: `text` is its first `limit` bytes, the rest unread. */
  cut: boolean;
}

const decoder = new TextDecoder();

/** The chunks read, as one text (UTF-8; a byte order mark dropped, as `text()` does). */
function decode(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return decoder.decode(bytes);
}

/** The bytes read of a body: its chunks, their size, and whether the body went on past the limit. */
interface Chunks {
  chunks: Uint8Array[];
  size: number;
  cut: boolean;
}

/**
 * Reads at most `limit` bytes of the body (`Infinity` for no limit), cancelling the rest.
 * `ending.release` cancels the read from outside (an attempt's timeout).
 */
async function readChunks(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  ending: Ending,
): Promise<Chunks> {
  const reader = stream.getReader();
  ending.release = () => void reader.cancel().catch(() => {});
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, size, cut: false };
    if (size + value.length > limit) {
      chunks.push(value.subarray(0, limit - size));
      reader.cancel().catch(() => {});
      return { chunks, size: limit, cut: true };
    }
    chunks.push(value);
    size += value.length;
  }
}

/**
 * Reads at most `limit` bytes of the body as text (`Infinity` for no limit), cancelling the
 * rest. `ending.release` cancels the read from outside (an attempt's timeout).
 */
export async function readText(
  response: Response,
  limit: number,
  ending: Ending,
): Promise<BodyText> {
  const stream = response.body;
  // A null body (204, say) has nothing to read; a Response-like object without a stream
  // (a test double) gives its text.
  if (!stream) {
    const text = await response.text();
    return text.length > limit ? { text: text.slice(0, limit), cut: true } : { text, cut: false };
  }
  const { chunks, size, cut } = await readChunks(stream, limit, ending);
  return { text: decode(chunks, size), cut };
}

/** Reads at most `limit` bytes of the body as a Blob of the response's media type. */
export async function readBlob(
  response: Response,
  limit: number,
  ending: Ending,
): Promise<{ blob: Blob; cut: boolean }> {
  const type = response.headers.get("content-type") ?? "";
  const stream = response.body;
  if (!stream) return { blob: new Blob([], { type }), cut: false };
  const { chunks, cut } = await readChunks(stream, limit, ending);
  return { blob: new Blob(chunks as Uint8Array<ArrayBuffer>[], { type }), cut };
}

/** Lets go of a body that will not be read, so that its connection is freed. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}
