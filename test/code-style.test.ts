/**
 * The generator prints final text: no formatter runs after it. Its style is prettier's, and
 * this holds it to that: prettier, with the repository's one configuration, leaves every
 * TypeScript, markdown and JSON file the generator writes exactly as it is, for the Merchant
 * spec, every feature fixture and the handler scaffold.
 */
import { join } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { createEmitContext } from "../generator/emit/context.ts";
import { emitHandlersScaffold } from "../generator/emit/handlers-scaffold.ts";
import { features, generateFrom } from "./helpers.ts";
import { prettierOptions, prettierParser } from "./support/prettier-style.ts";

const specs = [
  "spec",
  ...features.map((f) => `test/fixtures/features/${f}`),
  "test/fixtures/callbacks-inline",
  "test/fixtures/recursive-map-alias",
  "test/fixtures/names/members",
  "test/fixtures/names/wire",
];

/** Every file prettier judges, of a spec's package and its handler scaffold. */
async function printedFiles(specDir: string): Promise<{ path: string; contents: string }[]> {
  const result = await generateFrom(specDir);
  const files = result.files.filter(
    (f) => prettierParser(f.path) && !f.path.startsWith("src/runtime/") && !f.path.startsWith("."),
  );
  if (result.model.callbacks.length > 0) {
    const ctx = createEmitContext(result.model, `${specDir}/`);
    files.push(emitHandlersScaffold(ctx, "handlers.ts"));
  }
  return files;
}

describe("the printed style is prettier's", () => {
  it.each(specs)("prettier leaves every file of %s unchanged", async (specDir) => {
    const files = await printedFiles(specDir);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const parser = prettierParser(file.path)!;
      const formatted = await prettier.format(file.contents, { ...prettierOptions, parser });
      expect(file.contents, join(specDir, file.path)).toBe(formatted);
    }
  });
});
