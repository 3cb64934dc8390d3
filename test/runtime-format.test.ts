/**
 * The runtime is copied into every package as it is, so its sources must already be in the
 * style of every generated file: the one prettier leaves unchanged.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { runtimeModules } from "../generator/emit/runtime-files.ts";
import { repoRoot } from "./helpers.ts";
import { prettierOptions } from "./support/prettier-style.ts";

const runtimeDir = join(repoRoot, "generator/runtime");
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : [relative(runtimeDir, join(dir, e.name))],
  );

describe("generator/runtime", () => {
  it("copies every runtime source into the package", () => {
    expect([...runtimeModules].sort()).toEqual(sources(runtimeDir).sort());
  });

  it.each(sources(runtimeDir))(
    "%s is formatted in the style of the generated files",
    async (name) => {
      const text = readFileSync(join(runtimeDir, name), "utf8");
      expect(await prettier.format(text, { ...prettierOptions, parser: "typescript" })).toBe(text);
    },
  );
});
