/**
 * Prints a model diff: one line per change, breaking ones first, then the semver bump.
 */
import { semverBump, type Change } from "./compare.ts";

const order = { breaking: 0, minor: 1, patch: 2 } as const;

/** The lines `generate --diff` prints. */
export function formatChanges(changes: readonly Change[]): string {
  const sorted = [...changes].sort((a, b) => order[a.level] - order[b.level]);
  const lines = sorted.map((c) => {
    const level = c.level === "breaking" ? "BREAKING" : c.level;
    const who = c.breaks.length ? `for ${c.breaks.join(" and ")}` : "";
    return `${level.padEnd(9)}${who.padEnd(30)}${c.subject}: ${c.description}`;
  });
  const count = (level: Change["level"]) => changes.filter((c) => c.level === level).length;
  const summary = `semver: ${semverBump(changes)} (${count("breaking")} breaking, ${count("minor")} minor, ${count("patch")} patch)`;
  return [...(lines.length ? lines : ["no changes"]), "", summary].join("\n");
}
