/**
 * The one-line results of writing and checking, shared by the full run, the up-to-date
 * shortcut and watch, so the three always say the same thing.
 */

/** What a write did: `out/: 1 added, 2 changed, 3 unchanged[, 4 removed]`. */
export function writeSummary(
  out: string,
  counts: { added: number; changed: number; unchanged: number; removed: number },
): string {
  const removed = counts.removed ? `, ${counts.removed} removed` : "";
  return `${out}/: ${counts.added} added, ${counts.changed} changed, ${counts.unchanged} unchanged${removed}`;
}

/** What a passing check says. */
export function upToDate(out: string, files: number): string {
  return `${out}/ is up to date with the spec (${files} files)`;
}
