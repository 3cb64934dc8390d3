/**
 * Limits on what a spec file's YAML may build, each reported at its place instead of ending
 * in a stack overflow, an endless walk or a huge expansion later on:
 *
 * - nesting deeper than `maxSpecDepth` levels (no real spec comes near it; the parser itself
 *   overflows its stack somewhere past 800 levels, and every later stage walks the data);
 * - aliases with no anchor before them, or inside the node they refer to (an infinite value);
 * - aliases that add more nodes to the data than `aliasBudget` allows (an "alias bomb":
 *   refused, never built), counted without expanding them;
 * - control characters written as escapes in quoted strings (`"\x01"`), which the text check
 *   cannot see, and escapes of half a surrogate pair (`"\uD800"`), which are no character.
 */
import {
  isAlias,
  isCollection,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Document,
  type Node,
} from "yaml";
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { SourceLocation } from "../ir/model.ts";
import type { LineIndex } from "./line-index.ts";
import { codePointName, controlCharacter, loneSurrogate } from "./spec-text.ts";
import type { DataPath, SpecFile } from "./spec-file.ts";

/** Deepest nesting of mappings and lists a spec file may have. */
export const maxSpecDepth = 64;

/**
 * The most nodes aliases may add to a file's data: a million, or ten times the file's own
 * nodes when that is more. Fern writes one anchored `security` list and an alias of it on
 * every operation (Langfuse's document: about 150, which the parser's own count of 100 aliases
 * of one anchor refused); Cardano's wallet API, written by hand, merges anchored schemas into
 * others 1,040 times (`<<: *x`), adding 185,000 nodes to its own 12,000; an alias bomb adds
 * billions. A million nodes is what a JSON document of some 10 MB holds, which every later
 * stage takes in its stride.
 */
export function aliasBudget(ownNodes: number): number {
  return Math.max(1_000_000, 10 * ownNodes);
}

/**
 * The file's own nodes and the nodes its aliases add to its data, counted in document order
 * without expanding anything: each anchored node's size, aliases included, is kept by its
 * anchor's name when the node ends, and an alias (which checkAliases has made sure follows its
 * anchor, outside it) adds that size. Recursion goes as deep as the file nests.
 */
export function aliasExpansion(doc: Document): { own: number; added: number } {
  const anchored = new Map<string, number>();
  let own = 0;
  const size = (node: unknown): number => {
    if (node === null || node === undefined) return 0;
    if (isAlias(node)) return anchored.get(node.source) ?? 1;
    own++;
    let total = 1;
    if (isCollection(node))
      for (const item of node.items)
        total += isPair(item) ? size(item.key) + size(item.value) : size(item);
    const anchor = (node as Node).anchor;
    if (anchor) anchored.set(anchor, total);
    return total;
  };
  const total = size(doc.contents);
  return { own, added: total - own };
}

/**
 * The plain data of a document whose aliases were checked (checkAliases), or undefined with
 * the `yaml-alias-bomb` diagnostic at its first alias when they add more than `aliasBudget`.
 */
export function dataWithinAliasBudget(
  doc: Document,
  lines: LineIndex,
  bag: DiagnosticBag,
  /** Whether the document was parsed with merge keys (`merge: true`: OpenAPI documents). */
  merge = false,
): { value: unknown } | undefined {
  const { own, added } = aliasExpansion(doc);
  if (added > aliasBudget(own)) {
    bag.report("yaml-alias-bomb", { max: aliasBudget(own), own }, firstAlias(doc, lines));
    return undefined;
  }
  if (merge) resolveMergeSources(doc);
  // counted above: the parser's own limit (100 aliases of one anchor) would refuse Fern's files
  return { value: doc.toJS({ maxAliasCount: -1 }) };
}

/**
 * Points each merge key's aliases (`<<: *base`, `<<: [*a, *b]`) at the nodes they name, found
 * in one walk of the document. The library resolves a merge's alias by walking the whole
 * document again, each time: a thousand merges in a file of 70,000 nodes took 2.6 s, and the
 * time grew with their product (a document could hold it for minutes within the alias budget).
 * A plain alias keeps the library's own resolution, which walks once per document.
 */
function resolveMergeSources(doc: Document): void {
  const anchors = new Map<string, Node>();
  const source = (item: unknown): unknown =>
    isAlias(item) ? (anchors.get(item.source) ?? item) : item;
  visit(doc, {
    Pair(_key, pair) {
      // the parser gives a merge key as the symbol `<<` (a plain `<<` where it reads them)
      const key = pair.key;
      const merges =
        isScalar(key) &&
        (typeof key.value === "symbol" ? key.value.description === "<<" : key.value === "<<") &&
        (!key.type || key.type === "PLAIN");
      if (!merges) return;
      if (isAlias(pair.value)) pair.value = source(pair.value) as Node;
      else if (isSeq(pair.value)) pair.value.items = pair.value.items.map(source);
    },
    Node(_key, node) {
      // met in document order, each node before what it holds: an alias names the last
      // anchor before it
      if (node.anchor) anchors.set(node.anchor, node);
    },
  });
}

/**
 * Whether `error` is the engine running out of stack: a RangeError, or (when it happens while
 * a regular expression runs, as in the `yaml` package's scalar folding) a SyntaxError saying so.
 */
export function isStackOverflow(error: unknown): boolean {
  return (
    error instanceof RangeError ||
    (error instanceof Error && /Maximum call stack size exceeded/.test(error.message))
  );
}

/**
 * Where a file's nesting first goes past `maxDepth`, found in the text after the parser
 * ran out of stack on it: the first flow bracket that opens one level too many, or else the
 * start of the most indented line (block nesting).
 */
export function deepestPoint(
  text: string,
  lines: LineIndex,
  maxDepth = maxSpecDepth,
): SourceLocation {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") {
      if (++depth > maxDepth) return lines.at(i);
    } else if (c === "]" || c === "}") depth = Math.max(0, depth - 1);
  }
  let deepest = 0;
  let at = 0;
  for (const match of text.matchAll(/^( *)\S/gm)) {
    if (match[1]!.length > deepest)
      [deepest, at] = [match[1]!.length, match.index + match[1]!.length];
  }
  return lines.at(at);
}

/**
 * Reports every alias that names no anchor before it, and every alias inside the node its
 * anchor is on; returns whether there were none. Run before `toJS`, which would throw on the
 * first and build a circular value from the second. One pass, noting anchors as they come:
 * `alias.resolve(doc)` walks the whole document for each alias, which made a document of
 * many aliases take time in the square of its size.
 */
export function checkAliases(doc: Document, lines: LineIndex, bag: DiagnosticBag): boolean {
  let ok = true;
  const at = (node: Node): SourceLocation => lines.at(node.range?.[0] ?? 0);
  const anchors = new Set<string>();
  visit(doc, {
    Node(_key, node) {
      if (node.anchor) anchors.add(node.anchor);
    },
    Alias(_key, alias, path) {
      if (!anchors.has(alias.source)) {
        bag.report("yaml-alias-unresolved", { name: alias.source }, at(alias));
        ok = false;
      } else if (
        path.some((step) => isCollection(step) && (step as Node).anchor === alias.source)
      ) {
        bag.report("yaml-alias-cycle", { name: alias.source }, at(alias));
        ok = false;
      }
    },
  });
  return ok;
}

/** The location of the first alias in the file, where an alias bomb is reported. */
export function firstAlias(doc: Document, lines: LineIndex): SourceLocation {
  let offset = 0;
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    }
    return undefined;
  });
  return lines.at(offset);
}

/**
 * The first character of a string or key that a spec may not hold, as its report: a control
 * character, or half of a surrogate pair.
 */
function badCharacter(
  text: string,
): { code: "yaml-control-character" | "yaml-lone-surrogate"; char: string } | undefined {
  const control = controlCharacter.exec(text);
  if (control) return { code: "yaml-control-character", char: codePointName(control[0]) };
  const half = loneSurrogate.exec(text);
  if (half) return { code: "yaml-lone-surrogate", char: codePointName(half[0]) };
  return undefined;
}

/** A value still to check: its key under its parent, its path made only for a report. */
interface PendingValue {
  value: unknown;
  key: string | number;
  parent: PendingValue | undefined;
  depth: number;
}

/** The data path of a pending value, walked up through its parents. */
function pathOf(pending: PendingValue): DataPath {
  const path: (string | number)[] = [];
  for (let at: PendingValue | undefined = pending; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Walks the file's plain data without recursion: nesting past `maxSpecDepth` is reported
 * once, where it happens; strings and keys with a control character or half a surrogate pair
 * are reported each. Returns whether the data is within the limits. A value's path is made
 * only for a report (a copy of the path at every node was 75 MB of GitHub's live route), and
 * a string is kept for later only when it holds a bad character (its report, in the order of
 * the walk, is all there is left to do with it).
 */
export function checkData(spec: SpecFile, bag: DiagnosticBag): boolean {
  let ok = true;
  const stack: PendingValue[] = [{ value: spec.data, key: "", parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const pending = stack.pop()!;
    const value = pending.value;
    if (typeof value === "string") {
      const bad = badCharacter(value);
      if (bad) {
        bag.report(bad.code, { char: bad.char }, spec.locate(pathOf(pending)));
        ok = false;
      }
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (pending.depth > maxSpecDepth) {
      bag.report("yaml-too-deep", { max: maxSpecDepth }, spec.locate(pathOf(pending)));
      return false;
    }
    const depth = pending.depth + 1;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) push(stack, value[i], i, pending, depth);
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const bad = badCharacter(key);
      if (bad) {
        bag.report(bad.code, { char: bad.char }, spec.locate([...pathOf(pending), key], "key"));
        ok = false;
      }
      push(stack, record[key], key, pending, depth);
    }
  }
  return ok;
}

/** Keeps a child to check: an object or array, or a string with a bad character to report. */
function push(
  stack: PendingValue[],
  value: unknown,
  key: string | number,
  parent: PendingValue,
  depth: number,
): void {
  if (typeof value === "string" ? badCharacter(value) === undefined : typeof value !== "object") {
    return;
  }
  if (value === null) return;
  stack.push({ value, key, parent, depth });
}
