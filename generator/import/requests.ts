/**
 * What apigen's own document says every request carries, read back: the headers sent on
 * every request (the root's `x-apigen-headers`), which become the `headers:` entries with a
 * value, and the component parameters it writes for them and for the version header, which
 * are the API's, not each operation's parameters. And a conditional GET: a 304 response
 * beside an `If-None-Match` or `If-Modified-Since` header parameter is `notModified`.
 */
import { isObject, note, under, type ImportContext } from "./context.ts";
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

/** A stream's media types, which a 304 cannot answer for. */
const streamTypes = /^(text\/event-stream|application\/(jsonl|x-ndjson))$/;

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
  const stream = typeof response.contentType === "string" && streamTypes.test(response.contentType);
  if (out.pagination || out.streamResponse || stream || status < 200 || status > 299) {
    note(ctx, out, under(at, "responses", "304"), "response 304 (of a paged or streamed call)");
    return;
  }
  const params = out.params as JsonObject;
  for (const name of conditionalParamNames(out)) delete params[name];
  if (Object.keys(params).length === 0) delete out.params;
  response.notModified = true;
}
