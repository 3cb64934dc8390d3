/**
 * The imported spec as files a person keeps editing: `api.yaml` (api, environments,
 * credentials), `endpoints/<group>.yaml` per group, `types/<group>.yaml` with the types a
 * group uses first (`types/shared.yaml` for the rest). Each starts with the schema modeline;
 * short mappings are written on one line, as the hand-written specs do.
 */
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
