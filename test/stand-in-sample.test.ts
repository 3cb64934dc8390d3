/**
 * The stand-in's made-up values (runtime/testing/sample.ts) pass the checks of the shape they
 * were made for (commands/shape-check.ts, the runtime's validators): the constraints real
 * documents combine that the sweep's typed calls (test/sweep.ts) found made into values the
 * client's response validation refused: an alternation of anchored patterns (Open Banking's
 * amounts), a lazy quantifier (Bitbucket's commit hashes), a date-time at least 25 characters
 * long (UniCourt's), a pattern with identity escapes the validators accept (ThreatJammer's
 * `\_`, Mon Voyage Pas Cher's `\-`), a pattern beside a minimum length (LGTM's).
 */
import { describe, expect, it } from "vitest";
import { shapeValidator } from "../generator/ir/shape-validator.ts";
import { fromPattern, sample, seeded } from "../generator/runtime/testing/sample.ts";
import type { Shape } from "../generator/runtime/testing/shape.ts";
import { patternRegExp, validate } from "../generator/runtime/validate.ts";

const cases: [string, Shape][] = [
  ["anchored alternation", { t: "string", pattern: "^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$" }],
  ["alternation with a class", { t: "string", pattern: "^\\d{1,13}$|^\\d{1,13}[\\.,]\\d{1,5}$" }],
  ["lazy quantifier", { t: "string", pattern: "[0-9a-f]{7,}?" }],
  ["lazy star", { t: "string", pattern: "^a.*?z$" }],
  ["long date-time", { t: "string", format: "date-time", minLength: 25, maxLength: 30 }],
  ["date-time at its length", { t: "string", format: "date-time", maxLength: 25 }],
  // AWS's tag keys (Amazon EFS): the validators read \p{L} in Unicode mode, as JSON Schema does
  [
    "Unicode property classes and a lookahead",
    { t: "string", pattern: "^(?![aA]{1}[wW]{1}[sS]{1}:)([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+)$" },
  ],
  // Amazon FinSpace's dataset aliases: `\S` and an escaped slash
  ["negated class escape", { t: "string", pattern: "^alias\\/\\S+", minLength: 1, maxLength: 255 }],
  // a pattern Unicode mode refuses is compiled without flags: `\_` and `\-` are the characters
  ["identity escape in a class", { t: "string", pattern: "^([A-Z0-9\\_]+)$" }],
  [
    "escaped hyphen, alternation of anchored branches",
    { t: "string", pattern: "^[A-Za-z]{3}$|^(\\-?\\d+(\\.\\d+)?),\\s*(\\-?\\d+(\\.\\d+)?)$" },
  ],
  // LGTM's commit ids: the pattern alone makes 1 to 3 characters
  ["unanchored pattern at a minimum length", { t: "string", pattern: "[a-f0-9]+", minLength: 40 }],
  [
    "anchored pattern at a minimum length",
    { t: "string", pattern: "^[a-f0-9]+$", minLength: 40, maxLength: 40 },
  ],
  [
    "anchored pattern within lengths",
    { t: "string", pattern: "^x[0-9]*$", minLength: 5, maxLength: 9 },
  ],
  // eGain's: a format and a pattern of its own, which takes values the format does not
  // (`0000-00-00T00:00:00Z`; the empty alternative of a URL)
  [
    "a date-time with a pattern",
    {
      t: "string",
      format: "date-time",
      pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?Z$",
    },
  ],
  [
    "a URL with a pattern that takes the empty string",
    {
      t: "string",
      format: "uri",
      maxLength: 2000,
      pattern: "^(https?|ftp):\\/\\/[^\\s/$.?#].[^\\s]*$|^$",
    },
  ],
  // Loket.nl's ids (a .NET document): a GUID pattern of upper-case hex only, with optional
  // braces and hyphens, beside `format: uuid`; few values made from the pattern are uuids
  [
    "a uuid whose pattern takes upper-case hex only",
    {
      t: "string",
      format: "uuid",
      pattern: "^[{(]?[0-9A-F]{8}[-]?([0-9A-F]{4}[-]?){3}[0-9A-F]{12}[)}]?$",
    },
  ],
  // MongoDB Atlas's IP addresses: each octet ends in `.` not before the end, or the end, a
  // choice only the lookahead checks (1 in 16 made at random was an IPv4 address)
  [
    "an alternative whose lookahead decides, checked only after",
    {
      t: "string",
      pattern:
        "^((25[0-5]|(2[0-4]|1\\d|[1-9]|)\\d)(\\.(?!$)|$)){4}|([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$",
    },
  ],
  // exclusive bounds and multiples (OpenAI's `exclusiveMinimum: 0` temperatures, prices in cents)
  ["a number between exclusive bounds", { t: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ["an integer above an exclusive bound", { t: "integer", exclusiveMinimum: 7, maximum: 8 }],
  ["a number in cents", { t: "number", minimum: 0.001, maximum: 3, multipleOf: 0.01 }],
  ["an integer multiple of 2.5", { t: "integer", multipleOf: 2.5 }],
  ["a number below an exclusive bound alone", { t: "number", exclusiveMaximum: -2 }],
  // int64 bounds as a double: 2^63 - 1 is 9223372036854775807, read as 9223372036854775808
  [
    "an integer up to 2^63 - 1",
    { t: "integer", minimum: 9223372036854775000, maximum: 9223372036854775807 },
  ],
  // an array's count (OpenAI's and AWS's minItems and maxItems): one item is not enough for
  // a minItems of 2, too many for a maxItems of 0
  ["an array of at least two", { t: "array", items: { t: "integer" }, minItems: 2, maxItems: 4 }],
  ["an array of none", { t: "array", items: { t: "string" }, maxItems: 0 }],
  // a PATCH body of at least one field, a map of at least two entries and at most three
  [
    "an object of at least one entry",
    { t: "object", fields: [{ name: "a", shape: { t: "string" } }], minProperties: 1 },
  ],
  [
    "a map of two or three entries",
    { t: "map", values: { t: "integer" }, minProperties: 2, maxProperties: 3 },
  ],
  [
    "an object of at most one entry",
    {
      t: "object",
      fields: [
        { name: "a", shape: { t: "string" } },
        { name: "b", shape: { t: "string" } },
      ],
      maxProperties: 1,
    },
  ],
  // Jira's and SendGrid's sets: unique items, as many as asked
  [
    "unique items",
    { t: "array", items: { t: "integer", minimum: 1, maximum: 9 }, minItems: 5, uniqueItems: true },
  ],
  [
    "arrays of at least two, nested",
    {
      t: "array",
      minItems: 2,
      items: {
        t: "array",
        minItems: 2,
        items: { t: "array", minItems: 2, items: { t: "boolean" } },
      },
    },
  ],
];

describe("sample: a made-up value passes its shape's checks", () => {
  it.each(cases)("%s", (_, shape) => {
    for (let seed = 1; seed <= 50; seed++) {
      const value = sample(shape, {}, seeded(seed));
      expect(validate(shapeValidator(shape, {}), value, "$"), JSON.stringify(value)).toEqual([]);
    }
  });

  it("stays bounded whatever lengths and repeats a spec gives", () => {
    const huge = { t: "string", pattern: "^(a+)+(b{2,})*$", minLength: 1e9 } as const;
    const value = sample(huge, {}, seeded(1));
    expect(typeof value).toBe("string");
    expect((value as string).length).toBeLessThanOrEqual(65_536);
    expect(fromPattern("^((a+)+)+$", seeded(1), 1024, true)).toBeUndefined();
    // past the depth where other lists end empty, a count is still met
    const deep = sample({ t: "array", items: { t: "integer" }, minItems: 2 }, {}, seeded(1), 6);
    expect((deep as unknown[]).length).toBe(2);
    // counts nested in counts multiply: one value gets at most 10,000 items in all
    const nested = {
      t: "array",
      minItems: 1000,
      items: { t: "array", minItems: 1000, items: { t: "integer" } },
    } as const;
    const made = sample(nested as unknown as Shape, {}, seeded(1)) as unknown[][];
    expect(made.flat().length + made.length).toBeLessThanOrEqual(10_000);
    const many = sample({ t: "array", items: { t: "boolean" }, minItems: 1e9 }, {}, seeded(1));
    expect((many as unknown[]).length).toBe(100);
    // a type that always holds itself has no finite value: the made-up one ends anyway
    const tree: Shape = {
      t: "object",
      fields: [
        {
          name: "kids",
          required: true,
          shape: { t: "array", minItems: 1, items: { t: "ref", name: "Tree" } },
        },
      ],
    };
    const table = { Tree: tree };
    expect(JSON.stringify(sample(tree, table, seeded(1))).length).toBeLessThan(1_000);
  });

  it("makes a value of the pattern itself for negated escapes, Unicode properties, character codes and lookaheads", () => {
    for (const pattern of [
      "^alias\\/\\S+",
      "^(?![aA]{1}[wW]{1}[sS]{1}:)([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+)$",
      "^\\p{Lu}\\p{Ll}+$",
      "^\\D{3}\\W[\\S]$",
      // characters by their codes, and a range that ends at an escape (ReadMe's API paths)
      "^[^\\x00-\\x1F]+$",
      "^[\\u0041-\\u005A]{3}$",
      // a GUID in braces or without them (ReadMe's schema-validation example)
      "^(?:{[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7}}|[0-9a-fA-F]{4}(?:-?[0-9a-fA-F]{4}){7})$",
      String.raw`\/apis\/((([a-z0-9-_ ]|[^\\x00-\\x7F])+.(json|yaml|yml)))`,
      // a letter that escapes nothing is the letter (Python's \z, as the validators read it)
      "^[\\w.@+-]+\\z",
      // an anchor inside that leaves only the shortest value (Okta's durations: only `P`)
      "^P(?:$)(\\d+Y)?(\\d+M)?(\\d+W)?(\\d+D)?(T(?:\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?$",
      // word boundaries, which write nothing (Unit's URLs)
      String.raw`(http(s)?:\/\/.)?(www\.)?[-a-zA-Z0-9@:%._\+~#=]{2,256}\.[a-z]{2,6}\b([-a-zA-Z0-9@:%_\+.~#?&//=]*)`,
      "^\\bid-\\d{3}\\B\\d$",
      // a long fixed count: an Ethereum blob, 131,072 bytes in hex (the beacon node's API)
      "^0x[a-fA-F0-9]{262144}$",
      // a password policy: lookaheads each asking for a kind somewhere, a class holding an
      // escaped ] (Eclipse Kapua's users: no value of 24 random tries had all five)
      "^.*(?=.{12,})(?=.*\\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[!\\\"\\#$%&'()*+,\\-./:;<=>?@\\[\\]\\\\^_`{|}~]).*$",
      "^[\\[\\]]{2}$",
    ])
      for (let seed = 1; seed <= 20; seed++) {
        const made = fromPattern(pattern, seeded(seed));
        expect(made, pattern).toBeDefined();
        expect(patternRegExp(pattern).test(made!), `${pattern}: ${made}`).toBe(true);
      }
  });

  it("makes nothing where it cannot match a pattern, rather than a value that does not", () => {
    expect(fromPattern("(?<=a)b", seeded(1))).toBeUndefined();
    expect(fromPattern("a$b", seeded(1))).toBeUndefined();
  });
});

describe("the stand-in's checks of a union", () => {
  it("name its named members as the generated validators do (the Notion trial saw variant 1, variant 2)", () => {
    const types = {
      OrFilter: {
        t: "object",
        fields: [{ name: "or", shape: { t: "array", items: { t: "any" } }, required: true }],
      },
      AndFilter: {
        t: "object",
        fields: [{ name: "and", shape: { t: "array", items: { t: "any" } }, required: true }],
      },
    } as const;
    const shape = {
      t: "union",
      variants: [
        { t: "ref", name: "OrFilter" },
        { t: "ref", name: "AndFilter" },
      ],
    } as const;
    expect(
      validate(shapeValidator(shape as never, types as never), { x: 1 }, "body.filter"),
    ).toEqual([
      { path: "body.filter", message: "matches none of OrFilter, AndFilter (it is an object)" },
    ]);
  });
});
