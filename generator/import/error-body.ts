/**
 * The API's error body (the format's `errors.body`) read from a document's error responses:
 * the one schema that a strict majority of the error responses with a JSON body (4xx, 5xx,
 * their ranges and `default`, each directly or by `$ref` to a components response) name by
 * `$ref`; without a majority, the schema every catch-all response (a range or `default`)
 * names, when no other schema is named more often. The error responses of that schema then
 * say nothing more; one of another schema keeps a note at its content, as the format has one
 * error body per API.
 */
import { deref, isObject, ownDocument, under, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { operationsOf } from "./operations.ts";
import { typeOf } from "./schemas.ts";

const errorStatus = /^([45](\d\d|XX)|default)$/i;

/** The chosen schema of each import: where it is (its identity) and a `$ref` to it. */
const chosen = new WeakMap<ImportContext, { key: string; ref: JsonObject; at: Pointer }>();

/**
 * Where the JSON schema of an error response's content is, after every `$ref`: the identity
 * two error responses share when they name one schema. `undefined` without a JSON body.
 */
export function errorSchemaKey(
  ctx: ImportContext,
  content: JsonValue | undefined,
  contentAt: Pointer,
): { key: string; byRef: boolean; ref: JsonObject; at: Pointer } | undefined {
  if (!isObject(content)) return undefined;
  const type = Object.keys(content).find((t) => /^application\/([\w.-]+\+)?json\b/i.test(t));
  const media = type === undefined ? undefined : content[type];
  if (!isObject(media) || media.schema === undefined) return undefined;
  const at = under(contentAt, type!, "schema");
  const schema = media.schema;
  const byRef = isObject(schema) && typeof schema.$ref === "string";
  const target = deref(ctx, schema, at);
  return {
    key: `${target.at.file}${target.at.pointer}`,
    byRef,
    ref: byRef ? { $ref: schema.$ref as string } : {},
    at,
  };
}

/**
 * Decides the API's error body of a document that is not apigen's own (whose `x-errors`
 * says it): the `$ref`'d schema of more than half of the error responses that have a JSON
 * body, else that of all the catch-all ones if it is the most frequent. Called before the
 * endpoints are read, so that their error responses can tell.
 */
export function chooseErrorBody(ctx: ImportContext): void {
  if (ownDocument(ctx)) return;
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const counts = new Map<
    string,
    { count: number; catchAll: number; ref: JsonObject; at: Pointer }
  >();
  let total = 0;
  let catchAllTotal = 0;
  for (const [path, item0] of Object.entries(paths)) {
    const { value: item, at: itemAt } = deref(ctx, item0, under(rootAt, "paths", path));
    if (!isObject(item)) continue;
    for (const { op, at } of operationsOf(ctx, item, itemAt)) {
      const responses = isObject(op.responses) ? op.responses : {};
      for (const [status, response0] of Object.entries(responses)) {
        if (!errorStatus.test(status)) continue;
        const { value: response, at: responseAt } = deref(
          ctx,
          response0,
          under(at, "responses", status),
        );
        if (!isObject(response)) continue;
        const found = errorSchemaKey(ctx, response.content, under(responseAt, "content"));
        if (!found) continue;
        const catchAll = /XX$|^default$/i.test(status);
        total++;
        if (catchAll) catchAllTotal++;
        if (!found.byRef) continue;
        const entry = counts.get(found.key) ?? {
          count: 0,
          catchAll: 0,
          ref: found.ref,
          at: found.at,
        };
        entry.count++;
        if (catchAll) entry.catchAll++;
        counts.set(found.key, entry);
      }
    }
  }
  const most = Math.max(0, ...[...counts.values()].map((e) => e.count));
  for (const [key, entry] of counts) {
    const majority = entry.count * 2 > total;
    // Without a majority (Discord: every operation's 429 one schema, its 4XX another), the
    // schema of every catch-all response (4XX, 5XX, default), if none is more frequent.
    const catchAll = catchAllTotal > 0 && entry.catchAll === catchAllTotal && entry.count === most;
    if (majority || catchAll) return void chosen.set(ctx, { key, ref: entry.ref, at: entry.at });
  }
}

/** Whether an error response's content is the API's error body (and so needs no note). */
export function isApiErrorBody(
  ctx: ImportContext,
  content: JsonValue,
  contentAt: Pointer,
): boolean {
  const body = chosen.get(ctx);
  return body !== undefined && errorSchemaKey(ctx, content, contentAt)?.key === body.key;
}

/**
 * The name of the API's error body type, converted in the shared area; `undefined` when no
 * schema was chosen or it did not become a named type (then every error body keeps its note).
 */
export function errorBodyType(ctx: ImportContext): string | undefined {
  const body = chosen.get(ctx);
  if (!body) return undefined;
  const name = typeOf(ctx, body.ref, body.at);
  if (typeof name === "string" && /^[A-Z]\w*$/.test(name)) return name;
  chosen.delete(ctx);
  return undefined;
}
