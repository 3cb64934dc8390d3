/**
 * The order test files start in: slowest first, by the durations recorded in
 * test/support/durations.json (committed, so a clean clone in CI has them too; vitest's own
 * cache of the last run lives in node_modules and is empty there). With two workers, a long
 * file started last would run alone at the end while the other core idles; started first, the
 * short files fill in around it. A file with no recorded duration (a new one) starts before
 * the recorded ones, largest first, as vitest's own sequencer does: it may be slow, and a new
 * test that fails shows early. `APIGEN_RECORD_DURATIONS=1 npm test` refreshes the record
 * (test/summary-reporter.ts writes it).
 */
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = join(import.meta.dirname, "../..");
/** Where the durations are kept: test file (relative to the repository, `/`) to milliseconds. */
export const durationsFile = join(root, "test/support/durations.json");

/** The recorded durations; none when the file is missing or unreadable (every file is then new). */
export function recordedDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(durationsFile, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/** A test file's key in the record: its path from the repository root, with `/`. */
export function fileKey(moduleId: string): string {
  return relative(root, moduleId).split("\\").join("/");
}

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = recordedDurations();
    const weight = (spec: TestSpecification) => {
      const recorded = durations[fileKey(spec.moduleId)];
      // unknown files first (above any duration), larger before smaller
      return recorded ?? Number.MAX_SAFE_INTEGER / 2 + statSync(spec.moduleId).size;
    };
    return files
      .map((spec) => ({ spec, weight: weight(spec) }))
      .sort((a, b) => b.weight - a.weight || a.spec.moduleId.localeCompare(b.spec.moduleId))
      .map(({ spec }) => spec);
  }
}
