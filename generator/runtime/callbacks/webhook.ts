/**
 * Typed webhook deliveries, after the signature check and the JSON parse: which event a
 * delivery is (a request header such as `X-GitHub-Event`, or a top-level payload field such
 * as `type`), its payload checked against that event's type, then that event's handler. A
 * delivery without the header or field, of an event the spec does not list, or with a
 * payload that does not match is refused with 400 and a reason that names the event and
 * the field. The event name comes from the request, so it is looked up only among the
 * spec's own events and the handlers' own keys (never an object's inherited members) and is
 * quoted and cut short wherever a reason repeats it.
 */
import type { ValidationIssue, Validator } from "../validate.js";
import { fieldAt } from "./body.js";
import { convert } from "./routes.js";
import type { HeaderReader } from "./signature.js";
import type {
  AnyWebhookHandlers,
  Answer,
  DeliveryContext,
  DeliveryHeaders,
  DeliveryHeadersSpec,
  OutboundResponse,
  TypedWebhookRoute,
  WebhookContext,
  WebhookEventsSpec,
} from "./types.js";

/**
 * What a delivery step needs from the core: a refusal (400) and the run of a handler (200, or
 * the generic 500); with `answers`, what the handler returns is the 200's body, as JSON or text.
 */
export interface DeliveryTools {
  refuse(event: string | undefined, reasons: string[]): OutboundResponse;
  run(event: string | undefined, handler: () => unknown, answers?: "json" | "text"): Answer;
}

/** Longest event name a reason repeats, quoted: the request chose it. */
const maxEventText = 100;

/** Most known events a reason lists. */
const maxListed = 10;

/** An event name from a request, cut short for a reason or a log. */
function cut(event: string): string {
  return event.length > maxEventText ? `${event.slice(0, maxEventText)}...` : event;
}

/** `issues, ping` or the first ten and a count of the rest. */
function knownList(checks: ReadonlyMap<string, Validator>): string {
  const names = [...checks.keys()];
  const listed = names.slice(0, maxListed).join(", ");
  return names.length > maxListed ? `${listed} and ${names.length - maxListed} more` : listed;
}

/** Where the delivery names its event, for reasons: `X-GitHub-Event` or `body.type`. */
function selectorText(spec: WebhookEventsSpec): string {
  return spec.header !== undefined ? spec.header : `body.${spec.field ?? ""}`;
}

/** The headers of a delivery that has none declared: one object, not one per request. */
const noHeaders: DeliveryHeaders = Object.freeze({});

/**
 * The delivery headers the spec declares, read as their types (a number or boolean header's
 * text turned into one) and validated; absent ones are left out. Why not, one reason per
 * problem, each naming the header.
 */
export function deliveryHeaders(
  spec: DeliveryHeadersSpec | undefined,
  headers: HeaderReader,
): { ok: true; value: DeliveryHeaders } | { ok: false; reasons: string[] } {
  if (spec === undefined) return { ok: true, value: noHeaders };
  const value: Record<string, string | number | boolean> = {};
  for (const { name, as } of spec.names) {
    const text = headers.get(name);
    if (text !== null) value[name] = convert(text.trim(), as) as string | number | boolean;
  }
  // The validators append to one list (never spread: a list can be long).
  const issues: ValidationIssue[] = [];
  spec.check(value, "headers", issues);
  return issues.length
    ? { ok: false, reasons: issues.map((i) => `${i.path} ${i.message}`) }
    : { ok: true, value };
}

/**
 * Why a delivery's one payload (a spec without events) does not match the spec's payload type,
 * one reason per problem, each naming the field (`body.issue.number must be a number, not a
 * string`); none where it matches or the spec gives no type (`check` absent).
 */
export function payloadProblems(check: Validator | undefined, payload: unknown): string[] {
  if (check === undefined) return [];
  // The validators append to one list (never spread: a list can be long).
  const issues: ValidationIssue[] = [];
  check(payload, "body", issues);
  return issues.map((i) => `${i.path} ${i.message}`);
}

/** The event a delivery names, or why it names none. */
export function deliveryEvent(
  spec: WebhookEventsSpec,
  headers: HeaderReader,
  payload: unknown,
): { ok: true; event: string } | { ok: false; reason: string } {
  if (spec.header !== undefined) {
    const value = headers.get(spec.header)?.trim();
    if (!value)
      return {
        ok: false,
        reason: `${spec.header} header is missing; it names the event of a delivery`,
      };
    const signed = spec.bodyField === undefined ? undefined : fieldAt(payload, spec.bodyField);
    // the header is not signed; where the signed body names the event too, the two must agree
    if (typeof signed === "string" && signed !== value)
      return {
        ok: false,
        reason: `${spec.header} names the event ${JSON.stringify(cut(value))} but the signed body.${spec.bodyField ?? ""} names ${JSON.stringify(cut(signed))}`,
      };
    return { ok: true, event: value };
  }
  const field = spec.field ?? "";
  const value = fieldAt(payload, field);
  if (value === undefined)
    return { ok: false, reason: `body.${field} is missing; it names the event of a delivery` };
  if (typeof value !== "string" || value === "")
    return {
      ok: false,
      reason: `body.${field} must be a non-empty string naming the event of a delivery`,
    };
  return { ok: true, event: value };
}

/**
 * One typed delivery: its event, then its payload checked against the event's type, then the
 * event's handler (or, for an event the spec does not list, `onUnknownEvent`).
 */
export function deliverTyped(
  spec: WebhookEventsSpec,
  checks: ReadonlyMap<string, Validator>,
  route: TypedWebhookRoute<AnyWebhookHandlers, never>,
  payload: unknown,
  request: DeliveryContext,
  tools: DeliveryTools,
): Answer {
  const named = deliveryEvent(spec, request.headers, payload);
  if (!named.ok) return tools.refuse(undefined, [named.reason]);
  const { event } = named;
  const ctx: WebhookContext = { ...request, event };
  const check = checks.get(event);
  if (check === undefined) {
    const fallback = route.onUnknownEvent as
      | ((payload: unknown, ctx: WebhookContext) => unknown)
      | undefined;
    if (fallback) return tools.run(event, () => fallback(payload, ctx));
    return tools.refuse(cut(event), [
      `unknown event ${JSON.stringify(cut(event))} in ${selectorText(spec)}; this receiver knows ${knownList(checks)}`,
    ]);
  }
  // The validators append to one list (never spread: a list can be long).
  const issues: ValidationIssue[] = [];
  check(payload, "body", issues);
  if (issues.length)
    return tools.refuse(
      event,
      issues.map((i) => `event ${event}: ${i.path} ${i.message}`),
    );
  const handlers = route.handlers as AnyWebhookHandlers | undefined;
  const handler =
    handlers && Object.hasOwn(handlers, event)
      ? (handlers[event] as ((payload: unknown, ctx: WebhookContext) => unknown) | undefined)
      : undefined;
  const answering = spec.answering;
  const answers = answering && Object.hasOwn(answering, event) ? answering[event] : undefined;
  return tools.run(event, handler ? () => handler(payload, ctx) : () => undefined, answers);
}
