/**
 * TypeScript 6 run in the test's own process (test/support/tsc6-in-process.ts), which most
 * type checks of the suite use, says what `tsc -p` says as a process (test/support/tsc6.cjs):
 * the same lines, paths relative to the same folder, and the same exit status, for a project
 * that type-checks, one with type errors, one with a syntax error, a missing config and a
 * project that emits. The lib files it keeps between programs do not hide a later program's
 * errors.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.ts";
import { typeCheck6InProcess } from "./support/tsc6-in-process.ts";
import { typescript6 } from "./support/typescript.ts";

const scratch = tempDir("apigen-tsc6-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project folder with these files and a strict tsconfig.json (DOM and ES2022 libs). */
function project(name: string, files: Record<string, string>, options: object = {}): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const compilerOptions = { strict: true, target: "ES2022", lib: ["ES2022", "DOM"], types: [] };
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { noEmit: true, ...compilerOptions, ...options } }),
  );
  return join(dir, "tsconfig.json");
}

/** What tsc6.cjs printed and returned as a process, run from `cwd`. */
function asProcess(config: string, cwd: string) {
  const run = spawnSync(process.execPath, [typescript6, "-p", config], { cwd, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("TypeScript 6 in process", () => {
  it("prints and returns what the process does: clean, type errors, a syntax error, no config", () => {
    const configs = [
      project("clean", { "a.ts": "export const n: number = 1;\n" }),
      project("typed", {
        "a.ts": 'export const n: number = "one";\n',
        "b.ts": 'import { n } from "./a";\nexport const s: string = n;\nfetch(1);\n',
      }),
      project("syntax", {
        "a.ts": "export const = 1;\n",
        "b.ts": 'export const n: number = "type errors are not reported beside syntax errors";\n',
      }),
      join(scratch, "missing/tsconfig.json"),
    ];
    const outcomes = configs.map((config) => {
      const inProcess = typeCheck6InProcess(config, { cwd: scratch });
      expect(inProcess, config).toEqual(asProcess(config, scratch));
      return inProcess;
    });
    expect(outcomes.map((o) => o.status)).toEqual([0, 2, 2, 1]);
    expect(outcomes[1]!.stdout).toMatch(
      /^typed\/a\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'\.$/m,
    );
    expect(outcomes[1]!.stdout.trim().split("\n")).toHaveLength(3);
    expect(outcomes[2]!.stdout).not.toMatch(/b\.ts/);
  });

  it("emits as the project says, and a folder stands for its tsconfig.json", () => {
    const config = project(
      "emits",
      { "a.ts": "export const n: number = 1;\n" },
      { noEmit: false, outDir: "out" },
    );
    const dir = join(scratch, "emits");
    expect(typeCheck6InProcess(dir)).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(join(dir, "out/a.js"))).toBe(true);
    rmSync(join(dir, "out"), { recursive: true });
    expect(typeCheck6InProcess(config, { noEmit: true }).status).toBe(0);
    expect(existsSync(join(dir, "out/a.js"))).toBe(false);
  });

  it("reports a later program's errors in the lib files' names after sharing them", () => {
    const uses = (name: string, text: string) => project(name, { "a.ts": text });
    expect(typeCheck6InProcess(uses("fine", "document.title = 'x';\n")).status).toBe(0);
    const wrong = typeCheck6InProcess(uses("wrong", "document.title = 1;\n"), { cwd: scratch });
    expect(wrong.stdout).toBe(
      "wrong/a.ts(1,1): error TS2322: Type 'number' is not assignable to type 'string'.\n",
    );
  });
});
