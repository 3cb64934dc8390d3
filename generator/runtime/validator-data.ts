/**
 * Validators written as data. The generated validators hold each shape as JSON text and build
 * it here, with the combinators of `validate.ts`, at its first use. A type checker reads one
 * string where it read nested combinator calls: on GitHub's API those calls were a third of
 * the package's type-check time (issue 15), and the text is cheaper to generate than the calls
 * are to print. What is built is the same validator the calls made.
 *
 * A shape is a basic name (`"string"`, `"integer"`, `"number"`, `"boolean"`, `"binary"`,
 * `"anything"`), the name of something the generated code passes in `refs` (a named type's
 * validator, a format, the union combinators), or `[kind, ...arguments]` with the arguments of
 * the combinator of that name: `["object", { "id": "string" }, ["id"]]`, `["array", "Label"]`.
 */
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
  type Format,
  type NumberRules,
  type StringRules,
  type Validator,
} from "./validate.js";

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
 * What a shape names besides the basic kinds, by that name: validators of named types,
 * formats (`uuidFormat`), and `union` and `tagged` (passed in, so that a package without
 * unions does not carry them). Typed loosely on purpose: the generator passes exactly the
 * names the text uses, and relating each entry to a union of their types was a measurable
 * part of a large package's type-check.
 */
export type DataRefs = Readonly<Record<string, unknown>>;

/** The validator the JSON text of a shape describes. */
export function fromData(text: string, refs: DataRefs = {}): Validator {
  return build(JSON.parse(text) as ValidatorData, refs);
}

const basic: Readonly<Record<string, () => Validator>> = {
  string: () => string(),
  integer: () => number({ integer: true }),
  number: () => number(),
  boolean: () => boolean,
  binary: () => binary,
  anything: () => anything,
};

function build(data: ValidatorData, refs: DataRefs): Validator {
  if (typeof data === "string") {
    if (Object.prototype.hasOwnProperty.call(basic, data)) return basic[data]!();
    return named(refs, data) as Validator;
  }
  const [kind, a, b, c] = data;
  switch (kind) {
    case "string": {
      const { format, ...rules } = a as Omit<StringRules, "format"> & { format?: string };
      return string(
        format === undefined ? rules : { ...rules, format: named(refs, format) as Format },
      );
    }
    case "number":
      return number(a as NumberRules);
    case "nullable":
      return nullable(build(a as ValidatorData, refs));
    case "array":
      return array(build(a as ValidatorData, refs));
    case "map":
      return map(build(a as ValidatorData, refs));
    case "object":
      return object(each(a, refs), (b as string[] | undefined) ?? []);
    case "literal":
      return literal(a as string | number | boolean);
    case "oneOf":
      return oneOf(a as (string | number | boolean)[], b as boolean);
    case "union": {
      const members = (a as ValidatorData[]).map((member) => build(member, refs));
      return (named(refs, "union") as UnionOf)(members, b as string[]);
    }
    case "tagged":
      return (named(refs, "tagged") as TaggedOf)(a as string, each(b, refs), c as boolean);
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

/** What `refs` holds under a name; a name it lacks is a generator bug, said as such. */
function named(refs: DataRefs, name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(refs, name))
    throw new Error(`validator data names ${JSON.stringify(name)}, which was not passed`);
  return refs[name]!;
}
