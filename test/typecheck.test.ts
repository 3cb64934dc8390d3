/**
 * The generated package compiles under strict settings (exactOptionalPropertyTypes
 * included) with TypeScript 6 and with the native TypeScript 7 compiler.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";
import {
  runTypeScript,
  typescript6,
  typescript7,
  type CheckOptions,
} from "./support/typescript.ts";

// The package whole, its runtime included, under its own settings. TypeScript's own lib files
// are checked by TypeScript 7, which checks them in every run; TypeScript 6 skips them, as
// the package's tsconfig.json does (test/support/typescript.ts).
const compilers = {
  "TypeScript 6": [typescript6],
  "TypeScript 7": [typescript7],
};

/** A compiler and its flags over a project of the repository (runTypeScript: TypeScript 6 on a plain `-p` in process). */
function typeCheck([tsc, ...flags]: string[], project: string, options: CheckOptions = {}) {
  return runTypeScript(tsc!, [...flags, "-p", join(repoRoot, project)], options);
}

describe.each(Object.entries(compilers))("generated package with %s", (_name, tsc) => {
  it("type-checks with no errors", () => {
    const run = typeCheck(tsc, "generated/tsconfig.json");
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("types a merchant's calls: right ones compile, wrong ones are errors", () => {
    // the package was checked by the test above, under the same settings: TypeScript 6 checks
    // the consumer's own files here (test/support/typescript.ts)
    const run = typeCheck(tsc, "test/consumer/tsconfig.json", { ownFilesOnly: true });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("generated package under a consumer's plain strict settings", () => {
  // A project that compiles the package's sources with its own tsconfig (a trial of Jira's API
  // included pkg/src) need not set exactOptionalPropertyTypes or noUncheckedIndexedAccess:
  // the package compiles without them too. TypeScript 7 alone: it is the fast one.
  it("type-checks with TypeScript 7 without exactOptionalPropertyTypes and noUncheckedIndexedAccess", () => {
    const run = typeCheck(
      [typescript7, "--exactOptionalPropertyTypes", "false", "--noUncheckedIndexedAccess", "false"],
      "generated/tsconfig.json",
    );
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
