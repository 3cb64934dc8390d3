/**
 * The generated package compiles under strict settings (exactOptionalPropertyTypes
 * included) with TypeScript 6 and with the native TypeScript 7 compiler.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";

const compilers = {
  "TypeScript 6": [join(repoRoot, "node_modules/typescript/bin/tsc")],
  "TypeScript 7": [join(repoRoot, "node_modules/typescript7/bin/tsc")],
};

describe.each(Object.entries(compilers))("generated package with %s", (_name, [tsc]) => {
  it("type-checks with no errors", () => {
    const run = spawnSync(process.execPath, [tsc!, "-p", join(repoRoot, "generated/tsconfig.json")], { encoding: "utf8" });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
