/**
 * YAML text of plain JSON data, byte for byte what `YAML.stringify(value, { aliasDuplicateObjects:
 * false, lineWidth: 0 })` writes (`yamlText`, the OpenAPI document), or what a `Document` of
 * it with some collections marked `flow` writes (`flowYamlText`, the spec folder that
 * `apigen import` writes: generator/import/write-spec.ts), about ten times faster. The
 * library builds a node per value, walks the tree for anchors and tags, and copies its
 * context per pair; on a 50x spec that was most of the OpenAPI emitter, and half of
 * importing GitHub's document. Here the block layout (the only layout that data without
 * comments, anchors or tags gets) is written directly, and every scalar is still written by
 * the library's own `stringifyString` / `stringifyNumber`, with the context it would have
 * passed, memoised per context; a collection the layout puts on one line is written as the
 * library's flow collection (`{ a: 1, b: [ x ] }`). Anything outside that layout (a top-level
 * scalar, a key longer than 1024 characters, a list holding `undefined`) is left to the
 * library. test/yaml-text.test.ts compares both on generated documents and on random ones.
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
 * The options `createStringifyContext` resolves from the writer's options (yaml 2.x defaults),
 * read by stringifyString: block scalars allowed, plain strings by default, no folding; the
 * OpenAPI document keeps double-quoted strings on one line, the spec folder the library's
 * default (multi-line from 40 characters).
 */
const contextOptionsFor = (doubleQuotedMinMultiLineLength: number) => ({
  blockQuote: true,
  defaultKeyType: null,
  defaultStringType: "PLAIN",
  doubleQuotedAsJSON: false,
  doubleQuotedMinMultiLineLength,
  lineWidth: 0,
  minContentWidth: 20,
  singleQuote: null,
  commentString: (s: string) => `#${s}`,
});

/** Context of a scalar: the document (for its schema's tags), the indent, key or value. */
type ScalarContext = Parameters<typeof stringifyString>[1];

/**
 * Scalars as the library writes them, per (key or value, in a flow collection or not, indent),
 * kept from one document to the next: `watch` writes the document again after every edit,
 * with nearly every scalar the same (13 ms of a 75 ms regeneration of the Merchant API went to
 * writing them anew). Dropped whole past `memoLimit` entries, so a long session does not grow
 * it without end. One per set of scalar options.
 */
class ScalarMemo {
  readonly slots: Map<string, string>[] = [];
  size = 0;
  constructor(readonly options: ReturnType<typeof contextOptionsFor>) {}
}
const memoLimit = 500_000;
const openApiScalars = new ScalarMemo(
  contextOptionsFor(yamlOptions.doubleQuotedMinMultiLineLength),
);
const specScalars = new ScalarMemo(contextOptionsFor(40));
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

/**
 * Which collections go on one line: given the collection, the key it is the value of (none for
 * a list item or the document itself) and its depth as the library's `visit` counts it (the
 * document 1; a mapping's values 2 deeper, a list's items 1 deeper). Inside a collection on
 * one line everything is on that line.
 */
export type FlowRule = (
  value: Json[] | JsonObject,
  key: string | undefined,
  depth: number,
) => boolean;

const never: FlowRule = () => false;

/** Writes one document. */
class Writer {
  /** Joined runs of the output (`flush`). */
  readonly chunks: string[] = [];

  constructor(
    private readonly scalars: ScalarMemo,
    private readonly flow: FlowRule,
  ) {}

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

  /** A string as the library writes it at this indent, as a key or as a value, in flow or not. */
  string(value: string, indent: string, implicitKey: boolean, inFlow = false): string {
    // by (indent, key or value, flow): an index, as a text key built per call cost more than the lookup
    const slot = indent.length * 4 + (implicitKey ? 1 : 0) + (inFlow ? 2 : 0);
    const memo = this.scalars;
    const cache = (memo.slots[slot] ??= new Map());
    let text = cache.get(value);
    if (text === undefined) {
      if (++memo.size > memoLimit) {
        for (const slotCache of memo.slots) slotCache?.clear();
        memo.size = 1;
      }
      const ctx = {
        actualString: true,
        doc,
        indent,
        indentStep,
        implicitKey,
        inFlow: inFlow ? true : null,
        options: memo.options,
      } as unknown as ScalarContext;
      text = stringifyString(new Scalar(value), ctx);
      cache.set(value, text);
    }
    return text;
  }

  /** A scalar value (not a key): null, boolean, number or string. */
  scalar(value: Exclude<Json, object>, indent: string, inFlow = false): string {
    if (value === null) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") return stringifyNumber(new Scalar(value));
    if (typeof value !== "string") throw new Unsupported(); // undefined in a list, not JSON
    return this.string(value, indent, false, inFlow);
  }

  /**
   * Appends to `out` a collection whose items start at `indent` (the first line without it): a
   * mapping's `key: value` lines, or a list's `- item` lines. Empty ones are `{}` and `[]`.
   * Every newline is followed by the absolute indent of the collection it belongs to, so the
   * parts are written once, in order (returning each level's joined text copied a deep
   * document's text once per level: most of this writer's time and garbage on GitHub's API).
   * `key` and `depth` are what the flow rule is asked with.
   */
  collection(
    value: Json[] | JsonObject,
    indent: string,
    out: string[],
    key: string | undefined,
    depth: number,
  ): void {
    if (this.flow(value, key, depth)) out.push(this.flowCollection(value, indent));
    else this.blockCollection(value, indent, out, depth);
  }

  /** A collection on lines of its own (`collection`, the flow rule asked already). */
  private blockCollection(
    value: Json[] | JsonObject,
    indent: string,
    out: string[],
    depth: number,
  ): void {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push("[]");
      const itemIndent = deeper(indent);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push("\n", indent);
        out.push("- ");
        this.value(value[i]!, itemIndent, out, depth + 1);
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
        else if (this.flow(item, key, depth + 2))
          out.push(keyText, ": ", this.flowCollection(item, inner));
        else {
          out.push(keyText, ":\n", inner);
          this.blockCollection(item, inner, out, depth + 2);
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
  private value(item: Json, indent: string, out: string[], depth: number): void {
    if (item !== null && typeof item === "object")
      this.collection(item, indent, out, undefined, depth);
    else out.push(this.scalar(item, indent));
  }

  /**
   * A collection on one line, as the library's stringifyFlowCollection writes it with
   * `flowCollectionPadding`: `{ a: 1, b: [ x ] }`, `[]` and `{}` when empty. `indent` is the
   * library's `ctx.indent` of the collection; its items are a step deeper than its
   * `itemIndent` (a mapping's own indent, a list's one step deeper), a mapping's keys and
   * values a step deeper again. A text that would break the line leaves the layout to the
   * library.
   */
  private flowCollection(value: Json[] | JsonObject, indent: string): string {
    const itemIndent = deeper(Array.isArray(value) ? deeper(indent) : indent);
    const items: string[] = [];
    if (Array.isArray(value)) {
      for (const item of value) items.push(this.flowValue(item, itemIndent));
    } else {
      const inner = deeper(itemIndent);
      for (const key of Object.keys(value)) {
        const item = value[key];
        if (item === undefined) continue;
        items.push(`${this.string(key, inner, true, true)}: ${this.flowValue(item, inner)}`);
      }
    }
    const [start, end] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (items.length === 0) return start + end;
    const text = `${start} ${items.join(", ")} ${end}`;
    if (text.includes("\n")) throw new Unsupported();
    return text;
  }

  /** A value inside a collection on one line, at the library's indent for it. */
  private flowValue(item: Json, indent: string): string {
    if (item !== null && typeof item === "object") return this.flowCollection(item, indent);
    return this.scalar(item, indent, true);
  }
}

/** Writes `value` after `before`, or returns undefined where the library must write it. */
function written(
  value: Json,
  before: string,
  scalars: ScalarMemo,
  flow: FlowRule,
): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  try {
    const out: string[] = [before];
    const writer = new Writer(scalars, flow);
    writer.collection(value, "", out, undefined, 1);
    out.push("\n");
    writer.flush(out);
    return writer.chunks.join("");
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    return undefined;
  }
}

/**
 * The YAML text of a document (a mapping or a list at the top), ending in a newline, after
 * `before` (a comment). The comment is joined with the rest rather than prepended: a string
 * prepended to GitHub's 10 MB of YAML made a rope that encoding it copied flat again.
 */
export function yamlText(value: Json, before = ""): string {
  return (
    written(value, before, openApiScalars, never) ?? before + YAML.stringify(value, yamlOptions)
  );
}

/**
 * The YAML text `library` writes for `value` (a `Document` of it with `{ lineWidth: 0 }` and
 * the library's other defaults, the collections `flow` names marked `flow`), after `before`.
 * `library` is called where the fast path stands aside.
 */
export function flowYamlText(
  value: Json,
  before: string,
  flow: FlowRule,
  library: (value: Json) => string,
): string {
  return written(value, before, specScalars, flow) ?? before + library(value);
}
