/**
 * The router's node adapter as Express middleware, in a real Express app on 127.0.0.1:
 * mounted under a prefix before any body parser, with the app's own JSON routes beside it.
 */
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCallbackRouter } from "../generated/src/callbacks.ts";
import {
  bodies,
  listen,
  recordingHandlers,
  secret,
  send,
  type Call,
  type Running,
} from "./callbacks-helpers.ts";

const calls: Call[] = [];
const errors: unknown[] = [];
let server: Running;

beforeAll(async () => {
  const router = createCallbackRouter({
    signingSecrets: [secret],
    handlers: recordingHandlers(calls),
    onError: (e) => errors.push(e),
  });
  const app = express();
  app.use("/merchant", router.node); // before any body parser: the router reads the raw bytes itself
  app.use(express.json());
  app.post("/api/echo", (req, res) => void res.json({ echoed: req.body }));
  app.use((_req, res) => void res.status(404).json({ fallback: true }));
  server = await listen(app);
});
afterAll(() => server.close());
afterEach(() => {
  calls.length = 0;
  errors.length = 0;
});

describe("Express app, router mounted at /merchant before body parsers", () => {
  it("product.info: GET with a body reaches the handler", async () => {
    const res = await send(server, "/merchant/product_get", {
      method: "GET",
      body: bodies.productInfo,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ event: "product.info", status: "success" });
    expect(calls[0]?.input).toEqual(JSON.parse(bodies.productInfo));
  });

  it("order.shipping and cart.update", async () => {
    expect(
      (await send(server, "/merchant/order_shipping", { body: bodies.orderShipping })).json,
    ).toMatchObject({ event: "order.shipping", status: "success" });
    expect((await send(server, "/merchant/cart_update", { body: bodies.cartUpdate })).json).toEqual(
      {
        event: "cart.update",
        status: "failure",
        errors: [{ code: 6001, data: [{ reason: "out of stock" }] }],
      },
    );
  });

  it("account.login in both parameter forms, and a bad state", async () => {
    expect(
      (await send(server, "/merchant/oauth/login/c/Ab3dE6gH/openid/r", { method: "GET" })).json,
    ).toEqual({ status: "success" });
    expect(
      (
        await send(server, "/merchant/oauth/login?code=c&state=Ab3dE6gH&scope=openid&reference=r", {
          method: "GET",
        })
      ).json,
    ).toEqual({ status: "success" });
    const bad = await send(
      server,
      "/merchant/oauth/login?code=c&state=Ab3&scope=openid&reference=r",
      { method: "GET" },
    );
    expect(bad.status).toBe(400);
    expect(calls).toHaveLength(2);
  });

  it("a bad signature is refused with 422, code 27", async () => {
    const res = await send(server, "/merchant/order_shipping", {
      body: bodies.orderShipping,
      signWith: "wrong",
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe(27);
    expect(calls).toEqual([]);
  });

  it("paths the router does not know go on to the app's next handlers", async () => {
    expect((await send(server, "/merchant/elsewhere", { body: "{}" })).json).toEqual({
      fallback: true,
    });
    expect((await send(server, "/api/echo", { body: '{"a":1}' })).json).toEqual({
      echoed: { a: 1 },
    });
  });

  it("a wrong method on a known path is the router's 405, not passed on", async () => {
    expect(
      (
        await send(server, "/merchant/order_shipping", {
          method: "GET",
          body: bodies.orderShipping,
        })
      ).status,
    ).toBe(405);
  });
});

describe("Express app with a body parser before the router", () => {
  it("express.json() first: a 500 and an onError that says to mount the router first", async () => {
    const seen: unknown[] = [];
    const app = express();
    app.use(express.json());
    app.use(
      createCallbackRouter({
        signingSecrets: [secret],
        handlers: recordingHandlers(calls),
        onError: (e) => seen.push(e),
      }).node,
    );
    const running = await listen(app);
    try {
      const res = await send(running, "/order_shipping", { body: bodies.orderShipping });
      expect(res.status).toBe(500);
      expect(res.json.error).toEqual({ code: 500, data: [{ reason: "internal error" }] });
      expect(String(seen[0])).toMatch(/mount the callback router before any body parser/);
      expect(calls).toEqual([]);
    } finally {
      await running.close();
    }
  });

  it("express.raw() first: the raw bytes it kept are used", async () => {
    const app = express();
    app.use(express.raw({ type: "*/*" }));
    app.use(
      createCallbackRouter({ signingSecrets: [secret], handlers: recordingHandlers(calls) }).node,
    );
    const running = await listen(app);
    try {
      expect((await send(running, "/order_shipping", { body: bodies.orderShipping })).status).toBe(
        200,
      );
      expect(
        (await send(running, "/order_shipping", { body: bodies.orderShipping, signWith: "wrong" }))
          .status,
      ).toBe(422);
    } finally {
      await running.close();
    }
  });
});
