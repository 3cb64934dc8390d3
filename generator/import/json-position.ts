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
    let j = i;
    while (j < text.length && !/[\s,\]}]/.test(text[j]!)) j++;
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
