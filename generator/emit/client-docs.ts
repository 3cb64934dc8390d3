/**
 * JSDoc of a generated client method: HTTP method and path, the credentials it sends, its
 * rules, its error responses, its parameters and every gap of the endpoint.
 */
import { scopesAsked } from "../ir/build-oauth.ts";
import { refText } from "../ir/generics.ts";
import type { ApiModel, Endpoint, ErrorResponse } from "../ir/model.ts";
import { pagingDocLines } from "./client-pagination.ts";
import { paramsArgName } from "./client-params.ts";
import { docLines, typeDocLines } from "./shared/jsdoc.ts";
import { jsonText } from "./shared/escape.ts";

function errorLine(model: ApiModel, error: ErrorResponse): string {
  const what =
    error.code !== undefined
      ? `code ${error.code}`
      : error.tag !== undefined
        ? `.tag ${error.tag}`
        : "";
  const head =
    error.status !== undefined
      ? `${error.status}${what ? ` ${what}` : ""}`
      : what
        ? `${what} (any error status)`
        : "any other error status";
  const meaning =
    error.code !== undefined
      ? model.errors.codes.find((c) => c.code === error.code)?.meaning
      : undefined;
  const text =
    error.docs.description ??
    meaning ??
    model.errors.statuses.find((s) => s.status === error.status)?.meaning ??
    "";
  return `- ${head}${text ? `: ${text}` : ""}`;
}

/** How a body that is not JSON is sent (docs/client.md, "Request bodies"). */
function bodyLines(endpoint: Endpoint): string[] {
  const body = endpoint.requestBody;
  if (!body || body.encoding === "json") return [];
  const how = {
    form: "nested objects and arrays in bracket form, `metadata[key]=v`, `expand[]=a`",
    multipart: "binary fields as file parts",
    binary: "the bytes as they are; a stream is sent once, never retried",
    text: "the text as it is",
  }[body.encoding];
  return [`Body: \`${body.contentType}\` (${how}).`];
}

/** What the `@returns` line says of a stream: what it yields, and how it ends. */
function streamText(endpoint: Endpoint): string {
  const response = endpoint.streamResponse ?? endpoint.response;
  const { stream } = response;
  const what =
    response.kind === "jsonl"
      ? "each JSON line"
      : stream?.events.length
        ? "each named event"
        : "each event's data";
  const terminator = stream?.terminator ? ` up to the terminator \`${stream.terminator}\`` : "";
  const flag = endpoint.streamResponse ? `With \`${endpoint.streamResponse.flag}: true\`: a` : "A";
  const error = stream?.error;
  const failing = error
    ? ` An ${error.event !== undefined ? `\`${error.event}\` event` : `item with an \`${error.field}\` key`} is the API's error: the \`for await\` throws it and the stream ends.`
    : "";
  return `${flag} Stream (${response.contentType}) giving ${what}${terminator}, read with \`for await\`; it resolves once the response headers arrive.${failing}`;
}

/** What the `@returns` line says, by the kind of the response. */
function returnsText(endpoint: Endpoint, about: readonly string[]): string {
  const { response } = endpoint;
  const text = about.join(" ");
  switch (response.kind) {
    case "none":
      return endpoint.method === "HEAD"
        ? "Nothing: a HEAD response has no body (`withResponse()` gives its status and headers)."
        : `Nothing: the API answers ${response.status} with no body.`;
    case "binary":
      return `The body's bytes (${response.contentType}) as a Blob; \`asResponse()\` gives the stream.${text ? ` ${text}` : ""}`;
    case "text":
      return `The body's text (${response.contentType}).${text ? ` ${text}` : ""}`;
    case "sse":
    case "jsonl":
      return `${streamText(endpoint)}${text ? ` ${text}` : ""}`;
    case "json":
      return (
        text ||
        (response.body
          ? "The response body."
          : "The response body, whose shape the spec does not show.")
      );
    default: {
      const unhandled: never = response.kind;
      throw new Error(`unhandled response kind ${String(unhandled)}`);
    }
  }
}

/** How one credential of `endpoint` travels, in words: `` `X-Key` (`key`, optional: sent when configured) ``. */
function credentialText(model: ApiModel, endpoint: Endpoint, id: string, either: boolean): string {
  const credential = model.credentials.find((c) => c.id === id);
  const where =
    credential?.placement === "basic"
      ? "`Authorization: Basic …` "
      : credential?.placement === "query" && credential.name
        ? `query \`${credential.name}=…\` `
        : credential?.header
          ? `\`${credential.header}${credential.scheme ? `: ${credential.scheme} …` : ""}\` `
          : "";
  const scopes = scopesAsked(endpoint.authScopes, id);
  const optional = [
    ...(scopes.length ? [`scopes ${scopes.map((s) => `\`${s}\``).join(", ")}`] : []),
    ...(endpoint.optionalAuth.includes(id) && !either ? ["optional: sent when configured"] : []),
  ]
    .map((part) => `, ${part}`)
    .join("");
  return where
    ? `${where}(\`${id}\`${optional})`
    : `\`${id}\`${optional ? ` (${optional.slice(2)})` : ""}`;
}

/** Doc lines of the method for `endpoint`. */
export function endpointDocLines(model: ApiModel, endpoint: Endpoint): string[] {
  const either = endpoint.authAnyOf ?? [];
  const text = (id: string) => credentialText(model, endpoint, id, either.includes(id));
  const sends = endpoint.auth.filter((id) => !either.includes(id)).map(text);
  if (either.length)
    sends.push(`the first configured of ${either.map(text).join(" or ")} (one is needed)`);
  const intro = [
    ...(endpoint.summary ? [`${endpoint.summary}.`] : []),
    ...(endpoint.docs.description ? [endpoint.docs.description] : []),
  ];
  const lines = [
    ...intro,
    ...(intro.length ? [""] : []),
    `\`${endpoint.method} ${endpoint.path}\`${endpoint.host ? ` on the \`${endpoint.host}\` host (the \`hosts.${endpoint.host}\` option)` : ""}${endpoint.testingOnly ? " (testing only)" : ""}`,
    `Sends: ${sends.length ? sends.join(", ") : "no credential"}.`,
    ...bodyLines(endpoint),
    ...pagingDocLines(endpoint),
    ...expandDocLines(endpoint),
  ];
  if (endpoint.rules.length) lines.push("", "Rules:", ...endpoint.rules.map((r) => `- ${r}`));
  if (endpoint.errors.length)
    lines.push(
      "",
      `Errors (thrown as ${model.api.errorClassName}):`,
      ...endpoint.errors.map((e) => errorLine(model, e)),
    );
  const response = endpoint.response;
  const body = response.body;
  const returns = body
    ? [
        ...(body.kind === "ref" ? [`The ${refText(body)}.`] : []),
        ...typeDocLines(body).filter((l) => !l.startsWith("@")),
      ]
    : [];
  const objectName = paramsArgName(endpoint);
  for (const param of endpoint.params) {
    const about = typeDocLines(param.type).filter((l) => !l.startsWith("@"));
    const inObject = param.placement === "query" || param.placement === "header";
    const name = inObject ? `${objectName}.${param.name}` : param.camelName;
    const fallback = param.type.docs.default;
    const sends =
      fallback === undefined
        ? []
        : [`Default \`${jsonText(fallback)}\`${param.sendDefault ? ", sent when left out" : ""}.`];
    lines.push(
      `@param ${name} ${[...about, ...sends].join(" ") || `The \`${param.wireName ?? param.name}\` ${param.placement} parameter.`}`,
    );
  }
  const streams = endpoint.streamResponse ? ` ${streamText(endpoint)}` : "";
  const conditional = response.notModified
    ? " Or, when `options.ifNoneMatch` or `options.ifModifiedSince` still matches, a `NotModified` (304) with the response's ETag."
    : "";
  lines.push(`@returns ${returnsText(endpoint, returns)}${streams}${conditional}`);
  lines.push(...docLines({ notes: [...endpoint.docs.notes, ...response.docs.notes] }));
  lines.push(`@throws {${model.api.errorClassName}} when the API answers with an error status.`);
  const more = endpoint.externalDocs;
  // one line: a description's own line breaks would end the tag
  const about = more?.description?.replace(/\s+/g, " ").trim();
  if (more) lines.push(`@see ${more.url}${about ? ` ${about}` : ""}`);
  if (endpoint.docs.deprecated) lines.push("@deprecated The API will remove this endpoint.");
  return lines;
}

/** What the JSDoc says about the fields a call may ask to expand. */
function expandDocLines(endpoint: Endpoint): string[] {
  const expand = endpoint.expand;
  if (!expand) return [];
  const where = expand.in === "query" ? "query parameter" : "body field";
  const paths = expand.paths.map((p) => `\`${p}\``).join(", ");
  return [
    `Expandable with the \`${expand.name}\` ${where}: ${paths}. A listed path comes as the object, the others as ids, and the result's type says which.`,
  ];
}
