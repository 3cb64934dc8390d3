import { defineConfig } from "vitest/config";
import SlowestFirstSequencer from "./test/support/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One temporary folder for the run (removed at its end), then the generator's bundle (which
    // the tests' CLI runs start) and generated/dist/ built when stale, once, before any test.
    globalSetup: ["./test/support/temp-root.ts", "./test/support/build-package.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes per file: many tests start servers, compilers and CLI runs of their own.
    pool: "forks",
    // Two files at a time on the 2-core machine the suite is sized for (vitest's default is one
    // fewer than the cores); more where there are more cores. docs/test-suite.md has the figures.
    maxWorkers: "100%",
    // Slowest files first (by test/support/durations.json), so no long file starts last.
    sequence: { sequencer: SlowestFirstSequencer },
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
