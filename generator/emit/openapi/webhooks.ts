/**
 * The inbound side, under the OpenAPI 3.1 top-level `webhooks`: one entry per callback
 * (keyed by its event, e.g. `product.info`) and one for the webhook delivery
 * (`webhook.delivery`), or, where the spec lists webhook events, one per event (keyed by
 * its name, e.g. `issues`, with its payload and the header that names it). Each operation has the signature header (a parameter component),
 * the credentials the API sends (its `security`), its trailing parameters, the request
 * body, and the responses the user's server answers with: `200` with the success or the
 * failure body (the body's `status` says which; the source shows no HTTP status for either),
 * and `default` with the failure body, for a failure sent with another status. A webhook entry has no URL of its own, so the path under the callback
 * base address is given in `x-path` and in the description, and the parameters that
 * travel in it (path and trailing ones) in `x-path-parameters`, as parameter objects:
 * OpenAPI (and lint) allow path parameters only under `paths`. A GET callback with a body
 * (product.info) keeps its body, which OpenAPI 3.1 permits, and says so.
 */
import type { ApiModel, Callback, WebhookEvent, Webhooks } from "../../ir/model.ts";
import { notesOf, obj, rulesText, text, type JsonObject } from "./json.ts";
import {
  headerParameterOf,
  isHeaderParameter,
  parameterOf,
  parameterRef,
  pathTemplate,
} from "./parameters.ts";
import {
  callbacksTag,
  fixedHeadersExtension,
  mediaTypeOf,
  notShownSchema,
  webhooksTag,
} from "./paths.ts";
import { schemaOf } from "./schemas.ts";
import { securityOf, signatureCredentials, signatureParameterKey } from "./security.ts";

/** Key of the webhook delivery under `webhooks`. */
export const deliveryKey = "webhook.delivery";

const getBodyText =
  "This GET request carries a JSON body. OpenAPI 3.1 permits a request body on GET (HTTP gives it no defined meaning, so some tools and proxies drop it); it is kept as the source describes it.";

function signatureParameters(model: ApiModel, auth: readonly string[]): JsonObject[] {
  return signatureCredentials(model, auth).map((c) => parameterRef(signatureParameterKey(c)));
}

/** The headers a delivery carries that the spec declares (`webhooks.headers`), as header parameters. */
function deliveryHeaderParameters(webhooks: Webhooks): JsonObject[] {
  const headers = webhooks.headers;
  if (headers?.kind !== "object") return [];
  return headers.fields.map((field) =>
    obj({
      name: field.name,
      in: "header",
      required: field.required ? true : undefined,
      description: field.type.docs.description,
      deprecated: field.type.docs.deprecated ? true : undefined,
      schema: schemaOf(field.type, { bare: true }),
      "x-undocumented": notesOf(field.type.docs),
    }),
  );
}

function jsonContent(schema: JsonObject, mediaType = "application/json"): JsonObject {
  return { [mediaType]: { schema } };
}

/** `200`: the success body, or either body when there is a failure body too; `default`: the failure body. */
function callbackResponses(callback: Callback): JsonObject {
  const { success, failure } = callback;
  const answer =
    success && failure
      ? { anyOf: [schemaOf(success), schemaOf(failure)] }
      : success
        ? schemaOf(success)
        : failure
          ? schemaOf(failure)
          : undefined;
  return obj({
    "200": obj({
      description: failure
        ? "The user's server's answer: the success or the failure body, whose `status` says which. The source shows no HTTP status for either; 200 is assumed."
        : "Success: the user's server answers with this body. The source shows no HTTP status; 200 is assumed.",
      content: answer ? jsonContent(answer) : undefined,
    }),
    default: failure
      ? {
          description: "Failure sent with another HTTP status (not shown in the source).",
          content: jsonContent(schemaOf(failure)),
        }
      : undefined,
  });
}

function callbackOperation(model: ApiModel, callback: Callback): JsonObject {
  const path = pathTemplate(callback.path, callback.params);
  // a signature header the callback also lists in `headers:` is described once, as the signature
  const signed = new Set(
    signatureCredentials(model, callback.auth).map((c) => c.header?.toLowerCase()),
  );
  const headers = callback.headers.filter(
    (h) => isHeaderParameter(h) && !signed.has(h.name.toLowerCase()),
  );
  const parameters = [
    ...signatureParameters(model, callback.auth),
    ...headers.map(headerParameterOf),
    ...callback.params.filter((p) => p.placement === "query").map(parameterOf),
  ];
  const pathParameters = callback.params.filter((p) => p.placement !== "query").map(parameterOf);
  const mediaType = mediaTypeOf(callback.headers);
  return obj({
    tags: [callbacksTag],
    summary: callback.summary ?? callback.event,
    description: text(
      callback.docs.description,
      `The API sends \`${callback.method} {${model.api.callbackBaseUrlName}}${path}\` to the user's server.`,
      callback.body && callback.method === "GET" ? getBodyText : undefined,
      rulesText(callback.rules),
    ),
    operationId: `callback.${callback.event}`,
    deprecated: callback.docs.deprecated ? true : undefined,
    security: securityOf(model, callback.auth),
    parameters: parameters.length ? parameters : undefined,
    requestBody: callback.body
      ? { required: true, content: jsonContent(schemaOf(callback.body), mediaType) }
      : undefined,
    responses: callbackResponses(callback),
    "x-path": path,
    "x-path-parameters": pathParameters.length ? pathParameters : undefined,
    "x-apigen-headers": fixedHeadersExtension(callback.headers),
    "x-undocumented": notesOf(callback.docs),
  });
}

/** What the source says of every delivery: where it goes, the method, the event groups, the rules. */
function deliveryText(webhooks: Webhooks): (string | undefined)[] {
  const groups = webhooks.eventGroups.map(
    (g) => `- \`${g.value}\`${g.description ? `: ${g.description}` : ""}`,
  );
  const registered = webhooks.registration.length
    ? `a URL registered with ${webhooks.registration.map((id) => `\`${id}\``).join(" / ")}`
    : "a URL registered with the API (the source does not show how)";
  return [
    `The API sends each delivery to ${registered}. The HTTP method of a delivery is not shown in the source; POST is assumed.`,
    groups.length ? ["Event groups a webhook subscribes to:", ...groups].join("\n") : undefined,
    rulesText(webhooks.rules),
  ];
}

/** The answers of a delivery, which the source does not show. */
/** The answer of a delivery other than a 2xx. */
const failedDelivery: JsonObject = {
  description: "Failure: any other answer. What the API does then is not shown in the source.",
};

const deliveryResponses: JsonObject = {
  "200": {
    description:
      "Success: the delivery is accepted. The status and body the API expects are not shown in the source.",
  },
  default: failedDelivery,
};

/** The answers of an event the receiver answers with a body: the 200 carries it, as JSON or as text. */
function answeredResponses(schema: JsonObject, text: boolean): JsonObject {
  return {
    "200": {
      description:
        "Success: the delivery is accepted, answered with this body, which the API reads.",
      content: jsonContent(schema, text ? "text/plain" : "application/json"),
    },
    default: failedDelivery,
  };
}

/** The extensions every delivery entry carries: its registration and event groups. */
function deliveryExtensions(webhooks: Webhooks): JsonObject {
  return obj({
    "x-registration": [...webhooks.registration],
    "x-event-groups": webhooks.eventGroups.length
      ? webhooks.eventGroups.map((g) => obj({ value: g.value, description: g.description }))
      : undefined,
  });
}

function deliveryOperation(model: ApiModel, webhooks: Webhooks): JsonObject {
  const parameters = [
    ...signatureParameters(model, webhooks.auth),
    ...deliveryHeaderParameters(webhooks),
  ];
  return obj({
    tags: [webhooksTag],
    summary: "Webhook delivery",
    description: text(webhooks.docs.description, ...deliveryText(webhooks)),
    operationId: deliveryKey,
    security: securityOf(model, webhooks.auth),
    parameters: parameters.length ? parameters : undefined,
    requestBody: {
      required: true,
      content: jsonContent(webhooks.payload ? schemaOf(webhooks.payload) : notShownSchema),
    },
    responses: deliveryResponses,
    ...deliveryExtensions(webhooks),
    "x-undocumented": notesOf(webhooks.docs),
  });
}

/**
 * The deliveries of one typed event: its payload schema and, where a header names the
 * event, that header with the event's name as its `const` (where a payload field does, the
 * payload schema says so and the description repeats it).
 */
function eventOperation(model: ApiModel, webhooks: Webhooks, event: WebhookEvent): JsonObject {
  const selector = webhooks.eventSelector;
  const eventHeader =
    selector?.in === "header"
      ? {
          name: selector.name,
          in: "header",
          required: true,
          description: "Names the event of the delivery.",
          schema: { type: "string", const: event.name },
        }
      : undefined;
  const parameters = [
    ...signatureParameters(model, webhooks.auth),
    ...(eventHeader ? [eventHeader] : []),
    ...deliveryHeaderParameters(webhooks),
  ];
  const named =
    selector?.in === "field"
      ? `The payload's \`${selector.name}\` is \`${event.name}\`.`
      : `The \`${selector?.name ?? ""}\` header is \`${event.name}\`.`;
  return obj({
    tags: [webhooksTag],
    summary: `Webhook ${event.name}`,
    description: text(
      event.docs.description,
      named,
      webhooks.docs.description,
      ...deliveryText(webhooks),
    ),
    operationId: `webhook.${event.name}`,
    deprecated: event.docs.deprecated ? true : undefined,
    security: securityOf(model, webhooks.auth),
    parameters: parameters.length ? parameters : undefined,
    requestBody: { required: true, content: jsonContent(schemaOf(event.payload)) },
    responses: event.success
      ? answeredResponses(schemaOf(event.success), event.answerAs === "text")
      : deliveryResponses,
    ...deliveryExtensions(webhooks),
    "x-undocumented": notesOf(event.docs, webhooks.docs),
  });
}

/** The top-level `webhooks`, or nothing when the model has no inbound side. */
export function webhooksOf(model: ApiModel): JsonObject | undefined {
  const entries: [string, JsonObject][] = model.callbacks.map((c) => [
    c.event,
    { [c.method.toLowerCase()]: callbackOperation(model, c) },
  ]);
  const webhooks = model.webhooks;
  if (webhooks && webhooks.events.length > 0)
    for (const event of webhooks.events)
      entries.push([event.name, { post: eventOperation(model, webhooks, event) }]);
  else if (webhooks) entries.push([deliveryKey, { post: deliveryOperation(model, webhooks) }]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}
