/**
 * The client's server-sent events parser (runtime/client/stream.ts, `SseParser`) against a
 * reference written line by line from the WHATWG "event stream interpretation", on random
 * streams cut into random byte chunks. The streams mix every field (`data`, `event`, `id`,
 * `retry`, unknown ones, no colon, no space after it), comments, blank lines, a BOM, NUL in an
 * id, multi-byte characters and all three line ends; the bytes are cut anywhere, inside a
 * character or between CR and LF, and decoded as the Stream does (a streaming TextDecoder).
 * The parser must give the reference's events, last event ID and retry, whatever the cuts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParser, type SseMessage } from "../../generator/runtime/client/stream.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

interface Parsed {
  events: SseMessage[];
  lastEventId: string;
  retry: number | undefined;
}

/** The reference: the whole text at once, each complete line processed as the standard says. */
function reference(whole: string): Parsed {
  const text = whole.startsWith("\uFEFF") ? whole.slice(1) : whole;
  const events: SseMessage[] = [];
  let data = "";
  let hasData = false;
  let type = "";
  let idBuffer = "";
  let lastEventId = "";
  let retry: number | undefined;
  const processLine = (line: string) => {
    if (line === "") {
      lastEventId = idBuffer;
      if (hasData) events.push({ event: type || "message", data, id: lastEventId });
      data = "";
      hasData = false;
      type = "";
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") type = value;
    else if (field === "data") {
      data = hasData ? `${data}\n${value}` : value;
      hasData = true;
    } else if (field === "id") {
      if (!value.includes("\0")) idBuffer = value;
    } else if (field === "retry") {
      if (/^[0-9]+$/.test(value)) retry = Number(value);
    }
  };
  // Only lines that end are lines: the end of the stream does not end the last one.
  const ends = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = ends.exec(text); m; m = ends.exec(text)) {
    processLine(text.slice(start, m.index));
    start = ends.lastIndex;
  }
  return { events, lastEventId, retry };
}

/** The parser under test, fed the bytes in `chunks` through a streaming decoder. */
function incremental(chunks: readonly Uint8Array[]): Parsed {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const events: SseMessage[] = [];
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }), events);
  parser.feed(decoder.decode(), events);
  return { events, lastEventId: parser.lastEventId, retry: parser.retry };
}

const lineEnd = fc.constantFrom("\n", "\r", "\r\n");
const valueText = fc
  .array(
    fc.constantFrom("a", "b", " ", ":", "é", "€", "😀", "\0", "0", "7", "{", "}", '"', "[DONE]"),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));
const fieldName = fc.constantFrom("data", "event", "id", "retry", "dat", "Data", "x", "");
/** One line of an event stream, its line end included (or none, for the stream's last). */
const line = fc.oneof(
  fc
    .tuple(fieldName, fc.constantFrom(":", ": ", ":  ", ""), valueText, lineEnd)
    .map(([name, sep, value, end]) => `${name}${sep}${value}${end}`),
  fc.tuple(valueText, lineEnd).map(([comment, end]) => `:${comment}${end}`),
  lineEnd, // a blank line: dispatch
  fc.tuple(fc.nat(99_999), lineEnd).map(([ms, end]) => `retry: ${ms}${end}`),
);
/** A stream: a BOM or not, lines, and maybe a last line cut off before its end. */
const stream = fc
  .tuple(fc.boolean(), fc.array(line, { maxLength: 40 }), fc.option(valueText))
  .map(([bom, lines, tail]) => `${bom ? "\uFEFF" : ""}${lines.join("")}${tail ?? ""}`);

/** The bytes of `text` cut at the given points (any byte offset, in order). */
function cut(text: string, points: readonly number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

describe("the SSE parser against the standard's algorithm", () => {
  it(
    "gives the reference's events, last event ID and retry however the bytes are cut",
    () => {
      fc.assert(
        fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), (text, points) => {
          const chunks = cut(text, points);
          const want = reference(new TextDecoder().decode(new TextEncoder().encode(text)));
          expect(incremental(chunks)).toEqual(want);
        }),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(30_000),
  );

  it(
    "gives the same events when every byte is a chunk of its own",
    () => {
      fc.assert(
        fc.property(stream, (text) => {
          const bytes = new TextEncoder().encode(text);
          const one = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
          expect(incremental(one)).toEqual(incremental([bytes]));
        }),
        fuzzParameters(100, 2_000),
      );
    },
    fuzzTimeout(30_000),
  );
});
