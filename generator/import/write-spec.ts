/**
 * The imported spec as files a person keeps editing: `api.yaml` (api, environments,
 * credentials), `endpoints/<group>.yaml` per group, `types/<group>.yaml` with the types a
 * group uses first (`types/shared.yaml` for the rest). Each starts with the schema modeline;
 * short mappings are written on one line, as the hand-written specs do.
 */
import { createHash } from "node:crypto";
import { isMap, isPair, isScalar, isSeq, Document, type Node } from "yaml";
import type { JsonObject } from "./document.ts";

/** One file of the spec folder: its path within the folder and its text. */
export interface SpecFile {
  path: string;
  text: string;
}

/** Widest mapping written on one line. */
const flowWidth = 100;

/** The YAML text of one file: the modeline, then its sections. */
export function specFileText(sections: JsonObject, schemaPath: string): string {
  const doc = new Document(sections, { aliasDuplicateObjects: false });
  markFlow(doc.contents, doc, 1);
  const body = doc.toString({ lineWidth: 0, flowCollectionPadding: true, indentSeq: true });
  return `# yaml-language-server: $schema=${schemaPath}\n\n${body}`;
}

/**
 * Puts on one line each collection that is short and flat enough. `depth` counts what the
 * `yaml` package's `visit` would have in its path (the document, then each collection and
 * pair above): the walk is written out because `visit` copies that path at every node, which
 * was a sixth of the import of a large document.
 */
function markFlow(node: unknown, parent: unknown, depth: number): void {
  if (isMap(node)) {
    const key = isPair(parent) ? parent.key : undefined;
    if (flowable(key, depth) && isFlat(node) && flatLength(node) <= flowWidth) node.flow = true;
    for (const pair of node.items) markFlow(pair.value, pair, depth + 2);
  } else if (isSeq(node)) {
    const ofMaps = node.items.some((item) => isMap(item));
    if (!ofMaps && isFlat(node) && flatLength(node) <= flowWidth) node.flow = true;
    for (const item of node.items) markFlow(item, node, depth + 1);
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
 * Whether a mapping may go on one line: not a section or a named entry of one (those are
 * what a reader scans), nor a mapping of names; a field's or a response's own mapping may.
 */
function flowable(key: unknown, depth: number): boolean {
  // depth counts the document and the pairs and collections above: 4 = a section's entry's value.
  if (depth < 6) return false;
  const name = isScalar(key) ? String(key.value) : undefined;
  return name === undefined || !listsOfNames.has(name);
}

/** Whether every value of a collection is a scalar or a flat collection (one level of nesting). */
function isFlat(node: Node, depth = 0): boolean {
  if (isScalar(node)) return typeof node.value !== "string" || !node.value.includes("\n");
  if (depth > 1) return false;
  const items = isMap(node)
    ? node.items.map((p) => p.value as Node)
    : isSeq(node)
      ? (node.items as Node[])
      : [];
  return items.every((item) => item == null || isFlat(item, depth + 1));
}

/** About the length of a collection written on one line. */
function flatLength(node: Node): number {
  return JSON.stringify(node.toJSON()).length + 10;
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
