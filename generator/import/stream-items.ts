/**
 * What the items of a streamed response are: the media types whose body is a sequence of JSON
 * items (server-sent events' data, JSON Lines), and the schema of those items, which OpenAPI
 * 3.2 gives as a media type's `itemSchema` where earlier documents give `schema`.
 */
import { deref, isObject, note, under, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";

/** Media types whose body is a stream of JSON items. */
export const streamTypes = new Set([
  "text/event-stream",
  "application/x-ndjson",
  "application/jsonl",
]);

/**
 * The schema of a response's media type: its `schema`, or for a stream without one, OpenAPI
 * 3.2's `itemSchema` of each item: a JSON Lines item itself, a server-sent event's JSON `data`
 * (the `contentSchema` of its `data` property). An event whose data has no such schema is
 * noted, its items left untyped.
 */
export function responseSchemaOf(
  ctx: ImportContext,
  media: JsonValue | undefined,
  mediaAt: Pointer,
  type: string,
  out: JsonObject,
): { schema: JsonValue | undefined; schemaAt: Pointer } {
  const plain = {
    schema: isObject(media) ? media.schema : undefined,
    schemaAt: under(mediaAt, "schema"),
  };
  if (!isObject(media) || media.schema !== undefined || media.itemSchema === undefined)
    return plain;
  if (!streamTypes.has(type)) return plain;
  const itemAt = under(mediaAt, "itemSchema");
  if (type !== "text/event-stream") return { schema: media.itemSchema, schemaAt: itemAt };
  const { value: event, at: eventAt } = deref(ctx, media.itemSchema, itemAt);
  const data = isObject(event) && isObject(event.properties) ? event.properties.data : undefined;
  const { value: dataSchema, at: dataAt } = deref(
    ctx,
    data ?? null,
    under(eventAt, "properties", "data"),
  );
  if (isObject(dataSchema) && dataSchema.contentSchema !== undefined)
    return { schema: dataSchema.contentSchema, schemaAt: under(dataAt, "contentSchema") };
  note(ctx, out, itemAt, "server-sent events whose data has no contentSchema: items left untyped");
  return plain;
}
