/**
 * Streamed success responses in the OpenAPI document. OpenAPI 3.1 has no schema for the items
 * of a stream, so the media type (`text/event-stream`, `application/jsonl`, ...) carries the
 * text as a string schema and `x-apigen-stream` says what the client reads from it: the
 * format, `itemSchema` (as OpenAPI 3.2 names it) or a schema per named event, whether names
 * not listed are accepted, the terminator, and the error item (`error`: its `field` or
 * `event`, `schema` and `status` path). A stream a body flag switches to is marked
 * with `x-apigen-stream-flag` (docs/openapi.md).
 */
import type { EndpointResponse } from "../../ir/model.ts";
import { obj, type JsonObject } from "./json.ts";
import { schemaOf } from "./schemas.ts";

/** The content of a streamed response: its media type with `x-apigen-stream` (and the flag). */
export function streamContent(response: EndpointResponse, flag?: string): JsonObject {
  const stream = response.stream!;
  const { events } = stream;
  const described = obj({
    format: response.kind,
    itemSchema: events.length ? undefined : response.body ? schemaOf(response.body) : {},
    events: events.length
      ? Object.fromEntries(events.map((e) => [e.name, schemaOf(e.type)]))
      : undefined,
    open: events.length ? stream.open : undefined,
    terminator: stream.terminator,
    error: stream.error
      ? obj({
          field: stream.error.field,
          event: stream.error.event,
          schema: stream.error.body ? schemaOf(stream.error.body) : undefined,
          status: stream.error.status?.join("."),
          description: stream.error.docs.description?.trim(),
        })
      : undefined,
  });
  return {
    [response.contentType!]: obj({
      schema: {
        type: "string",
        description:
          response.kind === "sse"
            ? "Server-sent events; see x-apigen-stream for each event's data."
            : "JSON lines; see x-apigen-stream for each line.",
      },
      "x-apigen-stream": described,
      "x-apigen-stream-flag": flag,
    }),
  };
}
