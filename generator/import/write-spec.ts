/**
 * The imported spec as files a person keeps editing: `api.yaml` (api, environments,
 * credentials), `endpoints/<group>.yaml` per group, `types/<group>.yaml` with the types a
 * group uses first (`types/shared.yaml` for the rest). Each starts with the schema modeline;
 * short mappings are written on one line, as the hand-written specs do.
 */
import { createHash } from "node:crypto";
import { isMap, isPair, isScalar, isSeq, Document } from "yaml";
import type { Json } from "../emit/openapi/json.ts";
import { flowYamlText, type FlowRule } from "../emit/openapi/yaml-text.ts";
import { isObject } from "./context.ts";
import type { JsonObject } from "./document.ts";

/** One file of the spec folder: its path within the folder and its text. */
export interface SpecFile {
  path: string;
  text: string;
}

/** Widest mapping written on one line. */
const flowWidth = 100;

/**
 * The YAML text of one file: the modeline, then its sections. Written by the fast writer
 * (generator/emit/openapi/yaml-text.ts, `flowYamlText`), byte for byte what the `yaml`
 * library's `Document` of the sections writes with the same collections on one line
 * (`libraryText`, which it falls back to where it stands aside); the library's node tree was
 * about half of importing GitHub's document (0.76 s of 1.7 s, `node --cpu-prof`).
 */
export function specFileText(sections: JsonObject, schemaPath: string): string {
  return flowYamlText(
    sections as Json,
    `# yaml-language-server: $schema=${schemaPath}\n\n`,
    onOneLine,
    libraryText,
  );
}

/** What the `yaml` library writes for the sections, the collections `onOneLine` names in flow. */
export function libraryText(sections: Json): string {
  const doc = new Document(sections, { aliasDuplicateObjects: false });
  markFlow(doc.contents, doc, 1);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: true, indentSeq: true });
}

/**
 * Whether a collection goes on one line: short and flat enough, and for a mapping, not a
 * section or a named entry of one (those are what a reader scans), nor a mapping of names; a
 * field's or a response's own mapping may. A list of mappings stays a list of lines.
 */
export const onOneLine: FlowRule = (value, key, depth) =>
  Array.isArray(value)
    ? !value.some(isObject) && isFlat(value) && flatLength(value) <= flowWidth
    : flowable(key, depth) && isFlat(value) && flatLength(value) <= flowWidth;

/** Marks on the library's node tree the collections `onOneLine` puts on one line. */
function markFlow(node: unknown, parent: unknown, depth: number): void {
  if (isMap(node) || isSeq(node)) {
    const key = isPair(parent) && isScalar(parent.key) ? String(parent.key.value) : undefined;
    if (onOneLine(node.toJSON() as Json[] | JsonObject, key, depth)) node.flow = true;
    if (isMap(node)) for (const pair of node.items) markFlow(pair.value, pair, depth + 2);
    else for (const item of node.items) markFlow(item, node, depth + 1);
  }
}

/** Mappings of names (fields, parameters, ...) stay one per line, as people write them. */
const listsOfNames = new Set([
  "fields",
  "params",
  "headers",
  "events",
  "union",
  "environments",
  "credentials",
  "variables",
]);

/**
 * Whether a mapping may go on one line by its place: `depth` counts the document and the
 * pairs and collections above, as the library's `visit` would (5: a section's entry, which a
 * reader scans, stays on lines of its own).
 */
function flowable(key: string | undefined, depth: number): boolean {
  if (depth < 6) return false;
  return key === undefined || !listsOfNames.has(key);
}

/** Whether every value of a collection is a scalar or a flat collection (one level of nesting). */
function isFlat(value: Json | undefined, depth = 0): boolean {
  if (value === null || typeof value !== "object")
    return typeof value !== "string" || !value.includes("\n");
  if (depth > 1) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.every((item) => item === undefined || isFlat(item, depth + 1));
}

/** About the length of a collection written on one line. */
function flatLength(value: Json[] | JsonObject): number {
  return JSON.stringify(value).length + 10;
}

/** Names Windows gives its devices, whatever the extension after them (`nul.yaml` is NUL). */
const deviceNames =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i;

/**
 * Longest file name (without `-2` and `.yaml`) written whole, in UTF-8 bytes: file systems
 * allow 255, Windows paths 260 characters in all, and a group's name has no bound.
 */
const maxFileNameBytes = 64;

/**
 * The file name (without `.yaml`) of each name, in order: one every file system keeps apart
 * and can write. Characters Windows refuses become `_`, as does a trailing dot or space; a
 * device name (`nul`, `CON`, `com1`) takes `_` after it; a name longer than
 * `maxFileNameBytes` is cut, with a hash of the whole name after it so that names alike at
 * the start stay apart; and a name that is another's but for case (`userS` after `users`)
 * takes `-2` (then `-3`, ...), since macOS and Windows file systems ignore case.
 */
export function portableFileNames(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    if (out.has(name)) continue;
    let base =
      name
        .replace(/[<>:"/\\|?*\u0000-\u001f]/g, "_")
        .replace(/[. ]+$/, (m) => "_".repeat(m.length)) || "_";
    if (deviceNames.test(base)) base = `${base}_`;
    base = bounded(base, name);
    let file = base;
    for (let n = 2; taken.has(file.toLowerCase()); n++) file = `${base}-${n}`;
    taken.add(file.toLowerCase());
    out.set(name, file);
  }
  return out;
}

/** `base`, or when longer than `maxFileNameBytes` its start and a hash of `name`, as long. */
function bounded(base: string, name: string): string {
  if (Buffer.byteLength(base, "utf8") <= maxFileNameBytes) return base;
  const hash = createHash("sha256").update(name, "utf8").digest("hex").slice(0, 12);
  const room = maxFileNameBytes - hash.length - 1;
  let start = "";
  let bytes = 0;
  for (const char of base) {
    bytes += Buffer.byteLength(char, "utf8");
    if (bytes > room) break;
    start += char;
  }
  return `${start}-${hash}`;
}
