/**
 * Prints diagnostics as `path:line:col - error code: message` followed by a short code frame.
 * A badly broken spec can have thousands of problems on lines thousands of characters long:
 * each file's lines are split once, a frame shows at most a window of a long line around the
 * column, and after `maxPrinted` problems the rest are counted, not printed.
 */
import type { Diagnostic } from "./diagnostic.ts";

/** Source texts by file path, for code frames. */
export type SourceTexts = ReadonlyMap<string, string>;

/** Problems printed in full; the rest of a longer list are only counted. */
export const maxPrinted = 200;

/** Characters of a line shown on each side of the column when the line is longer than twice that. */
const frameHalfWidth = 80;

/** One diagnostic, with a two-line code frame when its source is known. */
export function formatDiagnostic(
  d: Diagnostic,
  sources: SourceTexts,
  linesOf: (text: string) => readonly string[] = splitLines,
): string {
  const where = d.location ? `${d.location.file}:${d.location.line}:${d.location.col} - ` : "";
  const head = `${where}${d.severity} ${d.code}: ${d.message}`;
  const text = d.location ? sources.get(d.location.file) : undefined;
  if (!d.location || text === undefined) return head;
  return `${head}\n${codeFrame(linesOf(text), d.location.line, d.location.col)}`;
}

const splitLines = (text: string) => text.split(/\r?\n/);

/** A window of `line` around `col` when it is long, and the column within the window. */
function clip(line: string, col: number): { shown: string; col: number } {
  if (line.length <= 2 * frameHalfWidth) return { shown: line, col };
  const start = Math.max(0, Math.min(col - 1 - frameHalfWidth, line.length - 2 * frameHalfWidth));
  const end = start + 2 * frameHalfWidth;
  const before = start > 0 ? "…" : "";
  const after = end < line.length ? "…" : "";
  return { shown: `${before}${line.slice(start, end)}${after}`, col: col - start + before.length };
}

/** The line before, the line itself and a caret under the column. */
export function codeFrame(lines: readonly string[], line: number, col: number): string {
  const first = Math.max(1, line - 1);
  const width = String(line).length;
  const out: string[] = [];
  let caret = col;
  for (let n = first; n <= Math.min(line, lines.length); n++) {
    const marker = n === line ? ">" : " ";
    const clipped = clip(lines[n - 1] ?? "", n === line ? col : 1);
    if (n === line) caret = clipped.col;
    out.push(`${marker} ${String(n).padStart(width)} | ${clipped.shown}`);
  }
  out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, caret - 1))}^`);
  return out.join("\n");
}

/** Every diagnostic (up to `maxPrinted`) and a closing count line. */
export function formatDiagnostics(list: readonly Diagnostic[], sources: SourceTexts): string {
  const errors = list.filter((d) => d.severity === "error").length;
  const warnings = list.length - errors;
  const summary = `${errors} error${errors === 1 ? "" : "s"}${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}`;
  const split = new Map<string, readonly string[]>();
  const linesOf = (text: string) => {
    let lines = split.get(text);
    if (!lines) split.set(text, (lines = splitLines(text)));
    return lines;
  };
  const printed = list.slice(0, maxPrinted).map((d) => formatDiagnostic(d, sources, linesOf));
  if (list.length > maxPrinted)
    printed.push(`... and ${list.length - maxPrinted} more problems, not printed`);
  return `${printed.join("\n\n")}\n\n${summary}`;
}
