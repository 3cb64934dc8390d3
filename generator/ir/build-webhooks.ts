/**
 * The `webhooks` section: registration, credentials, event groups and what deliveries
 * carry, either one `payload` for every delivery or typed `events`, each with its payload,
 * told apart by a request header (`eventHeader: X-GitHub-Event`) or a payload field
 * (`eventField: type`). The checks that need resolved types (an `eventField` that the
 * payload declares with another value) run once the types are known: `checkWebhookEvents`.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import { isRecord, stringList, type BuildContext } from "./build-context.ts";
import type { OperationBuilder } from "./build-operations.ts";
import type { TypeBuilder } from "./build-types.ts";
import { pascalCase } from "./casing.ts";
import { answersAsText, fieldPathEnd, resolveType, type TypeLookup } from "./callback-routing.ts";
import type { Decl } from "./merge.ts";
import { headerParse } from "./build-bodies.ts";
import type {
  Callback,
  Field,
  TypeNode,
  WebhookEvent,
  WebhookEventSelector,
  Webhooks,
} from "./model.ts";

type Data = Record<string, unknown>;

/** Endpoint ids of a list, each reported where it names no endpoint. */
function checkEndpointIds(
  ids: unknown,
  known: readonly string[],
  decl: Decl,
  key: string,
  ctx: BuildContext,
): string[] {
  const list = stringList(ids);
  list.forEach((id, i) => {
    if (!known.includes(id)) {
      ctx.bag.report(
        "unknown-endpoint",
        { name: id, hint: suggestion(id, known) },
        decl.file.locate([...decl.path, key, i]),
      );
    }
  });
  return list;
}

/** Where the event is named, with the problems of `eventHeader`, `eventField`, `events` and `payload` together. */
function eventSelectorOf(
  decl: Decl,
  ctx: BuildContext,
  hasEvents: boolean,
): WebhookEventSelector | undefined {
  const v = decl.value;
  const at = (key: string) => decl.file.locate([...decl.path, key], "key");
  const header = typeof v.eventHeader === "string" ? v.eventHeader : undefined;
  const field = typeof v.eventField === "string" ? v.eventField : undefined;
  if (header !== undefined && field !== undefined) {
    ctx.bag.report("webhook-event-selector-twice", {}, at("eventField"));
    return undefined;
  }
  if (hasEvents && v.payload !== undefined)
    ctx.bag.report("webhook-payload-and-events", {}, at("payload"));
  const selector: WebhookEventSelector | undefined =
    header !== undefined
      ? { in: "header", name: header }
      : field !== undefined
        ? { in: "field", name: field }
        : undefined;
  if (hasEvents && !selector) ctx.bag.report("webhook-event-selector-missing", {}, at("events"));
  if (!hasEvents && selector)
    ctx.bag.report(
      "webhook-events-missing",
      { key: selector.in === "header" ? "eventHeader" : "eventField" },
      at(selector.in === "header" ? "eventHeader" : "eventField"),
    );
  return hasEvents ? selector : undefined;
}

/** The events of the section, each with its payload type, its answer's type where it has one, and docs. */
function eventsOf(decl: Decl, ctx: BuildContext, types: TypeBuilder): WebhookEvent[] {
  const events = isRecord(decl.value.events) ? decl.value.events : {};
  return Object.entries(events).map(([name, value]) => {
    const path = [...decl.path, "events", name];
    const event = (isRecord(value) ? value : {}) as Data;
    return {
      name,
      pascalName: pascalCase(name),
      payload: types.node(decl.file, [...path, "payload"], event.payload),
      ...(event.success !== undefined
        ? { success: types.node(decl.file, [...path, "success"], event.success) }
        : {}),
      docs: ctx.docs(decl.file, path, event),
      location: decl.file.locate(path, "key"),
    };
  });
}

/**
 * The declared delivery headers as one object type (fields by header name, optional unless
 * `required: true`), each a scalar a header's text can be read as; absent when none are declared.
 */
function deliveryHeadersOf(
  decl: Decl,
  ctx: BuildContext,
  types: TypeBuilder,
): TypeNode | undefined {
  const declared = decl.value.headers;
  if (!isRecord(declared)) return undefined;
  const path = [...decl.path, "headers"];
  const fields: Field[] = Object.entries(declared).map(([name, value]) => {
    const at = [...path, name];
    const type = types.node(decl.file, at, value);
    if (!headerParse(type))
      ctx.bag.report(
        "delivery-header-type",
        { name, type: typeof value === "string" ? value : type.kind },
        decl.file.locate(at),
      );
    return {
      name,
      type,
      required: isRecord(value) && value.required === true,
      location: decl.file.locate(at, "key"),
    };
  });
  if (fields.length === 0) return undefined;
  return {
    kind: "object",
    fields,
    open: false,
    nullable: false,
    constraints: {},
    docs: { notes: [] },
    location: decl.file.locate(path, "key"),
  };
}

/** The `webhooks` section of the model. */
export function buildWebhooks(
  decl: Decl,
  ctx: BuildContext,
  types: TypeBuilder,
  operations: OperationBuilder,
  endpointIds: readonly string[],
): Webhooks {
  const v = decl.value;
  const groups = (isRecord(v.eventGroups) ? v.eventGroups : {}) as Record<string, Data | null>;
  const events = eventsOf(decl, ctx, types);
  const selector = eventSelectorOf(decl, ctx, events.length > 0);
  return {
    registration: checkEndpointIds(v.registration, endpointIds, decl, "registration", ctx),
    auth: operations.auth(decl.file, decl.path, v.auth),
    eventGroups: Object.entries(groups).map(([value, g]) => ({
      value,
      ...(typeof g?.description === "string" ? { description: g.description } : {}),
    })),
    ...(v.payload !== undefined && events.length === 0
      ? { payload: types.node(decl.file, [...decl.path, "payload"], v.payload) }
      : {}),
    ...(selector ? { eventSelector: selector } : {}),
    ...withHeaders(deliveryHeadersOf(decl, ctx, types)),
    events,
    rules: stringList(v.rules),
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path, "key"),
  };
}

/** `{ headers }` when delivery headers are declared, else nothing. */
const withHeaders = (headers: TypeNode | undefined): { headers?: TypeNode } =>
  headers ? { headers } : {};

/** Why `payload` cannot carry `field` with the value `event`, or `undefined` when it can. */
function fieldProblem(
  payload: TypeNode,
  field: string,
  event: string,
  types: TypeLookup,
): string | undefined {
  // a path (`event.event_type`) is walked a field at a time, through objects; a union on the
  // way may hold it in each member (Twitch's `event` differs by subscription type), and a
  // payload that does not declare it is not told what to hold
  const end = fieldPathEnd(payload, field.split("."), types);
  if ("notObject" in end) {
    const at = end.notObject.length ? `its payload's ${end.notObject.join(".")}` : "its payload";
    return `${at} is not an object, so it has no field ${field.split(".")[end.notObject.length]}`;
  }
  return "found" in end ? valueProblem(end.found, field, event, types) : undefined;
}

/** Why a field of type `node` cannot hold the string `event`, or `undefined` when it can. */
function valueProblem(
  node: TypeNode,
  field: string,
  event: string,
  types: TypeLookup,
): string | undefined {
  const type = resolveType(node, types);
  switch (type.kind) {
    case "literal":
      return type.value === event
        ? undefined
        : `its payload declares ${field} as ${JSON.stringify(type.value)}`;
    case "enum":
      return type.open || type.values.includes(event)
        ? undefined
        : `its payload's ${field} has no value ${JSON.stringify(event)}`;
    case "primitive":
      return type.name === "string" ? undefined : `its payload declares ${field} as ${type.name}`;
    case "unknown":
    case "param":
      return undefined;
    case "union": {
      // Any member that can hold the name will do; else the first member's reason.
      const problems = type.variants.map((v) => valueProblem(v, field, event, types));
      return problems.includes(undefined) ? undefined : problems[0];
    }
    case "ref":
    case "array":
    case "map":
    case "object":
      return `its payload declares ${field} as ${type.kind === "array" || type.kind === "object" ? "an" : "a"} ${type.kind}, not a string`;
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * Checks that need resolved types: with `eventField`, each event's payload can carry the
 * field with the event's name; no event shares its name with a callback (both are keys of
 * the OpenAPI document's `webhooks`).
 */
export function checkWebhookEvents(
  webhooks: Webhooks | undefined,
  callbacks: readonly Callback[],
  types: TypeLookup,
  ctx: BuildContext,
): void {
  if (!webhooks) return;
  const selector = webhooks.eventSelector;
  for (const event of webhooks.events) {
    if (callbacks.some((c) => c.event === event.name))
      ctx.bag.report("webhook-event-clash", { name: event.name }, event.location);
    if (selector?.in !== "field") continue;
    const problem = fieldProblem(event.payload, selector.name, event.name, types);
    if (problem)
      ctx.bag.report(
        "webhook-event-field",
        { event: event.name, field: selector.name, problem },
        event.payload.location,
      );
  }
}

/**
 * The webhooks with how each answer is sent worked out, once the types are known: a string
 * answer as the text itself (`text/plain`), any other as JSON.
 */
export function withAnswerMedia(webhooks: Webhooks, types: TypeLookup): Webhooks {
  return {
    ...webhooks,
    events: webhooks.events.map((event) =>
      event.success
        ? { ...event, answerAs: answersAsText(event.success, types) ? "text" : "json" }
        : event,
    ),
  };
}
