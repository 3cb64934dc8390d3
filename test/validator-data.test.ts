/**
 * Validators as data (runtime/validator-data.ts): each form of the JSON text builds the
 * validator the combinator calls it replaces built, so both give the same issues for the same
 * values; a name the text uses but the generated code did not pass is a clear error.
 */
import { describe, expect, it } from "vitest";
import { tagged, union } from "../generator/runtime/unions.ts";
import {
  anything,
  array,
  binary,
  boolean,
  literal,
  map,
  nullable,
  number,
  object,
  oneOf,
  string,
  uuidFormat,
  validate,
  type Validator,
} from "../generator/runtime/validate.ts";
import { fromData } from "../generator/runtime/validator-data.ts";

/** `fromData` as the generated code calls it: `[names, shape]` as text, the refs in that order. */
const dataOf = (shape: unknown, named: Record<string, unknown> = {}): Validator =>
  fromData(JSON.stringify([Object.keys(named), shape]), ...Object.values(named));

const validateLabel = object({ name: string() }, ["name"]);
const refs: Record<string, unknown> = {
  ...{ anything, array, binary, boolean, literal, map, nullable, number, object, oneOf, string },
  ...{ validateLabel, uuidFormat, union, tagged },
};

/** Values of every kind, some inside and some outside each shape below. */
const values: unknown[] = [
  undefined,
  null,
  true,
  0,
  1.5,
  -3,
  Number.NaN,
  "",
  "ab",
  "hk_1",
  "123e4567-e89b-12d3-a456-426614174000",
  [],
  ["a", 1, null],
  {},
  { name: "x" },
  { name: 1, extra: true },
  { type: "card", name: "c" },
  { type: "other" },
  { id: "a", __proto__: "kept" },
  new Uint8Array(2),
];

/** Given the JSON data of a shape, want the validator of these combinator calls. */
const table: [string, unknown, Validator][] = [
  ["string", "string", string()],
  ["integer", "integer", number({ integer: true })],
  ["number", "number", number()],
  ["boolean", "boolean", boolean],
  ["binary", "binary", binary],
  ["anything", "anything", anything],
  ["a named validator", "validateLabel", validateLabel],
  [
    "string rules with a format",
    [
      "string",
      { format: "uuidFormat", minLength: 2, maxLength: 40, prefix: "1", pattern: "^[0-9a-f-]+$" },
    ],
    string({
      format: uuidFormat,
      minLength: 2,
      maxLength: 40,
      prefix: "1",
      pattern: "^[0-9a-f-]+$",
    }),
  ],
  [
    "number rules",
    ["number", { integer: true, minimum: 0, maximum: 1 }],
    number({ integer: true, minimum: 0, maximum: 1 }),
  ],
  [
    "number rules with exclusive bounds and a multiple",
    ["number", { exclusiveMinimum: -3, exclusiveMaximum: 1.5, multipleOf: 0.5 }],
    number({ exclusiveMinimum: -3, exclusiveMaximum: 1.5, multipleOf: 0.5 }),
  ],
  ["nullable", ["nullable", "string"], nullable(string())],
  ["nullable anything", ["nullable", "anything"], nullable(anything)],
  ["array", ["array", ["nullable", "integer"]], array(nullable(number({ integer: true })))],
  [
    "array with its count",
    ["array", "anything", { minItems: 1, maxItems: 2, uniqueItems: true }],
    array(anything, { minItems: 1, maxItems: 2, uniqueItems: true }),
  ],
  ["map", ["map", "validateLabel"], map(validateLabel)],
  [
    "map with its count of entries",
    ["map", "anything", { minProperties: 1, maxProperties: 2 }],
    map(anything, { minProperties: 1, maxProperties: 2 }),
  ],
  [
    "object with its count of entries",
    ["object", { name: "string" }, [], { minProperties: 1 }],
    object({ name: string() }, [], { minProperties: 1 }),
  ],
  [
    "object with required names",
    ["object", { id: "string", n: "number", __proto__: "string" }, ["id"]],
    object(
      Object.defineProperty({ id: string(), n: number() }, "__proto__", {
        value: string(),
        enumerable: true,
      }),
      ["id"],
    ),
  ],
  [
    "object without required names",
    ["object", { name: "integer" }],
    object({ name: number({ integer: true }) }),
  ],
  ["literal", ["literal", "ab"], literal("ab")],
  ["closed enum", ["oneOf", ["ab", "hk_1"], false], oneOf(["ab", "hk_1"], false)],
  ["open enum", ["oneOf", [1, 2], true], oneOf([1, 2], true)],
  [
    "untagged union",
    ["union", ["string", "validateLabel"], ["string", "Label"]],
    union([string(), validateLabel], ["string", "Label"]),
  ],
  [
    "tagged union",
    ["tagged", "type", { card: ["object", { name: "string" }, ["name"]] }, false],
    tagged("type", { card: object({ name: string() }, ["name"]) }, false),
  ],
];

describe("validators as data", () => {
  it.each(table)("%s gives the issues of its combinators", (_, data, want) => {
    const got = dataOf(data, refs);
    for (const value of values)
      expect(validate(got, value, "body"), JSON.stringify(value) ?? "undefined").toEqual(
        validate(want, value, "body"),
      );
  });

  it("keeps a field named __proto__ a field", () => {
    const got = dataOf(JSON.parse('["object",{"__proto__":"integer"},["__proto__"]]'), {
      object,
      number,
    });
    expect(validate(got, JSON.parse('{"__proto__":"x"}'), "body")).toEqual([
      { path: "body.__proto__", message: "must be a number, not a string" },
    ]);
    expect(validate(got, {}, "body")).toEqual([{ path: "body.__proto__", message: "is required" }]);
  });

  it("says which name the generated code did not pass, and which kind it does not know", () => {
    expect(() => dataOf("validateMissing")).toThrow(
      'validator data names "validateMissing", which was not passed',
    );
    // A name every object has is still one the generated code did not pass.
    expect(() => dataOf("toString")).toThrow('names "toString", which was not passed');
    expect(() => dataOf(["union", ["string"], ["string"]], { string })).toThrow('names "union"');
    expect(() => dataOf(["array", "string"], { string })).toThrow('names "array"');
    expect(() => dataOf(["set", "string"], { string })).toThrow('unknown validator kind "set"');
  });

  it("pairs each name with the argument in its place", () => {
    expect(() =>
      fromData('[["string","validateLabel"],["array","validateLabel"]]', string, validateLabel),
    ).toThrow('names "array"');
    const list = fromData(
      '[["array","validateLabel"],["array","validateLabel"]]',
      array,
      validateLabel,
    );
    expect(validate(list, [{ name: "a" }, {}], "body")).toEqual([
      { path: "body[1].name", message: "is required" },
    ]);
  });
});
