/**
 * The handlers object is checked by the compiler: test/callbacks-types/handlers.ts uses the
 * generated router the way a merchant would (node:http, Express, Fetch) and marks each
 * mistake the compiler must catch with `@ts-expect-error`. It must type-check with
 * TypeScript 6 and 7 (so every marker is used), and without the markers each marked line
 * must be an error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

const folder = join(repoRoot, "test/callbacks-types");
const file = join(folder, "handlers.ts");
const compilers = [
  ["TypeScript 6", typescript6],
  ["TypeScript 7", typescript7],
] as const;

describe("handlers type-check", () => {
  it.each(compilers)("with %s, every @ts-expect-error being used", (_name, tsc) => {
    const run = runTypeScript(tsc, ["-p", join(folder, "tsconfig.json")], {
      runtimeDeclarations: true,
    });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("without the markers, exactly the marked lines are errors", () => {
    const source = readFileSync(file, "utf8");
    const markers = source
      .split("\n")
      .flatMap((line, i) => (line.includes("// @ts-expect-error") ? [i + 2] : []));
    expect(markers.length).toBeGreaterThanOrEqual(10);
    const stripped = source.replace(/\/\/ @ts-expect-error.*$/gm, "//");
    const config = ts.getParsedCommandLineOfConfigFile(
      join(folder, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (!config) throw new Error("tsconfig not read");
    const host = ts.createCompilerHost(config.options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, language, ...rest) =>
      name === file ? ts.createSourceFile(name, stripped, language) : read(name, language, ...rest);
    const program = ts.createProgram([file], config.options, host);
    // the diagnostics of handlers.ts alone: what getPreEmitDiagnostics gives for this file,
    // without checking the bodies of every other file of the program (the package's runtime)
    const handlers = program.getSourceFile(file)!;
    const lines = [
      ...program.getSyntacticDiagnostics(handlers),
      ...program.getSemanticDiagnostics(handlers),
    ]
      .filter((d) => d.file?.fileName === file && d.start !== undefined)
      .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
    expect([...new Set(lines)].sort((a, b) => a - b)).toEqual(markers);
  });
});
