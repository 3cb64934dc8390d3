/**
 * Compares two models and lists every change to endpoints, callbacks, webhook events, types, fields,
 * optionality, nullability, enum values and error codes, each classified for the people it
 * affects: callers of the client and implementers of the callback handlers.
 */
import {
  constraintKeys,
  type ApiModel,
  type Endpoint,
  type Field,
  type Param,
  type TypeNode,
} from "../ir/model.ts";
import { sameShape, typeText } from "./type-text.ts";
import { unionChanges } from "./unions.ts";
import { positionUsage, typeUsages, usageKey, type Audience, type Usage } from "./usage.ts";
import { diffExpand } from "./expand.ts";
import { diffPagination } from "./pagination.ts";
import { diffOAuth } from "./oauth.ts";
import { diffSigning } from "./signing.ts";
import { diffRequests } from "./requests.ts";
import { diffStatuses } from "./statuses.ts";
import { diffStreams } from "./streams.ts";
import { diffWebhooks } from "./webhooks.ts";
import { diffGenerics, typeKey } from "./generics.ts";

export type Level = "breaking" | "minor" | "patch";

export interface Change {
  /** What changed, e.g. `types.Transaction.status` or `endpoints.orders.create`. */
  subject: string;
  description: string;
  level: Level;
  /** Who it breaks (empty unless breaking). */
  breaks: Audience[];
}

/** How a change affects a reader and a writer of the position: does it break them? */
interface Effect {
  reads: boolean;
  writes: boolean;
}

const effects = {
  fieldAddedOptional: { reads: false, writes: false },
  fieldAddedRequired: { reads: false, writes: true },
  fieldRemoved: { reads: true, writes: true },
  becameRequired: { reads: false, writes: true },
  becameOptional: { reads: true, writes: false },
  /** An expandable mark narrows or widens what results of an endpoint with expand read. */
  expandableChanged: { reads: true, writes: false },
  typeChanged: { reads: true, writes: true },
  nullableAdded: { reads: true, writes: false },
  nullableRemoved: { reads: false, writes: true },
  valueAdded: { reads: true, writes: false },
  valueRemoved: { reads: false, writes: true },
  stricter: { reads: false, writes: true },
} satisfies Record<string, Effect>;

class ChangeList {
  readonly items: Change[] = [];

  add(subject: string, description: string, level: Level, breaks: Audience[] = []): void {
    this.items.push({
      subject,
      description,
      level: breaks.length ? "breaking" : level,
      breaks: [...new Set(breaks)].sort(),
    });
  }

  /** A change whose effect depends on who reads or writes the position. */
  affect(
    subject: string,
    description: string,
    effect: Effect,
    usages: readonly Usage[],
    otherwise: Level,
  ): void {
    const breaks = usages
      .filter((u) => (u.access === "reads" ? effect.reads : effect.writes))
      .map((u) => u.audience);
    const who = usages
      .map((u) => `${u.audience} ${u.access === "reads" ? "read" : "write"} it`)
      .join(", ");
    this.add(subject, `${description}${who ? ` (${who})` : ""}`, otherwise, breaks);
  }
}

/** The facets whose change holds values to other limits (a unit is documentation). */
const constraintNames = constraintKeys.filter((key) => key !== "unit");

/** Differences between two type nodes at `subject`, recursing into objects and containers. */
function diffNode(
  out: ChangeList,
  subject: string,
  before: TypeNode,
  after: TypeNode,
  usages: readonly Usage[],
): void {
  if (!sameShape(before, after)) {
    out.affect(
      subject,
      `type ${typeText(before)} -> ${typeText(after)}`,
      effects.typeChanged,
      usages,
      "breaking",
    );
    return;
  }
  if (!before.nullable && after.nullable)
    out.affect(subject, "may now be null", effects.nullableAdded, usages, "minor");
  if (before.nullable && !after.nullable)
    out.affect(subject, "may no longer be null", effects.nullableRemoved, usages, "minor");
  for (const name of constraintNames) {
    if (before.constraints[name] !== after.constraints[name]) {
      out.affect(
        subject,
        `${name} ${JSON.stringify(before.constraints[name] ?? null)} -> ${JSON.stringify(after.constraints[name] ?? null)}`,
        effects.stricter,
        usages,
        "minor",
      );
    }
  }
  if (before.kind === "array" && after.kind === "array")
    diffNode(out, `${subject}[]`, before.items, after.items, usages);
  if (before.kind === "map" && after.kind === "map")
    diffNode(out, `${subject}{}`, before.values, after.values, usages);
  if (before.kind === "enum" && after.kind === "enum") {
    const added = after.values.filter((v) => !before.values.includes(v));
    const removed = before.values.filter((v) => !after.values.includes(v));
    if (added.length)
      out.affect(
        subject,
        `enum value${added.length > 1 ? "s" : ""} ${added.map((v) => JSON.stringify(v)).join(", ")} added`,
        after.open ? { reads: false, writes: false } : effects.valueAdded,
        usages,
        "minor",
      );
    if (removed.length)
      out.affect(
        subject,
        `enum value${removed.length > 1 ? "s" : ""} ${removed.map((v) => JSON.stringify(v)).join(", ")} removed`,
        effects.valueRemoved,
        usages,
        "minor",
      );
  }
  if (before.kind === "union" && after.kind === "union")
    for (const change of unionChanges(before, after, typeText))
      out.affect(subject, change.description, change.effect, usages, change.level);
  if (before.kind === "object" && after.kind === "object") {
    for (const field of before.fields) {
      const next = after.fields.find((f) => f.name === field.name);
      const path = `${subject}.${field.name}`;
      if (!next) {
        out.affect(path, "field removed", effects.fieldRemoved, usages, "minor");
        continue;
      }
      const seen = fieldUsages(usages, field, next);
      if (!field.required && next.required)
        out.affect(path, "optional -> required", effects.becameRequired, seen, "minor");
      if (field.required && !next.required)
        out.affect(path, "required -> optional", effects.becameOptional, seen, "minor");
      if (Boolean(field.expandable) !== Boolean(next.expandable))
        out.affect(
          path,
          next.expandable ? "became expandable" : "no longer expandable",
          effects.expandableChanged,
          seen,
          "minor",
        );
      if (field.access !== next.access)
        out.affect(
          path,
          `${field.access ?? "read and written"} -> ${next.access ?? "read and written"}`,
          accessEffect(field, next),
          usages,
          "minor",
        );
      diffNode(out, path, field.type, next.type, seen);
    }
    for (const field of after.fields.filter((f) => !before.fields.some((b) => b.name === f.name))) {
      out.affect(
        `${subject}.${field.name}`,
        `${field.required ? "required" : "optional"} field added`,
        field.required ? effects.fieldAddedRequired : effects.fieldAddedOptional,
        usages,
        "minor",
      );
    }
  }
}

/**
 * The usages a field's change reaches: a field only the API writes (`readOnly`) on both sides
 * is in no request body, one only callers write (`writeOnly`) in no answer.
 */
function fieldUsages(usages: readonly Usage[], before: Field, after: Field): readonly Usage[] {
  const both = before.access === after.access ? before.access : undefined;
  if (both === "readOnly") return usages.filter((u) => u.access !== "writes");
  if (both === "writeOnly") return usages.filter((u) => u.access !== "reads");
  return usages;
}

/**
 * A field's change of who writes it: becoming `readOnly` takes it out of request bodies
 * (writers that send it break), becoming `writeOnly` out of answers (readers break), and a
 * required `readOnly` field becoming an ordinary one must now be sent.
 */
function accessEffect(before: Field, after: Field): Effect {
  return {
    reads: after.access === "writeOnly",
    writes: after.access === "readOnly" || (before.access === "readOnly" && after.required),
  };
}

/** An operation position that may be absent on either side (a body, a response). */
function diffOptionalNode(
  out: ChangeList,
  subject: string,
  before: TypeNode | undefined,
  after: TypeNode | undefined,
  usage: Usage,
): void {
  if (before && after) diffNode(out, subject, before, after, [usage]);
  else if (before) out.affect(subject, "removed", effects.fieldRemoved, [usage], "minor");
  else if (after)
    out.affect(
      subject,
      `added (${typeText(after)})`,
      usage.access === "writes" ? effects.fieldAddedRequired : effects.fieldAddedOptional,
      [usage],
      "minor",
    );
}

function diffParams(
  out: ChangeList,
  subject: string,
  before: readonly Param[],
  after: readonly Param[],
  usage: Usage,
): void {
  const order = (list: readonly Param[]) =>
    list
      .filter((p) => p.placement === "path" || p.placement === "trailing")
      .map((p) => p.name)
      .join(",");
  if (order(before) !== order(after))
    out.add(
      `${subject}.params`,
      `positional parameters (${order(before)}) -> (${order(after)})`,
      "minor",
      [usage.audience],
    );
  for (const param of before) {
    const next = after.find((p) => p.name === param.name);
    if (next) diffNode(out, `${subject}.params.${param.name}`, param.type, next.type, [usage]);
    if (next) diffParamWire(out, `${subject}.params.${param.name}`, param, next, usage);
    else if (param.placement === "query" || param.placement === "header")
      out.add(`${subject}.params.${param.name}`, `${param.placement} parameter removed`, "minor", [
        usage.audience,
      ]);
  }
  for (const param of after.filter((n) => !before.some((o) => o.name === n.name))) {
    if (param.placement !== "query" && param.placement !== "header") continue;
    const what = `${param.required ? "required" : "optional"} ${param.placement} parameter added`;
    out.add(
      `${subject}.params.${param.name}`,
      what,
      "minor",
      param.required ? [usage.audience] : [],
    );
  }
}

/**
 * How a kept parameter travels: required or not, where, in what style, with its slashes or
 * not, with what default.
 */
function diffParamWire(
  out: ChangeList,
  subject: string,
  before: Param,
  after: Param,
  usage: Usage,
): void {
  if (!before.required && after.required)
    out.add(subject, "parameter became required", "minor", [usage.audience]);
  if (before.required && !after.required) out.add(subject, "parameter became optional", "minor");
  if (before.placement !== after.placement)
    out.add(subject, `travels ${before.placement} -> ${after.placement}`, "minor");
  const wire = (p: Param) => p.wireName ?? p.name;
  if (wire(before) !== wire(after))
    out.add(subject, `travels as ${wire(before)} -> ${wire(after)}`, "minor");
  if ((before.style ?? "repeat") !== (after.style ?? "repeat"))
    out.add(subject, `style ${before.style ?? "repeat"} -> ${after.style ?? "repeat"}`, "minor");
  if (Boolean(before.slashes) !== Boolean(after.slashes))
    out.add(
      subject,
      after.slashes ? "its slashes now sent as they are" : "its slashes now sent as %2F",
      "minor",
    );
  const text = (p: Param) =>
    `${JSON.stringify(p.type.docs.default) ?? "none"}${p.sendDefault ? " (sent)" : ""}`;
  if (text(before) !== text(after))
    out.add(subject, `default ${text(before)} -> ${text(after)}`, "patch");
}

/**
 * How an endpoint's bodies travel: the request body's media type, the response's kind and
 * media type, and its declared headers. A caller's code reads them all (a Blob is not a
 * string); a header added is new information only.
 */
function diffBodies(out: ChangeList, subject: string, e: Endpoint, next: Endpoint): void {
  const sent = (x: Endpoint) => x.requestBody?.contentType;
  if (e.body && next.body && sent(e) !== sent(next))
    out.add(`${subject}.body`, `sent as ${sent(e)} -> ${sent(next)}`, "minor", ["callers"]);
  const media = (x: Endpoint) => x.response.contentType ?? "no body";
  // A download of another media type (`image/png` -> `image/*`) is a Blob all the same.
  const blobs = e.response.kind === "binary" && next.response.kind === "binary";
  if (e.response.kind !== next.response.kind || media(e) !== media(next))
    out.add(
      `${subject}.response`,
      `${media(e)} -> ${media(next)}`,
      "minor",
      blobs ? [] : ["callers"],
    );
  // a status answered without a body: a call may now resolve to undefined, which callers handle
  const empty = (x: Endpoint) => x.response.emptyStatus;
  if (empty(e) !== empty(next))
    out.add(
      `${subject}.response`,
      empty(next) === undefined
        ? `no longer answers ${empty(e)} without a body`
        : `answers ${empty(next)} without a body (the call may resolve to undefined)`,
      "minor",
      empty(next) === undefined ? [] : ["callers"],
    );
  const headers = (x: Endpoint) => new Map(x.response.headers.map((h) => [h.name, h.parse]));
  const [old, now] = [headers(e), headers(next)];
  for (const [name, parse] of now) {
    const was = old.get(name);
    if (was === undefined) out.add(`${subject}.response`, `header ${name} declared`, "minor");
    else if (was !== parse)
      out.add(`${subject}.response`, `header ${name}: ${was} -> ${parse}`, "minor", ["callers"]);
  }
  for (const name of old.keys())
    if (!now.has(name))
      out.add(`${subject}.response`, `header ${name} no longer declared`, "minor", ["callers"]);
}

function diffEndpoints(out: ChangeList, before: ApiModel, after: ApiModel): void {
  for (const e of before.endpoints) {
    const next = after.endpoints.find((n) => n.id === e.id);
    const subject = `endpoints.${e.id}`;
    if (!next) {
      out.add(subject, "endpoint removed", "minor", ["callers"]);
      continue;
    }
    if (e.method !== next.method || e.path !== next.path)
      out.add(subject, `${e.method} ${e.path} -> ${next.method} ${next.path}`, "minor", [
        "callers",
      ]);
    const needs = (m: typeof e, a: string) => m.auth.includes(a) && !m.optionalAuth.includes(a);
    for (const id of next.auth.filter((a) => needs(next, a) && !needs(e, a)))
      out.add(subject, `now needs credential ${id}`, "minor", ["callers"]);
    for (const id of next.auth.filter((a) => !needs(next, a) && !e.auth.includes(a)))
      out.add(subject, `sends optional credential ${id}`, "minor");
    for (const id of e.auth.filter((a) => needs(e, a) && next.optionalAuth.includes(a)))
      out.add(subject, `credential ${id} became optional`, "minor");
    for (const id of e.auth.filter((a) => !next.auth.includes(a)))
      out.add(subject, `no longer sends credential ${id}`, "minor");
    if (!e.docs.deprecated && next.docs.deprecated) out.add(subject, "deprecated", "minor");
    if (e.docs.deprecated && !next.docs.deprecated)
      out.add(subject, "no longer deprecated", "patch");
    diffParams(out, subject, e.params, next.params, positionUsage("endpoint-param"));
    if (e.body && next.body && Boolean(e.bodyOptional) !== Boolean(next.bodyOptional)) {
      if (next.bodyOptional) out.add(`${subject}.body`, "may be left out", "minor");
      else out.add(`${subject}.body`, "required (was optional)", "minor", ["callers"]);
    }
    diffOptionalNode(
      out,
      `${subject}.body`,
      e.bodySource ?? e.body,
      next.bodySource ?? next.body,
      positionUsage("endpoint-body"),
    );
    diffOptionalNode(
      out,
      `${subject}.response`,
      e.response.body,
      next.response.body,
      positionUsage("endpoint-response"),
    );
    diffBodies(out, subject, e, next);
    const key = (r: (typeof e.errors)[number]) =>
      `${r.status ?? "any"}${r.code !== undefined ? `/${r.code}` : ""}${r.tag ? `#${r.tag}` : ""}`;
    for (const r of next.errors.filter((n) => !e.errors.some((o) => key(o) === key(n))))
      out.add(subject, `error response ${key(r)} added`, "minor");
    for (const r of e.errors.filter((o) => !next.errors.some((n) => key(o) === key(n))))
      out.add(subject, `error response ${key(r)} removed`, "minor");
  }
  for (const e of after.endpoints.filter((n) => !before.endpoints.some((o) => o.id === n.id)))
    out.add(`endpoints.${e.id}`, "endpoint added", "minor");
}

function diffCallbacks(out: ChangeList, before: ApiModel, after: ApiModel): void {
  for (const c of before.callbacks) {
    const next = after.callbacks.find((n) => n.event === c.event);
    const subject = `callbacks.${c.event}`;
    if (!next) {
      out.add(subject, "callback removed (its handler must go)", "minor", ["implementers"]);
      continue;
    }
    if (c.method !== next.method || c.path !== next.path)
      out.add(
        subject,
        `${c.method} ${c.path} -> ${next.method} ${next.path} (the router follows)`,
        "minor",
      );
    diffParams(out, subject, c.params, next.params, positionUsage("callback-param"));
    diffOptionalNode(out, `${subject}.body`, c.body, next.body, positionUsage("callback-body"));
    diffOptionalNode(
      out,
      `${subject}.success`,
      c.success,
      next.success,
      positionUsage("callback-answer"),
    );
    diffOptionalNode(
      out,
      `${subject}.failure`,
      c.failure,
      next.failure,
      positionUsage("callback-answer"),
    );
  }
  for (const c of after.callbacks.filter(
    (n) => !before.callbacks.some((o) => o.event === n.event),
  )) {
    out.add(`callbacks.${c.event}`, "callback added (a handler is now required)", "minor", [
      "implementers",
    ]);
  }
}

/**
 * Changes of the named types. A use of a generic type (`List<Customer>`) is compared with
 * the same use, whatever name its instantiation has, so a change in the generic type is
 * reported at every use, each for whoever reads or writes that use. A use that comes or goes
 * is no type of the package's own: the operation that uses it reports the change.
 */
function diffTypes(out: ChangeList, before: ApiModel, after: ApiModel): void {
  const usagesBefore = typeUsages(before);
  const usagesAfter = typeUsages(after);
  // a writable view (`PetWritable`) changes with its type, whose changes say it
  const afterByKey = new Map(after.types.filter((t) => !t.view).map((t) => [typeKey(t), t]));
  for (const t of before.types.filter((n) => !n.view)) {
    const key = typeKey(t);
    const next = afterByKey.get(key);
    const usages = [
      ...(usagesBefore.get(t.name) ?? []),
      ...(next ? (usagesAfter.get(next.name) ?? []) : []),
    ].filter((u, i, all) => all.findIndex((v) => usageKey(v) === usageKey(u)) === i);
    if (next) diffNode(out, `types.${key}`, t.source ?? t.type, next.source ?? next.type, usages);
    else if (!t.instance)
      out.add(`types.${key}`, "type removed (it is exported)", "minor", ["callers"]);
  }
  const beforeKeys = new Set(before.types.map(typeKey));
  for (const t of after.types.filter((n) => !n.instance && !n.view && !beforeKeys.has(typeKey(n))))
    out.add(`types.${t.name}`, "type added", "minor");
  diffGenerics(out, before, after, (subject, old, now) => diffNode(out, subject, old, now, []));
}

function diffErrorCodes(out: ChangeList, before: ApiModel, after: ApiModel): void {
  for (const c of before.errors.codes.filter(
    (o) => !after.errors.codes.some((n) => n.code === o.code),
  ))
    out.add(`errors.codes.${c.code}`, `error code ${c.code} (${c.name}) removed`, "minor", [
      "callers",
    ]);
  for (const c of after.errors.codes.filter(
    (n) => !before.errors.codes.some((o) => o.code === n.code),
  ))
    out.add(`errors.codes.${c.code}`, `error code ${c.code} (${c.name}) added`, "minor");
}

/**
 * The API's error body (`errors.body`): typing `error.body` where it was `unknown` adds to
 * what callers can read; a different type, or none, breaks those who read its fields.
 */
function diffErrorBody(out: ChangeList, before: ApiModel, after: ApiModel): void {
  const [old, now] = [before.errors.body, after.errors.body];
  if (old === now) return;
  if (old === undefined) out.add("errors.body", `error body typed as ${now}`, "minor");
  else out.add("errors.body", `error body ${old} -> ${now ?? "untyped"}`, "minor", ["callers"]);
}

/**
 * Where the stream and webhook diffs report: changes go to `out`, the payload types they
 * pair up are compared as types read in `usage`'s position, and answers as a callback's.
 */
function sinkOf(out: ChangeList, usage: ReturnType<typeof positionUsage>) {
  return {
    add: (...change: Parameters<ChangeList["add"]>) => out.add(...change),
    payload: (subject: string, old: TypeNode, next: TypeNode) =>
      diffNode(out, subject, old, next, [usage]),
    answer: (subject: string, old: TypeNode | undefined, next: TypeNode | undefined) =>
      diffOptionalNode(out, subject, old, next, positionUsage("callback-answer")),
  };
}

/** Every change from `before` to `after`, in a stable order. */
export function compareModels(before: ApiModel, after: ApiModel): Change[] {
  const out = new ChangeList();
  diffEndpoints(out, before, after);
  diffCallbacks(out, before, after);
  diffStreams(sinkOf(out, positionUsage("endpoint-response")), before, after);
  diffPagination(sinkOf(out, positionUsage("endpoint-response")), before, after);
  diffExpand(out, before, after);
  diffWebhooks(sinkOf(out, positionUsage("callback-body")), before, after);
  diffSigning(sinkOf(out, positionUsage("callback-body")), before, after);
  diffOAuth(sinkOf(out, positionUsage("endpoint-param")), before, after);
  diffRequests(sinkOf(out, positionUsage("endpoint-param")), before, after);
  diffTypes(out, before, after);
  diffErrorCodes(out, before, after);
  diffErrorBody(out, before, after);
  diffStatuses(out, before, after);
  const gapCount = (m: ApiModel) =>
    m.gaps
      .map((g) => `${g.subject}:${g.text}`)
      .sort()
      .join("\n");
  if (gapCount(before) !== gapCount(after)) out.add("gaps", "undocumented notes changed", "patch");
  return out.items;
}

/** The semver bump a list of changes implies. */
export function semverBump(
  changes: readonly { level: Level }[],
): "major" | "minor" | "patch" | "none" {
  if (changes.some((c) => c.level === "breaking")) return "major";
  if (changes.some((c) => c.level === "minor")) return "minor";
  return changes.length ? "patch" : "none";
}
