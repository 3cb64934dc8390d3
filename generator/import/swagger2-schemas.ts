/**
 * Swagger 2.0's schemas and simple values (parameters, headers) as OpenAPI 3.0 schemas: the
 * parts of swagger2.ts that work on one value. References move with their sections
 * (`#/definitions/X` -> `#/components/schemas/X`), `x-nullable` becomes `nullable`, a
 * discriminator's property name becomes a discriminator object, and `type: file` becomes
 * bytes.
 */
import { isObject, setEntry } from "./context.ts";
import type { JsonObject, JsonValue } from "./document.ts";
import { movedRef } from "./pointer-map.ts";

/** The keys of a schema whose value is one schema. */
const schemaKeys = new Set(["items", "additionalProperties", "not"]);
/** The keys of a schema whose value is a list of schemas. */
const schemaListKeys = new Set(["allOf", "anyOf", "oneOf"]);

/** A Swagger 2.0 schema as an OpenAPI 3.0 schema (a new value; the input is not changed). */
export function schemaOf(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$ref" && typeof value === "string") setEntry(out, key, movedRef(value));
    else if (key === "x-nullable") {
      if (value === true) out.nullable = true;
    } else if (key === "discriminator" && typeof value === "string")
      out.discriminator = { propertyName: value };
    else if (key === "type" && value === "file") {
      out.type = "string";
      out.format = "binary";
    } else if (key === "properties" && isObject(value)) {
      const properties: JsonObject = {};
      for (const [name, property] of Object.entries(value))
        setEntry(properties, name, schemaOf(property));
      out.properties = properties;
    } else if (schemaKeys.has(key)) setEntry(out, key, schemaOf(value));
    else if (schemaListKeys.has(key) && Array.isArray(value))
      setEntry(out, key, value.map(schemaOf));
    else setEntry(out, key, value);
  }
  return out;
}

/** The keys of a Swagger 2.0 parameter or header that describe its value, not the parameter. */
const valueKeys = [
  "type",
  "format",
  "items",
  "default",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "enum",
  "multipleOf",
  "x-nullable",
];

/**
 * The schema of a non-body parameter, a header or an array's items (`type`, `format`,
 * `items` and the checks sit on the parameter itself in Swagger 2.0). `collectionFormat`
 * belongs to the parameter (swagger2.ts reads it) and is left out here.
 */
export function simpleSchemaOf(simple: JsonObject): JsonObject {
  const picked: JsonObject = {};
  for (const key of valueKeys)
    if (Object.hasOwn(simple, key))
      picked[key] =
        key === "items" && isObject(simple.items) ? simpleSchemaOf(simple.items) : simple[key]!;
  return schemaOf(picked) as JsonObject;
}
