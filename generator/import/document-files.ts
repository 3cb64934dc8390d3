/**
 * What an OpenAPI document can reach, and how its files are read. The document names its
 * own file; a `$ref` may name another, but only a regular file inside the document's folder
 * (or the wider folder `--ref-root` names): checked on the path as written and again on the
 * real path, so neither `../` nor a symbolic link inside the folder leads out of it. Files are
 * read as the spec loader reads spec files (load/spec-folder.ts): opened without blocking, so
 * a FIFO or a device is refused and never waited on, and refused past a size. What they hold
 * is parsed with the spec loader's YAML guards (load/yaml-guards.ts): an alias bomb, an alias
 * cycle and nesting past `maxDocumentDepth` are refused at their place, before anything walks
 * the data. Messages name files relative to the document's folder, never by absolute path.
 */
import { lstatSync, realpathSync } from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { isScalar, parseDocument, visit, type Document } from "yaml";
import { DiagnosticBag, DiagnosticsError } from "../diagnostics/diagnostic.ts";
import { fastParse, tooDeepAt } from "../load/fast-yaml.ts";
import { LineIndex } from "../load/line-index.ts";
import { DocumentLocator, PositionTreeLocator, type NodeLocator } from "../load/spec-file.ts";
import { maxSpecFileBytes, readRegularFile, reasonOf } from "../load/spec-folder.ts";
import { maxDocumentFileBytes } from "../load/spec-source.ts";
import {
  checkAliases,
  dataWithinAliasBudget,
  deepestPoint,
  isStackOverflow,
} from "../load/yaml-guards.ts";
import { yamlProblem } from "../load/yaml-errors.ts";
import type { SourceLocation } from "../ir/model.ts";
import { JsonOffsets } from "./json-position.ts";

/** Largest file read for an import, the document or a file its `$ref`s reach. */
export const maxImportFileBytes = maxDocumentFileBytes;

/** Most bytes read for one import, over all its files. */
export const maxImportTotalBytes = 128 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays a document may have. Real documents stay well under
 * 40; the `yaml` parser runs out of stack somewhere past 800, and the importer's walks of a
 * schema recurse, so this bounds them.
 */
export const maxDocumentDepth = 256;

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A refusal, thrown as a diagnostic by the caller at the place of the `$ref`. */
export interface Refusal {
  code: "import-file-unreadable" | "import-ref-outside" | "import-ref-malformed";
  args: Record<string, string>;
}

/** The size caps of one import (the constants above; smaller ones in tests). */
export interface ReadLimits {
  fileBytes: number;
  totalBytes: number;
}

const defaultLimits: ReadLimits = {
  fileBytes: maxImportFileBytes,
  totalBytes: maxImportTotalBytes,
};

/**
 * A local copy that the config's `refMap` names for a URL prefix: its real path, and whether
 * it is one file (for a whole file's URL) or a folder (the rest of the URL a path in it).
 */
export interface MappedCopy {
  prefix: string;
  real: string;
  file: boolean;
}

/** The folders a document's references may reach, and how messages name them. */
export class DocumentReach {
  /** Real path of the document's folder: every file is named relative to it. */
  readonly folder: string;
  /** Real path of the folder `$ref`s may reach: the document's, or `--ref-root`'s. */
  readonly root: string;
  /** How messages name `root` (and the copies `refMap` names, when there are some). */
  readonly rootName: string;
  /** The local copies of remote `$ref`s' targets, longest URL prefix first. */
  private readonly copies: readonly MappedCopy[];
  private bytesRead = 0;
  /** Every file read, by its name (`nameOf`), with its bytes: what the up-to-date check hashes. */
  readonly filesRead: Map<string, Uint8Array> = new Map();

  constructor(
    realDocument: string,
    refRoot: string | undefined,
    private readonly limits: ReadLimits = defaultLimits,
    copies: readonly MappedCopy[] = [],
  ) {
    this.folder = dirname(realDocument);
    this.root = refRoot ?? this.folder;
    this.copies = [...copies].sort((a, b) => b.prefix.length - a.prefix.length);
    this.rootName =
      (refRoot === undefined
        ? "the document's folder"
        : `the folder ${this.nameOf(refRoot)} (--ref-root)`) +
      (copies.length > 0 ? " and the copies refMap names" : "");
  }

  /** Whether a path is inside the root or one of the copies `refMap` names. */
  private inReach(path: string): boolean {
    return within(this.root, path) || this.copies.some((copy) => within(copy.real, path));
  }

  /**
   * The real path of the local copy of a remote `$ref`'s file part (a URL, percent-encoded
   * as written), by the longest `refMap` prefix it starts with; why it may not be read; or
   * undefined when no prefix maps it. The rest of the URL names a file inside the copy's
   * folder, never outside it (`..` included).
   */
  locateRemote(url: string): string | Refusal | undefined {
    const copy = this.copies.find((c) => (c.file ? url === c.prefix : url.startsWith(c.prefix)));
    if (copy === undefined) return undefined;
    if (copy.file) return copy.real;
    const rest = percentDecoded(url.slice(copy.prefix.length).replace(/^\/+/, ""));
    if (rest === undefined)
      return malformed("a % in its URL is not followed by two hexadecimal digits of UTF-8");
    if (rest.includes("\0"))
      return malformed("its URL holds a NUL character, which no file name can");
    const written = resolve(copy.real, rest);
    if (!within(copy.real, written))
      return {
        code: "import-ref-outside",
        args: { root: `the copy refMap names for ${copy.prefix}`, how: "" },
      };
    return this.locatedOnce(written);
  }

  /** A path as messages and notes name it: relative to the document's folder, `/`-separated. */
  nameOf(path: string): string {
    return relative(this.folder, path).split(sep).join("/") || ".";
  }

  /**
   * The real path of the file a `$ref`'s file part names (percent-decoded already), seen from
   * the file at `fromReal`; or why it may not be read.
   */
  locate(filePart: string, fromReal: string): string | Refusal {
    if (filePart.includes("\0"))
      return malformed("its file part holds a NUL character, which no file name can");
    const written = resolve(dirname(fromReal), filePart);
    if (!this.inReach(written))
      return { code: "import-ref-outside", args: { root: this.rootName, how: "" } };
    return this.locatedOnce(written);
  }

  /** The real path of `written` (in reach), worked out once per path. */
  private locatedOnce(written: string): string | Refusal {
    let located = this.located.get(written);
    if (located === undefined) {
      located = this.realPathOf(written);
      this.located.set(written, located);
    }
    return located;
  }

  /**
   * Where each path a `$ref` wrote leads, by that path: files of a multi-file document name
   * the same shared files from many folders (DigitalOcean's 2,907 files), and each real path
   * is an lstat of every folder on the way.
   */
  private readonly located = new Map<string, string | Refusal>();

  /** The real path of `written` (within the root), or why it may not be read. */
  private realPathOf(written: string): string | Refusal {
    const throughLink: Refusal = {
      code: "import-ref-outside",
      args: { root: this.rootName, how: " through a symbolic link" },
    };
    let real: string;
    try {
      real = realpathSync(written);
    } catch (error) {
      // Where a link leads out, say so, not whether a file exists out there.
      return this.inReach(nearestReal(written))
        ? unreadable(this.nameOf(written), missingReason(written, error))
        : throughLink;
    }
    return this.inReach(real) ? real : throughLink;
  }

  /** The text of a file at its real path: a regular file within the caps, else a refusal. */
  read(real: string): string | Refusal {
    const { fileBytes, totalBytes } = this.limits;
    const left = totalBytes - this.bytesRead;
    const bytes = readRegularFile(real, Math.min(fileBytes, left));
    if (!(bytes instanceof Uint8Array)) {
      const total = bytes.kind === "too-large" && left < fileBytes;
      const reason = total
        ? `the files the document reaches would pass ${mebibytes(totalBytes)} together`
        : bytes.kind === "too-large"
          ? `it is larger than ${mebibytes(fileBytes)}`
          : bytes.reason;
      return unreadable(this.nameOf(real), reason);
    }
    this.bytesRead += bytes.length;
    this.filesRead.set(this.nameOf(real), bytes);
    return documentText(bytes);
  }
}

/**
 * A document file's text: UTF-16 where a byte order mark says so (YAML 1.2 reads UTF-16, and
 * Windows PowerShell 5's `>` writes it: `Invoke-RestMethod .../openapi.json > openapi.json`),
 * else UTF-8, its byte order mark dropped.
 */
export function documentText(bytes: Uint8Array): string {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

/** `64 MiB`, or `0.5 KiB` for the small caps of tests. */
const mebibytes = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

const unreadable = (file: string, reason: string): Refusal => ({
  code: "import-file-unreadable",
  args: { file, reason },
});

const malformed = (detail: string): Refusal => ({ code: "import-ref-malformed", args: { detail } });

/**
 * Why a file a `$ref` names has no real path. A name without an extension that is not there
 * is most often no file at all: a schema's name where a pointer belongs (swagger-php leaves
 * a PHP class, `App\Entity\StationQueue`, where `#/components/schemas/StationQueue` goes).
 */
function missingReason(written: string, error: unknown): string {
  if ((error as { code?: unknown }).code !== "ENOENT") return reasonOf(error).reason;
  if (isLink(written)) return "it is a symbolic link to nothing";
  return extname(written) === ""
    ? "no such file; a $ref without # names a file, and a schema of the same document is #/components/schemas/<name>"
    : "it does not exist";
}

/** Whether `path` is a symbolic link itself (one that leads nowhere, where this is asked). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The real path of `path`'s nearest ancestor (or itself) that has one. */
function nearestReal(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      return realpathSync(at);
    } catch {
      if (dirname(at) === at) return at;
    }
  }
}

/** Whether `path` is `folder` or inside it. */
function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A URI component percent-decoded, or undefined when a `%` is not UTF-8 in hex pairs. */
export function percentDecoded(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * A `$ref`'s fragment (what follows `#`) as the JSON pointer it names (`#/a/b~1c`, RFC 6901
 * tokens, no longer percent-encoded), or why it is not one. The fragment is a URI's: it is
 * percent-decoded first (`a%25` is `a%`), then read as a JSON pointer.
 */
export function fragmentPointer(fragment: string): string | Refusal {
  const decoded = percentDecoded(fragment);
  if (decoded === undefined)
    return malformed("a % in it is not followed by two hexadecimal digits of UTF-8");
  if (decoded === "") return "#";
  if (!decoded.startsWith("/"))
    return malformed("what follows # must be a JSON pointer, such as #/components/schemas/Pet");
  if (/~(?![01])/.test(decoded)) return malformed("a ~ in a JSON pointer must be ~0 or ~1");
  return `#${decoded}`;
}

/** A file's data, and whether its text is JSON (which its positions are found in). */
export interface ParsedText {
  value: JsonValue;
  json: boolean;
}

/**
 * Parses JSON (a text starting with `{` or `[`) or YAML; each problem is a located diagnostic
 * (`shown`: the file as locations show it; `name`: as messages name it).
 * YAML is held to the spec loader's 16 MiB: the `yaml` package's document of a text takes
 * some 90 times its size in memory, which JSON.parse does not.
 */
export function parseText(shown: string, name: string, text: string): ParsedText {
  // made only when a problem is located: indexing the lines of 13 MB is not free
  let index: LineIndex | undefined;
  const lines = {
    file: shown,
    at: (offset: number) => (index ??= new LineIndex(shown, text)).at(offset),
  } as LineIndex;
  const trimmed = text.trimStart();
  let parsed: ParsedText | undefined;
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      parsed = { value: JSON.parse(text) as JsonValue, json: true };
    } catch (error) {
      // YAML reads JSON too, and reports the position of the problem; past its cap, JSON says.
      // A comment (JSONC's, as editors let one write) YAML would read as part of a key,
      // losing the field it precedes: JSON says where it is.
      if (text.length > maxSpecFileBytes || commentAt(text, error))
        throw jsonSyntax(error, text, lines);
    }
  }
  if (!parsed && text.length > maxSpecFileBytes) {
    const bag = new DiagnosticBag();
    const reason = `a YAML document larger than ${maxSpecFileBytes / 1024 / 1024} MiB (write it as JSON, or split it into files its $refs name)`;
    bag.report("import-file-unreadable", { file: name, reason }, lines.at(0));
    throw new DiagnosticsError(bag.items);
  }
  // the spec loader's fast reading first (js-yaml's events: several times faster than the
  // `yaml` package's document), which takes only what it reads exactly as that would; anything
  // else (anchors, tags, duplicate keys, a syntax error) is read the careful way
  parsed ??= { value: (fastParse(text)?.data as JsonValue) ?? parseYaml(text, lines), json: false };
  const deep = firstTooDeep(parsed.value, maxDocumentDepth);
  if (deep) {
    const pointer = deep.reduce<string>((p, key) => childPointer(p, key), "#");
    const at = positionOf(text, pointer, parsed.json);
    throw tooDeep(
      at ? { file: shown, ...at } : deepestPoint(text, lines, maxDocumentDepth),
      pointer,
    );
  }
  return parsed;
}

/** Where JSON.parse's syntax error is, or undefined when its message does not say. */
function errorPosition(error: unknown): number | undefined {
  const position = /at position (\d+)/.exec((error as Error).message)?.[1];
  return position === undefined ? undefined : Number(position);
}

/** Whether JSON.parse stopped at a comment (`//` or `/*`), which JSON does not have. */
function commentAt(text: string, error: unknown): boolean {
  const at = errorPosition(error);
  return at !== undefined && (text.startsWith("//", at) || text.startsWith("/*", at));
}

/** JSON.parse's syntax error as a diagnostic, at the position it names. */
function jsonSyntax(error: unknown, text: string, lines: LineIndex): DiagnosticsError {
  const detail = commentAt(text, error)
    ? "a comment, which JSON does not have (take it out, or write the document as YAML, whose comments begin with #)"
    : (error as Error).message.replace(/ in JSON at position \d+.*$/s, "").slice(0, 200);
  const bag = new DiagnosticBag();
  bag.report("import-syntax", { detail }, lines.at(errorPosition(error) ?? 0));
  return new DiagnosticsError(bag.items);
}

function tooDeep(location: SourceLocation, pointer?: string): DiagnosticsError {
  const bag = new DiagnosticBag();
  const at = pointer === undefined ? "" : ` (at ${pointer})`;
  bag.report("import-too-deep", { max: maxDocumentDepth }, location);
  const [d] = bag.items;
  return new DiagnosticsError([{ ...d!, message: `${d!.message}${at}` }]);
}

/** YAML text as data, refusing syntax errors, nesting the parser cannot take, and alias bombs. */
function parseYaml(text: string, lines: LineIndex): JsonValue {
  // nesting past the limit is found before the parser, whose own stack gives out on it only
  // sometimes (load/fast-yaml.ts, tooDeepAt): the same place whatever ran before
  const deep = tooDeepAt(text, maxDocumentDepth);
  if (deep !== undefined) throw tooDeep(lines.at(deep));
  let doc;
  try {
    // Keys are checked below: the parser's own check compares each key with every key before
    // it in its mapping, which took seconds for a mapping of 5,000 schemas. Merge keys
    // (`<<: *base`, YAML 1.1) are applied, as js-yaml (Redocly's and swagger-parser's reader)
    // applies them: Cardano's wallet API merges anchored schemas into others 397 times.
    doc = parseDocument(text, { uniqueKeys: false, merge: true });
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    throw tooDeep(deepestPoint(text, lines, maxDocumentDepth));
  }
  const problem = doc.errors[0];
  const bag = new DiagnosticBag();
  if (problem) {
    const { detail, offset } = yamlProblem(problem, text, /^\s*[{[]/.test(text));
    bag.report("import-syntax", { detail }, lines.at(offset));
    throw new DiagnosticsError(bag.items);
  }
  if (!checkKeys(doc, lines, bag) || !checkAliases(doc, lines, bag))
    throw new DiagnosticsError(bag.items);
  let data;
  try {
    data = dataWithinAliasBudget(doc, lines, bag, true);
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeep(deepestPoint(text, lines, maxDocumentDepth));
    throw error;
  }
  if (!data) throw new DiagnosticsError(bag.items);
  return data.value as JsonValue;
}

/**
 * Reports the first key of each mapping that repeats one before it, as one JavaScript key
 * (`1` and `"1"` are one: the data would keep only the last); returns whether there were none.
 */
function checkKeys(doc: Document, lines: LineIndex, bag: DiagnosticBag): boolean {
  let ok = true;
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        const name = String(key.value);
        if (!seen.has(name)) seen.add(name);
        else {
          bag.report(
            "yaml-duplicate-key",
            { key: name.slice(0, 100) },
            lines.at(key.range?.[0] ?? 0),
          );
          ok = false;
          return;
        }
      }
    },
  });
  return ok;
}

/**
 * The keys down to the first object or array (in document order) nested more than `max`
 * levels deep, or undefined. Walked without recursion, so any depth is safe to look at.
 */
export function firstTooDeep(root: JsonValue, max: number): (string | number)[] | undefined {
  if (root === null || typeof root !== "object") return undefined;
  const keysOf = (value: JsonValue[] | JsonObject) =>
    Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  const frames = [{ value: root, keys: keysOf(root) as (string | number)[], next: 0 }];
  const path: (string | number)[] = [];
  while (frames.length > 0) {
    const frame = frames.at(-1)!;
    if (frame.next === frame.keys.length) {
      frames.pop();
      path.pop();
      continue;
    }
    const key = frame.keys[frame.next++]!;
    const item = (frame.value as Record<string | number, JsonValue>)[key]!;
    if (item === null || typeof item !== "object") continue;
    path.push(key);
    if (frames.length >= max) return path;
    frames.push({ value: item, keys: keysOf(item), next: 0 });
  }
  return undefined;
}

/** A pointer one level deeper. */
export function childPointer(pointer: string, key: string | number): string {
  const token = String(key).replace(/~/g, "~0").replace(/\//g, "~1");
  return `${pointer === "#" ? "#" : pointer}/${token}`;
}

/** The tokens of a JSON pointer (`#/a/b~1c`), unescaped. */
export function pointerTokens(pointer: string): string[] {
  const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (body === "") return [];
  return body
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * Line and column of the value at a pointer; the nearest ancestor's when it is not there.
 * In JSON by scanning the text (json-position.ts); in YAML from the fast reading's position
 * tree (load/fast-yaml.ts), or the `yaml` package's document where that declines, made again
 * for this (only when a problem is reported). Undefined when the text is nested too
 * deep for the parser.
 */
export function positionOf(
  text: string,
  pointer: string,
  json: boolean,
): { line: number; col: number } | undefined {
  return new TextPositions(text, json).of(pointer);
}

/**
 * Line and column of many pointers into one file (`positionOf`, with what it builds kept):
 * the line index, the JSON scan (json-position.ts, `JsonOffsets`), or for YAML the spec
 * loader's locator (`yamlLocator`), each made once, at the first lookup.
 */
export class TextPositions {
  private lines: LineIndex | undefined;
  private jsonOffsets: JsonOffsets | undefined;
  private yaml: NodeLocator | null | undefined;

  constructor(
    private readonly text: string,
    private readonly json: boolean,
  ) {}

  /** Line and column of the value at `pointer` (its nearest ancestor's when absent). */
  of(pointer: string): { line: number; col: number } | undefined {
    const tokens = pointerTokens(pointer);
    const offset = this.json
      ? (this.jsonOffsets ??= new JsonOffsets(this.text)).offset(tokens)
      : this.yamlOffset(tokens);
    if (offset === undefined) return undefined;
    const { line, col } = (this.lines ??= new LineIndex("", this.text)).at(offset);
    return { line, col };
  }

  private yamlOffset(tokens: readonly string[]): number | undefined {
    if (this.yaml === undefined) this.yaml = yamlLocator(this.text);
    if (!this.yaml) return undefined;
    // a sequence's index is a number in a locator's path; a mapping's keys are looked up as text
    const path = tokens.map((token) => (/^(?:0|[1-9]\d*)$/.test(token) ? Number(token) : token));
    return this.yaml.offset(path, "value", 0);
  }
}

/**
 * The spec loader's locators over a YAML text: the fast reading's position tree where it reads
 * the text (as parseText did), else the `yaml` package's document; null when the text is
 * nested too deep for that parser.
 */
function yamlLocator(text: string): NodeLocator | null {
  const fast = fastParse(text);
  if (fast) return new PositionTreeLocator(fast.root);
  try {
    return new DocumentLocator(
      parseDocument(text, { keepSourceTokens: false, uniqueKeys: false, merge: true }),
    );
  } catch (error) {
    if (isStackOverflow(error)) return null;
    throw error;
  }
}
