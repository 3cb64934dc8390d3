/**
 * Requests that took the stand-in down or made it answer wrong (issue 30, items 3 and 8),
 * against the generated Merchant package's `listen()` on 127.0.0.1 as raw HTTP/1.1 bytes,
 * and through `standIn.fetch` where Fetch can carry the request: TRACE and the target
 * `http://[::1` (they threw inside a listener and killed the process), a body nested 5,000
 * deep in a field the spec does not list, `Prefer: code=999`, `//evil.example/...`, HEAD on
 * a GET endpoint, a body that is not UTF-8, an announced 100 MB body and a stalled one. After
 * each, the server must still answer a plain request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStandIn,
  listen,
  type RunningStandIn,
  type StandIn,
} from "../generated/src/testing.ts";
import { rawExchange, requestHead, type RawStep } from "./callbacks-raw.ts";

const key = "sandbox-key";
const bodyTimeoutMs = 400;
let standIn: StandIn;
let running: RunningStandIn;

beforeAll(async () => {
  standIn = createStandIn({ keys: { apiKey: { valid: [key] } }, bodyTimeoutMs });
  running = await listen(standIn);
});
afterAll(async () => {
  await running?.close();
});

/** One raw request over a fresh connection; resolves with the first answer (5 s at most). */
async function send(
  method: string,
  target: string,
  headers: [string, string][] = [],
  body: RawStep[] = [],
  options: { waitMs?: number } = {},
) {
  const head = requestHead(method, target, [["host", "stand-in.test"], ...headers]);
  return rawExchange(running.port, [head, ...body], {
    until: "answer",
    endAfter: false,
    head: method === "HEAD",
    waitMs: options.waitMs ?? 5000,
  });
}

/** A JSON request with the key and an honest Content-Length. */
function sendJson(
  method: string,
  target: string,
  body: Uint8Array | string,
  extra: [string, string][] = [],
) {
  const bytes = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  return send(
    method,
    target,
    [
      ["x-api-key", key],
      ["content-type", "application/json"],
      ["content-length", String(bytes.byteLength)],
      ...extra,
    ],
    [bytes],
  );
}

/** The stand-in still answers a plain, valid request. */
async function stillServing(): Promise<void> {
  const res = await send("GET", "/v1/merchant/transactions", [["x-api-key", key]]);
  expect(res.first?.status).toBe(200);
}

const json = (body: Buffer | undefined) => JSON.parse(body!.toString("utf8"));

describe("listen(): one request cannot take the stand-in down (item 3)", () => {
  it("TRACE on a path of the spec is 405 with Allow, on another path 404, and it keeps serving", async () => {
    const trace = await send("TRACE", "/v1/merchant/transactions", [["x-api-key", key]]);
    expect(trace.first?.status).toBe(405);
    expect(trace.first?.headers.allow).toBe("GET, HEAD");
    expect(json(trace.first?.body)).toMatchObject({ result: { success: false } });
    await stillServing();
    const elsewhere = await send("TRACE", "/v1/nothing");
    expect(elsewhere.first?.status).toBe(404);
    await stillServing();
  });

  it("the request target http://[::1 (and other targets no URL can hold) is 404, and it keeps serving", async () => {
    for (const target of ["http://[::1", "http://[::1]:99999/v1/merchant/transactions", "*"]) {
      const res = await send("GET", target, [["x-api-key", key]]);
      expect(res.first?.status, target).toBe(404);
    }
    await stillServing();
  });
});

describe("listen(): each answer of item 8", () => {
  it("a body nested 5,000 deep in a field the spec does not list is served, stored and compared (no 500)", async () => {
    const arrays = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const objects = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const hook = (url: string, deep: string) =>
      `{"division_id":"deep","url":"https://shop.example/${url}","extra":${deep}}`;
    const created = await sendJson("POST", "/v1/webhooks", hook("a", arrays));
    expect(created.first?.status).toBe(200);
    expect(json(created.first?.body).webhook_id).toMatch(/^wh_/);
    const duplicate = await sendJson("POST", "/v1/webhooks", hook("a", arrays));
    expect(duplicate.first?.status).toBe(422);
    expect((await sendJson("POST", "/v1/webhooks", hook("b", objects))).first?.status).toBe(200);
    const order = await sendJson("POST", "/v1/merchant/orders", `{"extra":${objects}}`);
    expect(order.first?.status).toBe(200);
    // what it remembers is handed out whole
    const stored = standIn.state().collections.webhooks!;
    expect(
      stored.filter((w) => (w.body as { division_id?: string }).division_id === "deep"),
    ).toHaveLength(2);
    await stillServing();
  });

  it("Prefer: code=999, a code the endpoint does not list, or an unlisted error is 400 with the reason", async () => {
    const invalid = await send("GET", "/v1/merchant/transactions", [
      ["x-api-key", key],
      ["prefer", "code=999"],
    ]);
    expect(invalid.first?.status).toBe(400);
    expect(json(invalid.first?.body).errors[0].message).toBe(
      "Prefer: code=999 is not an HTTP status from 100 to 599",
    );
    const unlisted = await send("GET", "/v1/merchant/transactions", [
      ["x-api-key", key],
      ["prefer", "code=418"],
    ]);
    expect(unlisted.first?.status).toBe(400);
    expect(json(unlisted.first?.body).errors[0].message).toBe(
      "Prefer: code=418 asks for an answer the spec does not list for GET /v1/merchant/transactions; it can ask for 401, 403, 404, 422, 429, 500",
    );
    const error = await send("GET", "/v1/merchant/transactions", [
      ["x-api-key", key],
      ["prefer", "error=77"],
    ]);
    expect(error.first?.status).toBe(400);
    expect(json(error.first?.body).errors[0].message).toBe(
      "Prefer: error=77 asks for an error the spec does not list for GET /v1/merchant/transactions; it can ask for 1015, 18, 1005",
    );
    const listed = await send("GET", "/v1/merchant/transactions", [
      ["x-api-key", key],
      ["prefer", "code=500"],
    ]);
    expect(listed.first?.status).toBe(500);
    expect(listed.first?.headers["preference-applied"]).toBe("code=500");
    await stillServing();
  });

  it("//evil.example/v1/... is a path (404), never the host evil.example", async () => {
    const res = await send("GET", "//evil.example/v1/merchant/transactions", [["x-api-key", key]]);
    expect(res.first?.status).toBe(404);
    const fetched = await standIn.fetch(
      new Request("http://stand-in.test//evil.example/v1/merchant/transactions", {
        headers: { "x-api-key": key },
      }),
    );
    expect(fetched.status).toBe(404);
  });

  it("HEAD on a GET endpoint answers as GET does, with its length and without the body", async () => {
    const get = await send("GET", "/v1/merchant/transactions/ABCD-EFGH-IJKL", [["x-api-key", key]]);
    const head = await send("HEAD", "/v1/merchant/transactions/ABCD-EFGH-IJKL", [
      ["x-api-key", key],
    ]);
    expect(head.first?.status).toBe(200);
    expect(head.first?.headers["content-type"]).toBe(get.first?.headers["content-type"]);
    expect(head.first?.headers["content-length"]).toBe(String(get.first?.body.byteLength));
    // nothing follows the head: the next bytes on the connection would be a next answer
    expect(head.raw.toString("latin1").endsWith("\r\n\r\n")).toBe(true);
    const missing = await send("HEAD", "/v1/merchant/transactions");
    expect(missing.first?.status).toBe(401);
    const fetched = await standIn.fetch(
      new Request(`${running.url}/v1/merchant/transactions`, {
        method: "HEAD",
        headers: { "x-api-key": key },
      }),
    );
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe("");
  });

  it("a body that is not UTF-8 is refused as invalid input, never parsed", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"division_id":"d'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","url":"https://shop.example/utf8"}'),
    ]);
    const res = await sendJson("POST", "/v1/webhooks", bytes);
    expect(res.first?.status).toBe(422);
    expect(json(res.first?.body).errors).toEqual([{ message: "body: is not valid UTF-8" }]);
    const fetched = await standIn.fetch(
      new Request(`${running.url}/v1/webhooks`, {
        method: "POST",
        headers: { "x-api-key": key },
        body: bytes,
      }),
    );
    expect(fetched.status).toBe(422);
    expect(
      standIn
        .state()
        .collections.webhooks!.some((w) => (w.body as { url?: string }).url?.endsWith("/utf8")),
    ).toBe(false);
  });

  it("a Content-Length over the limit is 413 at once, before any of the body is sent", async () => {
    const res = await send("POST", "/v1/webhooks", [
      ["x-api-key", key],
      ["content-length", String(100 * 1024 * 1024)],
    ]);
    expect(res.first?.status).toBe(413);
    expect(res.first?.headers.connection).toBe("close");
    expect(res.elapsedMs).toBeLessThan(2000);
    await stillServing();
  });

  it("a stalled body is 408 at bodyTimeoutMs, closing the connection; the option is checked", async () => {
    const res = await send(
      "POST",
      "/v1/webhooks",
      [
        ["x-api-key", key],
        ["content-length", "100"],
      ],
      ['{"division_id":'],
    );
    expect(res.first?.status).toBe(408);
    expect(res.first?.headers.connection).toBe("close");
    expect(json(res.first?.body).errors[0].message).toBe(
      `body: took longer than ${bodyTimeoutMs} ms`,
    );
    expect(res.elapsedMs).toBeGreaterThanOrEqual(bodyTimeoutMs - 50);
    expect(res.elapsedMs).toBeLessThan(bodyTimeoutMs + 2000);
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"division_id":'));
      },
    });
    const fetched = await standIn.fetch(
      new Request(`${running.url}/v1/webhooks`, {
        method: "POST",
        headers: { "x-api-key": key },
        body: stalled,
        duplex: "half",
      } as RequestInit),
    );
    expect(fetched.status).toBe(408);
    for (const bad of [0, -1, Number.NaN, "10" as unknown as number])
      expect(() => createStandIn({ bodyTimeoutMs: bad }), String(bad)).toThrow(
        /createStandIn: bodyTimeoutMs must be a positive number of milliseconds/,
      );
    await stillServing();
  });
});

describe("the caller's own functions", () => {
  it("a prefer option that throws is the one 500 it causes, saying so; a log that throws changes nothing", async () => {
    const throwing = createStandIn({
      keys: { apiKey: { valid: [key] } },
      prefer: () => {
        throw new Error("prefer broke");
      },
      log: () => {
        throw new Error("log broke");
      },
    });
    const res = await throwing.fetch(
      new Request("http://stand-in.test/v1/merchant/transactions", {
        headers: { "x-api-key": key },
      }),
    );
    expect(res.status).toBe(500);
    expect((await res.json()).errors[0].message).toBe("the prefer option threw: prefer broke");
    const asked = await throwing.fetch(
      new Request("http://stand-in.test/v1/merchant/transactions", {
        headers: { "x-api-key": key, prefer: "code=404" },
      }),
    );
    expect(asked.status).toBe(404);
  });
});
