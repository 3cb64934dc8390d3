/**
 * A mock server that Stoplight Prism builds from the generated document (`prism mock`, on
 * 127.0.0.1, started and stopped here) answers the generated client for every outbound
 * endpoint without a request-validation error: the client and the document agree on
 * paths, parameters, headers, credentials and bodies. Raw requests check first that Prism
 * serves each operation and that its validation is live (a wrong request is refused).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantClient } from "../generated/src/index.ts";
import { generateInto, removeFolders, type Generated } from "./support/openapi.ts";
import { PrismMock, requestViolations, type Violation } from "./support/prism.ts";

const credentials = {
  apiKey: "sk_test_0123456789",
  publishableKey: "pk_test_0123456789",
  accessToken: "at_test_0123456789",
};

let generated: Generated;
let prism: PrismMock;

beforeAll(async () => {
  generated = await generateInto("spec");
  prism = await PrismMock.start(join(generated.dir, "openapi.yaml"));
}, 90_000);

afterAll(async () => {
  await prism?.stop();
  if (generated) removeFolders([generated.dir]);
});

/** Bodies that satisfy the spec's rules: a reference of three groups of four, a tracking number starting MockService. */
const bodies = {
  authorize: {
    division_id: "div_1",
    source: "direct_payments",
    auto_capture: true,
    merchant_event_id: "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b",
    previous_transaction_id: null,
    credit_card: {
      bin: "411111",
      last4: "1111",
      expiration: "2030-12",
      token: "tok_1",
      token_type: "vantiv",
      save: false,
    },
    cart: {
      order_reference: "order_1",
      currency: "USD",
      total_amount: 1250,
      tax_amount: 0,
      metadata: { channel: "web" },
      items: [
        {
          name: "Mug",
          reference: "sku_1",
          quantity: 1,
          unit_price: 1250,
          total_amount: 1250,
          collections: ["kitchen"],
        },
      ],
      shipments: [
        {
          carrier: "ups",
          cost: 0,
          estimated_delivery_date: "12-24-2030",
          expedited: false,
          total_weight: 1.5,
        },
      ],
    },
    user_identifier: { email: "shopper@example.com", phone: "+15555550100", artifact: null },
    user_identity: { first_name: "Ada", last_name: "Lovelace" },
  },
  order: { cart: { order_reference: "order_2", currency: "USD", total_amount: 500 } },
  shipment: {
    tracking_number: "MockService-0001",
    status: "in_transit" as const,
    delivery_estimate: "tomorrow",
    tracking_detail: [
      {
        city: "Springfield",
        datetime: "2030-01-02T03:04:05Z",
        message: "Departed",
        status: "in_transit",
      },
    ],
  },
  webhook: { division_id: "div_1", url: "https://merchant.invalid/hooks" },
};

interface RawCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

const key = { "X-API-Key": credentials.apiKey };
const both = { ...key, "X-Publishable-Key": credentials.publishableKey };
const json = { "Content-Type": "application/json" };

/** One raw request per operation of the document, keyed by operationId. */
const raw: Record<string, RawCall> = {
  "transactions.authorize": {
    method: "POST",
    path: "/v1/merchant/transactions/authorize",
    headers: { ...key, ...json, Authorization: `Bearer ${credentials.accessToken}` },
    body: bodies.authorize,
  },
  "transactions.list": { method: "GET", path: "/v1/merchant/transactions", headers: key },
  "transactions.get": {
    method: "GET",
    path: "/v1/merchant/transactions/ABCD-EFGH-IJKL",
    headers: key,
  },
  "orders.create": {
    method: "POST",
    path: "/v1/merchant/orders",
    headers: { ...key, ...json },
    body: bodies.order,
  },
  "testing.trackMockShipment": {
    method: "POST",
    path: "/v1/shipments/mock_service_shipping",
    headers: { ...key, ...json },
    body: bodies.shipment,
  },
  "subscriptions.cancel": { method: "POST", path: "/v1/subscriptions/sub_1/cancel", headers: both },
  "webhooks.create": {
    method: "POST",
    path: "/v1/webhooks",
    headers: { ...key, ...json },
    body: bodies.webhook,
  },
  "webhooks.delete": { method: "DELETE", path: "/v1/webhooks/wh_1", headers: key },
  "testing.getRandomPhone": { method: "GET", path: "/v3/testing/accounts/phones", headers: both },
};

async function send(call: RawCall): Promise<{ status: number; violations: Violation[] }> {
  const response = await fetch(prism.url + call.path, {
    method: call.method,
    headers: call.headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return { status: response.status, violations: requestViolations(response.headers) };
}

function operationIds(): string[] {
  return Object.values(
    generated.document.paths as Record<string, Record<string, { operationId: string }>>,
  ).flatMap((item) => Object.values(item).map((op) => op.operationId));
}

describe("prism mock of the Merchant document (raw requests)", () => {
  it("has a raw request for every operation of the document", () => {
    expect(Object.keys(raw).sort()).toEqual(operationIds().sort());
  });

  it.each(Object.keys(raw))("serves %s with a success and no request violation", async (id) => {
    const result = await send(raw[id]!);
    expect(result.violations).toEqual([]);
    expect(result.status).toBeGreaterThanOrEqual(200);
    expect(result.status).toBeLessThan(300);
  });

  it("refuses what the document forbids: a missing credential, a bad path parameter, a bad body", async () => {
    const noBearer = { ...raw["transactions.authorize"]!, headers: { ...key, ...json } };
    expect((await send(noBearer)).status).toBe(401);
    const noPublishable = { ...raw["subscriptions.cancel"]!, headers: key };
    expect((await send(noPublishable)).status).toBe(401);
    const badReference = await send({
      ...raw["transactions.get"]!,
      path: "/v1/merchant/transactions/not-a-reference",
    });
    expect(badReference.status).toBe(422);
    expect(badReference.violations.map((v) => v.location.join("."))).toContain(
      "request.path.reference",
    );
    const badTracking = await send({
      ...raw["testing.trackMockShipment"]!,
      body: { ...bodies.shipment, tracking_number: "UPS-1" },
    });
    expect(badTracking.status).toBe(422);
    expect(badTracking.violations.map((v) => v.location.join("."))).toContain(
      "request.body.tracking_number",
    );
  });
});

describe("prism mock of the Merchant document answers the generated client", () => {
  const seen: { url: string; status: number; violations: Violation[] }[] = [];
  const client = () =>
    new MerchantClient({
      baseUrl: prism.url,
      ...credentials,
      maxRetries: 0,
      timeoutMs: 10_000,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        seen.push({
          url: String(input),
          status: response.status,
          violations: requestViolations(response.headers),
        });
        return response;
      },
    });

  /** One call per endpoint, through the client's own methods. */
  const calls: Record<string, (c: MerchantClient) => Promise<unknown>> = {
    "transactions.authorize": (c) => c.transactions.authorize(bodies.authorize),
    "transactions.list": (c) => c.transactions.list(),
    "transactions.get": (c) => c.transactions.get("ABCD-EFGH-IJKL"),
    "orders.create": (c) => c.orders.create(bodies.order, { nonce: true }),
    "testing.trackMockShipment": (c) => c.testing.trackMockShipment(bodies.shipment),
    "subscriptions.cancel": (c) => c.subscriptions.cancel("sub_1"),
    "webhooks.create": (c) => c.webhooks.create(bodies.webhook),
    "webhooks.delete": (c) => c.webhooks.delete("wh_1"),
    "testing.getRandomPhone": (c) => c.testing.getRandomPhone(),
  };

  it("calls every outbound endpoint of the model", () => {
    expect(Object.keys(calls).sort()).toEqual(
      generated.result.model.endpoints.map((e) => e.id).sort(),
    );
  });

  it.each(Object.keys(calls))(
    "%s: Prism finds no request violation, answers 2xx, and the call resolves",
    async (id) => {
      seen.length = 0;
      await calls[id]!(client());
      expect(seen).toHaveLength(1);
      expect(seen[0]!.violations).toEqual([]);
      expect(seen[0]!.status).toBeGreaterThanOrEqual(200);
      expect(seen[0]!.status).toBeLessThan(300);
    },
  );
});
