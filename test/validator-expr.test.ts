/**
 * The validators' shape data as the emitter writes it (generator/emit/shared/validator-expr.ts):
 * a field named `__proto__` stays a field of the text, in the order fields are given, and a
 * checked format names its runtime export (both are worked out on the emitter's fast path).
 */
import { describe, expect, it } from "vitest";
import type { Constraints, TypeNode, ValueFormat } from "../generator/ir/model.ts";
import { objectValidatorExpr } from "../generator/emit/shared/validator-expr.ts";
import * as runtime from "../generator/runtime/validate.ts";

const location = { file: "spec/types.yaml", line: 1, col: 1 };

function stringNode(constraints: Constraints = {}): TypeNode {
  return {
    kind: "primitive",
    name: "string",
    nullable: false,
    constraints,
    docs: { notes: [] },
    location,
  };
}

/** The `[names, shape]` text of a `fromData(...)` call, parsed. */
function dataOf(expr: ReturnType<typeof objectValidatorExpr>): [string[], unknown] {
  if (expr.kind !== "call") throw new Error(`expected a call, got ${expr.kind}`);
  const text = expr.args[0];
  if (text?.kind !== "literal" || typeof text.value !== "string")
    throw new Error("expected the data text first");
  return JSON.parse(text.value) as [string[], unknown];
}

describe("validator shape data", () => {
  it("keeps a field named __proto__ (and constructor) an own field, in the given order", () => {
    const fields = ["__proto__", "constructor", "b", "1"].map((name, i) => ({
      name,
      type: stringNode(),
      required: i % 2 === 0,
    }));
    const [, shape] = dataOf(objectValidatorExpr(fields));
    const [kind, members, required] = shape as [string, Record<string, unknown>, string[]];
    expect(kind).toBe("object");
    expect(Object.getPrototypeOf(members)).toBe(Object.prototype);
    // JSON.parse gives the same key order as the object the emitter wrote
    expect(Object.keys(members)).toEqual(["1", "__proto__", "constructor", "b"]);
    expect(Object.getOwnPropertyDescriptor(members, "__proto__")?.value).toBe("string");
    expect(required).toEqual(["__proto__", "b"]);
  });

  it("names each checked format by its runtime export", () => {
    for (const [format, checker] of Object.entries(runtime.formats)) {
      const exportName = Object.entries(runtime).find(
        ([name, value]) => value === checker && name !== "formats",
      )?.[0];
      expect(exportName, format).toBeDefined();
      const [names, shape] = dataOf(
        objectValidatorExpr([
          { name: "v", type: stringNode({ format: format as ValueFormat }), required: true },
        ]),
      );
      expect(names, format).toContain(exportName);
      expect(JSON.stringify(shape), format).toContain(JSON.stringify(exportName));
    }
  });

  it("writes a format that is documentation only as a plain string", () => {
    expect(runtime.formats["email"]).toBeUndefined();
    const [names] = dataOf(
      objectValidatorExpr([{ name: "v", type: stringNode({ format: "email" }), required: true }]),
    );
    expect(names).toEqual(["object", "string"]);
  });
});
