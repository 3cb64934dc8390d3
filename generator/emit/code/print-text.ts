/**
 * The smallest pieces of printed code: string and number literals, property keys and doc
 * comments, each spelled the way prettier spells it so that it leaves them as they are.
 */
import { hardline, join, type Doc } from "./layout.ts";

/** A string literal in double quotes, or single quotes when that needs fewer escapes. */
export function printString(value: string): string {
  if (!value.includes('"') || !moreDoubleQuotes(value)) return JSON.stringify(value);
  return `'${value.replace(needsEscapeInSingleQuotes, escapeInSingleQuotes)}'`;
}

/**
 * What a single-quoted literal escapes: `\`, `'`, control characters and lone surrogates
 * (the escapes JSON.stringify makes, with `'` in place of `"`). Text with many double quotes
 * (a JSON document) has few of these, so escaping it costs little.
 */
const needsEscapeInSingleQuotes =
  /[\\'\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeInSingleQuotes(char: string): string {
  return char === "'" ? "\\'" : JSON.stringify(char).slice(1, -1);
}

/** Whether `text` has more double quotes than single ones (one pass). */
function moreDoubleQuotes(text: string): boolean {
  let balance = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) balance++;
    else if (code === 0x27) balance--;
  }
  return balance > 0;
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
