/**
 * The inbound side of documents that are not apigen's: OpenAPI 3.1 `webhooks` (one entry is
 * the deliveries' payload; several are typed events where a `const` names each, else one
 * union payload, noted; their header parameters the delivery headers, inbound-headers.ts) and
 * operations' `callbacks` (each a callback, its URL's runtime expression noted).
 */
import { deref, isObject, note, stringOf, under, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { bodyType, inboundAuth, inboundMethod, type Delivery } from "./inbound-common.ts";
import { foreignDeliveryHeaders } from "./inbound-headers.ts";
import { operationsOf } from "./operations.ts";
import { carryNotes, withFacets } from "./schemas.ts";

/**
 * Webhooks of a document that is not apigen's: one is the payload of every delivery; several
 * are typed events when each names itself the same way, else one payload of their union.
 */
export function otherWebhooks(ctx: ImportContext, deliveries: readonly Delivery[]): JsonObject {
  const out: JsonObject = {};
  const payloads = deliveries.map(([, op, at]) => ({
    type: bodyType(ctx, op.requestBody, under(at, "requestBody")) ?? "unknown",
    selector: selectorOf(ctx, op, at),
  }));
  const auth = deliveries.flatMap(([, op, at]) => inboundAuth(ctx, op, at));
  if (auth.length) out.auth = [...new Set(auth)];
  const selectors = new Set(payloads.map((p) => JSON.stringify(p.selector?.key)));
  const named = deliveries.length > 1 && payloads.every((p) => p.selector) && selectors.size === 1;
  const eventHeader = named ? stringOf(payloads[0]!.selector!.key, "eventHeader") : undefined;
  const headers = foreignDeliveryHeaders(ctx, deliveries, eventHeader, out);
  if (Object.keys(headers).length) out.headers = headers;
  if (deliveries.length === 1) {
    const [name, op] = deliveries[0]!;
    const description = stringOf(op, "description") ?? stringOf(op, "summary");
    out.description = description?.trim() || `Deliveries of ${name}.`;
    out.payload = payloads[0]!.type;
    return out;
  }
  if (named) {
    Object.assign(out, payloads[0]!.selector!.key);
    out.events = namedEvents(deliveries, payloads);
    return out;
  }
  out.payload = unionOf(payloads.map((p) => p.type));
  const where = { file: ctx.doc.root.path, pointer: "#/webhooks" };
  note(
    ctx,
    out,
    where,
    `webhooks ${deliveries.map(([n]) => n).join(", ")}: the document does not say how a delivery names its event, so one payload (their union) is written`,
  );
  return out;
}

/**
 * The typed events of webhooks that each name their event, by that name. Several webhooks
 * may name one event (GitHub's `issues-opened` and `issues-closed` are both `X-GitHub-Event:
 * issues`, told apart by the payload's `action`): that event's payload is their union, and its
 * description each one's, so that no webhook is lost.
 */
function namedEvents(
  deliveries: readonly Delivery[],
  payloads: readonly { type: JsonValue; selector?: { event: string } | undefined }[],
): JsonObject {
  const byEvent = new Map<
    string,
    { types: JsonValue[]; lines: string[]; own?: string | undefined }
  >();
  deliveries.forEach(([name, op], i) => {
    const key = payloads[i]!.selector!.event;
    const group = byEvent.get(key) ?? { types: [], lines: [] };
    byEvent.set(key, group);
    group.types.push(payloads[i]!.type);
    const description = (stringOf(op, "description") ?? stringOf(op, "summary"))?.trim();
    group.own ??= description;
    group.lines.push(description ? `- ${name}: ${description}` : `- ${name}`);
  });
  return Object.fromEntries(
    [...byEvent].map(([key, { types, lines, own }]) => {
      const event: JsonObject = { payload: unionOf(types) };
      const description = types.length > 1 ? lines.join("\n") : own;
      if (description) event.description = description;
      return [key, event];
    }),
  );
}

/** One type, or the union of the distinct ones. */
function unionOf(types: readonly JsonValue[]): JsonValue {
  const distinct = [...new Map(types.map((type) => [JSON.stringify(type), type])).values()];
  return distinct.length === 1 ? distinct[0]! : withFacets({ union: distinct }, {});
}

/**
 * How a delivery names its event, when it says so with a `const`: a required header
 * parameter, or a top-level payload property.
 */
function selectorOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
): { key: JsonObject; event: string } | undefined {
  const eventName = (value: JsonValue | undefined) =>
    typeof value === "string" && /^[a-z][a-z0-9_]*([./][a-z][a-z0-9_]*)*$/.test(value)
      ? value
      : undefined;
  for (const [i, raw] of (Array.isArray(op.parameters) ? op.parameters : []).entries()) {
    const { value } = deref(ctx, raw, under(at, "parameters", i));
    if (!isObject(value) || value.in !== "header" || !isObject(value.schema)) continue;
    const event = eventName(value.schema.const);
    if (event) return { key: { eventHeader: stringOf(value, "name") ?? "" }, event };
  }
  // each `$ref` on the way resolved from the file that holds it (Rebilly's request bodies, in
  // files of their own, name their schemas relative to themselves)
  const { value: body, at: bodyAt } = deref(ctx, op.requestBody ?? null, under(at, "requestBody"));
  const media =
    isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  const mediaAt = under(bodyAt, "content", "application/json");
  const { value: schema, at: schemaAt } = deref(
    ctx,
    isObject(media) ? (media.schema ?? null) : null,
    under(mediaAt, "schema"),
  );
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  for (const [field, property] of Object.entries(schema.properties)) {
    const { value } = deref(ctx, property, under(schemaAt, "properties", field));
    const event = isObject(value) ? eventName(value.const) : undefined;
    if (event && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(field))
      return { key: { eventField: field }, event };
  }
  return undefined;
}

/** Every operation's `callbacks`, as spec callbacks by a dotted event name. */
export function operationCallbacks(ctx: ImportContext): [string, JsonObject][] {
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const out: [string, JsonObject][] = [];
  const taken = new Set<string>();
  for (const [path, raw] of Object.entries(paths)) {
    const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
    const { value: item, at: itemAt } = deref(ctx, raw, under(rootAt, "paths", path));
    if (!isObject(item)) continue;
    for (const { op, at: opAt } of operationsOf(ctx, item, itemAt)) {
      if (!isObject(op.callbacks)) continue;
      for (const [name, rawCallback] of Object.entries(op.callbacks)) {
        const cbAt = under(opAt, "callbacks", name);
        const { value: callback, at: callbackAt } = deref(ctx, rawCallback, cbAt);
        if (!isObject(callback)) continue;
        for (const [expression, rawItem] of Object.entries(callback)) {
          const { value: cbItem, at: cbItemAt } = deref(
            ctx,
            rawItem,
            under(callbackAt, expression),
          );
          if (!isObject(cbItem)) continue;
          for (const { method: cbMethod, op: cbOp, at } of operationsOf(ctx, cbItem, cbItemAt)) {
            if (!inboundMethod(cbMethod)) continue;
            let event = eventNameOf(name);
            for (let i = 2; taken.has(event); i++) event = `${eventNameOf(name)}_${i}`;
            taken.add(event);
            out.push([event, foreignCallback(ctx, event, cbOp, cbMethod, expression, at)]);
          }
        }
      }
    }
  }
  return out;
}

/** `onData` -> `on_data`, `payment-succeeded` -> `payment_succeeded`: the format's event names. */
function eventNameOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(".")
    .map((part) =>
      part
        .replace(/[^a-z0-9_]+/g, "_")
        .replace(/^[^a-z]+/, "")
        .replace(/_+$/, ""),
    )
    .filter(Boolean);
  return words.length ? words.join(".") : "callback";
}

/** A callback of another document: its body, its first 2xx answer, and its URL in a note. */
function foreignCallback(
  ctx: ImportContext,
  event: string,
  op: JsonObject,
  method: string,
  expression: string,
  at: Pointer,
): JsonObject {
  const out: JsonObject = {};
  const summary = stringOf(op, "summary");
  if (summary?.trim()) out.summary = summary.trim();
  const description = stringOf(op, "description");
  if (description?.trim()) out.description = description.trim();
  out.method = method.toUpperCase();
  // The format routes a callback by method and path under one base address: the URL's
  // literal tail where it has one, else a path of the callback's own name.
  const tail = /}(\/[^{}]*)$/.exec(expression)?.[1];
  out.path = tail && /^\/[A-Za-z0-9._~\/-]*$/.test(tail) ? tail : `/${event}`;
  note(
    ctx,
    out,
    at,
    `the callback URL is the runtime expression ${expression}; written as ${String(out.path)} under the callback base address`,
  );
  const body = bodyType(ctx, op.requestBody, under(at, "requestBody"));
  if (body !== undefined) out.body = body;
  const responses = isObject(op.responses) ? op.responses : {};
  const ok = Object.keys(responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
  if (ok !== undefined) {
    const success = bodyType(ctx, responses[ok], under(at, "responses", ok));
    if (success !== undefined) out.success = success;
  }
  carryNotes(op, out);
  return out;
}
