/**
 * Stage 1, load: reads every *.yaml file of the spec folder, parses it keeping
 * positions, and validates it against the JSON Schema. Reports every problem of every
 * file at once.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { DiagnosticBag, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { checkSchema } from "./schema-check.ts";
import { SpecFile } from "./spec-file.ts";

/** Spec files below `dir`, in stable path order. */
export function listSpecFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(entry.name)) found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

export { displayPath };

/** Parses one file's text; YAML problems are added to `bag`. */
export function parseSpecFile(path: string, text: string, bag: DiagnosticBag): SpecFile | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { file: path, line, col };
  };
  for (const error of doc.errors) {
    // The parser may point at the indentation before the token it means.
    const offset = error.pos[0] + (/^[ \t]*/.exec(text.slice(error.pos[0]))?.[0].length ?? 0);
    if (error.code === "DUPLICATE_KEY") {
      const key = /^["']?([^"':,{}\n]*)/.exec(text.slice(offset))?.[1]?.trim() || "?";
      bag.report("yaml-duplicate-key", { key }, at(offset));
    } else {
      bag.report("yaml-syntax", { detail: error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "") }, at(offset));
    }
  }
  if (doc.errors.length > 0) return undefined;
  const data: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const file = new SpecFile(path, text, data, doc, lines);
  if (typeof data !== "object" || Array.isArray(data)) {
    bag.report("yaml-not-a-mapping", {}, file.locate([]));
    return undefined;
  }
  for (const d of checkSchema(file)) bag.add(d);
  return file;
}

/**
 * Files parsed by earlier loads of this process, by path: a long-lived process (watch) reuses
 * a file whose text is unchanged, and the diagnostics it had, instead of parsing it again.
 */
export type ParsedSpecFiles = Map<string, { text: string; file: SpecFile | undefined; diagnostics: Diagnostic[] }>;

export interface LoadResult {
  files: SpecFile[];
  /** Texts of every file read, including those that failed, for code frames. */
  texts: Map<string, string>;
}

/**
 * Reads and checks the whole spec folder; throws DiagnosticsError listing every problem.
 * With `parsed`, unchanged files are taken from it and it is updated.
 */
export function loadSpec(dir: string, bag: DiagnosticBag, parsed?: ParsedSpecFiles): LoadResult {
  const texts = new Map<string, string>();
  let exists = false;
  try {
    exists = statSync(dir).isDirectory();
  } catch {
    exists = false;
  }
  if (!exists) {
    bag.report("spec-dir-missing", { dir: displayPath(dir) });
    bag.throwIfErrors();
  }
  const paths = listSpecFiles(dir);
  if (paths.length === 0) bag.report("no-spec-files", { dir: displayPath(dir) });
  const files: SpecFile[] = [];
  for (const full of paths) {
    const path = displayPath(full);
    const text = readFileSync(full, "utf8");
    texts.set(path, text);
    const known = parsed?.get(path);
    if (known?.text === text) {
      for (const d of known.diagnostics) bag.add(d);
      if (known.file) files.push(known.file);
      continue;
    }
    const own = new DiagnosticBag();
    const file = parseSpecFile(path, text, own);
    for (const d of own.items) bag.add(d);
    parsed?.set(path, { text, file, diagnostics: own.items });
    if (file) files.push(file);
  }
  if (parsed) for (const path of parsed.keys()) if (!texts.has(path)) parsed.delete(path);
  return { files, texts };
}
