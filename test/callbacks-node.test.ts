/**
 * The generated callback router behind a real node:http server on 127.0.0.1, with real
 * signed requests: every event end to end, inbound validation, limits, routing, errors and
 * mounting under a prefix. Signatures and webhooks: callbacks-signature.test.ts.
 */
import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { CallbackRouterOptions } from "../generated/src/callbacks.ts";
import {
  bodies,
  merchantServer,
  recordingHandlers,
  secret,
  send,
  sendEndless,
  signatureHeader,
  type Running,
} from "./callbacks-helpers.ts";

const m = merchantServer();
const { calls, errors, rejects, withRouter } = m;
let server: Running;
beforeAll(() => {
  server = m.server;
});

describe("each event end to end", () => {
  it("product.info: GET with a JSON body; the answer gets `event`", async () => {
    const res = await send(server, "/product_get", { method: "GET", body: bodies.productInfo });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      event: "product.info",
      status: "success",
      data: {
        Current: { Name: "Mug", Prices: [{ UnitPriceInCents: 1250, Currency: "USD" }] },
        Variants: [],
        Parent: { Name: "Mugs" },
      },
    });
    expect(Object.keys(res.json)[0]).toBe("event");
    expect(calls).toEqual([{ event: "product.info", input: JSON.parse(bodies.productInfo) }]);
  });

  it("order.shipping: POST", async () => {
    const res = await send(server, "/order_shipping", { body: bodies.orderShipping });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      event: "order.shipping",
      status: "success",
      data: {
        shipping_options: [{ service: "ground", cost: 500, reference: "ship-1" }],
        is_store_location: false,
      },
    });
    expect(calls.map((c) => c.event)).toEqual(["order.shipping"]);
  });

  it("cart.update: a failure the handler returns goes out in the spec's shape, with `event`", async () => {
    const res = await send(server, "/cart_update", { body: bodies.cartUpdate });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 6001, data: [{ reason: "out of stock" }] }],
    });
  });

  it("account.login: four trailing path segments; the answer has no `event` (the spec gives it none)", async () => {
    const res = await send(server, "/oauth/login/auth-code/Ab3dE6gH/openid/ord_42", {
      method: "GET",
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    expect(calls).toEqual([
      {
        event: "account.login",
        input: { code: "auth-code", state: "Ab3dE6gH", scope: "openid", reference: "ord_42" },
      },
    ]);
  });

  it("account.login: the same four parameters as a query string", async () => {
    const res = await send(
      server,
      "/oauth/login?code=auth-code&state=Ab3dE6gH&scope=openid&reference=ord_42",
      { method: "GET" },
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success" });
    expect(calls[0]?.input).toEqual({
      code: "auth-code",
      state: "Ab3dE6gH",
      scope: "openid",
      reference: "ord_42",
    });
  });

  it("account.login: percent-encoded segments are decoded", async () => {
    const res = await send(server, "/oauth/login/a%2Fb%20c/Ab3dE6gH/openid/ord%3D1", {
      method: "GET",
    });
    expect(res.status).toBe(200);
    expect(calls[0]?.input).toMatchObject({ code: "a/b c", reference: "ord=1" });
  });

  it("unknown extra fields pass (the service may add fields)", async () => {
    const body = JSON.stringify({
      event: "product.info",
      data: { productID: "p-1", new_field: [1, 2] },
      trace: "x",
    });
    const res = await send(server, "/product_get", { method: "GET", body });
    expect(res.status).toBe(200);
    expect(calls[0]?.input).toEqual(JSON.parse(body));
  });
});

describe("inbound validation", () => {
  it("invalid JSON after a valid signature: 400 in the event's shape", async () => {
    const res = await send(server, "/product_get", {
      method: "GET",
      body: '{"event":"product.info",',
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      event: "product.info",
      status: "failure",
      error: { code: 400, message: "body is not valid JSON" },
    });
    expect(calls).toEqual([]);
  });

  it("bytes that are not UTF-8 are invalid JSON too", async () => {
    const res = await send(server, "/cart_update", {
      body: new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]),
    });
    expect(res.status).toBe(400);
  });

  it("an empty body on a body callback is refused", async () => {
    const res = await send(server, "/order_shipping", { body: "" });
    expect(res.status).toBe(400);
    expect(res.json.error.data).toEqual([{ reason: "body is not valid JSON" }]);
  });

  it("unknown event: the body's event must be the route's", async () => {
    const body = JSON.stringify({ event: "cart.remove", data: {} });
    const res = await send(server, "/cart_update", { body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 400, data: [{ reason: 'body.event must be "cart.update"' }] }],
    });
    const other = await send(server, "/cart_update", { body: bodies.orderShipping });
    expect(other.json.errors[0].data).toEqual([{ reason: 'body.event must be "cart.update"' }]);
    expect(calls).toEqual([]);
  });

  it("a missing event is named", async () => {
    const res = await send(server, "/product_get", {
      method: "GET",
      body: JSON.stringify({ data: { sku: "x" } }),
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({ code: 400, message: "body.event is required" });
  });

  it("wrong types: every field path is named", async () => {
    const body = JSON.stringify({
      event: "cart.update",
      data: {
        order_reference: 7,
        add_items: [{ product_id: "p", quantity: "two" }],
        gift_cards_to_add: [{ pin: 1.5 }],
      },
    });
    const res = await send(server, "/cart_update", { body });
    expect(res.status).toBe(400);
    expect(res.json.errors[0].data).toEqual([
      { reason: "body.data.order_reference must be a string, not number 7" },
      { reason: "body.data.add_items[0].quantity must be a number, not a string" },
      { reason: "body.data.gift_cards_to_add[0].pin must be an integer" },
    ]);
    const notObject = await send(server, "/order_shipping", { body: "[1,2]" });
    expect(notObject.json.error).toEqual({
      code: 400,
      data: [{ reason: "body must be an object, not an array" }],
    });
    expect(calls).toEqual([]);
  });

  it("account.login: a bad state and a bad scope, in both parameter forms", async () => {
    const forms = [
      [
        "/oauth/login/c/short/openid/r",
        "/oauth/login/c/Ab3dE6gH/email/r",
        "/oauth/login/c/Ab3dE6gH9/openid/r",
      ],
      [
        "/oauth/login?code=c&state=short&scope=openid&reference=r",
        "/oauth/login?code=c&state=Ab3dE6gH&scope=email&reference=r",
        "/oauth/login?code=c&state=Ab3dE6gH9&scope=openid&reference=r",
      ],
    ];
    for (const [badState, badScope, longState] of forms) {
      const state = await send(server, badState!, { method: "GET" });
      expect(state.status).toBe(400);
      expect(state.json).toEqual({
        status: "failure",
        errors: [
          { code: 400, data: [{ reason: "params.state must be at least 8 characters long" }] },
        ],
      });
      const scope = await send(server, badScope!, { method: "GET" });
      expect(scope.status).toBe(400);
      expect(scope.json.errors[0].data).toEqual([{ reason: 'params.scope must be "openid"' }]);
      const long = await send(server, longState!, { method: "GET" });
      expect(long.json.errors[0].data).toEqual([
        { reason: "params.state must be at most 8 characters long" },
      ]);
    }
    expect(calls).toEqual([]);
  });

  it("account.login: missing parameters are named; too many segments is no route", async () => {
    const some = await send(server, "/oauth/login/c/Ab3dE6gH", { method: "GET" });
    expect(some.status).toBe(400);
    expect(some.json.errors[0].data).toEqual([
      { reason: "params.scope is required" },
      { reason: "params.reference is required" },
    ]);
    const none = await send(server, "/oauth/login", { method: "GET" });
    expect(none.json.errors[0].data.map((d: { reason: string }) => d.reason)).toEqual([
      "params.code is required",
      "params.state is required",
      "params.scope is required",
      "params.reference is required",
    ]);
    expect(
      (await send(server, "/oauth/login/a/Ab3dE6gH/openid/r/extra", { method: "GET" })).status,
    ).toBe(404);
  });
});

describe("limits, routing and errors", () => {
  it("unknown path: 404", async () => {
    const res = await send(server, "/product_gets", { method: "GET", body: bodies.productInfo });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: { code: 404, message: "no callback at this path" } });
  });

  it("wrong method: 405 with Allow, in the event's shape", async () => {
    const res = await send(server, "/product_get", { method: "POST", body: bodies.productInfo });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET");
    expect(res.json).toEqual({
      event: "product.info",
      status: "failure",
      error: { code: 405, message: "POST is not allowed here; use GET" },
    });
    expect(
      (await send(server, "/cart_update", { method: "PUT", body: bodies.cartUpdate })).status,
    ).toBe(405);
    expect(calls).toEqual([]);
  });

  it("a body over the limit announced by Content-Length: 413 before reading it", async () => {
    const body = JSON.stringify({
      event: "cart.update",
      data: { order_reference: "x".repeat(1024 * 1024) },
    });
    const res = await send(server, "/cart_update", { body });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 413, data: [{ reason: "body is larger than 1048576 bytes" }] }],
    });
    expect(calls).toEqual([]);
  });

  it("a chunked body (no Content-Length) under the limit is read whole", async () => {
    const text = bodies.orderShipping;
    const res = await send(server, "/order_shipping", {
      chunks: [text.slice(0, 5), text.slice(5, 40), text.slice(40)],
    });
    expect(res.status).toBe(200);
    expect(calls[0]?.input).toEqual(JSON.parse(text));
  });

  it("a chunked body over the limit: 413, answered while the client is still sending", async () => {
    const total = 8 * 1024 * 1024;
    const res = await sendEndless(server, "/cart_update", total, 64 * 1024);
    expect(res.status).toBe(413);
    expect(res.json.errors[0].code).toBe(413);
    expect(res.writtenWhenAnswered).toBeLessThan(total);
    expect(calls).toEqual([]);
  });

  it("the limit is configurable; a body of exactly the limit passes", async () => {
    const body = JSON.stringify({ event: "cart.update", data: { order_reference: "ok" } });
    await withRouter({ bodyLimit: Buffer.byteLength(body) }, async (s) => {
      expect((await send(s, "/cart_update", { body })).status).toBe(200);
      const bigger = JSON.stringify({ event: "cart.update", data: { order_reference: "ok!" } });
      expect((await send(s, "/cart_update", { body: bigger })).status).toBe(413);
      expect(
        (await send(s, "/cart_update", { chunks: [bigger.slice(0, 10), bigger.slice(10)] })).status,
      ).toBe(413);
    });
  });

  it("a handler that throws: 500, a generic body without stack or secret, and onError sees the error", async () => {
    const boom = new Error(`database down at /srv/app.ts:12 with ${secret}`);
    const handlers = {
      ...recordingHandlers(calls),
      "order.shipping": async () => Promise.reject(boom),
    };
    await withRouter({ handlers }, async (s) => {
      const res = await send(s, "/order_shipping", { body: bodies.orderShipping });
      expect(res.status).toBe(500);
      expect(res.json).toEqual({
        event: "order.shipping",
        status: "failure",
        error: { code: 500, data: [{ reason: "internal error" }] },
      });
      expect(res.text).not.toContain("database");
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toMatch(/at .*\.ts/);
    });
    expect(errors).toEqual([boom]);
  });

  it("a client that goes away mid-body: onError hears of it, the handler is not called, the server keeps serving", async () => {
    let heard: (error: unknown) => void = () => undefined;
    const seen = new Promise<unknown>((resolve) => (heard = resolve));
    await withRouter({ onError: (error) => heard(error) }, async (s) => {
      const req = request({
        host: "127.0.0.1",
        port: s.port,
        path: "/cart_update",
        method: "POST",
        headers: { "content-length": "1000", [signatureHeader]: "AAAA" },
      });
      req.on("error", () => undefined);
      req.write('{"event":');
      setTimeout(() => req.destroy(), 50);
      expect(String(await seen)).toMatch(/closed before its body ended|aborted/);
      expect((await send(s, "/cart_update", { body: bodies.cartUpdate })).status).toBe(200);
    });
    expect(calls.map((c) => c.event)).toEqual(["cart.update"]);
  });

  it("a handler may set the HTTP status of its answer", async () => {
    const handlers = {
      ...recordingHandlers(calls),
      "cart.update": (_b: unknown, ctx: { setStatus(n: number): void }) => (
        ctx.setStatus(409),
        { status: "failure" as const }
      ),
    };
    await withRouter({ handlers }, async (s) => {
      const res = await send(s, "/cart_update", { body: bodies.cartUpdate });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({ event: "cart.update", status: "failure" });
    });
  });

  it("a handler missing at run time (plain JavaScript): 501, not a crash", async () => {
    const { "product.info": _dropped, ...rest } = recordingHandlers(calls);
    await withRouter({ handlers: rest as CallbackRouterOptions["handlers"] }, async (s) => {
      const res = await send(s, "/product_get", { method: "GET", body: bodies.productInfo });
      expect(res.status).toBe(501);
      expect(res.json.error).toEqual({ code: 501, message: "no handler for product.info" });
    });
  });

  it("refusals never carry a secret, to the client or to onReject", async () => {
    await send(server, "/cart_update", { body: bodies.cartUpdate, signWith: "wrong" });
    await send(server, "/cart_update", { body: "nope" });
    expect(JSON.stringify(rejects)).not.toContain(secret);
    expect(rejects.map((r) => r.status)).toEqual([422, 400]);
  });

  it("mounted under a prefix with basePath (node:http does not strip it)", async () => {
    await withRouter({ basePath: "/merchant/callbacks/" }, async (s) => {
      expect(
        (await send(s, "/merchant/callbacks/order_shipping", { body: bodies.orderShipping }))
          .status,
      ).toBe(200);
      expect(
        (await send(s, "/merchant/callbacks/oauth/login/c/Ab3dE6gH/openid/r", { method: "GET" }))
          .status,
      ).toBe(200);
      expect((await send(s, "/order_shipping", { body: bodies.orderShipping })).status).toBe(404);
      expect(
        (await send(s, "/merchant/callbacksorder_shipping", { body: bodies.orderShipping })).status,
      ).toBe(404);
    });
  });
});
