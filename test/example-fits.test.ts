/**
 * generator/ir/stand-in-shapes.ts `exampleFits`: whether a spec's example passes the package's own validators,
 * which decides whether the stand-in answers with it (stand-in-shapes.ts). A table of
 * given/want over the type kinds, from examples real documents wrote (the sweep's typed calls
 * found each: a date-time of another form, a value outside the enum, a null in a list, a
 * field the object requires missing), built from a spec text through the one pipeline.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApiModel } from "../generator/ir/model.ts";
import { exampleFits, shapeOf } from "../generator/ir/stand-in-shapes.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { tempDir } from "./helpers.ts";

function modelOf(types: string): ApiModel {
  const dir = tempDir("apigen-example-fits-");
  try {
    writeFileSync(
      join(dir, "api.yaml"),
      `api: { name: fits, title: Fits, version: 1.0.0 }\ntypes:\n${types}`,
    );
    return loadApiModel({ specDir: dir }).model;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const model = modelOf(`
  Stamp: { type: string, format: date-time }
  Level: { enum: [low, high] }
  Check:
    fields:
      country: { type: string, required: true }
      level: Level
  Card: { fields: { kind: { const: card }, last4: string } }
  Bank: { fields: { kind: { const: bank }, iban: string } }
  Method: { discriminator: kind, union: { card: Card, bank: Bank } }
  Cases:
    fields:
      stamp: { type: Stamp, example: "2019-03-04:17" }
      stampOk: { type: Stamp, example: "2026-01-02T03:04:05Z" }
      level: { type: Level, example: medium }
      levelOk: { type: Level, example: high }
      id: { type: string, format: uuid, example: "5be58fb51ed744d1b87481bd" }
      code: { type: string, maxLength: 10, example: "2019-03-04T00:00:00" }
      count: { type: integer, minimum: 1, example: 0 }
      ids: { type: "integer[]", example: [1, null] }
      idsOk: { type: "integer[]", example: [1, 2] }
      check: { type: Check, example: { level: low } }
      checkOk: { type: Check, example: { country: BR, level: low, extra: 1 } }
      name: { type: string, nullable: true, example: null }
      method: { type: Method, example: { kind: card, last4: 4242 } }
      methodOk: { type: Method, example: { kind: bank, iban: DE89 } }
      file: { type: binary, example: "Rule, Status" }
      any: { type: unknown, example: { anything: [1, "a"] } }
      site: { type: string, pattern: "^(a+)+$", example: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" }
`);

const cases = model.types.find((t) => t.name === "Cases")!;
const lookup = new Map(model.types.map((t) => [t.name, t] as const));
const field = (name: string) => {
  if (cases.type.kind !== "object") throw new Error("Cases is an object");
  return cases.type.fields.find((f) => f.name === name)!.type;
};

describe("exampleFits: an example is answered only when the package's validators accept it", () => {
  const table: [string, boolean][] = [
    ["stamp", false], // a date-time of another form, through a named alias
    ["stampOk", true],
    ["level", false], // not a value of the enum
    ["levelOk", true],
    ["id", false], // not a uuid
    ["code", false], // longer than maxLength
    ["count", false], // under the minimum
    ["ids", false], // a null item in a list of integers
    ["idsOk", true],
    ["check", false], // a required field missing
    ["checkOk", true], // fields the type does not list pass, as the validators let them
    ["name", true], // null, where the field is nullable
    ["method", false], // the tagged variant's field of the wrong type
    ["methodOk", true],
    ["file", false], // bytes: the stand-in makes its own
    ["any", true],
    // a pattern prone to catastrophic backtracking is not run on the example (Beezup's took
    // generate down for minutes); the stand-in makes its own value
    ["site", false],
  ];
  it.each(table)("%s: %s", (name, want) => {
    expect(exampleFits(field(name), lookup)).toBe(want);
  });

  it("the stand-in's shape keeps an example only where it fits", () => {
    expect(shapeOf(field("levelOk"), lookup)).toMatchObject({ example: "high" });
    expect(shapeOf(field("level"), lookup)).not.toHaveProperty("example");
    expect(shapeOf(field("check"), lookup)).not.toHaveProperty("example");
  });
});
