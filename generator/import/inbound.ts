/**
 * The inbound side of a document: what the API sends to its users' servers.
 *
 * - apigen's own document: its top-level `webhooks` hold each callback (`x-path` under the
 *   callback base address), the webhook delivery (`webhook.delivery`) or one entry per typed
 *   event (`webhook.<event>`); they come back as the spec's `callbacks` and `webhooks`, with
 *   the prose apigen adds to their descriptions taken back out.
 * - any other OpenAPI 3.1 `webhooks`: one entry is the deliveries' `payload`; several are
 *   typed `events` when a header or a payload field names each one (a `const`), else one
 *   payload, their union, with a note.
 * - an operation's `callbacks` (3.0 and 3.1): each becomes a callback, with the runtime
 *   expression of its URL in a note (the format places callbacks under one base address).
 */
import { deref, isObject, ownDocument, under, type ImportContext } from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";
import { inboundMethod, type Delivery } from "./inbound-common.ts";
import { operationsOf } from "./operations.ts";
import { operationCallbacks, otherWebhooks } from "./inbound-foreign.ts";
import { callbackOf, ownWebhooks } from "./inbound-own.ts";

/** `callbacks` and `webhooks` sections for the spec, each absent when there is none. */
export function inboundSections(ctx: ImportContext): JsonObject {
  const root = ctx.doc.root.value as JsonObject;
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const callbacks: JsonObject = {};
  const deliveries: Delivery[] = [];
  const webhooks = isObject(root.webhooks) ? root.webhooks : {};
  const own = ownDocument(ctx);
  ctx.area = "callbacks";
  for (const [key, raw] of Object.entries(webhooks)) {
    const { value: item, at: itemAt } = deref(ctx, raw, under(rootAt, "webhooks", key));
    if (!isObject(item)) continue;
    const used = operationsOf(ctx, item, itemAt).filter((o) => inboundMethod(o.method));
    for (const { method, op, at } of used) {
      // A webhook with several methods is several deliveries.
      const label = used.length > 1 ? `${key} (${method.toUpperCase()})` : key;
      if (own && typeof op["x-path"] === "string")
        callbacks[key] = callbackOf(ctx, op, method, op["x-path"], at);
      else deliveries.push([label, op, at]);
    }
  }
  for (const [event, callback] of operationCallbacks(ctx)) callbacks[event] = callback;
  const out: JsonObject = {};
  if (Object.keys(callbacks).length) out.callbacks = callbacks;
  const section = deliveries.length
    ? own
      ? ownWebhooks(ctx, deliveries)
      : otherWebhooks(ctx, deliveries)
    : undefined;
  if (section) out.webhooks = section;
  return out;
}
