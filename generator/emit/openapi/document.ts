/**
 * The OpenAPI 3.1 document of a model, as plain JSON data with a fixed key order:
 * `info`, `servers` (one per environment; an address the source does not show is the
 * server variable named by `api.baseUrl`, with a placeholder default in the reserved
 * `.invalid` domain), `tags`, `paths` (paths.ts), `webhooks` (webhooks.ts), `components`
 * (schemas.ts, parameters.ts, security.ts) and the root extensions (extensions.ts).
 * Every gap note of the model is an `x-undocumented` list on the object it concerns.
 */
import type { ApiModel, Environment, ServerVariable } from "../../ir/model.ts";
import { responseHeaderComponents } from "./bodies.ts";
import { modelExtensions } from "./extensions.ts";
import { notesOf, obj, text, type JsonObject } from "./json.ts";
import { sharedHeaderKey, sharedHeaderParameter } from "./parameters.ts";
import { pathsOf, tagsOf } from "./paths.ts";
import { fixedHeadersRoot, hostsRoot, requestHeaderComponents } from "./requests.ts";
import { componentSchemas, genericSchemas } from "./schemas.ts";
import {
  securitySchemes,
  signatureCredentials,
  signatureParameter,
  signatureParameterKey,
} from "./security.ts";
import { webhooksOf } from "./webhooks.ts";

/** The OpenAPI version written. */
export const openApiVersion = "3.1.0";

export const gapConvention =
  "Facts the source does not show are not guessed: each is listed, in words, in an `x-undocumented` array on the object it concerns.";

function infoOf(model: ApiModel): JsonObject {
  return obj({
    title: model.api.title,
    version: model.api.version,
    description: text(model.api.docs.description, gapConvention),
    "x-undocumented": notesOf(model.api.docs),
    // The names the spec gives the package, the client and the base URL placeholders:
    // OpenAPI has no place for them, and an import (--import) reads them back.
    "x-apigen-api": {
      name: model.api.packageName,
      clientName: model.api.clientName,
      baseUrl: model.api.baseUrlName,
      callbackBaseUrl: model.api.callbackBaseUrlName,
    },
  });
}

/** A host name part: lower case, letters, digits and hyphens. */
function hostLabel(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "x"
  );
}

function serverOf(model: ApiModel, env: Environment | undefined): JsonObject {
  const variable = model.api.baseUrlName;
  if (env?.baseUrl) {
    return obj({
      url: env.baseUrl,
      description: env.docs.description?.trim(),
      variables: env.variables.length
        ? Object.fromEntries(env.variables.map((v) => [v.name, variableOf(v)]))
        : undefined,
      "x-environment": env.name,
      "x-undocumented": notesOf(env.docs),
    });
  }
  const host = `${env ? `${hostLabel(env.name)}.` : ""}${hostLabel(variable)}.invalid`;
  const which = env ? `of the ${env.name} environment ` : "";
  // The variable has no `description`: the OpenAPI 3.1 schema that @apidevtools/swagger-parser
  // validates with misspells it (`descriptions`) and rejects it. The server's description says it.
  return obj({
    url: `{${variable}}`,
    description: text(
      env?.docs.description,
      `The base address ${which}is not shown in the source: set the \`${variable}\` variable. Its default is a placeholder in the reserved .invalid domain, which never resolves.`,
    ),
    variables: { [variable]: { default: `https://${host}` } },
    "x-environment": env?.name,
    "x-undocumented": notesOf(env?.docs),
  });
}

/**
 * A variable of a server's URL. OpenAPI requires a default: one the caller must give has its
 * first value, or its name, marked `x-apigen-required` (an import reads it back as required).
 * The description is `x-apigen-description`: the OpenAPI 3.1 schema swagger-parser validates
 * with refuses a variable's `description` (see serverOf).
 */
function variableOf(variable: ServerVariable): JsonObject {
  return obj({
    default: variable.default ?? variable.enum?.[0] ?? variable.name,
    enum: variable.enum ? [...variable.enum] : undefined,
    "x-apigen-description": variable.docs.description,
    "x-apigen-required": variable.default === undefined ? true : undefined,
    "x-undocumented": notesOf(variable.docs),
  });
}

/** One server per environment, in model order; one variable server when there is no environment. */
function serversOf(model: ApiModel): JsonObject[] {
  return model.environments.length
    ? model.environments.map((env) => serverOf(model, env))
    : [serverOf(model, undefined)];
}

/** `components.parameters`: the shared headers, then the signature headers the inbound side uses. */
function componentParameters(model: ApiModel): JsonObject | undefined {
  const inboundAuth = [...model.callbacks.flatMap((c) => c.auth), ...(model.webhooks?.auth ?? [])];
  const entries = [
    ...model.sharedHeaders.map((h) => [sharedHeaderKey(h), sharedHeaderParameter(h)] as const),
    ...requestHeaderComponents(model),
    ...signatureCredentials(model, inboundAuth).map(
      (c) => [signatureParameterKey(c), signatureParameter(c)] as const,
    ),
  ];
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The whole document. */
export function buildOpenApiDocument(model: ApiModel): JsonObject {
  const schemes = securitySchemes(model);
  const tags = tagsOf(model);
  return obj({
    openapi: openApiVersion,
    info: infoOf(model),
    servers: serversOf(model),
    tags: tags.length ? tags : undefined,
    paths: pathsOf(model),
    webhooks: webhooksOf(model),
    components: obj({
      schemas: componentSchemas(model.types, model.paramsTypes),
      parameters: componentParameters(model),
      headers: responseHeaderComponents(model),
      securitySchemes: Object.keys(schemes).length ? schemes : undefined,
      "x-apigen-generics": genericSchemas(model.generics),
    }),
    ...modelExtensions(model),
    "x-apigen-headers": fixedHeadersRoot(model),
    // which components.headers are the API's `responseHeaders:` (import reads them back as such)
    "x-apigen-response-headers": model.responseHeaders.length
      ? model.responseHeaders.map((h) => h.name)
      : undefined,
    "x-apigen-hosts": hostsRoot(model),
  });
}
