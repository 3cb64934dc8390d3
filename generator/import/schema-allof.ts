/**
 * `allOf` to a spec type. Real documents use it three ways: to extend a named object with
 * more fields (`extends`), to put a description (or `nullable`) beside a `$ref` to any type
 * (AWS writes every field so), and to combine objects. Members that only document are read
 * as documentation; one type-bearing member left is the type itself; object members make an
 * object that extends the first named object (aliases followed; a nullable one cannot be
 * extended, its fields are copied) with the others' fields; what cannot be combined is noted.
 */
import {
  copyEntries,
  isObject,
  isScalarTypeName,
  locationKey,
  note,
  ownEntry,
  setEntry,
  under,
  type ImportContext,
  type TypeOut,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { copyDocs, fieldsOf, namedType, typeOf } from "./schemas.ts";

/** The schema a `$ref` names and where it is, as `namedType` takes them. */
function targetOf(ctx: ImportContext, ref: string, at: Pointer): [JsonValue, Pointer] {
  const target = ctx.doc.resolveRef(ref, at);
  return [target.value, target.at];
}

/** Keys of a member that only documents the schema around it (nullability included). */
const documentingKeys = new Set([
  "description",
  "title",
  "example",
  "examples",
  "deprecated",
  "default",
  "nullable",
  "readOnly",
  "writeOnly",
  "externalDocs",
  "$comment",
]);

/** Whether an allOf member only documents (`{ description }`, `{ nullable: true }`). */
function documentsOnly(part: JsonValue): part is JsonObject {
  return (
    isObject(part) && Object.keys(part).every((k) => documentingKeys.has(k) || k.startsWith("x-"))
  );
}

/** Whether an allOf member only marks fields required (`{ required: [a, b] }`). */
function requiresOnly(part: JsonValue): part is JsonObject & { required: JsonValue[] } {
  return (
    isObject(part) &&
    Array.isArray(part.required) &&
    Object.keys(part).every((k) => k === "required" || documentingKeys.has(k) || k.startsWith("x-"))
  );
}

/** Facets a type may carry that say nothing of which values it has. */
const docFacets = new Set(["description", "example", "deprecated", "undocumented", "default"]);

const namePattern = /^[A-Z]\w*$/;

/** The named type a converted member stands for (`Name`, or `{ type: Name }` with docs). */
function namedIn(
  ctx: ImportContext,
  type: TypeOut,
): { name: string; nullable: boolean } | undefined {
  if (typeof type === "string")
    return namePattern.test(type) && ctx.types.has(type)
      ? { name: type, nullable: false }
      : undefined;
  const name = type.type;
  if (typeof name !== "string" || !namePattern.test(name) || !ctx.types.has(name)) return undefined;
  const rest = Object.keys(type).filter((k) => k !== "type" && k !== "nullable");
  if (!rest.every((k) => docFacets.has(k))) return undefined;
  return { name, nullable: type.nullable === true };
}

/** Whether a converted type is an object with fields (or a base), not a union. */
const isObjectType = (type: TypeOut): type is JsonObject =>
  isObject(type) && (type.fields !== undefined || type.extends !== undefined) && !type.union;

/**
 * The named object type behind `name`, aliases followed (`XBase: XCompact`): its name, its
 * converted type and whether it (or an alias on the way) is nullable. Undefined when it is not
 * an object, or not converted yet (a cycle, or left for later).
 */
export function objectBehind(
  ctx: ImportContext,
  name: string,
): { name: string; type: JsonObject; nullable: boolean } | undefined {
  let nullable = false;
  const seen = new Set<string>();
  for (let current = name; !seen.has(current); ) {
    seen.add(current);
    const type = ctx.types.get(current);
    if (type === undefined) return undefined;
    if (isObjectType(type)) return { name: current, type, nullable: nullable || !!type.nullable };
    const alias = namedIn(ctx, type);
    if (!alias) return undefined;
    nullable ||= alias.nullable;
    current = alias.name;
  }
  return undefined;
}

/** Every field of a named object type, its bases' included (less what each omits). */
export function allFieldsOf(ctx: ImportContext, name: string, depth = 0): JsonObject {
  const behind = objectBehind(ctx, name);
  if (!behind || depth > 64) return {};
  const { type } = behind;
  const inherited: JsonObject =
    typeof type.extends === "string" ? allFieldsOf(ctx, type.extends, depth + 1) : {};
  if (Array.isArray(type.omit)) for (const omitted of type.omit) delete inherited[String(omitted)];
  return { ...inherited, ...(isObject(type.fields) ? type.fields : {}) };
}

/** The object being built from the members: a base, fields, openness. */
interface Combined {
  extends?: string;
  omit?: JsonValue[];
  fields: JsonObject;
  open: boolean;
  objects: number;
}

/**
 * allOf: see the module comment. `outer` gives the type of the schema without its allOf (when
 * every member only documents, `{ type: string, allOf: [{ description }] }`).
 */
export function allOfType(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
  named: boolean,
  outer: () => TypeOut,
): TypeOut {
  const parts = schema.allOf as JsonValue[];
  const kept: { part: JsonValue; at: Pointer }[] = [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  let nonNull = false;
  parts.forEach((part, i) => {
    const partAt = under(at, "allOf", i);
    if (requiresOnly(part)) part.required.forEach((name) => required.add(String(name)));
    if (documentsOnly(part) || requiresOnly(part)) {
      if (part.nullable === true) facets.nullable = true;
      if (part.nullable === false) nonNull = true;
      const docs: JsonObject = {};
      copyDocs(ctx, part, docs, partAt);
      for (const [key, value] of Object.entries(docs))
        if (facets[key] === undefined) facets[key] = value;
    } else kept.push({ part, at: partAt });
  });
  const ownFields = isObject(schema.properties) && Object.keys(schema.properties).length > 0;
  let type: TypeOut;
  if (kept.length === 0 && !ownFields) type = outer();
  else if (kept.length === 1 && !ownFields && required.size === 0)
    type = typeOf(ctx, kept[0]!.part, kept[0]!.at, named);
  else type = combined(ctx, schema, at, kept, facets, required);
  if (nonNull) type = withoutNull(ctx, type, facets, at);
  return type;
}

/** The type of several members: an object when any is one, else the first with the rest noted. */
function combined(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  kept: { part: JsonValue; at: Pointer }[],
  facets: JsonObject,
  required: Set<string>,
): TypeOut {
  const out: Combined = { fields: {}, open: false, objects: 0 };
  const others: { type: TypeOut; at: Pointer }[] = [];
  for (const { part, at: partAt } of kept) {
    if (!addObjectMember(ctx, out, part, partAt, facets)) {
      const type = typeOf(ctx, part, partAt);
      if (type !== "object") others.push({ type, at: partAt });
      else out.objects++;
    }
  }
  if (isObject(schema.properties)) {
    copyEntries(out.fields, fieldsOf(ctx, schema, at, facets));
    out.objects++;
  }
  if (out.objects === 0) return firstOfOthers(ctx, others, facets);
  for (const other of others)
    note(ctx, facets, other.at, "an allOf member that is not an object: left out");
  markRequired(ctx, out, required);
  const result: JsonObject = {};
  if (out.extends !== undefined) result.extends = out.extends;
  if (out.omit?.length) result.omit = out.omit;
  if (Object.keys(out.fields).length || out.extends === undefined) result.fields = out.fields;
  if (out.open) result.open = true;
  return result;
}

/**
 * Adds an object member to `out`: the first named object (not nullable) becomes the base,
 * any other object's fields are copied in. False when the member is not an object.
 */
function addObjectMember(
  ctx: ImportContext,
  out: Combined,
  part: JsonValue,
  at: Pointer,
  facets: JsonObject,
): boolean {
  if (!isObject(part)) return false;
  if (typeof part.$ref === "string") {
    // A bare $ref is its name (no conversion level of its own: allOf chains nest as before).
    const type =
      Object.keys(part).length === 1
        ? namedType(ctx, ...targetOf(ctx, part.$ref, at))
        : typeOf(ctx, part, at);
    const ref = namedIn(ctx, type);
    const behind = ref && objectBehind(ctx, ref.name);
    if (!behind) return copyUnconverted(ctx, out, part, at, facets);
    out.objects++;
    if (out.extends === undefined && !behind.nullable && !ref.nullable) out.extends = behind.name;
    else copyEntries(out.fields, allFieldsOf(ctx, behind.name));
    if (behind.type.open) out.open = true;
    return true;
  }
  if (!(part.properties || part.type === "object" || Array.isArray(part.allOf))) return false;
  const type = typeOf(ctx, part, at);
  if (type === "object") {
    out.objects++;
    return true;
  }
  const ref = namedIn(ctx, type);
  const behind = ref && objectBehind(ctx, ref.name);
  if (behind) {
    out.objects++;
    if (out.extends === undefined && !behind.nullable && !ref.nullable) out.extends = behind.name;
    else copyEntries(out.fields, allFieldsOf(ctx, behind.name));
    return true;
  }
  if (!isObjectType(type)) {
    if (isObject(type) && typeof type.type === "string" && type.type.startsWith("map<")) {
      out.objects++;
      out.open = true;
      return true;
    }
    return false;
  }
  out.objects++;
  if (typeof type.extends === "string") {
    if (out.extends === undefined) {
      out.extends = type.extends;
      if (Array.isArray(type.omit)) out.omit = type.omit;
    } else copyEntries(out.fields, allFieldsOf(ctx, type.extends));
  }
  copyEntries(out.fields, isObject(type.fields) ? type.fields : {});
  if (type.open) out.open = true;
  if (type.undocumented !== undefined) {
    const notes = Array.isArray(type.undocumented) ? type.undocumented : [type.undocumented];
    const before = facets.undocumented;
    facets.undocumented = [...(before === undefined ? [] : [before].flat()), ...notes];
  }
  return true;
}

/**
 * A `$ref` member whose named type is not converted yet (a cycle through this allOf, or left
 * for later): its own properties are copied from the document, as long as that does not copy
 * this schema into itself again.
 */
function copyUnconverted(
  ctx: ImportContext,
  out: Combined,
  part: JsonObject,
  at: Pointer,
  facets: JsonObject,
): boolean {
  const resolved = ctx.doc.resolveRef(part.$ref as string, at);
  const target = resolved.value;
  if (!isObject(target) || !(target.properties || target.type === "object")) return false;
  out.objects++;
  const copied = locationKey(resolved.at);
  if (ctx.copying.has(copied)) {
    note(ctx, facets, at, "an allOf member copied into its own fields (a $ref cycle): left out");
    return true;
  }
  ctx.copying.add(copied);
  copyEntries(out.fields, fieldsOf(ctx, target, resolved.at, facets));
  ctx.copying.delete(copied);
  return true;
}

/**
 * Required names the allOf lists for fields it does not declare itself (`required` beside the
 * members, or a member of only `required`): a copied field is marked, an inherited one is
 * declared again, required.
 */
function markRequired(ctx: ImportContext, out: Combined, required: Set<string>): void {
  const inherited = out.extends === undefined ? {} : allFieldsOf(ctx, out.extends);
  for (const name of required) {
    const field = ownEntry(out.fields, name) ?? ownEntry(inherited, name);
    if (field === undefined) continue;
    const mapping = typeof field === "string" ? { type: field } : (field as JsonObject);
    if (mapping.required !== true) setEntry(out.fields, name, { ...mapping, required: true });
  }
}

/** The JSON kind of a type (`string`, `integer`, `array`...), when it is plain to see. */
function kindOf(ctx: ImportContext, type: TypeOut, depth = 0): string | undefined {
  if (depth > 32) return undefined;
  if (typeof type === "string") {
    if (isScalarTypeName(type)) return type;
    if (type.endsWith("[]")) return "array";
    if (namePattern.test(type) && ctx.types.has(type))
      return kindOf(ctx, ctx.types.get(type)!, depth + 1);
    return undefined;
  }
  if (Array.isArray(type.enum)) {
    const kinds = new Set(type.enum.map((v) => (typeof v === "number" ? "integer" : typeof v)));
    return kinds.size === 1 ? [...kinds][0] : undefined;
  }
  if (type.type === "array") return "array";
  return typeof type.type === "string" ? kindOf(ctx, type.type, depth + 1) : undefined;
}

/**
 * Members none of which is an object: the type is the first that says more than its kind; a
 * member that only repeats that kind (`{ type: string }` beside a `$ref` to a string enum) is
 * dropped, any other is noted.
 */
function firstOfOthers(
  ctx: ImportContext,
  others: { type: TypeOut; at: Pointer }[],
  facets: JsonObject,
): TypeOut {
  const chosen = others.find((o) => !isScalarTypeName(o.type)) ?? others[0]!;
  const kind = kindOf(ctx, chosen.type);
  for (const other of others) {
    if (other === chosen) continue;
    const repeats =
      isScalarTypeName(other.type) &&
      (kind === undefined ||
        kind === other.type ||
        (kind === "integer" && other.type === "number"));
    if (!repeats)
      note(ctx, facets, other.at, "an allOf member combined with another type: left out");
  }
  return chosen.type;
}

/** `nullable: false` in a member: the type without null (a nullable named type is noted). */
function withoutNull(ctx: ImportContext, type: TypeOut, facets: JsonObject, at: Pointer): TypeOut {
  delete facets.nullable;
  if (isObject(type) && type.nullable === true) {
    const { nullable: _nullable, ...rest } = type;
    return rest;
  }
  const ref = namedIn(ctx, type);
  const target = ref && ctx.types.get(ref.name);
  if (isObject(target) && target.nullable === true)
    note(
      ctx,
      facets,
      under(at, "allOf"),
      `nullable: false cannot narrow ${ref!.name}, which admits null`,
    );
  return type;
}
