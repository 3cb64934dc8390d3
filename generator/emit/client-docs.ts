/**
 * JSDoc of a generated client method: HTTP method and path, the credentials it sends, its
 * rules, its error responses, its parameters and every gap of the endpoint.
 */
import type { ApiModel, Endpoint, ErrorResponse } from "../ir/model.ts";
import { paramsArgName } from "./client-params.ts";
import { docLines, typeDocLines } from "./shared/jsdoc.ts";

function errorLine(model: ApiModel, error: ErrorResponse): string {
  const what =
    error.code !== undefined
      ? `code ${error.code}`
      : error.tag !== undefined
        ? `.tag ${error.tag}`
        : "";
  const head =
    error.status === undefined
      ? `${what} (any error status)`
      : `${error.status}${what ? ` ${what}` : ""}`;
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

/** Doc lines of the method for `endpoint`. */
export function endpointDocLines(model: ApiModel, endpoint: Endpoint): string[] {
  const sends = endpoint.auth.map((id) => {
    const credential = model.credentials.find((c) => c.id === id);
    const where =
      credential?.placement === "basic"
        ? "`Authorization: Basic …` "
        : credential?.placement === "query" && credential.name
          ? `query \`${credential.name}=…\` `
          : credential?.header
            ? `\`${credential.header}${credential.scheme ? `: ${credential.scheme} …` : ""}\` `
            : "";
    const optional = endpoint.optionalAuth.includes(id) ? ", optional: sent when configured" : "";
    return where
      ? `${where}(\`${id}\`${optional})`
      : `\`${id}\`${optional ? ` (${optional.slice(2)})` : ""}`;
  });
  const intro = [
    ...(endpoint.summary ? [`${endpoint.summary}.`] : []),
    ...(endpoint.docs.description ? [endpoint.docs.description] : []),
  ];
  const lines = [
    ...intro,
    ...(intro.length ? [""] : []),
    `\`${endpoint.method} ${endpoint.path}\`${endpoint.testingOnly ? " (testing only)" : ""}`,
    `Sends: ${sends.length ? sends.join(", ") : "no credential"}.`,
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
        ...(body.kind === "ref" ? [`The ${body.name}.`] : []),
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
        : [
            `Default \`${JSON.stringify(fallback)}\`${param.sendDefault ? ", sent when left out" : ""}.`,
          ];
    lines.push(
      `@param ${name} ${[...about, ...sends].join(" ") || `The \`${param.name}\` ${param.placement} parameter.`}`,
    );
  }
  lines.push(
    endpoint.method === "HEAD"
      ? "@returns Nothing: a HEAD response has no body (its status and headers are the answer)."
      : `@returns ${returns.join(" ") || (response.body ? "The response body." : "The response body, whose shape the spec does not show.")}`,
  );
  lines.push(...docLines({ notes: [...endpoint.docs.notes, ...response.docs.notes] }));
  lines.push(`@throws {${model.api.errorClassName}} when the API answers with an error status.`);
  return lines;
}
