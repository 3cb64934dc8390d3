/**
 * Where the value at a JSON pointer starts in a JSON text, found by scanning the text once
 * (strings and nested values skipped, nothing built): a diagnostic in a document of tens of
 * megabytes is located in milliseconds, where parsing it again with the `yaml` package for
 * its positions took half a minute and a gigabyte for 12 MB. No recursion, so any nesting is
 * safe. The text must be valid JSON (JSON.parse read it); where the pointer leads to nothing,
 * the offset of the nearest value on its way.
 */

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The offset just past the string starting at `i` (its opening quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  return text.length;
}

/** The offset just past the value starting at `i`. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c !== 0x7b && c !== 0x5b) {
    // a number, true, false or null ends at white space, a comma or a closing bracket
    let j = i;
    for (; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (isSpace(d) || d === 0x2c || d === 0x5d || d === 0x7d) break;
    }
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 0x22) j = skipString(text, j) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

/**
 * The offset of the member `key`'s value in the object starting at `i`, or -1. The first
 * such member: looking on for a repeated key (JSON.parse keeps the last) would skip the value
 * found at every level of the pointer, which made a deep document's scan quadratic.
 */
function memberValue(text: string, i: number, key: string): number {
  let j = skipSpace(text, i + 1);
  while (text.charCodeAt(j) === 0x22) {
    const end = skipString(text, j);
    const raw = text.slice(j + 1, end - 1);
    const name = raw.includes("\\") ? (JSON.parse(text.slice(j, end)) as string) : raw;
    j = skipSpace(text, end);
    if (text.charCodeAt(j) !== 0x3a) return -1;
    j = skipSpace(text, j + 1);
    if (name === key) return j;
    j = skipSpace(text, skipValue(text, j));
    if (text.charCodeAt(j) !== 0x2c) return -1;
    j = skipSpace(text, j + 1);
  }
  return -1;
}

/** The offset of item `index` in the array starting at `i`, or -1. */
function itemValue(text: string, i: number, index: number): number {
  let j = skipSpace(text, i + 1);
  if (text.charCodeAt(j) === 0x5d) return -1;
  for (let k = 0; k < index; k++) {
    j = skipSpace(text, skipValue(text, j));
    if (text.charCodeAt(j) !== 0x2c) return -1;
    j = skipSpace(text, j + 1);
  }
  return j;
}

/** The offset where the value at `tokens` (a JSON pointer's, unescaped) starts. */
export function jsonOffset(text: string, tokens: readonly string[]): number {
  let at = skipSpace(text, 0);
  for (const token of tokens) {
    const c = text.charCodeAt(at);
    const next =
      c === 0x7b
        ? memberValue(text, at, token)
        : c === 0x5b && /^(0|[1-9]\d*)$/.test(token)
          ? itemValue(text, at, Number(token))
          : -1;
    if (next < 0) return at;
    at = next;
  }
  return at;
}

/**
 * `jsonOffset` for many pointers into one text: each object's members and each array's items
 * are scanned once, as far as a lookup needs, and kept by the offset of their container. The
 * live route locates every node of the spec it reads in the document (the IR locates each
 * one it builds): scanning from the top for each would be the text's size times the nodes.
 */
export class JsonOffsets {
  private readonly objects = new Map<number, ScannedMembers>();
  private readonly arrays = new Map<number, ScannedItems>();
  /** Where each large container skipped so far ends, by where it starts (`skip`). */
  private readonly ends = new Map<number, number>();

  constructor(private readonly text: string) {}

  /**
   * `skipValue`, remembering where each container of at least `rememberedSize` characters
   * inside the value ends. Finding a member skips its siblings whole, and the lookups that
   * follow go down into one of them and skip its members whole again: without this, the
   * text under a pointer was read once per level (GitHub's 6,353 gaps, located to sort them,
   * read its 13 MB some six times: 0.26 s of the live route).
   */
  private skip(at: number): number {
    const text = this.text;
    const c = text.charCodeAt(at);
    if (c !== 0x7b && c !== 0x5b) return skipValue(text, at);
    const known = this.ends.get(at);
    if (known !== undefined) return known;
    const starts: number[] = [];
    for (let j = at; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === 0x22) j = skipString(text, j) - 1;
      else if (d === 0x7b || d === 0x5b) {
        const end = this.ends.get(j);
        if (end !== undefined && starts.length > 0) j = end - 1;
        else starts.push(j);
      } else if (d === 0x7d || d === 0x5d) {
        const start = starts.pop()!;
        if (j + 1 - start >= rememberedSize) this.ends.set(start, j + 1);
        if (starts.length === 0) return j + 1;
      }
    }
    return text.length;
  }

  /** The offset where the value at `tokens` starts; the nearest value on the way when absent. */
  offset(tokens: readonly string[]): number {
    let at = skipSpace(this.text, 0);
    for (const token of tokens) {
      const c = this.text.charCodeAt(at);
      const next =
        c === 0x7b
          ? this.member(at, token)
          : c === 0x5b && /^(0|[1-9]\d*)$/.test(token)
            ? this.item(at, Number(token))
            : -1;
      if (next < 0) return at;
      at = next;
    }
    return at;
  }

  /** The first member `key` of the object at `at`, as `memberValue` finds it; -1 when none. */
  private member(at: number, key: string): number {
    const text = this.text;
    let scan = this.objects.get(at);
    if (!scan) {
      scan = { members: new Map(), next: skipSpace(text, at + 1), done: false };
      this.objects.set(at, scan);
    }
    const known = scan.members.get(key);
    if (known !== undefined) return known;
    while (!scan.done) {
      let j = scan.next;
      if (text.charCodeAt(j) !== 0x22) {
        scan.done = true;
        break;
      }
      const end = skipString(text, j);
      const raw = text.slice(j + 1, end - 1);
      const name = raw.includes("\\") ? (JSON.parse(text.slice(j, end)) as string) : raw;
      j = skipSpace(text, end);
      if (text.charCodeAt(j) !== 0x3a) {
        scan.done = true;
        break;
      }
      const value = skipSpace(text, j + 1);
      if (!scan.members.has(name)) scan.members.set(name, value);
      j = skipSpace(text, this.skip(value));
      if (text.charCodeAt(j) === 0x2c) scan.next = skipSpace(text, j + 1);
      else scan.done = true;
      if (name === key) return value;
    }
    return -1;
  }

  /** Item `index` of the array at `at`; -1 when it has fewer. */
  private item(at: number, index: number): number {
    const text = this.text;
    let scan = this.arrays.get(at);
    if (!scan) {
      const first = skipSpace(text, at + 1);
      const empty = text.charCodeAt(first) === 0x5d;
      scan = { items: empty ? [] : [first], done: empty };
      this.arrays.set(at, scan);
    }
    while (scan.items.length <= index && !scan.done) {
      const j = skipSpace(text, this.skip(scan.items.at(-1)!));
      if (text.charCodeAt(j) === 0x2c) scan.items.push(skipSpace(text, j + 1));
      else scan.done = true;
    }
    return scan.items[index] ?? -1;
  }
}

/** The size from which a container's end is kept once skipped: smaller ones cost little to skip again. */
const rememberedSize = 1024;

interface ScannedMembers {
  members: Map<string, number>;
  /** Where the next member not yet scanned starts. */
  next: number;
  done: boolean;
}

interface ScannedItems {
  items: number[];
  done: boolean;
}
