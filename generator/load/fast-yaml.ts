/**
 * The fast way to read a spec file: js-yaml's event parser (an order of magnitude faster than
 * building the `yaml` package's document) turned into the same plain data that
 * `parseDocument(text).toJS()` gives, with each node's position kept in a light tree for
 * `SpecFile.locate`. It takes only what it can read exactly as the `yaml` package would: one
 * document whose root is a mapping, no anchors, aliases or tags, no duplicate or complex keys.
 * Anything else (and every file with a syntax error) is read the careful way in
 * load-spec.ts, whose diagnostics are the ones users see. test/fast-yaml.test.ts holds the two
 * to the same data and the same positions.
 */
import {
  EVENT_ID,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
  YAMLException,
  type Event,
} from "js-yaml";
import { maxSpecDepth } from "./yaml-guards.ts";

/** Where a node starts, and for collections where their children start. */
export interface PositionNode {
  /** Offset of the node's first character: a scalar's quote or block indicator, a collection's first entry or bracket. */
  start: number;
  /** A quoted scalar: its text starts one character after `start`. */
  quoted: boolean;
  /** A mapping's entries by key: where the key starts, and the value's node. */
  entries?: Map<string, { keyStart: number; value: PositionNode }>;
  /** A sequence's items. */
  items?: PositionNode[];
}

/** A file read the fast way: its data, and the position tree of its root mapping. */
export interface FastParse {
  data: Record<string, unknown>;
  root: PositionNode;
}

/** Thrown inside the reader when the file needs the careful reading. */
class NotFast extends Error {}

const nullPattern = /^(?:~|[Nn]ull|NULL)?$/;
const boolPattern = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const octalPattern = /^0o[0-7]+$/;
const intPattern = /^[-+]?[0-9]+$/;
const hexPattern = /^0x[0-9a-fA-F]+$/;
const specialFloatPattern = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const expFloatPattern = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const floatPattern = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/**
 * The characters a plain scalar that is not a string can start with (every pattern above):
 * null's `~` and `n`, booleans, signs, digits and `.`.
 */
const nonStringStart = /^(?:$|[~nNtTfF0-9+\-.])/;

/** A plain scalar's value under the YAML 1.2 core schema, tested in the `yaml` package's order. */
export function resolvePlain(text: string): unknown {
  // Most plain scalars of a spec are words: one test instead of eight (profile in the commit).
  if (!nonStringStart.test(text)) return text;
  if (nullPattern.test(text)) return null;
  if (boolPattern.test(text)) return text[0] === "t" || text[0] === "T";
  if (octalPattern.test(text)) return parseInt(text.substring(2), 8);
  if (intPattern.test(text)) return parseInt(text, 10);
  if (hexPattern.test(text)) return parseInt(text.substring(2), 16);
  if (specialFloatPattern.test(text))
    return text.slice(-3).toLowerCase() === "nan"
      ? NaN
      : text[0] === "-"
        ? Number.NEGATIVE_INFINITY
        : Number.POSITIVE_INFINITY;
  if (expFloatPattern.test(text) || floatPattern.test(text)) return parseFloat(text);
  return text;
}

/** A mapping key as the `yaml` package makes it a property name. */
function keyName(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "object") throw new NotFast("a complex key");
  return String(value);
}

/** Sets a property as `toJS` does: `__proto__` as an own property, never the prototype. */
function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else target[key] = value;
}

/** The offset just after `from` skipping spaces, tabs and `#` comments (to the end of their line). */
function skipToIndicator(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text[i];
    if (c === "|" || c === ">") return i;
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf("\n", i);
      if (end === -1 || end >= to) break;
      i = end;
    }
  }
  throw new NotFast("a block scalar whose header was not found");
}

interface Frame {
  data: Record<string, unknown> | unknown[];
  node: PositionNode;
  /** A mapping's key read, waiting for its value. */
  key?: { name: string; start: number; end: number } | undefined;
}

/**
 * Where a text nests too deep to read, found without the careful reading's parser, which runs
 * out of stack on such a text only while its code is not yet optimized (so a place taken from
 * it would depend on what ran before it in the process): the offset of the first node, scalars
 * included, more than `max` + 2 levels deep (js-yaml's reader counts every node), or undefined.
 * Its parent is a collection more than `max` levels below the root, which checkData refuses
 * anyway: nothing within the limit is refused here (what is past it only as empty collections
 * is left to checkData).
 */
export function tooDeepAt(text: string, max = maxSpecDepth): number | undefined {
  try {
    eventsOf(text, max + 2);
  } catch (error) {
    const mark = (error as { mark?: { position?: number } }).mark;
    if (/nesting exceeded maxDepth/.test(String(error)) && typeof mark?.position === "number")
      return mark.position;
  }
  return undefined;
}

/**
 * js-yaml's events of a text, its errors thrown without their source snippet: js-yaml makes
 * one for every error by splitting the whole text into lines with a regular expression (for
 * a broken file of 1 MB, about 30 ms each time: here and again in `tooDeepAt`), where this
 * module reads only an error's message and position. The careful reading reports the error
 * the user sees.
 */
function eventsOf(text: string, maxDepth: number): Event[] {
  const throwAt = YAMLException.throwAt;
  YAMLException.throwAt = (_source, position, message) => {
    throw new YAMLException(message, { buffer: "", position, line: 0, column: 0 });
  };
  try {
    return parseEvents(text, { maxDepth });
  } finally {
    YAMLException.throwAt = throwAt;
  }
}

/** Reads a file the fast way, or `undefined` when it needs the careful reading. */
export function fastParse(text: string): FastParse | undefined {
  let events: Event[];
  try {
    events = eventsOf(text, maxSpecDepth + 1);
  } catch {
    return undefined;
  }
  try {
    return build(text, events);
  } catch (error) {
    if (error instanceof NotFast) return undefined;
    throw error;
  }
}

function build(text: string, events: readonly Event[]): FastParse {
  const stack: Frame[] = [];
  let root: Frame | undefined;
  let documents = 0;
  /** End of the last token read: where a block scalar's header is looked for. */
  let lastEnd = 0;

  /** Puts a finished node where it belongs: a key, a mapping value, an item, or the root. */
  const deliver = (value: unknown, node: PositionNode, end: number): void => {
    const frame = stack.at(-1);
    if (!frame) throw new NotFast("content outside the root");
    if (Array.isArray(frame.data)) {
      frame.data.push(value);
      frame.node.items!.push(node);
    } else if (!frame.key) {
      const name = keyName(value);
      if (Object.hasOwn(frame.data, name)) throw new NotFast("a duplicate key");
      frame.key = { name, start: node.start, end };
    } else {
      setProperty(frame.data, frame.key.name, value);
      frame.node.entries!.set(frame.key.name, { keyStart: frame.key.start, value: node });
      frame.key = undefined;
    }
    lastEnd = Math.max(lastEnd, end);
  };

  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (++documents > 1) throw new NotFast("several documents");
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        if (event.anchorStart !== -1 || event.tagStart !== -1)
          throw new NotFast("an anchor or tag");
        const isMap = event.type === EVENT_ID.MAPPING;
        const frame: Frame = isMap
          ? { data: {}, node: { start: event.start, quoted: false, entries: new Map() } }
          : { data: [], node: { start: event.start, quoted: false, items: [] } };
        if (!root) {
          if (!isMap) throw new NotFast("a root that is not a mapping");
          root = frame;
        }
        stack.push(frame);
        break;
      }
      case EVENT_ID.SCALAR: {
        if (event.anchorStart !== -1 || event.tagStart !== -1)
          throw new NotFast("an anchor or tag");
        if (!root) throw new NotFast("a root that is not a mapping");
        deliver(...scalar(text, event, stack.at(-1)!, lastEnd));
        break;
      }
      case EVENT_ID.POP: {
        const frame = stack.pop();
        if (!frame) break; // the end of the document
        if (frame.key) throw new NotFast("a key without a value");
        if (stack.length > 0) deliver(frame.data, frame.node, lastEnd);
        break;
      }
      case EVENT_ID.ALIAS:
        throw new NotFast("an alias");
      default: {
        const unhandled: never = event;
        throw new NotFast(`an event ${JSON.stringify(unhandled)}`);
      }
    }
  }
  if (!root || stack.length > 0) throw new NotFast("no root mapping");
  return { data: root.data as Record<string, unknown>, root: root.node };
}

/** A scalar's value, its position node and where it ends. */
function scalar(
  text: string,
  event: Event & { type: typeof EVENT_ID.SCALAR },
  frame: Frame,
  lastEnd: number,
): [unknown, PositionNode, number] {
  const { style, valueStart, valueEnd } = event;
  if (valueStart === -1) {
    // An empty value: the `yaml` package puts it after its key's colon and any spaces or tabs.
    if (Array.isArray(frame.data) || !frame.key) throw new NotFast("an empty item or key");
    const colon = text.indexOf(":", frame.key.end);
    if (colon === -1 || text.slice(frame.key.end, colon).trim() !== "")
      throw new NotFast("an empty value without its colon");
    let start = colon + 1;
    while (text[start] === " " || text[start] === "\t") start++;
    return [null, { start, quoted: false }, colon + 1];
  }
  switch (style) {
    case SCALAR_STYLE.PLAIN: {
      const raw = event.fast ? text.slice(valueStart, valueEnd) : getScalarValue(text, event);
      return [resolvePlain(raw), { start: valueStart, quoted: false }, valueEnd];
    }
    case SCALAR_STYLE.SINGLE_QUOTED:
    case SCALAR_STYLE.DOUBLE_QUOTED:
      return [getScalarValue(text, event), { start: valueStart - 1, quoted: true }, valueEnd + 1];
    case SCALAR_STYLE.LITERAL_BLOCK:
    case SCALAR_STYLE.FOLDED_BLOCK: {
      const header = skipToIndicator(text, lastEnd, valueStart);
      return [getScalarValue(text, event), { start: header, quoted: false }, valueEnd];
    }
    default:
      throw new NotFast(`a scalar of style ${String(style)}`);
  }
}
