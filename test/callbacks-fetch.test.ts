/**
 * The router's Fetch adapter (`router.fetch`: Request -> Response) with real `Request`
 * objects, called directly and behind a real 127.0.0.1 server that turns each node:http
 * request into a `Request` the way Fetch-based servers do.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCallbackRouter, type CallbackRouterOptions } from "../generated/src/callbacks.ts";
import {
  bodies,
  listen,
  recordingHandlers,
  secret,
  send,
  sign,
  signatureHeader,
  type Call,
  type Running,
} from "./callbacks-helpers.ts";

const calls: Call[] = [];
const errors: unknown[] = [];
afterEach(() => {
  calls.length = 0;
  errors.length = 0;
});

function router(overrides: Partial<CallbackRouterOptions> = {}) {
  return createCallbackRouter({
    signingSecrets: [secret],
    handlers: recordingHandlers(calls),
    onError: (e) => errors.push(e),
    ...overrides,
  });
}

/** A signed POST `Request`. */
function signedPost(url: string, body: string, key = secret): Request {
  return new Request(url, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", [signatureHeader]: sign(body, key) },
  });
}

describe("router.fetch with Request objects", () => {
  const fetchHandler = router().fetch;

  it("order.shipping and cart.update answer JSON Responses", async () => {
    const res = await fetchHandler(
      signedPost("https://merchant.test/order_shipping", bodies.orderShipping),
    );
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ event: "order.shipping", status: "success" });
    const cart = await fetchHandler(
      signedPost("https://merchant.test/cart_update", bodies.cartUpdate),
    );
    expect(await cart.json()).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 6001, data: [{ reason: "out of stock" }] }],
    });
    expect(calls.map((c) => c.event)).toEqual(["order.shipping", "cart.update"]);
  });

  it("account.login in both parameter forms; bad state and bad scope are refused", async () => {
    const get = (path: string) =>
      fetchHandler(
        new Request(`https://merchant.test${path}`, { headers: { [signatureHeader]: sign("") } }),
      );
    expect(await (await get("/oauth/login/c/Ab3dE6gH/openid/r")).json()).toEqual({
      status: "success",
    });
    expect(
      await (await get("/oauth/login?code=c&state=Ab3dE6gH&scope=openid&reference=r")).json(),
    ).toEqual({ status: "success" });
    const state = await get("/oauth/login/c/Ab3/openid/r");
    expect(state.status).toBe(400);
    expect(await state.json()).toEqual({
      status: "failure",
      errors: [
        { code: 400, data: [{ reason: "params.state must be at least 8 characters long" }] },
      ],
    });
    const scope = await get("/oauth/login?code=c&state=Ab3dE6gH&scope=profile&reference=r");
    expect((await scope.json()).errors[0].data).toEqual([
      { reason: 'params.scope must be "openid"' },
    ]);
    expect(calls).toHaveLength(2);
  });

  it("a GET Request cannot carry a body in Fetch runtimes: product.info then has none and is refused, never called", async () => {
    expect(
      () =>
        new Request("https://merchant.test/product_get", {
          method: "GET",
          body: bodies.productInfo,
        }),
    ).toThrow(TypeError);
    const res = await fetchHandler(
      new Request("https://merchant.test/product_get", {
        headers: { [signatureHeader]: sign("") },
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      event: "product.info",
      status: "failure",
      error: { code: 400, message: "body is not valid JSON" },
    });
    expect(calls).toEqual([]);
  });

  it("signature failures, 404 and 405", async () => {
    const bad = await fetchHandler(
      signedPost("https://merchant.test/order_shipping", bodies.orderShipping, "wrong"),
    );
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.code).toBe(27);
    const unsigned = await fetchHandler(
      new Request("https://merchant.test/order_shipping", {
        method: "POST",
        body: bodies.orderShipping,
      }),
    );
    expect(await unsigned.json()).toMatchObject({
      error: { code: 27, data: [{ reason: "missing X-Service-Hmac-Sha256 header" }] },
    });
    expect((await fetchHandler(signedPost("https://merchant.test/nowhere", "{}"))).status).toBe(
      404,
    );
    const wrongMethod = await fetchHandler(
      signedPost("https://merchant.test/product_get", bodies.productInfo),
    );
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    expect(calls).toEqual([]);
  });

  it("a streamed body over the limit: 413, the stream is cancelled after little more than the limit", async () => {
    const limit = 64 * 1024;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    let pulled = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
        if (pulled >= 1024 * 1024 * 1024) controller.close(); // 1 GiB: never reached
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request("https://merchant.test/cart_update", {
      method: "POST",
      body,
      headers: { [signatureHeader]: "AAAA" },
      duplex: "half",
    } as RequestInit);
    const res = await router({ bodyLimit: limit }).fetch(request);
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].code).toBe(413);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThanOrEqual(limit + 4 * chunk.byteLength);
  });

  it("mounted under a prefix with basePath", async () => {
    const prefixed = router({ basePath: "/hooks" }).fetch;
    expect(
      (
        await prefixed(
          signedPost("https://merchant.test/hooks/order_shipping", bodies.orderShipping),
        )
      ).status,
    ).toBe(200);
    expect(
      (await prefixed(signedPost("https://merchant.test/order_shipping", bodies.orderShipping)))
        .status,
    ).toBe(404);
  });

  it("a handler that throws: 500 with a generic body; onError sees the error", async () => {
    const boom = new TypeError("cannot read properties of undefined");
    const res = await router({
      handlers: {
        ...recordingHandlers(calls),
        "cart.update": () => {
          throw boom;
        },
      },
    }).fetch(signedPost("https://merchant.test/cart_update", bodies.cartUpdate));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 500, data: [{ reason: "internal error" }] }],
    });
    expect(errors).toEqual([boom]);
  });
});

describe("router.fetch behind a real server on 127.0.0.1", () => {
  let server: Running;
  beforeAll(async () => {
    const handle = router().fetch;
    server = await listen(async (req: IncomingMessage, res: ServerResponse) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const init = {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream) : null,
        duplex: "half",
      } as RequestInit;
      const response = await handle(new Request(`http://127.0.0.1:${server.port}${req.url}`, init));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  afterAll(() => server.close());

  it("signed POST callbacks end to end, chunked or not", async () => {
    expect(
      (await send(server, "/order_shipping", { body: bodies.orderShipping })).json,
    ).toMatchObject({ event: "order.shipping", status: "success" });
    const text = bodies.cartUpdate;
    expect(
      (await send(server, "/cart_update", { chunks: [text.slice(0, 7), text.slice(7)] })).json,
    ).toMatchObject({ event: "cart.update" });
    expect(calls.map((c) => c.event)).toEqual(["order.shipping", "cart.update"]);
  });

  it("Content-Length over the limit: 413", async () => {
    const body = JSON.stringify({
      event: "cart.update",
      data: { order_reference: "x".repeat(1024 * 1024) },
    });
    expect((await send(server, "/cart_update", { body })).status).toBe(413);
  });

  it("account.login as a query string", async () => {
    expect(
      (
        await send(server, "/oauth/login?code=c&state=Ab3dE6gH&scope=openid&reference=r", {
          method: "GET",
        })
      ).json,
    ).toEqual({ status: "success" });
  });
});
