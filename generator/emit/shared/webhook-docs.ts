/**
 * What the router file and the handler scaffold both say about a typed webhook event: the
 * type of its handler, its doc lines and the name of its stub.
 */
import { refText } from "../../ir/generics.ts";
import type { WebhookEvent, Webhooks } from "../../ir/model.ts";
import type { TypeExpr } from "../code/nodes.ts";
import { docLines } from "./jsdoc.ts";
import { generatedRef, modules, runtimeType } from "./symbols.ts";
import { generic, keyword, typeExpr, union } from "./type-expr.ts";
import { jsonText } from "./escape.ts";

/** `WebhookHandlers`: one optional handler per webhook event, in `src/callbacks.ts`. */
export const webhookHandlersTypeRef = generatedRef(modules.callbacks, "WebhookHandlers", true);

/** `WebhookDeliveryHeaders`: the delivery headers the spec declares, in `src/callbacks.ts`. */
export const deliveryHeadersTypeRef = generatedRef(
  modules.callbacks,
  "WebhookDeliveryHeaders",
  true,
);

/** The context a webhook handler gets: `WebhookContext`, with the declared headers typed. */
export function webhookContext(webhooks: Webhooks): TypeExpr {
  const context = runtimeType("callbacks/core.ts", "WebhookContext");
  return webhooks.headers
    ? { kind: "generic", target: context, args: [deliveryHeadersTypeRef] }
    : context;
}

/**
 * `(payload: IssuesEvent, ctx: WebhookContext<WebhookDeliveryHeaders>) => void | Promise<void>`;
 * an event the receiver answers with a body returns its type (`UrlVerificationAnswer | Promise<...>`).
 */
export function webhookHandlerType(webhooks: Webhooks, event: WebhookEvent): TypeExpr {
  const answer = event.success ? typeExpr(event.success) : keyword("void");
  return {
    kind: "function-type",
    params: [
      { name: "payload", type: typeExpr(event.payload) },
      { name: "ctx", type: webhookContext(webhooks) },
    ],
    returns: union([answer, generic("Promise", answer)]),
  };
}

/** `ctx.deliveryHeaders["X-GitHub-Delivery"]` (string), ...: what a handler reads of the declared headers. */
export function deliveryHeadersLine(webhooks: Webhooks): string[] {
  const fields = webhooks.headers?.kind === "object" ? webhooks.headers.fields : [];
  if (fields.length === 0) return [];
  const names = fields.map((f) => `\`${f.name}\``).join(", ");
  return [`Its declared headers, validated and typed: \`ctx.deliveryHeaders\` (${names}).`];
}

/** `onIssues`: the scaffold's stub of an event. */
export function webhookStubName(event: WebhookEvent): string {
  return `on${event.pascalName}`;
}

/** How a delivery of `event` names it: `X-GitHub-Event: issues` or `type: "payment_intent.succeeded"` in the payload. */
export function deliveryText(webhooks: Webhooks, event: WebhookEvent): string {
  const selector = webhooks.eventSelector;
  if (!selector) return "";
  return selector.in === "header"
    ? ` with \`${selector.name}: ${event.name}\``
    : ` whose \`${selector.name}\` is \`${jsonText(event.name)}\``;
}

/** Doc lines of an event's handler: which deliveries, which payload, then what the spec says. */
export function webhookHandlerDocLines(webhooks: Webhooks, event: WebhookEvent): string[] {
  const payload = event.payload.kind === "ref" ? `, payload \`${refText(event.payload)}\`` : "";
  const answer = event.success
    ? [
        `What it returns is the answer's ${event.answerAs === "text" ? "body, as text/plain" : "JSON body"} (200)${event.success.kind === "ref" ? `, \`${refText(event.success)}\`` : ""}: the API reads it.`,
      ]
    : [];
  return [
    `${event.name}: deliveries${deliveryText(webhooks, event)}${payload}, validated before the handler runs.`,
    ...answer,
    ...deliveryHeadersLine(webhooks),
    ...docLines(event.docs, {}, []),
  ];
}
