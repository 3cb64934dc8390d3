/**
 * The generated stand-in (`merchant-commerce-api/testing`) on 127.0.0.1, driven by the
 * generated Merchant client through every endpoint and every refusal the spec names:
 * credentials per endpoint (v1 codes, v3 `.tag` bodies), validation with the spec's
 * validators, responses built from the types (seeded, valid), `Prefer` for a status or an
 * error, the state the spec implies, and bad input that gets the spec's error shape.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantApiError, MerchantClient } from "../generated/src/index.ts";
import {
  createStandIn,
  listen,
  type RunningStandIn,
  type StandIn,
} from "../generated/src/testing.ts";
import { validate } from "../generated/src/runtime/validate.ts";
import { validatorsOfAllTypes, type Check } from "./helpers.ts";

const keys = {
  apiKey: { valid: ["sandbox-key"], otherEnvironment: ["production-key"] },
  publishableKey: { valid: ["pk-sandbox"] },
  accessToken: { valid: ["token-1"] },
};

let standIn: StandIn;
let running: RunningStandIn;
const lines: string[] = [];
// The answers' types are response types, which the package has no validators of: these come
// from a generation with every validator (validators: "all").
let validateCancelSubscriptionResponse: Check;
let validateCreateWebhookResponse: Check;
let validateListTransactionsResponse: Check;
let validateRandomPhoneResponse: Check;
let validateTransaction: Check;
let disposeValidators: (() => void) | undefined;

beforeAll(async () => {
  standIn = createStandIn({ seed: 7, keys, log: (line) => lines.push(line) });
  running = await listen(standIn, { port: 0 });
  const { validators, dispose } = await validatorsOfAllTypes("spec");
  disposeValidators = dispose;
  validateCancelSubscriptionResponse = validators.validateCancelSubscriptionResponse!;
  validateCreateWebhookResponse = validators.validateCreateWebhookResponse!;
  validateListTransactionsResponse = validators.validateListTransactionsResponse!;
  validateRandomPhoneResponse = validators.validateRandomPhoneResponse!;
  validateTransaction = validators.validateTransaction!;
});
afterAll(async () => {
  await running?.close();
  disposeValidators?.();
});

/** A client of the stand-in; `without` names headers a wrapped fetch removes (to send a request the client would not). */
function client(
  options: { apiKey?: string; publishableKey?: string; accessToken?: string } = {},
  without: string[] = [],
) {
  return new MerchantClient({
    baseUrl: running.url,
    apiKey: "sandbox-key",
    publishableKey: "pk-sandbox",
    accessToken: "token-1",
    maxRetries: 0,
    ...options,
    fetch: (input, init) => {
      const request = new Request(input, init);
      for (const name of without) request.headers.delete(name);
      return fetch(request);
    },
  });
}

/** The ApiError a call ends in. */
async function refusal(call: PromiseLike<unknown>): Promise<MerchantApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MerchantApiError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

/** A raw request to the stand-in, with the sandbox key unless headers say otherwise. */
async function raw(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
) {
  const res = await fetch(`${running.url}${path}`, {
    method,
    headers: { "X-API-Key": "sandbox-key", "Content-Type": "application/json", ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

describe("stand-in: every endpoint answers through the generated client", () => {
  it("listens on 127.0.0.1 only", () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("builds bodies from the types that pass the spec's own validators", async () => {
    const c = client();
    const list = await c.transactions.list();
    expect(validate(validateListTransactionsResponse, list, "list")).toEqual([]);
    const tx = await c.transactions.get("ABCD-EFGH-IJKL");
    expect(validate(validateTransaction, tx, "tx")).toEqual([]);
    expect(tx.reference).toMatch(/^[^-]{4}-[^-]{4}-[^-]{4}$/);
    const phone = await c.testing.getRandomPhone();
    expect(validate(validateRandomPhoneResponse, phone, "phone")).toEqual([]);
    const canceled = await c.subscriptions.cancel("sub_a");
    expect(validate(validateCancelSubscriptionResponse, canceled, "c")).toEqual([]);
    expect(canceled).toEqual({ success: true });
  });

  it("answers an empty body where the spec shows none, and says so in a header and the log", async () => {
    const c = client();
    const authorized = await c.transactions
      .authorize({ amount: 100, currency: "USD" } as never)
      .withResponse();
    expect(authorized.response.status).toBe(200);
    expect(authorized.response.headers.get("x-apigen-stand-in")).toBe(
      "no response body in the spec",
    );
    await expect(c.orders.create({} as never)).resolves.toBeUndefined();
    await expect(
      c.testing.trackMockShipment({ tracking_number: "MockService-1", status: "in_transit" }),
    ).resolves.toBeUndefined();
    expect(
      lines.some((l) =>
        /^POST \/v1\/merchant\/orders -> 200 \(no response body in the spec\)$/.test(l),
      ),
    ).toBe(true);
  });

  it("builds valid bodies for every seed tried (40 seeds, every JSON endpoint)", async () => {
    const checks: [string, Parameters<typeof validate>[0]][] = [
      ["/v1/merchant/transactions", validateListTransactionsResponse],
      ["/v1/merchant/transactions/ABCD-EFGH-IJKL", validateTransaction],
      ["/v3/testing/accounts/phones", validateRandomPhoneResponse],
    ];
    for (let seed = 1; seed <= 40; seed++) {
      const s = createStandIn({ seed });
      for (const [path, check] of checks) {
        const res = await s.fetch(
          new Request(`http://x${path}`, {
            headers: { "X-API-Key": "k", "X-Publishable-Key": "p" },
          }),
        );
        expect(res.status).toBe(200);
        expect(validate(check, await res.json(), `seed ${seed} ${path}`)).toEqual([]);
      }
    }
  });

  it("is deterministic for a seed, and another seed gives other values", async () => {
    const ask = async (s: StandIn) =>
      (
        await s.fetch(
          new Request("http://x/v1/merchant/transactions/ABCD-EFGH-IJKL", {
            headers: { "X-API-Key": "sandbox-key" },
          }),
        )
      ).json();
    const [a, b, other] = await Promise.all([
      ask(createStandIn({ seed: 3 })),
      ask(createStandIn({ seed: 3 })),
      ask(createStandIn({ seed: 4 })),
    ]);
    expect(a).toEqual(b);
    expect(other).not.toEqual(a);
  });
});

describe("stand-in: credentials refused as the spec says per endpoint", () => {
  it("GET /v1/merchant/transactions: no X-API-Key is 401/1015, a rejected key 403/1005, a key of the other environment 403/1005", async () => {
    const missing = await refusal(client({}, ["X-API-Key"]).transactions.list());
    expect([missing.status, missing.code]).toEqual([401, 1015]);
    expect(missing.body).toMatchObject({ errors: [{ code: 1015 }], result: { success: false } });
    const rejected = await refusal(client({ apiKey: "wrong" }).transactions.list());
    expect([rejected.status, rejected.code]).toEqual([403, 1005]);
    const other = await refusal(client({ apiKey: "production-key" }).transactions.list());
    expect([other.status, other.code]).toEqual([403, 1005]);
    expect(other.serverMessage).toContain("other environment");
  });

  it("other /v1/merchant/ endpoints: a missing or rejected key is 403/1005", async () => {
    const missing = await refusal(client({}, ["X-API-Key"]).transactions.get("ABCD-EFGH-IJKL"));
    expect([missing.status, missing.code]).toEqual([403, 1005]);
    const rejected = await refusal(client({ apiKey: "nope" }).orders.create({} as never));
    expect([rejected.status, rejected.code]).toEqual([403, 1005]);
  });

  it("/v1/subscriptions/: a missing or rejected key is 401/63; a missing publishable key 1012", async () => {
    const missing = await refusal(client({}, ["X-API-Key"]).subscriptions.cancel("s1"));
    expect([missing.status, missing.code]).toEqual([401, 63]);
    const rejected = await refusal(client({ apiKey: "nope" }).subscriptions.cancel("s1"));
    expect([rejected.status, rejected.code]).toEqual([401, 63]);
    const publishable = await refusal(client({}, ["X-Publishable-Key"]).subscriptions.cancel("s1"));
    expect([publishable.status, publishable.code]).toEqual([401, 1012]);
  });

  it("/v3/: a missing or rejected key is 401 with a .tag body and no numeric code", async () => {
    const missing = await refusal(client({}, ["X-API-Key"]).testing.getRandomPhone());
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ ".tag": "unauthorized", message: "X-API-Key is required" });
    const rejected = await refusal(client({ publishableKey: "pk-other" }).testing.getRandomPhone());
    expect(rejected.status).toBe(401);
    expect(rejected.tag).toBe("unauthorized");
    expect(rejected.code).toBeUndefined();
  });

  it("the authorize call checks its bearer token too", async () => {
    const missing = await refusal(
      client({}, ["Authorization"]).transactions.authorize({} as never),
    );
    expect(missing.status).toBe(401);
    // a token the server does not accept is a failed authentication too (RFC 6750's
    // invalid_token is a 401); 403 refuses one it accepted
    const rejected = await refusal(
      client({ accessToken: "stale" }).transactions.authorize({} as never),
    );
    expect(rejected.status).toBe(401);
  });
});

describe("stand-in: validation with the spec's validators", () => {
  it("/v1/: 422 with the v1 error body naming the field; tracking_number must begin with MockService", async () => {
    const res = await raw("POST", "/v1/shipments/mock_service_shipping", {
      body: JSON.stringify({ tracking_number: "UPS-1", status: "lost" }),
    });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      errors: [
        { message: 'body.tracking_number: must begin with "MockService"' },
        { message: expect.stringMatching(/^body\.status: /) },
      ],
      result: { success: false },
    });
    const param = await raw("GET", "/v1/merchant/transactions/short");
    expect(param.status).toBe(422);
    expect(param.json.errors[0].message).toMatch(/^params\.reference: must match/);
    const missing = await raw("POST", "/v1/webhooks", { body: JSON.stringify({ url: "x" }) });
    expect(missing.json.errors.map((e: { message: string }) => e.message)).toEqual([
      "body.division_id: is required",
      "body.url: must be in uri format",
    ]);
  });

  it("/v3/: 400 with the .tag body (the endpoint's own tag)", async () => {
    const res = await raw("GET", "/v3/testing/accounts/phones", {
      headers: { "X-Publishable-Key": "pk-sandbox", Prefer: "code=400" },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ ".tag": "unprocessable_request", message: "Invalid parameters." });
  });
});

describe("stand-in: Prefer asks for a status or an error", () => {
  it("429 with Retry-After, through the client", async () => {
    const error = await refusal(
      client().transactions.list({ headers: { Prefer: "code=429, retry-after=4" } }),
    );
    expect(error.status).toBe(429);
    expect(error.headers.get("retry-after")).toBe("4");
    expect(error.headers.get("preference-applied")).toBe("code=429, retry-after=4");
  });

  it("an error by its code, with the status the spec lists for it", async () => {
    const error = await refusal(
      client().transactions.get("ABCD-EFGH-IJKL", { headers: { Prefer: "error=1005" } }),
    );
    expect([error.status, error.code]).toEqual([403, 1005]);
    const notFound = await refusal(
      client().transactions.get("ABCD-EFGH-IJKL", { headers: { Prefer: "code=404" } }),
    );
    expect(notFound.status).toBe(404);
  });
});

describe("stand-in: state the spec implies", () => {
  it("a created webhook gets a wh_ id, a duplicate configuration is refused, delete removes it once", async () => {
    const c = client();
    const config = { division_id: "div-1", url: "https://merchant.example/hooks" };
    const created = await c.webhooks.create(config);
    expect(validate(validateCreateWebhookResponse, created, "w")).toEqual([]);
    expect(created.webhook_id).toMatch(/^wh_[a-z0-9]{16}$/);
    expect(standIn.state().collections.webhooks).toContainEqual({
      id: created.webhook_id,
      body: config,
    });
    const duplicate = await refusal(c.webhooks.create({ url: config.url, division_id: "div-1" }));
    expect(duplicate.status).toBe(422);
    expect(duplicate.serverMessage).toBe("Webhooks must have unique configuration.");
    const second = await c.webhooks.create({ ...config, division_id: "div-2" });
    expect(second.webhook_id).not.toBe(created.webhook_id);
    await c.webhooks.delete(created.webhook_id!);
    expect(standIn.state().collections.webhooks!.map((w) => w.id)).toEqual([second.webhook_id]);
    const again = await refusal(c.webhooks.delete(created.webhook_id!));
    expect(again.status).toBe(404);
    await expect(c.webhooks.create(config)).resolves.toMatchObject({
      webhook_id: expect.stringMatching(/^wh_/),
    });
  });

  it("a canceled subscription stays canceled", async () => {
    const c = client();
    await c.subscriptions.cancel("sub_keep");
    const after = standIn.state().lifecycles.SubscriptionOrder!.sub_keep;
    expect(after).toBe("after subscriptions.cancel");
    await expect(c.subscriptions.cancel("sub_keep")).resolves.toEqual({ success: true });
    expect(standIn.state().lifecycles.SubscriptionOrder!.sub_keep).toBe(after);
    standIn.reset();
    expect(standIn.state()).toEqual({ collections: { webhooks: [] }, lifecycles: {} });
  });
});

/** Writes raw bytes to the stand-in's port and resolves with what came back once it closes (5 s at most). */
function rawSocket(bytes: string, closeAfterWrite: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(running.port, "127.0.0.1");
    let got = "";
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on("data", (chunk) => (got += chunk.toString("utf8")));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on("error", () => undefined);
    socket.write(bytes, () => {
      if (closeAfterWrite) socket.destroy();
    });
  });
}

describe("stand-in: bad input gets the spec's error shape, and it keeps serving", () => {
  it("survives a request cut off mid-body and bytes that are not HTTP", async () => {
    await rawSocket(
      'POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nX-API-Key: sandbox-key\r\nContent-Length: 100\r\n\r\n{"div',
      true,
    );
    const garbage = await rawSocket("NOT HTTP AT ALL\r\n\r\n", false);
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    await expect(client().transactions.list()).resolves.toBeDefined();
  });

  it("invalid JSON, a huge body, an unknown path, a wrong method", async () => {
    const invalid = await raw("POST", "/v1/webhooks", { body: "{not json" });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toEqual({
      errors: [{ message: "body: is not valid JSON" }],
      result: { success: false },
    });
    const huge = await raw("POST", "/v1/webhooks", { body: "x".repeat(3 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.json.result).toEqual({ success: false });
    const unknown = await raw("GET", "/v1/nothing/here");
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ errors: [{}], result: { success: false } });
    const v3 = await raw("GET", "/v3/nothing");
    expect(v3.json).toMatchObject({ ".tag": "not_found" });
    const method = await raw("PATCH", "/v1/webhooks");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("POST");
    const encoded = await raw("GET", "/v1/merchant/transactions/%E0%A4%A");
    expect(encoded.status).toBe(404);
    await expect(client().transactions.list()).resolves.toBeDefined();
  });
});
