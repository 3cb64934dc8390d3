/**
 * What a timeout and an abort do to the call and to its connection (runtime/client/timeout.ts),
 * against a real server on 127.0.0.1 that records when each connection closes.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantClient, TimeoutError, UserAbortError } from "../generated/src/index.ts";
import { TestServer } from "./support/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

/** Each request's socket, with when it closed (performance.now()). */
interface Connection {
  socket: Socket;
  res: ServerResponse;
  closedAt?: number;
}

/** Records the socket of every request; `answer` is called with it. */
function recording(answer: (c: Connection) => void) {
  const connections: Connection[] = [];
  server.respond((_req, res, socket) => {
    const c: Connection = { socket, res };
    socket.once("close", () => (c.closedAt = performance.now()));
    connections.push(c);
    answer(c);
  });
  return connections;
}

const startBody = (res: ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"transactions": [');
};

const until = async (check: () => boolean, ms = 2000) => {
  const end = performance.now() + ms;
  while (!check() && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
  return check();
};

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

const client = (options: Partial<ConstructorParameters<typeof MerchantClient>[0]> = {}) =>
  new MerchantClient({ baseUrl: server.url, apiKey: "k-0123456789", maxRetries: 0, ...options });

describe("a timeout", () => {
  it("while the body is read ends the call and closes the connection at once", async () => {
    const connections = recording((c) => startBody(c.res));
    const started = performance.now();
    const error = await rejection(client({ timeoutMs: 200 }).transactions.list());
    const ended = performance.now();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ended - started).toBeLessThan(1000);
    expect(await until(() => connections[0]?.closedAt !== undefined)).toBe(true);
    expect(connections[0]!.closedAt! - ended).toBeLessThan(500);
  });

  it("before the response ends the call at once, lets the late response go, and makes later attempts close theirs", async () => {
    const connections = recording(() => {});
    const c = client({ timeoutMs: 200 });
    const started = performance.now();
    expect(await rejection(c.transactions.list())).toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeLessThan(1000);
    // No signal went with the first attempt (timeout.ts): its connection waits for the server.
    await new Promise((r) => setTimeout(r, 200));
    expect(connections[0]!.closedAt).toBeUndefined();
    // The late response is cancelled unread: the server sees its connection close.
    startBody(connections[0]!.res);
    expect(await until(() => connections[0]!.closedAt !== undefined)).toBe(true);
    // The next attempt of that client carries its own signal: its timeout closes it at once.
    expect(await rejection(c.transactions.list())).toBeInstanceOf(TimeoutError);
    const ended = performance.now();
    expect(await until(() => connections[1]?.closedAt !== undefined)).toBe(true);
    expect(connections[1]!.closedAt! - ended).toBeLessThan(500);
  });

  it("before the response closes the connection at once when the call passes a signal", async () => {
    const connections = recording(() => {});
    const signal = new AbortController().signal;
    expect(
      await rejection(client({ timeoutMs: 200 }).transactions.list({ signal })),
    ).toBeInstanceOf(TimeoutError);
    const ended = performance.now();
    expect(await until(() => connections[0]?.closedAt !== undefined)).toBe(true);
    expect(connections[0]!.closedAt! - ended).toBeLessThan(500);
  });

  it("of more than 2^31 - 1 ms is no timeout (a timer that long would fire at once)", async () => {
    server.json(200, { transactions: [] });
    await expect(client({ timeoutMs: 2 ** 31 }).transactions.list()).resolves.toEqual({
      transactions: [],
    });
    await expect(client().transactions.list({ timeoutMs: 1e12 })).resolves.toEqual({
      transactions: [],
    });
  });
});

describe("an abort", () => {
  it("while waiting for the response closes the connection at once", async () => {
    const connections = recording(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(client().transactions.list({ signal: controller.signal }));
    const ended = performance.now();
    expect(error).toBeInstanceOf(UserAbortError);
    expect(await until(() => connections[0]?.closedAt !== undefined)).toBe(true);
    expect(connections[0]!.closedAt! - ended).toBeLessThan(500);
  });

  it("that happens just before an attempt is sent (here by the logger) sends nothing", async () => {
    server.json(200, { transactions: [] });
    const controller = new AbortController();
    const logger = { debug: () => controller.abort() };
    const error = await rejection(
      client({ logger }).transactions.list({ signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(UserAbortError);
    expect(server.requests).toHaveLength(0);
  });

  it("ends the call at once even with a fetch that ignores the signal", async () => {
    const deaf = (() => new Promise<Response>(() => {})) as typeof fetch;
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 50);
    const started = performance.now();
    const error = await rejection(
      client({ fetch: deaf }).transactions.list({ signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(UserAbortError);
    expect(error.cause).toBe(reason);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
