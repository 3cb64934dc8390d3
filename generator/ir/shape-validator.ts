/**
 * Validators built from the stand-in's shapes (runtime/testing/shape.ts), out of the runtime's
 * own combinators (runtime/validate.ts, runtime/unions.ts): the one way the generator's
 * process checks a value against a type where no generated validator exists. The trigger
 * checks a merchant server's answer with them, `apigen mock` a request, and the generator a
 * spec's example before the stand-in answers with it (stand-in-shapes.ts, `exampleFits`).
 */
import type { Shape, ShapeTable } from "../runtime/testing/shape.ts";
import { tagged, union } from "../runtime/unions.ts";
import * as v from "../runtime/validate.ts";
import { hasNestedQuantifier } from "./check-pattern.ts";

export interface ShapeValidatorOptions {
  /**
   * A pattern prone to catastrophic backtracking (check-pattern.ts): `run` it, as the
   * generated validators do (the spec was warned), or `refuse` every value of it, where the
   * generator itself would run a spec's pattern on the spec's own example.
   */
  riskyPatterns?: "run" | "refuse";
}

/** Named shapes: a table, or a lookup that makes them when asked. */
export type ShapeLookup = ShapeTable | ((name: string) => Shape | undefined);

/** The validator of a shape; references are looked up in `types` when first checked. */
export function shapeValidator(
  shape: Shape,
  types: ShapeLookup,
  options: ShapeValidatorOptions = {},
): v.Validator {
  const find =
    typeof types === "function"
      ? types
      : (name: string) => (Object.hasOwn(types, name) ? types[name] : undefined);
  const made = new Map<string, v.Validator>();
  const build = (s: Shape): v.Validator => {
    const inner = s.t === "ref" ? reference(s.name) : bodyValidator(s, build, options);
    return s.nullable ? v.nullable(inner) : inner;
  };
  // Built when first used, so recursive types end.
  const reference =
    (name: string): v.Validator =>
    (value, path, issues) => {
      let check = made.get(name);
      if (!check) {
        const target = find(name);
        check = target ? build(target) : v.anything;
        made.set(name, check);
      }
      check(value, path, issues);
    };
  return build(shape);
}

/** Refuses every value: a string whose pattern is not run. */
const riskyPattern: v.Validator = (_value, path, issues) => {
  issues.push({ path, message: "has a pattern prone to catastrophic backtracking" });
};

/** The validator of one shape's own kind; `build` makes those of the shapes inside it. */
function bodyValidator(
  s: Shape,
  build: (inner: Shape) => v.Validator,
  options: ShapeValidatorOptions,
): v.Validator {
  switch (s.t) {
    case "string": {
      if (
        s.pattern !== undefined &&
        options.riskyPatterns === "refuse" &&
        hasNestedQuantifier(s.pattern)
      )
        return riskyPattern;
      const format = s.format !== undefined ? v.formats[s.format] : undefined;
      return v.string({
        ...(format ? { format } : {}),
        ...(s.pattern !== undefined ? { pattern: s.pattern } : {}),
        ...(s.prefix !== undefined ? { prefix: s.prefix } : {}),
        ...(s.minLength !== undefined ? { minLength: s.minLength } : {}),
        ...(s.maxLength !== undefined ? { maxLength: s.maxLength } : {}),
      });
    }
    case "integer":
    case "number":
      return v.number({
        integer: s.t === "integer",
        ...(s.minimum !== undefined ? { minimum: s.minimum } : {}),
        ...(s.maximum !== undefined ? { maximum: s.maximum } : {}),
        ...(s.exclusiveMinimum !== undefined ? { exclusiveMinimum: s.exclusiveMinimum } : {}),
        ...(s.exclusiveMaximum !== undefined ? { exclusiveMaximum: s.exclusiveMaximum } : {}),
        ...(s.multipleOf !== undefined ? { multipleOf: s.multipleOf } : {}),
      });
    case "boolean":
      return v.boolean;
    case "binary":
      return v.binary;
    case "any":
      return v.anything;
    case "ref":
      throw new Error("references are built by shapeValidator");
    case "array":
      return v.array(build(s.items), {
        ...(s.minItems !== undefined ? { minItems: s.minItems } : {}),
        ...(s.maxItems !== undefined ? { maxItems: s.maxItems } : {}),
        ...(s.uniqueItems ? { uniqueItems: true } : {}),
      });
    case "map":
      return v.map(build(s.values), entryRules(s));
    case "object":
      return v.object(
        Object.fromEntries(s.fields.map((f) => [f.name, build(f.shape)])),
        s.fields.filter((f) => f.required).map((f) => f.name),
        entryRules(s),
      );
    case "literal":
      return v.literal(s.value);
    case "enum":
      return v.oneOf(s.values, s.open ?? false);
    case "union": {
      // the runtime's unions: a tagged one reads its tag first, an untagged one gives up past
      // a bound of attempts, so a hostile answer cannot make a check exponential
      const members = s.variants.map(build);
      const tag = s.tag;
      return tag
        ? tagged(
            tag.field,
            Object.fromEntries(tag.values.map((value, i) => [value, members[i]!])),
            s.open ?? false,
          )
        : union(
            members,
            // named as the generated validators name them: a named type by its name
            s.variants.map((variant, i) =>
              variant.t === "ref" ? variant.name : `variant ${i + 1}`,
            ),
          );
    }
    default: {
      const unhandled: never = s;
      throw new Error(`unknown shape ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A map's or an object's count of entries, as the validators take it. */
function entryRules(s: { minProperties?: number; maxProperties?: number }): v.EntryRules {
  return {
    ...(s.minProperties !== undefined ? { minProperties: s.minProperties } : {}),
    ...(s.maxProperties !== undefined ? { maxProperties: s.maxProperties } : {}),
  };
}
