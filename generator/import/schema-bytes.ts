/**
 * `format: binary`: bytes. A spec type `binary` travels only as a body of its own (a file, an
 * octet stream, a download) or as a file part of a multipart body; inside a JSON value (a field
 * of a JSON body or response, an item of an array there) bytes can only be an encoded string,
 * so there it becomes `string`, with a note. So does a field of a multipart body's schema that
 * a JSON body or response reaches too (Django REST framework's own generator gives an image
 * field `format: binary` in the one schema of uploads and answers): one named type cannot be
 * both, and generate refuses bytes in JSON.
 */
import {
  deref,
  isObject,
  locationKey,
  note,
  operationKey,
  operationMethods,
  under,
  type ImportContext,
} from "./context.ts";
import { child, pointerTokens, type JsonObject, type JsonValue, type Pointer } from "./document.ts";

/**
 * Per import: the locations of the schemas that are multipart request bodies ($refs followed),
 * and of each variant of one that is a union: a call sends the fields of whichever it gives
 * as the parts (X-Road's "a new URL, a new certificate file, or both", an `anyOf` of three).
 */
const multipartBodies = new WeakMap<ImportContext, Set<string>>();

function multipartSchemas(ctx: ImportContext): Set<string> {
  const known = multipartBodies.get(ctx);
  if (known) return known;
  const found = new Set<string>();
  const add = (raw: JsonValue, at: Pointer): void => {
    const schema = safeDeref(ctx, raw, at);
    if (!schema || found.has(locationKey(schema.at))) return;
    found.add(locationKey(schema.at));
    if (!isObject(schema.value)) return;
    for (const word of ["oneOf", "anyOf"] as const) {
      const variants = schema.value[word];
      if (Array.isArray(variants))
        variants.forEach((variant, i) => add(variant, under(schema.at, word, i)));
    }
  };
  forEachContent(ctx, false, (media, raw, at) => {
    if (media.startsWith("multipart/") && raw !== undefined) add(raw, at);
  });
  multipartBodies.set(ctx, found);
  return found;
}

/** Whether a media type is JSON (`application/json`, `application/problem+json; charset=utf-8`). */
export const isJsonMedia = (type: string) =>
  /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i.test(type);

/** Per import: the locations of the schemas a JSON body or response reaches ($refs followed). */
const jsonReached = new WeakMap<ImportContext, Set<string>>();

function jsonSchemas(ctx: ImportContext): Set<string> {
  const known = jsonReached.get(ctx);
  if (known) return known;
  const found = new Set<string>();
  const visit = (raw: JsonValue | undefined, at: Pointer): void => {
    const schema = raw === undefined ? undefined : safeDeref(ctx, raw, at);
    if (!schema || !isObject(schema.value)) return;
    const key = locationKey(schema.at);
    if (found.has(key)) return;
    found.add(key);
    const value = schema.value;
    for (const word of ["properties", "patternProperties"] as const)
      if (isObject(value[word]))
        for (const [name, inner] of Object.entries(value[word]))
          visit(inner, under(schema.at, word, name));
    for (const word of ["items", "additionalProperties", "not"] as const)
      if (isObject(value[word])) visit(value[word], under(schema.at, word));
    for (const word of ["allOf", "oneOf", "anyOf", "prefixItems"] as const)
      if (Array.isArray(value[word]))
        value[word].forEach((inner, i) => visit(inner, under(schema.at, word, i)));
  };
  // a JSON request body offered beside a multipart one is not carried (the multipart one is)
  forEachContent(ctx, true, (media, schema, at, offered) => {
    if (isJsonMedia(media) && !offered.some((m) => m.startsWith("multipart/"))) visit(schema, at);
  });
  jsonReached.set(ctx, found);
  return found;
}

/**
 * Each media type of the operations' request bodies (and `responses`), with its schema and
 * every media type offered beside it (a response's: none).
 */
function forEachContent(
  ctx: ImportContext,
  responses: boolean,
  each: (media: string, schema: JsonValue | undefined, at: Pointer, offered: string[]) => void,
): void {
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const contents = (raw: JsonValue | undefined, at: Pointer, request: boolean) => {
    const holder = raw === undefined ? undefined : safeDeref(ctx, raw, at);
    if (!holder || !isObject(holder.value) || !isObject(holder.value.content)) return;
    const offered = request ? Object.keys(holder.value.content) : [];
    for (const [media, content] of Object.entries(holder.value.content))
      if (isObject(content))
        each(media, content.schema, under(holder.at, "content", media, "schema"), offered);
  };
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = safeDeref(ctx, rawItem, under(rootAt, "paths", path));
    if (!item || !isObject(item.value)) continue;
    for (const method of operationMethods) {
      const key = operationKey(item.value, method);
      const op = item.value[key];
      if (!isObject(op)) continue;
      const opAt = under(item.at, key);
      contents(op.requestBody, under(opAt, "requestBody"), true);
      if (responses && isObject(op.responses))
        for (const [status, response] of Object.entries(op.responses))
          contents(response, under(opAt, "responses", status), false);
    }
  }
}

/** `deref`, or undefined where a `$ref` is broken (reported where the importer reads it). */
function safeDeref(ctx: ImportContext, value: JsonObject[string] | undefined, at: Pointer) {
  if (value === undefined) return undefined;
  try {
    return deref(ctx, value, at);
  } catch {
    return undefined;
  }
}

/**
 * Where bytes may be at `at`: a body or response schema itself, a named schema (which a body
 * may be), or a field (or a field's items) of a multipart body's schema that no JSON body or
 * response reaches (`"json"`: one that one does, which cannot be bytes there); else `false`.
 */
function bytesMayBe(ctx: ImportContext, at: Pointer): boolean | "json" {
  const tokens = pointerTokens(at.pointer);
  if (tokens.at(-1) === "schema" && tokens.at(-3) === "content") return true;
  if (tokens.length === 3 && tokens[0] === "components" && tokens[1] === "schemas") return true;
  let end = tokens.length;
  if (tokens[end - 1] === "items") end--;
  if (tokens[end - 2] !== "properties") return false;
  end -= 2;
  while (end >= 2 && tokens[end - 2] === "allOf") end -= 2;
  const parent = locationKey({ file: at.file, pointer: pointerOf(tokens.slice(0, end)) });
  if (!multipartSchemas(ctx).has(parent)) return false;
  return jsonSchemas(ctx).has(parent) ? "json" : true;
}

const pointerOf = (tokens: string[]) => tokens.reduce<string>((p, t) => child(p, t), "#");

/**
 * The spec type of a bytes string at `at`, which says so by `keyword` (`format: binary`, or
 * 3.1's `contentMediaType` of `value`): `binary` where bytes may be, else a noted `string`.
 */
export function bytesType(
  ctx: ImportContext,
  at: Pointer,
  facets: JsonObject,
  keyword: "format" | "contentMediaType" = "format",
  value = "binary",
): "binary" | "string" {
  const may = bytesMayBe(ctx, at);
  if (may === true) return "binary";
  const said = `${keyword} ${value}`;
  note(
    ctx,
    facets,
    under(at, keyword),
    may === "json"
      ? `${said} in a multipart body's schema that a JSON body or response has too: a string, which a JSON value can carry (the multipart body sends it as a text part; an overlay giving the upload a schema of its own keeps the file)`
      : `${said} inside a JSON value: a string (bytes in JSON travel encoded, e.g. base64)`,
  );
  return "string";
}

/** Whether a schema is bytes: a binary string (`format: binary`, or a `contentMediaType`). */
export function isBinary(ctx: ImportContext, raw: JsonValue, at: Pointer): boolean {
  const { value: schema } = deref(ctx, raw, at);
  return (
    isObject(schema) &&
    schema.type === "string" &&
    (schema.format === "binary" || typeof schema.contentMediaType === "string")
  );
}
