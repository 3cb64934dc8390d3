/**
 * Signatures of callbacks and webhooks behind a real node:http server on 127.0.0.1: the
 * known-answer vector, re-serialized bodies, every malformed header, rotation, a custom
 * computation, the webhook route and `verifyWebhook`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createCallbackRouter, signBody, verifyWebhook } from "../generated/src/callbacks.ts";
import {
  bodies,
  digest,
  merchantServer,
  previousSecret,
  secret,
  send,
  sign,
  signatureHeader,
  type Running,
} from "./callbacks-helpers.ts";

const m = merchantServer();
const { calls, rejects, webhooks, options, withRouter } = m;
let server: Running;
beforeAll(() => {
  server = m.server;
});

describe("signature", () => {
  const vectorBody = '{"event":"cart.update","data":{"name":"caf\\u00e9"}}';

  it("known-answer vector: base64(HMAC-SHA256) over the raw bytes, with the six characters \\u00e9 as sent", async () => {
    expect(vectorBody).toContain("\\u00e9");
    expect(sign(vectorBody)).toBe("4j5vgPv7eBmdrspQ0on8fyJ8XMpXDhlMYpATkWD9z+w=");
    expect(await signBody(secret, vectorBody)).toBe("4j5vgPv7eBmdrspQ0on8fyJ8XMpXDhlMYpATkWD9z+w=");
    const res = await send(server, "/cart_update", {
      body: vectorBody,
      signWith: false,
      headers: { [signatureHeader]: "4j5vgPv7eBmdrspQ0on8fyJ8XMpXDhlMYpATkWD9z+w=" },
    });
    expect(res.status).toBe(200);
    expect(calls[0]?.input).toEqual({ event: "cart.update", data: { name: "café" } });
  });

  it("the same body re-serialized with a literal é fails", async () => {
    const reserialized = JSON.stringify(JSON.parse(vectorBody));
    expect(reserialized).toBe('{"event":"cart.update","data":{"name":"café"}}');
    const res = await send(server, "/cart_update", {
      body: reserialized,
      signWith: false,
      headers: { [signatureHeader]: "4j5vgPv7eBmdrspQ0on8fyJ8XMpXDhlMYpATkWD9z+w=" },
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      event: "cart.update",
      status: "failure",
      errors: [{ code: 27, data: [{ reason: "X-Service-Hmac-Sha256 does not match the body" }] }],
    });
    expect(calls).toEqual([]);
  });

  it("a body re-serialized after signing (whitespace, key order) fails", async () => {
    const original = '{ "event": "order.shipping", "data": { "request_source": "checkout" } }';
    const header = sign(original);
    for (const changed of [
      JSON.stringify(JSON.parse(original)),
      '{"data":{"request_source":"checkout"},"event":"order.shipping"}',
    ]) {
      const res = await send(server, "/order_shipping", {
        body: changed,
        signWith: false,
        headers: { [signatureHeader]: header },
      });
      expect(res.status).toBe(422);
    }
    expect(calls).toEqual([]);
  });

  it("the header name is matched in any letter case", async () => {
    for (const name of ["x-service-hmac-sha256", "X-SERVICE-HMAC-SHA256"]) {
      const res = await send(server, "/order_shipping", {
        body: bodies.orderShipping,
        signWith: false,
        headers: { [name]: sign(bodies.orderShipping) },
      });
      expect(res.status).toBe(200);
    }
    expect(calls).toHaveLength(2);
  });

  const good = sign(bodies.productInfo);
  const swapCase = (s: string) =>
    [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  const malformed: [string, Record<string, string>, string | RegExp][] = [
    ["missing", {}, "missing X-Service-Hmac-Sha256 header"],
    ["empty", { [signatureHeader]: "" }, "missing X-Service-Hmac-Sha256 header"],
    ["blank", { [signatureHeader]: "   " }, "missing X-Service-Hmac-Sha256 header"],
    [
      "its value in another letter case",
      { [signatureHeader]: swapCase(good) },
      /^X-Service-Hmac-Sha256 (does not match the body|is not a well-formed signature)$/,
    ],
    [
      "hex instead of base64",
      { [signatureHeader]: digest(bodies.productInfo).toString("hex") },
      "X-Service-Hmac-Sha256 does not match the body",
    ],
    [
      "a 31-byte digest",
      { [signatureHeader]: digest(bodies.productInfo).subarray(0, 31).toString("base64") },
      "X-Service-Hmac-Sha256 does not match the body",
    ],
    [
      "a 33-byte digest",
      {
        [signatureHeader]: Buffer.concat([digest(bodies.productInfo), Buffer.from([0])]).toString(
          "base64",
        ),
      },
      "X-Service-Hmac-Sha256 does not match the body",
    ],
    [
      "invalid base64 (a stray character)",
      { [signatureHeader]: `!${good.slice(1)}` },
      "X-Service-Hmac-Sha256 is not a well-formed signature",
    ],
    [
      "invalid base64 (padding dropped)",
      { [signatureHeader]: good.replace(/=+$/, "") },
      "X-Service-Hmac-Sha256 is not a well-formed signature",
    ],
    [
      "base64url instead of base64",
      { [signatureHeader]: digest(bodies.productInfo).toString("base64url") },
      "X-Service-Hmac-Sha256 is not a well-formed signature",
    ],
    [
      "signed with another secret",
      { [signatureHeader]: sign(bodies.productInfo, "not-the-secret") },
      "X-Service-Hmac-Sha256 does not match the body",
    ],
  ];

  it.each(malformed)(
    "header %s: 422, code 27, in product.info's failure shape; the handler is not called",
    async (_case, headers, reason) => {
      const res = await send(server, "/product_get", {
        method: "GET",
        body: bodies.productInfo,
        signWith: false,
        headers,
      });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        event: "product.info",
        status: "failure",
        error: {
          code: 27,
          message: typeof reason === "string" ? reason : expect.stringMatching(reason),
        },
      });
      expect(calls).toEqual([]);
      expect(rejects).toEqual([
        {
          event: "product.info",
          path: "/product_get",
          status: 422,
          reason: res.json.error.message,
        },
      ]);
    },
  );

  it("base64url of the right digest is refused even when it happens to need no - or _", async () => {
    // A digest whose base64 has neither + nor /: base64url differs only by the missing padding.
    const res = await send(server, "/order_shipping", {
      body: bodies.orderShipping,
      signWith: false,
      headers: { [signatureHeader]: sign(bodies.orderShipping).replace(/=+$/, "") },
    });
    expect(res.status).toBe(422);
  });

  it("each event answers a signature failure in its own failure shape", async () => {
    const order = await send(server, "/order_shipping", {
      body: bodies.orderShipping,
      signWith: "wrong",
    });
    expect(order.json).toEqual({
      event: "order.shipping",
      status: "failure",
      error: { code: 27, data: [{ reason: "X-Service-Hmac-Sha256 does not match the body" }] },
    });
    const login = await send(server, "/oauth/login/c/Ab3dE6gH/openid/r", {
      method: "GET",
      signWith: "wrong",
    });
    expect(login.status).toBe(422);
    expect(login.json).toEqual({
      status: "failure",
      errors: [{ code: 27, data: [{ reason: "X-Service-Hmac-Sha256 does not match the body" }] }],
    });
    expect(calls).toEqual([]);
  });

  it("rotation: either secret is accepted, unset and empty entries are skipped", async () => {
    await withRouter({ signingSecrets: [undefined, "", secret, previousSecret] }, async (s) => {
      expect(
        (await send(s, "/order_shipping", { body: bodies.orderShipping, signWith: previousSecret }))
          .status,
      ).toBe(200);
      expect(
        (await send(s, "/order_shipping", { body: bodies.orderShipping, signWith: secret })).status,
      ).toBe(200);
      expect(
        (await send(s, "/order_shipping", { body: bodies.orderShipping, signWith: "third" }))
          .status,
      ).toBe(422);
    });
    // Only the second secret of the list matches.
    await withRouter({ signingSecrets: ["new-secret-not-yet-used", previousSecret] }, async (s) => {
      expect(
        (await send(s, "/cart_update", { body: bodies.cartUpdate, signWith: previousSecret }))
          .status,
      ).toBe(200);
    });
  });

  it("Web Crypto, when given, checks exactly as the default (Node's own HMAC on Node), with rotation", async () => {
    const { webcrypto } = await import("node:crypto");
    let webCryptoSigns = 0;
    const subtle = new Proxy(webcrypto.subtle as SubtleCrypto, {
      get: (target, name) => {
        const value = Reflect.get(target, name, target) as unknown;
        if (name === "sign") webCryptoSigns++;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await withRouter(
      { signingSecrets: [secret, previousSecret], signature: { subtle } },
      async (s) => {
        const vector = {
          body: vectorBody,
          signWith: false as const,
          headers: { [signatureHeader]: "4j5vgPv7eBmdrspQ0on8fyJ8XMpXDhlMYpATkWD9z+w=" },
        };
        expect((await send(s, "/cart_update", vector)).status).toBe(200);
        expect(
          (
            await send(s, "/order_shipping", {
              body: bodies.orderShipping,
              signWith: previousSecret,
            })
          ).status,
        ).toBe(200);
        expect(
          (await send(s, "/order_shipping", { body: bodies.orderShipping, signWith: "third" }))
            .status,
        ).toBe(422);
      },
    );
    expect(webCryptoSigns).toBeGreaterThanOrEqual(6); // two secrets tried per request
    // The default on Node never reached Web Crypto for the same checks.
    const before = webCryptoSigns;
    expect((await send(server, "/order_shipping", { body: bodies.orderShipping })).status).toBe(
      200,
    );
    expect(webCryptoSigns).toBe(before);
  });

  it("a router without any usable secret is refused at creation, naming no secret", () => {
    expect(() => createCallbackRouter(options({ signingSecrets: [undefined, ""] }))).toThrow(
      /signingSecrets has no usable secret/,
    );
  });

  it("the computation is an option: a custom scheme replaces the default", async () => {
    const signatureOption = {
      compute: async (key: string, content: { method: string; target: string; body: Uint8Array }) =>
        new Uint8Array(
          digest(
            Buffer.concat([Buffer.from(`${content.method} ${content.target}\n`), content.body]),
            key,
          ),
        ),
    };
    await withRouter({ signature: signatureOption }, async (s) => {
      const target = "/oauth/login/c/Ab3dE6gH/openid/r";
      const header = digest(`GET ${target}\n`).toString("base64");
      expect(
        (
          await send(s, target, {
            method: "GET",
            signWith: false,
            headers: { [signatureHeader]: header },
          })
        ).status,
      ).toBe(200);
      expect((await send(s, target, { method: "GET" })).status).toBe(422); // the default signature no longer matches
    });
  });
});

describe("webhooks", () => {
  const payload = JSON.stringify({
    type: "transaction.status",
    data: { reference: "t-1", status: "completed" },
  });

  it("the webhook route hands over the verified, parsed payload as unknown", async () => {
    const res = await send(server, "/webhooks", { body: payload });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(webhooks).toEqual([JSON.parse(payload)]);
  });

  it("the webhook route refuses a bad signature, invalid JSON and other methods", async () => {
    expect((await send(server, "/webhooks", { body: payload, signWith: "wrong" })).json).toEqual({
      error: { code: 27, message: "X-Service-Hmac-Sha256 does not match the body" },
    });
    expect((await send(server, "/webhooks", { body: "{" })).status).toBe(400);
    expect((await send(server, "/webhooks", { method: "GET" })).status).toBe(405);
    expect(webhooks).toEqual([]);
  });

  it("verifyWebhook checks like the router, with rotation, and parses", async () => {
    const bytes = new TextEncoder().encode(payload);
    expect(
      await verifyWebhook(bytes, sign(payload, previousSecret), [secret, previousSecret]),
    ).toEqual({ ok: true, payload: JSON.parse(payload) });
    expect(await verifyWebhook(payload, sign(payload), [undefined, secret])).toEqual({
      ok: true,
      payload: JSON.parse(payload),
    });
    expect(await verifyWebhook(bytes.buffer, sign(payload), [secret])).toMatchObject({ ok: true });
    expect(await verifyWebhook(bytes, sign(`${payload} `), [secret])).toMatchObject({
      ok: false,
      reason: "mismatch",
    });
    expect(await verifyWebhook(bytes, undefined, [secret])).toMatchObject({
      ok: false,
      reason: "missing",
    });
    expect(await verifyWebhook(bytes, "%%%", [secret])).toMatchObject({
      ok: false,
      reason: "malformed",
    });
    expect(await verifyWebhook("nope", sign("nope"), [secret])).toEqual({
      ok: false,
      reason: "invalid-json",
      message: "body is not valid JSON",
    });
    await expect(verifyWebhook(bytes, sign(payload), [""])).rejects.toThrow(
      /no usable signing secret/,
    );
  });
});

describe("signatures without a global crypto (Node 18)", () => {
  it("verify with the Web Crypto passed in, and say clearly when there is none", async () => {
    const { createSignatureVerifier, signBody } = await import(
      "../generator/runtime/callbacks/signature.ts"
    );
    const { webcrypto } = await import("node:crypto");
    const body = new TextEncoder().encode('{"event":"cart.update"}');
    const header = await signBody("s3cret", body);
    // Node 18 has neither a global crypto nor process.getBuiltinModule (Node 20.16+).
    const saved = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
    const getBuiltinModule = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
    Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
    Object.defineProperty(process, "getBuiltinModule", { value: undefined, configurable: true });
    try {
      expect(() => createSignatureVerifier(["s3cret"])).toThrow(
        /no Web Crypto in this runtime: pass signature\.subtle/,
      );
      const verify = createSignatureVerifier(["s3cret"], {
        subtle: webcrypto.subtle as SubtleCrypto,
      });
      const content = {
        method: "POST",
        target: "/cart_update",
        headers: { get: () => null },
        body,
      };
      await expect(verify(header, content)).resolves.toEqual({ ok: true });
      await expect(
        verify(
          header.replace(/^./, (c) => (c === "A" ? "B" : "A")),
          content,
        ),
      ).resolves.toEqual({ ok: false, reason: "mismatch" });
    } finally {
      Object.defineProperty(globalThis, "crypto", saved);
      if (getBuiltinModule) Object.defineProperty(process, "getBuiltinModule", getBuiltinModule);
    }
  });
});
