/**
 * What updating a handlers file in place changes, as text edits at the positions read-file.ts
 * found: a stub (the scaffold's own text) and an entry for each event of the spec that has no
 * handler, a comment on each handler of an event the spec no longer has (never a deletion:
 * the key is a compile error by itself, or a line that is one is added), an import whose
 * module moved, and the names the new stubs need imported. Every other byte stays as it was.
 */
import type { ScaffoldHandler, ScaffoldParts } from "../emit/handlers-scaffold.ts";
import { printPropertyKey } from "../emit/code/print-text.ts";
import {
  readHandlersFile,
  UpdateRefused,
  type HandlersFile,
  type HandlersImport,
  type HandlersObject,
} from "./read-file.ts";

/** Replace `[start, end)` of the text with `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** One thing the update does (or, with --check, would do). */
export type HandlersChange =
  | { kind: "added"; event: string; stub: string; webhook: boolean }
  | { kind: "marked"; event: string; webhook: boolean }
  | { kind: "still-removed"; event: string; webhook: boolean }
  | { kind: "import"; from: string; to: string }
  | { kind: "webhooks-object"; name: string };

export interface HandlersUpdate {
  changes: HandlersChange[];
  edits: TextEdit[];
}

/** The line width prettier holds the scaffold to: a grown one-line import past it is reflowed. */
const printWidth = 100;

/** A line comment naming `event`; a line break in it (U+2028 too) must not end the comment. */
function removedMarker(event: string): string {
  const name = JSON.stringify(event).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16)}`,
  );
  return `// apigen: event ${name} is no longer in the spec: delete this handler`;
}

/** The text of the line before the one starting at `lineStart`, trimmed. */
function previousLine(text: string, lineStart: number): string {
  if (lineStart === 0) return "";
  const end = text[lineStart - 2] === "\r" ? lineStart - 2 : lineStart - 1;
  return text.slice(text.lastIndexOf("\n", end - 1) + 1, end).trim();
}

/** A string literal in the quotes `original` used. */
function quoted(value: string, original: string): string {
  const double = JSON.stringify(value);
  if (!original.startsWith("'")) return double;
  return `'${double.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** `name`, else `nameHandler`, `nameHandler2`, ...: the first not declared in the file yet. */
function freeName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let i = 1; taken.has(candidate); i++) candidate = `${name}Handler${i > 1 ? i : ""}`;
  taken.add(candidate);
  return candidate;
}

const entryText = (event: string, name: string) =>
  printPropertyKey(event) === name ? name : `${printPropertyKey(event)}: ${name}`;

/**
 * Where text goes after `pos` on its own new lines: the end of the line when the rest of it is
 * blank or a line comment (which stays with its line), else `pos` itself.
 */
function afterLine(text: string, pos: number): number {
  let lineEnd = text.indexOf("\n", pos);
  if (lineEnd === -1) lineEnd = text.length;
  if (text[lineEnd - 1] === "\r") lineEnd--;
  return /^\s*(\/\/.*)?$/.test(text.slice(pos, lineEnd)) ? lineEnd : pos;
}

/**
 * `items` added after the last of a comma-separated list (object entries, import names) in its
 * style: on lines of their own at `indent` when the list's closing brace is on a later line,
 * else on the same line; with a final comma when the list had one (its last item gains the
 * comma it now needs otherwise).
 */
function appendToList(
  list: { end: number; hasComma: boolean; closeBrace: number; indent: string },
  items: readonly string[],
  text: string,
  nl: string,
): TextEdit[] {
  const { end, hasComma } = list;
  const comma = hasComma ? [] : [{ start: end, end, text: "," }];
  if (!text.slice(end, list.closeBrace).includes("\n"))
    return [...comma, { start: end, end, text: ` ${items.join(", ")}${hasComma ? "," : ""}` }];
  const at = afterLine(text, end);
  const lines = items.map(
    (item, i) => `${nl}${list.indent}${item}${hasComma || i < items.length - 1 ? "," : ""}`,
  );
  return [...comma, { start: at, end: at, text: lines.join("") }];
}

/** New entries at the end of `object`, in the style of its last one. */
function addEntries(
  object: HandlersObject,
  entries: string[],
  text: string,
  nl: string,
): TextEdit[] {
  const { openBrace, closeBrace, indent } = object;
  if (object.entries.length === 0) {
    const lines = entries.map((e) => `${nl}${indent}${e},`).join("");
    return object.blank
      ? [{ start: openBrace + 1, end: closeBrace, text: `${lines}${nl}${object.statementIndent}` }]
      : [{ start: openBrace + 1, end: openBrace + 1, text: lines }];
  }
  const list = { end: object.lastEntryEnd, hasComma: object.lastEntryHasComma, closeBrace, indent };
  return appendToList(list, entries, text, nl);
}

/** `names` added to the import's list, in its style; a one-line import grown too long is reflowed. */
function addImportNames(
  declaration: HandlersImport,
  names: string[],
  text: string,
  nl: string,
): TextEdit[] {
  const spelled = names.map((n) => (declaration.typeOnly ? n : `type ${n}`));
  const list = {
    end: declaration.namesEnd,
    hasComma: declaration.trailingComma,
    closeBrace: declaration.closeBrace,
    indent: declaration.indent,
  };
  const edits = appendToList(list, spelled, text, nl);
  const statement = text.slice(declaration.start, declaration.end);
  if (statement.includes("\n") || declaration.hasComments) return edits;
  const lineStart = text.lastIndexOf("\n", declaration.start) + 1;
  let lineEnd = text.indexOf("\n", declaration.end);
  if (lineEnd === -1) lineEnd = text.length;
  const grown = text.slice(lineStart, lineEnd).replace(/\r$/, "").length;
  if (grown + edits.reduce((n, e) => n + e.text.length, 0) <= printWidth) return edits;
  // as prettier prints an import that does not fit on its line: one name a line
  const open = statement.indexOf("{");
  const close = statement.lastIndexOf("}");
  const existing = statement
    .slice(open + 1, close)
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const lines = [...existing, ...spelled].map((n) => `${nl}  ${n},`).join("");
  const start = declaration.start + open + 1;
  return [{ start, end: declaration.start + close, text: `${lines}${nl}` }];
}

interface Side {
  object: HandlersObject | undefined;
  handlers: ScaffoldHandler[];
  webhook: boolean;
  /** The type of the object, which the stubs name (`CallbackHandlers`). */
  handlerType: string;
  /** What the deliberate compile error of a type with no events is called. */
  noEventsName: string;
  noEventsWhat: string;
}

/** Stubs, entries and markers of one handlers object. */
function planSide(
  side: Side,
  file: HandlersFile,
  taken: Set<string>,
  changes: HandlersChange[],
): { edits: TextEdit[]; types: string[] } {
  const { object, handlers, webhook } = side;
  if (!object) return { edits: [], types: [] };
  const { text, newline: nl } = file;
  const edits: TextEdit[] = [];
  const present = new Set(object.entries.map((e) => e.event));
  const wanted = new Set(handlers.map((h) => h.event));
  const missing = handlers.filter((h) => !present.has(h.event));
  const types: string[] = [];
  if (missing.length) {
    const named = missing.map((h) => ({ handler: h, name: freeName(h.stubName, taken) }));
    const stubs = named.map(({ handler, name }) => `${handler.stub(name)}${"\n"}`).join("");
    edits.push({
      start: object.statementInsertAt,
      end: object.statementInsertAt,
      text: stubs.replace(/\n/g, nl),
    });
    edits.push(
      ...addEntries(
        object,
        named.map((n) => entryText(n.handler.event, n.name)),
        text,
        nl,
      ),
    );
    for (const { handler, name } of named) {
      changes.push({ kind: "added", event: handler.event, stub: name, webhook });
      types.push(side.handlerType, ...handler.types);
    }
  }
  const removed = object.entries.filter((e) => !wanted.has(e.event));
  for (const entry of removed) {
    const marker = removedMarker(entry.event);
    if (previousLine(text, entry.lineStart) === marker) {
      changes.push({ kind: "still-removed", event: entry.event, webhook });
      continue;
    }
    changes.push({ kind: "marked", event: entry.event, webhook });
    edits.push({
      start: entry.lineStart,
      end: entry.lineStart,
      text: `${object.indent}${marker}${nl}`,
    });
    const declaration = entry.valueName ? file.declarations.get(entry.valueName) : undefined;
    if (declaration && previousLine(text, declaration.insertAt) !== marker)
      edits.push({
        start: declaration.insertAt,
        end: declaration.insertAt,
        text: `${declaration.indent}${marker}${nl}`,
      });
  }
  // With no event left in its type the object's keys are no compile error (excess keys of
  // `{}` are allowed): a line that is one, until the handlers are deleted.
  if (removed.length && wanted.size === 0 && !file.topLevelNames.has(side.noEventsName)) {
    const events = removed.map((e) => JSON.stringify(e.event)).join(", ");
    edits.push({
      start: object.statementLineEnd,
      end: object.statementLineEnd,
      text: [
        "",
        "",
        `// apigen: the spec has no ${side.noEventsWhat} any more: delete the handlers of ${events.replace(/[\u2028\u2029]/g, " ")}, then these two lines.`,
        `export const ${side.noEventsName}: never = "handlers of events no longer in the spec";`,
      ].join(nl),
    });
  }
  return { edits, types };
}

export interface PlanOptions {
  /** Where the handler types are imported from now, when the import is to follow (else kept). */
  importFrom?: string;
}

/**
 * The module the file's import should name: `--handlers-import`, else `<package>/callbacks`
 * when the file imports `<another package>/callbacks` (the package was renamed); a relative
 * or other path is the user's choice and kept.
 */
export function expectedImport(
  current: string,
  parts: ScaffoldParts,
  handlersImport: string | undefined,
): string | undefined {
  if (handlersImport !== undefined) return handlersImport;
  const packageCallbacks = /^(@[^/]+\/)?[^./@][^/]*\/callbacks$/;
  return packageCallbacks.test(current) && current !== parts.importFrom
    ? parts.importFrom
    : undefined;
}

/** Every change and the text edits that make them. */
export function planUpdate(
  file: HandlersFile,
  parts: ScaffoldParts,
  handlersImport: string | undefined,
): HandlersUpdate {
  const changes: HandlersChange[] = [];
  const taken = new Set(file.topLevelNames);
  const edits: TextEdit[] = [];
  const types: string[] = [];
  for (const side of [
    {
      object: file.callbacks,
      handlers: parts.callbacks,
      webhook: false,
      handlerType: parts.handlersType,
      noEventsName: "apigenRemovedCallbackHandlers",
      noEventsWhat: "callbacks",
    },
    {
      object: file.webhooks,
      handlers: parts.webhooks,
      webhook: true,
      handlerType: parts.webhookHandlersType,
      noEventsName: "apigenRemovedWebhookHandlers",
      noEventsWhat: "webhook events",
    },
  ]) {
    const planned = planSide(side, file, taken, changes);
    edits.push(...planned.edits);
    types.push(...planned.types);
  }
  if (!file.webhooks && parts.webhooks.length && parts.webhookObject) {
    // the spec gained webhook events: their stubs and object at the end, as the scaffold has them
    const names = new Map(parts.webhooks.map((h) => [h.event, freeName(h.stubName, taken)]));
    const objectName = freeName("webhookHandlers", taken);
    const printed = [
      ...parts.webhooks.map((h) => h.stub(names.get(h.event)!)),
      parts.webhookObject((event) => names.get(event)!),
    ]
      .join("\n")
      .replace(/^export const webhookHandlers:/m, `export const ${objectName}:`);
    const end = file.text.length;
    const gap = file.text.endsWith("\n") ? "\n" : "\n\n";
    edits.push({ start: end, end, text: `${gap}${printed}`.replace(/\n/g, file.newline) });
    for (const h of parts.webhooks)
      changes.push({ kind: "added", event: h.event, stub: names.get(h.event)!, webhook: true });
    changes.push({ kind: "webhooks-object", name: objectName });
    types.push(parts.webhookHandlersType);
  }
  const primary = file.imports.find((i) => i.names.has(parts.handlersType))!;
  // the stubs name the package's types as the scaffold does: each must be imported as itself
  const asItself = (t: string) => file.imports.some((i) => i.names.get(t) === t);
  const needed = [...new Set(types)].filter((t) => !asItself(t));
  const clash = needed.find((t) => file.topLevelNames.has(t));
  if (clash !== undefined)
    throw new UpdateRefused(
      `it declares ${clash} itself, and the new stubs need the package's ${clash}: rename yours`,
    );
  if (needed.length) edits.push(...addImportNames(primary, needed, file.text, file.newline));
  for (const declaration of file.imports) {
    const to = expectedImport(declaration.specifier, parts, handlersImport);
    if (to === undefined || to === declaration.specifier) continue;
    const original = file.text.slice(declaration.specifierStart, declaration.specifierEnd);
    edits.push({
      start: declaration.specifierStart,
      end: declaration.specifierEnd,
      text: quoted(to, original),
    });
    changes.push({ kind: "import", from: declaration.specifier, to });
  }
  return { changes, edits };
}

/**
 * Reads the handlers file `text` (at `path`) and plans its update. A byte order mark is left
 * out of what is parsed (the parser drops it, so its positions would be one off) and stays
 * in front of the file.
 */
export function planFileUpdate(
  path: string,
  text: string,
  parts: ScaffoldParts,
  handlersImport: string | undefined,
): HandlersUpdate {
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const planned = planUpdate(readHandlersFile(path, text.slice(bom), parts), parts, handlersImport);
  const edits = planned.edits.map((e) => ({ ...e, start: e.start + bom, end: e.end + bom }));
  return { changes: planned.changes, edits };
}

/** The text with every edit made; edits at the same place keep their order. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || a.order - b.order);
  let out = "";
  let at = 0;
  for (const { edit } of sorted) {
    if (edit.start < at) throw new Error("overlapping edits of the handlers file");
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}
