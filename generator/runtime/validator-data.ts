/**
 * Validators written as data. The generated validators hold each shape as JSON text and build
 * it here, with the combinators of `validate.ts`, at its first use. A type checker reads one
 * string where it read nested combinator calls: on GitHub's API those calls were a quarter of
 * the package's type-check time (issue 15), and the text is cheaper to generate than the calls
 * are to print. What is built is the same validator the calls made.
 *
 * A shape is a name (`"string"`, `"integer"`, `"number"`, `"boolean"`, `"binary"`,
 * `"anything"`, or a named type's validator, `"validateLabel"`), or `[combinator,
 * ...arguments]` with the arguments of that combinator, shapes where it takes validators:
 * `["object", { "id": "string" }, ["id"]]`, `["array", "validateLabel"]` (with its count,
 * `["array", "string", { "maxItems": 5 }]`). The text is
 * `[names, shape]`: every combinator, validator and format the shape names is listed in
 * `names` and passed beside the text in that order, so that a bundle keeps only those its
 * validators use, as it did when they were calls.
 */
import type * as Validate from "./validate.js";
import type { Validator } from "./validate.js";

/** A shape as the JSON text holds it. */
export type ValidatorData = string | readonly [string, ...unknown[]];

/** `union` of unions.ts (typed here: a package without unions has no unions.ts). */
type UnionOf = (members: readonly Validator[], names: readonly string[]) => Validator;
/** `tagged` of unions.ts. */
type TaggedOf = (
  field: string,
  variants: Readonly<Record<string, Validator>>,
  open: boolean,
) => Validator;

/**
 * What a shape's text names, by that name: combinators, validators of named types, formats
 * (`uuidFormat`). Typed loosely on purpose: the generator passes exactly the names the text
 * uses (test/validator-data.test.ts), and a union of their types made the checker relate
 * every entry to it (4% more assignability checks on GitHub's package) for no safety the
 * tests do not already give.
 */
type DataRefs = Readonly<Record<string, unknown>>;

/**
 * The validator the JSON text `[names, shape]` describes; `refs` are what those names stand
 * for, in the same order. Passed as arguments rather than as an object literal: to a type
 * checker each is one identifier, where an object literal is a type to build with a property
 * per name and to compare with `DataRefs` (on GitHub's 2,156 validators, about 0.1 s of
 * tsc 6, and a symbol per property to bind).
 */
export function fromData(text: string, ...refs: unknown[]): Validator {
  const [names, shape] = JSON.parse(text) as [string[], ValidatorData];
  const byName: Record<string, unknown> = Object.create(null);
  names.forEach((name, i) => (byName[name] = refs[i]));
  return build(shape, byName);
}

/** What `refs` holds under a name; a name it lacks is a generator bug, said as such. */
function named<T>(refs: DataRefs, name: string): T {
  if (!(name in refs))
    throw new Error(`validator data names ${JSON.stringify(name)}, which was not passed`);
  return refs[name] as T;
}

/** A shape that is a name: a string or number without rules, or a validator as it is. */
function byName(name: string, refs: DataRefs): Validator {
  if (name === "string") return named<typeof Validate.string>(refs, "string")();
  if (name === "number") return named<typeof Validate.number>(refs, "number")();
  if (name === "integer") return named<typeof Validate.number>(refs, "number")({ integer: true });
  return named<Validator>(refs, name);
}

function build(data: ValidatorData, refs: DataRefs): Validator {
  if (typeof data === "string") return byName(data, refs);
  const [kind, a, b, c] = data;
  switch (kind) {
    case "string": {
      const { format, ...rules } = a as Omit<Validate.StringRules, "format"> & { format?: string };
      const withFormat =
        format === undefined ? rules : { ...rules, format: named<Validate.Format>(refs, format) };
      return named<typeof Validate.string>(refs, kind)(withFormat);
    }
    case "number":
      return named<typeof Validate.number>(refs, kind)(a as Validate.NumberRules);
    case "nullable":
      return named<(inner: Validator) => Validator>(refs, kind)(build(a as ValidatorData, refs));
    case "map":
      return named<typeof Validate.map>(refs, kind)(
        build(a as ValidatorData, refs),
        b as Validate.EntryRules | undefined,
      );
    case "array":
      return named<typeof Validate.array>(refs, kind)(
        build(a as ValidatorData, refs),
        b as Validate.ArrayRules | undefined,
      );
    case "object":
      return named<typeof Validate.object>(refs, kind)(
        each(a, refs),
        (b as string[]) ?? [],
        c as Validate.EntryRules | undefined,
      );
    case "literal":
      return named<typeof Validate.literal>(refs, kind)(a as string | number | boolean);
    case "oneOf":
      return named<typeof Validate.oneOf>(refs, kind)(
        a as (string | number | boolean)[],
        b as boolean,
      );
    case "union": {
      const members = (a as ValidatorData[]).map((member) => build(member, refs));
      return named<UnionOf>(refs, kind)(members, b as string[]);
    }
    case "tagged":
      return named<TaggedOf>(refs, kind)(a as string, each(b, refs), c as boolean);
    default:
      throw new Error(`unknown validator kind ${JSON.stringify(kind)}`);
  }
}

/** The validators of an object's fields or a tagged union's variants, by the same keys. */
function each(data: unknown, refs: DataRefs): Record<string, Validator> {
  // No prototype: a field named `__proto__` stays a field.
  const out: Record<string, Validator> = Object.create(null);
  for (const [key, value] of Object.entries(data as Record<string, ValidatorData>))
    out[key] = build(value, refs);
  return out;
}
