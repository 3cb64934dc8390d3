/**
 * Response headers read from an OpenAPI document: each success response's declared headers
 * (`withHeaders`), and the API-wide ones apigen writes for `responseHeaders:` (the component
 * headers the root's `x-apigen-response-headers` lists, which every success response refers
 * to): those become the spec's `responseHeaders:` again, and an operation's reference to one
 * is left out of its own.
 */
import {
  componentsOf,
  deref,
  isObject,
  isScalarTypeName,
  note,
  setEntry,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { fragmentPointer, pointerTokens } from "./document-files.ts";
import { asMapping, typeOf } from "./schemas.ts";

/** The header's entry as the spec writes it (a type, or a mapping with its description); undefined for a type the format cannot read. */
function headerEntry(ctx: ImportContext, header: JsonObject, at: Pointer): JsonValue | undefined {
  const type = typeOf(ctx, header.schema ?? { type: "string" }, under(at, "schema"));
  const base = typeof type === "string" ? type : stringOf(type, "type");
  if (!isScalarTypeName(base)) return undefined;
  const description = stringOf(header, "description");
  return description?.trim() ? { ...asMapping(type), description: description.trim() } : type;
}

/** The names `x-apigen-response-headers` lists: the API-wide component headers. */
function apiWideNames(ctx: ImportContext): Set<string> {
  const listed = (ctx.doc.root.value as JsonObject)["x-apigen-response-headers"];
  return new Set(Array.isArray(listed) ? listed.filter((n) => typeof n === "string") : []);
}

/** The component header a local `$ref` names (`#/components/headers/X-Rate`), read as any `$ref` is; else undefined. */
function componentHeaderOf(ref: string): string | undefined {
  if (!ref.startsWith("#")) return undefined;
  const pointer = fragmentPointer(ref.slice(1));
  if (typeof pointer !== "string") return undefined;
  const [section, kind, name, ...rest] = pointerTokens(pointer);
  return section === "components" && kind === "headers" && !rest.length ? name : undefined;
}

/** `responseHeaders:`: the API-wide response headers apigen's own document lists. */
export function responseHeadersSection(ctx: ImportContext): JsonObject | undefined {
  const headers = componentsOf(ctx, "headers");
  const out: JsonObject = {};
  for (const name of apiWideNames(ctx)) {
    const header = headers[name];
    if (!isObject(header)) continue;
    const at = under({ file: ctx.doc.root.path, pointer: "#" }, "components", "headers", name);
    const entry = headerEntry(ctx, header, at);
    if (entry !== undefined) setEntry(out, name, entry);
  }
  return Object.keys(out).length ? out : undefined;
}

/** A success response's declared headers the format can type, on `out`; the API-wide ones are the API's. */
export function withHeaders(
  ctx: ImportContext,
  response: JsonObject,
  at: Pointer,
  out: JsonObject,
): JsonObject {
  const headers = isObject(response.headers) ? response.headers : {};
  const apiWide = apiWideNames(ctx);
  const declared: JsonObject = {};
  for (const [name, raw] of Object.entries(headers)) {
    const ref = isObject(raw) && typeof raw.$ref === "string" ? raw.$ref : undefined;
    if (apiWide.has(name) && ref !== undefined && componentHeaderOf(ref) === name) continue;
    const { value: header, at: headerAt } = deref(ctx, raw, under(at, "headers", name));
    if (!isObject(header)) continue;
    const entry = headerEntry(ctx, header, headerAt);
    if (entry !== undefined) setEntry(declared, name, entry);
    else note(ctx, out, headerAt, `response header ${name} of a type the format cannot read`);
  }
  if (Object.keys(declared).length) out.headers = declared;
  return out;
}
