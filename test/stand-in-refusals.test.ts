/**
 * The stand-in's credential refusals as the model works them out (ir/stand-in-refusals.ts,
 * docs/testing.md "Credentials"): given a spec's credentials and errors, the status and code a
 * missing and a refused credential get. The Merchant spec's own cases are held by
 * test/stand-in.test.ts through its generated client; these are the shapes hand-written specs
 * of other APIs took (issue 31's trials of Twilio's, Anthropic's and Shopify's APIs).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildStandIn } from "../generator/ir/build-stand-in.ts";
import { shapeValidator } from "../generator/ir/shape-validator.ts";
import { shapeTableOf } from "../generator/ir/stand-in-shapes.ts";
import { credentialChecks } from "../generator/ir/stand-in-refusals.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { refuse } from "../generator/runtime/testing/answers.ts";
import { validate } from "../generator/runtime/validate.ts";
import { tempDir } from "./helpers.ts";

/** The model of a spec with these errors (and types, and other sections), one endpoint behind an API key. */
function modelWith(errors: string, types = "", more = "") {
  const dir = tempDir("apigen-refusals-");
  try {
    writeFileSync(
      join(dir, "api.yaml"),
      [
        "api: { name: refusals, title: Refusals, version: 1.0.0 }",
        "credentials:",
        "  apiKey: { in: header, header: X-Api-Key }",
        "errors:",
        errors,
        ...(types ? ["types:", types] : []),
        "endpoints:",
        "  items.get:",
        "    method: GET",
        "    path: /v1/items/{id}",
        "    params: { id: string }",
        "    auth: [apiKey]",
        "    response: { status: 200, body: string }",
        "",
      ].join("\n"),
    );
    if (more) writeFileSync(join(dir, "more.yaml"), more);
    return loadApiModel({ specDir: dir }).model;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The missing and refused answers of the one endpoint of a spec with these errors. */
function refusals(errors: string): Record<"missing" | "rejected", [number, unknown]> {
  const model = modelWith(errors);
  const [check] = credentialChecks(model.endpoints[0]!, model);
  return {
    missing: [check!.missing.status, check!.missing.code],
    rejected: [check!.rejected.status, check!.rejected.code],
  };
}

describe("credential refusals of the stand-in", () => {
  it.each([
    [
      "no credential error listed: 401 for both (a key not accepted is a failed authentication)",
      "  statuses: { 404: { meaning: Not found. } }",
      { missing: [401, undefined], rejected: [401, undefined] },
    ],
    [
      "an API-wide 401 with its code (Twilio's 20003) answers both",
      "  codes: { 20003: { meaning: Authentication failed. } }\n  responses:\n    - { status: 401, code: 20003 }",
      { missing: [401, 20003], rejected: [401, 20003] },
    ],
    [
      "an API-wide 403 is about permissions, not the key: left to Prefer",
      "  codes: { permission_error: { meaning: No permission. } }\n  responses:\n    - { status: 403, code: permission_error }",
      { missing: [401, undefined], rejected: [401, undefined] },
    ],
    [
      "the area's 401 before its 403 (Anthropic's authentication_error and permission_error)",
      "  codes:\n    permission_error: { meaning: No permission. }\n    authentication_error: { meaning: Bad key. }\n  responses:\n    - { status: 403, code: permission_error, pathPrefix: /v1/ }\n    - { status: 401, code: authentication_error, pathPrefix: /v1/ }",
      { missing: [401, "authentication_error"], rejected: [401, "authentication_error"] },
    ],
    [
      "codes named for the credential and the case win over the rest",
      "  codes:\n    1: { name: apiKeyMissing, meaning: No key. }\n    2: { name: apiKeyRejected, meaning: Bad key. }\n  responses:\n    - { status: 401, code: 1, pathPrefix: /v1/ }\n    - { status: 403, code: 2, pathPrefix: /v1/ }",
      { missing: [401, 1], rejected: [403, 2] },
    ],
  ])("%s", (_, errors, want) => {
    expect(refusals(errors)).toEqual(want);
  });
});

describe("error bodies of the stand-in", () => {
  it.each([
    [
      "Twilio's: the HTTP status in `status`, a made-up `more_info`",
      "  body: TwilioError\n  codes: { 20003: { meaning: Authentication failed. } }\n  responses:\n    - { status: 401, code: 20003 }",
      "  TwilioError:\n    fields:\n      code: { type: integer, required: true }\n      message: { type: string, required: true }\n      more_info: { type: string, format: uri, required: true }\n      status: { type: integer, required: true }",
      { code: 20003, message: expect.any(String), more_info: expect.any(String), status: 401 },
    ],
    [
      "Slack's: no field a refusal fills, still in its type",
      "  body: SlackError",
      "  SlackError:\n    fields:\n      ok: { const: false, required: true }\n      error: { type: string, required: true }",
      { ok: false, error: expect.any(String) },
    ],
    [
      "Shopify's: a union of a text, a list and a map, required",
      "  body: ShopifyError",
      '  ShopifyError:\n    fields:\n      errors: { required: true, union: [string, "string[]", "map<string[]>"] }',
      { errors: expect.anything() },
    ],
    [
      "Stripe's: an optional resource the error points at is left out, not made up",
      "  body: StripeError",
      "  StripeError:\n    fields:\n      error:\n        required: true\n        fields:\n          type: { enum: [api_error, card_error], required: true }\n          code: string\n          message: string\n          payment_intent: PaymentIntent\n  PaymentIntent:\n    fields:\n      id: { type: string, required: true }\n      description: string",
      { error: { type: expect.any(String), message: expect.any(String) } },
    ],
    [
      "Zoom's: a refusal with no listed code carries its HTTP status, never the field's example (3001, not found)",
      "  body: ZoomError\n  codes: { 3001: { meaning: Meeting not found. } }",
      "  ZoomError:\n    fields:\n      code: { type: integer, required: true, example: 3001 }\n      message: { type: string, required: true }",
      { code: 401, message: expect.any(String) },
    ],
    [
      "a text code with no listed code for the refusal carries its reason tag",
      "  body: TextError\n  codes: { meeting_not_found: { meaning: Meeting not found. } }",
      "  TextError:\n    fields:\n      code: { type: string, required: true, example: meeting_not_found }\n      message: { type: string, required: true }",
      { code: "unauthorized", message: expect.any(String) },
    ],
    [
      "Jira's: the messages where the spec places them, a list of texts (errorMessages)",
      "  body: JiraError\n  messageField: errorMessages",
      '  JiraError:\n    fields:\n      errorMessages: { type: "string[]", required: true }\n      errors: map<string>',
      { errorMessages: [expect.any(String)] },
    ],
  ])("%s", (_, errors, types, want) => {
    const model = modelWith(errors, types);
    const { table } = buildStandIn(model);
    const check = credentialChecks(model.endpoints[0]!, model)[0]!;
    const answer = refuse(table, { errorBody: "default" }, check.rejected);
    const body = JSON.parse(answer.body) as unknown;
    expect(body).toEqual(want);
    // valid against the package's own checks of the error body's type
    const shape = { t: "ref", name: model.errors.body! } as const;
    const shapes = shapeTableOf(model.types, [{ kind: "ref", name: model.errors.body! } as never]);
    expect(validate(shapeValidator(shape, shapes), body, "body")).toEqual([]);
  });
});

describe("a delivery id read from the body", () => {
  it("may be a field the payload takes from the type it extends (Stripe's events: id from EventBase)", () => {
    const model = modelWith(
      "  description: Errors.",
      "  EventBase:\n    fields:\n      id: { type: string, required: true }\n  PaymentEvent:\n    extends: EventBase\n    fields:\n      type: { const: payment.done, required: true }",
      [
        "credentials:",
        "  signing: { in: signature, header: X-Signature, deliveryId: { in: body, name: id } }",
        "webhooks:",
        "  auth: [signing]",
        "  payload: PaymentEvent",
      ].join("\n"),
    );
    expect(model.webhooks?.payload).toMatchObject({ kind: "ref", name: "PaymentEvent" });
  });
});

describe("the invalid-input refusal", () => {
  it("carries the code of a listed error of its status (Notion's 400 validation_error)", () => {
    const model = modelWith(
      "  codes: { validation_error: { meaning: The request body does not match. } }\n  responses:\n    - { status: 400, code: validation_error }",
    );
    const [route] = buildStandIn(model).table.routes;
    expect(route).toMatchObject({ invalidInput: 400, invalidInputCode: "validation_error" });
    const answer = refuse(
      buildStandIn(model).table,
      { errorBody: "default" },
      { status: 400, code: route!.invalidInputCode!, message: "params.id: is required" },
    );
    expect(JSON.parse(answer.body)).toEqual({
      code: "validation_error",
      message: "params.id: is required",
    });
  });
});
