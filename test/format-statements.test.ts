/**
 * Watch formats TypeScript a statement at a time, reusing what earlier runs formatted. That
 * must give exactly the bytes of formatting the whole file, for every emitted TypeScript file
 * of every feature fixture and of the Merchant spec.
 */
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import type { EmittedFile } from "../generator/emit/context.ts";
import { createEmitContext } from "../generator/emit/context.ts";
import { emitters } from "../generator/emit/emitters.ts";
import { prettierOptions } from "../generator/write/format.ts";
import { StatementMemo } from "../generator/write/format-statements.ts";
import { features, generateFrom } from "./helpers.ts";

/** The emitted (unformatted) TypeScript files of a spec folder. */
async function emittedTypeScript(specDir: string): Promise<EmittedFile[]> {
  const { model } = await generateFrom(specDir);
  const ctx = createEmitContext(model, `${specDir}/`);
  return emitters.flatMap((e) => [e.emit(ctx)].flat()).filter((f) => f.parser === "typescript");
}

const formatWhole = (text: string) => format(text, { ...prettierOptions, parser: "babel-ts" });

describe("statement-at-a-time formatting", () => {
  it("gives the whole-file bytes, from memory and for new statements", async () => {
    const merchant = await emittedTypeScript("spec");
    const memo = new StatementMemo();
    for (const file of merchant) memo.learn(file.path, file.contents, await formatWhole(file.contents));
    // Everything known: not one statement is formatted again.
    for (const file of merchant) {
      const again = await memo.format(file.path, file.contents, () => Promise.reject(new Error(`${file.path}: a known statement was formatted again`)));
      expect(again, file.path).toBe(await formatWhole(file.contents));
    }
    // Another spec's files under the same paths: mostly new statements, each formatted alone.
    let formattedAlone = 0;
    for (const feature of features) {
      for (const file of await emittedTypeScript(`test/fixtures/features/${feature}`)) {
        if (!memo.knows(file.path)) memo.learn(file.path, "", "");
        const pieced = await memo.format(file.path, file.contents, (text) => (formattedAlone++, formatWhole(text)));
        expect(pieced, `${feature}: ${file.path}`).toBe(await formatWhole(file.contents));
      }
    }
    expect(formattedAlone).toBeGreaterThan(100);
  });
});
