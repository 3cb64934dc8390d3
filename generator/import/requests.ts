/**
 * What apigen's own document says every request carries, read back: the headers sent on
 * every request (the root's `x-apigen-headers`), which become the `headers:` entries with a
 * value, and the component parameters it writes for them and for the version header, which
 * are the API's, not each operation's parameters. And a conditional GET: a 304 response
 * beside an `If-None-Match` or `If-Modified-Since` header parameter is `notModified`.
 */
import { streamTypes } from "./stream-items.ts";
import { isObject, note, ownDocument, under, type ImportContext } from "./context.ts";
import { camelCase } from "../ir/casing.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { plainNotes } from "./extensions.ts";

/** Whether a parameter is one apigen writes for every operation: a fixed header or the version header. */
export function isFixedOrVersionHeader(param: JsonObject): boolean {
  return param["x-apigen-fixed-header"] === true || param["x-apigen-versioning"] === true;
}

/** The headers every request sends (`x-apigen-headers`), as `headers:` entries with a value. */
export function fixedHeadersSection(ctx: ImportContext): JsonObject {
  const listed = (ctx.doc.root.value as JsonObject)["x-apigen-headers"];
  if (!isObject(listed)) return {};
  const out: JsonObject = {};
  for (const [name, entry] of Object.entries(listed)) {
    if (typeof entry === "string") out[name] = entry;
    else if (isObject(entry) && typeof entry.value === "string")
      out[name] = plainNotes([entry as JsonValue])[0]!;
  }
  return out;
}

/** The conditional headers, lower-cased: the call's `ifNoneMatch` and `ifModifiedSince` send them. */
const conditionalHeaders = new Set(["if-none-match", "if-modified-since"]);

/** The names of an imported endpoint's header parameters that are conditional headers. */
function conditionalParamNames(out: JsonObject): string[] {
  const params = isObject(out.params) ? out.params : {};
  return Object.keys(params).filter((name) => {
    const spec = params[name];
    return conditionalHeaders.has(name.toLowerCase()) && isObject(spec) && spec.in === "header";
  });
}

/**
 * Whether an operation is a conditional GET or HEAD: a 304 response, and a conditional header
 * among its parameters (already read into `out.params`). Its 304 is then no gap.
 */
export function answersNotModified(op: JsonObject, out: JsonObject): boolean {
  const responses = isObject(op.responses) ? op.responses : {};
  return (
    (out.method === "GET" || out.method === "HEAD") &&
    responses["304"] !== undefined &&
    conditionalParamNames(out).length > 0
  );
}

/**
 * Of a conditional GET (`answersNotModified`), once its response and paging are read: the
 * response's `notModified`, its conditional header parameters left out (the call's options
 * send them). A paged or streamed one keeps its parameters, its 304 noted.
 */
export function notModifiedOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
): void {
  if (!answersNotModified(op, out) || !isObject(out.response)) return;
  const response = out.response;
  const status = Number(response.status);
  const stream = typeof response.contentType === "string" && streamTypes.has(response.contentType);
  if (out.pagination || out.streamResponse || stream || status < 200 || status > 299) {
    note(ctx, out, under(at, "responses", "304"), "response 304 (of a paged or streamed call)");
    return;
  }
  const params = out.params as JsonObject;
  for (const name of conditionalParamNames(out)) delete params[name];
  if (Object.keys(params).length === 0) delete out.params;
  response.notModified = true;
}

/** A host name as the format takes one (camelCase, the key of the client's `hosts` option). */
const hostNamePattern = /^[a-z][A-Za-z0-9]*$/;

/**
 * The host an operation's `servers` name, as `{ name, baseUrl }`: the first server's address
 * (its variables at their defaults) when it is an http(s) URL without query or fragment, and
 * its name: apigen's `x-apigen-host`, else the address's first label (`files.stripe.com` ->
 * `files`). Undefined when the operation has no servers or the first says nothing usable.
 */
export function operationHost(op: JsonObject): { name: string; baseUrl?: string } | undefined {
  const server = Array.isArray(op.servers) ? op.servers[0] : undefined;
  if (!isObject(server) || typeof server.url !== "string") return undefined;
  const own = server["x-apigen-host"];
  let url = server.url;
  if (isObject(server.variables))
    for (const [name, variable] of Object.entries(server.variables))
      if (isObject(variable) && variable.default !== undefined)
        url = url.replaceAll(`{${name}}`, String(variable.default));
  let parsed: URL | undefined;
  try {
    parsed = /^https?:\/\/[^?#\s]+$/.test(url) ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const name = typeof own === "string" ? own : camelCase(parsed?.hostname.split(".")[0] ?? "");
  if (!hostNamePattern.test(name) || (!parsed && typeof own !== "string")) return undefined;
  // apigen writes a host whose address the spec does not show as a `.invalid` placeholder.
  const shown = parsed && !parsed.hostname.endsWith(".invalid");
  return shown ? { name, baseUrl: url.replace(/\/+$/, "") } : { name };
}

/**
 * The `hosts:` section: apigen's own `x-apigen-hosts` as it is, else one entry per host the
 * operations' `servers` name, in document order (a later operation naming the same host at
 * another address keeps its servers as a gap: see `hostOf`).
 */
export function hostsSection(ctx: ImportContext): JsonObject | undefined {
  const root = ctx.doc.root.value as JsonObject;
  const listed = root["x-apigen-hosts"];
  if (ownDocument(ctx) && isObject(listed)) {
    const out: JsonObject = {};
    for (const [name, entry] of Object.entries(listed))
      if (isObject(entry)) out[name] = plainNotes([entry as JsonValue])[0]!;
    return Object.keys(out).length ? out : undefined;
  }
  const out: JsonObject = {};
  for (const item of Object.values(isObject(root.paths) ? root.paths : {}))
    for (const op of Object.values(isObject(item) ? item : {})) {
      const host = isObject(op) ? operationHost(op) : undefined;
      if (host && !(host.name in out))
        out[host.name] = host.baseUrl !== undefined ? { baseUrl: host.baseUrl } : {};
    }
  return Object.keys(out).length ? out : undefined;
}

/**
 * An operation's `host`, from its `servers` (`operationHost`), when the hosts section has that
 * host at that address; otherwise its servers are noted, as before hosts were carried. Further
 * servers of the operation are noted too.
 */
export function hostOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
  hosts: JsonObject | undefined,
): void {
  if (op.servers === undefined) return;
  const host = operationHost(op);
  const known =
    host && hosts && isObject(hosts[host.name]) ? (hosts[host.name] as JsonObject) : undefined;
  if (!host || !known || (!ownDocument(ctx) && known.baseUrl !== host.baseUrl)) {
    note(ctx, out, under(at, "servers"), "servers of the operation are not carried yet");
    return;
  }
  out.host = host.name;
  if (Array.isArray(op.servers) && op.servers.length > 1)
    note(ctx, out, under(at, "servers"), "servers of the operation after the first");
}
