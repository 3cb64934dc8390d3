/**
 * `paths`: every outbound endpoint as an operation under its path template, with
 * `operationId` = the endpoint id, a tag per group, its parameters and request headers,
 * the shared optional headers (X-Nonce), its security requirement, the request body,
 * the success response (an explicit any-value schema and the gap note where the source
 * does not show the body), its error responses (errors.ts) and how it pages
 * (`x-apigen-pagination`, pagination.ts). Also the `tags` list.
 */
import type { ApiModel, Endpoint, HeaderSpec } from "../../ir/model.ts";
import { flagStreamResponses, requestBodyOf, successResponseOf } from "./bodies.ts";
import { errorResponses, ownErrorsExtension } from "./errors.ts";
import { notesOf, obj, rulesText, text, type JsonObject } from "./json.ts";
import { paginationExtension } from "./pagination.ts";
import {
  isHeaderParameter,
  parameterOf,
  parameterRef,
  pathTemplate,
  sharedHeaderKey,
} from "./parameters.ts";
import {
  conditionalParameters,
  endpointFixedHeaders,
  fixedHeaderParameter,
  hostServers,
  notModifiedResponse,
  emptyResponse,
  requestHeaderRefs,
} from "./requests.ts";
import { securityOf } from "./security.ts";

/** The media type of a callback's body: the fixed Content-Type header when there is one, else JSON. */
export function mediaTypeOf(headers: readonly HeaderSpec[]): string {
  return headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "application/json";
}

export { notShownSchema } from "./bodies.ts";

/**
 * The shared headers an endpoint does not list itself: a header it lists is described by
 * its own parameter (required or typed as it says), and OpenAPI allows one parameter per
 * name and place (`operation-parameters-unique`).
 */
function sharedHeadersOf(model: ApiModel, endpoint: Endpoint): HeaderSpec[] {
  const own = new Set(
    [...endpoint.headers, ...endpoint.params.filter((p) => p.placement === "header")].map((h) =>
      h.name.toLowerCase(),
    ),
  );
  return model.sharedHeaders.filter((h) => !own.has(h.name.toLowerCase()));
}

function operationOf(model: ApiModel, endpoint: Endpoint): JsonObject {
  const parameters = [
    ...endpoint.params.map(parameterOf),
    ...endpoint.headers.filter(isHeaderParameter).map(fixedHeaderParameter),
    ...sharedHeadersOf(model, endpoint).map((h) => parameterRef(sharedHeaderKey(h))),
    ...requestHeaderRefs(model, endpoint),
    ...conditionalParameters(endpoint),
  ];
  return obj({
    tags: [endpoint.group],
    summary: endpoint.summary ?? endpoint.id,
    description: text(
      endpoint.docs.description,
      endpoint.testingOnly ? "Testing only." : undefined,
      rulesText(endpoint.rules),
    ),
    operationId: endpoint.id,
    deprecated: endpoint.docs.deprecated ? true : undefined,
    externalDocs: endpoint.externalDocs ? { ...endpoint.externalDocs } : undefined,
    servers: hostServers(model, endpoint),
    security: securityOf(
      model,
      endpoint.auth,
      endpoint.optionalAuth,
      endpoint.authScopes,
      endpoint.authAnyOf,
    ),
    parameters: parameters.length ? parameters : undefined,
    requestBody: requestBodyOf(model, endpoint),
    responses: {
      [String(endpoint.response.status)]: successResponseOf(model, endpoint),
      ...flagStreamResponses(model, endpoint),
      ...notModifiedResponse(endpoint),
      ...emptyResponse(endpoint),
      ...errorResponses(model, endpoint),
    },
    "x-testing-only": endpoint.testingOnly ? true : undefined,
    "x-apigen-pagination": paginationExtension(endpoint),
    // The parameter or body field that lists the fields to expand; the paths follow from the
    // answer's schema (x-apigen-expandable), so an import needs only the name.
    "x-apigen-expand": endpoint.expand?.name,
    "x-apigen-errors": ownErrorsExtension(endpoint),
    "x-apigen-headers": endpointFixedHeaders(endpoint.headers),
    "x-undocumented": notesOf(endpoint.docs),
  });
}

/**
 * `x-apigen-headers`: the fixed headers an endpoint (or a callback) sends that are no OpenAPI parameter
 * (`Content-Type: application/json` on a GET), by name.
 */
export function fixedHeadersExtension(
  headers: readonly HeaderSpec[],
): Record<string, string> | undefined {
  const fixed = headers.filter((h) => !isHeaderParameter(h) && h.value !== undefined);
  return fixed.length ? Object.fromEntries(fixed.map((h) => [h.name, h.value!])) : undefined;
}

/**
 * `paths`, in endpoint order; endpoints that share a path share its path item. A QUERY
 * endpoint is the path item's `x-apigen-query`: OpenAPI 3.1 has no QUERY (3.2's `query` is
 * it), and `--import` reads either back.
 */
export function pathsOf(model: ApiModel): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of model.endpoints) {
    const key = pathTemplate(endpoint.path, endpoint.params);
    const method = endpoint.method === "QUERY" ? "x-apigen-query" : endpoint.method.toLowerCase();
    (paths[key] ??= {})[method] = operationOf(model, endpoint);
  }
  return paths;
}

/** The tag of inbound callbacks, when the model has any. */
export const callbacksTag = "callbacks";

/** The tag of webhook deliveries (shared with an endpoint group of that name). */
export const webhooksTag = "webhooks";

/** `tags`: one per endpoint group in endpoint order (naming its client methods), then callbacks and webhooks. */
export function tagsOf(model: ApiModel): JsonObject[] {
  // Endpoints by group in one pass (groups in first-seen order): a filter per group is n^2.
  const byGroup = new Map<string, Endpoint[]>();
  for (const e of model.endpoints) {
    const list = byGroup.get(e.group);
    if (list) list.push(e);
    else byGroup.set(e.group, [e]);
  }
  const groups = [...byGroup.keys()];
  const tags = groups.map((group) => {
    const endpoints = byGroup.get(group)!;
    const list = endpoints
      .map((e) => `\`${e.id}\`${e.summary ? ` (${e.summary})` : ""}`)
      .join(", ");
    const deliveries =
      group === webhooksTag && model.webhooks
        ? " Deliveries to a registered URL are under `webhooks`."
        : "";
    return { name: group, description: `Endpoints of the ${group} group: ${list}.${deliveries}` };
  });
  if (model.callbacks.length) {
    tags.push({
      name: callbacksTag,
      description: `Calls the API makes to the user's server, at {${model.api.callbackBaseUrlName}}; see \`webhooks\`.`,
    });
  }
  if (model.webhooks && !groups.includes(webhooksTag)) {
    tags.push({
      name: webhooksTag,
      description: "Deliveries to a registered URL; see `webhooks`.",
    });
  }
  return tags;
}
