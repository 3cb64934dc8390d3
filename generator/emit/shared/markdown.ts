/**
 * Markdown for the generated README, in the form prettier gives it (so that the style test
 * holds it like the code): text from the spec with emphasis characters escaped outside code
 * spans and runs of spaces collapsed, and tables with every column padded to its width.
 */
import { textWidth } from "../code/layout-print.ts";

/** Underscores at the edge of a word or next to punctuation: the ones that could open or close emphasis. */
const edgeUnderscores = /(^|\p{P})(_+)|(_+)(\p{P}|$)/gu;

/** A word escaped as prettier escapes it: every `*`, and `_` where it could mark emphasis. */
function escapeWord(word: string): string {
  return word
    .replace(/\*/g, "\\*")
    .replace(edgeUnderscores, (_match, before: string, run1: string, run2: string, after: string) =>
      (run1 !== undefined ? `${before}${run1}` : `${run2}${after}`).replace(/_/g, "\\_"),
    );
}

/** Text from the spec, safe as markdown: escaped outside `code spans`, runs of spaces collapsed. */
export function markdownText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/[ \t]+/g, " ")
            .split(/( |\n)/)
            .map(escapeWord)
            .join(""),
    )
    .join("");
}

/** A table cell: markdown text with `|` escaped. */
export function markdownCell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** A table with its columns padded to their widths (at least 3), as prettier aligns them. */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(3, ...all.map((row) => textWidth(row[c] ?? ""))));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => cell + " ".repeat(widths[c]! - textWidth(cell))).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
