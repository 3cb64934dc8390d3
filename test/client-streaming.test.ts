/**
 * Streamed responses end to end: the client of test/fixtures/features/streaming, generated
 * into a temp folder, against a node:http server on 127.0.0.1 that writes server-sent events
 * and JSON lines. Exact byte boundaries are forced by the client's `fetch` option, which
 * passes the server's real response on re-cut into chunks of chosen sizes (inside multi-byte
 * characters, between `\r` and `\n`, one byte at a time); the SSE parser's own table is in
 * sse-parser.test.ts. Aborts, `break`, malformed streams, the timeout's reach, and the
 * overloads and event narrowing under tsc strict (TypeScript 6 and 7).
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateFrom, tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let answer: Answer = (_req, res) => void res.end();
let requests: { url: string; accept: string | undefined; body: string }[] = [];
/** Resolves when the server sees the connection of the current answer close. */
let closed: Promise<void> = Promise.resolve();
let out: string;
// The generated module: its types are checked by the type-check below, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;

beforeAll(async () => {
  out = tempDir("apigen-streaming-");
  await writeGenerated("test/fixtures/features/streaming", out);
  generated = await import(pathToFileURL(join(out, "src/index.ts")).href);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ url: req.url ?? "", accept: req.headers.accept, body });
      closed = new Promise((resolve) => res.on("close", () => resolve()));
      void answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(out, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
  answer = (_req, res) => void res.end();
});

/** Answers with `text` as a stream of the given media type. */
function streamOf(text: string, type = "text/event-stream"): Answer {
  return (_req, res) => {
    res.writeHead(200, { "content-type": type });
    res.end(text);
  };
}

/** A `fetch` that re-cuts the real response's body into chunks of `sizes` bytes (cycled). */
function recut(sizes: (at: number) => number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const size = Math.max(1, sizes(at));
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function client(options: Record<string, unknown> = {}): any {
  return new generated.StreamsClient({ baseUrl, token: "tok", maxRetries: 0, ...options });
}

/** Every item of a stream. */
async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(work: PromiseLike<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await work;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a failure");
}

const request = { model: "m", prompt: "hi" };

/** `count` chunk events with multi-byte text, CRLF line ends, ids and a comment now and then. */
function chunkEvents(count: number): { text: string; deltas: string[] } {
  const deltas: string[] = [];
  let text = "";
  for (let i = 0; i < count; i++) {
    const delta = `é${i}€😀`;
    deltas.push(delta);
    if (i % 100 === 0) text += ": keep-alive\r\n";
    text += `id: ${i}\r\ndata: ${JSON.stringify({ id: `c${i}`, delta, index: i })}\r\n\r\n`;
  }
  return { text: `${text}data: [DONE]\r\n\r\n`, deltas };
}

describe("server-sent events, data only, ended by a terminator", () => {
  it("gives 10,000 events cut at awkward byte boundaries, each whole", async () => {
    const { text, deltas } = chunkEvents(10_000);
    answer = streamOf(text);
    // Sizes 1..13 in turn: cuts land inside the 2-, 3- and 4-byte characters and inside \r\n.
    const c = client({ fetch: recut((at) => 1 + ((at * 7) % 13)) });
    const stream = await c.completions.stream(request);
    const items = (await collect(stream)) as { delta: string; index: number }[];
    expect(items).toHaveLength(10_000);
    expect(items.map((i) => i.delta)).toEqual(deltas);
    expect(stream.lastEventId).toBe("9999");
    expect(requests[0]!.accept).toBe("text/event-stream, application/json;q=0.5");
  });

  it("reads a stream sent one byte per chunk, with CR, LF and CRLF line ends", async () => {
    const body = [
      '\uFEFFdata: {"id":"a","delta":"ü"}\r\r',
      'data: {"id":"b","delta":"😀"}\n\n',
      'data: {"id":"c","delta":"x"}\r\n\r\n',
      "data: [DONE]\n\n",
    ].join("");
    answer = streamOf(body);
    const stream = await client({ fetch: recut(() => 1) }).completions.stream(request);
    expect(await collect(stream)).toEqual([
      { id: "a", delta: "ü" },
      { id: "b", delta: "😀" },
      { id: "c", delta: "x" },
    ]);
  });

  it("fails with StreamParseError when the stream ends before its terminator", async () => {
    answer = streamOf('data: {"id":"a","delta":"x"}\n\n');
    const stream = await client().completions.stream(request);
    const error = await rejection(collect(stream));
    expect(error.name).toBe("StreamParseError");
    expect(error.message).toBe(
      'completions.stream: the stream ended after 1 event without its terminator "[DONE]"',
    );
    expect(error).toBeInstanceOf(generated.StreamParseError);
  });

  it("fails with StreamParseError naming the endpoint, index and event for data that is not JSON", async () => {
    answer = streamOf('data: {"id":"a","delta":"x"}\n\ndata: {oops\n\n');
    const error = await rejection(collect(await client().completions.stream(request)));
    expect(error.message).toBe('completions.stream: event 1 ("message") has data that is not JSON');
    expect(error).toMatchObject({ endpointId: "completions.stream", index: 1, event: "message" });
  });
});

describe("the SSE format", () => {
  it("joins data lines, skips comments and unknown fields, keeps id and retry, drops an unfinished event", async () => {
    answer = streamOf(
      [
        ": a comment",
        "data: first line",
        "data:second line",
        "data:  two spaces",
        "",
        "id: 7",
        "retry: 2500",
        "retry: soon",
        "whatever: ignored",
        "event: custom",
        "data",
        "",
        "id: 8\0bad",
        "",
        "data: no blank line after me",
      ].join("\n"),
    );
    const stream = await client().ticks.watch();
    expect(await collect(stream)).toEqual(["first line\nsecond line\n two spaces", ""]);
    expect(stream.lastEventId).toBe("7");
    expect(stream.retry).toBe(2500);
  });
});

describe("named events", () => {
  it("gives each event with its name, data and id; an open stream passes unknown names on", async () => {
    answer = streamOf(
      [
        "event: message_start",
        'data: {"message_id":"m1"}',
        "id: e1",
        "",
        "event: ping",
        "data: {}",
        "",
        "event: content_block_delta",
        'data: {"index":0,"text":"Hé"}',
        "",
        "event: brand_new",
        "data: not json",
        "",
        "event: message_stop",
        'data: {"reason":"end"}',
        "",
        "",
      ].join("\n"),
    );
    expect(await collect(await client().messages.stream(request))).toEqual([
      { event: "message_start", data: { message_id: "m1" }, id: "e1" },
      { event: "ping", data: {}, id: "e1" },
      { event: "content_block_delta", data: { index: 0, text: "Hé" }, id: "e1" },
      { event: "brand_new", data: "not json", id: "e1" },
      { event: "message_stop", data: { reason: "end" }, id: "e1" },
    ]);
  });

  it("a closed stream fails on a name it does not list; text data stays text; headers are typed", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "x-job-state": "running" });
      res.end(
        'event: progress\ndata: {"percent":50}\n\nevent: log\ndata: {not json}\n\nevent: surprise\ndata: 1\n\n',
      );
    };
    const stream = await client().jobs.watch("j1");
    expect(stream.headers).toEqual({ "X-Job-State": "running" });
    expect(stream.status).toBe(200);
    const items: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of stream) items.push(item);
      })(),
    );
    expect(items).toEqual([
      { event: "progress", data: { percent: 50 } },
      { event: "log", data: "{not json}" },
    ]);
    expect(error.message).toBe('jobs.watch: event 2 ("surprise") is not an event the spec lists');
    expect(error).toMatchObject({ name: "StreamParseError", event: "surprise", index: 2 });
  });
});

describe("JSON lines", () => {
  it("gives each line, skipping blank ones and reading a last line without a newline", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ seq: i, level: "info", message: `line ${i} ✓` }),
    );
    answer = streamOf(
      `${lines.slice(0, 1000).join("\r\n")}\n\n\n${lines.slice(1000).join("\n")}`,
      "application/x-ndjson",
    );
    const c = client({ fetch: recut((at) => 1 + (at % 17)) });
    const items = (await collect(await c.logs.tail({ level: "info" }))) as { seq: number }[];
    expect(items.map((i) => i.seq)).toEqual(lines.map((_, i) => i));
    expect(requests[0]!.url).toBe("/v1/logs?level=info");
  });

  it("fails with StreamParseError on a line that is not JSON", async () => {
    answer = streamOf('{"seq":1,"level":"a","message":"b"}\nnope\n', "application/x-ndjson");
    const error = await rejection(collect(await client().logs.tail()));
    expect(error.message).toBe("logs.tail: line 1 is text that is not JSON");
  });

  it("fails with StreamParseError on a line over maxResponseBytes", async () => {
    answer = streamOf(`${JSON.stringify({ message: "x".repeat(500) })}\n`, "application/x-ndjson");
    const error = await rejection(collect(await client({ maxResponseBytes: 100 }).logs.tail()));
    expect(error.message).toBe("logs.tail: line 0 has a line over the 100-character limit");
  });
});

/** Writes an event every few ms until the connection closes. */
const endless: Answer = (_req, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  let i = 0;
  const timer = setInterval(
    () => res.write(`data: ${JSON.stringify({ id: `${i++}`, delta: "x" })}\n\n`),
    2,
  );
  res.on("close", () => clearInterval(timer));
};

describe("ending a stream early", () => {
  it("break out of for await closes the connection", async () => {
    answer = endless;
    const stream = await client().completions.stream(request);
    let seen = 0;
    for await (const _ of stream) if (++seen === 3) break;
    await closed; // the server sees its socket close; the test times out otherwise
    expect(seen).toBe(3);
  });

  it("the call's signal aborts mid-stream with UserAbortError and closes the connection", async () => {
    answer = endless;
    const controller = new AbortController();
    const stream = await client().completions.stream(request, { signal: controller.signal });
    let seen = 0;
    const error = await rejection(
      (async () => {
        for await (const _ of stream) if (++seen === 5) controller.abort();
      })(),
    );
    expect(error.name).toBe("UserAbortError");
    expect(error.message).toBe("completions.stream was aborted mid-stream");
    await closed;
  });

  it("an abort while waiting for the next event ends the wait", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"id":"a","delta":"x"}\n\n');
    };
    const controller = new AbortController();
    const stream = await client().completions.stream(request, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ id: "a", delta: "x" });
    setTimeout(() => controller.abort(), 20);
    expect((await rejection(iterator.next())).name).toBe("UserAbortError");
    await closed;
  });

  it("a connection that breaks mid-stream is a ConnectionError", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"id":"a","delta":"x"}\n\n', () => setTimeout(() => res.destroy(), 10));
    };
    const error = await rejection(collect(await client().completions.stream(request)));
    expect(error.name).toBe("ConnectionError");
    expect(error.message).toMatch(/^completions\.stream's response broke off: /);
  });

  it("a stream can be iterated once", async () => {
    answer = streamOf("data: [DONE]\n\n");
    const stream = await client().completions.stream(request);
    await collect(stream);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(
      "completions.stream: a stream can be iterated only once",
    );
  });
});

describe("the call around a stream", () => {
  it("the timeout covers the wait for the headers, not the stream", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let i = 0;
      const timer = setInterval(() => {
        if (i === 6) {
          clearInterval(timer);
          return res.end("data: [DONE]\n\n");
        }
        res.write(`data: {"id":"${i++}","delta":"x"}\n\n`);
      }, 50);
    };
    const stream = await client({ timeoutMs: 150 }).completions.stream(request);
    expect(await collect(stream)).toHaveLength(6);
  });

  it("headers that do not come within the timeout are a TimeoutError", async () => {
    answer = (_req, res) => void setTimeout(() => res.end(), 400);
    const error = await rejection(client({ timeoutMs: 100 }).completions.stream(request));
    expect(error.name).toBe("TimeoutError");
  });

  it("an error status is the API's error, its body read", async () => {
    answer = (_req, res) => {
      res.writeHead(429, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: "slow down" }));
    };
    const error = await rejection(client().completions.stream(request));
    expect(error).toMatchObject({ name: "StreamsApiError", status: 429 });
  });

  it("withResponse() gives the Stream with the response; asResponse() the raw stream", async () => {
    answer = streamOf("data: [DONE]\n\n");
    const { data, status, response } = await client().completions.stream(request).withResponse();
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await collect(data)).toEqual([]);
    answer = streamOf("data: 1\n\n");
    const raw = await client().completions.stream(request).asResponse();
    expect(await raw.text()).toBe("data: 1\n\n");
  });
});

describe("a body flag that switches to a stream", () => {
  it("stream: true gives the Stream, asking for text/event-stream", async () => {
    answer = streamOf('data: {"id":"a","delta":"x"}\n\ndata: [DONE]\n\n');
    const stream = await client().chat.create({ ...request, stream: true });
    expect(await collect(stream)).toEqual([{ id: "a", delta: "x" }]);
    expect(requests[0]!.accept).toBe("text/event-stream, application/json;q=0.5");
    expect(JSON.parse(requests[0]!.body)).toEqual({ ...request, stream: true });
  });

  it("without it (or false) the JSON answer, asking for JSON", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c1", text: "hello" }));
    };
    expect(await client().chat.create(request)).toEqual({ id: "c1", text: "hello" });
    expect(await client().chat.create({ ...request, stream: false })).toEqual({
      id: "c1",
      text: "hello",
    });
    expect(requests.map((r) => r.accept)).toEqual(["application/json", "application/json"]);
  });
});

describe("what a package gets", () => {
  it("stream.ts and the files it reads with (and StreamParseError, and the Stream type) only with a streaming endpoint", async () => {
    const folders = [tempDir("apigen-streaming-merchant-"), tempDir("apigen-streaming-fixture-")];
    try {
      const [merchant, streaming] = [
        await generateFrom("spec", folders[0]),
        await generateFrom("test/fixtures/features/streaming", folders[1]),
      ];
      const file = (r: typeof merchant, path: string) => r.files.find((f) => f.path === path);
      const streamFiles = ["stream", "sse-parser", "json-lines", "stream-reader"].map(
        (name) => `src/runtime/client/${name}.ts`,
      );
      for (const path of streamFiles) expect(file(merchant, path)).toBeUndefined();
      expect(file(merchant, "src/client.ts")!.contents).not.toMatch(/openStream|Stream</);
      expect(file(merchant, "src/errors.ts")!.contents).not.toContain("StreamParseError");
      for (const path of streamFiles) expect(file(streaming, path)).toBeDefined();
      // messages.stream is open: its union ends in UnknownEvent, from unions.ts.
      expect(file(streaming, "src/runtime/unions.ts")).toBeDefined();
      expect(file(streaming, "src/errors.ts")!.contents).toContain("StreamParseError");
    } finally {
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("types of the streaming client", () => {
  const consumer = `import {
  StreamsClient,
  type ChatChunk,
  type ChatCompletion,
  type JobsWatchEvent,
  type MessagesStreamEvent,
  type Stream,
} from "./index.js";

const client = new StreamsClient({ baseUrl: "http://127.0.0.1", token: "t" });
const request = { model: "m", prompt: "p" };

export async function overloads(flag: boolean): Promise<void> {
  const stream: Stream<ChatChunk> = await client.chat.create({ ...request, stream: true });
  for await (const chunk of stream) chunk.delta.toUpperCase();
  const completion: ChatCompletion = await client.chat.create(request);
  completion.text.toUpperCase();
  const off: ChatCompletion = await client.chat.create({ ...request, stream: false });
  off.id.toUpperCase();
  const either: Stream<ChatChunk> | ChatCompletion = await client.chat.create({ ...request, stream: flag });
  if (!("text" in either)) for await (const chunk of either) chunk.id.toUpperCase();
  // @ts-expect-error the stream is not a ChatCompletion
  const wrong: ChatCompletion = await client.chat.create({ ...request, stream: true });
  // @ts-expect-error a plain call does not give a stream
  const wrong2: Stream<ChatChunk> = await client.chat.create(request);
  void [wrong, wrong2];
}

export async function narrowing(): Promise<string> {
  let text = "";
  for await (const e of await client.messages.stream(request)) {
    if (e.event === "content_block_delta") text += e.data.text;
    else if (e.event === "message_start") text += e.data.message_id;
    // @ts-expect-error an unknown event's data is unknown
    else if (String(e.event) === "x") e.data.anything;
  }
  return text;
}

export async function closed(): Promise<number> {
  const stream = await client.jobs.watch("j");
  const state: string | undefined = stream.headers["X-Job-State"];
  void state;
  let total = 0;
  for await (const e of stream) {
    switch (e.event) {
      case "progress":
        total += e.data.percent;
        break;
      case "log":
        total += e.data.length;
        break;
      case "done":
        total += e.data.ok ? 1 : 0;
        break;
      default: {
        const never: never = e;
        return never;
      }
    }
  }
  return total;
}

export async function items(): Promise<void> {
  for await (const line of await client.logs.tail()) line.seq.toFixed();
  for await (const tick of await client.ticks.watch()) tick.toUpperCase();
  // @ts-expect-error a closed stream has no other event
  const bad: JobsWatchEvent = { event: "other", data: 1 };
  const ok: MessagesStreamEvent = { event: "ping", data: null };
  void [bad, ok];
}
`;

  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])(
    "compile strict with %s: overloads by flag, event narrowing, and misuse refused",
    (_name, tsc) => {
      writeFileSync(join(out, "src/consumer.ts"), consumer);
      const run = runTypeScript(tsc, [
        "-p",
        join(tsc === typescript6 ? withRuntimeDeclarations(out) : out, "tsconfig.json"),
      ]);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.status).toBe(0);
    },
    60_000,
  );
});
