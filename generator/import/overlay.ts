/**
 * Overlays (OpenAPI Overlay Specification 1.0): a file of `actions`, each a JSONPath `target`
 * (RFC 9535, by the jsonpath-rfc9535 package) with an `update` merged into every node it
 * selects or `remove: true`, applied in order to a parsed document before it is imported, so
 * a team adds what OpenAPI cannot say (x-apigen-pagination, names) without editing the
 * document its server writes. Pure: a document value and overlay texts in, a new document
 * value and warnings out. A bad overlay is an error located in the overlay file (the action's
 * index, its line); a target that selects nothing is a warning, as the format has such an
 * action do nothing. `extends` (the document the overlay was written for) is informational:
 * the overlay applies to the document it is given.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { exec } from "jsonpath-rfc9535";
import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { reasonOf } from "../load/spec-folder.ts";
import { isObject } from "./context.ts";
import {
  maxImportFileBytes,
  parseText,
  positionOf,
  type JsonObject,
  type JsonValue,
} from "./document-files.ts";
import { importError } from "./document.ts";

/** An overlay file as read: where it is shown, its text and parsed value. */
export interface OverlaySource {
  shown: string;
  text: string;
  value: JsonValue;
  json: boolean;
}

/** Reads and parses an overlay file (JSON or YAML), within the importer's size limit. */
export function readOverlay(
  path: string,
  texts?: Map<string, string>,
): OverlaySource & { bytes: Uint8Array } {
  const shown = displayPath(resolve(path));
  let bytes: Buffer;
  try {
    if (statSync(path).size > maxImportFileBytes)
      throw new Error(`larger than ${maxImportFileBytes / 1024 / 1024} MiB`);
    bytes = readFileSync(path);
  } catch (error) {
    throw importError("import-file-unreadable", { file: shown, reason: reasonOf(error).reason });
  }
  const text = bytes.toString("utf8");
  texts?.set(shown, text);
  return { shown, bytes, text, ...parseText(shown, shown, text) };
}

/** `document` with each overlay's actions applied in order (the input is left as it was). */
export function applyOverlays(
  document: JsonValue,
  overlays: readonly OverlaySource[],
): { document: JsonValue; warnings: Diagnostic[] } {
  let result = structuredClone(document);
  const warnings: Diagnostic[] = [];
  for (const overlay of overlays) result = applyOverlay(result, overlay, warnings);
  return { document: result, warnings };
}

function applyOverlay(document: JsonValue, overlay: OverlaySource, warnings: Diagnostic[]) {
  const fail = (pointer: string, detail: string) =>
    importError(
      "import-overlay-invalid",
      { file: overlay.shown, detail },
      locate(overlay, pointer),
      pointer,
    );
  const root = overlay.value;
  if (!isObject(root) || typeof root.overlay !== "string" || !/^1\.0\.\d+$/.test(root.overlay))
    throw fail(
      isObject(root) && root.overlay !== undefined ? "#/overlay" : "#",
      "not an overlay of version 1.0: it needs `overlay: 1.0.0`",
    );
  if (!isObject(root.info) || typeof root.info.title !== "string")
    throw fail("#/info", "an overlay needs `info` with its `title` and `version`");
  if (!Array.isArray(root.actions) || root.actions.length === 0)
    throw fail("#/actions", "an overlay needs a list of at least one action in `actions`");
  root.actions.forEach((action, index) => {
    const at = `#/actions/${index}`;
    if (!isObject(action)) throw fail(at, `action ${index} is not a mapping`);
    if (typeof action.target !== "string")
      throw fail(at, `action ${index} has no \`target\` (a JSONPath expression)`);
    const remove = action.remove === true;
    if (action.remove !== undefined && typeof action.remove !== "boolean")
      throw fail(`${at}/remove`, `action ${index}: \`remove\` is true or false`);
    if (!remove && action.update === undefined)
      throw fail(at, `action ${index} has neither \`update\` nor \`remove: true\``);
    let selected: (string | number)[][];
    try {
      selected = select(document, action.target);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw fail(
        `${at}/target`,
        `action ${index}: target ${action.target} is not a JSONPath expression (RFC 9535): ${reason}`,
      );
    }
    if (selected.length === 0) {
      warnings.push(
        diagnostic(
          "import-overlay-unmatched",
          { index, target: action.target },
          {
            file: overlay.shown,
            ...(positionOf(overlay.text, `${at}/target`, overlay.json) ?? { line: 1, col: 1 }),
          },
        ),
      );
      return;
    }
    if (remove) {
      if (selected.some((path) => path.length === 0))
        throw fail(`${at}/target`, `action ${index} would remove the whole document`);
      removeAll(document, selected);
      return;
    }
    for (const path of selected) {
      const node = nodeAt(document, path);
      if (Array.isArray(node)) node.push(structuredClone(action.update as JsonValue));
      else if (isObject(node) && isObject(action.update)) merge(node, action.update);
      else
        throw fail(
          `${at}/update`,
          isObject(node)
            ? `action ${index}: the update of an object (${pathText(path)}) is a mapping merged into it`
            : `action ${index}: target selects ${pathText(path)}, which is no object or array to update`,
        );
    }
  });
  return document;
}

/** The location of a pointer in the overlay file. */
function locate(overlay: OverlaySource, pointer: string) {
  return {
    file: overlay.shown,
    ...(positionOf(overlay.text, pointer, overlay.json) ?? { line: 1, col: 1 }),
  };
}

/** The paths (keys from the root) of the nodes a JSONPath expression selects. */
function select(document: JsonValue, target: string): (string | number)[][] {
  const found: (string | number)[][] = [];
  exec(document, target, (_value, path) => found.push([...path]));
  return found;
}

function nodeAt(document: JsonValue, path: readonly (string | number)[]): JsonValue | undefined {
  let node: JsonValue | undefined = document;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, JsonValue>)[key];
  }
  return node;
}

/**
 * Removes each selected node from its parent: the deepest first (a node inside another
 * selected one goes before it), array items from the last index back so the others keep theirs.
 */
function removeAll(document: JsonValue, paths: (string | number)[][]): void {
  const ordered = [...paths].sort((a, b) => {
    if (a.length !== b.length) return b.length - a.length;
    const [x, y] = [a[a.length - 1], b[b.length - 1]];
    return typeof x === "number" && typeof y === "number" ? y - x : 0;
  });
  for (const path of ordered) {
    const parent = nodeAt(document, path.slice(0, -1));
    const key = path[path.length - 1]!;
    if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
    else if (isObject(parent)) delete parent[String(key)];
  }
}

/** Merges `update` into `target`: mappings recursively, anything else replaced. */
function merge(target: JsonObject, update: JsonObject): void {
  for (const [key, value] of Object.entries(update)) {
    const current = Object.hasOwn(target, key) ? target[key] : undefined;
    if (isObject(current) && isObject(value)) merge(current, value);
    else target[key] = structuredClone(value);
  }
}

/** A path as a normalized JSONPath (`$['paths']['/a']`), for messages. */
function pathText(path: readonly (string | number)[]): string {
  return `$${path.map((key) => (typeof key === "number" ? `[${key}]` : `['${key.replace(/'/g, "\\'")}']`)).join("")}`;
}
