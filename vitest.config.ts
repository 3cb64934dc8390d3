import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One temporary folder for the run (removed at its end), then generated/dist/ built when
    // stale for the tests of the built package and the example.
    globalSetup: ["./test/support/temp-root.ts", "./test/support/build-package.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "./test/summary-reporter.ts"],
  },
});
