/**
 * OpenAPI schemas to spec types: a shorthand where the schema is only a type (`string`,
 * `Pet[]`, `map<string>`), a mapping where it has facets or fields. Component schemas become
 * named types; `$ref`s become their names. What the format cannot say is a note.
 */
import { globalTypeNames, runtimeExportNames } from "../ir/reserved-names.ts";
import { pascalCase } from "../ir/casing.ts";
import { boundConflicts } from "../ir/bounds.ts";
import { constraintKeys } from "../ir/model.ts";
import { DiagnosticsError } from "../diagnostics/diagnostic.ts";
import { controlCharacter } from "../load/spec-text.ts";
import { openUnionText } from "../emit/openapi/schemas.ts";
import {
  componentsOf,
  isObject,
  locationKey,
  isScalarTypeName,
  note,
  ownDocument,
  setEntry,
  stringOf,
  under,
  withoutKey,
  type ImportContext,
  type TypeOut,
} from "./context.ts";
import { allFieldsOf, allOfType } from "./schema-allof.ts";
import { bytesType, isBinary } from "./schema-bytes.ts";
import { copyStringFacets, isCount, rangeConflict } from "./schema-pattern.ts";
import { cleanText, dropUnfitValues, hasControlCharacter } from "./schema-values.ts";
import {
  child,
  importError,
  pointerTokens,
  type JsonObject,
  type JsonValue,
  type Pointer,
} from "./document.ts";
import { genericUseText, typeParamText } from "./generics.ts";

/** The spec's string formats; others are noted. */
const formats = new Set([
  "uuid",
  "uri",
  "email",
  "date-time",
  "date",
  "timestamp",
  "currency-code",
  "MM-DD-YYYY",
  "YYYY-MM",
  "serialized-json",
  "comma-separated",
  "html",
  "phone",
  "uri-template",
]);
/** OpenAPI formats that say no more than the type does: dropped without a note. */
const plainFormats = new Set(["int32", "float", "double", "string"]);
/** What the spec cannot say of `format: int64`, noted where it is. */
const int64Note =
  "format int64: a JavaScript number holds integers exactly only up to 2^53 (Number.MAX_SAFE_INTEGER)";
/** Keys read here or documentation only: no note when present. */
const handled = new Set([
  "type",
  "format",
  "description",
  "title",
  "example",
  "examples",
  "deprecated",
  "default",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "enum",
  "const",
  "nullable",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "allOf",
  "oneOf",
  "anyOf",
  "discriminator",
  "$ref",
  "$schema",
  "$id",
  "$comment",
  "externalDocs",
  "xml",
  "contentMediaType",
  "contentEncoding",
]);

/**
 * Facets the copier of a type's own kind reads (copyNumeric, arrayType, objectType), noting
 * any it leaves out: every facet of the model the importer does not read as it is
 * (`handled`), but `prefix` and `unit`, which no OpenAPI keyword is. Beside a schema of
 * another kind (an `allOf`, a union) they are noted where they are, as keys not read.
 */
const typedFacets = new Set<string>(
  constraintKeys.filter((key) => !handled.has(key) && key !== "prefix" && key !== "unit"),
);

/** The spec type name of a component schema, given when first met (PascalCase, unique). */
export function nameFor(ctx: ImportContext, at: Pointer): string {
  const key = locationKey(at);
  const known = ctx.schemaNames.get(key);
  if (known) return known;
  // A schema that is a whole file of a multi-file document (`models/droplet.yml`) takes the file's name.
  const file = at.file
    .split("/")
    .at(-1)
    ?.replace(/\.(ya?ml|json)$/i, "");
  const last = pointerTokens(at.pointer).at(-1) ?? (file || "Schema");
  const base = pascalCase(last) || "Schema";
  const pascal = /^[A-Z]/.test(base) ? base : `Schema${base}`;
  // GitHub's `page` (a Pages site) would be exported beside the runtime's `Page`.
  const start = takenBy(ctx, pascal) ? `${ctx.namePrefix}${pascal}` : pascal;
  let name = start;
  // `ApiError` prefixed is `GitHubApiError`, which may be the package's own error class.
  for (let i = 2; ctx.takenNames.has(name) || takenBy(ctx, name); i++) name = `${start}${i}`;
  ctx.schemaNames.set(key, name);
  ctx.takenNames.add(name);
  return name;
}

/** Who already holds a type name: the package's runtime or the package itself; undefined when free. */
function takenBy(ctx: ImportContext, name: string): string | undefined {
  if (runtimeExportNames.has(name)) return "the package's runtime exports";
  if (globalTypeNames.has(name)) return "the generated code names the global";
  return ctx.generatedNames.has(name) ? "the generated package declares" : undefined;
}

/**
 * Deepest nesting of schema conversions before a named type met is left for later
 * (`convertDeferred`). A schema's own nesting is bounded by the document's
 * (`maxDocumentDepth`); this bounds what `$ref`s add to it, one named type inside another.
 */
export const maxEagerDepth = 64;

/**
 * Deepest nesting of schema conversions at all. Named types and the document's own nesting
 * stay well within it (`maxEagerDepth` plus half of `maxDocumentDepth`); only fields copied
 * in from `$ref`s (allOf members after the first), each copying in the next, can go past it,
 * and that is refused where it happens rather than left to overflow the stack.
 */
export const maxConversionDepth = 300;

/** Declares the named type of a component schema (once), and gives its name. */
export function namedType(ctx: ImportContext, schema: JsonValue, at: Pointer): string {
  const name = nameFor(ctx, at);
  if (ctx.types.has(name)) return name;
  ctx.types.set(name, "unknown"); // placeholder: a recursive schema meets its own name
  ctx.typeSources.set(name, at);
  ctx.typeAreas.set(name, ctx.area);
  if (ctx.depth > maxEagerDepth) ctx.deferred.push({ name, schema, at });
  else convertNamed(ctx, name, schema, at);
  return name;
}

/**
 * Converts the named types left for later, each starting from no nesting, in the area
 * (group) it was named in, as it would have been converted then; those they name are
 * converted with them or left for a later turn of the loop.
 */
export function convertDeferred(ctx: ImportContext): void {
  const area = ctx.area;
  for (let i = 0; i < ctx.deferred.length; i++) {
    const { name, schema, at } = ctx.deferred[i]!;
    ctx.area = ctx.typeAreas.get(name) ?? "shared";
    convertNamed(ctx, name, schema, at);
  }
  ctx.deferred.length = 0;
  ctx.area = area;
}

/** The type of a named schema, put in place of its placeholder. */
function convertNamed(ctx: ImportContext, name: string, schema: JsonValue, at: Pointer): void {
  const type = typeOf(ctx, schema, at, true);
  const last = pointerTokens(at.pointer).at(-1) ?? "";
  const taken = takenBy(ctx, pascalCase(last));
  if (taken) {
    const renamed = asMapping(type);
    note(ctx, renamed, at, `schema ${last} is written as ${name}: ${taken} ${pascalCase(last)}`);
    ctx.types.set(name, renamed);
  } else ctx.types.set(name, type);
}

/** The spec type of a schema. `named`: the schema of a named type (tagged unions are possible there). */
export function typeOf(ctx: ImportContext, schema: JsonValue, at: Pointer, named = false): TypeOut {
  if (ctx.depth >= maxConversionDepth)
    throw importError(
      "import-schema-too-deep",
      { max: maxConversionDepth },
      ctx.doc.at(at),
      ctx.doc.shownPointer(at),
    );
  ctx.depth++;
  try {
    return typeOfSchema(ctx, schema, at, named);
  } finally {
    ctx.depth--;
  }
}

function typeOfSchema(ctx: ImportContext, schema: JsonValue, at: Pointer, named: boolean): TypeOut {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return "unknown";
  if (!isObject(schema)) {
    const out: JsonObject = { type: "unknown" };
    note(ctx, out, at, "a schema that admits no value (false)");
    return out;
  }
  const ref = stringOf(schema, "$ref");
  if (ref !== undefined) return refType(ctx, schema, ref, at);
  const inGeneric = typeParamText(schema) ?? genericUseText(ctx, schema);
  const facets: JsonObject = {};
  if (inGeneric !== undefined) {
    copyDocs(ctx, schema, facets, at);
    return withFacets(inGeneric, facets);
  }
  const base = baseType(ctx, schema, at, facets, named);
  copyDocs(ctx, schema, facets, at);
  dropUnfitValues(ctx, base, facets, at);
  noteUnread(ctx, schema, at, facets, named);
  return withFacets(base, facets);
}

/** A `$ref`: the referenced schema's name; its siblings (3.1) as facets. */
function refType(ctx: ImportContext, schema: JsonObject, ref: string, at: Pointer): TypeOut {
  const target = ctx.doc.resolveRef(ref, at);
  const name = genericUseText(ctx, target.value) ?? namedType(ctx, target.value, target.at);
  const facets: JsonObject = {};
  copyDocs(ctx, schema, facets, at);
  if (schema.nullable === true) facets.nullable = true;
  return withFacets(name, facets);
}

/** The type itself, with its facets (constraints, nullability) put into `facets`. */
function baseType(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
  named: boolean,
): TypeOut {
  let types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : schema.type === undefined
      ? []
      : [String(schema.type)];
  if (types.includes("null") || schema.nullable === true) facets.nullable = true;
  types = types.filter((t) => t !== "null");
  if (schema.const !== undefined) return constType(ctx, schema.const, at, facets);
  if (Array.isArray(schema.enum)) return enumType(ctx, schema.enum, types, at, facets);
  if (Array.isArray(schema.allOf))
    return allOfType(ctx, schema, at, facets, named, () =>
      baseType(ctx, withoutKey(schema, "allOf"), at, facets, named),
    );
  const members = Array.isArray(schema.oneOf)
    ? "oneOf"
    : Array.isArray(schema.anyOf)
      ? "anyOf"
      : undefined;
  if (members && constraintsOnly(schema[members] as JsonValue[]))
    note(
      ctx,
      facets,
      under(at, members),
      `${members} of required-field sets: ${JSON.stringify(schema[members]).slice(0, 160)}`,
    );
  else if (members) return unionType(ctx, schema, members, at, facets, named);
  if (types.length > 1) {
    const out = types.map((t) => primitive(ctx, { ...schema, type: t }, at, facets));
    return { union: out } as JsonObject;
  }
  const type =
    types[0] ??
    (schema.properties || schema.additionalProperties !== undefined
      ? "object"
      : schema.items
        ? "array"
        : undefined);
  if (type === undefined) return "unknown";
  return primitive(ctx, { ...schema, type }, at, facets);
}

/**
 * Whether every member of a oneOf/anyOf only adds constraints to the schema around it (GitHub's
 * `anyOf: [{ required: [a] }, { required: [b] }]`): then the schema's own type is the type.
 */
function constraintsOnly(members: JsonValue[]): boolean {
  return members.every(
    (m) =>
      isObject(m) &&
      m.$ref === undefined &&
      m.type === undefined &&
      m.properties === undefined &&
      m.items === undefined &&
      m.oneOf === undefined &&
      m.anyOf === undefined &&
      m.allOf === undefined &&
      m.enum === undefined &&
      m.const === undefined,
  );
}

/** A schema of one JSON type. */
function primitive(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): TypeOut {
  switch (schema.type) {
    case "string":
      return stringType(ctx, schema, at, facets);
    case "integer":
    case "number":
      copyNumeric(ctx, schema, at, facets);
      return String(schema.type);
    case "boolean":
      return "boolean";
    case "array":
      return arrayType(ctx, schema, at, facets);
    case "object":
      return objectType(ctx, schema, at, facets);
    default: {
      const out: JsonObject = {};
      note(ctx, out, at, `type ${JSON.stringify(schema.type)} is not an OpenAPI type`);
      Object.assign(facets, out);
      return "unknown";
    }
  }
}

function stringType(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): TypeOut {
  const format = stringOf(schema, "format");
  if (format === "binary") return bytesType(ctx, at, facets);
  if (
    schema.contentMediaType !== undefined &&
    schema.contentEncoding === undefined &&
    format === undefined &&
    schema.contentMediaType !== "application/json"
  )
    // 3.1's bytes (Prefect's `value: { contentMediaType: application/octet-stream }` in a JSON
    // body), held to where bytes may travel as `format: binary` is
    return bytesType(ctx, at, facets, "contentMediaType", String(schema.contentMediaType));
  if (format !== undefined) {
    if (formats.has(format)) facets.format = format;
    else if (format === "int64")
      note(ctx, facets, under(at, "format"), `${int64Note}; here a string`);
    else if (!plainFormats.has(format)) note(ctx, facets, under(at, "format"), `format ${format}`);
  }
  copyStringFacets(ctx, schema, at, facets);
  // `^` and a literal is how apigen writes a prefix: it comes back as one.
  const literal =
    typeof facets.pattern === "string"
      ? /^\^((?:[^\\^$.*+?()[\]{}|]|\\[\\^$.*+?()[\]{}|])+)$/.exec(facets.pattern)
      : null;
  if (literal) {
    delete facets.pattern;
    facets.prefix = literal[1]!.replace(/\\(.)/g, "$1");
  }
  return "string";
}

function copyNumeric(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): void {
  const bounds = numericBounds(ctx, schema, at, facets);
  // GetStream's latitude: `minimum: 1.8446744073709552e+19` (-90 as an unsigned 64-bit
  // integer) beside `maximum: 90`
  const [conflict] = boundConflicts(bounds);
  if (conflict) note(ctx, facets, under(at, conflict.lowKey), rangeConflict(conflict));
  else Object.assign(facets, bounds);
  const { multipleOf } = schema;
  if (typeof multipleOf === "number" && multipleOf > 0 && Number.isFinite(multipleOf))
    facets.multipleOf = multipleOf;
  else if (multipleOf !== undefined)
    note(
      ctx,
      facets,
      under(at, "multipleOf"),
      `multipleOf ${JSON.stringify(multipleOf)} is not a number above 0: left out`,
    );
  const format = stringOf(schema, "format");
  if (format === "int64") note(ctx, facets, under(at, "format"), int64Note);
  else if (format === "unix-time" || format === "timestamp") facets.format = "timestamp";
  else if (format !== undefined && !plainFormats.has(format))
    note(ctx, facets, under(at, "format"), `format ${format}`);
}

/**
 * A number's bounds as the spec format writes them (JSON Schema 2020-12's, which OpenAPI 3.1
 * takes): OpenAPI 3.0's and Swagger 2.0's `exclusiveMinimum: true` beside `minimum: 0` is
 * `exclusiveMinimum: 0`. An exclusive flag without its bound says nothing: a note.
 */
function numericBounds(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): { minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number } {
  const bounds: {
    minimum?: number;
    maximum?: number;
    exclusiveMinimum?: number;
    exclusiveMaximum?: number;
  } = {};
  for (const [bound, flag] of [
    ["minimum", "exclusiveMinimum"],
    ["maximum", "exclusiveMaximum"],
  ] as const) {
    const value = schema[bound];
    const exclusive = schema[flag];
    if (typeof value === "number" && Number.isFinite(value)) {
      if (exclusive === true) bounds[flag] = value;
      else bounds[bound] = value;
    }
    if (typeof exclusive === "number" && Number.isFinite(exclusive)) bounds[flag] = exclusive;
    else if (exclusive === true && typeof value !== "number")
      note(ctx, facets, under(at, flag), `${flag}: true without ${bound}: left out`);
    else if (exclusive !== undefined && typeof exclusive !== "boolean")
      note(
        ctx,
        facets,
        under(at, flag),
        `${flag} ${JSON.stringify(exclusive)} is not a number: left out`,
      );
  }
  return bounds;
}

function arrayType(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): TypeOut {
  copyCountFacets(ctx, schema, at, facets, ["minItems", "maxItems"]);
  if (schema.uniqueItems === true) facets.uniqueItems = true;
  else if (schema.uniqueItems !== undefined && schema.uniqueItems !== false)
    note(
      ctx,
      facets,
      under(at, "uniqueItems"),
      `uniqueItems ${JSON.stringify(schema.uniqueItems)} is not a boolean: left out`,
    );
  if (schema.items === undefined) return "unknown[]";
  const items = typeOf(ctx, schema.items, under(at, "items"));
  return typeof items === "string" && /^[A-Za-z0-9<>[\]]+$/.test(items)
    ? `${items}[]`
    : { type: "array", items };
}

/**
 * A count's pair (an array's `minItems` and `maxItems`, a map's or an object's
 * `minProperties` and `maxProperties`) into `facets`; a count that is not a whole number, or
 * a lower one past the upper one (no value would fit), is a note and left out.
 */
function copyCountFacets(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
  [lowKey, highKey]:
    | readonly ["minItems", "maxItems"]
    | readonly ["minProperties", "maxProperties"],
): void {
  const [low, high] = [schema[lowKey], schema[highKey]];
  const [conflict] =
    isCount(low) && isCount(high) ? boundConflicts({ [lowKey]: low, [highKey]: high }) : [];
  if (conflict) {
    note(ctx, facets, under(at, lowKey), rangeConflict(conflict));
    return;
  }
  for (const key of [lowKey, highKey]) {
    const value = schema[key];
    if (value === undefined) continue;
    if (isCount(value)) facets[key] = value;
    else
      note(ctx, facets, under(at, key), `${key} ${JSON.stringify(value)} is not a count: left out`);
  }
}

/** An object: fields, an open object, or a map. */
function objectType(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): TypeOut {
  copyCountFacets(ctx, schema, at, facets, ["minProperties", "maxProperties"]);
  const extra = schema.additionalProperties;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const hasFields = Object.keys(properties).length > 0;
  if (!hasFields) {
    if (
      extra === undefined ||
      extra === true ||
      (isObject(extra) && Object.keys(extra).length === 0)
    )
      return "object";
    if (extra === false) return { fields: {} };
    const values = typeOf(ctx, extra, under(at, "additionalProperties"));
    return typeof values === "string" && !values.includes(" ")
      ? `map<${values}>`
      : { type: "map", values };
  }
  const out: JsonObject = {};
  const base = stringOf(schema, "x-extends");
  const fields = fieldsOf(ctx, schema, at, out);
  const inherited = base === undefined ? undefined : baseFields(ctx, base);
  if (base !== undefined && inherited !== undefined) {
    // apigen writes an `extends` flattened, naming the base in x-extends: the own fields are the rest.
    out.extends = base;
    const omitted = Object.keys(inherited).filter((name) => fields[name] === undefined);
    if (omitted.length) out.omit = omitted;
    for (const name of Object.keys(fields))
      if (JSON.stringify(inherited[name]) === JSON.stringify(fields[name])) delete fields[name];
  }
  out.fields = fields;
  if (extra === true || (isObject(extra) && Object.keys(extra).length === 0)) out.open = true;
  else if (isObject(extra)) {
    out.open = true;
    note(
      ctx,
      facets,
      under(at, "additionalProperties"),
      "other fields have a schema the format cannot say beside named fields; admitted as any value",
    );
  }
  return out;
}

/**
 * The fields of the component schema named `name`, its bases' included, as this importer
 * writes them; undefined when it has none. The chain of bases is walked in a loop, and a base
 * met twice (`x-extends` in a circle) ends it.
 */
function baseFields(ctx: ImportContext, name: string): JsonObject | undefined {
  const chain: { fields: JsonObject; omit: JsonValue }[] = [];
  const seen = new Set<string>();
  for (let base: string | undefined = name; base !== undefined && !seen.has(base); ) {
    seen.add(base);
    const schema = componentsOf(ctx, "schemas")[base];
    if (!isObject(schema) || !isObject(schema.properties)) break;
    const named = namedType(ctx, schema, {
      file: ctx.doc.root.path,
      pointer: child("#/components/schemas", base),
    });
    const type = ctx.types.get(named);
    if (!isObject(type)) break;
    chain.push({ fields: isObject(type.fields) ? type.fields : {}, omit: type.omit ?? [] });
    base = stringOf(type, "extends");
  }
  if (!chain.length) return undefined;
  // From the first base down: each level leaves out what its `omit` names, then adds its own.
  const fields: JsonObject = {};
  for (const level of chain.reverse()) {
    if (Array.isArray(level.omit)) for (const omitted of level.omit) delete fields[String(omitted)];
    Object.assign(fields, level.fields);
  }
  return fields;
}

/**
 * The fields of an object schema, required ones marked. A property whose name holds a control
 * character (JSON Schema's test suite has `"foo\fbar"`), which no spec file may hold, is left
 * out, noted on `facets`.
 */
export function fieldsOf(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): JsonObject {
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const fields: JsonObject = {};
  for (const [name, property] of Object.entries(properties)) {
    if (controlCharacter.test(name)) {
      note(
        ctx,
        facets,
        // at the properties: a pointer to the property would hold the character itself
        under(at, "properties"),
        `property ${JSON.stringify(name)} has a control character in its name, which a spec file cannot hold: left out`,
      );
      continue;
    }
    const propertyAt = under(at, "properties", name);
    const { access, schema: unmarked, noted } = accessOf(ctx, property, propertyAt);
    const type = withFacets(typeOf(ctx, unmarked, propertyAt), noted);
    // apigen's own mark of a field that is an id or, when asked for, the object.
    const expandable = isObject(property) && property["x-apigen-expandable"] === true;
    setEntry(
      fields,
      name,
      required.has(name) || expandable || access
        ? {
            ...asMapping(type),
            ...(expandable ? { expandable: true } : {}),
            ...(access ? { [access]: true } : {}),
            ...(required.has(name) ? { required: true } : {}),
          }
        : type,
    );
  }
  return fields;
}

type Access = { access?: "readOnly" | "writeOnly" };

/**
 * Who writes a property: `readOnly` (the API) or `writeOnly` (callers), from the property or,
 * through a `$ref`, from the schema it names (`id: { $ref: Id }`, Id being `readOnly: true`);
 * the property's schema is given back without the two keys, which are read here. Both at once
 * is noted, and neither kept.
 */
function accessOf(
  ctx: ImportContext,
  property: JsonValue,
  at: Pointer,
): Access & { schema: JsonValue; noted: JsonObject } {
  const noted: JsonObject = {};
  if (!isObject(property)) return { schema: property, noted };
  if (property.readOnly !== undefined || property.writeOnly !== undefined) {
    const { readOnly, writeOnly, ...schema } = property;
    if (readOnly === true && writeOnly === true)
      note(ctx, noted, under(at, "writeOnly"), "readOnly and writeOnly both: neither is carried");
    return { ...accessIn({ readOnly, writeOnly }), schema, noted };
  }
  const ref = stringOf(property, "$ref");
  const target = ref === undefined ? undefined : resolvedOrNot(ctx, ref, at);
  return { ...(isObject(target) ? accessIn(target) : {}), schema: property, noted };
}

function accessIn(marks: {
  readOnly?: JsonValue | undefined;
  writeOnly?: JsonValue | undefined;
}): Access {
  if (marks.readOnly === true && marks.writeOnly === true) return {};
  if (marks.readOnly === true) return { access: "readOnly" };
  return marks.writeOnly === true ? { access: "writeOnly" } : {};
}

/** The schema a `$ref` names; undefined when it names nothing (reported where it is read). */
function resolvedOrNot(ctx: ImportContext, ref: string, at: Pointer): JsonValue | undefined {
  try {
    return ctx.doc.resolveRef(ref, at).value;
  } catch {
    return undefined;
  }
}

/** oneOf/anyOf: a tagged union (named types with a discriminator) or an untagged one. */
function unionType(
  ctx: ImportContext,
  schema: JsonObject,
  key: "oneOf" | "anyOf",
  at: Pointer,
  facets: JsonObject,
  named: boolean,
): TypeOut {
  const list = schema[key] as JsonValue[];
  const open = openEnum(ctx, list, at, key, facets);
  if (open) return open;
  const members: TypeOut[] = [];
  list.forEach((member, i) => {
    const memberAt = under(at, key, i);
    if (isObject(member) && member.type === "null") facets.nullable = true;
    else if (isObject(member) && member.$ref !== undefined && isBinary(ctx, member, memberAt)) {
      // a union is a JSON value, where bytes travel encoded (Rudder's report as JSON or CSV)
      note(
        ctx,
        facets,
        memberAt,
        "a union member of bytes: a string (bytes in JSON travel encoded)",
      );
      members.push("string");
    } else members.push(typeOf(ctx, member, memberAt));
  });
  // a union of null alone (JSON Schema's test suite nests one): null, as `type: "null"` is
  if (members.length === 0) return "unknown";
  if (members.length === 1) return members[0]!;
  const discriminator = isObject(schema.discriminator)
    ? stringOf(schema.discriminator, "propertyName")
    : undefined;
  let untagged: string | undefined;
  if (
    named &&
    discriminator &&
    members.every((m) => typeof m === "string" && /^[A-Z]\w*$/.test(m))
  ) {
    const tags = tagsOf(ctx, schema, list, at, discriminator, facets);
    if (typeof tags !== "string")
      return schema["x-apigen-open"] === true
        ? { discriminator, union: tags, open: true }
        : { discriminator, union: tags };
    untagged = tags;
  }
  if (discriminator)
    note(
      ctx,
      facets,
      under(at, "discriminator"),
      `discriminator ${discriminator} kept as an untagged union${untagged ? `: ${untagged}` : ""}`,
    );
  const distinct = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
  if (distinct.length === 1) return distinct[0]!;
  // A union with `unknown` admits any value: it is `unknown`.
  if (distinct.includes("unknown")) return "unknown";
  const simple = distinct.every((m) => typeof m === "string" && !m.includes(" "));
  return simple ? (distinct as string[]).join(" | ") : { union: distinct };
}

/**
 * `anyOf: [{ type, enum }, { type }]` (and `{ type: null }`): how apigen writes an open enum,
 * the listed values being the known ones, as a closed enum's are read (enumType: each value
 * once, as Elasticsearch's column names list some twice; values not of the type left out).
 */
function openEnum(
  ctx: ImportContext,
  list: JsonValue[],
  at: Pointer,
  key: "oneOf" | "anyOf",
  facets: JsonObject,
): TypeOut | undefined {
  const known = knownValues(list);
  if (!known) return undefined;
  if (list.some((m) => isObject(m) && m.type === "null")) facets.nullable = true;
  const declared = typeof known.type === "string" ? [known.type] : [];
  const knownAt = under(at, key, list.indexOf(known));
  const values = enumType(ctx, known.enum, declared, knownAt, facets);
  return isObject(values) ? { ...values, open: true } : values;
}

/** The sentence apigen adds to an open enum's description; the `open: true` says it again. */
const openEnumSentence = "Known values; the full list is not shown.";

function withoutOpenUnionSentence(description: string): string {
  return description.startsWith(openUnionText)
    ? description.slice(openUnionText.length).trim()
    : description;
}

/** A description without the sentence apigen writes for an open enum. */
function withoutOpenEnumSentence(description: string): string {
  return description.split(openEnumSentence).join("").trim();
}

/**
 * Tag value -> variant name: from the discriminator's mapping, else the one value the variant's
 * tag field admits (a one-value `enum` or a `const`, as OpenAI writes them), else the schema's
 * name. Why the union cannot be tagged, in words, when it cannot: a variant that is not a
 * named object (or is nullable), two variants of one tag, a tag field that does not admit its tag.
 * A mapping entry naming a schema the document does not have (Cohere's `raw_generation`, beside
 * the two variants its `oneOf` lists) tags nothing: left out, noted on `facets`.
 */
function tagsOf(
  ctx: ImportContext,
  schema: JsonObject,
  list: JsonValue[],
  at: Pointer,
  discriminator: string,
  facets: JsonObject,
): JsonObject | string {
  const mapping =
    isObject(schema.discriminator) && isObject(schema.discriminator.mapping)
      ? schema.discriminator.mapping
      : {};
  const byTarget = new Map<string, string>();
  for (const [tag, ref] of Object.entries(mapping))
    if (typeof ref === "string") {
      // A mapping's value is a `$ref`, or the bare name of a component schema.
      const entryAt = under(at, "discriminator", "mapping", tag);
      const target = mappingTarget(
        ctx,
        ref.startsWith("#") || ref.includes("/")
          ? ref
          : `#/components/schemas/${encodeURIComponent(ref.replace(/~/g, "~0"))}`,
        entryAt,
      );
      if (target) byTarget.set(namedType(ctx, target.value, target.at), tag);
      else
        note(
          ctx,
          facets,
          entryAt,
          `discriminator mapping ${tag}: ${ref} is no schema of the document; left out`,
        );
    }
  const tags: JsonObject = {};
  for (let i = 0; i < list.length; i++) {
    const member = list[i]!;
    if (!isObject(member) || typeof member.$ref !== "string") return "a variant is not a $ref";
    const target = ctx.doc.resolveRef(member.$ref, under(at, "oneOf", i));
    const name = namedType(ctx, target.value, target.at);
    // A tagged variant is a named object type; a union of unions stays untagged.
    const variant = ctx.types.get(name);
    if (!isObject(variant) || (variant.fields === undefined && variant.extends === undefined))
      return `${name} is not an object`;
    if (variant.nullable === true) return `${name} admits null`;
    const field = allFieldsOf(ctx, name)[discriminator];
    const tag = byTarget.get(name) ?? fixedTag(field) ?? pointerTokens(target.at.pointer).at(-1)!;
    if (tags[tag] !== undefined) return `${tags[tag]} and ${name} have one tag, ${tag}`;
    if (field !== undefined && !admitsTag(ctx, field, tag))
      return `${name}.${discriminator} does not admit ${tag}`;
    setEntry(tags, tag, name);
  }
  return tags;
}

/**
 * Where a mapping entry's `$ref` leads, or undefined where it points at nothing; any other
 * problem (a file outside the folder, one that cannot be read) stays the error it is.
 */
function mappingTarget(
  ctx: ImportContext,
  ref: string,
  at: Pointer,
): { value: JsonValue; at: Pointer } | undefined {
  try {
    return ctx.doc.resolveRef(ref, at);
  } catch (error) {
    const broken =
      error instanceof DiagnosticsError &&
      error.diagnostics.every((d) => d.code === "import-ref-broken");
    if (broken) return undefined;
    throw error;
  }
}

/** The one tag a variant's tag field admits: a string `const`, or an `enum` of one string. */
function fixedTag(field: JsonValue | undefined): string | undefined {
  if (!isObject(field)) return undefined;
  if (typeof field.const === "string") return field.const;
  if (Array.isArray(field.enum) && field.enum.length === 1 && typeof field.enum[0] === "string")
    return field.enum[0];
  return undefined;
}

/** Whether a tag field's type admits `tag` (a string, that const, an enum listing it). */
function admitsTag(ctx: ImportContext, field: JsonValue, tag: string, depth = 0): boolean {
  if (depth > 32) return false;
  const type = isObject(field) ? (field.type ?? field) : field;
  if (typeof type === "string") {
    if (type === "string") return true;
    const named = ctx.types.get(type);
    return named !== undefined && admitsTag(ctx, named, tag, depth + 1);
  }
  if (!isObject(type)) return false;
  if (type.const !== undefined) return type.const === tag;
  if (Array.isArray(type.enum)) return type.enum.includes(tag) || type.open === true;
  return false;
}

function constType(ctx: ImportContext, value: JsonValue, at: Pointer, facets: JsonObject): TypeOut {
  const literal =
    typeof value === "string" || typeof value === "boolean" || Number.isInteger(value);
  if (literal && !hasControlCharacter(value)) return { const: value } as JsonObject;
  note(ctx, facets, under(at, "const"), `const ${JSON.stringify(value)}`);
  return "unknown";
}

/** The format's type of an enum value it can list, which every value of one enum must share. */
const literalType = (v: JsonValue) =>
  typeof v === "string"
    ? "string"
    : typeof v === "boolean"
      ? "boolean"
      : Number.isInteger(v)
        ? "integer"
        : undefined;

/**
 * An enum of string, integer or boolean values, all of one type. A value that is not of the
 * schema's declared `type` can never be valid (Firebrowse lists `9` among `type: string`
 * codes): it is left out, noted. Values of more than one of those types (Vonage's
 * `[true, false, 0, 1]`) are noted and the type is the union of their types
 * (`boolean | integer`); values of others, `unknown`.
 */
function enumType(
  ctx: ImportContext,
  values: JsonValue[],
  declared: string[],
  at: Pointer,
  facets: JsonObject,
): TypeOut {
  if (values.includes(null)) facets.nullable = true;
  let kept = values.filter((v) => v !== null);
  const fits = (v: JsonValue) => {
    const type = literalType(v);
    return type === "integer"
      ? declared.some((t) => t === "integer" || t === "number")
      : declared.includes(type!);
  };
  const outside = declared.length ? kept.filter((v) => literalType(v) && !fits(v)) : [];
  if (outside.length && outside.length < kept.length) {
    note(
      ctx,
      facets,
      under(at, "enum"),
      `enum values not of its type ${declared.join(" or ")} were left out: ${JSON.stringify(outside).slice(0, 120)}`,
    );
    kept = kept.filter((v) => !outside.includes(v));
  }
  const types = new Set(kept.map(literalType));
  if (kept.length && types.size === 1 && !types.has(undefined) && !hasControlCharacter(kept))
    return { enum: [...new Set(kept)] } as JsonObject;
  note(
    ctx,
    facets,
    under(at, "enum"),
    `enum of values the format cannot list: ${JSON.stringify(values).slice(0, 120)}`,
  );
  // the declared type still holds (an empty enum of a string is a string: a text/plain body's
  // check, which reads the schema's type, and the written type must agree)
  const [only] = declared;
  if (declared.length === 1 && isScalarTypeName(only)) return only!;
  return kept.length && !types.has(undefined) ? [...types].sort().join(" | ") : "unknown";
}

/** The member of known values of an open enum's `anyOf` (openEnum), or undefined. */
function knownValues(list: JsonValue[]): (JsonObject & { enum: JsonValue[] }) | undefined {
  const rest = list.filter((m) => !(isObject(m) && m.type === "null"));
  if (rest.length !== 2) return undefined;
  const [known, any] = rest;
  if (!isObject(known) || !isObject(any) || !Array.isArray(known.enum)) return undefined;
  if (Object.keys(any).length !== 1 || any.type === undefined || any.type !== known.type)
    return undefined;
  return known as JsonObject & { enum: JsonValue[] };
}

/** Description, example, deprecated and default, as the spec writes them. */
export function copyDocs(
  ctx: ImportContext,
  schema: JsonObject,
  facets: JsonObject,
  at: Pointer,
): void {
  const raw = stringOf(schema, "description") ?? stringOf(schema, "title");
  const description =
    raw && Array.isArray(schema.anyOf) && knownValues(schema.anyOf)
      ? withoutOpenEnumSentence(raw)
      : raw && ownDocument(ctx)
        ? withoutOpenUnionSentence(raw)
        : raw;
  if (description?.trim()) {
    const descriptionAt = under(at, schema.description === undefined ? "title" : "description");
    facets.description = cleanText(ctx, description.trim(), facets, descriptionAt, "description");
  }
  const [example, exampleAt] =
    schema.example !== undefined
      ? [schema.example, under(at, "example")]
      : Array.isArray(schema.examples) && schema.examples.length
        ? [schema.examples[0]!, under(at, "examples", 0)]
        : [undefined, at];
  if (example !== undefined) {
    const literal = literalExample(ctx, example, exampleAt, 0);
    if (literal !== undefined)
      facets.example = cleanText(ctx, literal, facets, exampleAt, "example");
    else note(ctx, facets, exampleAt, "an example whose $ref points at nothing");
  }
  if (schema.deprecated === true) facets.deprecated = true;
  if (schema.default !== undefined && schema.default !== null)
    facets.default = cleanText(ctx, schema.default, facets, under(at, "default"), "default");
  if (typeof schema["x-unit"] === "string") facets.unit = schema["x-unit"];
  carryNotes(schema, facets);
}

/**
 * An example as the literal value it stands for. An example is data, but some documents put a
 * `$ref` in one (GitHub's, to `components.examples`), and tools that read the re-emitted
 * document follow it: it is followed here, an Example Object giving its `value` (3.2:
 * `dataValue`), so what is written is the value itself. Undefined when a `$ref` points at nothing.
 */
function literalExample(
  ctx: ImportContext,
  value: JsonValue,
  at: Pointer,
  depth: number,
): JsonValue | undefined {
  if (depth > 32) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item, i) => literalExample(ctx, item, under(at, i), depth + 1));
    return items.some((item) => item === undefined) ? undefined : (items as JsonValue[]);
  }
  if (!isObject(value)) return value;
  if (typeof value.$ref === "string") {
    let target: { value: JsonValue; at: Pointer };
    try {
      target = ctx.doc.resolveRef(value.$ref, at);
    } catch {
      return undefined;
    }
    // an Example Object's value: `value`, or OpenAPI 3.2's `dataValue`
    const given = isObject(target.value)
      ? (target.value.value ?? target.value.dataValue)
      : undefined;
    const isExampleObject =
      /^#\/components\/examples\/[^/]+$/.test(target.at.pointer) && given !== undefined;
    const resolved = isExampleObject ? given! : target.value;
    return literalExample(ctx, resolved, target.at, depth + 1);
  }
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const literal = literalExample(ctx, item, under(at, key), depth + 1);
    if (literal === undefined) return undefined;
    setEntry(out, key, literal);
  }
  return out;
}

/**
 * The source's own gap notes (`x-undocumented`, as apigen writes them) come back as
 * `undocumented`, word for word: they are gaps of the API, not losses of the import.
 */
export function carryNotes(source: JsonObject, target: JsonObject): void {
  const list = notesIn(source);
  if (!list.length) return;
  const existing = target.undocumented;
  const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  const all = [...before, ...list];
  target.undocumented = all.length === 1 ? all[0]! : all;
}

/** The notes of an element's `x-undocumented`, one or a list. */
export function notesIn(source: JsonObject): string[] {
  const notes = source["x-undocumented"];
  return (Array.isArray(notes) ? notes : [notes]).filter(
    (n): n is string => typeof n === "string" && n !== "",
  );
}

/** Every key of the schema this importer does not read, as one note (extensions aside). */
/** Whether a note of `facets` is at the schema's `key` (its pointer ends with it). */
function notedAt(facets: JsonObject, key: string): boolean {
  const notes = [facets.undocumented].flat();
  return notes.some((text) => typeof text === "string" && text.endsWith(`/${key})`));
}

function noteUnread(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
  named: boolean,
): void {
  for (const key of Object.keys(schema)) {
    if (handled.has(key) || key.startsWith("x-")) continue;
    // a named schema's readOnly (GitHub's `alert-updated-at`) is carried by each property
    // that names it (accessOf), which is where OpenAPI gives it a meaning
    if (named && (key === "readOnly" || key === "writeOnly")) continue;
    // `uniqueItems: false`, 3.0's `exclusiveMinimum: false`: what a schema is anyway
    if (typedFacets.has(key) && schema[key] === false) continue;
    if (typedFacets.has(key) && (facets[key] !== undefined || notedAt(facets, key))) continue;
    note(ctx, facets, under(at, key), `${key}: ${JSON.stringify(schema[key]).slice(0, 120)}`);
  }
}

/** A type with facets: the shorthand becomes `{ type, ...facets }`; a mapping takes them in. */
export function withFacets(base: TypeOut, facets: JsonObject): TypeOut {
  if (Object.keys(facets).length === 0) return base;
  if (typeof base === "string") return { type: base, ...facets };
  const merged: JsonObject = { ...base };
  for (const [k, v] of Object.entries(facets)) {
    if (k === "undocumented" && merged.undocumented !== undefined) {
      const a = merged.undocumented;
      merged.undocumented = [...(Array.isArray(a) ? a : [a]), ...(Array.isArray(v) ? v : [v])];
    } else merged[k] = v;
  }
  return merged;
}

/** A type as a mapping, so that facets such as `required` can be added. */
export function asMapping(type: TypeOut): JsonObject {
  return typeof type === "string" ? { type } : type;
}
