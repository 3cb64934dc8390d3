/**
 * The smallest pieces of printed code: string and number literals, property keys and doc
 * comments, each spelled the way prettier spells it so that it leaves them as they are.
 */
import { hardline, join, type Doc } from "./layout.ts";

/** A string literal in double quotes, or single quotes when that needs fewer escapes. */
export function printString(value: string): string {
  const json = JSON.stringify(value);
  if (!value.includes('"')) return json;
  if (countOf(value, '"') <= countOf(value, "'")) return json;
  // JSON escaped the double quotes; in single quotes they need none, and single quotes do.
  // (Every `"` of JSON text is escaped, so `\"` is always an escaped quote.)
  const inner = json.slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return `'${inner}'`;
}

/** How many times `char` occurs in `text`. */
function countOf(text: string, char: string): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) count++;
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
  // text from the spec must not end the comment early
  const lines = docLines.map((l) => l.replace(/\*\//g, "*\\/"));
  if (lines.length === 1 && !lines[0]!.includes("\n")) return `/** ${lines[0]!.trim()} */`;
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
