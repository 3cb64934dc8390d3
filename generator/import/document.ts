/**
 * Reading an OpenAPI document for import: the file and every local file its `$ref`s reach,
 * in JSON or YAML, with `$ref` resolution by JSON pointer. Problems are diagnostics that name
 * the file, the line and column where it can be known, and the JSON pointer.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { diagnostic, DiagnosticsError, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { DiagnosticCode } from "../diagnostics/catalogue.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One file of the document: its path, text and parsed value. */
export interface SourceFile {
  path: string;
  text: string;
  value: JsonValue;
}

/** Where a value sits: its file and JSON pointer (`#/components/schemas/Pet`). */
export interface Pointer {
  file: string;
  pointer: string;
}

/** The document and the files its references reach, loaded on demand. */
export class OpenApiDocument {
  readonly files = new Map<string, SourceFile>();
  readonly root: SourceFile;

  constructor(path: string) {
    this.root = this.load(resolve(path), undefined);
  }

  /** Reads and parses one file once; JSON by its first character, else YAML. */
  private load(path: string, from: Pointer | undefined): SourceFile {
    const known = this.files.get(path);
    if (known) return known;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw importError("import-file-unreadable", { file: path, reason }, from && this.at(from));
    }
    const file: SourceFile = { path, text, value: parseText(path, text) };
    this.files.set(path, file);
    return file;
  }

  /**
   * The value a `$ref` names, seen from `from`, and where it is. A reference to another
   * file loads it; a broken one is an error at the `$ref`.
   */
  resolveRef(ref: string, from: Pointer): { value: JsonValue; at: Pointer } {
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? "#" : ref.slice(hash);
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart))
      throw importError("import-ref-remote", { ref }, this.at(from), from.pointer);
    const file = filePart ? this.load(resolve(dirname(from.file), filePart), from) : undefined;
    const target = file ?? this.files.get(from.file)!;
    const value = valueAt(target.value, pointer);
    if (value === undefined)
      throw importError("import-ref-broken", { ref }, this.at(from), from.pointer);
    return { value, at: { file: target.path, pointer } };
  }

  /** The line and column of a pointer, worked out only when a problem is reported there. */
  at(where: Pointer): { file: string; line: number; col: number } {
    const file = this.files.get(where.file);
    if (!file) return { file: where.file, line: 1, col: 1 };
    return { file: where.file, ...positionOf(file.text, where.pointer) };
  }
}

/** Parses JSON (a text starting with `{`) or YAML; a syntax error names its line. */
function parseText(path: string, text: string): JsonValue {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      // Fall through: YAML reads JSON too, and reports the position of the problem.
    }
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const problem = doc.errors[0];
  if (problem) {
    const { line, col } = lineCounter.linePos(problem.pos[0]);
    throw importError(
      "import-syntax",
      { detail: problem.message.split("\n")[0]! },
      { file: path, line, col },
    );
  }
  return doc.toJS({ maxAliasCount: 10_000 }) as JsonValue;
}

/** The value at a JSON pointer (`#/a/b~1c`), or undefined. */
export function valueAt(root: JsonValue, pointer: string): JsonValue | undefined {
  let value: JsonValue | undefined = root;
  for (const token of pointerTokens(pointer)) {
    if (value === null || typeof value !== "object") return undefined;
    value = Array.isArray(value) ? value[Number(token)] : (value as JsonObject)[token];
  }
  return value;
}

/** The tokens of a JSON pointer in a URI fragment, unescaped. */
export function pointerTokens(pointer: string): string[] {
  const body = pointer.replace(/^#/, "");
  if (body === "" || body === "/") return body === "/" ? [""] : [];
  return body
    .slice(1)
    .split("/")
    .map((t) => decodeURIComponent(t).replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** A pointer one level deeper. */
export function child(pointer: string, key: string | number): string {
  const token = String(key).replace(/~/g, "~0").replace(/\//g, "~1");
  return `${pointer === "#" ? "#" : pointer}/${token}`;
}

/** Line and column of the value at a pointer; the nearest ancestor's when it is not there. */
function positionOf(text: string, pointer: string): { line: number; col: number } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, keepSourceTokens: false });
  let node: Node | null | undefined = doc.contents as Node | null;
  let found = node;
  for (const token of pointerTokens(pointer)) {
    if (isMap(node)) {
      const pair: { key: unknown; value: unknown } | undefined = node.items.find(
        (p) => isScalar(p.key) && String(p.key.value) === token,
      );
      node = (pair?.value as Node | null | undefined) ?? (pair?.key as Node | undefined);
    } else if (isSeq(node)) node = node.items[Number(token)] as Node | undefined;
    else node = undefined;
    if (!node) break;
    found = node;
  }
  const offset = found?.range?.[0] ?? 0;
  return lineCounter.linePos(offset);
}

/** A problem with the input: a diagnostic thrown at once (nothing is written). */
export function importError(
  code: DiagnosticCode,
  args: Record<string, string | number>,
  location?: { file: string; line: number; col: number },
  pointer?: string,
): DiagnosticsError {
  const d: Diagnostic = diagnostic(code, { ...args, pointer: pointer ?? "" }, location);
  return new DiagnosticsError([
    pointer && !d.message.includes(pointer) ? { ...d, message: `${d.message} (at ${pointer})` } : d,
  ]);
}
