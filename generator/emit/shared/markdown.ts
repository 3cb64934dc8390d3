/**
 * Markdown tables for the generated README, in the form prettier gives them (so that the
 * style test holds them like the code): every column padded to its width. The cells are
 * markdown already, each made by `markdownCell` of shared/escape.ts.
 */
import { textWidth } from "../code/layout-print.ts";

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
