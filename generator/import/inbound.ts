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
import {
  deref,
  isObject,
  note,
  ownDocument,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { paramsOf, splitDescription } from "./operations.ts";
import { asMapping, carryNotes, typeOf, withFacets } from "./schemas.ts";

const methods = ["get", "put", "post", "delete", "patch"] as const;

/** Paragraphs apigen writes into inbound descriptions, which the spec does not hold. */
const addedProse = [
  /^The API sends `/,
  /^This GET request carries a JSON body\./,
  /^The API sends each delivery to /,
  /^Event groups a webhook subscribes to:/,
  /^The payload's `[^`]+` is `[^`]+`\.$/,
  /^The `[^`]+` header is `[^`]+`\.$/,
];

/** A description without apigen's added paragraphs, and its `Rules:` as rules. */
function ownDescription(text: string | undefined): { description?: string; rules: string[] } {
  const { description, rules } = splitDescription(text, false);
  const kept = (description ?? "")
    .split("\n\n")
    .filter((p) => !addedProse.some((added) => added.test(p)))
    .join("\n\n")
    .trim();
  return kept ? { description: kept, rules } : { rules };
}

/** `callbacks` and `webhooks` sections for the spec, each absent when there is none. */
export function inboundSections(ctx: ImportContext): JsonObject {
  const root = ctx.doc.root.value as JsonObject;
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const callbacks: JsonObject = {};
  const deliveries: [string, JsonObject, Pointer][] = [];
  const webhooks = isObject(root.webhooks) ? root.webhooks : {};
  const own = ownDocument(ctx);
  ctx.area = "callbacks";
  for (const [key, raw] of Object.entries(webhooks)) {
    const { value: item, at: itemAt } = deref(ctx, raw, under(rootAt, "webhooks", key));
    if (!isObject(item)) continue;
    const used = methods.filter((m) => isObject(item[m]));
    for (const method of used) {
      const op = item[method] as JsonObject;
      const at = under(itemAt, method);
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

/** The credentials an inbound operation names: its security, then its signature headers. */
function inboundAuth(ctx: ImportContext, op: JsonObject, at: Pointer): string[] {
  const auth: string[] = [];
  const first = Array.isArray(op.security) ? op.security[0] : undefined;
  if (isObject(first)) auth.push(...Object.keys(first));
  (Array.isArray(op.parameters) ? op.parameters : []).forEach((raw, i) => {
    const { value } = deref(ctx, raw, under(at, "parameters", i));
    if (isObject(value) && typeof value["x-apigen-signature"] === "string")
      auth.push(value["x-apigen-signature"]);
  });
  return auth;
}

/** The type of a media type's schema in a request body or response, if there is one. */
function bodyType(ctx: ImportContext, holder: JsonValue | undefined, at: Pointer) {
  const { value, at: bodyAt } = deref(ctx, holder ?? null, at);
  if (!isObject(value) || !isObject(value.content)) return undefined;
  const [type, media] = Object.entries(value.content)[0] ?? [];
  if (type === undefined || !isObject(media) || media.schema === undefined) return undefined;
  return typeOf(ctx, media.schema, under(bodyAt, "content", type, "schema"));
}

/** One of apigen's callbacks, from its `webhooks` entry. */
function callbackOf(
  ctx: ImportContext,
  op: JsonObject,
  method: string,
  xPath: string,
  at: Pointer,
): JsonObject {
  const out: JsonObject = {};
  const summary = stringOf(op, "summary");
  if (summary) out.summary = summary;
  const { description, rules } = ownDescription(stringOf(op, "description"));
  if (description) out.description = description;
  out.method = method.toUpperCase();
  const pathParameters = Array.isArray(op["x-path-parameters"]) ? op["x-path-parameters"] : [];
  const trailing = pathParameters
    .filter((p) => isObject(p) && p["x-apigen-trailing"] === true)
    .map((p) => stringOf(p as JsonObject, "name") ?? "");
  out.path = trailing.reduce((path, name) => path.replace(`/{${name}}`, ""), xPath) || "/";
  const auth = inboundAuth(ctx, op, at);
  if (auth.length) out.auth = auth;
  if (isObject(op["x-apigen-headers"])) out.headers = op["x-apigen-headers"];
  const params = paramsOf(
    ctx,
    {},
    { parameters: [...(Array.isArray(op.parameters) ? op.parameters : []), ...pathParameters] },
    at,
    out,
    (name) => name,
  );
  for (const name of trailing) {
    const param = asMapping(params[name] as string | JsonObject);
    const text = typeof param.description === "string" ? param.description : "";
    const own = text.split("\n\n").filter((p) => !/^Travels after the path/.test(p));
    params[name] = withDescription({ in: "trailing", ...param }, own.join("\n\n"));
  }
  if (Object.keys(params).length) out.params = params;
  const body = bodyType(ctx, op.requestBody, under(at, "requestBody"));
  if (body !== undefined) out.body = body;
  Object.assign(out, answersOf(ctx, op, at));
  if (rules.length) out.rules = rules;
  carryNotes(op, out);
  return out;
}

function withDescription(param: JsonObject, description: string): JsonObject {
  const { description: _old, ...rest } = param;
  return description ? { ...rest, description } : rest;
}

/**
 * `success` and `failure` from the answers apigen writes: `200` with the success body (or
 * `anyOf` success and failure), `default` with the failure body.
 */
function answersOf(ctx: ImportContext, op: JsonObject, at: Pointer): JsonObject {
  const responses = isObject(op.responses) ? op.responses : {};
  const failure = bodyType(ctx, responses.default, under(at, "responses", "default"));
  const okAt = under(at, "responses", "200");
  const { value: ok } = deref(ctx, responses["200"] ?? null, okAt);
  const media = isObject(ok) && isObject(ok.content) ? ok.content["application/json"] : undefined;
  const schema = isObject(media) ? media.schema : undefined;
  const out: JsonObject = {};
  if (isObject(schema) && Array.isArray(schema.anyOf) && failure !== undefined) {
    out.success = typeOf(ctx, schema.anyOf[0]!, under(okAt, "content", "application/json"));
  } else if (schema !== undefined && failure === undefined)
    out.success = typeOf(ctx, schema, under(okAt, "content", "application/json", "schema"));
  if (failure !== undefined) out.failure = failure;
  return out;
}

/** apigen's webhooks: the one delivery entry, or the typed events (`webhook.<event>`). */
function ownWebhooks(
  ctx: ImportContext,
  deliveries: readonly [string, JsonObject, Pointer][],
): JsonObject {
  const [, first, firstAt] = deliveries[0]!;
  const out: JsonObject = {};
  const typed = deliveries.some(
    ([, op]) =>
      stringOf(op, "operationId")?.startsWith("webhook.") &&
      stringOf(op, "operationId") !== "webhook.delivery",
  );
  const { description, rules } = ownDescription(stringOf(first, "description"));
  // A typed event's description starts with the event's own paragraph.
  const common = typed ? description?.split("\n\n").slice(1).join("\n\n") : description;
  if (common) out.description = common;
  if (Array.isArray(first["x-registration"])) out.registration = first["x-registration"];
  const auth = inboundAuth(ctx, first, firstAt);
  if (auth.length) out.auth = auth;
  if (Array.isArray(first["x-event-groups"]))
    out.eventGroups = Object.fromEntries(
      first["x-event-groups"].filter(isObject).map((g) => {
        const { value, ...rest } = g;
        return [String(value), rest];
      }),
    );
  if (typed) Object.assign(out, typedEvents(ctx, deliveries));
  else {
    const payload = bodyType(ctx, first.requestBody, under(firstAt, "requestBody"));
    if (payload !== undefined) out.payload = payload;
  }
  if (rules.length) out.rules = rules;
  // An event's entry carries its own notes and then the webhooks' (those every entry has).
  const shared = commonNotes(deliveries.map(([, op]) => op));
  if (shared.length) out.undocumented = shared.length === 1 ? shared[0]! : shared;
  return out;
}

/** An entry's `x-undocumented` notes. */
function notesOf(op: JsonObject): string[] {
  const notes = op["x-undocumented"];
  return (Array.isArray(notes) ? notes : [notes]).filter((n): n is string => typeof n === "string");
}

/** The notes every entry has: the webhooks' own, which apigen repeats on each event. */
function commonNotes(ops: readonly JsonObject[]): string[] {
  const [first, ...rest] = ops.map(notesOf);
  return (first ?? []).filter((n) => rest.every((notes) => notes.includes(n)));
}

/** `eventHeader` or `eventField`, and `events`, from apigen's per-event entries. */
function typedEvents(
  ctx: ImportContext,
  deliveries: readonly [string, JsonObject, Pointer][],
): JsonObject {
  const events: JsonObject = {};
  const shared = commonNotes(deliveries.map(([, op]) => op));
  let selector: JsonObject = {};
  for (const [name, op, at] of deliveries) {
    const text = stringOf(op, "description") ?? "";
    const header = /^The `([^`]+)` header is `/m.exec(text)?.[1];
    const field = /^The payload's `([^`]+)` is `/m.exec(text)?.[1];
    selector = header ? { eventHeader: header } : field ? { eventField: field } : selector;
    const event: JsonObject = {};
    const payload = bodyType(ctx, op.requestBody, under(at, "requestBody"));
    event.payload = payload ?? "unknown";
    const own = text.split("\n\n")[0];
    if (own && !addedProse.some((p) => p.test(own))) event.description = own;
    if (op.deprecated === true) event.deprecated = true;
    const notes = notesOf(op).filter((n) => !shared.includes(n));
    if (notes.length) event.undocumented = notes.length === 1 ? notes[0]! : notes;
    events[name] = event;
  }
  return { ...selector, events };
}

/**
 * Webhooks of a document that is not apigen's: one is the payload of every delivery; several
 * are typed events when each names itself the same way, else one payload of their union.
 */
function otherWebhooks(
  ctx: ImportContext,
  deliveries: readonly [string, JsonObject, Pointer][],
): JsonObject {
  const out: JsonObject = {};
  const payloads = deliveries.map(([, op, at]) => ({
    type: bodyType(ctx, op.requestBody, under(at, "requestBody")) ?? "unknown",
    selector: selectorOf(ctx, op, at),
  }));
  const auth = deliveries.flatMap(([, op, at]) => inboundAuth(ctx, op, at));
  if (auth.length) out.auth = [...new Set(auth)];
  if (deliveries.length === 1) {
    const [name, op] = deliveries[0]!;
    const description = stringOf(op, "description") ?? stringOf(op, "summary");
    out.description = description?.trim() || `Deliveries of ${name}.`;
    out.payload = payloads[0]!.type;
    return out;
  }
  const selectors = new Set(payloads.map((p) => JSON.stringify(p.selector?.key)));
  const named = payloads.every((p) => p.selector) && selectors.size === 1;
  if (named) {
    Object.assign(out, payloads[0]!.selector!.key);
    out.events = Object.fromEntries(
      deliveries.map(([name, op], i) => {
        const event: JsonObject = { payload: payloads[i]!.type };
        const description = stringOf(op, "description") ?? stringOf(op, "summary");
        if (description?.trim()) event.description = description.trim();
        return [payloads[i]!.selector!.event, event];
      }),
    );
    return out;
  }
  const types = [...new Map(payloads.map((p) => [JSON.stringify(p.type), p.type])).values()];
  out.payload = types.length === 1 ? types[0]! : withFacets({ union: types }, {});
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
 * How a delivery names its event, when it says so with a `const`: a required header
 * parameter, or a top-level payload property.
 */
function selectorOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
): { key: JsonObject; event: string } | undefined {
  const eventName = (value: JsonValue | undefined) =>
    typeof value === "string" && /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/.test(value)
      ? value
      : undefined;
  for (const [i, raw] of (Array.isArray(op.parameters) ? op.parameters : []).entries()) {
    const { value } = deref(ctx, raw, under(at, "parameters", i));
    if (!isObject(value) || value.in !== "header" || !isObject(value.schema)) continue;
    const event = eventName(value.schema.const);
    if (event) return { key: { eventHeader: stringOf(value, "name") ?? "" }, event };
  }
  const { value: body } = deref(ctx, op.requestBody ?? null, under(at, "requestBody"));
  const media =
    isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  const { value: schema } = deref(ctx, isObject(media) ? (media.schema ?? null) : null, at);
  if (!isObject(schema) || !isObject(schema.properties)) return undefined;
  for (const [field, property] of Object.entries(schema.properties)) {
    const { value } = deref(ctx, property, at);
    const event = isObject(value) ? eventName(value.const) : undefined;
    if (event && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(field))
      return { key: { eventField: field }, event };
  }
  return undefined;
}

/** Every operation's `callbacks`, as spec callbacks by a dotted event name. */
function operationCallbacks(ctx: ImportContext): [string, JsonObject][] {
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const out: [string, JsonObject][] = [];
  const taken = new Set<string>();
  for (const [path, raw] of Object.entries(paths)) {
    const item = deref(ctx, raw, { file: ctx.doc.root.path, pointer: `#/paths` }).value;
    if (!isObject(item)) continue;
    for (const method of methods) {
      const op = item[method];
      if (!isObject(op) || !isObject(op.callbacks)) continue;
      const opAt = under({ file: ctx.doc.root.path, pointer: "#" }, "paths", path, method);
      for (const [name, rawCallback] of Object.entries(op.callbacks)) {
        const cbAt = under(opAt, "callbacks", name);
        const { value: callback } = deref(ctx, rawCallback, cbAt);
        if (!isObject(callback)) continue;
        for (const [expression, cbItem] of Object.entries(callback)) {
          if (!isObject(cbItem)) continue;
          for (const cbMethod of methods) {
            const cbOp = cbItem[cbMethod];
            if (!isObject(cbOp)) continue;
            const at = under(cbAt, expression, cbMethod);
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
