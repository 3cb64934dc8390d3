/**
 * Parameter names that are not JavaScript identifiers as written (`default`, `options`, `2fa`,
 * `a-b` beside `a_b`, `\`) still give a package that compiles: each path or trailing
 * parameter gets a distinct, valid function parameter name (ir/casing.ts `identifierFor`,
 * build-operations.ts). Found by the loader fuzz: a parameter named `\` made the generator
 * crash instead of generating or reporting.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { identifierFor } from "../generator/ir/casing.ts";
import { writeGenerated, tempDir } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("identifierFor", () => {
  it.each([
    ["subscription_id", "subscriptionId"],
    ["default", "default_"],
    ["class", "class_"],
    ["2fa", "_2fa"],
    ["\\", "param"],
    ["If-None-Match", "ifNoneMatch"],
    ["undefined", "undefined_"],
    ["__proto__", "proto"],
  ])("%s -> %s", (given, want) => {
    expect(identifierFor(given)).toBe(want);
  });
});

describe("a spec with awkward parameter names", () => {
  it("generates distinct, valid parameter names that type-check", async () => {
    const dir = tempDir("apigen-param-identifiers-");
    made.push(dir);
    const result = await writeGenerated("test/fixtures/param-identifiers", dir);
    const endpoint = result.model.endpoints[0]!;
    expect(endpoint.params.map((p) => p.camelName)).toEqual([
      "default_",
      "options_",
      "aB",
      "_2fa",
      "aB_",
      "param",
    ]);
    const tsc = typescript6;
    const run = runTypeScript(tsc, [
      "--noEmit",
      "-p",
      join(withRuntimeDeclarations(dir), "tsconfig.json"),
    ]);
    expect(`${run.stdout}${run.stderr}`).toBe("");
    expect(run.status).toBe(0);
  }, 120_000);
});
