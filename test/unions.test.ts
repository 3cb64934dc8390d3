/**
 * Unions end to end (test/fixtures/features/unions): the generated package is written to a
 * temp folder; its client calls a server on 127.0.0.1 that answers unions, its validators
 * name the variant in the path of a problem, and code written against its types narrows on
 * the tag under TypeScript 6 and 7 (strict), with the open union's default branch reachable.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTypeExpr, TypeExprError } from "../generator/ir/type-expr.ts";
import { writeGenerated, tempDir } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

type Issues = { path: string; message: string }[];
type Check = (value: unknown, path: string, issues: Issues) => void;

let out: string;
let server: TestServer;
let pkg: Record<string, any>;
let validators: Record<string, Check>;

beforeAll(async () => {
  out = tempDir("apigen-unions-");
  await writeGenerated("test/fixtures/features/unions", out, { validators: "all" });
  compileInPlace(out);
  pkg = await importCompiled<typeof pkg>(join(out, "src/index.ts"));
  validators = await importCompiled<typeof validators>(join(out, "src/validators.ts"));
  server = await TestServer.start();
});
afterAll(async () => {
  await server?.stop();
  rmSync(out, { recursive: true, force: true });
});

/** The issues of one validator on one value, at `body`. */
function issuesOf(name: string, value: unknown): Issues {
  const issues: Issues = [];
  validators[`validate${name}`]!(value, "body", issues);
  return issues;
}

const card = { id: "pm_1", type: "card", card: { brand: "visa", last4: "4242" } };

describe("the shorthand grammar", () => {
  const ref = (name: string, offset: number) => ({ kind: "ref", name, offset });
  it("reads members joined by |, a null member anywhere making the type nullable", () => {
    expect(parseTypeExpr("string | Customer")).toEqual({
      type: { kind: "union", members: [{ kind: "primitive", name: "string" }, ref("Customer", 9)] },
      nullable: false,
    });
    expect(parseTypeExpr("null | Label[] | string")).toEqual({
      type: {
        kind: "union",
        members: [
          { kind: "array", items: ref("Label", 7) },
          { kind: "primitive", name: "string" },
        ],
      },
      nullable: true,
    });
    // One member and null is no union: a nullable type, as before.
    expect(parseTypeExpr("Customer | null")).toEqual({ type: ref("Customer", 0), nullable: true });
  });

  it.each([
    ["string | string", "a member of the union appears twice"],
    ["string |", 'expected a type name at "the end"'],
    ["null", "null alone is not a type"],
    ["map<string | integer>", "a union of map values is written in full"],
    ["(string | integer)[]", "the shorthand has no parentheses"],
  ])("refuses %s", (text, message) => {
    let error: unknown;
    try {
      parseTypeExpr(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeExprError);
    expect((error as Error).message).toContain(message);
  });
});

describe("the client against a server on 127.0.0.1", () => {
  it("returns a list of an open union as sent, a variant the spec does not list included", async () => {
    const methods = [card, { id: "pm_2", type: "link", email: "a@example.com" }];
    server.respond((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(methods));
    });
    const client = new pkg.UnionsClient({ baseUrl: server.url });
    expect(await client.paymentMethods.list()).toEqual(methods);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /payment_methods"]);
  });

  it("sends a body whose untagged and tagged unions hold", async () => {
    server.respond((req, res) => {
      res.statusCode = 201;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: "ch_1", customer: JSON.parse(req.body).customer }));
    });
    const client = new pkg.UnionsClient({ baseUrl: server.url });
    const body = { customer: { id: "cus_1" }, payment_method: card };
    expect(await client.charges.create(body)).toEqual({ id: "ch_1", customer: { id: "cus_1" } });
    expect(JSON.parse(server.requests[0]!.body)).toEqual(body);
  });

  it("refuses a body whose variant is wrong, naming the variant and the field, and sends nothing", async () => {
    server.respond((_req, res) => res.end("{}"));
    const client = new pkg.UnionsClient({ baseUrl: server.url });
    const bad = { ...card, card: { brand: "visa", last4: "42" } };
    const error = await client.charges
      .create({ customer: "cus_1", payment_method: bad })
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(pkg.RequestValidationError);
    expect(error.issues).toEqual([
      {
        path: "body.payment_method<card>.card.last4",
        message: "must be at least 4 characters long",
      },
    ]);
    expect(error.field).toBe("body.payment_method<card>.card.last4");
    expect(server.requests).toEqual([]);
  });
});

describe("a callback whose body is a union, through router.fetch", () => {
  it("hands a valid variant to its handler and answers 400 naming the variant's field", async () => {
    const { createCallbackRouter } = await importCompiled<typeof pkg>(
      join(out, "src/callbacks.ts"),
    );
    const seen: unknown[] = [];
    // the spec signs no callback: the router takes no secrets
    const router = createCallbackRouter({
      handlers: { "charge.event": (body: unknown) => (seen.push(body), { received: true }) },
    });
    const post = async (body: unknown) => {
      const res = await router.fetch(
        new Request("http://127.0.0.1/hooks/charges", {
          method: "POST",
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, text: await res.text() };
    };
    const event = { kind: "charge.succeeded", charge: "ch_1", amount: 5 };
    expect(await post(event)).toMatchObject({ status: 200 });
    expect(seen).toEqual([event]);
    const refused = await post({ kind: "charge.succeeded", charge: "ch_1" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("body<charge.succeeded>.amount is required");
    const unknown = await post({ kind: "charge.refunded" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain(
      'body.kind must be one of \\"charge.succeeded\\", \\"charge.failed\\"',
    );
    expect(seen).toHaveLength(1);
  });
});

describe("validators of tagged unions: the tag first, then only its variant", () => {
  it("accepts each known variant and, for an open union, any other tag", () => {
    expect(issuesOf("PaymentMethod", card)).toEqual([]);
    expect(
      issuesOf("PaymentMethod", { id: "pm_3", type: "sepa_debit", sepa_debit: { last4: "1" } }),
    ).toEqual([]);
    expect(issuesOf("PaymentMethod", { type: "link", anything: [1] })).toEqual([]);
  });

  it("a closed union refuses another tag with one issue listing the known ones", () => {
    expect(issuesOf("Event", { kind: "charge.refunded", charge: "ch_1" })).toEqual([
      { path: "body.kind", message: 'must be one of "charge.succeeded", "charge.failed"' },
    ]);
  });

  it("a missing or non-string tag is one issue at the tag, and no variant is tried", () => {
    expect(issuesOf("PaymentMethod", { id: 5 })).toEqual([
      { path: "body.type", message: "is required" },
    ]);
    expect(issuesOf("Event", { kind: 1 })).toEqual([
      { path: "body.kind", message: "must be a string, not number 1" },
    ]);
    expect(issuesOf("Event", [])).toEqual([
      { path: "body", message: "must be an object, not an array" },
    ]);
  });

  it("checks only the chosen variant, under path<tag>", () => {
    expect(issuesOf("Event", { kind: "charge.succeeded", charge: "ch_1" })).toEqual([
      { path: "body<charge.succeeded>.amount", message: "is required" },
    ]);
    expect(issuesOf("PaymentMethod", { type: "sepa_debit", id: "x" })).toEqual([
      { path: "body<sepa_debit>.id", message: 'must begin with "pm_"' },
      { path: "body<sepa_debit>.sepa_debit", message: "is required" },
    ]);
  });
});

describe("validators of untagged unions: any member matches", () => {
  const charge = (fields: object) => ({ id: "ch_1", customer: "cus_1", ...fields });

  it("accepts a value of any member", () => {
    expect(issuesOf("Charge", charge({ customer: { id: "cus_1" } }))).toEqual([]);
    expect(issuesOf("Charge", charge({ reference: 7, labels: "vip" }))).toEqual([]);
    expect(issuesOf("Charge", charge({ refunded_by: null, attempts: [1, "two"] }))).toEqual([]);
    expect(issuesOf("Charge", charge({ by_region: { eu: "cus_2", us: { id: "cus_3" } } }))).toEqual(
      [],
    );
    expect(issuesOf("Amount", "12.50")).toEqual([]);
  });

  it("names every member when the value is none of their kinds", () => {
    expect(issuesOf("Charge", charge({ customer: 5 }))).toEqual([
      { path: "body.customer", message: "matches none of string, Customer (it is number 5)" },
    ]);
    expect(issuesOf("Amount", 1.5)).toEqual([
      { path: "body", message: "matches none of integer, string (it is number 1.5)" },
    ]);
    expect(issuesOf("Charge", charge({ attempts: [true] }))).toEqual([
      {
        path: "body.attempts[0]",
        message: "matches none of integer, string (it is boolean true)",
      },
    ]);
  });

  it("gives the problems of the one member of the value's kind", () => {
    expect(issuesOf("Charge", charge({ customer: { id: "x", email: 1 } }))).toEqual([
      { path: "body.customer.id", message: 'must begin with "cus_"' },
      { path: "body.customer.email", message: "must be a string, not number 1" },
    ]);
    expect(issuesOf("Charge", charge({ by_region: { eu: { email: "e" } } }))).toEqual([
      { path: "body.by_region.eu.id", message: "is required" },
    ]);
  });
});

describe("the OpenAPI document", () => {
  it("has oneOf + discriminator with a mapping for tagged unions, x-apigen-open when open, and each variant's tag as a required const", () => {
    const schemas = JSON.parse(readFileSync(join(out, "openapi.json"), "utf8")).components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(schemas.PaymentMethod).toMatchObject({
      oneOf: [ref("CardPaymentMethod"), ref("SepaDebitPaymentMethod")],
      discriminator: {
        propertyName: "type",
        mapping: {
          card: "#/components/schemas/CardPaymentMethod",
          sepa_debit: "#/components/schemas/SepaDebitPaymentMethod",
        },
      },
      "x-apigen-open": true,
    });
    expect(schemas.Event["x-apigen-open"]).toBeUndefined();
    expect(schemas.CardPaymentMethod.properties.type).toEqual({ type: "string", const: "card" });
    expect(schemas.CardPaymentMethod.required).toContain("type");
    expect(schemas.ChargeFailed.properties.kind).toEqual({
      type: "string",
      const: "charge.failed",
    });
  });

  it("has oneOf for members disjoint by JSON type, anyOf otherwise, and null as a member when nullable", () => {
    const schemas = JSON.parse(readFileSync(join(out, "openapi.json"), "utf8")).components.schemas;
    expect(schemas.Amount).toEqual({ oneOf: [{ type: "integer" }, { type: "string" }] });
    expect(schemas.Charge.properties.refunded_by).toEqual({
      anyOf: [{ type: "string" }, { $ref: "#/components/schemas/Customer" }, { type: "null" }],
    });
  });
});

describe("code written against the types", () => {
  const consumer = `
import type { Charge, Event, PaymentMethod } from "./types.js";
import type { UnknownVariant } from "./runtime/unions.js";

/** Narrowing on the tag reaches the variant's own fields, no \`?.\` needed. */
export function last4(pm: PaymentMethod): string {
  if (pm.type === "card") return pm.card.last4;
  switch (pm.type) {
    case "sepa_debit":
      return pm.sepa_debit.last4;
    default: {
      const other: UnknownVariant<"type"> = pm;
      // @ts-expect-error the default branch of an open union is reachable: pm is not never
      const unreachable: never = pm;
      return String(other.type) + String(unreachable);
    }
  }
}

/** A closed union's switch is exhaustive. */
export function amount(event: Event): number {
  switch (event.kind) {
    case "charge.succeeded":
      return event.amount;
    case "charge.failed":
      return 0;
    default: {
      const done: never = event;
      return done;
    }
  }
}

export const customerId = (charge: Charge): string =>
  typeof charge.customer === "string" ? charge.customer : charge.customer.id;

export const written: PaymentMethod = { id: "pm_1", type: "card", card: { brand: "visa", last4: "4242" } };

// @ts-expect-error a closed union refuses a tag it does not list
export const refused: Event = { kind: "charge.refunded", charge: "ch_1", amount: 1 };

// @ts-expect-error without narrowing, card is not a field of every variant
export const unnarrowed = (pm: PaymentMethod) => pm.card.last4;
`;

  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])("narrow on the tag and type-check strict with %s", (_name, tsc) => {
    writeFileSync(join(out, "src/consumer.ts"), consumer);
    const run = runTypeScript(tsc, [
      "-p",
      join(tsc === typescript6 ? withRuntimeDeclarations(out) : out, "tsconfig.json"),
    ]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
