/**
 * Streamed responses: server-sent events (`text/event-stream`) and JSON lines
 * (`application/jsonl`, `application/x-ndjson`). What each item is (the `body` type, or a
 * type per named event), whether unlisted event names are accepted, the terminator; and an
 * endpoint's `streamResponse`, the stream a boolean body field switches to. Every key that
 * does not fit the response it is in is reported at its place.
 */
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import type { TypeBuilder } from "./build-types.ts";
import { typeAt } from "./build-pagination.ts";
import { objectFieldsOf, resolveType } from "./callback-routing.ts";
import type {
  Endpoint,
  EndpointResponse,
  NamedType,
  ResponseKind,
  StreamError,
  StreamEvent,
  StreamFacts,
  TypeNode,
} from "./model.ts";

type Data = Record<string, unknown>;

/** The stream kind of each streamed media type. */
const streamKinds: Readonly<Record<string, "sse" | "jsonl">> = {
  "text/event-stream": "sse",
  "application/jsonl": "jsonl",
  "application/x-ndjson": "jsonl",
};

/** The stream kind of a media type (parameters ignored), or undefined for one that is not a stream. */
export function streamKindOf(contentType: string | undefined): "sse" | "jsonl" | undefined {
  if (contentType === undefined) return undefined;
  return streamKinds[contentType.split(";")[0]!.trim().toLowerCase()];
}

/** Whether a response kind is a stream. */
export const isStreamKind = (kind: ResponseKind): kind is "sse" | "jsonl" =>
  kind === "sse" || kind === "jsonl";

/** Keys that only a server-sent event stream has. */
const sseKeys = ["events", "open", "terminator"] as const;

/**
 * The stream facts of the response at `at`, or undefined (after reporting any stream key it
 * has) when `kind` is not a stream. `body` is the response's already-built body type.
 */
export function streamFactsOf(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  at: DataPath,
  data: Data,
  kind: ResponseKind,
  body: TypeNode | undefined,
): StreamFacts | undefined {
  const contentType = typeof data.contentType === "string" ? data.contentType : "application/json";
  for (const key of sseKeys) {
    if (data[key] === undefined || kind === "sse") continue;
    const owner = key === "open" ? "named events" : "a text/event-stream response";
    ctx.bag.report("stream-key-misplaced", { key, owner, contentType }, file.locate([...at, key]));
  }
  if (data.error !== undefined && !isStreamKind(kind)) {
    const owner = "a stream (text/event-stream, application/jsonl or application/x-ndjson)";
    ctx.bag.report(
      "stream-key-misplaced",
      { key: "error", owner, contentType },
      file.locate([...at, "error"]),
    );
  }
  if (!isStreamKind(kind)) return undefined;
  // `events` of a JSON-lines response is reported above and otherwise ignored.
  const listed = kind === "sse" && isRecord(data.events) ? data.events : undefined;
  if (listed && body)
    ctx.bag.report("stream-body-and-events", {}, file.locate([...at, "events"], "key"));
  if (!listed && !body)
    ctx.bag.report(
      "stream-payload-missing",
      {
        contentType,
        needs:
          kind === "sse"
            ? "`body` (the type of every event's data) or `events` (a type per event name)"
            : "`body` (the type of every line)",
      },
      file.locate(at, "key"),
    );
  if (kind === "sse" && data.open !== undefined && !listed)
    ctx.bag.report(
      "stream-key-misplaced",
      { key: "open", owner: "named events", contentType: "a stream without `events`" },
      file.locate([...at, "open"]),
    );
  const events = Object.entries(listed ?? {}).map(([name, spec]) => ({
    name,
    type: types.node(file, [...at, "events", name], spec),
    location: file.locate([...at, "events", name], "key"),
  }));
  const error = isRecord(data.error)
    ? streamErrorOf(ctx, types, file, [...at, "error"], data.error, { kind, contentType }, events)
    : undefined;
  return {
    events,
    open: listed !== undefined && data.open !== false,
    ...(typeof data.terminator === "string" ? { terminator: data.terminator } : {}),
    ...(error ? { error } : {}),
  };
}

/**
 * The error item of a stream (`error` at `at`): by `field` or, in server-sent events, by
 * `event`, exactly one; an event that is also listed among `events` is reported. Its `body`
 * and `status` are checked once the named types are known (`checkStreams`).
 */
function streamErrorOf(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  at: DataPath,
  data: Data,
  response: { kind: "sse" | "jsonl"; contentType: string },
  events: readonly StreamEvent[],
): StreamError | undefined {
  const report = (problem: string, key?: string): undefined => {
    ctx.bag.report("stream-error-item", { problem }, file.locate(key ? [...at, key] : at, "key"));
    return undefined;
  };
  const field = typeof data.field === "string" ? data.field : undefined;
  const event = typeof data.event === "string" ? data.event : undefined;
  if (field === undefined && event === undefined)
    return report(
      "needs `field` (a top-level key of an item's JSON, such as error) or `event` (a server-sent event name)",
    );
  if (field !== undefined && event !== undefined)
    return report("takes `field` or `event`, not both", "event");
  if (event !== undefined && response.kind !== "sse") {
    const owner = "a text/event-stream response";
    const { contentType } = response;
    ctx.bag.report(
      "stream-key-misplaced",
      { key: "event", owner, contentType },
      file.locate([...at, "event"]),
    );
    return undefined;
  }
  if (event !== undefined && events.some((e) => e.name === event))
    return report(
      `event ${JSON.stringify(event)} is listed in \`events\` too: an event is an item or the error, not both; take it out of \`events\``,
      "event",
    );
  const body = data.body !== undefined ? types.node(file, [...at, "body"], data.body) : undefined;
  const status = typeof data.status === "string" ? data.status.split(".") : undefined;
  return {
    ...(field !== undefined ? { field } : { event: event! }),
    ...(body ? { body } : {}),
    ...(status ? { status } : {}),
    docs: ctx.docs(file, at, data),
    location: file.locate(at, "key"),
  };
}

/** Reports a `streamResponse` that is not a stream, or that sits beside a response that is one. */
export function checkStreamResponse(
  ctx: BuildContext,
  file: SpecFile,
  at: DataPath,
  endpointId: string,
  response: EndpointResponse,
  stream: EndpointResponse,
): void {
  if (!isStreamKind(stream.kind))
    ctx.bag.report(
      "stream-response-kind",
      { contentType: stream.contentType ?? "no body" },
      file.locate([...at, "streamResponse", "contentType"]),
    );
  if (isStreamKind(response.kind))
    ctx.bag.report(
      "stream-response-twice",
      { endpoint: endpointId },
      file.locate([...at, "streamResponse"], "key"),
    );
}

/** Why `flag` cannot switch `body` to a stream, or undefined when it can. */
function flagProblem(
  flag: string,
  body: TypeNode | undefined,
  types: ReadonlyMap<string, NamedType>,
): string | undefined {
  if (!body) return "needs a request body with it as a boolean field; the endpoint has no body";
  const resolved = resolveType(body, types);
  if (resolved.kind !== "object") return "must be a boolean field of the body, which is no object";
  const field = resolved.fields.find((f) => f.name === flag);
  if (!field) {
    const names = resolved.fields.map((f) => f.name).join(", ");
    return `is not a field of the body (its fields: ${names || "none"})`;
  }
  const type = resolveType(field.type, types);
  const boolean =
    (type.kind === "primitive" && type.name === "boolean") ||
    (type.kind === "literal" && typeof type.value === "boolean");
  return boolean ? undefined : "must be a boolean field of the body";
}

/** Checks each endpoint's stream flag against its body once the named types are known. */
export function checkStreams(
  ctx: BuildContext,
  namedTypes: readonly NamedType[],
  endpoints: readonly Endpoint[],
): void {
  const types = new Map(namedTypes.map((t) => [t.name, t] as const));
  for (const endpoint of endpoints) {
    const stream = endpoint.streamResponse;
    if (stream) {
      const problem = flagProblem(stream.flag, endpoint.body, types);
      if (problem) ctx.bag.report("stream-flag", { flag: stream.flag, problem }, stream.location);
    }
    for (const response of [endpoint.response, stream]) {
      const error = response?.stream?.error;
      if (error) checkStreamError(ctx, error, types);
    }
  }
}

/**
 * The error item's `field` against its `body` (an object body must have it) and its `status`:
 * an integer field of the body, which it needs.
 */
function checkStreamError(
  ctx: BuildContext,
  error: StreamError,
  types: ReadonlyMap<string, NamedType>,
): void {
  const report = (problem: string) =>
    ctx.bag.report("stream-error-item", { problem }, error.location);
  const { body, field, status } = error;
  if (body && field !== undefined) {
    const fields = objectFieldsOf(body, types);
    if (fields && !fields.some((f) => f.name === field))
      report(
        `field ${field} is not a field of its body (its fields: ${fields.map((f) => f.name).join(", ") || "none"})`,
      );
  }
  if (!status) return;
  const path = status.join(".");
  if (!body) return report(`status ${path} needs \`body\`, the type it is read from`);
  const found = typeAt(body, status, types);
  if (typeof found === "string") return report(`status ${path} ${found}`);
  const resolved = resolveType(found, types);
  if (!(resolved.kind === "primitive" && resolved.name === "integer"))
    report(`status ${path} must be an integer field of the body`);
}
