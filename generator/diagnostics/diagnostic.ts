/**
 * Diagnostics: a catalogue code plus arguments, reported against a spec location.
 */
import { catalogue, type DiagnosticCode } from "./catalogue.ts";
import type { SourceLocation } from "../ir/model.ts";

export interface Diagnostic {
  code: DiagnosticCode;
  severity: "error" | "warning";
  message: string;
  location?: SourceLocation;
}

/** Builds a diagnostic from its catalogue entry, filling `{name}` placeholders. */
export function diagnostic(
  code: DiagnosticCode,
  args: Record<string, string | number>,
  location?: SourceLocation,
): Diagnostic {
  const entry = catalogue[code];
  const message = entry.message.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in args ? String(args[key]) : whole,
  );
  return { code, severity: entry.severity, message, ...(location ? { location } : {}) };
}

/** Thrown to stop the pipeline at a stage boundary; carries every diagnostic found so far. */
export class DiagnosticsError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(`${diagnostics.length} problem(s) in the spec`);
  }
}

/** Collects diagnostics across a stage; `throwIfErrors` ends the stage when any is an error. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];
  add(d: Diagnostic): void {
    this.items.push(d);
  }
  report(
    code: DiagnosticCode,
    args: Record<string, string | number>,
    location?: SourceLocation,
  ): void {
    this.add(diagnostic(code, args, location));
  }
  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
  throwIfErrors(): void {
    if (this.hasErrors) throw new DiagnosticsError(sortDiagnostics(this.items));
  }
}

/** File, then line, then column order; diagnostics without a location last. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => {
    const la = a.location;
    const lb = b.location;
    if (!la || !lb) return la ? -1 : lb ? 1 : 0;
    return la.file.localeCompare(lb.file) || la.line - lb.line || la.col - lb.col;
  });
}

/**
 * The candidate closest to `name` (case aside), when it is at most `maxDistance` edits away
 * (by default 2, or a third of the name's length); undefined when none is that close.
 */
export function nearest(
  name: string,
  candidates: Iterable<string>,
  maxDistance = Math.max(2, Math.floor(name.length / 3)),
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= maxDistance ? best : undefined;
}

/** `; did you mean X?` for a name close to one of the candidates (`nearest`), else "". */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const best = nearest(name, candidates);
  return best === undefined ? "" : `; did you mean ${best}?`;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
