/**
 * A stream's error item (issue 32, item 2): the client of test/fixtures/features/streaming
 * against a node:http server on 127.0.0.1 that begins a stream (200) and then sends the error
 * the spec declares (OpenAI's `data: {"error": {...}}`, Anthropic's `event: error`, a JSON
 * line with an `error` key). The `for await` gets the items before it, then throws the API's
 * error class with status, code and message, and the body is let go of. Also the stand-in of
 * the same spec told to send it (`Prefer: stream-error`), and the types with TypeScript 6 and 7.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

let server: Server;
let baseUrl: string;
let answer: (res: ServerResponse) => void = (res) => void res.end();
/** Resolves when the server sees the connection of the current answer close. */
let closed: Promise<void> = Promise.resolve();
let out: string;
// The generated module: its types are checked by the type-check below, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;

beforeAll(async () => {
  out = tempDir("apigen-stream-errors-");
  await writeGenerated("test/fixtures/features/streaming", out);
  generated = await import(pathToFileURL(join(out, "src/index.ts")).href);
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      closed = new Promise((resolve) => res.on("close", () => resolve()));
      answer(res);
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

const secret = "sk_live_0123456789";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const client = (options: Record<string, unknown> = {}): any =>
  new generated.StreamsClient({ baseUrl, token: secret, maxRetries: 2, ...options });
const request = { model: "m", prompt: "hi" };

/**
 * Writes `head` at once, then keeps the stream open: after an error item the client must stop
 * reading and let go of the body, or the test would wait for the rest forever.
 */
function streamThenHang(head: string, type = "text/event-stream"): void {
  answer = (res) => {
    res.writeHead(200, { "content-type": type, "x-request-id": "req_stream_1" });
    res.write(head);
  };
}

/** The items a `for await` got before it threw, and what it threw. */
async function readUntilThrown(
  stream: AsyncIterable<unknown>,
): Promise<{ items: unknown[]; error: Error & Record<string, unknown> }> {
  const items: unknown[] = [];
  try {
    for await (const item of stream) items.push(item);
  } catch (error) {
    return { items, error: error as Error & Record<string, unknown> };
  }
  throw new Error("the stream ended without throwing");
}

const chunk = (i: number) => `data: ${JSON.stringify({ id: `c${i}`, delta: `d${i}` })}\n\n`;

describe("an error item in a stream that began", () => {
  it("data with an `error` key: the items before it, then the API's error with the status it carries; the body is let go of", async () => {
    const failure = {
      error: { code: "server_error", message: "The server had an error.", status: 503 },
    };
    streamThenHang(`${chunk(0)}${chunk(1)}data: ${JSON.stringify(failure)}\n\n${chunk(2)}`);
    const stream = await client().chat.create({ ...request, stream: true });
    const { items, error } = await readUntilThrown(stream);
    expect(items).toEqual([
      { id: "c0", delta: "d0" },
      { id: "c1", delta: "d1" },
    ]);
    expect(error).toBeInstanceOf(generated.StreamsApiError);
    expect(error).toMatchObject({
      name: "StreamsApiError",
      endpointId: "chat.create",
      status: 503,
      kind: "server",
      code: generated.ErrorCode.serverError,
      serverMessage: "The server had an error.",
      streamItem: 2,
      requestId: "req_stream_1",
      body: failure,
    });
    expect(error.message).toBe(
      "chat.create failed with 503 code server_error in stream item 2: The server had an error.",
    );
    await closed; // the client cancelled the body, which closed the connection
  });

  it("without a status in the item, the error has the stream's 200 and is the server's kind", async () => {
    streamThenHang(`${chunk(0)}data: {"error":{"message":"Overloaded","type":"server_error"}}\n\n`);
    const { items, error } = await readUntilThrown(await client().completions.stream(request));
    expect(items).toHaveLength(1);
    expect(error).toMatchObject({ status: 200, kind: "server", code: undefined, streamItem: 1 });
    expect(error.serverMessage).toBe("Overloaded");
    await closed;
  });

  it("an SSE `event: error` among named events, however the stream would read that name otherwise", async () => {
    streamThenHang(
      [
        "event: message_start",
        'data: {"message_id":"m1"}',
        "",
        "event: error",
        'data: {"type":"error","error":{"code":"overloaded","message":"Overloaded"}}',
        "",
        "event: message_stop",
        'data: {"reason":"end"}',
        "",
        "",
      ].join("\n"),
    );
    const { items, error } = await readUntilThrown(await client().messages.stream(request));
    expect(items).toEqual([{ event: "message_start", data: { message_id: "m1" } }]);
    expect(error).toBeInstanceOf(generated.StreamsApiError);
    expect(error).toMatchObject({ status: 200, code: "overloaded", streamItem: 1 });
    expect(error.serverMessage).toBe("Overloaded");
    await closed;
  });

  it("a JSON line with an `error` key", async () => {
    streamThenHang(
      '{"seq":1,"level":"info","message":"up"}\n{"error":{"code":"server_error","message":"disk full"}}\n',
      "application/x-ndjson",
    );
    const { items, error } = await readUntilThrown(await client().logs.tail());
    expect(items).toEqual([{ seq: 1, level: "info", message: "up" }]);
    expect(error).toMatchObject({ code: "server_error", serverMessage: "disk full", status: 200 });
    await closed;
  });

  it("an `error` key that is null, or absent, is an item like any other", async () => {
    answer = (res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: {"id":"c0","delta":"a","error":null}\n\n${chunk(1)}data: [DONE]\n\n`);
    };
    const items: unknown[] = [];
    for await (const item of await client().completions.stream(request)) items.push(item);
    expect(items).toEqual([
      { id: "c0", delta: "a", error: null },
      { id: "c1", delta: "d1" },
    ]);
  });

  it("keeps the credentials out of the error, as every error body is redacted", async () => {
    streamThenHang(`data: {"error":{"message":"bad token ${secret} for this model"}}\n\n`);
    const { error } = await readUntilThrown(await client().completions.stream(request));
    expect(error.message).not.toContain(secret);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(error.serverMessage).toMatch(/^bad token .+ for this model$/);
  });

  it("is not retried: the stream was consumed in part", async () => {
    let calls = 0;
    answer = (res) => {
      calls++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${chunk(0)}data: {"error":{"message":"gone","status":503}}\n\n`);
    };
    const { error } = await readUntilThrown(
      await client().chat.create({ ...request, stream: true }),
    );
    expect(error.status).toBe(503);
    expect(calls).toBe(1);
  });
});

describe("the stand-in told to send it (Prefer: stream-error)", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let running: any;
  beforeAll(async () => {
    const testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
    running = await testing.listen(testing.createStandIn());
  });
  afterAll(async () => running?.close());

  const standInClient = () => client({ baseUrl: running.url });

  it("sends the first item, then the error item with the code asked for, which the client throws", async () => {
    const stream = await standInClient().chat.create(
      { ...request, stream: true },
      { headers: { Prefer: "stream-error=server_error" } },
    );
    const { items, error } = await readUntilThrown(stream);
    expect(items).toHaveLength(1);
    expect(error).toBeInstanceOf(generated.StreamsApiError);
    expect(error).toMatchObject({ code: "server_error", streamItem: 1 });
    expect(error.serverMessage).toBe("the stand-in's stream error (Prefer: stream-error)");
    expect(stream.response.headers.get("preference-applied")).toBe("stream-error=server_error");
  });

  it("as an `event: error` for named events, and as a line for JSON lines", async () => {
    const events = await readUntilThrown(
      await standInClient().messages.stream(request, { headers: { Prefer: "stream-error" } }),
    );
    expect(events.items).toHaveLength(1);
    expect(events.error).toMatchObject({ status: 200, streamItem: 1 });
    expect(events.error.body).toEqual({
      type: "error",
      error: { message: "the stand-in's stream error (Prefer: stream-error)" },
    });
    const lines = await readUntilThrown(
      await standInClient().logs.tail({}, { headers: { Prefer: "stream-error=overloaded" } }),
    );
    expect(lines.error).toMatchObject({ code: "overloaded", streamItem: 1 });
  });

  it("refuses it, with 400, where the answer declares no error item", async () => {
    const error = await standInClient()
      .ticks.watch({ headers: { Prefer: "stream-error" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ status: 400 });
    expect(String((error as Error).message)).toContain("declares none");
    const plain = await standInClient()
      .chat.create(request, { headers: { Prefer: "stream-error" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(plain).toMatchObject({ status: 400 });
    const bad = await fetch(`${running.url}/v1/completions`, {
      method: "POST",
      headers: { Prefer: 'stream-error="a<b"', Authorization: "Bearer t" },
      body: JSON.stringify(request),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("is not an error code");
  });
});

describe("types of a stream's error", () => {
  const consumer = `import { ErrorCode, StreamsApiError, StreamsClient } from "./index.js";

const client = new StreamsClient({ baseUrl: "http://127.0.0.1", token: "t" });

/** What a chat UI shows: the text so far, and the API's error if the stream failed midway. */
export async function answer(prompt: string): Promise<{ text: string; failed?: string }> {
  let text = "";
  try {
    for await (const chunk of await client.chat.create({ model: "m", prompt, stream: true }))
      text += chunk.delta;
  } catch (error) {
    if (!(error instanceof StreamsApiError)) throw error;
    const item: number | undefined = error.streamItem;
    if (error.code === ErrorCode.serverError) {
      const code: "server_error" = error.code;
      return { text, failed: \`\${code} at \${item} (\${error.status}): \${error.serverMessage}\` };
    }
    return { text, failed: error.message };
  }
  return { text };
}
`;

  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])("a for await catching the typed error compiles strict with %s", (_name, tsc) => {
    writeFileSync(join(out, "src/stream-errors-consumer.ts"), consumer);
    const run = runTypeScript(tsc, [
      "-p",
      join(tsc === typescript6 ? withRuntimeDeclarations(out) : out, "tsconfig.json"),
    ]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
