/**
 * The parts of a generated endpoint that stream, read off the IR: the descriptor's
 * `streaming` entry (format, how each item's data is read, terminator, flag), the
 * `Stream<Item>` a call resolves to, the union of an endpoint's named events, and the
 * overloads of an endpoint whose body's flag switches its response to a stream.
 */
import type { ApiModel, Endpoint, EndpointResponse, TypeNode } from "../ir/model.ts";
import type { FileStatement, Member, Overload, Param, Statement, TypeExpr } from "./code/nodes.ts";
import { obj, type JsonObject } from "./shared/json.ts";
import { generatedRef, modules, runtimeType } from "./shared/symbols.ts";
import { keyword, literalType, typeExpr, union } from "./shared/type-expr.ts";

const streamModule = "client/stream.ts";

/** Whether a payload is kept as text (`string`) instead of parsed as JSON. */
const isText = (node: TypeNode | undefined) =>
  node?.kind === "primitive" && node.name === "string" && !node.nullable;

/** The streamed response of an endpoint: its `streamResponse`, or its response when that streams. */
export function streamedResponse(endpoint: Endpoint): EndpointResponse | undefined {
  return endpoint.streamResponse ?? (endpoint.response.stream ? endpoint.response : undefined);
}

/** The descriptor's `streaming` entry: what stream.ts needs to read the stream; none without one. */
export function descriptorStreamEntry(endpoint: Endpoint): JsonObject | undefined {
  const response = streamedResponse(endpoint);
  const stream = response?.stream;
  if (!response || !stream) return undefined;
  const flag = endpoint.streamResponse?.flag;
  const { events } = stream;
  return obj({
    format: response.kind,
    text: !events.length && isText(response.body) ? true : undefined,
    events: events.length
      ? Object.fromEntries(events.map((e) => [e.name, isText(e.type) ? "text" : "json"]))
      : undefined,
    open: events.length && stream.open ? true : undefined,
    terminator: stream.terminator,
    flag,
    accept: flag !== undefined ? response.accept : undefined,
    error: stream.error
      ? obj({
          field: stream.error.field,
          event: stream.error.event,
          status: stream.error.status ? [...stream.error.status] : undefined,
        })
      : undefined,
  });
}

/** What one item of the stream is: the payload type, or the union of the named events. */
function itemType(response: EndpointResponse): TypeExpr {
  const name = response.stream?.eventTypeName;
  if (name) return generatedRef(modules.client, name, true);
  return response.body ? typeExpr(response.body) : keyword("unknown");
}

/** `Stream<Item>`, or `Stream<Item, XResponseHeaders>` where the spec declares headers. */
export function streamType(response: EndpointResponse, headers: TypeExpr | undefined): TypeExpr {
  return {
    kind: "generic",
    target: runtimeType(streamModule, "Stream"),
    args: [itemType(response), ...(headers ? [headers] : [])],
  };
}

/**
 * `export type MessagesStreamEvent = { event: "message_start"; data: MessageStart; id?: string }
 * | ... | UnknownEvent`: one member per named event, narrowed by `event`; an open stream adds
 * the runtime's UnknownEvent, whose name is no string type, so narrowing keeps working.
 */
export function eventUnionStatement(endpoint: Endpoint): Statement | undefined {
  const stream = streamedResponse(endpoint)?.stream;
  if (!stream?.eventTypeName) return undefined;
  const idMember: Member = {
    kind: "property-signature",
    name: "id",
    hasQuestionToken: true,
    type: keyword("string"),
  };
  const members: TypeExpr[] = stream.events.map((e) => ({
    kind: "object-type",
    inline: true,
    members: [
      { kind: "property-signature", name: "event", type: literalType(e.name) },
      { kind: "property-signature", name: "data", type: typeExpr(e.type) },
      idMember,
    ],
  }));
  if (stream.open) members.push(runtimeType("unions.ts", "UnknownEvent"));
  return {
    kind: "type-alias",
    name: stream.eventTypeName,
    isExported: true,
    docs: [
      `An event of the stream of \`${endpoint.id}\`, told apart by \`event\` (the SSE event name)${stream.open ? "; names this version does not list arrive as an `UnknownEvent`" : ""}.`,
    ],
    type: union(members),
  };
}

/**
 * The overloads of an endpoint with a stream flag, as openai-node has them, after `lead`
 * (the standalone function's core), each with `docs`: the flag `true` gives the stream,
 * `false`, null or absent the other response, and a body whose flag is only known as a
 * boolean gives either. None for an endpoint without a flag.
 */
export function flagOverloads(
  endpoint: Endpoint,
  lead: readonly Param[],
  params: readonly Param[],
  returns: { stream: TypeExpr; plain: TypeExpr; either: TypeExpr },
  docs: readonly string[],
): Overload[] | undefined {
  const flag = endpoint.streamResponse?.flag;
  if (flag === undefined) return undefined;
  const withFlag = (type: TypeExpr, optional: boolean): Param[] =>
    params.map((p) =>
      p.name === "body" && p.type
        ? {
            ...p,
            type: {
              kind: "intersection",
              types: [
                p.type,
                {
                  kind: "object-type",
                  inline: true,
                  members: [
                    { kind: "property-signature", name: flag, hasQuestionToken: optional, type },
                  ],
                },
              ],
            },
          }
        : p,
    );
  return [
    { docs, params: [...lead, ...withFlag(literalType(true), false)], returnType: returns.stream },
    {
      docs,
      params: [...lead, ...withFlag(union([literalType(false), keyword("null")]), true)],
      returnType: returns.plain,
    },
    { docs, params: [...lead, ...params], returnType: returns.either },
  ];
}

/** `export type { Stream } from "./runtime/client/stream.js"` for a package that streams. */
export function streamExports(model: ApiModel): FileStatement[] {
  if (!model.endpoints.some((e) => streamedResponse(e))) return [];
  const statement: FileStatement = {
    statement: {
      kind: "export-from",
      module: "src/runtime/client/stream.ts",
      names: [{ name: "Stream", isType: true }],
    },
    tight: true,
  };
  return [statement];
}
