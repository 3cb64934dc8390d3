/**
 * Validators built from the stand-in's shapes at run time, out of the runtime's own
 * combinators (runtime/validate.ts): the trigger checks a merchant server's answer with them
 * in the generator's process, where no generated validators exist.
 */
import type { Shape, ShapeTable } from "../runtime/testing/shape.ts";
import * as v from "../runtime/validate.ts";

/** The validator of a shape; references are looked up in `types` when first checked. */
export function shapeValidator(shape: Shape, types: ShapeTable): v.Validator {
  const made = new Map<string, v.Validator>();
  const build = (s: Shape): v.Validator => {
    const inner = s.t === "ref" ? reference(s.name) : bodyValidator(s, build);
    return s.nullable ? v.nullable(inner) : inner;
  };
  // Built when first used, so recursive types end.
  const reference =
    (name: string): v.Validator =>
    (value, path, issues) => {
      let check = made.get(name);
      if (!check) {
        const target = types[name];
        check = target ? build(target) : v.anything;
        made.set(name, check);
      }
      check(value, path, issues);
    };
  return build(shape);
}

/** The validator of one shape's own kind; `build` makes those of the shapes inside it. */
function bodyValidator(s: Shape, build: (inner: Shape) => v.Validator): v.Validator {
  switch (s.t) {
    case "string": {
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
      return v.array(build(s.items));
    case "map":
      return v.map(build(s.values));
    case "object":
      return v.object(
        Object.fromEntries(s.fields.map((f) => [f.name, build(f.shape)])),
        s.fields.filter((f) => f.required).map((f) => f.name),
      );
    case "literal":
      return v.literal(s.value);
    case "enum":
      return v.oneOf(s.values, s.open ?? false);
    case "union":
      return unionValidator(s.variants.map(build));
    default: {
      const unhandled: never = s;
      throw new Error(`unknown shape ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Passes when any variant passes; otherwise lists the problems of the closest one. */
function unionValidator(variants: v.Validator[]): v.Validator {
  return (value, path, issues) => {
    let closest: v.ValidationIssue[] | undefined;
    for (const check of variants) {
      const found = v.validate(check, value, path);
      if (found.length === 0) return;
      if (!closest || found.length < closest.length) closest = found;
    }
    issues.push(...(closest ?? []));
  };
}
