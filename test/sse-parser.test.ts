/**
 * The SSE parser of the client runtime (generator/runtime/client/stream.ts), rule by rule of
 * the HTML standard's "event stream interpretation": given the text in chunks, the events it
 * must dispatch. End-to-end streams over HTTP are in client-streaming.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SseParser, type SseMessage } from "../generator/runtime/client/stream.ts";

/** Feeds `chunks` to a parser and gives the events. */
function parse(chunks: string[]): SseMessage[] {
  const parser = new SseParser();
  const events: SseMessage[] = [];
  for (const chunk of chunks) parser.feed(chunk, events);
  return events;
}

const m = (data: string, event = "message", id = ""): SseMessage => ({ event, data, id });

describe("SseParser", () => {
  it.each<[string, string[], SseMessage[]]>([
    ["LF line ends", ["data: a\n\n"], [m("a")]],
    ["CRLF line ends", ["data: a\r\n\r\n"], [m("a")]],
    ["CR line ends", ["data: a\r\r"], [m("a")]],
    ["CRLF split between CR and LF is one line end", ["data: a\r", "\n\r", "\n"], [m("a")]],
    ["CR then CR across chunks is two line ends", ["data: a\r", "\r"], [m("a")]],
    ["a leading BOM is dropped", ["\uFEFFdata: a\n\n"], [m("a")]],
    ["a BOM later is kept", ["data: \uFEFFa\n\n"], [m("\uFEFFa")]],
    ["one leading space removed, not two", ["data:  a\n\n"], [m(" a")]],
    ["no colon: field with empty value", ["data\n\n"], [m("")]],
    ["data lines joined with LF", ["data: a\ndata: b\n\n"], [m("a\nb")]],
    ["comment lines ignored", [": hi\ndata: a\n:\n\n"], [m("a")]],
    ["no data: nothing dispatched", ["event: x\n\n"], []],
    [
      "event names the type, then resets",
      ["event: x\ndata: a\n\ndata: b\n\n"],
      [m("a", "x"), m("b")],
    ],
    [
      "id persists across events",
      ["id: 1\ndata: a\n\ndata: b\n\n"],
      [m("a", "message", "1"), m("b", "message", "1")],
    ],
    ["an id with NUL is ignored", ["id: 1\n\nid: 2\0\ndata: a\n\n"], [m("a", "message", "1")]],
    ["empty id resets it", ["id: 1\n\nid\ndata: a\n\n"], [m("a")]],
    ["unknown fields ignored", ["foo: bar\ndata: a\n\n"], [m("a")]],
    ["field names are case-sensitive", ["Data: a\n\n"], []],
    ["an unfinished event is not dispatched", ["data: a\n"], []],
    ["split inside the field name", ["da", "ta: a", "\n", "\n"], [m("a")]],
    ["a colon in the value is kept", ["data: a: b\n\n"], [m("a: b")]],
    ["an empty data line adds an empty line", ["data\ndata: b\n\n"], [m("\nb")]],
    [
      "a blank line in one chunk, split CRLF in the next",
      ["data: a\r\n\r", "\ndata: b\r\n\r\n"],
      [m("a"), m("b")],
    ],
    ["a BOM split from the rest is still the first character", ["\uFEFF", "data: a\n\n"], [m("a")]],
    ["many events in one chunk", ["data: 1\n\ndata: 2\n\ndata: 3\n\n"], [m("1"), m("2"), m("3")]],
  ])("%s", (_name, chunks, want) => {
    expect(parse(chunks)).toEqual(want);
  });

  it("retry takes digits only", () => {
    const parser = new SseParser();
    parser.feed("retry: 10\n\nretry: 1e3\n\nretry: -5\n\n", []);
    expect(parser.retry).toBe(10);
  });
});
