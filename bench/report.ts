/** Writes docs/benchmarks.md from the sections of one `npm run bench` run. */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem, platform, release } from "node:os";
import { join } from "node:path";
import { root } from "./proc.ts";
import type { Section } from "./stats.ts";

function version(pkg: string): string {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8"))
      .version;
  } catch {
    return "not installed";
  }
}

/**
 * Puts one section, measured by its own bench file's run, in place of the section of the same
 * title in docs/benchmarks.md (the rest of the report as the last `npm run bench` wrote it).
 */
export function replaceSection(section: Section): void {
  const file = join(root, "docs/benchmarks.md");
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(`## ${section.title}\n`);
  if (start < 0) throw new Error(`docs/benchmarks.md has no section "${section.title}"`);
  const next = text.indexOf("\n## ", start + 1);
  const end = next < 0 ? text.length : next + 1;
  writeFileSync(file, text.slice(0, start) + sectionLines(section).join("\n") + text.slice(end));
}

/** How long each step took, against the run's budget. */
export interface Budget {
  budgetS: number;
  steps: [string, number][];
}

/** One section of the report: its heading, its table and its notes, then a blank line. */
export function sectionLines(s: Section, lead?: string): string[] {
  const lines = [`## ${s.title}`, ""];
  if (lead) lines.push(lead, "");
  lines.push(
    "| measurement | median (min, max, runs) | target | met / missed |",
    "| --- | --- | --- | --- |",
  );
  for (const r of s.rows)
    lines.push(`| ${r.label} | ${r.value} | ${r.target ?? ""} | ${r.verdict ?? ""} |`);
  lines.push("");
  for (const n of s.notes ?? []) lines.push(`- ${n.replace(/\|/g, "\\|")}`);
  if (s.notes?.length) lines.push("");
  return lines;
}

export function writeReport(
  sections: Section[],
  notMeasured: string[],
  totalMs: number,
  budget?: Budget,
): string {
  const pkgs = [
    "typescript",
    "typescript7",
    "tsx",
    "openapi-typescript",
    "@hey-api/openapi-ts",
    "orval",
    "openapi-fetch",
    "esbuild",
    "yaml",
  ];
  const lines = [
    "# Benchmarks",
    "",
    "Written by `npm run bench` (bench/run-all.ts); do not edit by hand. Targets are those of issue 7. Every figure is the median, with min, max and the run count.",
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${platform()} ${release()}`,
    `- Node ${process.version}; ${pkgs.map((p) => `${p} ${version(p)}`).join(", ")}`,
    `- Whole bench run: ${(totalMs / 1000).toFixed(0)} s${budget ? ` (budget ${budget.budgetS} s: ${totalMs / 1000 <= budget.budgetS ? "met" : "missed"}); ${budget.steps.map(([n, s]) => `${n} ${s.toFixed(0)} s`).join(", ")}` : ""}`,
    "",
  ];
  for (const s of sections) lines.push(...sectionLines(s));
  if (notMeasured.length) {
    lines.push("## Not measured", "");
    for (const n of notMeasured) lines.push(`- ${n}`);
    lines.push("");
  }
  const text = lines.join("\n");
  writeFileSync(join(root, "docs/benchmarks.md"), text);
  return text;
}
