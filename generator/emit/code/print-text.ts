/**
 * The smallest pieces of printed code: string and number literals, property keys and doc
 * comments, each spelled the way prettier spells it so that it leaves them as they are.
 */
import { hardline, join, type Doc } from "./layout.ts";

/** A string literal in double quotes, or single quotes when that needs fewer escapes. */
export function printString(value: string): string {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  const json = JSON.stringify(value);
  if (doubles <= singles) return json;
  // JSON escaped the double quotes; in single quotes they need none, and single quotes do.
  const inner = json
    .slice(1, -1)
    .replace(/\\(.)|'/gs, (match, escaped: string | undefined) =>
      escaped === undefined ? "\\'" : escaped === '"' ? '"' : match,
    );
  return `'${inner}'`;
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
