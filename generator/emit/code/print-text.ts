/**
 * The smallest pieces of printed code: string and number literals, property keys and doc
 * comments, each spelled the way prettier spells it so that it leaves them as they are.
 */
import { hardline, join, type Doc } from "./layout.ts";

/** A string literal in double quotes, or single quotes when that needs fewer escapes. */
export function printString(value: string): string {
  if (!value.includes('"') || !moreDoubleQuotes(value)) return JSON.stringify(value);
  return `'${escapeInSingleQuotes(value)}'`;
}

/**
 * The body of a single-quoted literal: `\`, `'`, control characters and lone surrogates
 * escaped (the escapes JSON.stringify makes, with `'` in place of `"`). One pass over the
 * char codes, copying the runs between escapes: src/openapi.ts quotes GitHub's whole document
 * (7 MB) this way, and the regex it replaces, with a look-behind and a look-ahead at each
 * character for the surrogates, took about 290 ms of that run (profile in the commit); this
 * takes about 25 ms.
 */
function escapeInSingleQuotes(text: string): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let escape: string;
    if (code === 0x27) escape = "\\'";
    else if (code === 0x5c || code < 0x20 || isLoneSurrogate(text, i, code))
      escape = JSON.stringify(text[i]).slice(1, -1);
    else continue;
    out += text.slice(copied, i) + escape;
    copied = i + 1;
  }
  return out + text.slice(copied);
}

/** Whether the code unit `code` at `i` is half of a surrogate pair whose other half is missing. */
function isLoneSurrogate(text: string, i: number, code: number): boolean {
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(i + 1); // NaN past the end
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(i - 1); // NaN before the start
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
}

/**
 * Whether `text` has more double quotes than single ones. Counted with indexOf, the double
 * quotes only until they outnumber the single ones: GitHub's document as one JSON string has
 * a million double quotes and almost no single ones, and a loop over its 7 M characters took
 * ~40 ms of the run (profile in the commit), this well under 1.
 */
function moreDoubleQuotes(text: string): boolean {
  const singles = occurrences(text, "'", Infinity);
  return occurrences(text, '"', singles + 1) > singles;
}

/** How many times `char` occurs in `text`, counted up to `atMost`. */
function occurrences(text: string, char: string, atMost: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count < atMost; i = text.indexOf(char, i + 1))
    count++;
  return count;
}

/** A number as prettier prints it: lower-case exponent without `+`. */
export function printNumber(value: number): string {
  return String(value).replace("e+", "e");
}

/** An identifier as it is; any other key quoted. */
export function printPropertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : printString(name);
}

/** A doc comment: `/** line *\/` for one line, else one ` * ` line each. */
export function printDocComment(docLines: readonly string[]): Doc {
  // Text from the spec must not end the comment early, and each of its lines gets its ` * `.
  const lines = docLines.flatMap((l) => l.replace(/\*\//g, "*\\/").split(/\r?\n/));
  if (lines.length === 1) return `/** ${lines[0]!.trim()} */`;
  return [
    "/**",
    hardline,
    join(
      hardline,
      lines.map((l) => (l.trim() ? ` * ${l.trimEnd()}` : " *")),
    ),
    hardline,
    " */",
  ];
}

/** A line comment. */
export function printLineComment(text: string): string {
  return `// ${text}`;
}
