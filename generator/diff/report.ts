/**
 * Prints a model diff: one line per change, breaking ones first; then, when it was compared,
 * the package's TypeScript surface; then the semver bump of everything.
 */
import { plain, type Colours } from "../diagnostics/colours.ts";
import { semverBump, type Change, type Level } from "./compare.ts";
import type { SurfaceChange, SurfaceReport } from "./surface/compare-surface.ts";

const order = { breaking: 0, minor: 1, patch: 2 } as const;

/** A level padded to its column; on a terminal a breaking change's mark is red, a compatible one's green. */
function levelText(level: Level, colours: Colours): string {
  const text = level === "breaking" ? "BREAKING" : level;
  const marked = level === "breaking" ? colours.red(colours.bold(text)) : colours.green(text);
  return `${marked}${" ".repeat(Math.max(0, 9 - text.length))}`;
}

const counts = (changes: readonly { level: Level }[]) => {
  const count = (level: Level) => changes.filter((c) => c.level === level).length;
  return `${count("breaking")} breaking, ${count("minor")} minor, ${count("patch")} patch`;
};

/**
 * The surface's lines: each export whose own declaration changed, then per level one line
 * for those that change only through the types they use (a removed field of `Transaction`
 * changes every function that answers one; naming them once each is enough).
 */
function surfaceLines(surface: SurfaceReport, colours: Colours): string[] {
  const sorted = [...surface.changes].sort((a, b) => order[a.level] - order[b.level]);
  const own = sorted.filter((c) => !c.indirect);
  const indirect = sorted.filter((c) => c.indirect);
  const subject = (c: SurfaceChange) => (c.name ? `${c.entry} ${c.name}` : c.entry);
  const lines = own.map((c) => `${levelText(c.level, colours)}${subject(c)}: ${c.description}`);
  for (const level of ["breaking", "minor", "patch"] as const) {
    const names = indirect.filter((c) => c.level === level).map((c) => c.name);
    if (names.length)
      lines.push(
        `${levelText(level, colours)}${names.length} more export${names.length > 1 ? "s" : ""} through the types ${names.length > 1 ? "they use" : "it uses"}: ${names.join(", ")}`,
      );
  }
  return [
    `TypeScript surface (${surface.before} -> ${surface.after}):`,
    ...(lines.length ? lines : ["no changes"]),
    `${surface.unchanged} exports unchanged`,
  ];
}

/** The lines `diff` prints. */
export function formatChanges(
  changes: readonly Change[],
  surface?: SurfaceReport,
  colours: Colours = plain,
): string {
  const sorted = [...changes].sort((a, b) => order[a.level] - order[b.level]);
  const lines = sorted.map((c) => {
    const who = c.breaks.length ? `for ${c.breaks.join(" and ")}` : "";
    return `${levelText(c.level, colours)}${who.padEnd(30)}${c.subject}: ${c.description}`;
  });
  const all = [...changes, ...(surface?.changes ?? [])];
  const bump = semverBump(surface ? all : changes);
  const bumpText = bump === "major" ? colours.red(bump) : colours.green(bump);
  const summary = surface
    ? `semver: ${bumpText} (spec: ${counts(changes)}; TypeScript surface: ${counts(surface.changes)})`
    : `semver: ${bumpText} (${counts(changes)})`;
  return [
    ...(lines.length ? lines : ["no changes"]),
    ...(surface ? ["", ...surfaceLines(surface, colours)] : []),
    "",
    summary,
  ].join("\n");
}
