/**
 * The router's fast paths give what the general ones would: targets split without `URL`,
 * spec paths found by one lookup instead of segment matching, a single-chunk body kept
 * without a copy, and handlers and signature checks that answer without a promise.
 */
import { describe, expect, it } from "vitest";
import { decodeBase64 } from "../generator/runtime/callbacks/base64.ts";
import { genericFailureShape } from "../generator/runtime/callbacks/failure.ts";
import { exactRoutes, matchRoute, type RouteSpec } from "../generator/runtime/callbacks/routes.ts";
import { splitTarget } from "../generator/runtime/http/target.ts";
import { bodies, merchantServer, recordingHandlers, send } from "./callbacks-helpers.ts";

const m = merchantServer();
const { calls, errors } = m;

describe("splitTarget", () => {
  it("gives the pathname and query that URL gives for the path, plain or not", () => {
    const targets = [
      "/",
      "/order_shipping",
      "/order_shipping/",
      "/oauth/login?code=c&state=Ab3dE6gH&scope=openid&reference=r",
      "/oauth/login?a=1+2&b=%20x&c=&&d",
      "/oauth/login?",
      "/oauth/login??a=1",
      "/oauth/login?a=%zz",
      "/a/./b/../c",
      "/a%2Fb/%7e",
      "//evil.example/x",
      "/a\\b",
      "/sp ace?q=a b",
      "/é?q=é",
      "/a#frag",
    ];
    for (const target of targets) {
      const url = new URL(`http://router.invalid${target}`);
      const parts = splitTarget(target);
      expect(parts?.pathname, target).toBe(url.pathname);
      expect([...(parts?.query ?? [])], target).toEqual([...url.searchParams]);
    }
    // the absolute form, as proxies send it, keeps its path and query
    const absolute = splitTarget("http://other.example/abs?x=1");
    expect(absolute?.pathname).toBe("/abs");
    expect([...(absolute?.query ?? [])]).toEqual([["x", "1"]]);
  });
});

describe("exactRoutes", () => {
  const route = (
    event: string,
    method: string,
    path: string,
    params: RouteSpec["params"] = [],
  ): RouteSpec => ({ event, method, path, params, failure: genericFailureShape });

  it("a lookup gives what matchRoute gives, and leaves out what an earlier {name} route takes", () => {
    const routes = [
      route("templated", "GET", "/items/{id}", [{ name: "id", placement: "path" }]),
      route("shadowed", "GET", "/items/all"),
      route("post", "POST", "/items/all"),
      route("plain", "GET", "/plain"),
      route("second", "GET", "/plain"),
      route("trailing", "GET", "/t", [{ name: "x", placement: "trailing" }]),
      route("lower", "get", "/lower"),
    ];
    const exact = exactRoutes(routes);
    expect([...exact.keys()].sort()).toEqual(["/items/all", "/plain"]);
    expect(exact.get("/items/all")?.get("GET")).toBeUndefined();
    expect(exact.get("/items/all")?.get("POST")?.event).toBe("post");
    expect(exact.get("/plain")?.get("GET")?.event).toBe("plain");
    for (const [path, methods] of exact)
      for (const [method, found] of methods)
        expect(matchRoute(routes, method, path, new URLSearchParams())).toMatchObject({
          kind: "route",
          route: found,
        });
  });
});

describe("strict base64 with the lookup table", () => {
  it("refuses characters past ASCII and stray padding", () => {
    expect(decodeBase64("QUJD")).toEqual(new TextEncoder().encode("ABC"));
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
    for (const bad of ["QUJ\u00c4", "QU\u0100D", "Q=JD", "=QJD", "QUJ\u0000"])
      expect(decodeBase64(bad), bad).toBeUndefined();
  });
});

describe("node adapter without promises", () => {
  it("a one-chunk body reaches the handler as the exact bytes", async () => {
    let raw: Uint8Array | undefined;
    const handlers = {
      ...recordingHandlers(calls),
      "order.shipping": (_b: unknown, ctx: { rawBody: Uint8Array }) => (
        (raw = ctx.rawBody),
        { status: "success" as const, data: { shipping_options: [], is_store_location: false } }
      ),
    };
    await m.withRouter({ handlers }, async (s) => {
      expect((await send(s, "/order_shipping", { body: bodies.orderShipping })).status).toBe(200);
    });
    expect(new TextDecoder().decode(raw)).toBe(bodies.orderShipping);
  });

  it("a handler that answers synchronously, one that returns a thenable, one that throws synchronously", async () => {
    const thenable = { then: (resolve: (v: unknown) => void) => resolve({ status: "success" }) };
    const boom = new Error("sync boom");
    const handlers = {
      ...recordingHandlers(calls),
      "product.info": () => thenable as never,
      "order.shipping": () => {
        throw boom;
      },
      "cart.update": () => ({
        status: "failure" as const,
        errors: [{ code: 1, data: [{ reason: "r" }] }],
      }),
    };
    await m.withRouter({ handlers }, async (s) => {
      expect(
        (await send(s, "/product_get", { method: "GET", body: bodies.productInfo })).json,
      ).toEqual({ event: "product.info", status: "success" });
      const thrown = await send(s, "/order_shipping", { body: bodies.orderShipping });
      expect(thrown.status).toBe(500);
      expect(thrown.json.error.data).toEqual([{ reason: "internal error" }]);
      expect((await send(s, "/cart_update", { body: bodies.cartUpdate })).json).toEqual({
        event: "cart.update",
        status: "failure",
        errors: [{ code: 1, data: [{ reason: "r" }] }],
      });
    });
    expect(errors).toEqual([boom]);
  });

  it("an answer that is not JSON (a BigInt) is the generic 500, and onError sees why", async () => {
    const handlers = {
      ...recordingHandlers(calls),
      "cart.update": () => ({ status: "failure", errors: [{ code: 10n }] }) as never,
    };
    await m.withRouter({ handlers }, async (s) => {
      expect((await send(s, "/cart_update", { body: bodies.cartUpdate })).status).toBe(500);
    });
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/BigInt/);
  });
});
