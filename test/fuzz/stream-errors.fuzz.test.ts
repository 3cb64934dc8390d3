/**
 * A stream's error item (issue 32, item 2) in the client's Stream (runtime/client/stream.ts),
 * on random streams: server-sent events (data only, or named events with the error told by its
 * event name) and JSON lines, each a random run of ordinary items, items whose `error` key is
 * null, and error items with a random code, message and carried status, the text cut into
 * random byte chunks. The iteration must give exactly the items before the first error item,
 * then throw the API's error (read by the runtime's own errorDetails, as the client does) with
 * that item's index, code, message and status (the carried one when it is an HTTP status, else
 * the stream's 200), or, without an error item, end cleanly.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../generator/runtime/client/errors.ts";
import type { Operation, StreamSpec } from "../../generator/runtime/client/operation.ts";
import { errorDetails } from "../../generator/runtime/client/response.ts";
import { Stream } from "../../generator/runtime/client/stream.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

type Item =
  | { kind: "item"; n: number; errorNull: boolean }
  | { kind: "error"; code: string | undefined; message: string; status: number | undefined };

type Format = "data" | "events" | "jsonl";

const text = fc
  .array(fc.constantFrom("a", "b", " ", "é", "€", "😀", ":", "\\", '"', "\n", "{"), {
    maxLength: 10,
  })
  .map((parts) => parts.join(""));
const item: fc.Arbitrary<Item> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("item" as const),
      n: fc.nat(),
      errorNull: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("error" as const),
      code: fc.option(fc.constantFrom("server_error", "overloaded", "x"), { nil: undefined }),
      message: text,
      status: fc.option(
        fc.oneof(fc.integer({ min: 100, max: 599 }), fc.integer({ min: -5, max: 1000 })),
        {
          nil: undefined,
        },
      ),
    }),
  },
);

/** The JSON of an item as the server sends it. */
function dataOf(i: Item, format: Format): string {
  if (i.kind === "item") return JSON.stringify(i.errorNull ? { n: i.n, error: null } : { n: i.n });
  const detail = { code: i.code, message: i.message, status: i.status };
  return JSON.stringify(format === "events" ? { type: "error", error: detail } : { error: detail });
}

/** The whole stream's text. */
function streamText(items: readonly Item[], format: Format): string {
  return items
    .map((i) => {
      const data = dataOf(i, format);
      if (format === "jsonl") return `${data}\n`;
      if (format === "data") return `data: ${data}\n\n`;
      return `event: ${i.kind === "error" ? "error" : "delta"}\ndata: ${data}\n\n`;
    })
    .join("");
}

/** The bytes of `text` cut at the given points. */
function cut(whole: string, points: readonly number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(whole);
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...at, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

function specOf(format: Format): StreamSpec {
  if (format === "jsonl")
    return { format: "jsonl", error: { field: "error", status: ["error", "status"] } };
  if (format === "data")
    return { format: "sse", error: { field: "error", status: ["error", "status"] } };
  return {
    format: "sse",
    events: { delta: "json" },
    open: false,
    error: { event: "error", status: ["error", "status"] },
  };
}

async function run(
  format: Format,
  chunks: readonly Uint8Array[],
): Promise<{ items: unknown[]; thrown: unknown }> {
  const op = { id: "things.stream", responseHeaders: undefined } as unknown as Operation;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const response = new Response(body, { status: 200, headers: { "x-request-id": "req_1" } });
  const fail = (status: number, data: string, headers: Headers, index: number) =>
    new ApiError({ ...errorDetails(op.id, status, data, false, headers, []), streamItem: index });
  const stream = new Stream<unknown>(op, specOf(format), response, undefined, 1 << 20, fail);
  const items: unknown[] = [];
  try {
    for await (const i of stream) items.push(i);
  } catch (thrown) {
    return { items, thrown };
  }
  return { items, thrown: undefined };
}

describe("a stream's error item", () => {
  it(
    "gives the items before the first error item, then throws it as the API's error, however the bytes are cut",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom<Format>("data", "events", "jsonl"),
          fc.array(item, { maxLength: 12 }),
          fc.array(fc.nat(), { maxLength: 10 }),
          async (format, items, points) => {
            const { items: got, thrown } = await run(
              format,
              cut(streamText(items, format), points),
            );
            const first = items.findIndex((i) => i.kind === "error");
            const before = first === -1 ? items : items.slice(0, first);
            const want = before.map((i) => JSON.parse(dataOf(i, format)) as unknown);
            expect(got).toEqual(
              format === "events" ? want.map((data) => ({ event: "delta", data })) : want,
            );
            if (first === -1) {
              expect(thrown).toBeUndefined();
              return;
            }
            const error = items[first] as Extract<Item, { kind: "error" }>;
            expect(thrown).toBeInstanceOf(ApiError);
            const status =
              error.status !== undefined && error.status >= 100 && error.status <= 599
                ? error.status
                : 200;
            expect(thrown).toMatchObject({
              status,
              code: error.code,
              streamItem: first,
              requestId: "req_1",
              body: JSON.parse(dataOf(error, format)),
            });
            // The message as one log line: runs of space and line ends made one space, trimmed.
            const oneLine = error.message.replace(/\s+/g, " ").trim();
            expect((thrown as ApiError).serverMessage).toBe(oneLine || undefined);
          },
        ),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(30_000),
  );
});
