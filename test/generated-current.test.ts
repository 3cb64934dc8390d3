/**
 * generated/ is committed: regenerating spec/ must reproduce it byte for byte, and the
 * same spec must always give the same bytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { everyOutput, withoutBytes, generateFrom, repoRoot, runCli } from "./helpers.ts";

describe("generated/", () => {
  it("is exactly what spec/ generates", async () => {
    // with the outputs apigen.config.ts switches on: every one
    const result = await generateFrom("spec", join(repoRoot, "generated"), {
      outputs: everyOutput,
    });
    for (const file of result.files) {
      const committed = readFileSync(join(repoRoot, "generated", file.path), "utf8");
      expect(committed, `generated/${file.path} is stale: run npm run generate`).toBe(
        file.contents,
      );
    }
    expect(result.plan.added).toEqual([]);
    expect(result.plan.changed).toEqual([]);
    expect(result.plan.stale).toEqual([]);
  });

  it("comes out byte-identical from two runs", async () => {
    const first = await generateFrom("spec", undefined, { outputs: everyOutput });
    const second = await generateFrom("spec", undefined, { outputs: everyOutput });
    expect(withoutBytes(second.files)).toEqual(withoutBytes(first.files));
  });

  it("passes `generate --check`", async () => {
    const run = await runCli(["--check"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/generated\/ is up to date/);
  });
});
