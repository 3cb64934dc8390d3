/**
 * Stage 1, load: reads every *.yaml file of the spec folder, parses it keeping
 * positions, and validates it against the JSON Schema. Reports every problem of every
 * file at once. A file is read the fast way when it can be (fast-yaml.ts), else with the
 * `yaml` package's document, which reports what is wrong with it.
 */
import { Buffer } from "node:buffer";
import { statSync } from "node:fs";
import { isScalar, parseDocument, type Document } from "yaml";
import { DiagnosticBag, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { checkSchema } from "./schema-check.ts";
import { LineIndex } from "./line-index.ts";
import { fastParse, tooDeepAt } from "./fast-yaml.ts";
import { DocumentLocator, PositionTreeLocator, SpecFile } from "./spec-file.ts";
import { readSpecFolder, type SpecFolder } from "./spec-folder.ts";
import { specText } from "./spec-text.ts";
import { indentationCodes, yamlProblem } from "./yaml-errors.ts";
import {
  checkAliases,
  checkData,
  dataWithinAliasBudget,
  deepestPoint,
  isStackOverflow,
  maxSpecDepth,
} from "./yaml-guards.ts";

export { displayPath };

/**
 * Keys are one key when they name the same property of the parsed object: `1005` and
 * `"1005"` are different YAML scalars but one JavaScript key, and one would be dropped.
 */
function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (isScalar(a) && isScalar(b) && String(a.value) === String(b.value));
}

/** Parses YAML text, reporting its syntax errors; undefined when it has any. */
function parseYaml(text: string, lines: LineIndex, bag: DiagnosticBag): Document | undefined {
  const at = (offset: number) => lines.at(offset);
  let doc: Document;
  try {
    doc = parseDocument(text, { prettyErrors: false, uniqueKeys: sameKey });
  } catch (error) {
    // Only nesting hundreds of levels deep makes the parser run out of stack.
    if (!isStackOverflow(error)) throw error;
    bag.report("yaml-too-deep", { max: maxSpecDepth }, deepestPoint(text, lines));
    return undefined;
  }
  let indentationSaid = false;
  for (const error of doc.errors) {
    const { detail, offset, explainsIndentation, explainsRest } = yamlProblem(error, text);
    // the parser's errors after a line out of line are that line's consequences
    if (indentationSaid && indentationCodes.has(error.code)) continue;
    indentationSaid ||= explainsIndentation === true;
    if (error.code === "DUPLICATE_KEY") {
      const key = /^["']?([^"':,{}\n]*)/.exec(text.slice(offset))?.[1]?.trim() || "?";
      bag.report("yaml-duplicate-key", { key }, at(offset));
    } else bag.report("yaml-syntax", { detail }, at(offset));
    if (explainsRest) break;
  }
  return doc.errors.length > 0 ? undefined : doc;
}

/** The plain data of a parsed document, or undefined (reported) when its aliases expand too far. */
function plainData(
  doc: Document,
  lines: LineIndex,
  bag: DiagnosticBag,
): { value: unknown } | undefined {
  const data = dataWithinAliasBudget(doc, lines, bag);
  return data && { value: data.value ?? {} };
}

/** A file read the fast way (fast-yaml.ts), or `undefined` when it needs the careful reading. */
function readFast(path: string, text: string, lines: LineIndex): SpecFile | undefined {
  const fast = fastParse(text);
  return fast && new SpecFile(path, text, fast.data, new PositionTreeLocator(fast.root), lines);
}

/**
 * A file read with the `yaml` package's document, which every problem of its YAML is
 * reported from: syntax, duplicate keys, aliases and nesting.
 */
function readCarefully(
  path: string,
  text: string,
  lines: LineIndex,
  bag: DiagnosticBag,
): SpecFile | undefined {
  // nesting past the limit is found before the parser, whose own stack gives out on it only
  // sometimes (fast-yaml.ts, tooDeepAt): the same place whatever ran before
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    bag.report("yaml-too-deep", { max: maxSpecDepth }, lines.at(deep));
    return undefined;
  }
  const doc = parseYaml(text, lines, bag);
  if (!doc || !checkAliases(doc, lines, bag)) return undefined;
  const data = plainData(doc, lines, bag);
  if (!data) return undefined;
  return new SpecFile(path, text, data.value, new DocumentLocator(doc), lines);
}

/**
 * Parses one file's bytes; every problem is added to `bag`. The text is returned for code
 * frames, and the parsed file when it has no problem that stops the checks after it.
 */
export function parseSpecFile(
  path: string,
  bytes: Uint8Array,
  bag: DiagnosticBag,
): { text: string; file?: SpecFile } {
  const { text, ok } = specText(path, bytes, bag);
  if (!ok) return { text };
  const lines = new LineIndex(path, text);
  const file = readFast(path, text, lines) ?? readCarefully(path, text, lines, bag);
  if (!file) return { text };
  return checkSpecData(file, bag) ? { text, file } : { text };
}

/**
 * The checks of a spec file's data, whichever front end made it (a YAML file, or an OpenAPI
 * document read as the spec): a mapping, the data guards, the JSON Schema. Whether the file
 * goes on to the IR (its schema problems are in `bag` and stop the stage).
 */
export function checkSpecData(file: SpecFile, bag: DiagnosticBag): boolean {
  if (typeof file.data !== "object" || file.data === null || Array.isArray(file.data)) {
    bag.report("yaml-not-a-mapping", {}, file.locate([]));
    return false;
  }
  if (!checkData(file, bag)) return false;
  for (const d of checkSchema(file)) bag.add(d);
  return true;
}

/**
 * Files parsed by earlier loads of this process, by path: a long-lived process (watch) reuses
 * a file whose text is unchanged, and the diagnostics it had, instead of parsing it again.
 */
export type ParsedSpecFiles = Map<
  string,
  { bytes: Uint8Array; text: string; file: SpecFile | undefined; diagnostics: Diagnostic[] }
>;

export interface LoadResult {
  files: SpecFile[];
  /** Texts of every file read, including those that failed, for code frames. */
  texts: Map<string, string>;
}

/**
 * Reads and checks the whole spec folder; throws DiagnosticsError listing every problem.
 * With `parsed`, unchanged files are taken from it and it is updated.
 */
export function loadSpec(
  dir: string,
  bag: DiagnosticBag,
  parsed?: ParsedSpecFiles,
  folder?: SpecFolder,
): LoadResult {
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
  const { sources, problems } = folder ?? readSpecFolder(dir);
  for (const problem of problems)
    bag.report(
      "spec-file-unreadable",
      { reason: problem.reason },
      { file: displayPath(problem.path), line: 1, col: 1 },
    );
  if (sources.length === 0 && problems.length === 0)
    bag.report("no-spec-files", { dir: displayPath(dir) });
  const files: SpecFile[] = [];
  for (const source of sources) {
    const path = displayPath(source.path);
    // An unchanged file is taken with its diagnostics, not parsed again.
    const known = parsed?.get(path);
    if (known && Buffer.from(known.bytes).equals(source.bytes)) {
      texts.set(path, known.text);
      for (const d of known.diagnostics) bag.add(d);
      if (known.file) files.push(known.file);
      continue;
    }
    const own = new DiagnosticBag();
    const { text, file } = parseSpecFile(path, source.bytes, own);
    texts.set(path, text);
    for (const d of own.items) bag.add(d);
    parsed?.set(path, { bytes: source.bytes, text, file, diagnostics: own.items });
    if (file) files.push(file);
  }
  if (parsed) for (const path of parsed.keys()) if (!texts.has(path)) parsed.delete(path);
  return { files, texts };
}
