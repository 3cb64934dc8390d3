/**
 * `format: binary`: bytes. A spec type `binary` travels only as a body of its own (a file, an
 * octet stream, a download) or as a file part of a multipart body; inside a JSON value (a field
 * of a JSON body or response, an item of an array there) bytes can only be an encoded string,
 * so there it becomes `string`, with a note.
 */
import { deref, isObject, locationKey, note, under, type ImportContext } from "./context.ts";
import { child, pointerTokens, type JsonObject, type JsonValue, type Pointer } from "./document.ts";

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Per import: the locations of the schemas that are multipart request bodies ($refs followed). */
const multipartBodies = new WeakMap<ImportContext, Set<string>>();

function multipartSchemas(ctx: ImportContext): Set<string> {
  const known = multipartBodies.get(ctx);
  if (known) return known;
  const found = new Set<string>();
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = safeDeref(ctx, rawItem, under(rootAt, "paths", path));
    if (!item || !isObject(item.value)) continue;
    for (const method of methods) {
      const body = isObject(item.value[method])
        ? safeDeref(ctx, item.value[method].requestBody, under(item.at, method, "requestBody"))
        : undefined;
      if (!body || !isObject(body.value) || !isObject(body.value.content)) continue;
      for (const [media, content] of Object.entries(body.value.content)) {
        if (!media.startsWith("multipart/") || !isObject(content)) continue;
        const schema = safeDeref(ctx, content.schema, under(body.at, "content", media, "schema"));
        if (schema) found.add(locationKey(schema.at));
      }
    }
  }
  multipartBodies.set(ctx, found);
  return found;
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
 * Whether bytes may be at `at`: a body or response schema itself, a named schema (which a
 * body may be), or a field (or a field's items) of a multipart body's schema.
 */
function bytesMayBe(ctx: ImportContext, at: Pointer): boolean {
  const tokens = pointerTokens(at.pointer);
  if (tokens.at(-1) === "schema" && tokens.at(-3) === "content") return true;
  if (tokens.length === 3 && tokens[0] === "components" && tokens[1] === "schemas") return true;
  let end = tokens.length;
  if (tokens[end - 1] === "items") end--;
  if (tokens[end - 2] !== "properties") return false;
  end -= 2;
  while (end >= 2 && tokens[end - 2] === "allOf") end -= 2;
  const parent = { file: at.file, pointer: pointerOf(tokens.slice(0, end)) };
  return multipartSchemas(ctx).has(locationKey(parent));
}

const pointerOf = (tokens: string[]) => tokens.reduce<string>((p, t) => child(p, t), "#");

/** The spec type of a `format: binary` string at `at`: `binary` where bytes may be, else a noted `string`. */
export function bytesType(
  ctx: ImportContext,
  at: Pointer,
  facets: JsonObject,
): "binary" | "string" {
  if (bytesMayBe(ctx, at)) return "binary";
  note(
    ctx,
    facets,
    under(at, "format"),
    "format binary inside a JSON value: a string (bytes in JSON travel encoded, e.g. base64)",
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
