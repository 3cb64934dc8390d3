/**
 * JSON Schema 2020-12 (the dialect of OpenAPI 3.1) for IR type nodes, and the
 * `components.schemas` of the document: one schema per named type and per parameters
 * interface. The mapping follows types-file.ts, so that openapi-typescript's output for a
 * schema and our TypeScript type are assignable both ways:
 *
 * - nullable: `type: [T, "null"]`; a nullable reference is `anyOf: [{$ref}, {type: "null"}]`
 * - `unknown` / `unspecified`: `{}` (any JSON value), a gap note for `unspecified`
 * - literal: `type` + `const` (nullable: `enum: [value, null]`); enum: `type` + `enum`
 * - open enum: `anyOf: [{type, enum: known}, {type}]`, the known values kept as an enum
 * - object: `properties` + `required`; open: `additionalProperties: true`; no fields and
 *   closed: `additionalProperties: false`; otherwise `additionalProperties` is left out, as
 *   the validators let unlisted fields pass. `extends` is flattened (the IR gives every
 *   field, inherited ones included) and named in `x-extends`.
 * - map: `type: object` + `additionalProperties: <values>`
 * - constraints: `format` (the model's name, standard or not), `pattern`, `prefix` as the
 *   pattern `^prefix` (in `allOf` when there is a pattern too), lengths, bounds, `x-unit`
 * - untagged union: `oneOf` of the members when no two can hold the same JSON value by type,
 *   else `anyOf`; nullable adds `{type: "null"}`
 * - tagged union: `oneOf` of the variants' `$ref`s + `discriminator: {propertyName, mapping}`;
 *   open: `x-apigen-open: true` (JSON Schema cannot say "or any object with another tag"
 *   next to a discriminator; tools that do not know the extension see a closed union)
 * - docs: `description`, `examples: [example]`, `deprecated`, `x-undocumented`
 */
import { shorthandOf } from "../../ir/generics.ts";
import type {
  Constraints,
  Field,
  GenericType,
  Literal,
  NamedType,
  ParamsType,
  TypeNode,
} from "../../ir/model.ts";
import { notesOf, obj, text, type Json, type JsonObject } from "./json.ts";

/** Where a named type's schema lives. */
export function schemaRef(name: string): string {
  return `#/components/schemas/${name}`;
}

export interface SchemaOptions {
  /** Description lines placed before the node's own description. */
  lead?: string[];
  /**
   * Leave out description, deprecation and gap notes: the caller puts them on the object
   * that holds the schema (a parameter, a header).
   */
  bare?: boolean;
}

/** The sentence an open union's description leads with (`--import` reads it back). */
export const openUnionText = "Known variants; a value with any other tag is accepted too.";

/** The schema of one type node. */
export function schemaOf(node: TypeNode, options: SchemaOptions = {}): JsonObject {
  // Written key by key in the document's order (description, the shape's keywords, the
  // constraints', then examples, default, deprecated, x-undocumented): as one literal of
  // spreads filtered by obj(), each schema was built three times over, a good part of the
  // OpenAPI emitter on GitHub's API. No shape or constraint keyword is one of the four last.
  const out: JsonObject = {};
  const docs = node.docs;
  if (!options.bare) {
    const open =
      node.kind === "enum" && node.open
        ? "Known values; the full list is not shown."
        : node.kind === "union" && node.open
          ? openUnionText
          : undefined;
    const description = text(...(options.lead ?? []), open, docs.description);
    if (description !== undefined) out.description = description;
  }
  Object.assign(out, shapeOf(node), constraintKeywords(node.constraints));
  if (docs.example !== undefined) out.examples = [docs.example as Json];
  if (docs.default !== undefined) out.default = docs.default as Json;
  if (!options.bare && docs.deprecated) out.deprecated = true;
  const notes = options.bare ? undefined : notesOf(docs);
  if (notes !== undefined) out["x-undocumented"] = notes;
  return out;
}

/** `schema`, or `anyOf: [schema, { type: "null" }]` when nullable. */
function orNull(schema: JsonObject, nullable: boolean): JsonObject {
  return nullable ? { anyOf: [schema, { type: "null" }] } : schema;
}

/** `T` or `[T, "null"]`. */
function typeKeyword(name: string, nullable: boolean): Json {
  return nullable ? [name, "null"] : name;
}

function shapeOf(node: TypeNode): JsonObject {
  switch (node.kind) {
    case "primitive":
      // Bytes are a string whose content is not JSON text (JSON Schema 2020-12 contentMediaType).
      if (node.name === "binary")
        return {
          type: typeKeyword("string", node.nullable),
          contentMediaType: "application/octet-stream",
        };
      return { type: typeKeyword(node.name, node.nullable) };
    case "unknown":
      return {};
    // In a generic type's body (`x-apigen-generics`): any value to other tools.
    case "param":
      return orNull({ "x-apigen-param": node.name }, node.nullable);
    case "ref":
      // A use of a generic type inside a generic type's body names no schema: it has none
      // until the body's parameters are given.
      if (node.generic && node.generic.name === node.name)
        return orNull(
          {
            "x-apigen-generic": {
              name: node.generic.name,
              args: node.generic.args.map(shorthandOf),
            },
          },
          node.nullable,
        );
      return orNull({ $ref: schemaRef(node.name) }, node.nullable);
    case "array":
      return { type: typeKeyword("array", node.nullable), items: schemaOf(node.items) };
    case "map":
      return {
        type: typeKeyword("object", node.nullable),
        additionalProperties: schemaOf(node.values),
      };
    case "object": {
      const required = node.fields.filter((f) => f.required).map((f) => f.name);
      return obj({
        type: typeKeyword("object", node.nullable),
        properties: node.fields.length
          ? Object.fromEntries(node.fields.map((f) => [f.name, fieldSchemaOf(f)]))
          : undefined,
        required: required.length ? required : undefined,
        additionalProperties: node.open ? true : node.fields.length === 0 ? false : undefined,
        "x-extends": node.base?.name,
      });
    }
    case "literal": {
      const type = literalType([node.value]);
      return node.nullable
        ? { type: [type, "null"], enum: [node.value, null] }
        : { type, const: node.value };
    }
    case "enum": {
      const type = literalType(node.values);
      const values: Json[] = [...node.values];
      if (!node.open || type === "boolean") {
        return {
          type: typeKeyword(type, node.nullable),
          enum: node.nullable ? [...values, null] : values,
        };
      }
      return {
        anyOf: [{ type, enum: values }, { type }, ...(node.nullable ? [{ type: "null" }] : [])],
      };
    }
    case "union":
      return unionSchema(node);
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The schema of a union: see the header. */
function unionSchema(node: TypeNode & { kind: "union" }): JsonObject {
  const members: Json[] = node.variants.map((v) => schemaOf(v));
  if (node.nullable) members.push({ type: "null" });
  const tag = node.discriminator;
  if (!tag) return { [disjoint(node.variants) ? "oneOf" : "anyOf"]: members };
  return obj({
    oneOf: members,
    discriminator: {
      propertyName: tag.field,
      mapping: Object.fromEntries(tag.cases.map((c) => [c.value, schemaRef(c.type)])),
    },
    "x-apigen-open": node.open ? true : undefined,
  });
}

/**
 * Whether no JSON value can match two members, judged by the JSON types each member admits
 * (`integer` within `number`); a reference or `unknown` may admit anything, so it is not.
 */
function disjoint(variants: readonly TypeNode[]): boolean {
  const seen = new Set<string>();
  for (const v of variants) {
    const kinds = jsonKinds(v);
    if (!kinds || kinds.some((k) => seen.has(k))) return false;
    kinds.forEach((k) => seen.add(k));
  }
  return true;
}

/** The JSON types a value of `node` may have, or undefined when that is not known here. */
function jsonKinds(node: TypeNode): string[] | undefined {
  const kinds = (() => {
    switch (node.kind) {
      case "primitive":
        return node.name === "integer" || node.name === "number" ? ["number"] : [node.name];
      case "literal":
      case "enum": {
        const value = node.kind === "literal" ? node.value : node.values[0];
        return [typeof value];
      }
      case "array":
        return ["array"];
      case "map":
      case "object":
        return ["object"];
      case "ref":
      case "param":
      case "unknown":
      case "union":
        return undefined;
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
      }
    }
  })();
  return kinds && node.nullable ? [...kinds, "null"] : kinds;
}

/** The JSON Schema type of a list of literals of one kind. */
function literalType(values: readonly Literal[]): string {
  const first = values[0];
  if (typeof first === "string") return "string";
  if (typeof first === "boolean") return "boolean";
  return values.every((v) => Number.isInteger(v)) ? "integer" : "number";
}

/** A regular expression matching `value` literally; valid with and without the `u` flag. */
export function escapeRegExp(value: string): string {
  return value.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/** Validation keywords of the model's constraints; `prefix` becomes the pattern `^prefix`. */
function constraintKeywords(c: Constraints): JsonObject {
  const prefixPattern = c.prefix !== undefined ? `^${escapeRegExp(c.prefix)}` : undefined;
  return obj({
    format: c.format,
    pattern: c.pattern ?? prefixPattern,
    allOf:
      c.pattern !== undefined && prefixPattern !== undefined
        ? [{ pattern: prefixPattern }]
        : undefined,
    minLength: c.minLength,
    maxLength: c.maxLength,
    minimum: c.minimum,
    maximum: c.maximum,
    exclusiveMinimum: c.exclusiveMinimum,
    exclusiveMaximum: c.exclusiveMaximum,
    multipleOf: c.multipleOf,
    minItems: c.minItems,
    maxItems: c.maxItems,
    uniqueItems: c.uniqueItems,
    minProperties: c.minProperties,
    maxProperties: c.maxProperties,
    "x-unit": c.unit,
  });
}

/** How each placement of a parameter is said in its description. */
export const placementText: Record<ParamsType["params"][number]["placement"], string> = {
  path: "Travels in the path.",
  query: "Travels in the query string.",
  trailing: "Travels after the path, in the order of the parameters.",
  header: "Travels as a request header of this exact name.",
};

/** The schema of a parameters interface: an object of its parameters, path and trailing ones required. */
function paramsSchemaOf(paramsType: ParamsType): JsonObject {
  const required = paramsType.params.filter((p) => p.required).map((p) => p.name);
  return obj({
    description: `Parameters of ${paramsType.owner}.`,
    type: "object",
    properties: Object.fromEntries(
      paramsType.params.map((p) => [
        p.name,
        schemaOf(p.type, { lead: [placementText[p.placement]] }),
      ]),
    ),
    required: required.length ? required : undefined,
    // Generated from the endpoint, not written in the spec: an import leaves it out.
    "x-apigen-params": paramsType.owner,
  });
}

/**
 * The schema of a named type. A use of a generic type (`List<Customer>`) has one of its own
 * with the generic's body filled in, and says which use it is in `x-apigen-generic`, so that
 * an import writes `List<Customer>` again.
 */
function namedSchemaOf(named: NamedType): JsonObject {
  const schema = schemaOf(named.source ?? named.type);
  if (!named.instance) return schema;
  return {
    ...schema,
    "x-apigen-generic": {
      name: named.instance.name,
      args: named.instance.args.map(shorthandOf),
    },
  };
}

/** `components.schemas`: every named type in model order, then every parameters interface. */
export function componentSchemas(
  types: readonly NamedType[],
  paramsTypes: readonly ParamsType[],
): JsonObject {
  return Object.fromEntries([
    // a writable view (`PetWritable`) is its type's readOnly fields, said in that type's schema
    ...types.flatMap((named) => (named.view ? [] : [[named.name, namedSchemaOf(named)] as const])),
    ...paramsTypes.map((p) => [p.name, paramsSchemaOf(p)] as const),
  ]);
}

/**
 * `components.x-apigen-generics`: each generic type's parameters and body, each parameter
 * in it written `{ "x-apigen-param": "T" }` (any value, to other tools). OpenAPI has no
 * generics: tools read the schema of each use; an import restores the declarations.
 */
export function genericSchemas(generics: readonly GenericType[]): JsonObject | undefined {
  if (!generics.length) return undefined;
  return Object.fromEntries(
    generics.map((g) => [g.name, { typeParams: [...g.params], schema: schemaOf(g.type) }]),
  );
}

/**
 * A field's schema: `readOnly` or `writeOnly` when only one side writes it; an expandable one
 * (an id or the object) says so in `x-apigen-expandable`.
 */
function fieldSchemaOf(field: Field): JsonObject {
  const schema = schemaOf(field.type);
  if (field.access) schema[field.access] = true;
  return field.expandable ? { ...schema, "x-apigen-expandable": true } : schema;
}
