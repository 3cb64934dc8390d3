/**
 * Type nodes as the compact shapes the stand-in and the trigger build sample values from
 * (runtime/testing/shape.ts): the same facts the validators check, with the spec's examples.
 */
import type { Shape, ShapeBody, ShapeTable } from "../runtime/testing/shape.ts";
import { exampleFits, type TypeLookup } from "./example-fits.ts";
import type { NamedType, TypeNode } from "./model.ts";
import { childTypes } from "./walk.ts";

/**
 * The shape of a type node; `types` resolves its references. The spec's example comes with
 * it only where it is a value of the type (example-fits.ts): the stand-in answers with it.
 */
export function shapeOf(node: TypeNode, types: TypeLookup): Shape {
  const body = bodyOf(node, types);
  return {
    ...body,
    ...(node.nullable ? { nullable: true } : {}),
    ...(node.docs.example !== undefined && exampleFits(node, types)
      ? { example: node.docs.example }
      : {}),
  };
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

function bodyOf(node: TypeNode, types: TypeLookup): ShapeBody {
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
        return defined({ t: node.name, minimum: c.minimum, maximum: c.maximum });
      return { t: node.name };
    case "unknown":
    case "param":
      return { t: "any" };
    case "ref":
      return { t: "ref", name: node.name };
    case "array":
      return { t: "array", items: shapeOf(node.items, types) };
    case "map":
      return { t: "map", values: shapeOf(node.values, types) };
    case "object":
      return {
        t: "object",
        fields: node.fields.map((f) => ({
          name: f.name,
          shape: shapeOf(f.type, types),
          ...(f.required ? { required: true } : {}),
        })),
      };
    case "literal":
      return { t: "literal", value: node.value };
    case "enum":
      return { t: "enum", values: node.values, ...(node.open ? { open: true } : {}) };
    case "union":
      return {
        t: "union",
        variants: node.variants.map((v) => shapeOf(v, types)),
        ...(node.discriminator
          ? {
              tag: {
                field: node.discriminator.field,
                values: node.discriminator.cases.map((c) => c.value),
              },
            }
          : {}),
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
