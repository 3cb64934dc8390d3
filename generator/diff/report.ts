/**
 * Prints a model diff: one line per change, breaking ones first, then the semver bump.
 */
import { plain, type Colours } from "../diagnostics/colours.ts";
import { semverBump, type Change } from "./compare.ts";

const order = { breaking: 0, minor: 1, patch: 2 } as const;

/** The lines `generate --diff` prints; on a terminal a breaking change's mark is red, a compatible one's green. */
export function formatChanges(changes: readonly Change[], colours: Colours = plain): string {
  const sorted = [...changes].sort((a, b) => order[a.level] - order[b.level]);
  const mark = (level: Change["level"]) =>
    level === "breaking" ? colours.red(colours.bold("BREAKING")) : colours.green(level);
  const lines = sorted.map((c) => {
    const level = c.level === "breaking" ? "BREAKING" : c.level;
    const who = c.breaks.length ? `for ${c.breaks.join(" and ")}` : "";
    return `${mark(c.level)}${" ".repeat(Math.max(0, 9 - level.length))}${who.padEnd(30)}${c.subject}: ${c.description}`;
  });
  const count = (level: Change["level"]) => changes.filter((c) => c.level === level).length;
  const bump = semverBump(changes);
  const summary = `semver: ${bump === "major" ? colours.red(bump) : colours.green(bump)} (${count("breaking")} breaking, ${count("minor")} minor, ${count("patch")} patch)`;
  return [...(lines.length ? lines : ["no changes"]), "", summary].join("\n");
}
