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
import { resolveType } from "./callback-routing.ts";
import type {
  Endpoint,
  EndpointResponse,
  NamedType,
  ResponseKind,
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
  return {
    events,
    open: listed !== undefined && data.open !== false,
    ...(typeof data.terminator === "string" ? { terminator: data.terminator } : {}),
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
    if (!stream) continue;
    const problem = flagProblem(stream.flag, endpoint.body, types);
    if (problem) ctx.bag.report("stream-flag", { flag: stream.flag, problem }, stream.location);
  }
}
