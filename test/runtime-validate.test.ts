/**
 * The validation runtime and the validators generated from the Merchant spec: every rule
 * comes from a constraint of the model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anything as anythingValidator,
  array,
  boolean,
  formats,
  map,
  nullable,
  number,
  object,
  oneOf,
  string,
  validate,
} from "../generator/runtime/validate.ts";
import { tagged, union } from "../generator/runtime/unions.ts";
import * as validators from "../generated/src/validators.ts";
import { validatorsOfAllTypes, type Check } from "./helpers.ts";

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

  it("checks exclusive bounds and multiples, a decimal step read as a decimal", () => {
    const share = number({ exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(validate(share, 0, "s")).toEqual([{ path: "s", message: "must be more than 0" }]);
    expect(validate(share, 1, "s")).toEqual([{ path: "s", message: "must be less than 1" }]);
    expect(validate(share, 0.5, "s")).toEqual([]);
    const cents = number({ multipleOf: 0.01 });
    for (const good of [0.3, 19.99, 1e6, -0.07]) expect(validate(cents, good, "c")).toEqual([]);
    expect(validate(cents, 0.005, "c")).toEqual([
      { path: "c", message: "must be a multiple of 0.01" },
    ]);
    expect(validate(number({ integer: true, multipleOf: 5 }), 12, "n")).toEqual([
      { path: "n", message: "must be a multiple of 5" },
    ]);
  });

  it("checks an array's count (minItems, maxItems) besides its items", () => {
    const tags = array(string({ minLength: 2 }), { minItems: 1, maxItems: 2 });
    expect(validate(tags, [], "tags")).toEqual([
      { path: "tags", message: "must have at least 1 item, not 0" },
    ]);
    expect(validate(tags, ["ab", "c", "de"], "tags")).toEqual([
      { path: "tags", message: "must have at most 2 items, not 3" },
      { path: "tags[1]", message: "must be at least 2 characters long" },
    ]);
    expect(validate(tags, ["ab"], "tags")).toEqual([]);
    expect(validate(array(number(), { maxItems: 0 }), [], "none")).toEqual([]);
  });

  it("checks a map's and an object's count of entries (minProperties, maxProperties)", () => {
    const tags = map(string(), { maxProperties: 2 });
    expect(validate(tags, { a: "1", b: "2", c: "3" }, "tags")).toEqual([
      { path: "tags", message: "must have at most 2 entries, not 3" },
    ]);
    const patch = object({ name: string(), color: string() }, [], { minProperties: 1 });
    expect(validate(patch, {}, "body")).toEqual([
      { path: "body", message: "must have at least 1 entry, not 0" },
    ]);
    expect(validate(patch, { color: "teal" }, "body")).toEqual([]);
  });

  it("checks that unique items differ, by value (an object's fields in any order)", () => {
    const ids = array(number(), { uniqueItems: true });
    expect(validate(ids, [1, 2, 1, 1], "ids")).toEqual([
      { path: "ids[2]", message: "must differ from item 0: the items are unique" },
      { path: "ids[3]", message: "must differ from item 0: the items are unique" },
    ]);
    const values = array(anythingValidator, { uniqueItems: true });
    // a number and its text, true and "true", are different items
    expect(validate(values, [1, "1", true, "true", null, "null"], "x")).toEqual([]);
    expect(
      validate(
        values,
        [
          { a: 1, b: [2] },
          { b: [2], a: 1 },
        ],
        "p",
      ),
    ).toEqual([{ path: "p[1]", message: "must differ from item 0: the items are unique" }]);
    expect(validate(values, [{ a: 1 }, { a: 2 }, [1], [1, 1]], "p")).toEqual([]);
  });

  // given a pattern, want what it accepts and what it refuses: in Unicode mode where it is a
  // regular expression there (JSON Schema's reading), else as written
  it.each([
    // AWS's tag keys (Amazon EFS): \p{L} a letter, not the text "p{L}"
    [
      "^(?![aA]{1}[wW]{1}[sS]{1}:)([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+)$",
      ["Name", "Équipe 7", "cost:center"],
      ["aws:x", "a&b"],
    ],
    ["^\\p{Lu}\\p{Ll}+$", ["Émile"], ["émile", "p{Lu}p{Ll}"]],
    // one code point, not one UTF-16 unit
    ["^.$", ["😀", "a"], ["ab"]],
    // identity escapes Unicode mode refuses (ThreatJammer's \_, Mon Voyage Pas Cher's \-)
    ["^[A-Z0-9\\_]+$", ["A_1"], ["a"]],
    ["^\\-?\\d+$", ["-12", "3"], ["+3"]],
  ])("pattern %s accepts %j and refuses %j", (pattern, good, bad) => {
    for (const value of good) expect(validate(string({ pattern }), value, "p")).toEqual([]);
    for (const value of bad)
      expect(validate(string({ pattern }), value, "p")).toEqual([
        { path: "p", message: `must match ${pattern}` },
      ]);
  });

  it.each([
    ["uuid", "0b6f1d7e-3c1a-4c0e-9a51-2f3c9d8e7a10", "0b6f1d7e3c1a4c0e9a512f3c9d8e7a10"],
    ["MM-DD-YYYY", "12-31-2026", "2026-12-31"],
    ["YYYY-MM", "2027-09", "2027-13"],
    ["date-time", "2026-11-21T10:00:00Z", "21/11/2026"],
    // fractions past milliseconds (Twitch's nanoseconds), read the same on every runtime
    ["date-time", "2023-07-19T10:11:12.123456789Z", "2023-07-19T10:11:12.123456789"],
    ["date", "2024-02-29", "2023-02-29"],
    ["date", "2000-02-29", "1900-02-29"],
    ["date", "2026-12-31", "2026-04-31"],
    ["date", "2026-01-01", "2026-1-01"],
    ["date", "2026-09-30", "2026-09-30T00:00:00Z"],
    ["uri", "https://merchant.example/hooks", "not a url"],
  ])("format %s accepts %s and rejects %s", (format, good, bad) => {
    expect(validate(string({ format: formats[format]! }), good, "f")).toEqual([]);
    expect(validate(string({ format: formats[format]! }), bad, "f")).toEqual([
      { path: "f", message: `must be in ${format} format` },
    ]);
  });
});

describe("union combinators", () => {
  const card = object({ last4: string({ minLength: 4 }) }, ["last4"]);
  const bank = object({ iban: string() }, ["iban"]);

  it("tagged: reads the tag first, then checks only the variant it names, under path<tag>", () => {
    const closed = tagged("type", { card, bank }, false);
    expect(validate(closed, { type: "card", last4: "4242" }, "pm")).toEqual([]);
    expect(validate(closed, { type: "card", iban: "DE00" }, "pm")).toEqual([
      { path: "pm<card>.last4", message: "is required" },
    ]);
    expect(validate(closed, { type: "cash" }, "pm")).toEqual([
      { path: "pm.type", message: 'must be one of "card", "bank"' },
    ]);
    expect(validate(closed, {}, "pm")).toEqual([{ path: "pm.type", message: "is required" }]);
    expect(validate(closed, { type: null }, "pm")).toEqual([
      { path: "pm.type", message: "must be a string, not null" },
    ]);
    expect(validate(closed, "card", "pm")).toEqual([
      { path: "pm", message: "must be an object, not a string" },
    ]);
  });

  it("tagged: an open union accepts a tag it does not list; a tag is never read off the prototype", () => {
    expect(validate(tagged("type", { card }, true), { type: "cash", x: 1 }, "pm")).toEqual([]);
    const closed = tagged("type", { card }, false);
    expect(validate(closed, { type: "toString" }, "pm")).toEqual([
      { path: "pm.type", message: 'must be one of "card"' },
    ]);
    expect(validate(closed, Object.create({ type: "card" }), "pm")).toEqual([
      { path: "pm.type", message: "is required" },
    ]);
    expect(validate(tagged("a-b", { x: card }, false), {}, "v")).toEqual([
      { path: 'v["a-b"]', message: "is required" },
    ]);
  });

  it("untagged: passes when any member does; else the problems of the one member of the value's kind", () => {
    const expandable = union([string(), object({ id: string() }, ["id"])], ["string", "Customer"]);
    expect(validate(expandable, "cus_1", "c")).toEqual([]);
    expect(validate(expandable, { id: "cus_1" }, "c")).toEqual([]);
    expect(validate(expandable, {}, "c")).toEqual([{ path: "c.id", message: "is required" }]);
    expect(validate(expandable, 3, "c")).toEqual([
      { path: "c", message: "matches none of string, Customer (it is number 3)" },
    ]);
  });

  it("untagged: two members that fail alike give one issue naming both; the closer one speaks otherwise", () => {
    const a = object({ x: number() }, ["x"]);
    const b = object({ y: number() }, ["y"]);
    expect(validate(union([a, b], ["A", "B"]), {}, "v")).toEqual([
      { path: "v", message: "matches none of A, B (it is an object)" },
    ]);
    const c = object({ x: number(), y: number() }, ["x", "y"]);
    expect(validate(union([c, a], ["C", "A"]), { x: "1" }, "v")).toEqual([
      { path: "v.x", message: "must be a number, not a string" },
    ]);
  });

  it("untagged: the member whose fields the value has speaks (Notion's filters: an `and` is an AndFilter)", () => {
    const filter: ReturnType<typeof union> = (value, path, issues) =>
      filterShape(value, path, issues);
    const or = object({ or: array(filter) }, ["or"]);
    const and = object({ and: array(filter) }, ["and"]);
    const property = object({ property: string(), checkbox: object({ equals: boolean }, []) }, [
      "property",
    ]);
    const timestamp = object({ timestamp: string() }, ["timestamp"]);
    const filterShape = union(
      [or, and, property, timestamp],
      ["OrFilter", "AndFilter", "PropertyFilter", "TimestampFilter"],
    );
    const value = { and: [{ property: "Done", checkbox: { equals: "nope" } }] };
    expect(validate(filter, value, "body.filter")).toEqual([
      { path: "body.filter.and[0].checkbox.equals", message: "must be a boolean, not a string" },
    ]);
  });

  it("untagged: a large valid recursive document (JsonValue) is checked whole, never cut short", () => {
    const json: ReturnType<typeof union> = (value, path, issues) => jsonShape(value, path, issues);
    const jsonShape = nullable(
      union(
        [string(), number(), array(json), map(json)],
        ["string", "number", "JsonValue[]", "map<JsonValue>"],
      ),
    );
    const doc = Array.from({ length: 3000 }, (_, i) => ({
      id: i,
      tags: ["a", "b"],
      meta: { n: null },
    }));
    expect(validate(json, doc, "v")).toEqual([]);
    expect(validate(json, [{ a: [1, { b: true }] }], "v")).toEqual([
      {
        path: "v[0].a[1].b",
        message: "matches none of string, number, JsonValue[], map<JsonValue> (it is boolean true)",
      },
    ]);
  });

  it("untagged: unions nested in unions give up after maxAttempts members, in linear time", () => {
    // Each level has two object members that both look inside: 2^40 tries without the limit.
    type Level = (
      value: unknown,
      path: string,
      issues: { path: string; message: string }[],
    ) => void;
    let inner: Level = string();
    for (let i = 0; i < 40; i++) {
      const next = inner;
      inner = union(
        [object({ a: next }, ["a"]), object({ a: next, b: number() }, ["a"])],
        ["A", "B"],
      );
    }
    let value: unknown = 1;
    for (let i = 0; i < 40; i++) value = { a: value, b: "x" };
    const started = performance.now();
    const issues = validate(inner, value, "v");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.some((i) => /too complex to check/.test(i.message))).toBe(true);
    // The budget is per outermost union: the next validation starts afresh.
    expect(validate(union([string()], ["string"]), "ok", "v")).toEqual([]);
  });
});

describe("generated validators of the Merchant spec", () => {
  // Transaction is a response type: the package has no validator of it, this generation does.
  let all: Awaited<ReturnType<typeof validatorsOfAllTypes>>;
  beforeAll(async () => {
    all = await validatorsOfAllTypes("spec");
  });
  afterAll(() => all?.dispose());
  const run = (check: Check, value: unknown) => {
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
    expect(run(all.validators.validateTransaction!, deep)).toEqual([
      {
        path: "body.adjust_transactions[0].refund_transactions[0].amount.amount",
        message: "must be a number, not a string",
      },
    ]);
  });
});
