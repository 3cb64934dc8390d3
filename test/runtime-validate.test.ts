/**
 * The validation runtime and the validators generated from the Merchant spec: every rule
 * comes from a constraint of the model.
 */
import { describe, expect, it } from "vitest";
import {
  array,
  formats,
  map,
  nullable,
  number,
  object,
  oneOf,
  string,
  validate,
} from "../generator/runtime/validate.ts";
import * as validators from "../generated/src/validators.ts";

describe("validation runtime", () => {
  it("names the field of every problem and lets unknown fields pass", () => {
    const check = object({
      id: [string({ prefix: "wh_" }), true],
      n: [number({ integer: true, minimum: 1 }), false],
    });
    expect(validate(check, { id: "x", n: 1.5, extra: true }, "body")).toEqual([
      { path: "body.id", message: 'must begin with "wh_"' },
      { path: "body.n", message: "must be an integer" },
    ]);
    expect(validate(check, {}, "body")).toEqual([{ path: "body.id", message: "is required" }]);
    expect(validate(check, [], "body")).toEqual([
      { path: "body", message: "must be an object, not an array" },
    ]);
  });

  it("checks arrays, maps, nullables and enums", () => {
    expect(validate(array(string({ minLength: 2 })), ["ab", "c"], "tags")).toEqual([
      { path: "tags[1]", message: "must be at least 2 characters long" },
    ]);
    expect(validate(map(number()), { a: 1, "b-c": "x" }, "m")).toEqual([
      { path: 'm["b-c"]', message: "must be a number, not a string" },
    ]);
    expect(validate(nullable(string()), null, "v")).toEqual([]);
    expect(validate(oneOf(["a", "b"], false), "c", "e")).toEqual([
      { path: "e", message: 'must be one of "a", "b"' },
    ]);
    expect(validate(oneOf(["a"], true), "z", "e")).toEqual([]);
  });

  it.each([
    ["uuid", "0b6f1d7e-3c1a-4c0e-9a51-2f3c9d8e7a10", "0b6f1d7e3c1a4c0e9a512f3c9d8e7a10"],
    ["MM-DD-YYYY", "12-31-2026", "2026-12-31"],
    ["YYYY-MM", "2027-09", "2027-13"],
    ["date-time", "2026-11-21T10:00:00Z", "21/11/2026"],
    ["uri", "https://merchant.example/hooks", "not a url"],
  ])("format %s accepts %s and rejects %s", (format, good, bad) => {
    expect(validate(string({ format: formats[format]! }), good, "f")).toEqual([]);
    expect(validate(string({ format: formats[format]! }), bad, "f")).toEqual([
      { path: "f", message: `must be in ${format} format` },
    ]);
  });
});

describe("generated validators of the Merchant spec", () => {
  const run = (
    check: (v: unknown, p: string, i: { path: string; message: string }[]) => void,
    value: unknown,
  ) => {
    const issues: { path: string; message: string }[] = [];
    check(value, "body", issues);
    return issues;
  };

  it("enforce the seed's rules from the spec's constraints", () => {
    expect(
      run(validators.validateTrackMockShipmentRequest, {
        tracking_number: "MockService123",
        status: "delivered",
      }),
    ).toEqual([]);
    expect(
      run(validators.validateTrackMockShipmentRequest, {
        tracking_number: "UPS123",
        status: "lost",
      }),
    ).toEqual([
      { path: "body.tracking_number", message: 'must begin with "MockService"' },
      {
        path: "body.status",
        message: 'must be one of "in_transit", "cancelled", "failure", "delivered"',
      },
    ]);
    expect(
      run(validators.validateAuthorizeRequest, {
        merchant_event_id: "nope",
        credit_card: { expiration: "09/27" },
      }),
    ).toEqual([
      { path: "body.credit_card.expiration", message: "must be in YYYY-MM format" },
      { path: "body.merchant_event_id", message: "must be in uuid format" },
    ]);
    expect(run(validators.validateCreateWebhookRequest, { url: "https://m.example/h" })).toEqual([
      { path: "body.division_id", message: "is required" },
    ]);
    expect(run(validators.validateTransactionReference, "ABCD-EFGH-IJKL")).toEqual([]);
    expect(run(validators.validateTransactionReference, "ABCD-EFGH")).toHaveLength(1);
  });

  it("check recursive types to any depth", () => {
    const deep = { adjust_transactions: [{ refund_transactions: [{ amount: { amount: "12" } }] }] };
    expect(run(validators.validateTransaction, deep)).toEqual([
      {
        path: "body.adjust_transactions[0].refund_transactions[0].amount.amount",
        message: "must be a number, not a string",
      },
    ]);
  });
});
