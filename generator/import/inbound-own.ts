/**
 * apigen's own inbound side, read back: each callback (`x-path` under the callback base
 * address, its trailing parameters, its success and failure answers) and the webhooks (the
 * delivery entry, or one entry per typed event), with the prose apigen adds to their
 * descriptions taken back out.
 */
import { deref, isObject, setEntry, stringOf, under, type ImportContext } from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";
import { bodyType, inboundAuth, type Delivery } from "./inbound-common.ts";
import { paramsOf, splitDescription } from "./operations.ts";
import { asMapping, carryNotes, notesIn, typeOf } from "./schemas.ts";

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

/** One of apigen's callbacks, from its `webhooks` entry. */
export function callbackOf(
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
    { item: {}, at },
    { parameters: [...(Array.isArray(op.parameters) ? op.parameters : []), ...pathParameters] },
    at,
    out,
    (name) => name,
  );
  // a trailing parameter (x-apigen-trailing) comes back from paramsOf as `in: trailing`
  if (Object.keys(params).length) out.params = params;
  const body = bodyType(ctx, op.requestBody, under(at, "requestBody"));
  if (body !== undefined) out.body = body;
  Object.assign(out, answersOf(ctx, op, at));
  if (rules.length) out.rules = rules;
  carryNotes(op, out);
  return out;
}

/**
 * `success` and `failure` from the answers apigen writes: `200` with the success body (or
 * `anyOf` success and failure; JSON, or text for a webhook event's string answer), `default`
 * with the failure body.
 */
function answersOf(ctx: ImportContext, op: JsonObject, at: Pointer): JsonObject {
  const responses = isObject(op.responses) ? op.responses : {};
  const failure = bodyType(ctx, responses.default, under(at, "responses", "default"));
  const okAt = under(at, "responses", "200");
  const { value: ok } = deref(ctx, responses["200"] ?? null, okAt);
  const content = isObject(ok) && isObject(ok.content) ? ok.content : {};
  // a webhook event's answer that is a string goes out as text (Twitch's challenge)
  const type = ["application/json", "text/plain"].find((m) => isObject(content[m]));
  const media = type === undefined ? undefined : content[type];
  const schema = isObject(media) ? media.schema : undefined;
  const out: JsonObject = {};
  if (isObject(schema) && Array.isArray(schema.anyOf) && failure !== undefined) {
    out.success = typeOf(ctx, schema.anyOf[0]!, under(okAt, "content", type!));
  } else if (schema !== undefined && failure === undefined)
    out.success = typeOf(ctx, schema, under(okAt, "content", type!, "schema"));
  if (failure !== undefined) out.failure = failure;
  return out;
}

/** apigen's webhooks: the one delivery entry, or the typed events (`webhook.<event>`). */
export function ownWebhooks(ctx: ImportContext, deliveries: readonly Delivery[]): JsonObject {
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
  const headers = deliveryHeadersOf(ctx, first, firstAt, typed);
  if (Object.keys(headers).length) out.headers = headers;
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

/**
 * The delivery headers a spec declares (`webhooks.headers`), from the header parameters of a
 * delivery entry: all but the signature (`x-apigen-signature`) and, for typed events, the
 * header that names the event (its first parameter after the signature, a `const`).
 */
function deliveryHeadersOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  typed: boolean,
): JsonObject {
  const headers: JsonObject = {};
  (Array.isArray(op.parameters) ? op.parameters : []).forEach((raw, i) => {
    const { value, at: paramAt } = deref(ctx, raw, under(at, "parameters", i));
    if (!isObject(value) || value.in !== "header" || typeof value.name !== "string") return;
    if (typeof value["x-apigen-signature"] === "string") return;
    const schema = isObject(value.schema) ? value.schema : undefined;
    if (typed && schema && schema.const !== undefined) return; // the event header
    const type = asMapping(typeOf(ctx, schema ?? { type: "string" }, under(paramAt, "schema")));
    const description = stringOf(value, "description");
    const declared: JsonObject = {
      ...type,
      ...(value.required === true ? { required: true } : {}),
      ...(description !== undefined ? { description } : {}),
    };
    carryNotes(value, declared);
    const keys = Object.keys(declared);
    headers[value.name] = keys.length === 1 && keys[0] === "type" ? declared.type! : declared;
  });
  return headers;
}

/** The notes every entry has: the webhooks' own, which apigen repeats on each event. */
function commonNotes(ops: readonly JsonObject[]): string[] {
  const [first, ...rest] = ops.map(notesIn);
  return (first ?? []).filter((n) => rest.every((notes) => notes.includes(n)));
}

/** `eventHeader` or `eventField`, and `events`, from apigen's per-event entries. */
function typedEvents(ctx: ImportContext, deliveries: readonly Delivery[]): JsonObject {
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
    const { success } = answersOf(ctx, op, at);
    if (success !== undefined) event.success = success;
    const own = text.split("\n\n")[0];
    if (own && !addedProse.some((p) => p.test(own))) event.description = own;
    if (op.deprecated === true) event.deprecated = true;
    const notes = notesIn(op).filter((n) => !shared.includes(n));
    if (notes.length) event.undocumented = notes.length === 1 ? notes[0]! : notes;
    setEntry(events, name, event);
  }
  return { ...selector, events };
}
