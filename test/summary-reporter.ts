/**
 * Prints the suite's own time (wall clock from the start of the run, the files' durations
 * added up, the worker count, the slowest files) and then one closing line,
 * `N passed, N failed, N skipped`, that CI reads as the result of the run (vitest's own
 * summary is for people). With
 * APIGEN_RECORD_DURATIONS=1 it also writes each file's duration into
 * test/support/durations.json, which test/support/sequencer.ts starts the slowest files by.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { durationsFile, fileKey, recordedDurations } from "./support/sequencer.ts";

/** How long a file took in its worker: set-up, import (collection) and its tests and hooks. */
function fileDuration(module: TestModule): number {
  const d = module.diagnostic();
  return (
    d.environmentSetupDuration +
    d.prepareDuration +
    d.collectDuration +
    d.setupDuration +
    d.duration
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class SummaryReporter implements Reporter {
  private started = performance.now();
  private workers = 1;

  onInit(vitest: Vitest): void {
    this.started = performance.now();
    this.workers = vitest.config.maxWorkers;
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
    }
    const durations = modules.map((m) => ({ file: fileKey(m.moduleId), ms: fileDuration(m) }));
    const slowest = [...durations].sort((a, b) => b.ms - a.ms).slice(0, 5);
    // The files' own durations added up: steadier than the wall time from one run to the
    // next, as it does not depend on how well the workers were kept busy.
    const total = durations.reduce((sum, d) => sum + d.ms, 0);
    process.stdout.write(
      `\nsuite: ${seconds(performance.now() - this.started)} wall, ${seconds(total)} in files, ` +
        `${modules.length} files on ` +
        `${this.workers} workers; slowest: ${slowest.map((d) => `${d.file} ${seconds(d.ms)}`).join(", ")}\n`,
    );
    if (process.env.APIGEN_RECORD_DURATIONS === "1") record(durations);
    process.stdout.write(
      `\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`,
    );
  }
}

/** Merges this run's durations into the record (a partial run keeps the other files' entries). */
function record(durations: { file: string; ms: number }[]): void {
  const root = join(import.meta.dirname, "..");
  const merged: Record<string, number> = recordedDurations();
  for (const { file, ms } of durations) merged[file] = Math.round(ms / 100) * 100;
  const kept = Object.keys(merged)
    .filter((file) => existsSync(join(root, file)))
    .sort();
  writeFileSync(
    durationsFile,
    `${JSON.stringify(Object.fromEntries(kept.map((f) => [f, merged[f]])), null, 2)}\n`,
  );
}
