/**
 * The smallest pieces of printed code: string and number literals, property keys and doc
 * comments, each spelled the way prettier spells it so that it leaves them as they are.
 */
import { blockCommentLines, lineComment, stringLiteral } from "../shared/escape.ts";
import { hardline, join, type Doc } from "./layout.ts";

/** A string literal in double quotes, or single quotes when that needs fewer escapes. */
export function printString(value: string): string {
  return stringLiteral(value);
}

/** A number as prettier prints it: lower-case exponent without `+`. */
export function printNumber(value: number): string {
  return String(value).replace("e+", "e");
}

/** An identifier as it is; any other key quoted. */
export function printPropertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : printString(name);
}

/**
 * A doc comment: `/** line *\/` for one line, else one ` * ` line each. Each of `docLines` may
 * hold text from the spec: it is split at every line end and kept from ending the comment.
 */
export function printDocComment(docLines: readonly string[]): Doc {
  const lines = docLines.flatMap(blockCommentLines);
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

/** A line comment: one line, whatever `text` holds. */
export function printLineComment(text: string): string {
  return `// ${lineComment(text)}`;
}
