/**
 * One parsed spec file: its text, its plain data, and the way back from a data path to a
 * line and column, through the `yaml` package's document (a file read the careful way) or the
 * position tree of a file read the fast way (fast-yaml.ts). Both give the same positions.
 */
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from "yaml";
import type { LineIndex } from "./line-index.ts";
import type { PositionNode } from "./fast-yaml.ts";
import type { SourceLocation } from "../ir/model.ts";

export type DataPath = readonly (string | number)[];

/** The character offset that `SpecFile.locate` turns into a line and column. */
export interface NodeLocator {
  offset(path: DataPath, at: "key" | "value", offsetInScalar: number): number;
}

export class SpecFile {
  constructor(
    /** Path as printed in diagnostics: relative to the working directory, `/`-separated. */
    readonly path: string,
    readonly text: string,
    readonly data: unknown,
    private readonly locator: NodeLocator,
    private readonly lines: LineIndex,
  ) {}

  /**
   * Location of the value at `path` (or of its key, which reads better for mappings); a path
   * that goes further than the data stops at the deepest node it reaches. `offsetInScalar`
   * points into a scalar's text (past its opening quote).
   */
  locate(path: DataPath, at: "key" | "value" = "value", offsetInScalar = 0): SourceLocation {
    return this.at(this.locator.offset(path, at, offsetInScalar));
  }

  /** Location of a character offset in the text. */
  at(offset: number): SourceLocation {
    return this.lines.at(offset);
  }
}

/** Offsets from the position tree of a file read the fast way. */
export class PositionTreeLocator implements NodeLocator {
  constructor(private readonly root: PositionNode) {}

  offset(path: DataPath, at: "key" | "value", offsetInScalar: number): number {
    let node = this.root;
    let keyStart: number | undefined;
    for (const segment of path) {
      const entry = node.entries?.get(String(segment));
      if (entry) {
        keyStart = entry.keyStart;
        node = entry.value;
      } else if (node.items && typeof segment === "number" && node.items[segment] !== undefined) {
        keyStart = undefined;
        node = node.items[segment];
      } else break;
    }
    if (at === "key" && keyStart !== undefined) return keyStart;
    const isScalar = node.entries === undefined && node.items === undefined;
    if (offsetInScalar && isScalar) return node.start + offsetInScalar + (node.quoted ? 1 : 0);
    return node.start;
  }
}

/** Offsets from the `yaml` package's document of a file read the careful way. */
export class DocumentLocator implements NodeLocator {
  /**
   * Each mapping's pairs by key text, built the first time a path goes through it: the IR
   * locates every node it builds, and a linear search of a mapping with n keys per lookup
   * made a file with n types cost n^2.
   */
  private readonly keyIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

  constructor(private readonly doc: Document) {}

  offset(path: DataPath, at: "key" | "value", offsetInScalar: number): number {
    const found = this.find(path);
    let offset = this.offsetOf(found.node) ?? 0;
    if (at === "key" && found.pair && isScalar(found.pair.key) && found.pair.key.range) {
      offset = found.pair.key.range[0];
    } else if (offsetInScalar && found.node && isScalar(found.node)) {
      const quoted = found.node.type === "QUOTE_DOUBLE" || found.node.type === "QUOTE_SINGLE";
      offset += offsetInScalar + (quoted ? 1 : 0);
    }
    return offset;
  }

  /** The deepest node that `path` reaches, and the pair holding it. */
  private find(path: DataPath): { node: Node | null; pair?: Pair } {
    let node: unknown = this.doc.contents;
    let pair: Pair | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const next = this.pairsOf(node).get(String(segment));
        if (!next) break;
        pair = next;
        node = next.value;
      } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
        pair = undefined;
        node = node.items[segment];
      } else {
        break;
      }
    }
    return {
      node: (node as Node | null) ?? (pair?.key as Node | null) ?? null,
      ...(pair ? { pair } : {}),
    };
  }

  /** The pairs of a mapping by key text; the first of equal keys wins, as a search in order would find it. */
  private pairsOf(map: YAMLMap): Map<string, Pair> {
    let index = this.keyIndex.get(map);
    if (!index) {
      index = new Map();
      for (const item of map.items) {
        if (!isPair(item)) continue;
        const key = keyText(item.key);
        if (key !== undefined && !index.has(key)) index.set(key, item as Pair);
      }
      this.keyIndex.set(map, index);
    }
    return index;
  }

  private offsetOf(node: Node | null): number | undefined {
    return node?.range?.[0];
  }
}

function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}
