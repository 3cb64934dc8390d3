/**
 * The parts of a generated endpoint that say how its bodies travel, read off the IR: the
 * descriptor's headers and body and response entries, the call's return type
 * (`ApiPromise<T>`: the body, `void`, `Blob` or `string`), and the interface of its
 * declared response headers.
 */
import type { Endpoint, EndpointResponse } from "../ir/model.ts";
import type { Statement, TypeExpr } from "./code/nodes.ts";
import type { Json, JsonObject } from "./shared/json.ts";
import { generatedRef, globalRef, modules, runtimeType } from "./shared/symbols.ts";
import { keyword, typeExpr, union } from "./shared/type-expr.ts";
import { descriptorStreamEntry, streamType } from "./client-streams.ts";
import { typeDocLines } from "./shared/jsdoc.ts";

/**
 * The fixed headers the descriptor sends: the spec's, with the body's Content-Type in its
 * place (or added), and none for multipart, whose header fetch writes with its boundary;
 * and the response's Accept where it is not JSON.
 */
export function descriptorHeaders(endpoint: Endpoint): JsonObject {
  const isContentType = (name: string) => name.toLowerCase() === "content-type";
  const sent = endpoint.requestBody ? endpoint.requestBody.header : undefined;
  const headers: JsonObject = {};
  for (const h of endpoint.headers) {
    if (h.value === undefined) continue;
    if (!endpoint.requestBody || !isContentType(h.name)) headers[h.name] = h.value;
    else if (sent !== undefined) headers[h.name] = sent;
  }
  if (sent !== undefined && !endpoint.headers.some((h) => isContentType(h.name)))
    headers["Content-Type"] = sent;
  // The runtime sends Accept: application/json unless the descriptor says otherwise.
  const { accept } = endpoint.response;
  if (accept !== "application/json" && !endpoint.headers.some((h) => /^accept$/i.test(h.name)))
    headers.Accept = accept;
  return headers;
}

/** The descriptor entries of the body's encoding and the response's kind and headers; none for JSON. */
export function descriptorBodyEntries(endpoint: Endpoint): Record<string, Json | undefined> {
  const { kind, headers } = endpoint.response;
  return {
    body: encodesBody(endpoint) ? endpoint.requestBody!.encoding : undefined,
    bodyOptional: endpoint.bodyOptional,
    response: kind !== "json" && kind !== "sse" && kind !== "jsonl" ? kind : undefined,
    responseHeaders: headers.length
      ? Object.fromEntries(headers.map((h) => [h.name, h.parse]))
      : undefined,
    streaming: descriptorStreamEntry(endpoint),
  };
}

/** Whether the call passes the runtime's `encodeBody`: a body that is not JSON (a JSON-only bundle leaves it out). */
export function encodesBody(endpoint: Endpoint): boolean {
  const encoding = endpoint.requestBody?.encoding;
  return encoding !== undefined && encoding !== "json";
}

/** The interface of the endpoint's declared response headers, when it has one. */
function headersRef(endpoint: Endpoint): TypeExpr | undefined {
  const { headersTypeName } = endpoint.response;
  return headersTypeName ? generatedRef(modules.client, headersTypeName, true) : undefined;
}

/** What awaiting a call gives: the JSON body's type, `void`, `Blob`, `string` or a Stream. */
function dataType(endpoint: Endpoint, response: EndpointResponse): TypeExpr {
  const { kind, body } = response;
  switch (kind) {
    case "json":
      return body ? typeExpr(body) : keyword("unknown");
    case "binary":
      return globalRef("Blob");
    case "text":
      return keyword("string");
    case "none":
      return keyword("void");
    case "sse":
    case "jsonl":
      return streamType(response, headersRef(endpoint));
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled response kind ${String(unhandled)}`);
    }
  }
}

/** `ApiPromise<T>`, or `ApiPromise<T, XResponseHeaders>` where the spec declares headers. */
function apiPromise(endpoint: Endpoint, data: TypeExpr): TypeExpr {
  const headers = headersRef(endpoint);
  return {
    kind: "generic",
    target: runtimeType("client/core.ts", "ApiPromise"),
    args: [data, ...(headers ? [headers] : [])],
  };
}

/** What a call returns: `ApiPromise<T>` of its response (with a stream flag: of either response). */
export function returnTypeOf(endpoint: Endpoint): TypeExpr {
  if (endpoint.streamResponse) return flagReturnTypes(endpoint).either;
  const body = dataType(endpoint, endpoint.response);
  // a second 2xx without a body (`emptyStatus`, Spotify's 204) resolves to undefined
  const data =
    endpoint.response.emptyStatus !== undefined ? union([body, keyword("undefined")]) : body;
  // A conditional GET's 304 is a result too (conditional.ts).
  const notModified = runtimeType("client/conditional.ts", "NotModified");
  return apiPromise(endpoint, endpoint.response.notModified ? union([data, notModified]) : data);
}

/** The return types of the overloads of an endpoint with a stream flag (client-streams.ts). */
export function flagReturnTypes(
  endpoint: Endpoint,
): Record<"stream" | "plain" | "either", TypeExpr> {
  const stream = dataType(endpoint, endpoint.streamResponse ?? endpoint.response);
  const plain = dataType(endpoint, endpoint.response);
  return {
    stream: apiPromise(endpoint, stream),
    plain: apiPromise(endpoint, plain),
    either: apiPromise(endpoint, union([stream, plain])),
  };
}

/** The interface of an endpoint's declared response headers, by spec name, each optional. */
export function responseHeadersInterface(endpoint: Endpoint): Statement | undefined {
  const { headers, headersTypeName } = endpoint.response;
  if (!headersTypeName) return undefined;
  return {
    kind: "interface",
    name: headersTypeName,
    isExported: true,
    docs: [
      `The response headers of \`${endpoint.id}\` the spec declares, parsed by their type (\`withResponse()\`); one the response lacks, or whose value does not read as its type, is absent.`,
    ],
    members: headers.map((h) => ({
      kind: "property-signature",
      name: h.name,
      hasQuestionToken: true,
      type: typeExpr(h.type),
      docs: typeDocLines(h.type),
    })),
  };
}
