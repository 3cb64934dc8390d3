/**
 * What a query string can carry, decided on the OpenAPI schema before a query parameter is
 * written: a scalar or an array of scalars as it is; an object of scalars in `deepObject`
 * style (`created[gte]=1`); an object in the default `form` style (exploded) as what OpenAPI
 * says it is on the wire, one parameter per property (`?status=open&limit=5`). What no style of
 * the format can send (an array of objects, a map or an unexploded object in form style, an
 * object nesting objects in deepObject style below its first level) is left out with a note at
 * its pointer, never written as a parameter `generate` would refuse. A `deepObject` that
 * nests is split where it nests: `filter: {range: {gte}}` becomes the deepObject parameter
 * `filter[range]` (`filter[range][gte]=1`, what the server reads), beside `filter` with its
 * scalar fields. The split is bounded: a recursive schema stops where it recurs, and one
 * parameter is split into at most `nestedObjectBudget` others (OpenSearch's GETs, whose JSON
 * body of the recursive query language becomes the query, nest hundreds of objects per level).
 */
import { deref, isObject, note, stringOf, under, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";

/** How many nested objects one query parameter is split into, at most: the rest is left out, noted. */
export const nestedObjectBudget = 64;

/** Where a deepObject split is: the objects it is inside, and what is left of its budget. */
export interface Nesting {
  /** The schemas (where their `$ref`s lead) of the objects above: one of them again recurs. */
  above: readonly Pointer[];
  /** Nested objects the whole parameter may still split off, shared by every branch. */
  budget: { left: number };
}

/** How a schema travels in a query string. */
type Shape = "scalar" | "scalars" | "object" | "map" | "objects" | "arrays" | "union";

/** How deep in `allOf`, `oneOf`, `anyOf` and `items` a query value's shape is looked for. */
const compositionDepth = 16;

/**
 * The answers of a walk over schemas by the schema (the document's own object, after its
 * `$ref`s) and the depth it was asked at: a schema is worked out once per depth. Without it a
 * chain of unions, each of a few `$ref`s to the next, took time exponential in its length (30
 * levels of three: the import never ended), where the depth limit alone bounded only the depth.
 */
function memoized<T>(
  walk: (ctx: ImportContext, schema: JsonObject, at: Pointer, depth: number) => T,
): (ctx: ImportContext, schema: JsonObject, at: Pointer, depth: number) => T {
  const known = new WeakMap<JsonObject, Map<number, T>>();
  return (ctx, schema, at, depth) => {
    let byDepth = known.get(schema);
    if (byDepth?.has(depth)) return byDepth.get(depth)!;
    const answer = walk(ctx, schema, at, depth);
    if (!byDepth) known.set(schema, (byDepth = new Map()));
    byDepth.set(depth, answer);
    return answer;
  };
}

/** Whether a schema (after its `$ref`s) is an object, a map or a union or allOf holding one. */
function isObjectish(ctx: ImportContext, raw: JsonValue, at: Pointer, depth = 0): boolean {
  const { value: schema, at: schemaAt } = deref(ctx, raw, at);
  if (!isObject(schema)) return false;
  // past the limit (a composition that deep, or one that recurs), the answer that keeps the
  // parameter out rather than one generate would refuse
  if (depth > compositionDepth) return true;
  return objectish(ctx, schema, schemaAt, depth);
}

/** Whether a schema's `type` names `name`, alone or in a 3.1 list (`[object, "null"]`). */
function typed(schema: JsonObject, name: string): boolean {
  return schema.type === name || (Array.isArray(schema.type) && schema.type.includes(name));
}

const objectish = memoized((ctx, schema, schemaAt, depth): boolean => {
  if (typed(schema, "object") || isObject(schema.properties)) return true;
  if (schema.type === undefined && isObject(schema.additionalProperties)) return true;
  return ["allOf", "oneOf", "anyOf"].some(
    (key) =>
      Array.isArray(schema[key]) &&
      (schema[key] as JsonValue[]).some((m, i) =>
        isObjectish(ctx, m, under(schemaAt, key, i), depth + 1),
      ),
  );
});

/** Whether a schema is an array (its type, or `items`). */
function isArray(schema: JsonObject): boolean {
  return typed(schema, "array") || (schema.type === undefined && schema.items !== undefined);
}

/** The shape of a query value's schema. */
export function shapeOf(ctx: ImportContext, raw: JsonValue, at: Pointer, depth = 0): Shape {
  const { value: schema, at: schemaAt } = deref(ctx, raw, at);
  if (!isObject(schema)) return "scalar";
  // past the limit, as isObjectish: a union holding objects, which no style sends (noted)
  if (depth > compositionDepth) return "union";
  return schemaShape(ctx, schema, schemaAt, depth);
}

const schemaShape = memoized((ctx, schema, schemaAt, depth): Shape => {
  // an allOf that only wraps (`allOf: [{ $ref: Matrix }]`, an array of arrays) is the shape of
  // what it wraps; one that adds fields is an object, below
  if (
    Array.isArray(schema.allOf) &&
    schema.type === undefined &&
    schema.items === undefined &&
    !isObject(schema.properties)
  ) {
    const shapes = schema.allOf.map((m, i) =>
      shapeOf(ctx, m, under(schemaAt, "allOf", i), depth + 1),
    );
    const objects = shapes.some((s) => s === "object" || s === "map");
    const wrapped = objects ? undefined : shapes.find((s) => s !== "scalar");
    if (wrapped !== undefined) return wrapped;
  }
  if (isArray(schema)) {
    const itemsAt = under(schemaAt, "items");
    if (isObjectish(ctx, schema.items ?? {}, itemsAt)) return "objects";
    // items that are arrays, however wrapped (an allOf of one array, a union of them)
    return shapeOf(ctx, schema.items ?? {}, itemsAt, depth + 1) === "scalar" ? "scalars" : "arrays";
  }
  const union = ["oneOf", "anyOf"].find((key) => Array.isArray(schema[key]));
  if (union !== undefined && schema.type === undefined && !isObject(schema.properties)) {
    const shapes = new Set(
      (schema[union] as JsonValue[]).map((m, i) =>
        shapeOf(ctx, m, under(schemaAt, union, i), depth + 1),
      ),
    );
    if ([...shapes].every((s) => s === "scalar")) return "scalar";
    if ([...shapes].every((s) => s === "scalar" || s === "scalars")) return "scalars";
    return "union";
  }
  // an object whose oneOf or anyOf holds objects is their union, as its type is written
  // (Pinterest's report parameters: `type: object` with a discriminator and two objects that
  // each nest one more, which a deepObject split of its own properties did not reach)
  if (
    union !== undefined &&
    (schema[union] as JsonValue[]).some((m, i) =>
      isObjectish(ctx, m, under(schemaAt, union, i), depth + 1),
    )
  )
    return "union";
  if (!isObjectish(ctx, schema, schemaAt)) return "scalar";
  if (isObject(schema.properties) && Object.keys(schema.properties).length) return "object";
  if (Array.isArray(schema.allOf))
    return propertiesOf(ctx, schema, schemaAt).length ? "object" : "union";
  return "map";
});

/** One property of an object schema, where it is and whether it is required. */
export interface Property {
  name: string;
  schema: JsonValue;
  at: Pointer;
  required: boolean;
}

/**
 * The properties of an object schema (its own, and those of its allOf members). An allOf
 * that reaches its own schema again (`Owner: { allOf: [{ $ref: Owner }, ...] }`) is read
 * once: `seen` holds the schemas on the way.
 */
export function propertiesOf(
  ctx: ImportContext,
  raw: JsonValue,
  at: Pointer,
  seen = new Set<JsonObject>(),
): Property[] {
  const { value: schema, at: schemaAt } = deref(ctx, raw, at);
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const own = isObject(schema.properties) ? schema.properties : {};
  const out: Property[] = Object.entries(own).map(([name, value]) => ({
    name,
    schema: value,
    at: under(schemaAt, "properties", name),
    required: required.includes(name),
  }));
  if (Array.isArray(schema.allOf))
    schema.allOf.forEach((member, i) => {
      for (const p of propertiesOf(ctx, member, under(schemaAt, "allOf", i), seen))
        if (!out.some((o) => o.name === p.name)) out.push(p);
    });
  return out;
}

/** A query parameter to write: its name, schema, style and where it came from. */
export interface QueryParamOut {
  name: string;
  schema: JsonValue;
  at: Pointer;
  required: boolean;
  style?: DelimitedStyle | "deepObject";
  /** A schema made here (a deepObject split at its nesting), not the document's own. */
  made?: boolean;
}

/** The spec's style of an array written as one value: `a=1,2`, `a=1%202`, `a=1|2`. */
export type DelimitedStyle = "comma" | "space" | "pipe";

/**
 * The spec style of an array of scalars in OpenAPI's `style` and `explode`: the delimited
 * ones (`form`, `spaceDelimited`, `pipeDelimited` not exploded), or none (repeated, `a=1&a=2`,
 * what all three are exploded).
 */
function delimitedStyle(style: string, explode: boolean): DelimitedStyle | undefined {
  if (explode) return undefined;
  if (style === "form") return "comma";
  if (style === "spaceDelimited") return "space";
  if (style === "pipeDelimited") return "pipe";
  return undefined;
}

/** The query styles the import carries; any other is noted at the parameter's `style`. */
export const carriedQueryStyles: ReadonlySet<string> = new Set([
  "form",
  "deepObject",
  "spaceDelimited",
  "pipeDelimited",
]);

/**
 * What became of a deepObject parameter that was split or lost fields: its nested objects
 * sent as parameters of their own (`created[range]`), and the fields left out with what each
 * is, which style deepObject cannot carry (one level of scalar fields, or arrays of them).
 */
function deepObjectLosses(
  name: string,
  nested: readonly QueryParamOut[],
  dropped: readonly string[],
  nothingFlat: boolean,
): string {
  const parts: string[] = [];
  if (nested.length)
    parts.push(
      `nests objects: each nested object is a deepObject parameter of its own (${nested.map((n) => n.name).join(", ")})`,
    );
  if (dropped.length) {
    const fields = `field${dropped.length > 1 ? "s" : ""} ${dropped.join(", ")}`;
    parts.push(
      nested.length === 0 && nothingFlat
        ? `is left out: style deepObject cannot carry its ${fields}, and it has no other`
        : `is sent without its ${fields}, which style deepObject cannot carry`,
    );
  }
  return `query parameter ${name} ${parts.join("; it ")}`;
}

/**
 * Why a query parameter that is an array of objects (or of arrays) is left out, and what the
 * user can do: OpenAPI defines no encoding of one in any query style (form and deepObject
 * describe arrays of scalars and objects of scalars only), and servers read different ones
 * (qs and Rails `a[0][b]=1`, PHP `a[][b]=1`, others JSON), so no form sends what every server
 * expects; an overlay giving it `schema: { type: string }` makes it a text the caller encodes.
 */
export function undefinedEncoding(what: string, style: string, explode: boolean): string {
  const declared = `style ${style}${explode ? "" : " (not exploded)"}`;
  return `is ${what}, whose encoding in the query OpenAPI leaves undefined (${declared}; servers read a[0][b]=1, a[][b]=1 or JSON); an overlay giving it schema {type: string} sends the text the caller encodes`;
}

/**
 * The query parameters that carry `name` (style and explode as OpenAPI has them), or none,
 * with a note on `out` at the parameter when it cannot be sent.
 */
export function queryParamsOf(
  ctx: ImportContext,
  param: { name: string; schema: JsonValue; at: Pointer; required: boolean },
  style: string,
  explode: boolean,
  out: JsonObject,
  /** Where in a deepObject this parameter is; absent: a parameter of the operation. */
  nesting?: Nesting,
): QueryParamOut[] {
  const shape = shapeOf(ctx, param.schema, param.at);
  const cannot = (why: string): QueryParamOut[] => {
    note(ctx, out, param.at, `query parameter ${param.name} ${why}; it is left out`);
    return [];
  };
  switch (shape) {
    case "scalar":
      return [{ ...param }];
    case "scalars": {
      const delimited = delimitedStyle(style, explode);
      return [{ ...param, ...(delimited ? { style: delimited } : {}) }];
    }
    case "objects":
      return cannot(undefinedEncoding("an array of objects", style, explode));
    case "arrays":
      return cannot(undefinedEncoding("an array of arrays", style, explode));
    case "union":
      return cannot(
        "is a union holding objects or arrays, which no query style of the format can send",
      );
    case "map":
      return style === "deepObject" && !mapNests(ctx, param.schema, param.at)
        ? [{ ...param, style: "deepObject" }]
        : cannot(
            style === "deepObject"
              ? "is a map of objects, which style deepObject does not send"
              : `is a free-form object in style ${style}, whose keys the format cannot send as query parameters`,
          );
    case "object":
      if (style === "deepObject") return deepObjectParams(ctx, param, out, nesting);
      if (style === "form" && explode) return formObjectParams(ctx, param, out);
      return cannot(`is an object in style ${style}${explode ? "" : " (not exploded)"}`);
    default: {
      const never: never = shape;
      return never;
    }
  }
}

/**
 * Why a nested object field is not split off as a parameter of its own, or `undefined` when it
 * is: its schema is one of the objects it is inside (a recursive schema), it lies more than 8
 * levels deep, or the parameter has split off its budget of nested objects already.
 */
function nestingStop(ctx: ImportContext, field: Property, inside: Nesting): string | undefined {
  const { at } = deref(ctx, field.schema, field.at);
  if (inside.above.some((a) => a.file === at.file && a.pointer === at.pointer))
    return "an object of a schema it is inside, which recurs";
  if (inside.above.length > 8) return "an object nested more than 8 levels deep";
  if (inside.budget.left <= 0)
    return `a nested object past the ${nestedObjectBudget} the parameter is split into`;
  return undefined;
}

/** Whether a map's values are objects or arrays of them. */
function mapNests(ctx: ImportContext, raw: JsonValue, at: Pointer): boolean {
  const { value: schema, at: schemaAt } = deref(ctx, raw, at);
  if (!isObject(schema) || !isObject(schema.additionalProperties)) return false;
  const shape = shapeOf(ctx, schema.additionalProperties, under(schemaAt, "additionalProperties"));
  return shape !== "scalar" && shape !== "scalars";
}

/**
 * An exploded form-style object: on the wire each property is a query parameter of its own
 * (`?name=x&limit=5`), and so it is written. A property that would not be a scalar there, or
 * whose name another parameter has, is left out with a note.
 */
function formObjectParams(
  ctx: ImportContext,
  param: { name: string; schema: JsonValue; at: Pointer; required: boolean },
  out: JsonObject,
): QueryParamOut[] {
  note(
    ctx,
    out,
    param.at,
    `query parameter ${param.name} is an object in style form: its properties are written as the query parameters they are on the wire`,
  );
  const params: QueryParamOut[] = [];
  for (const p of propertiesOf(ctx, param.schema, param.at)) {
    const shape = shapeOf(ctx, p.schema, p.at);
    if (shape === "scalar" || shape === "scalars")
      params.push({
        name: p.name,
        schema: p.schema,
        at: p.at,
        required: param.required && p.required,
      });
    else
      note(
        ctx,
        out,
        p.at,
        `property ${p.name} of query parameter ${param.name} is not a scalar in style form; it is left out`,
      );
  }
  return params;
}

/**
 * A deepObject: its scalar fields (and arrays of scalars) stay in it; a field that is an object
 * becomes a deepObject parameter of its own named `name[field]`, which sends the same
 * `name[field][inner]=value` pairs; an array of objects is left out with a note, as is an
 * object that recurs, lies more than 8 levels deep, or is past the parameter's budget.
 */
function deepObjectParams(
  ctx: ImportContext,
  param: { name: string; schema: JsonValue; at: Pointer; required: boolean },
  out: JsonObject,
  nesting: Nesting = { above: [], budget: { left: nestedObjectBudget } },
): QueryParamOut[] {
  const props = propertiesOf(ctx, param.schema, param.at);
  const inside: Nesting = {
    above: [...nesting.above, deref(ctx, param.schema, param.at).at],
    budget: nesting.budget,
  };
  const flat: Property[] = [];
  const nested: QueryParamOut[] = [];
  /** Each field left out, with what it is (`lines (an array of objects)`). */
  const dropped: string[] = [];
  for (const p of props) {
    const shape = shapeOf(ctx, p.schema, p.at);
    const inner = { name: `${param.name}[${p.name}]`, schema: p.schema, at: p.at, required: false };
    const stop = shape === "object" || shape === "map" ? nestingStop(ctx, p, inside) : undefined;
    if (shape === "scalar" || shape === "scalars") flat.push(p);
    else if ((shape === "object" || shape === "map") && stop === undefined) {
      inside.budget.left--;
      const made = queryParamsOf(ctx, inner, "deepObject", true, out, inside);
      nested.push(...made);
      // a nested object none of whose fields can travel was left out (noted there): this
      // parameter cannot be sent whole either, or it would carry the nesting after all
      if (!made.length) dropped.push(`${p.name} (an object whose fields cannot travel)`);
    } else {
      const what =
        shape === "objects"
          ? "an array of objects"
          : shape === "arrays"
            ? "an array of arrays"
            : shape === "union"
              ? "a union holding objects"
              : stop!;
      dropped.push(`${p.name} (${what})`);
      note(
        ctx,
        out,
        p.at,
        shape === "objects" || shape === "arrays"
          ? `field ${p.name} of query parameter ${param.name} ${undefinedEncoding(what, "deepObject", true)}; it is left out`
          : `field ${p.name} of query parameter ${param.name} (${what}) cannot travel in style deepObject; it is left out`,
      );
    }
  }
  if (nested.length === 0 && dropped.length === 0) return [{ ...param, style: "deepObject" }];
  note(ctx, out, param.at, deepObjectLosses(param.name, nested, dropped, flat.length === 0));
  const own: QueryParamOut[] = [];
  if (flat.length) {
    // The made schema's fields are the document's: their `$ref`s resolve from where it is.
    const { value: schema, at: schemaAt } = deref(ctx, param.schema, param.at);
    const description = isObject(schema) ? stringOf(schema, "description") : undefined;
    const properties: JsonObject = {};
    for (const p of flat) properties[p.name] = p.schema;
    const required = flat.filter((p) => p.required).map((p) => p.name);
    own.push({
      ...param,
      at: schemaAt,
      style: "deepObject",
      made: true,
      schema: {
        type: "object",
        properties,
        ...(required.length ? { required } : {}),
        ...(description ? { description } : {}),
      },
    });
  }
  return [...own, ...nested];
}
