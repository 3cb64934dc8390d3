/**
 * YAML text of plain JSON data, byte for byte what `YAML.stringify(value, { aliasDuplicateObjects:
 * false, lineWidth: 0 })` writes, about ten times faster. The library builds a node per value,
 * walks the tree for anchors and tags, and copies its context per pair; on a 50x spec that was
 * most of the OpenAPI emitter. Here the block layout (the only layout that data without
 * comments, anchors or tags gets) is written directly, and every scalar is still written by
 * the library's own `stringifyString` / `stringifyNumber`, with the context it would have
 * passed, memoised per context. Anything outside that layout (a top-level scalar, a key
 * longer than 1024 characters) is left to `YAML.stringify`. test/yaml-text.test.ts
 * compares both on generated documents and on random ones.
 */
import YAML, { Document, Scalar } from "yaml";
import { stringifyNumber, stringifyString } from "yaml/util";
import type { Json, JsonObject } from "./json.ts";

/**
 * The options the OpenAPI document is written with. A double-quoted string stays on one line
 * (`\n` escapes): the library's multi-line form writes a line of one space as `\\ `, which
 * reads back as a backslash (yaml 2.8.1; test/yaml-text.test.ts), so a text that needs double
 * quotes (a control character, a lone surrogate) and had such a line changed in openapi.yaml.
 */
export const yamlOptions = {
  aliasDuplicateObjects: false,
  lineWidth: 0,
  doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY,
} as const;

/** Raised where the fast path would differ from the library: the caller falls back to it. */
class Unsupported extends Error {}

const indentStep = "  ";

/** Parts of the output gathered before they are joined into a chunk (`Writer.flush`). */
const partsPerChunk = 4096;

/**
 * The options `createStringifyContext` resolves from yamlOptions (yaml 2.x defaults), read by
 * stringifyString: block scalars allowed, plain strings by default, no folding.
 */
const contextOptions = {
  blockQuote: true,
  defaultKeyType: null,
  defaultStringType: "PLAIN",
  doubleQuotedAsJSON: false,
  doubleQuotedMinMultiLineLength: yamlOptions.doubleQuotedMinMultiLineLength,
  lineWidth: yamlOptions.lineWidth,
  minContentWidth: 20,
  singleQuote: null,
  commentString: (s: string) => `#${s}`,
};

/** Context of a scalar: the document (for its schema's tags), the indent, key or value. */
type ScalarContext = Parameters<typeof stringifyString>[1];

/**
 * Scalars as the library writes them, per (key or value, indent), kept from one document to
 * the next: `watch` writes the document again after every edit, with nearly every scalar the
 * same (13 ms of a 75 ms regeneration of the Merchant API went to writing them anew). Dropped
 * whole past `memoLimit` entries, so a long session does not grow it without end.
 */
const memo: Map<string, string>[] = [];
let memoSize = 0;
const memoLimit = 500_000;
/** The document whose schema the scalars are written for (only its tags are read). */
const doc = new Document();

/** Indents one step deeper than each indent, by its length: made once each, not per collection. */
const deeperIndents: string[] = [];
const deeper = (indent: string): string => (deeperIndents[indent.length] ??= indent + indentStep);

/**
 * Whether an object has an own enumerable key: `Object.keys(item).length` made an array of
 * every nested mapping's keys only to count them (20 MB of GitHub's document).
 */
function hasOwnKey(item: JsonObject): boolean {
  for (const key in item) if (Object.hasOwn(item, key)) return true;
  return false;
}

/** Writes one document. */
class Writer {
  /** Joined runs of the output (`flush`). */
  readonly chunks: string[] = [];

  /**
   * Moves the parts written so far into one chunk of text. A single array of every part of
   * GitHub's document (millions of short strings) grew by copying itself into fresh large
   * allocations, about 70 MB of memory touched for 20 MB of text (23k page faults a run);
   * arrays of a few thousand parts stay in the young generation, whose memory is reused.
   */
  flush(out: string[]): void {
    this.chunks.push(out.join(""));
    out.length = 0;
  }

  /** A string as the library writes it at this indent, as a key or as a value. */
  string(value: string, indent: string, implicitKey: boolean): string {
    // by (indent, key or value): an index, as a text key built per call cost more than the lookup
    const slot = indent.length * 2 + (implicitKey ? 1 : 0);
    const cache = (memo[slot] ??= new Map());
    let text = cache.get(value);
    if (text === undefined) {
      if (++memoSize > memoLimit) {
        for (const slotCache of memo) slotCache?.clear();
        memoSize = 1;
      }
      const ctx = {
        actualString: true,
        doc,
        indent,
        indentStep,
        implicitKey,
        inFlow: null,
        options: contextOptions,
      } as unknown as ScalarContext;
      text = stringifyString(new Scalar(value), ctx);
      cache.set(value, text);
    }
    return text;
  }

  /** A scalar value (not a key): null, boolean, number or string. */
  scalar(value: Exclude<Json, object>, indent: string): string {
    if (value === null) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") return stringifyNumber(new Scalar(value));
    return this.string(value, indent, false);
  }

  /**
   * Appends to `out` a collection whose items start at `indent` (the first line without it): a
   * mapping's `key: value` lines, or a list's `- item` lines. Empty ones are `{}` and `[]`.
   * Every newline is followed by the absolute indent of the collection it belongs to, so the
   * parts are written once, in order (returning each level's joined text copied a deep
   * document's text once per level: most of this writer's time and garbage on GitHub's API).
   */
  collection(value: Json[] | JsonObject, indent: string, out: string[]): void {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push("[]");
      const itemIndent = deeper(indent);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push("\n", indent);
        out.push("- ");
        this.value(value[i]!, itemIndent, out);
        if (out.length > partsPerChunk) this.flush(out);
      }
      return;
    }
    const inner = deeper(indent);
    let first = true;
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item === undefined) continue; // the library leaves undefined entries out
      const keyText = this.string(key, inner, true);
      if (keyText.length > 1024) throw new Unsupported();
      if (!first) out.push("\n", indent);
      first = false;
      if (item !== null && typeof item === "object") {
        const empty = Array.isArray(item) ? item.length === 0 : !hasOwnKey(item);
        if (empty) out.push(keyText, Array.isArray(item) ? ": []" : ": {}");
        else {
          out.push(keyText, ":\n", inner);
          this.collection(item, inner, out);
        }
      } else {
        const text = this.scalar(item, inner);
        out.push(keyText, text === "" || text[0] === "\n" ? ":" : ": ", text);
      }
      if (out.length > partsPerChunk) this.flush(out);
    }
    if (first) out.push("{}");
  }

  /** A list item or any value written after its prefix, its inner lines at `indent`. */
  private value(item: Json, indent: string, out: string[]): void {
    if (item !== null && typeof item === "object") this.collection(item, indent, out);
    else out.push(this.scalar(item, indent));
  }
}

/**
 * The YAML text of a document (a mapping or a list at the top), ending in a newline, after
 * `before` (a comment). The comment is joined with the rest rather than prepended: a string
 * prepended to GitHub's 10 MB of YAML made a rope that encoding it copied flat again.
 */
export function yamlText(value: Json, before = ""): string {
  if (value === null || typeof value !== "object")
    return before + YAML.stringify(value, yamlOptions);
  try {
    const out: string[] = [before];
    const writer = new Writer();
    writer.collection(value, "", out);
    out.push("\n");
    writer.flush(out);
    return writer.chunks.join("");
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return before + YAML.stringify(value, yamlOptions);
  }
}
