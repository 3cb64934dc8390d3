/**
 * ts-morph (and the TypeScript compiler it carries) is loaded only by the commands that read
 * TypeScript: scaffold-handlers on an existing file and diff (issue 34). `generate`, `check`
 * and the up-to-date shortcut never load it: loading the compiler alone cost half a second of
 * every run when the printer went through it. Checked on the build (what `npm run generate`
 * and the installed `apigen` run), in a child process that lists, as it exits, every
 * CommonJS module it loaded (ts-morph and typescript are CommonJS: an `import` of them from
 * the bundle goes through Node's CommonJS loader and its cache too).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "./helpers.ts";

const scratch = tempDir("apigen-ts-morph-boundary-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Prints, as the process exits, every module of the CommonJS cache whose path names a compiler package. */
const probe = join(scratch, "probe.mjs");
writeFileSync(
  probe,
  [
    'import { createRequire } from "node:module";',
    "const cache = createRequire(import.meta.url).cache;",
    'process.on("exit", () => {',
    "  const loaded = Object.keys(cache).filter((p) => /[\\\\/]node_modules[\\\\/](ts-morph|@ts-morph|typescript)[\\\\/]/.test(p));",
    "  process.stderr.write(`\\nLOADED ${JSON.stringify(loaded)}\\n`);",
    "});",
    "",
  ].join("\n"),
);

/** Runs the built command line with the probe; its exit code and the compiler modules it loaded. */
function runBuilt(args: string[]): { status: number | null; output: string; loaded: string[] } {
  const result = spawnSync(
    process.execPath,
    ["--import", pathToFileURL(probe).href, join(repoRoot, "generator/launch.mjs"), ...args],
    { cwd: repoRoot, encoding: "utf8", timeout: 120_000 },
  );
  const match = /\nLOADED (.*)\n$/.exec(result.stderr);
  expect(match, result.stderr).not.toBeNull();
  return {
    status: result.status,
    output: result.stdout + result.stderr,
    loaded: JSON.parse(match![1]!) as string[],
  };
}

describe("the TypeScript compiler stays out of generate", () => {
  const out = join(scratch, "out");
  let first: ReturnType<typeof runBuilt>;
  beforeAll(() => {
    first = runBuilt(["generate", "--out", out]);
  });

  it("a full generate loads neither ts-morph nor typescript", () => {
    expect(first.output).toMatch(/out\/: \d+ added, 0 changed, 0 unchanged/);
    expect(first.status).toBe(0);
    expect(first.loaded).toEqual([]);
  });

  it("nor do the up-to-date shortcut, check and gaps", () => {
    for (const args of [
      ["generate", "--out", out],
      ["check", "--out", out],
      ["check", "--out", out, "--force"],
      ["gaps"],
    ]) {
      const run = runBuilt(args);
      expect(run.status, run.output).toBe(0);
      expect(run.loaded, args.join(" ")).toEqual([]);
    }
  });

  it("the probe sees it where it is loaded: scaffold-handlers on an existing file", () => {
    const file = join(scratch, "handlers.ts");
    expect(runBuilt(["scaffold-handlers", file]).loaded).toEqual([]); // a fresh scaffold: no
    const update = runBuilt(["scaffold-handlers", file, "--check"]);
    expect(update.output).toMatch(/handlers\.ts is current with the spec/);
    expect(update.loaded.some((p) => /[\\/]ts-morph[\\/]/.test(p))).toBe(true);
    expect(update.loaded.some((p) => /typescript\.js$/.test(p))).toBe(true);
  });

  it("in the bundle, only modules that the command line imports on demand import ts-morph", () => {
    const dist = join(repoRoot, "dist/generator");
    const files = readdirSync(dist).filter((f) => f.endsWith(".js"));
    const text = (file: string) => readFileSync(join(dist, file), "utf8");
    // the chunks cli.js loads before it runs any command: its static imports, and theirs
    const staticImports = (file: string) =>
      [...text(file).matchAll(/^import\s(?:[^;]*?from\s*)?"(\.\/[^"]+)";?$/gm)].map((m) =>
        m[1]!.slice(2),
      );
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      staticImports(file).forEach(visit);
    };
    visit("cli.js");
    expect(reached.size).toBeGreaterThan(3);
    const importsCompiler = (file: string) => /\bfrom\s*"(ts-morph|typescript)"/.test(text(file));
    expect(files.filter(importsCompiler).length).toBeGreaterThan(0);
    expect([...reached].filter(importsCompiler)).toEqual([]);
  });
});
