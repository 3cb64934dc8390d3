/**
 * Sample values from shapes, deterministic for a seed: the same seed and the same shape give
 * the same value on every run and every runtime. The spec's `example` is used where it has
 * one; otherwise a value is made that passes the spec's own validators (formats, prefixes,
 * lengths, bounds and simple patterns), so a client that checks what it gets accepts it.
 */
import { formats, itemKey, patternRegExp } from "../validate.js";
import type { Shape, ShapeTable } from "./shape.js";

/** A seeded pseudo-random source (mulberry32): small, fast and the same everywhere. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/** A random source from a 32-bit seed. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

/** A 32-bit hash of a text (FNV-1a), to derive a seed per request from the stand-in's seed. */
export function hashText(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const words = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "garnet", "harbor"];
/** Nesting depth past which optional fields are left out and lists are empty: recursive types end. */
const deepest = 6;

/** Letters and digits, for ids. */
export function token(random: Random, length: number): string {
  const chars = "abcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  for (let i = 0; i < length; i++) out += chars[random.int(0, chars.length - 1)];
  return out;
}

/** A value of `shape`, from `random`; `types` resolves references. */
export function sample(shape: Shape, types: ShapeTable, random: Random, depth = 0): unknown {
  if (depth === 0) itemsLeft = itemsBudget;
  if (shape.example !== undefined) return shape.example;
  if (shape.nullable && depth >= deepest) return null;
  switch (shape.t) {
    case "string":
      return sampleString(shape, random);
    case "integer":
    case "number":
      return sampleNumber(shape, random);
    case "boolean":
      return random.next() < 0.5;
    case "binary":
      return token(random, 16);
    case "any":
      return { sample: words[random.int(0, words.length - 1)] };
    case "ref": {
      const target = types[shape.name];
      return target ? sample(target, types, random, depth + 1) : null;
    }
    case "array": {
      const count = Math.min(itemCount(shape, depth), Math.max(0, itemsLeft));
      itemsLeft -= count;
      const items: unknown[] = [];
      const made = shape.uniqueItems ? new Set<string | undefined>() : undefined;
      for (let i = 0; i < count; i++) {
        let item = sample(shape.items, types, random, depth + 1);
        // unique items: a few more tries for one not made yet (an enum of two has no third)
        for (let tries = 0; made?.has(itemKey(item)) && tries < 8; tries++)
          item = sample(shape.items, types, random, depth + 1);
        made?.add(itemKey(item));
        items.push(item);
      }
      return items;
    }
    case "map": {
      const out: Record<string, unknown> = {};
      const count = Math.min(itemCount(countsOf(shape), depth), Math.max(0, itemsLeft));
      itemsLeft -= count;
      for (let i = 0; i < count; i++)
        put(out, i === 0 ? "key" : `key${i + 1}`, sample(shape.values, types, random, depth + 1));
      return out;
    }
    case "object":
      return sampleObject(shape, types, random, depth);
    case "literal":
      return shape.value;
    case "enum":
      return shape.values[random.int(0, shape.values.length - 1)];
    case "union": {
      const i = random.int(0, shape.variants.length - 1);
      const value = sample(shape.variants[i]!, types, random, depth + 1);
      if (shape.tag && value !== null && typeof value === "object")
        put(value as Record<string, unknown>, shape.tag.field, shape.tag.values[i]);
      return value;
    }
    default: {
      const unhandled: never = shape;
      throw new Error(`unknown shape ${JSON.stringify(unhandled)}`);
    }
  }
}

type NumberShape = Extract<Shape, { t: "integer" | "number" }>;
type ObjectShape = Extract<Shape, { t: "object" }>;

/** A map's count of entries read as an array's count of items. */
function countsOf(shape: { minProperties?: number; maxProperties?: number }) {
  return { minItems: shape.minProperties, maxItems: shape.maxProperties };
}

/**
 * An object's required fields, and its optional ones above `deepest`; then optional ones
 * added while it has fewer entries than its `minProperties`, or left out (from the last)
 * while it has more than its `maxProperties` (a PATCH body of at least one field).
 */
function sampleObject(shape: ObjectShape, types: ShapeTable, random: Random, depth: number) {
  const out: Record<string, unknown> = {};
  const optional = shape.fields.filter((field) => !field.required);
  const least = Math.min(shape.minProperties ?? 0, shape.fields.length);
  let room = (shape.maxProperties ?? Infinity) - shape.fields.length + optional.length;
  for (const field of shape.fields) {
    const wanted = field.required || (depth < deepest && room-- > 0);
    if (wanted) put(out, field.name, sample(field.shape, types, random, depth + 1));
  }
  for (const field of optional) {
    if (Object.keys(out).length >= least) break;
    if (!Object.hasOwn(out, field.name))
      put(out, field.name, sample(field.shape, types, random, depth + 1));
  }
  return out;
}

/**
 * A number within the shape's bounds (a bound of its own left out where it is exclusive): an
 * integer, or a whole multiple of `multipleOf`, where either is asked; else one with two
 * decimals. Without bounds, between 1 and 101.
 */
function sampleNumber(shape: NumberShape, random: Random): number {
  const low = Math.max(shape.minimum ?? -Infinity, shape.exclusiveMinimum ?? -Infinity);
  const high = Math.min(shape.maximum ?? Infinity, shape.exclusiveMaximum ?? Infinity);
  const min = Number.isFinite(low) ? low : Number.isFinite(high) ? high - 100 : 1;
  const max = Number.isFinite(high) ? high : min + 100;
  const above = (value: number) =>
    shape.exclusiveMinimum === undefined || value > shape.exclusiveMinimum;
  const below = (value: number) =>
    shape.exclusiveMaximum === undefined || value < shape.exclusiveMaximum;
  const step = shape.t === "integer" ? integerStep(shape.multipleOf ?? 1) : shape.multipleOf;
  if (step !== undefined) {
    let first = Math.ceil(min / step);
    let last = Math.floor(max / step);
    if (!above(first * step)) first++;
    if (!below(last * step)) last--;
    const k = first > last ? first : random.int(first, last);
    // 3 * 0.1 is 0.30000000000000004: a decimal step's multiple as the decimal reads it (a
    // whole one as it is: rounded to 15 digits, 2^63 - 1 would pass its own maximum)
    return Number.isInteger(step) ? k * step : Number((k * step).toPrecision(15));
  }
  const value = Math.round((min + random.next() * (max - min)) * 100) / 100;
  return above(value) && below(value) ? value : (min + max) / 2;
}

/** The least whole number that is a multiple of `multipleOf` (5 for 2.5); 1 past a bound. */
function integerStep(multipleOf: number): number {
  for (let n = 1; n <= 1000; n++) {
    const multiple = Number((n * multipleOf).toPrecision(12));
    if (Number.isInteger(multiple)) return multiple;
  }
  return 1;
}

/**
 * How many items a made-up array holds: one (none past `deepest`, where recursive types end),
 * or as many as its `minItems` asks (up to `itemsLimit`; at any depth up to `countsEnd`,
 * where a type that always holds itself, which has no finite value, ends), and no more than
 * its `maxItems`.
 */
function itemCount(
  shape: { minItems?: number | undefined; maxItems?: number | undefined },
  depth: number,
): number {
  const least = depth >= countsEnd ? 0 : Math.min(shape.minItems ?? 0, itemsLimit);
  return Math.min(Math.max(depth >= deepest ? 0 : 1, least), shape.maxItems ?? Infinity);
}

/** The most items a made-up array is given for its `minItems` (a spec's count is no budget). */
const itemsLimit = 100;
/** The depth past which a `minItems` is no longer met (HSBC's fee details sit 14 levels down). */
const countsEnd = 8 * deepest;
/**
 * The most items of all arrays of one made-up value: counts nested in counts (100 items of
 * 100 items of ...) multiply. Reset at each value's top; one value is made at a time.
 */
const itemsBudget = 10_000;
let itemsLeft = itemsBudget;

/** Sample text of a format, for the formats the validators check and the usual others. */
function formatted(format: string | undefined, random: Random): string | undefined {
  const two = (n: number) => String(n).padStart(2, "0");
  const hex = (n: number) => {
    let out = "";
    for (let i = 0; i < n; i++) out += "0123456789abcdef"[random.int(0, 15)];
    return out;
  };
  switch (format) {
    case "uuid":
      return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
    case "date-time":
      return `2024-${two(random.int(1, 12))}-${two(random.int(1, 28))}T${two(random.int(0, 23))}:${two(random.int(0, 59))}:00Z`;
    case "date":
      return `2024-${two(random.int(1, 12))}-${two(random.int(1, 28))}`;
    case "MM-DD-YYYY":
      return `${two(random.int(1, 12))}-${two(random.int(1, 28))}-2024`;
    case "YYYY-MM":
      return `2024-${two(random.int(1, 12))}`;
    case "uri":
      return `https://example.com/${words[random.int(0, words.length - 1)]}`;
    case "email":
      return `${words[random.int(0, words.length - 1)]}@example.com`;
    case "currency-code":
      return "USD";
    case "uri-template":
      return `https://example.com/${words[random.int(0, words.length - 1)]}{/id}`;
    case "phone":
      return `+1555010${random.int(1000, 9999)}`;
    case "timestamp":
      return String(1_700_000_000 + random.int(0, 10_000_000));
    default:
      return undefined;
  }
}

/**
 * A string passing the shape's rules: pattern, else format, else a word; then prefix and
 * lengths. With both a pattern and a checked format (eGain's date-times and URLs, each with a
 * pattern of its own), a value of the format that the pattern takes too, else one of the
 * pattern the format takes: `0000-00-00T00:00:00Z` matches the pattern and is no date-time.
 */
function sampleString(shape: Shape & { t: "string" }, random: Random): string {
  if (shape.pattern !== undefined) {
    const check = shape.format === undefined ? undefined : formats[shape.format];
    const typed = check && formatted(shape.format, random);
    // the value of the format as made, else in the other case: .NET documents' GUID patterns
    // take upper-case hex only, which few values made from the pattern are uuids of
    if (typed !== undefined)
      for (const text of [typed, typed.toUpperCase()])
        if (patternRegExp(shape.pattern).test(text) && fits(shape, text) && check!.test(text))
          return text;
    for (let attempt = 0; attempt < (check ? 4 : 1); attempt++) {
      const made = fromPatternWithin(shape, random);
      if (made === undefined) break;
      if (!check || check.test(made)) return made;
    }
  }
  let text = formatted(shape.format, random) ?? `${words[random.int(0, words.length - 1)]}`;
  if (shape.prefix !== undefined) text = `${shape.prefix}${token(random, 8)}`;
  if (shape.minLength !== undefined && text.length < shape.minLength)
    text =
      shape.format === "date-time"
        ? // a longer date-time is one with more digits of a second (unicourt's minLength: 25)
          `${text.slice(0, -1)}.${"0".repeat(Math.max(1, shape.minLength - text.length - 1))}Z`
        : text + token(random, Math.min(shape.minLength, paddingLimit) - text.length);
  if (shape.maxLength !== undefined && text.length > shape.maxLength)
    text = text.slice(0, shape.maxLength);
  return text;
}

/** Whether `text` is within the shape's lengths. */
function fits(shape: Shape & { t: "string" }, text: string): boolean {
  return text.length >= (shape.minLength ?? 0) && text.length <= (shape.maxLength ?? Infinity);
}

/**
 * A string matching the shape's pattern and within its lengths (LGTM's `[a-f0-9]+` at least
 * 40 long). After a first try as any other, unbounded quantifiers repeat as far as `reach`,
 * grown or shrunk by what the last try missed its lengths by; a match not anchored at its end
 * is padded to the minimum, which keeps it a match. `undefined` when no try fits.
 */
function fromPatternWithin(shape: Shape & { t: "string" }, random: Random): string | undefined {
  const pattern = shape.pattern!;
  // past a kilobyte the pattern's own value is kept (a spec's lengths bound no loop here)
  const min = Math.min(shape.minLength ?? 0, stretchLimit);
  const max = shape.maxLength ?? Number.POSITIVE_INFINITY;
  const openEnd = !/(^|[^\\])\$$/.test(pattern);
  let reach = Math.max(3, min);
  for (let attempt = 0; attempt < 8; attempt++) {
    let made =
      attempt === 0 ? fromPattern(pattern, random) : fromPattern(pattern, random, reach, true);
    if (made === undefined) return undefined;
    if (made.length < min && openEnd) {
      const padded = made + "0".repeat(min - made.length);
      if (patternRegExp(pattern).test(padded)) made = padded;
    }
    if (made.length >= min && made.length <= max) return made;
    if (attempt > 0)
      reach = Math.max(0, reach + (made.length < min ? min - made.length : max - made.length));
  }
  return undefined;
}

/**
 * A string matching a simple regular expression (literals, class escapes `\d \D \w \W \s \S`,
 * some Unicode properties `\p{L}`, classes, groups with `|`, lookaheads, word boundaries `\b`
 * (each of these two writing nothing: the pattern checks the result), quantifiers `? * +
 * {n} {n,m}`), checked against the pattern itself as the validators compile it
 * (`patternRegExp`); `undefined` for anything else, so a value is never claimed to match
 * when it does not. An unbounded quantifier repeats at most `reach` times more than its
 * minimum (exactly, when `longest`); otherwise a value that does not match is tried once
 * more at its shortest.
 */
export function fromPattern(
  pattern: string,
  random: Random,
  reach = 3,
  longest = false,
): string | undefined {
  try {
    const source = pattern.replace(/^\^/, "").replace(/\$$/, "");
    const regExp = patternRegExp(pattern);
    // a few tries: what a lookahead or an anchor inside asks is only checked after (Atlas's
    // IPv4 `((25[0-5]|…)(\.(?!$)|$)){4}` takes `.` or the end at random, 1 in 16 right)
    for (let attempt = 0; attempt < tries; attempt++) {
      const made = generate(source, { at: 0, reach, longest }, random);
      if (made !== undefined && regExp.test(made)) return made;
      if (made === undefined || made.length > retriedLength) break;
    }
    // positive lookaheads each asking for something somewhere (a password policy's
    // `(?=.{12,})(?=.*\d)(?=.*[a-z])(?=.*[A-Z])`, Kapua's): their texts one after another,
    // then the pattern's own, which a `.*` around them takes
    const asked = lookaheadBodies(source);
    for (let attempt = 0; asked.length > 0 && attempt < tries; attempt++) {
      const parts = asked.map((body) => generate(body, { at: 0, reach, longest }, random));
      const own = generate(source, { at: 0, reach, longest }, random);
      if (own === undefined || parts.some((part) => part === undefined)) break;
      const made = parts.join("") + own;
      if (regExp.test(made)) return made;
    }
    if (longest) return undefined;
    // the shortest value it says: each quantifier at its least, the first of each alternation
    // (Okta's durations `^P(?:$)(\d+Y)?…$`, whose `$` inside leaves only `P`)
    const least = generate(source, { at: 0, reach: 0, longest: false, shortest: true }, random);
    return least !== undefined && regExp.test(least) ? least : undefined;
  } catch {
    return undefined;
  }
}

/** The bodies of a pattern's positive lookaheads (`(?=…)`), read past escapes and classes. */
function lookaheadBodies(source: string): string[] {
  const bodies: string[] = [];
  const open: { at: number; ahead: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") open.push({ at: i + 3, ahead: source.startsWith("?=", i + 1) });
    else if (c === ")") {
      const group = open.pop();
      if (group?.ahead) bodies.push(source.slice(group.at, i));
    }
  }
  return bodies;
}

/** How many times a pattern is generated from before its shortest value is tried. */
const tries = 24;

/** The longest minimum length a made-up string is padded to (a spec's `minLength` is no budget). */
const paddingLimit = 65_536;

/** The longest minimum length a pattern's value is stretched or padded to. */
const stretchLimit = 1024;

/**
 * The longest text generating from a pattern makes: past it, no value (nested repeats
 * multiply). An Ethereum blob is `^0x[a-fA-F0-9]{262144}$`.
 */
const madeLimit = 1 << 19;

/** The longest made value that is tried again when the pattern refuses it (each try costs its length). */
const retriedLength = 4096;

/** Where generating is in the source, and how far an unbounded quantifier repeats. */
interface Cursor {
  at: number;
  reach: number;
  /** Every unbounded quantifier repeats as far as `reach` lets it. */
  longest: boolean;
  /** Every quantifier repeats as little as it may, and each alternation takes its first branch. */
  shortest?: boolean;
}

/** Generates from `source` at `pos` up to the end or a `)` of the enclosing group. */
function generate(source: string, pos: Cursor, random: Random): string | undefined {
  const branches: string[] = [""];
  while (pos.at < source.length && source[pos.at] !== ")") {
    if (source[pos.at] === "|") {
      pos.at++;
      branches.push("");
      continue;
    }
    const atom = readAtom(source, pos, random);
    if (atom === undefined) return undefined;
    const [min, max, open] = readQuantifier(source, pos);
    let text = "";
    const times = pos.shortest ? min : pos.longest && open ? max : random.int(min, max);
    for (let i = times; i > 0; i--) {
      text += atom();
      if (text.length > madeLimit) return undefined;
    }
    branches[branches.length - 1] += text;
    if (branches[branches.length - 1]!.length > madeLimit) return undefined;
  }
  return branches[pos.shortest ? 0 : random.int(0, branches.length - 1)];
}

/** One atom as a maker of text, or `undefined` for syntax this generator does not know. */
function readAtom(source: string, pos: Cursor, random: Random): (() => string) | undefined {
  const c = source[pos.at++]!;
  const pick = (set: string) => () => set[random.int(0, set.length - 1)]!;
  if (c === "(") {
    // a lookahead or lookbehind writes nothing (what is made is checked against the whole
    // pattern: AWS's tag keys begin `(?![aA][wW][sS]:)`)
    const assertion = /^\?<?[=!]/.exec(source.slice(pos.at, pos.at + 3))?.[0];
    if (source.startsWith("?:", pos.at)) pos.at += 2;
    else if (assertion) pos.at += assertion.length;
    const start = pos.at;
    const inner = generate(source, pos, random);
    if (source[pos.at] !== ")" || inner === undefined) return undefined;
    pos.at++;
    if (assertion) return () => "";
    const body = source.slice(start, pos.at - 1);
    return () => generate(body, { ...pos, at: 0 }, random) ?? "";
  }
  if (c === "[") {
    const end = classEnd(source, pos.at);
    if (end < 0) return undefined;
    const negated = source[pos.at] === "^";
    const listed = expandClass(source.slice(negated ? pos.at + 1 : pos.at, end));
    pos.at = end + 1;
    // A negated class takes letters and digits it does not list.
    const set = negated
      ? [...alphanumerics].filter((ch) => !listed?.includes(ch)).join("")
      : listed;
    return set ? pick(set) : undefined;
  }
  if (c === "\\") {
    // a word boundary writes nothing: what is made is checked against the whole pattern
    // (Unit's URLs, `…\.[a-z]{2,6}\b([-a-zA-Z0-9@:%_\+.~#?&//=]*)`)
    if (source[pos.at] === "b" || source[pos.at] === "B") {
      pos.at++;
      return () => "";
    }
    const set = escapeSet(source, pos);
    return set === undefined ? undefined : pick(set);
  }
  if (c === ".") return pick("abcdefghijklmnopqrstuvwxyz");
  // an anchor inside the pattern (`^\d+$|^\d+\.\d+$`, Open Banking's amounts) writes nothing
  if (c === "^" || c === "$") return () => "";
  // a brace that starts no quantifier is the character (`^(?:{[0-9a-f]{4}…})$`: a GUID in braces)
  if (c === "{" && !/^\{\d+(,\d*)?\}/.test(source.slice(pos.at - 1))) return () => c;
  if ("*+?{".includes(c)) return undefined;
  return () => c;
}

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Characters each escape stands for (some of them: a made value is checked by the pattern). */
const escapeSets: Record<string, string> = {
  d: "0123456789",
  D: "abcdefghijklmnopqrstuvwxyz",
  w: "abcdefghijklmnopqrstuvwxyz0123456789",
  W: "-.~",
  s: " ",
  S: alphanumerics,
  t: "\t",
  n: "\n",
  r: "\r",
};

/** Unicode property classes (`\p{L}`, the `u` flag's): some characters of each. */
const propertySets: Record<string, string> = {
  L: "abcdefghijklmnopqrstuvwxyzé",
  Lu: "ABCDEFGHIJKLMNOPQRSTUVWXYZÉ",
  Ll: "abcdefghijklmnopqrstuvwxyzé",
  N: "0123456789",
  Nd: "0123456789",
  Z: " ",
  Zs: " ",
};

/**
 * The characters the escape after the `\\` at `pos.at` - 1 stands for, moving past it: a
 * character by its code (`\x41`, `\u0041`, `\u{1F600}`), a class escape, a Unicode property,
 * a punctuation character, or a letter that escapes nothing (`\z`), as itself; undefined for
 * any other (a back reference, `\b`, a negated property).
 */
function escapeSet(source: string, pos: { at: number }): string | undefined {
  const code = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\})/.exec(
    source.slice(pos.at, pos.at + 10),
  );
  if (code) {
    pos.at += code[0].length;
    const point = parseInt(code[1] ?? code[2] ?? code[3]!, 16);
    return point <= 0x10ffff ? String.fromCodePoint(point) : undefined;
  }
  const e = source[pos.at++];
  if (e === undefined) return undefined;
  if (Object.hasOwn(escapeSets, e)) return escapeSets[e];
  if (e === "p") {
    const name = /^\{(?:General_Category=|gc=)?([A-Za-z]+)\}/.exec(source.slice(pos.at));
    if (!name || !Object.hasOwn(propertySets, name[1]!)) return undefined;
    pos.at += name[0].length;
    return propertySets[name[1]!];
  }
  // a letter that escapes nothing (`\z`, `\A`: another dialect's anchors) is the letter itself
  // where the pattern compiles at all, without the `u` flag (patternRegExp)
  if (/[A-Za-z]/.test(e) && !"bBcfkPuvx".includes(e)) return e;
  return /[a-zA-Z0-9]/.test(e) ? undefined : e;
}

/**
 * Where the class whose body begins at `from` ends: its first `]` that is not escaped (`\]`,
 * a password policy's list of punctuation) nor the body's first character; -1 for none.
 */
function classEnd(source: string, from: number): number {
  for (let i = from + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]") return i;
  }
  return -1;
}

/** A class atom at `at`: its characters, and whether it is one character (a range's end). */
function classAtom(body: string, at: { at: number }): { set: string; one: boolean } | undefined {
  const c = body.codePointAt(at.at)!;
  if (c !== 0x5c) {
    at.at += c > 0xffff ? 2 : 1;
    return { set: String.fromCodePoint(c), one: true };
  }
  const start = ++at.at;
  const set = escapeSet(body, at);
  if (set === undefined) return undefined;
  // a class escape (`\d`) or a property stands for several, even when it lists one here
  const one = !/^[dDwWsSp]/.test(body.slice(start)) && [...set].length === 1;
  return { set, one };
}

/** The characters of a class body such as `A-Z0-9_` or `\x00-\x1F`. */
function expandClass(body: string): string | undefined {
  let out = "";
  const at = { at: 0 };
  while (at.at < body.length) {
    const from = classAtom(body, at);
    if (from === undefined) return undefined;
    if (from.one && body[at.at] === "-" && at.at + 1 < body.length) {
      const after = { at: at.at + 1 };
      const to = classAtom(body, after);
      if (to?.one) {
        out += rangeChars(from.set.codePointAt(0)!, to.set.codePointAt(0)!);
        at.at = after.at;
        continue;
      }
    }
    out += from.set;
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The characters from `low` to `high`: all of a small range; of a large one (`\u0000-\uFFFF`)
 * its first 64 and the letters and digits in it, which is what a pick or a negation reads.
 */
function rangeChars(low: number, high: number): string {
  let out = "";
  const last = high - low > 4096 ? low + 63 : high;
  for (let code = low; code <= last; code++) out += String.fromCodePoint(code);
  if (last < high)
    for (const ch of alphanumerics)
      if (ch.charCodeAt(0) > last && ch.charCodeAt(0) <= high) out += ch;
  return out;
}

/** The repeat range of the quantifier at `pos` (none: exactly once); open ranges stop `reach` past their minimum. */
function readQuantifier(source: string, pos: Cursor): [number, number, boolean] {
  const counts = readCounts(source, pos);
  // a lazy quantifier (`{7,}?`, Bitbucket's hashes) matches the same texts
  if (counts !== undefined && source[pos.at] === "?") pos.at++;
  return counts ?? [1, 1, false];
}

/** `[min, max, open]`: `open` for a quantifier without an upper bound (`*`, `+`, `{n,}`). */
function readCounts(source: string, pos: Cursor): [number, number, boolean] | undefined {
  const c = source[pos.at];
  if (c === "?") return (pos.at++, [0, 1, false]);
  if (c === "*") return (pos.at++, [0, pos.reach, true]);
  if (c === "+") return (pos.at++, [1, Math.max(1, pos.reach), true]);
  const m = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos.at)) : null;
  if (!m) return undefined;
  pos.at += m[0].length;
  const min = Number(m[1]);
  if (m[2] === undefined) return [min, min, false];
  return m[3] ? [min, Number(m[3]), false] : [min, min + pos.reach, true];
}

/** `out[name] = value`, as an own entry also for a field named `__proto__` (not the prototype). */
export function put(out: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__")
    Object.defineProperty(out, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[name] = value;
}
