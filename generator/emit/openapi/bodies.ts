/**
 * Request bodies and success responses of `paths`, by media type, saying what the client
 * does: a form's nested fields in bracket form (`deepObject` for objects; arrays as
 * `name[]`, marked `x-apigen-style: brackets`), multipart with OpenAPI's default encoding
 * (the client sends an object field as a text part of its JSON, with no part media type to
 * declare), raw bytes and text, a response with no content, and the declared response headers.
 */
import { objectFieldsOf, resolveType, type TypeLookup } from "../../ir/callback-routing.ts";
import type {
  ApiModel,
  Endpoint,
  EndpointResponse,
  ResponseHeader,
  TypeNode,
} from "../../ir/model.ts";
import { isMediaRange } from "../../ir/build-bodies.ts";
import { typesByName } from "../lookup.ts";
import { notesOf, obj, text, type JsonObject } from "./json.ts";
import { schemaOf } from "./schemas.ts";
import { streamContent } from "./streams.ts";

/** The schema of a body the source does not show: any JSON value, said explicitly. */
export const notShownSchema: JsonObject = {
  description: "Not shown in the source: any JSON value.",
};

/** The encoding of each top-level field of a form body that is not sent as a plain value. */
function formEncoding(body: TypeNode, types: TypeLookup): JsonObject | undefined {
  const entries = (objectFieldsOf(body, types) ?? []).flatMap((field): [string, JsonObject][] => {
    const kind = resolveType(field.type, types).kind;
    if (kind === "object" || kind === "map")
      return [[field.name, { style: "deepObject", explode: true }]];
    if (kind === "array")
      return [[field.name, { style: "form", explode: true, "x-apigen-style": "brackets" }]];
    return [];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The `requestBody` of an endpoint: its schema under the media type the client sends. */
export function requestBodyOf(model: ApiModel, endpoint: Endpoint): JsonObject | undefined {
  // the spec's type (`Pet`), whose readOnly fields say what the view (`PetWritable`) leaves out
  const body = endpoint.bodySource ?? endpoint.body;
  const { requestBody } = endpoint;
  if (!body || !requestBody) return undefined;
  const types = typesByName(model.types);
  const encoding = requestBody.encoding === "form" ? formEncoding(body, types) : undefined;
  return {
    // absent, OpenAPI's default, for a body the call may leave out
    ...(endpoint.bodyOptional ? {} : { required: true }),
    content: {
      [requestBody.contentType]: obj({ schema: schemaOf(body), encoding }),
    },
  };
}

/** A declared response header: its schema and description. */
function headerOf(header: ResponseHeader): JsonObject {
  return header.apiWide ? { $ref: responseHeaderRef(header.name) } : headerObjectOf(header);
}

/**
 * The reference to an API-wide response header's component: a JSON pointer (`~` and `/`
 * escaped) written as a URI fragment.
 */
function responseHeaderRef(name: string): string {
  const step = name.replaceAll("~", "~0").replaceAll("/", "~1");
  return `#/components/headers/${encodeURIComponent(step)}`;
}

/**
 * `components.headers`: the response headers every endpoint may carry (`responseHeaders:`),
 * which each success response refers to.
 */
export function responseHeaderComponents(model: ApiModel): JsonObject | undefined {
  const { responseHeaders } = model;
  return responseHeaders.length
    ? Object.fromEntries(responseHeaders.map((h) => [h.name, headerObjectOf(h)]))
    : undefined;
}

/** A response header as OpenAPI's Header Object: its schema, and the description beside it. */
function headerObjectOf(header: ResponseHeader): JsonObject {
  const { description, ...schema } = schemaOf(header.type) as JsonObject & {
    description?: string;
  };
  return obj({ description, schema });
}

/** The success body's content by its kind; none for a response without a body. */
function contentOf(response: EndpointResponse): JsonObject | undefined {
  const { kind, body, contentType } = response;
  switch (kind) {
    case "none":
      return undefined;
    case "binary":
      // A range (`image/*`) is no media type for `contentMediaType`: the key says it.
      return {
        [contentType!]: {
          schema: isMediaRange(contentType!)
            ? { type: "string" }
            : { type: "string", contentMediaType: contentType! },
        },
      };
    case "text":
      return { [contentType!]: { schema: { type: "string" } } };
    case "json":
      return { [contentType!]: { schema: body ? schemaOf(body) : notShownSchema } };
    case "sse":
    case "jsonl":
      return streamContent(response);
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled response kind ${String(unhandled)}`);
    }
  }
}

/**
 * The success response of an endpoint; a stream its body's flag switches to shares it when
 * both have one status (another status gets its own entry, `flagStreamResponses`).
 */
export function successResponseOf(
  model: ApiModel,
  endpoint: Endpoint,
  response: EndpointResponse = endpoint.response,
): JsonObject {
  const stream = endpoint.streamResponse;
  const shared = response === endpoint.response && stream?.status === response.status;
  const content = {
    ...contentOf(response),
    ...(shared ? streamContent(stream, stream.flag) : {}),
    ...(response === stream ? streamContent(stream, stream.flag) : {}),
  };
  const meaning = model.errors.statuses.find((s) => s.status === response.status)?.meaning;
  const shown = response.body || response.kind !== "json";
  return obj({
    description: text(
      response.docs.description ?? meaning ?? "Success.",
      shown ? undefined : "The body is not shown in the source.",
    ),
    headers: response.headers.length
      ? Object.fromEntries(response.headers.map((h) => [h.name, headerOf(h)]))
      : undefined,
    content: Object.keys(content).length ? content : undefined,
    "x-undocumented": notesOf(response.docs),
  });
}

/** The stream a body flag switches to, when its status differs from the other response's. */
export function flagStreamResponses(model: ApiModel, endpoint: Endpoint): JsonObject {
  const stream = endpoint.streamResponse;
  if (!stream || stream.status === endpoint.response.status) return {};
  return { [String(stream.status)]: successResponseOf(model, endpoint, stream) };
}
