/**
 * How an endpoint's bodies travel: the request body's encoding and Content-Type (from
 * `contentType`, or a fixed `Content-Type` header), and what the success response carries
 * (JSON, bytes, text or nothing) with its declared headers. Worked out once here so that
 * the client and the OpenAPI document say the same thing about every body.
 */
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import { isStreamKind, streamFactsOf, streamKindOf } from "./build-streams.ts";
import type { TypeBuilder } from "./build-types.ts";
import type { Decl } from "./merge.ts";
import type {
  Endpoint,
  EndpointResponse,
  HeaderParse,
  HeaderSpec,
  RequestBody,
  RequestEncoding,
  ResponseHeader,
  ResponseKind,
  TypeNode,
} from "./model.ts";

type Data = Record<string, unknown>;

/** The encoding of each request media type the format knows. */
const encodings: Readonly<Record<string, RequestEncoding>> = {
  "application/json": "json",
  "application/x-www-form-urlencoded": "form",
  "multipart/form-data": "multipart",
  "application/octet-stream": "binary",
  "text/plain": "text",
};

/** The media type without parameters (`; charset=...`), lower-cased. */
const bare = (mediaType: string) => mediaType.split(";")[0]!.trim().toLowerCase();

/** Whether a node is the `binary` primitive. */
const isBinary = (node: TypeNode | undefined) =>
  node?.kind === "primitive" && node.name === "binary";

/**
 * Whether a body (named types followed) can be an object of fields: an object, a map, a union
 * (of objects, as its members say) or a value of any type; not a scalar, array, enum or literal.
 */
const hasFields = (node: TypeNode) =>
  node.kind === "object" ||
  node.kind === "map" ||
  node.kind === "union" ||
  node.kind === "unknown" ||
  node.kind === "ref" ||
  node.kind === "param";

/** What a body that has no fields is, for the message. */
function describeKind(node: TypeNode): string {
  if (node.kind === "primitive") return `${node.name === "integer" ? "an" : "a"} ${node.name}`;
  return node.kind === "array" ? "an array" : node.kind === "enum" ? "an enum" : "a literal";
}

/** Whether a node is the `string` primitive. */
const isString = (node: TypeNode | undefined) =>
  node?.kind === "primitive" && node.name === "string";

/**
 * The request body's encoding and media type. `contentType` and a fixed Content-Type header
 * must agree; either alone decides; neither means JSON. A media type with no encoding of its
 * own is sent as bytes (a `binary` body) or as text (a `string` body), as is a `string` body of
 * a URL-encoded form.
 */
export function requestBodyOf(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  path: DataPath,
  v: Data,
  given: TypeNode,
  headers: readonly HeaderSpec[],
): RequestBody {
  // a named alias of string or binary (`ApiKey: string`) is that type
  const body = types.aliasTarget(given);
  const declared = typeof v.contentType === "string" ? v.contentType : undefined;
  const header = headers.find((h) => h.name.toLowerCase() === "content-type")?.value;
  if (declared !== undefined && header !== undefined && bare(declared) !== bare(header))
    ctx.bag.report(
      "content-type-conflict",
      { header, contentType: declared },
      file.locate([...path, "contentType"]),
    );
  const contentType = declared ?? header ?? "application/json";
  const at = declared !== undefined ? [...path, "contentType"] : [...path, "body"];
  // A JSON media type of its own (`application/vnd.api+json`) is JSON text all the same.
  let encoding =
    encodings[bare(contentType)] ?? (bare(contentType).endsWith("+json") ? "json" : undefined);
  if (!encoding) encoding = isBinary(body) ? "binary" : isString(body) ? "text" : undefined;
  // A form whose body is a string is that form's text, already encoded (LibreTranslate's
  // /suggest): sent as it is, where a form of fields would take an object.
  if (encoding === "form" && isString(body)) encoding = "text";
  if (!encoding) {
    ctx.bag.report(
      "body-content-type",
      { detail: `a body sent as ${contentType} must be of type binary or string` },
      file.locate(at),
    );
    encoding = "json";
  }
  const mismatch =
    (encoding === "binary" && !isBinary(body)) ||
    (encoding === "text" && !isString(body)) ||
    ((encoding === "json" || encoding === "form") && isBinary(body));
  // a form is fields and multipart is parts: a body with neither could never be sent
  if (!mismatch && (encoding === "form" || encoding === "multipart") && !hasFields(body))
    ctx.bag.report(
      "body-content-type",
      {
        detail: `a body sent as ${contentType} is its fields: an object, not ${describeKind(body)}`,
      },
      file.locate([...path, "body"]),
    );
  else if (mismatch)
    ctx.bag.report(
      "body-content-type",
      {
        detail:
          encoding === "binary"
            ? `a body sent as ${contentType} must be of type binary`
            : encoding === "text"
              ? `a body sent as ${contentType} must be of type string`
              : `a body sent as ${contentType} cannot be binary; use multipart/form-data or application/octet-stream`,
      },
      file.locate([...path, "body"]),
    );
  return encoding === "multipart"
    ? { encoding, contentType }
    : { encoding, contentType, header: contentType };
}

/** Statuses that never carry a body. */
const noBodyStatuses = new Set([204, 205, 304]);

/** The success response at `at`: its kind and media type, read off the status, body and contentType. */
export function responseOf(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  at: DataPath,
  data: Data,
  /** A HEAD endpoint: its answers never carry a body (a declared one is reported elsewhere). */
  bodiless = false,
): EndpointResponse {
  const status = typeof data.status === "number" ? data.status : 200;
  const body = data.body !== undefined ? types.node(file, [...at, "body"], data.body) : undefined;
  const declared = typeof data.contentType === "string" ? data.contentType : undefined;
  const streamKind = bodiless || noBodyStatuses.has(status) ? undefined : streamKindOf(declared);
  const kind = bodiless
    ? "none"
    : (streamKind ??
      responseKind(status, body && types.aliasTarget(body), declared, (detail, key) =>
        ctx.bag.report("body-content-type", { detail }, file.locate([...at, key])),
      ));
  const stream = streamFactsOf(ctx, types, file, at, data, kind, body);
  const contentType =
    kind === "none"
      ? undefined
      : (declared ??
        (kind === "binary"
          ? "application/octet-stream"
          : kind === "text"
            ? "text/plain"
            : "application/json"));
  const headers = responseHeaders(ctx, types, file, [...at, "headers"], data.headers);
  return {
    status,
    ...(body ? { body } : {}),
    kind,
    ...(contentType ? { contentType } : {}),
    accept: acceptOf(kind, contentType),
    headers,
    ...(stream ? { stream } : {}),
    ...(data.notModified === true ? { notModified: true as const } : {}),
    ...emptyStatusOf(ctx, file, at, data, status, body),
    docs: ctx.docs(file, at, data),
  };
}

/**
 * The second 2xx a response's endpoint answers with no body (`emptyStatus`), checked: another
 * status than the body's, beside a JSON body (a body-less answer needs no second status).
 */
function emptyStatusOf(
  ctx: BuildContext,
  file: SpecFile,
  at: DataPath,
  data: Record<string, unknown>,
  status: number,
  body: TypeNode | undefined,
): { emptyStatus?: number } {
  const empty = data.emptyStatus;
  if (typeof empty !== "number") return {};
  const problem =
    empty === status
      ? `is the status of the body (${status}); name the other one`
      : body === undefined
        ? "is beside no body: a response without one is empty already"
        : undefined;
  if (problem) {
    ctx.bag.report(
      "response-empty-status",
      { status: empty, problem },
      file.locate([...at, "emptyStatus"]),
    );
    return {};
  }
  return { emptyStatus: empty };
}

/**
 * The Accept header of a call: JSON, or a binary, text or streamed body's media type with
 * JSON after it (error bodies are JSON); the range of every type alone, as it admits JSON.
 */
function acceptOf(kind: ResponseKind, contentType: string | undefined): string {
  const json = "application/json";
  if (kind !== "binary" && kind !== "text" && !isStreamKind(kind)) return json;
  if (contentType === json || contentType === "*/*") return contentType;
  return `${contentType}, ${json};q=0.5`;
}

/** Whether a media type is a range (`image/*`, or any type): the server picks the type, the client takes any. */
export const isMediaRange = (mediaType: string) => bare(mediaType).endsWith("/*");

/** What a response carries; `report` names a contradiction between status, media type and body. */
function responseKind(
  status: number,
  body: TypeNode | undefined,
  contentType: string | undefined,
  report: (detail: string, key: string) => void,
): ResponseKind {
  if (noBodyStatuses.has(status)) {
    if (body) report(`a ${status} response has no body`, "body");
    return "none";
  }
  const media = contentType === undefined ? undefined : bare(contentType);
  const json = media === undefined || media === "application/json" || media.endsWith("+json");
  if (isBinary(body)) {
    if (media === "application/json") report("a JSON response cannot be binary", "contentType");
    return "binary";
  }
  if (json) return "json";
  if (media !== "text/*" && isMediaRange(media!)) {
    // A range may be answered with any type it covers: the bytes, whatever they are.
    if (body)
      report(
        `a response of the range ${contentType} carries bytes of any type it covers: its body must be of type binary (a Blob of the type the server sends)`,
        "body",
      );
    return "binary";
  }
  if (media!.startsWith("text/")) {
    if (body && !isString(body))
      report(`a ${contentType} response body must be of type string`, "body");
    return "text";
  }
  if (body && !isString(body))
    report(`a ${contentType} response body must be of type binary or string`, "body");
  return body ? "text" : "binary";
}

/** The parse of each scalar a header can carry. */
export function headerParse(node: TypeNode): HeaderParse | undefined {
  if (node.kind === "primitive" && node.name !== "binary") return node.name;
  if (node.kind === "enum" && node.values.every((v) => typeof v === "string")) return "string";
  if (node.kind === "literal" && typeof node.value === "string") return "string";
  return undefined;
}

/** Declared response headers; each must be a scalar a header's text can be read as. */
function responseHeaders(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  path: DataPath,
  value: unknown,
): ResponseHeader[] {
  return Object.entries((isRecord(value) ? value : {}) as Data).map(([name, spec]) =>
    responseHeader(ctx, types, file, [...path, name], name, spec),
  );
}

/**
 * The API's `responseHeaders:`, each checked as an endpoint's own are and marked `apiWide`
 * (every endpoint's response gets them: `withApiResponseHeaders`).
 */
export function apiResponseHeadersOf(
  ctx: BuildContext,
  types: TypeBuilder,
  decls: readonly Decl<unknown>[],
): ResponseHeader[] {
  return decls.map((d) => ({
    ...responseHeader(ctx, types, d.file, d.path, d.name, d.value),
    apiWide: true as const,
  }));
}

/**
 * An endpoint with the API's response headers added to its success response (and to the
 * stream a body flag switches to), after its own; a header it declares itself (by name,
 * ignoring case, as HTTP does) is its own.
 */
export function withApiResponseHeaders<
  E extends Pick<Endpoint, "response"> & { streamResponse?: Endpoint["streamResponse"] },
>(endpoint: E, apiWide: readonly ResponseHeader[]): E {
  if (!apiWide.length) return endpoint;
  const add = <R extends { headers: ResponseHeader[] }>(response: R): R => {
    const own = new Set(response.headers.map((h) => h.name.toLowerCase()));
    const added = apiWide.filter((h) => !own.has(h.name.toLowerCase()));
    return { ...response, headers: [...response.headers, ...added] };
  };
  const { streamResponse } = endpoint;
  return {
    ...endpoint,
    response: add(endpoint.response),
    ...(streamResponse ? { streamResponse: add(streamResponse) } : {}),
  };
}

/** One declared response header, checked: a scalar a header's text can be read as. */
function responseHeader(
  ctx: BuildContext,
  types: TypeBuilder,
  file: SpecFile,
  at: DataPath,
  name: string,
  spec: unknown,
): ResponseHeader {
  const type = types.node(file, at, spec);
  const parse = headerParse(type);
  if (!parse)
    ctx.bag.report(
      "response-header-type",
      { name, type: typeof spec === "string" ? spec : type.kind },
      file.locate(at),
    );
  return {
    name,
    type,
    parse: parse ?? "string",
    docs: type.docs,
    location: file.locate(at, "key"),
  };
}
