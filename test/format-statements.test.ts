/**
 * Watch formats TypeScript a statement at a time, reusing what earlier runs formatted. That
 * must give exactly the bytes of formatting the whole file, for every emitted TypeScript file
 * of every feature fixture and of the Merchant spec.
 */
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import type { EmittedFile } from "../generator/emit/context.ts";
import { createEmitContext } from "../generator/emit/context.ts";
import { emitters } from "../generator/emit/emitters.ts";
import { prettierOptions } from "../generator/write/format.ts";
import { StatementMemo } from "../generator/write/format-statements.ts";
import { features, generateFrom, tempDir } from "./helpers.ts";

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
    for (const file of merchant) memo.learn(file.contents, await formatWhole(file.contents));
    // Everything known: not one statement is formatted again.
    for (const file of merchant) {
      const again = await memo.format(file.contents, () =>
        Promise.reject(new Error(`${file.path}: a known statement was formatted again`)),
      );
      expect(again, file.path).toBe(await formatWhole(file.contents));
    }
    // Each feature's files with one statement replaced by an unseen one: it alone is formatted.
    let formattedAlone = 0;
    let piecedFiles = 0;
    for (const feature of features) {
      for (const file of await emittedTypeScript(`test/fixtures/features/${feature}`)) {
        memo.learn(file.contents, await formatWhole(file.contents));
        const edited = file.contents.replace(
          /\n(export (?:interface|type|function|const) )(\w+)/,
          "\n$1Edited$2",
        );
        const pieced = await memo.format(edited, (text) => (formattedAlone++, formatWhole(text)));
        if (pieced === undefined) continue; // a file of one or two statements: one edit is most of it
        expect(pieced, `${feature}: ${file.path}`).toBe(await formatWhole(edited));
        piecedFiles++;
      }
    }
    expect(piecedFiles).toBeGreaterThanOrEqual(features.length * 3); // types, validators, client at least
    expect(formattedAlone).toBeGreaterThanOrEqual(features.length * 3);
  });

  it("formats a file that is mostly new whole (answers undefined), and learns nothing from a file it cannot pair", async () => {
    const memo = new StatementMemo();
    expect(
      await memo.format("export const a = 1;\nexport const b = 2;\n", () =>
        Promise.reject(new Error("not called")),
      ),
    ).toBeUndefined();
    memo.learn("export const a = 1;\n", "export const a = 1;\nexport const b = 2;\n");
    expect(memo.empty).toBe(true);
  });

  it("keeps its memory between runs of the command line, per formatter", async () => {
    const dir = tempDir();
    const memo = StatementMemo.load(join(dir, "memo.json"), "prettier x");
    memo.learn("export const a   = 1\n", "export const a = 1;\n");
    memo.save();
    const loaded = StatementMemo.load(join(dir, "memo.json"), "prettier x");
    expect(
      await loaded.format("export const a   = 1\n", () => Promise.reject(new Error("not called"))),
    ).toBe("export const a = 1;\n");
    expect(StatementMemo.load(join(dir, "memo.json"), "prettier y").empty).toBe(true);
    expect(StatementMemo.load(join(dir, "missing.json"), "prettier x").empty).toBe(true);
  });
});
