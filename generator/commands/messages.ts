/**
 * The one-line results of writing and checking, shared by the full run, the up-to-date
 * shortcut and watch, so the three always say the same thing (in colour on a terminal).
 */
import { plain, type Colours } from "../diagnostics/colours.ts";

/** What a write did: `out/: 1 added, 2 changed, 3 unchanged[, 4 removed]`. */
export function writeSummary(
  out: string,
  counts: { added: number; changed: number; unchanged: number; removed: number },
  colours: Colours = plain,
): string {
  const count = (n: number, what: string, colour: (text: string) => string) =>
    n ? colour(`${n} ${what}`) : `${n} ${what}`;
  const removed = counts.removed ? `, ${colours.yellow(`${counts.removed} removed`)}` : "";
  return `${colours.bold(`${out}/`)}: ${count(counts.added, "added", colours.green)}, ${count(counts.changed, "changed", colours.green)}, ${colours.dim(`${counts.unchanged} unchanged`)}${removed}`;
}

/** What a passing check says. */
export function upToDate(out: string, files: number, colours: Colours = plain): string {
  return `${colours.bold(`${out}/`)} is ${colours.green("up to date")} with the spec (${files} files)`;
}
