/**
 * Prints diagnostics as `path:line:col - error code: message` followed by a short code frame.
 */
import type { Diagnostic } from "./diagnostic.ts";

/** Source texts by file path, for code frames. */
export type SourceTexts = ReadonlyMap<string, string>;

/** One diagnostic, with a two-line code frame when its source is known. */
export function formatDiagnostic(d: Diagnostic, sources: SourceTexts): string {
  const where = d.location ? `${d.location.file}:${d.location.line}:${d.location.col} - ` : "";
  const head = `${where}${d.severity} ${d.code}: ${d.message}`;
  const text = d.location ? sources.get(d.location.file) : undefined;
  if (!d.location || text === undefined) return head;
  return `${head}\n${codeFrame(text, d.location.line, d.location.col)}`;
}

/** The line before, the line itself and a caret under the column. */
export function codeFrame(text: string, line: number, col: number): string {
  const lines = text.split(/\r?\n/);
  const first = Math.max(1, line - 1);
  const width = String(line).length;
  const out: string[] = [];
  for (let n = first; n <= Math.min(line, lines.length); n++) {
    const marker = n === line ? ">" : " ";
    out.push(`${marker} ${String(n).padStart(width)} | ${lines[n - 1] ?? ""}`);
  }
  out.push(`  ${" ".repeat(width)} | ${" ".repeat(Math.max(0, col - 1))}^`);
  return out.join("\n");
}

/** Every diagnostic and a closing count line. */
export function formatDiagnostics(list: readonly Diagnostic[], sources: SourceTexts): string {
  const errors = list.filter((d) => d.severity === "error").length;
  const warnings = list.length - errors;
  const summary = `${errors} error${errors === 1 ? "" : "s"}${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}`;
  return `${list.map((d) => formatDiagnostic(d, sources)).join("\n\n")}\n\n${summary}`;
}
