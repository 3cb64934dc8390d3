/**
 * apigen's own root extensions read back as the spec sections they were written from:
 * `x-versioning`, `x-errors` (codes, statuses, the API-wide responses), `x-idempotency`,
 * `x-limits` and `x-lifecycles`. Each is plain data in the section's own shape, save that
 * lists keyed by `name` (or `code`, `status`) are the spec's maps and `x-undocumented` is
 * `undocumented`. They are read from apigen's own documents alone (`ownDocument`): other tools
 * use the same names (Vonage's documents have an `x-errors` of their own, a catalogue of
 * error ids, which read as apigen's made a spec that generate refused).
 */
import { isObject, note, ownDocument, withoutKey, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue } from "./document.ts";

/** The root extensions apigen writes under names other tools use too. */
const rootExtensions = [
  "x-versioning",
  "x-idempotency",
  "x-limits",
  "x-errors",
  "x-lifecycles",
  "x-credentials",
];

/**
 * The sections the root's extensions give back, by the spec's section name. In a document that
 * is not apigen's, each of them is another tool's: a note on `api` where it is, and no section.
 */
export function extensionSections(ctx: ImportContext, api: JsonObject): JsonObject {
  const root = ctx.doc.root.value as JsonObject;
  const out: JsonObject = {};
  if (!ownDocument(ctx)) {
    for (const key of rootExtensions)
      if (Object.hasOwn(root, key))
        note(
          ctx,
          api,
          { file: ctx.doc.root.path, pointer: `#/${key}` },
          `${key}: another tool's extension, left out (apigen reads its own root extensions from a document it wrote, marked by info.x-apigen-api)`,
        );
    return out;
  }
  const versioning = root["x-versioning"];
  if (isObject(versioning)) out.versioning = keyedBy(plain(versioning), "versions", "name");
  const idempotency = root["x-idempotency"];
  if (isObject(idempotency)) out.idempotency = plain(idempotency);
  const limits = root["x-limits"];
  if (Array.isArray(limits)) out.limits = mapOf(plain(limits) as JsonValue[], "name");
  const errors = root["x-errors"];
  if (isObject(errors)) {
    const section = keyedBy(keyedBy(plain(errors), "codes", "code"), "statuses", "status");
    // A code's default name (code2001005) is the IR's, not the spec's.
    if (isObject(section.codes))
      for (const [code, entry] of Object.entries(section.codes))
        if (isObject(entry) && entry.name === `code${code}`)
          section.codes[code] = withoutKey(entry, "name");
    if (isObject(section.statuses))
      section.statuses = Object.fromEntries(
        Object.entries(section.statuses).map(([status, info]) => [
          status.toLowerCase(),
          isObject(info) && info.retry === false ? withoutKey(info, "retry") : info,
        ]),
      );
    out.errors = section;
  }
  return out;
}

/** The lifecycles (`x-lifecycles`), by name; they go in a file of their own. */
export function lifecyclesSection(ctx: ImportContext): JsonObject | undefined {
  if (!ownDocument(ctx)) return undefined;
  const lifecycles = (ctx.doc.root.value as JsonObject)["x-lifecycles"];
  return Array.isArray(lifecycles) ? mapOf(plain(lifecycles) as JsonValue[], "name") : undefined;
}

/** A value with every `x-undocumented` as `undocumented`. */
export const plainNotes = (list: JsonValue[]): JsonValue[] => plain(list) as JsonValue[];

function plain(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(plain);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key === "x-undocumented" ? "undocumented" : key,
      key === "x-undocumented" && Array.isArray(item) && item.length === 1 ? item[0]! : plain(item),
    ]),
  );
}

/** `section` with its list `key` turned into a map by each item's `by`. */
function keyedBy(section: JsonValue, key: string, by: string): JsonObject {
  const object = section as JsonObject;
  const list = object[key];
  return Array.isArray(list) ? { ...object, [key]: mapOf(list, by) } : object;
}

/** A list of objects as a map by each one's `by` member, which the entry leaves out. */
function mapOf(list: readonly JsonValue[], by: string): JsonObject {
  const out: JsonObject = {};
  for (const item of list)
    if (isObject(item) && item[by] !== undefined) out[String(item[by])] = withoutKey(item, by);
  return out;
}
