/**
 * Paging an OpenAPI document states without an apigen extension: a success response that
 * declares a `Link` header (GitHub's 209 list operations) pages by its `rel="next"` link. The
 * items are the body when it is an array, or its one array property (`workflow_runs` of
 * `{ total_count, workflow_runs }`); a body with none or several is left a plain call. No
 * parameter name is guessed at: the header is the document's own statement.
 */
import { deref, isObject, under, type ImportContext } from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";

/** `{ style: link }` (with `items` for an object body) when the first success declares `Link`. */
export function linkPaginationOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
): JsonObject | undefined {
  const responses = isObject(op.responses) ? op.responses : {};
  const success = Object.keys(responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  if (success === undefined) return undefined;
  const responseAt = under(at, "responses", success);
  const { value: response } = deref(ctx, responses[success]!, responseAt);
  if (!isObject(response) || !isObject(response.headers)) return undefined;
  const header = Object.keys(response.headers).find((name) => name.toLowerCase() === "link");
  if (header === undefined || !isObject(response.content)) return undefined;
  const media = response.content["application/json"];
  if (!isObject(media) || media.schema === undefined) return undefined;
  const { value: schema, at: schemaAt } = deref(ctx, media.schema, responseAt);
  if (!isObject(schema)) return undefined;
  const paging: JsonObject = { style: "link" };
  if (header !== "Link") paging.header = header;
  if (schema.type === "array") return paging;
  const items = arrayProperties(ctx, schema, schemaAt);
  return items.length === 1 ? { ...paging, items: items[0]! } : undefined;
}

/** The names of an object schema's properties that hold arrays. */
function arrayProperties(ctx: ImportContext, schema: JsonObject, at: Pointer): string[] {
  if (!isObject(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([name, property]) => {
      const { value } = deref(ctx, property, under(at, "properties", name));
      return isObject(value) && value.type === "array";
    })
    .map(([name]) => name);
}
