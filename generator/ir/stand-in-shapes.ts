/**
 * Type nodes as the compact shapes the stand-in and the trigger build sample values from
 * (runtime/testing/shape.ts): the same facts the validators check, with the spec's examples.
 */
import type { Shape, ShapeBody, ShapeTable } from "../runtime/testing/shape.ts";
import { validate } from "../runtime/validate.ts";
import type { TypeLookup } from "./callback-routing.ts";
import type { NamedType, TypeNode } from "./model.ts";
import { shapeValidator } from "./shape-validator.ts";
import { childTypes } from "./walk.ts";

/**
 * The shape of a type node; `types` resolves its references. The spec's example comes with
 * it only where it is a value of the type (`exampleFits`): the stand-in answers with it.
 */
export function shapeOf(node: TypeNode, types: TypeLookup, examples = true): Shape {
  const body = bodyOf(node, types, examples);
  return {
    ...body,
    ...(node.nullable ? { nullable: true } : {}),
    ...(examples && node.docs.example !== undefined && exampleFits(node, types)
      ? { example: node.docs.example }
      : {}),
  };
}

/** Per lookup, the shapes of its named types without examples: what an example is checked by. */
const checkedShapes = new WeakMap<TypeLookup, Map<string, Shape | undefined>>();

function bareShape(name: string, types: TypeLookup): Shape | undefined {
  let known = checkedShapes.get(types);
  if (!known) checkedShapes.set(types, (known = new Map()));
  if (!known.has(name)) {
    const target = types.get(name);
    known.set(name, target && shapeOf(target.type, types, false));
  }
  return known.get(name);
}

/**
 * Whether `node`'s example passes the checks of its type, as the package's validators make
 * them (shape-validator.ts): real documents give date-time examples such as "2019-03-04:17",
 * a null in a list of strings, an enum value the enum lacks, which the client's response
 * validation would refuse from the stand-in. A binary value's example shows its text (the
 * stand-in makes bytes of its own), and a pattern prone to catastrophic backtracking is not
 * run on an example here: Beezup's took generate down for minutes.
 */
export function exampleFits(node: TypeNode, types: TypeLookup): boolean {
  const example = node.docs.example;
  if (example === undefined) return true;
  if (node.kind === "primitive" && node.name === "binary") return false;
  const check = shapeValidator(shapeOf(node, types, false), (name) => bareShape(name, types), {
    riskyPatterns: "refuse",
  });
  return validate(check, example, "$").length === 0;
}

/**
 * Only the constraints that are set, so the printed table stays small. A for-in loop over
 * the literal's own keys, in their order, without the pairs of Object.entries: that took
 * ~70 ms of the IR on GitHub's API (node --cpu-prof, profile in the commit).
 */
function defined(value: Record<string, unknown> & { t: string }): ShapeBody {
  const out: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out as unknown as ShapeBody;
}

function bodyOf(node: TypeNode, types: TypeLookup, examples: boolean): ShapeBody {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive":
      if (node.name === "string")
        return defined({
          t: "string",
          format: c.format,
          pattern: c.pattern,
          prefix: c.prefix,
          minLength: c.minLength,
          maxLength: c.maxLength,
        });
      if (node.name === "integer" || node.name === "number")
        return defined({
          t: node.name,
          minimum: c.minimum,
          maximum: c.maximum,
          exclusiveMinimum: c.exclusiveMinimum,
          exclusiveMaximum: c.exclusiveMaximum,
          multipleOf: c.multipleOf,
        });
      return { t: node.name };
    case "unknown":
    case "param":
      return { t: "any" };
    case "ref":
      return { t: "ref", name: node.name };
    case "array":
      return defined({
        t: "array",
        items: shapeOf(node.items, types, examples),
        minItems: c.minItems,
        maxItems: c.maxItems,
        uniqueItems: c.uniqueItems,
      });
    case "map":
      return defined({
        t: "map",
        values: shapeOf(node.values, types, examples),
        minProperties: c.minProperties,
        maxProperties: c.maxProperties,
      });
    case "object":
      return defined({
        t: "object",
        fields: node.fields.map((f) => ({
          name: f.name,
          shape: shapeOf(f.type, types, examples),
          ...(f.required ? { required: true } : {}),
        })),
        minProperties: c.minProperties,
        maxProperties: c.maxProperties,
      });
    case "literal":
      return { t: "literal", value: node.value };
    case "enum":
      return { t: "enum", values: node.values, ...(node.open ? { open: true } : {}) };
    case "union":
      return {
        t: "union",
        variants: node.variants.map((v) => shapeOf(v, types, examples)),
        ...(node.discriminator
          ? {
              tag: {
                field: node.discriminator.field,
                values: node.discriminator.cases.map((c) => c.value),
              },
            }
          : {}),
        ...(node.open ? { open: true } : {}),
      };
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The named types `roots` reach, transitively, as shapes by name (in the model's order). */
export function shapeTableOf(
  types: readonly NamedType[],
  roots: readonly (TypeNode | undefined)[],
): ShapeTable {
  const byName = new Map(types.map((t) => [t.name, t]));
  const reached = new Set<string>();
  const visit = (node: TypeNode): void => {
    if (node.kind === "ref" && !reached.has(node.name)) {
      reached.add(node.name);
      const target = byName.get(node.name);
      if (target) visit(target.type);
    }
    childTypes(node).forEach(visit);
  };
  roots.forEach((r) => r && visit(r));
  return Object.fromEntries(
    types.filter((t) => reached.has(t.name)).map((t) => [t.name, shapeOf(t.type, byName)]),
  );
}
