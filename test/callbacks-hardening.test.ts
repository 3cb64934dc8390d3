/**
 * The router against hostile input (issue 11): one regression test per defect the issue
 * listed or the router fuzzer (test/fuzz/router.fuzz.test.ts) found, each with its smallest
 * failing case, through `router.node` on a real 127.0.0.1 server and through `router.fetch`,
 * and the body time limit (`bodyTimeoutMs`).
 */
import { describe, expect, it } from "vitest";
import {
  capped,
  failureBody,
  genericFailureShape,
} from "../generator/runtime/callbacks/failure.ts";
import {
  createCallbackRouter,
  type CallbackRouter,
  type CallbackRouterOptions,
} from "../generated/src/callbacks.ts";
import { bodies, merchantServer, send, sign, signatureHeader } from "./callbacks-helpers.ts";
import { chunk, rawExchange, requestHead, type RawStep } from "./callbacks-raw.ts";

const m = merchantServer();
const { calls, errors, rejects, withRouter } = m;

/** A router of this file, recording into the same lists as the file's server. */
function router(overrides: Partial<CallbackRouterOptions> = {}): CallbackRouter {
  return createCallbackRouter(m.options(overrides));
}

/** A signed POST `Request` to `https://merchant.test` + `target`. */
function signedPost(target: string, body: string): Request {
  return new Request(`https://merchant.test${target}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", [signatureHeader]: sign(body) },
  });
}

/** The generic 500 in cart.update's failure shape. */
const cartInternal = {
  event: "cart.update",
  status: "failure",
  errors: [{ code: 500, data: [{ reason: "internal error" }] }],
};

describe("a signature scheme that throws (a key service outage)", () => {
  const outage = new Error("key service unavailable: https://keys.internal/v1 timed out");
  const schemes = {
    "decode throws": {
      decode: (): Uint8Array => {
        throw outage;
      },
    },
    "compute rejects": { compute: async (): Promise<Uint8Array> => Promise.reject(outage) },
    "compute throws synchronously": {
      compute: (): Uint8Array => {
        throw outage;
      },
    },
  };

  for (const [name, signature] of Object.entries(schemes)) {
    it(`${name}: router.node answers the generic 500 in the callback's shape; onError sees the error`, async () => {
      await withRouter({ signature }, async (s) => {
        const res = await send(s, "/cart_update", { body: bodies.cartUpdate });
        expect(res.status).toBe(500);
        expect(res.json).toEqual(cartInternal);
        expect(res.text).not.toContain("keys.internal");
        // the server keeps serving
        expect((await send(m.server, "/cart_update", { body: bodies.cartUpdate })).status).toBe(
          200,
        );
      });
      expect(errors).toEqual([outage]);
      expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
    });

    it(`${name}: router.fetch and router.handle resolve to the same 500, never reject`, async () => {
      const r = router({ signature });
      const res = await r.fetch(signedPost("/cart_update", bodies.cartUpdate));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual(cartInternal);
      const answer = await r.handle({
        method: "POST",
        target: "/cart_update",
        headers: new Headers({ [signatureHeader]: sign(bodies.cartUpdate) }),
        readBody: async () => new TextEncoder().encode(bodies.cartUpdate),
      });
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toEqual(cartInternal);
      expect(errors).toEqual([outage, outage]);
      expect(calls).toEqual([]);
    });
  }

  it("a custom adapter whose body reader throws synchronously: the generic 500, not a rejection", async () => {
    const broken = new Error("reader bug");
    const answer = await router().handle({
      method: "POST",
      target: "/cart_update",
      headers: new Headers(),
      readBody: () => {
        throw broken;
      },
    });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual(cartInternal);
    expect(errors).toEqual([broken]);
  });
});

describe("what the router says about a bad body stays small (found by the fuzzer)", () => {
  it("a signed body with 21 problems: the answer and onReject both list 20 and a count", async () => {
    const body = JSON.stringify({
      event: "cart.update",
      data: { order_reference: "o", add_items: Array(21).fill(1) },
    });
    const res = await send(m.server, "/cart_update", { body });
    expect(res.status).toBe(400);
    const reasons = res.json.errors[0].data.map((d: { reason: string }) => d.reason);
    expect(reasons).toHaveLength(21);
    expect(reasons[20]).toBe("... and 1 more problems");
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.reason.split("; ")).toEqual(reasons);
  });

  it("one reason is cut at 300 characters (a map's keys come from the body and reach field paths)", () => {
    const path = `body.data[${JSON.stringify("k".repeat(5000))}]`;
    const body = failureBody(genericFailureShape, undefined, 400, [`${path} must be a string`]);
    const message = (body.error as { message: string }).message;
    expect(message).toHaveLength(300);
    expect(message.endsWith("...")).toBe(true);
    expect(capped([path, "short"])).toEqual([message, "short"]);
  });
});

describe("request targets", () => {
  it("a target beginning with // is a path, never a host: //evil.example/merchant/cart_update is a 404", async () => {
    await withRouter({ basePath: "/merchant" }, async (s) => {
      for (const target of [
        "//evil.example/merchant/cart_update",
        "//evil.example/cart_update",
        "//merchant/cart_update",
      ]) {
        const res = await send(s, target, { body: bodies.cartUpdate });
        expect(res.status, target).toBe(404);
        expect(res.json).toEqual({ error: { code: 404, message: "no callback at this path" } });
      }
      expect((await send(s, "/merchant/cart_update", { body: bodies.cartUpdate })).status).toBe(
        200,
      );
    });
    const fetchHandler = router({ basePath: "/merchant" }).fetch;
    for (const target of [
      "//evil.example/merchant/cart_update",
      "/\\evil.example/merchant/cart_update",
    ]) {
      const res = await fetchHandler(signedPost(target, bodies.cartUpdate));
      expect(res.status, target).toBe(404);
    }
    expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
  });

  it("the absolute form a proxy sends keeps its path; a target that is neither is a 404", async () => {
    await withRouter({ basePath: "/merchant" }, async (s) => {
      const proxied = await send(s, "http://proxy.example/merchant/cart_update", {
        body: bodies.cartUpdate,
      });
      expect(proxied.status).toBe(200);
      expect(proxied.json).toMatchObject({ event: "cart.update" });
      const head = (target: string) =>
        requestHead("POST", target, [
          ["host", "x"],
          ["content-length", String(Buffer.byteLength(bodies.cartUpdate))],
          [signatureHeader, sign(bodies.cartUpdate)],
          ["connection", "close"],
        ]);
      for (const target of ["merchant/cart_update", "ftp://x/merchant/cart_update"]) {
        const res = await rawExchange(s.port, [head(target), bodies.cartUpdate]);
        expect(res.statuses, target).toHaveLength(1);
        expect(res.statuses[0], target).toBeGreaterThanOrEqual(400);
        expect(res.statuses[0], target).toBeLessThan(500);
      }
    });
    expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
  });
});

describe("bodyTimeoutMs: a slow sender cannot hold a request open", () => {
  const timeout = 200;
  const late = {
    event: "cart.update",
    status: "failure",
    errors: [{ code: 408, data: [{ reason: `body took longer than ${timeout} ms` }] }],
  };
  const head = (length: string | undefined) =>
    requestHead("POST", "/cart_update", [
      ["host", "x"],
      ...(length === undefined
        ? [["transfer-encoding", "chunked"] as const]
        : [["content-length", length] as const]),
      [signatureHeader, sign(bodies.cartUpdate)],
    ]);

  it("router.node: a body that stops short of its Content-Length gets 408 and the connection closes", async () => {
    await withRouter({ bodyTimeoutMs: timeout }, async (s) => {
      const res = await rawExchange(s.port, [head("1000"), bodies.cartUpdate.slice(0, 20)], {
        endAfter: false,
      });
      expect(res.closed).toBe(true);
      expect(res.elapsedMs).toBeGreaterThanOrEqual(timeout - 20);
      expect(res.elapsedMs).toBeLessThan(timeout + 2000);
      expect(res.first?.status).toBe(408);
      expect(res.first?.headers.connection).toBe("close");
      expect(JSON.parse(res.first!.body.toString())).toEqual(late);
    });
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
    expect(rejects).toEqual([
      {
        event: "cart.update",
        path: "/cart_update",
        status: 408,
        reason: late.errors[0]!.data[0]!.reason,
      },
    ]);
  });

  it("router.node: the limit is on the whole body, so a trickle of chunks under it each time still gets 408", async () => {
    const bytes = Buffer.from(bodies.cartUpdate);
    const steps: RawStep[] = [head(undefined)];
    for (let i = 0; i < 20; i++) steps.push(chunk(bytes.subarray(i, i + 1)), { pause: 40 });
    await withRouter({ bodyTimeoutMs: timeout }, async (s) => {
      const res = await rawExchange(s.port, steps, { endAfter: false });
      expect(res.first?.status).toBe(408);
      expect(res.elapsedMs).toBeLessThan(20 * 40);
      expect(res.closed).toBe(true);
    });
    expect(calls).toEqual([]);
  });

  it("router.node: a body sent in pauses that ends in time passes", async () => {
    const bytes = Buffer.from(bodies.cartUpdate);
    await withRouter({ bodyTimeoutMs: timeout }, async (s) => {
      const res = await rawExchange(s.port, [
        head(undefined),
        chunk(bytes.subarray(0, 10)),
        { pause: 50 },
        chunk(bytes.subarray(10)),
        { pause: 50 },
        chunk(new Uint8Array(0)),
      ]);
      expect(res.first?.status).toBe(200);
    });
    expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
  });

  it("router.fetch: a body stream that stalls gets 408 with connection: close, and the stream is cancelled", async () => {
    let cancelled = false;
    const first = new TextEncoder().encode(bodies.cartUpdate.slice(0, 20));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(first);
      },
      cancel() {
        cancelled = true;
      },
    });
    const started = performance.now();
    const res = await router({ bodyTimeoutMs: timeout }).fetch(
      new Request("https://merchant.test/cart_update", {
        method: "POST",
        body,
        headers: { [signatureHeader]: sign(bodies.cartUpdate) },
        duplex: "half",
      } as RequestInit),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(timeout - 20);
    expect(res.status).toBe(408);
    expect(res.headers.get("connection")).toBe("close");
    expect(await res.json()).toEqual(late);
    expect(cancelled).toBe(true);
    expect(calls).toEqual([]);
  });

  it("a custom adapter's reader that never ends: handle answers 408 and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const answer = await router({ bodyTimeoutMs: timeout }).handle({
      method: "POST",
      target: "/cart_update",
      headers: new Headers(),
      readBody: (_limit, s) => ((signal = s), new Promise(() => undefined)),
    });
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe("close");
    expect(signal?.aborted).toBe(true);
  });

  it("only a positive number of milliseconds is taken; Infinity means no limit", () => {
    for (const bad of [0, -1, Number.NaN, "10" as unknown as number])
      expect(() => router({ bodyTimeoutMs: bad }), String(bad)).toThrow(
        /bodyTimeoutMs must be a positive number of milliseconds/,
      );
    expect(() => router({ bodyTimeoutMs: Number.POSITIVE_INFINITY })).not.toThrow();
  });

  it("the default is 10 s: a body that pauses for a second is still read", async () => {
    const res = await rawExchange(m.server.port, [
      head(String(Buffer.byteLength(bodies.cartUpdate))),
      bodies.cartUpdate.slice(0, 10),
      { pause: 1000 },
      bodies.cartUpdate.slice(10),
    ]);
    expect(res.first?.status).toBe(200);
    expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
  });
});

describe("a webhook route on a callback's path", () => {
  it("is refused when the router is made: the callback would never receive a request (the Slack trial)", () => {
    expect(() =>
      createCallbackRouter({
        signingSecrets: ["s"],
        handlers: {},
        webhook: { path: "/order_shipping/", handlers: {} },
      } as never),
    ).toThrow(
      'createCallbackRouter: webhook.path "/order_shipping/" is also the path of the callback "order.shipping", which would never receive a request there; give the webhook route a path of its own',
    );
    expect(() =>
      createCallbackRouter({
        signingSecrets: ["s"],
        handlers: {},
        webhook: { path: "/webhooks", handlers: {} },
      } as never),
    ).not.toThrow();
  });
});
