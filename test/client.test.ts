/**
 * The generated Merchant client against a real HTTP server on 127.0.0.1: requests on the
 * wire, error parsing, retries, timeouts, aborts, idempotency, nonce, local rules, and no
 * secret in any error or log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionError,
  ErrorCode,
  MerchantApiError,
  MerchantClient,
  MissingCredentialError,
  RequestValidationError,
  ResponseParseError,
  TimeoutError,
  UserAbortError,
  errorCodeMeanings,
  type MerchantClientOptions,
} from "../generated/src/index.ts";
import { TestServer } from "./support/test-server.ts";

const secrets = {
  apiKey: "sk_test_api_key_0123456789",
  publishableKey: "pk_test_publishable_0123",
  accessToken: "at_test_access_token_0123",
};

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

function client(options: Partial<MerchantClientOptions> = {}): MerchantClient {
  return new MerchantClient({
    baseUrl: server.url,
    ...secrets,
    maxRetries: 0,
    timeoutMs: 5000,
    ...options,
  });
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

/** Every way an error could be shown to a person or a log. */
function shown(error: Error): string {
  return [String(error), error.message, error.stack ?? "", JSON.stringify(error)].join("\n");
}

const cart = {
  total_amount: 1200,
  currency: "USD",
  items: [{ name: "Mug", quantity: 1, unit_price: 1200 }],
};

describe("requests on the wire", () => {
  const cases: {
    name: string;
    call: (c: MerchantClient) => Promise<unknown>;
    method: string;
    url: string;
    headers: Record<string, string>;
    absent?: string[];
    body?: unknown;
  }[] = [
    {
      name: "transactions.authorize",
      call: (c) =>
        c.transactions.authorize({
          cart,
          division_id: "div_1",
          merchant_event_id: "0b6f1d7e-3c1a-4c0e-9a51-2f3c9d8e7a10",
          previous_transaction_id: null,
        }),
      method: "POST",
      url: "/v1/merchant/transactions/authorize",
      headers: {
        authorization: `Bearer ${secrets.accessToken}`,
        "x-api-key": secrets.apiKey,
        "content-type": "application/json",
      },
      absent: ["x-publishable-key"],
      body: {
        cart,
        division_id: "div_1",
        merchant_event_id: "0b6f1d7e-3c1a-4c0e-9a51-2f3c9d8e7a10",
        previous_transaction_id: null,
      },
    },
    {
      name: "transactions.list",
      call: (c) => c.transactions.list(),
      method: "GET",
      url: "/v1/merchant/transactions",
      headers: { "x-api-key": secrets.apiKey, "content-type": "application/json" },
      absent: ["authorization", "x-publishable-key"],
    },
    {
      name: "transactions.get",
      call: (c) => c.transactions.get("AB/D-EFGH-IJKL"),
      method: "GET",
      url: "/v1/merchant/transactions/AB%2FD-EFGH-IJKL",
      headers: { "x-api-key": secrets.apiKey },
      absent: ["authorization", "x-publishable-key"],
    },
    {
      name: "orders.create",
      call: (c) => c.orders.create({ cart: { total_amount: 5 } }),
      method: "POST",
      url: "/v1/merchant/orders",
      headers: { "x-api-key": secrets.apiKey, "content-type": "application/json" },
      body: { cart: { total_amount: 5 } },
    },
    {
      name: "testing.trackMockShipment",
      call: (c) =>
        c.testing.trackMockShipment({
          tracking_number: "MockService42",
          status: "in_transit",
          tracking_detail: [],
        }),
      method: "POST",
      url: "/v1/shipments/mock_service_shipping",
      headers: { "x-api-key": secrets.apiKey, "content-type": "application/json" },
      body: { tracking_number: "MockService42", status: "in_transit", tracking_detail: [] },
    },
    {
      name: "subscriptions.cancel",
      call: (c) => c.subscriptions.cancel("sub 1"),
      method: "POST",
      url: "/v1/subscriptions/sub%201/cancel",
      headers: { "x-api-key": secrets.apiKey, "x-publishable-key": secrets.publishableKey },
      absent: ["authorization", "content-type"],
    },
    {
      name: "webhooks.create",
      call: (c) =>
        c.webhooks.create({ division_id: "div_1", url: "https://merchant.example/hooks" }),
      method: "POST",
      url: "/v1/webhooks",
      headers: { "x-api-key": secrets.apiKey, "content-type": "application/json" },
      body: { division_id: "div_1", url: "https://merchant.example/hooks" },
    },
    {
      name: "webhooks.delete",
      call: (c) => c.webhooks.delete("wh_123"),
      method: "DELETE",
      url: "/v1/webhooks/wh_123",
      headers: { "x-api-key": secrets.apiKey },
    },
    {
      name: "testing.getRandomPhone",
      call: (c) => c.testing.getRandomPhone(),
      method: "GET",
      url: "/v3/testing/accounts/phones",
      headers: { "x-api-key": secrets.apiKey, "x-publishable-key": secrets.publishableKey },
    },
  ];

  it.each(cases)(
    "$name sends its method, path, credentials and body",
    async ({ call, method, url, headers, absent = [], body }) => {
      server.json(200, { ok: true });
      await expect(call(client())).resolves.toEqual({ ok: true });
      expect(server.requests).toHaveLength(1);
      const request = server.requests[0]!;
      expect(request.method).toBe(method);
      expect(request.url).toBe(url);
      expect(request.headers).toMatchObject(headers);
      for (const name of absent) expect(request.headers[name]).toBeUndefined();
      if (body === undefined) expect(request.body).toBe("");
      else expect(JSON.parse(request.body)).toEqual(body);
    },
  );

  it("covers every endpoint of the spec", () => {
    expect(cases.map((c) => c.name).sort()).toEqual([
      "orders.create",
      "subscriptions.cancel",
      "testing.getRandomPhone",
      "testing.trackMockShipment",
      "transactions.authorize",
      "transactions.get",
      "transactions.list",
      "webhooks.create",
      "webhooks.delete",
    ]);
  });

  it("takes the access token from an async function, once per call that sends it, and adds the caller's headers", async () => {
    server.json(200, {});
    let calls = 0;
    const c = client({
      accessToken: async () => `fresh-token-${++calls}`,
      headers: { "X-Trace": "t1" },
      maxRetries: 0,
    });
    await c.transactions.authorize({ cart }, { headers: { "X-Call": "c1" } });
    expect(server.requests[0]!.headers).toMatchObject({
      authorization: "Bearer fresh-token-1",
      "x-trace": "t1",
      "x-call": "c1",
    });
    await c.transactions.list();
    await c.transactions.authorize({ cart });
    expect(calls).toBe(2);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer fresh-token-2");
  });

  it("joins a base URL with a path prefix and a trailing slash", async () => {
    server.json(200, {});
    await new MerchantClient({ baseUrl: `${server.url}/api/`, apiKey: "k" }).transactions.list();
    expect(server.requests[0]!.url).toBe("/api/v1/merchant/transactions");
  });
});

describe("local checks before anything is sent", () => {
  it("a missing credential is a clear error and sends nothing", async () => {
    server.json(200, {});
    const error = await rejection(
      new MerchantClient({ baseUrl: server.url, apiKey: "k" }).subscriptions.cancel("s1"),
    );
    expect(error).toBeInstanceOf(MissingCredentialError);
    expect(error.message).toBe(
      "subscriptions.cancel needs the publishableKey option (sent as X-Publishable-Key), and the client has none",
    );
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [
      "tracking_number without MockService",
      (c: MerchantClient) => c.testing.trackMockShipment({ tracking_number: "UPS1" }),
      "body.tracking_number",
      'must begin with "MockService"',
    ],
    [
      "merchant_event_id not a UUID",
      (c: MerchantClient) => c.transactions.authorize({ merchant_event_id: "evt-1" }),
      "body.merchant_event_id",
      "must be in uuid format",
    ],
    [
      "estimated_delivery_date not MM-DD-YYYY",
      (c: MerchantClient) =>
        c.transactions.authorize({
          cart: { shipments: [{ estimated_delivery_date: "2026-12-01" }] },
        }),
      "body.cart.shipments[0].estimated_delivery_date",
      "must be in MM-DD-YYYY format",
    ],
    [
      "expiration not YYYY-MM",
      (c: MerchantClient) => c.transactions.authorize({ credit_card: { expiration: "12/27" } }),
      "body.credit_card.expiration",
      "must be in YYYY-MM format",
    ],
    [
      "a reference not in three groups of four",
      (c: MerchantClient) => c.transactions.get("ABCD-EFGH"),
      "params.reference",
      "must match ^[^-]{4}-[^-]{4}-[^-]{4}$",
    ],
    [
      "a webhook id without wh_",
      (c: MerchantClient) => c.webhooks.delete("123"),
      "params.webhook_id",
      'must begin with "wh_"',
    ],
    [
      "a wrong type from untyped callers",
      (c: MerchantClient) => c.webhooks.create({ division_id: 7 } as never),
      "body.division_id",
      "must be a string, not number 7",
    ],
  ])("%s is a RequestValidationError naming the field", async (_name, call, field, message) => {
    server.json(200, {});
    const error = await rejection(call(client()));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe(field);
    expect(error.message).toContain(`${field} ${message}`);
    expect(server.requests).toHaveLength(0);
  });
});

describe("error responses", () => {
  it.each([
    [401, 1015, "authentication"],
    [403, 1005, "permission"],
    [403, 18, "permission"],
    [422, 2001005, "validation"],
  ])("%i with code %i parses into a MerchantApiError", async (status, code, kind) => {
    server.json(
      status,
      {
        errors: [
          { code, message: "nope" },
          { code: 2001005, message: "second" },
        ],
        result: { success: false },
      },
      { "x-request-id": "r1" },
    );
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(error).toBeInstanceOf(MerchantApiError);
    expect(error.name).toBe("MerchantApiError");
    expect({
      status: error.status,
      code: error.code,
      kind: error.kind,
      message: error.message,
      endpointId: error.endpointId,
    }).toEqual({
      status,
      code,
      kind,
      message: `transactions.list failed with ${status} code ${code}: nope`,
      endpointId: "transactions.list",
    });
    expect(error.errors.map((e) => e.code)).toEqual([code, 2001005]);
    expect(error.body).toEqual({
      errors: [
        { code, message: "nope" },
        { code: 2001005, message: "second" },
      ],
      result: { success: false },
    });
    expect(error.headers.get("x-request-id")).toBe("r1");
  });

  it("shows its fields in JSON, but neither its headers nor a cause", async () => {
    server.json(429, { errors: [{ code: 7, message: "slow down" }] }, { "x-request-id": "r1" });
    const error = await rejection(client().transactions.list());
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "MerchantApiError",
      message: "transactions.list failed with 429 code 7: slow down",
      endpointId: "transactions.list",
      status: 429,
      kind: "rate_limit",
      code: 7,
      serverMessage: "slow down",
      requestId: "r1",
      errors: [{ code: 7, message: "slow down" }],
      body: { errors: [{ code: 7, message: "slow down" }] },
    });
    server.respond(() => {});
    const timeout = await rejection(client({ timeoutMs: 50 }).transactions.list());
    expect(JSON.parse(JSON.stringify(timeout))).toEqual({
      name: "TimeoutError",
      message: "transactions.list timed out after 50 ms",
      endpointId: "transactions.list",
      timeoutMs: 50,
    });
    const controller = new AbortController();
    controller.abort(new Error("request details"));
    const abort = await rejection(client().transactions.list({ signal: controller.signal }));
    expect(JSON.stringify(abort)).not.toContain("request details");
  });

  it("reads the .tag of a v3 body", async () => {
    server.json(400, { ".tag": "unprocessable_request", message: "bad phone request" });
    const error = (await rejection(client().testing.getRandomPhone())) as MerchantApiError;
    expect({
      status: error.status,
      tag: error.tag,
      code: error.code,
      message: error.message,
    }).toEqual({
      status: 400,
      tag: "unprocessable_request",
      code: undefined,
      message: "testing.getRandomPhone failed with 400 unprocessable_request: bad phone request",
    });
  });

  it("still gives a MerchantApiError with the text of an HTML 503 page", async () => {
    server.respond((_req, res) => {
      res.writeHead(503, { "content-type": "text/html" });
      res.end("<html><body><h1>503 Service Unavailable</h1></body></html>");
    });
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(error).toBeInstanceOf(MerchantApiError);
    expect(error.status).toBe(503);
    expect(error.kind).toBe("server");
    expect(error.message).toBe("transactions.list failed with 503: 503 Service Unavailable");
    expect(error.body).toBe("<html><body><h1>503 Service Unavailable</h1></body></html>");
  });

  it("exports the known codes with their meanings", () => {
    expect(ErrorCode).toMatchObject({
      apiKeyRejected: 1005,
      publishableKeyProblem: 1012,
      apiKeyMissing: 1015,
      subscriptionAuthFailed: 63,
      permissionDenied: 18,
      signatureInvalid: 27,
      code2001005: 2001005,
    });
    expect(errorCodeMeanings[1005]).toMatch(/API key rejected/);
  });

  it("rejects a malformed JSON body on 200, and an empty one where the spec shows a body", async () => {
    server.respond((_req, res) => res.end("{not json"));
    expect(await rejection(client().transactions.list())).toBeInstanceOf(ResponseParseError);
    server.respond((_req, res) => res.end(""));
    const error = await rejection(client().transactions.get("ABCD-EFGH-IJKL"));
    expect(error).toBeInstanceOf(ResponseParseError);
    expect(error.message).toBe("transactions.get answered 200 with an empty body");
  });

  it("returns undefined for an empty body where the spec shows none", async () => {
    server.respond((_req, res) => res.end(""));
    await expect(client().webhooks.delete("wh_1")).resolves.toBeUndefined();
  });
});

describe("retries", () => {
  const busy =
    (retryAfter?: string) => (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(429, {
        "content-type": "application/json",
        ...(retryAfter !== undefined ? { "retry-after": retryAfter } : {}),
      });
      res.end(JSON.stringify({ errors: [{ code: 1, message: "slow down" }] }));
    };
  const ok = (_req: unknown, res: import("node:http").ServerResponse) =>
    res.end(JSON.stringify({ transactions: [] }));

  /**
   * The time a call took whose first answer is 429 with `retryAfter`, and the wait the client
   * chose (its log line "retrying in N ms"). Only lower bounds are asserted on the time: a
   * loaded machine makes a call slower, never faster, so the chosen wait carries the upper ones.
   * Each call has a server of its own, so that the waits (up to 2 s) run side by side.
   */
  async function timedRetry(retryAfter: string): Promise<{ elapsed: number; wait: number }> {
    const own = await TestServer.start();
    try {
      own.sequence(busy(retryAfter), ok);
      const logs: string[] = [];
      const started = performance.now();
      const options = {
        baseUrl: own.url,
        maxRetries: 1,
        logger: { debug: (m: string) => logs.push(m) },
      };
      await expect(client(options).transactions.list()).resolves.toEqual({ transactions: [] });
      const elapsed = performance.now() - started;
      expect(own.requests).toHaveLength(2);
      const waits = logs.flatMap((line) => /retrying in (\d+) ms$/.exec(line)?.[1] ?? []);
      expect(waits).toHaveLength(1);
      return { elapsed, wait: Number(waits[0]) };
    } finally {
      await own.stop();
    }
  }

  // the waits the server asks for, side by side: about 3.5 s one after the other
  describe.concurrent("Retry-After", () => {
    it("honours Retry-After in seconds", async () => {
      const { elapsed, wait } = await timedRetry("1");
      expect(wait).toBe(1000);
      expect(elapsed).toBeGreaterThanOrEqual(950);
    });

    it("honours Retry-After as an HTTP date", async () => {
      // the date has whole seconds: 1 to 2 s from now
      const { elapsed, wait } = await timedRetry(new Date(Date.now() + 2000).toUTCString());
      expect(wait).toBeGreaterThanOrEqual(900);
      expect(wait).toBeLessThanOrEqual(2000);
      expect(elapsed).toBeGreaterThanOrEqual(900);
    });

    it("retries at once on Retry-After: 0", async () => {
      expect((await timedRetry("0")).wait).toBe(0);
    });

    it.each(["120", "soon"])(
      "falls back to back-off (0.25 to 0.5 s) on Retry-After %s",
      async (value) => {
        const { elapsed, wait } = await timedRetry(value);
        expect(wait).toBeGreaterThanOrEqual(250);
        expect(wait).toBeLessThanOrEqual(500);
        expect(elapsed).toBeGreaterThanOrEqual(240);
      },
    );
  });

  it("gives up after maxRetries and throws the last error", async () => {
    server.respond(busy("0"));
    const error = (await rejection(
      client({ maxRetries: 2 }).transactions.list(),
    )) as MerchantApiError;
    expect(error.status).toBe(429);
    expect(server.requests).toHaveLength(3);
  });

  it("retries a 503 of a GET, but not of a POST without an idempotency key", async () => {
    server.sequence((_r, res) => res.writeHead(503).end("busy"), ok);
    await expect(client({ maxRetries: 2 }).transactions.list()).resolves.toEqual({
      transactions: [],
    });
    server.respond((_r, res) => res.writeHead(503).end("busy"));
    expect(
      ((await rejection(client({ maxRetries: 2 }).orders.create({}))) as MerchantApiError).status,
    ).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("sends the same idempotency key on every attempt, and a fresh nonce", async () => {
    server.sequence(
      (_r, res) => res.writeHead(503, { "retry-after": "0" }).end(),
      (_r, res) => res.writeHead(502, { "retry-after": "0" }).end(),
      ok,
    );
    await client({ maxRetries: 2 }).orders.create(
      { cart: {} },
      { idempotencyKey: "idem-1", nonce: true },
    );
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual([
      "idem-1",
      "idem-1",
      "idem-1",
    ]);
    const nonces = server.requests.map((r) => r.headers["x-nonce"]);
    expect(new Set(nonces).size).toBe(3);
    nonces.forEach((n) => expect(n).toMatch(/^[0-9a-f-]{36}$/));
  });

  it("uses the configured idempotency and nonce header names", async () => {
    server.json(200, {});
    await client({
      idempotencyHeader: "X-Idempotency-Key",
      nonceHeader: "X-Request-Nonce",
    }).orders.create({}, { idempotencyKey: "k2", nonce: () => "n-1" });
    expect(server.requests[0]!.headers).toMatchObject({
      "x-idempotency-key": "k2",
      "x-request-nonce": "n-1",
    });
  });

  it("a connection reset is a ConnectionError, retried for a GET", async () => {
    server.sequence((_r, _res, socket) => socket.destroy(), ok);
    await expect(client({ maxRetries: 1 }).transactions.list()).resolves.toEqual({
      transactions: [],
    });
    server.respond((_r, _res, socket) => socket.destroy());
    const error = await rejection(client({ maxRetries: 1 }).transactions.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(2);
  });

  it("retries a POST whose connection was refused (it never reached a server)", async () => {
    const closed = await TestServer.start();
    const url = closed.url;
    await closed.stop();
    const logs: string[] = [];
    const error = await rejection(
      new MerchantClient({
        baseUrl: url,
        ...secrets,
        maxRetries: 1,
        logger: { debug: (m) => logs.push(m) },
      }).orders.create({}),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(logs.filter((l) => l.includes("attempt"))).toHaveLength(2);
  });
});

describe("timeouts and aborts", () => {
  it("a response that never ends is a TimeoutError", async () => {
    server.respond((_r, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"transactions": [');
    });
    const started = performance.now();
    const error = await rejection(client({ timeoutMs: 300 }).transactions.list());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("transactions.list timed out after 300 ms");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("an abort before sending sends nothing", async () => {
    server.json(200, {});
    const controller = new AbortController();
    controller.abort();
    expect(
      await rejection(client().transactions.list({ signal: controller.signal })),
    ).toBeInstanceOf(UserAbortError);
    expect(server.requests).toHaveLength(0);
  });

  it("an abort during back-off stops at once", async () => {
    server.respond((_r, res) => res.writeHead(503, { "retry-after": "30" }).end());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = performance.now();
    const error = await rejection(
      client({ maxRetries: 3 }).transactions.list({ signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(UserAbortError);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });

  it("an abort while waiting for the response is a UserAbortError, not a timeout", async () => {
    server.respond(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(
      await rejection(client({ timeoutMs: 5000 }).transactions.list({ signal: controller.signal })),
    ).toBeInstanceOf(UserAbortError);
  });
});

describe("secrets", () => {
  it("never appear in an error or a log line, even when the server echoes them", async () => {
    const logs: string[] = [];
    const echo = (
      req: { headers: Record<string, unknown> },
      res: import("node:http").ServerResponse,
    ) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          errors: [
            {
              code: 1005,
              message: `key ${String(req.headers["x-api-key"])} rejected; token ${String(req.headers.authorization)}`,
            },
          ],
        }),
      );
    };
    server.respond(echo);
    const c = client({ logger: { debug: (m) => logs.push(m) }, maxRetries: 1 });
    const errors: Error[] = [
      await rejection(c.transactions.authorize({ cart })),
      await rejection(c.transactions.authorize({ merchant_event_id: "bad" })),
      await rejection(
        new MerchantClient({
          baseUrl: server.url,
          apiKey: secrets.apiKey,
        }).testing.getRandomPhone(),
      ),
    ];
    server.respond((_r, res) =>
      res
        .writeHead(500, { "content-type": "text/plain" })
        .end(`internal: ${secrets.publishableKey}`),
    );
    errors.push(await rejection(c.subscriptions.cancel("s")));
    server.respond(() => {});
    errors.push(await rejection(c.transactions.list({ timeoutMs: 100 })));
    expect(errors.map((e) => e.name)).toEqual([
      "MerchantApiError",
      "RequestValidationError",
      "MissingCredentialError",
      "MerchantApiError",
      "TimeoutError",
    ]);
    const everything = [...errors.map(shown), ...logs].join("\n");
    expect(everything).toContain("[redacted]");
    for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret);
    expect(logs.length).toBeGreaterThan(3);
  });
});
