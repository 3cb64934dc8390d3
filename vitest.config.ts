import { defineConfig } from "vitest/config";
import SlowestFirstSequencer from "./test/support/sequencer.ts";

// What the tests start (the CLI, tsc, publint) prints plain text whatever the caller's terminal
// asks: CI sets FORCE_COLOR, and CI itself, which turns colour on in picocolors (publint's)
// even into a pipe; an escape code inside a diagnostic breaks every test that reads one. NO_COLOR
// turns it off in all of them. The workers inherit this process's environment; the CLI runs of
// test/helpers.ts drop NO_COLOR again, and tests about colour set these themselves.
delete process.env.FORCE_COLOR;
process.env.NO_COLOR = "1";

export default defineConfig({
  test: {
    // One temporary folder for the run (removed at its end), then the generator's bundle (which
    // the tests' CLI runs start) and generated/dist/ built when stale, once, before any test.
    globalSetup: ["./test/support/temp-root.ts", "./test/support/build-package.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes (forks), two of them: many tests start servers, compilers and CLI runs.
    pool: "forks",
    // Each worker runs its files one after another in the same process, keeping the modules
    // they import (the generator, TypeScript, ts-morph, yaml, ajv) loaded between files instead
    // of loading them again for every file: about half the CPU time of the small files.
    // Every test file is still evaluated afresh; docs/test-suite.md says what this asks of a
    // test (leave no process-wide state behind: no process.env, no working folder, no
    // unrestored spy).
    include: ["test/**/*.test.ts"],
    isolate: false,
    // Two files at a time on the 2-core machine the suite is sized for (vitest's default is one
    // fewer than the cores); more where there are more cores. docs/test-suite.md has the figures.
    maxWorkers: "100%",
    // Slowest files first (by test/support/durations.json), so no long file starts last.
    sequence: { sequencer: SlowestFirstSequencer },
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
