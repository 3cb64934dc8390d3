/**
 * `trigger` against merchant servers that do not play fair (issue 30, item 4), each a raw
 * TCP server on 127.0.0.1 started here: one that answers 200 and then streams forever (it
 * drove the trigger past 8 GB), one that trickles its answer a byte at a time (the old
 * 10 s limit only covered the wait for the status line), one that announces or sends a huge
 * answer; and a user and password in `--url`, which were printed back, also when the
 * server echoes them (or the secret, or the API key) in any spelling. Each run must end in a
 * verdict within its deadline.
 */
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  deliver,
  loadTriggerModel,
  type TriggerModel,
  type TriggerOptions,
} from "../generator/commands/trigger-command.ts";
import { repoRoot, runCli } from "./helpers.ts";
import { RawServer, writeEvery, type RawAnswer } from "./raw-server.ts";

const specDir = join(repoRoot, "spec");
const secret = "whsec-trigger-hostile-1";
const password = "hunter2-pass";
let model: TriggerModel;
const servers: RawServer[] = [];

beforeAll(async () => {
  model = await loadTriggerModel(specDir);
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A raw server on 127.0.0.1 answering every connection with `answer`; closed after the test. */
async function rawServer(answer: RawAnswer): Promise<string> {
  const server = await RawServer.start(answer);
  servers.push(server);
  return server.url;
}

async function run(options: Partial<TriggerOptions> & { url: string }) {
  const lines: string[] = [];
  const started = performance.now();
  const result = await deliver(
    model,
    { event: "product.info", specDir, secret, ...options },
    (line) => lines.push(line),
  );
  return { ...result, lines, elapsedMs: performance.now() - started };
}

describe("trigger: a verdict in bounded time and memory, whatever the server does", () => {
  it("a server that answers 200 and then streams forever: 'answer over N bytes', at once", async () => {
    const url = await rawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[");
      // 64 KiB a millisecond at most, and for 8 s at most: the old trigger kept all of it
      void writeEvery(socket, Buffer.alloc(64 * 1024, "1,"), 1, 8_000);
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const result = await run({ url });
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe("verdict: no answer: answer over 1048576 bytes");
    expect(result.elapsedMs).toBeLessThan(5_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    const small = await run({ url, maxAnswerBytes: 1000 });
    expect(small.lines.at(-1)).toBe("verdict: no answer: answer over 1000 bytes");
  }, 20_000);

  it("a server that trickles its answer a byte at a time: 'no complete answer within N ms' at the deadline", async () => {
    const url = await rawServer((socket) => {
      socket.write(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n",
      );
      void writeEvery(socket, " ", 50, 8_000);
    });
    const result = await run({ url, timeoutMs: 600 });
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe("verdict: no answer: no complete answer within 600 ms");
    expect(result.elapsedMs).toBeGreaterThanOrEqual(550);
    expect(result.elapsedMs).toBeLessThan(3_000);
  }, 20_000);

  it("a server that trickles its headers: the same deadline covers them", async () => {
    // a header line that never ends, a byte every 50 ms: never idle, never too long for node
    const url = await rawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\nX-Slow: ");
      void writeEvery(socket, "a", 50, 8_000);
    });
    const result = await run({ url, timeoutMs: 600 });
    expect(result.lines.at(-1)).toBe("verdict: no answer: no complete answer within 600 ms");
    expect(result.elapsedMs).toBeLessThan(3_000);
  }, 20_000);

  it("a huge answer, announced or sent: 'answer over N bytes' without reading it", async () => {
    const announced = await rawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n{");
    });
    const first = await run({ url: announced });
    expect(first.lines.at(-1)).toBe("verdict: no answer: answer over 1048576 bytes");
    expect(first.elapsedMs).toBeLessThan(3_000);
    const sent = await rawServer((socket) => {
      const body = `"${"x".repeat(5 * 1024 * 1024)}"`;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    });
    const second = await run({ url: sent });
    expect(second.lines.at(-1)).toBe("verdict: no answer: answer over 1048576 bytes");
  }, 20_000);

  it("refuses limits that are none, naming the option", async () => {
    for (const timeoutMs of [0, -1, 1.5, Infinity, 2 ** 31])
      await expect(
        run({ url: "http://127.0.0.1:9", timeoutMs }),
        String(timeoutMs),
      ).rejects.toThrow(/^trigger: timeoutMs must be a whole number from 1 to 2147483647$/);
    await expect(run({ url: "http://127.0.0.1:9", maxAnswerBytes: -1 })).rejects.toThrow(
      /^trigger: maxAnswerBytes must be a whole number of bytes$/,
    );
  });
});

describe("trigger: no credential is printed", () => {
  /** Every spelling of a credential the tests look for in what was printed. */
  const spellings = (value: string) => [
    value,
    encodeURIComponent(value),
    value.replace(/-/g, "\\u002d"),
    Buffer.from(value).toString("base64"),
  ];
  const apiKey = "key-live-12345678";
  const token = Buffer.from(`merchant:${password}`).toString("base64");

  /** A server that echoes everything it got, and the credentials in several spellings, in a 200. */
  async function echoServer(): Promise<string> {
    return rawServer((socket, request) => {
      const body = JSON.stringify({
        request,
        spelled: [password, encodeURIComponent(password), secret, apiKey].join(" "),
        escaped: `${password.replace(/-/g, "\\u002d")} ${secret.replace(/-/g, "\\u002d")}`,
        tail: "x".repeat(380) + secret,
      });
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  it("the user and password of --url, the secret and the API key, even when the server echoes them", async () => {
    const base = await echoServer();
    const url = base.replace("http://", `http://merchant:${password}@`);
    const result = await run({ url, apiKey });
    // the password still reached the server, as Basic credentials
    expect(result.answer?.text.toLowerCase()).toContain(
      `authorization: basic ${token.toLowerCase()}`,
    );
    const printed = result.lines.join("\n");
    expect(printed).toContain("[redacted]");
    expect(result.lines[0]).toMatch(
      /^callback product\.info: GET http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/product_get \(\d+ bytes, signed hmac-sha256-base64 in X-Service-Hmac-Sha256\)$/,
    );
    for (const value of [password, secret, apiKey, token, "merchant:"])
      for (const spelling of spellings(value))
        expect(printed.includes(spelling), `${spelling} printed:\n${printed}`).toBe(false);
  });

  it("from the command line: nothing on stdout or stderr, and a bad --url is not repeated", async () => {
    const base = await echoServer();
    const url = base.replace("http://", `http://merchant:${password}@`);
    const cli = await runCli([
      "trigger",
      "product.info",
      "--spec",
      "spec",
      "--url",
      url,
      "--secret",
      secret,
      "--timeout-ms",
      "5000",
    ]);
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain("verdict: ");
    const bad = await runCli([
      "trigger",
      "product.info",
      "--url",
      `ftp://merchant:${password}@127.0.0.1/x`,
      "--secret",
      secret,
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--url must be an absolute http(s) address");
    for (const output of [cli.stdout, cli.stderr, bad.stdout, bad.stderr])
      for (const value of [password, secret, token])
        expect(output.includes(value), `${value} printed:\n${output}`).toBe(false);
  }, 60_000);
});
