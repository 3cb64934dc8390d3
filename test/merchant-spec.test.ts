/**
 * The Merchant Commerce API is modelled completely: every field the seed names is in the
 * generated types under its exact spelling, every endpoint and callback is there, and the
 * seed's "not shown" facts are recorded as gaps rather than filled in.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PipelineResult } from "../generator/pipeline.ts";
import { generateFrom } from "./helpers.ts";
import { readSeedFields } from "./support/seed-fields.ts";

describe("the Merchant Commerce API model", () => {
  let result: PipelineResult;
  let types: string;
  beforeAll(async () => {
    result = await generateFrom("spec");
    types = result.files.find((f) => f.path === "src/types.ts")!.contents;
  });

  it("names every seed field in the generated types under its exact spelling", () => {
    const properties = new Set([...types.matchAll(/^\s*"?([^"\s?:]+)"?\??: /gm)].map((m) => m[1]!));
    // The seed's names, kept in the repository (test/fixtures/seed/field-names.json).
    const { fields } = readSeedFields();
    expect(fields.length).toBeGreaterThan(300);
    expect(fields.filter((f) => !properties.has(f))).toEqual([]);
  });

  it("has the nine endpoints with their methods, paths and credentials", () => {
    expect(
      result.model.endpoints.map((e) => `${e.id} ${e.method} ${e.path} [${e.auth.join(",")}]`),
    ).toEqual([
      "transactions.authorize POST /v1/merchant/transactions/authorize [accessToken,apiKey]",
      "transactions.list GET /v1/merchant/transactions [apiKey]",
      "transactions.get GET /v1/merchant/transactions/{reference} [apiKey]",
      "orders.create POST /v1/merchant/orders [apiKey]",
      "testing.trackMockShipment POST /v1/shipments/mock_service_shipping [apiKey]",
      "subscriptions.cancel POST /v1/subscriptions/{subscription_id}/cancel [apiKey,publishableKey]",
      "webhooks.create POST /v1/webhooks [apiKey]",
      "webhooks.delete DELETE /v1/webhooks/{webhook_id} [apiKey]",
      "testing.getRandomPhone GET /v3/testing/accounts/phones [apiKey,publishableKey]",
    ]);
  });

  it("has the four callbacks with success and failure bodies", () => {
    expect(
      result.model.callbacks.map(
        (c) => `${c.event} ${c.method} ${c.path} ${c.success ? "S" : "-"}${c.failure ? "F" : "-"}`,
      ),
    ).toEqual([
      "product.info GET /product_get SF",
      "order.shipping POST /order_shipping SF",
      "cart.update POST /cart_update SF",
      "account.login GET /oauth/login SF",
    ]);
    const login = result.model.callbacks.find((c) => c.event === "account.login")!;
    expect(login.params.map((p) => `${p.name}:${p.placement}`)).toEqual([
      "code:trailing",
      "state:trailing",
      "scope:trailing",
      "reference:trailing",
    ]);
  });

  it("resolves the error responses of each endpoint from the rules of its path and version", () => {
    const errors = (id: string) =>
      result.model.endpoints
        .find((e) => e.id === id)!
        .errors.map(
          (e) =>
            `${e.status ?? "any"}${e.code !== undefined ? `/${e.code}` : ""}${e.tag ? `#${e.tag}` : ""}`,
        );
    expect(errors("transactions.list")).toEqual([
      "401/1015",
      "403/18",
      "403/1005",
      "404",
      "422",
      "429",
      "5xx",
      "any/2001005",
    ]);
    expect(errors("subscriptions.cancel")).toEqual([
      "401/63",
      "403/18",
      "404",
      "422",
      "429",
      "5xx",
      "any/2001005",
    ]);
    expect(errors("testing.getRandomPhone")).toEqual([
      "400",
      "401",
      "403/18",
      "404",
      "429",
      "5xx",
      "any#unprocessable_request",
      "any/2001005",
    ]);
    expect(result.model.errors.codes.map((c) => c.code)).toEqual([
      18, 27, 63, 1005, 1012, 1015, 2001005,
    ]);
  });

  it("types the tricky shapes exactly", () => {
    expect(types).toMatch(/adjust_transactions\?: Transaction\[\];/);
    expect(types).toMatch(/refund_transactions\?: Transaction\[\];/);
    expect(types).toMatch(/previous_transaction_id\?: string \| null;/);
    expect(types).toMatch(
      /export type MockShipmentStatus = "in_transit" \| "cancelled" \| "failure" \| "delivered";/,
    );
    expect(types).toMatch(/export interface TransactionAddress \{[^}]*door_code\?: string;/);
    expect(types).toMatch(/export interface Address \{[^}]*phone\?: string;/);
    expect(types).toMatch(/export interface Money \{\s*amount\?: number;/);
    expect(types).toMatch(
      /export interface Transaction \{\n(  .*\n)*  \[field: string\]: unknown;\n/,
    );
    expect(types).toMatch(
      /export interface PickupOption \{[\s\S]*?address\?: \{\n\s+street_address1\?: string;[^}]*country\?: string;\n\s+\};/,
    );
    expect(types).not.toMatch(/export interface PickupOption \{[^}]*email/);
    expect(types).toMatch(
      /export interface CartUpdateItem extends CallbackCartItem \{\n(  .*\n)*  shipment_type\?: string;/,
    );
    const cartUpdateItem = result.model.types.find((t) => t.name === "CartUpdateItem")!.type;
    expect(cartUpdateItem.kind === "object" && cartUpdateItem.fields.map((f) => f.name)).toContain(
      "service_product_id",
    );
    expect(types).toMatch(/export interface AccountLoginParams \{[^}]*scope: "openid";/);
  });

  it("records the seed's gaps instead of filling them in", () => {
    const texts = result.model.gaps.map((g) => g.text).join("\n");
    expect(result.model.gaps.length).toBeGreaterThanOrEqual(28);
    for (const phrase of [
      /Response body not shown/,
      /Query parameters not shown/,
      /Separator syntax/,
      /How the access token is obtained not shown/,
      /Payload shape of webhook deliveries not shown/,
      /Numeric rate limits not shown/,
      /Deprecation policy/,
      /idempotency|Idempotency/,
    ]) {
      expect(texts).toMatch(phrase);
    }
    const gapLines = types.split("\n").filter((l) => l.includes("@undocumented")).length;
    expect(gapLines).toBeGreaterThan(10);
  });
});
