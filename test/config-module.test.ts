/**
 * The typed config (issue 33 item 6): `apigen.config.ts` and the other module configs read by
 * the CLI in scratch projects, `defineConfig` from the tool's own package (linked into the
 * project's node_modules, as an install puts it), several APIs in one config, and every way a
 * module config can be wrong, each reported at its line and column as the JSON file's
 * problems are, never as a stack trace.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../generator/commands/config.ts";
import { initNames, initSpecFiles } from "../generator/commands/init-spec.ts";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { displayPath } from "../generator/diagnostics/display-path.ts";
import { formatDiagnostics } from "../generator/diagnostics/format.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  // the tool's entry (dist/public/), which `import { defineConfig } from "apigen-cli"` loads
  const build = spawnSync(process.execPath, [join(repoRoot, "generator/build.mjs"), "public"], {
    encoding: "utf8",
  });
  expect(build.status, build.stderr).toBe(0);
});

/** A scratch project: package.json, a spec folder, and apigen-cli in its node_modules. */
function project(type: "module" | "commonjs" = "module"): string {
  const dir = tempDir("apigen-config-module-");
  made.push(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "shop", type }));
  mkdirSync(join(dir, "spec"));
  for (const file of initSpecFiles(initNames("shop-api"), "schema.json"))
    writeFileSync(join(dir, "spec", file.name), file.text);
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(repoRoot, join(dir, "node_modules/apigen-cli"), "dir");
  return dir;
}

/** What loadConfig reports for `file` in `dir`, printed as the CLI prints it, paths from `dir`. */
async function problemsOf(dir: string, file: string, timeoutMs?: number): Promise<string> {
  const texts = new Map<string, string>();
  try {
    await loadConfig(join(dir, file), texts, timeoutMs !== undefined ? { timeoutMs } : {});
  } catch (error) {
    if (error instanceof DiagnosticsError)
      return formatDiagnostics(error.diagnostics, texts).replaceAll(`${displayPath(dir)}/`, "");
    throw error;
  }
  return "";
}

/** The project's files, but its node_modules, so a run is seen to leave nothing behind. */
const listing = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f !== "node_modules")
    .sort();

describe("apigen.config.ts", () => {
  it("is loaded by the CLI, typed by defineConfig, its relative imports resolved beside it, and leaves no file behind", async () => {
    const dir = project();
    writeFileSync(join(dir, "folders.mjs"), 'export const folders = { out: "packages/shop" };\n');
    writeFileSync(join(dir, "folders.d.mts"), "export const folders: { out: string };\n");
    const config = (out: string) =>
      [
        'import { defineConfig, type ApiConfig } from "apigen-cli";',
        'import { folders } from "./folders.mjs";',
        "",
        `const api: ApiConfig = { spec: "spec", out: ${out}, outputs: { testing: false } };`,
        "export default defineConfig(api);",
        "",
      ].join("\n");
    writeFileSync(join(dir, "apigen.config.ts"), config("folders.out"));
    const before = listing(dir);
    const run = await runCli(["generate"], dir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^packages\/shop\/: \d+ added, 0 changed, 0 unchanged\n$/);
    expect(existsSync(join(dir, "packages/shop/src/client.ts"))).toBe(true);
    expect(existsSync(join(dir, "packages/shop/src/testing.ts"))).toBe(false);
    expect(listing(dir)).toEqual([...before, "packages"].sort());
    expect((await runCli(["check"], dir)).stdout).toMatch(/^packages\/shop\/ is up to date/);

    // What the stripper made of it is cached, by its text: an edit is never run stale.
    const cache = join(dir, "node_modules/.cache/apigen");
    expect(readdirSync(cache)).toHaveLength(1);
    writeFileSync(join(dir, "apigen.config.ts"), config('"packages/other"'));
    const edited = await runCli(["generate"], dir);
    expect(edited.stdout).toMatch(/^packages\/other\/: \d+ added/);
    expect(readdirSync(cache)).toHaveLength(2);
    expect(listing(dir)).toEqual([...before, "packages"].sort());

    // tsc checks it against the tool's declarations: a misspelt key is a type error
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "NodeNext", strict: true, noEmit: true, types: [] },
        files: ["apigen.config.ts"],
      }),
    );
    const tsc = typescript6;
    const clean = runTypeScript(tsc, ["-p", dir]);
    expect(clean.status, clean.stdout).toBe(0);
    writeFileSync(
      join(dir, "apigen.config.ts"),
      config("folders.out").replace("outputs: { testing", "outputs: { testng"),
    );
    const typo = runTypeScript(tsc, ["-p", dir]);
    expect(typo.stdout).toMatch(
      /apigen\.config\.ts\(4,\d+\): error TS2561: Object literal may only specify known properties, but 'testng' does not exist in type 'Outputs'\. Did you mean to write 'testing'\?/,
    );
  });

  it("reads .mts, .cts, .ts (by its syntax), .js (by the package's type), .mjs and .cjs: a default export, module.exports, a promise", async () => {
    const cases: [type: "module" | "commonjs", file: string, text: string, out: string][] = [
      ["module", "apigen.config.mts", 'export default { out: "a" as const };', "a"],
      [
        "module",
        "apigen.config.cts",
        'const { defineConfig } = require("apigen-cli");\nmodule.exports = defineConfig({ out: "b" as string });',
        "b",
      ],
      // a .ts config with import or export is an ES module, without them CommonJS, whatever the package says
      [
        "commonjs",
        "apigen.config.ts",
        'import { join } from "node:path";\nexport default { out: join("c") as string };',
        "c",
      ],
      [
        "module",
        "apigen.config.ts",
        'module.exports = { out: require("node:path").join("d") as string };',
        "d",
      ],
      ["module", "apigen.config.js", 'export default { out: "e" };', "e"],
      [
        "commonjs",
        "apigen.config.js",
        'module.exports = { out: require("node:path").join("f") };',
        "f",
      ],
      ["commonjs", "apigen.config.mjs", 'export default Promise.resolve({ out: "g" });', "g"],
      ["module", "apigen.config.cjs", 'module.exports = { out: "h" };', "h"],
    ];
    for (const [type, file, text, out] of cases) {
      const dir = project(type);
      writeFileSync(join(dir, file), `${text}\n`);
      const config = await loadConfig(join(dir, file), new Map());
      expect(
        config.apis.map((api) => api.out),
        `${type} ${file}`,
      ).toEqual([join(dir, out)]);
      expect(listing(dir), file).toEqual(["package.json", "spec", file].sort());
    }
  });

  it("reports a config that does not parse, throws, imports what is not there, exports nothing, or never settles, at its place (no stack)", async () => {
    const dir = project();
    const cases: [file: string, text: string, want: string][] = [
      [
        "apigen.config.ts",
        'export default {\n  spec: "spec",,\n};\n',
        [
          "apigen.config.ts:2:16 - error config-module-syntax: apigen.config.ts does not parse: Unexpected token `,`. Expected identifier, string literal, numeric literal or [ for the computed key",
          "  1 | export default {",
          '> 2 |   spec: "spec",,',
          "    |                ^",
        ].join("\n"),
      ],
      [
        "apigen.config.ts",
        [
          "const folder: string = 'pkg';",
          "",
          "function out(): string {",
          "  throw new Error(`no out for ${folder}`);",
          "}",
          "export default { spec: 'spec', out: out() };",
          "",
        ].join("\n"),
        [
          "apigen.config.ts:4:9 - error config-module-failed: apigen.config.ts failed as it ran: no out for pkg",
          "  3 | function out(): string {",
          "> 4 |   throw new Error(`no out for ${folder}`);",
          "    |         ^",
        ].join("\n"),
      ],
      [
        "apigen.config.mjs",
        "const settings = {};\nexport default { out: settings.folder.name };\n",
        "apigen.config.mjs:2:39 - error config-module-failed: apigen.config.mjs failed as it ran: TypeError: Cannot read properties of undefined (reading 'name')",
      ],
      [
        "apigen.config.ts",
        'import { defineConfig } from "apigen-cli";\nimport { folders } from "./folders.mjs";\nexport default defineConfig(folders);\n',
        "apigen.config.ts:2:25 - error config-module-failed: apigen.config.ts failed as it ran: Cannot find module 'folders.mjs' imported from apigen.config.ts",
      ],
      [
        "apigen.config.ts",
        'import { defineConfig } from "apigen-cli";\nimport { settings } from "no-such-package";\nexport default defineConfig(settings);\n',
        "apigen.config.ts:2:26 - error config-module-failed: apigen.config.ts failed as it ran: Cannot find package 'no-such-package' imported from apigen.config.ts",
      ],
      [
        "apigen.config.ts",
        'import { define } from "apigen-cli";\nexport default define({});\n',
        "apigen.config.ts:1:10 - error config-module-failed: apigen.config.ts failed as it ran: SyntaxError: The requested module 'apigen-cli' does not provide an export named 'define'",
      ],
      [
        "apigen.config.ts",
        'export const config = { spec: "spec" };\n',
        "error config-module-no-default: apigen.config.ts exports no config: end it with export default defineConfig({ ... }) (module.exports = { ... } in CommonJS)",
      ],
    ];
    for (const [file, text, want] of cases) {
      writeFileSync(join(dir, file), text);
      const run = await runCli(["generate"], dir);
      expect(run.status).toBe(1);
      expect(run.stderr.startsWith(`${want}\n`), `${run.stderr}\n\nwanted:\n${want}`).toBe(true);
      expect(run.stderr).not.toMatch(/^\s+at |\.apigen\.config|node:internal|internal error/m);
      rmSync(join(dir, file));
      expect(listing(dir)).toEqual(["package.json", "spec"]);
    }
    // a value whose reading throws (a getter of the config's own) is the config's failure too
    writeFileSync(
      join(dir, "apigen.config.mjs"),
      'export default { get spec() { throw new Error("no spec yet"); } };\n',
    );
    expect(await problemsOf(dir, "apigen.config.mjs")).toBe(
      "error config-module-failed: apigen.config.mjs failed as it ran: reading its value threw no spec yet\n\n1 error",
    );
    rmSync(join(dir, "apigen.config.mjs"));
    // a value that never settles is given a limit (here 0.2 s, 30 s by default)
    writeFileSync(
      join(dir, "apigen.config.ts"),
      "export default new Promise(() => setTimeout(() => {}, 5000));\n",
    );
    expect(await problemsOf(dir, "apigen.config.ts", 200)).toBe(
      "error config-module-timeout: apigen.config.ts did not finish within 0.2 s; a config must settle its value\n\n1 error",
    );
    expect(listing(dir)).toEqual(["apigen.config.ts", "package.json", "spec"]);
  });

  it("checks the value by the JSON file's rules, each problem at its key in the module's text", async () => {
    const dir = project();
    const data = [
      { name: "a", spec: "spec", out: "pkg/a", outputs: { testng: false, client: "no" } },
      { name: "a", spec: "spec", out: 3 },
      { sepc: "x" },
    ];
    const lines = data.map((api) => `  ${JSON.stringify(api)},`);
    writeFileSync(
      join(dir, "apigen.config.ts"),
      [
        'import { defineConfig } from "apigen-cli";',
        "",
        "export default defineConfig([",
        ...lines,
        "] as any);",
        "",
      ].join("\n"),
    );
    // the same data as JSON, on the same lines and columns
    writeFileSync(join(dir, "apigen.config.json"), `\n\n[\n${lines.join("\n").slice(0, -1)}\n]\n`);
    const fromModule = await problemsOf(dir, "apigen.config.ts");
    const fromJson = await problemsOf(dir, "apigen.config.json");
    const heads = (printed: string) => printed.split("\n").filter((l) => / - error /.test(l));
    expect(heads(fromModule)).toEqual([
      "apigen.config.ts:4:54 - error config-unknown-key: unknown key testng in outputs; did you mean testing?",
      "apigen.config.ts:4:78 - error config-wrong-value: outputs.client must be true or false, not no",
      "apigen.config.ts:5:11 - error config-duplicate: name a is given to two APIs (the first at line 4); each API has its own",
      "apigen.config.ts:5:35 - error config-wrong-value: out must be a folder path (the package folder, relative to this file), not 3",
      "apigen.config.ts:6:3 - error config-missing-key: this API has no name, spec or out: each API of an array has a name (for --api NAME), a spec and an out",
      "apigen.config.ts:6:4 - error config-unknown-key: unknown key sepc in the config file; did you mean spec?",
    ]);
    // one rule set for both files: the same problems at the same places
    expect(heads(fromJson)).toEqual(
      heads(fromModule).map((l) => l.replace("apigen.config.ts:", "apigen.config.json:")),
    );
  });
});

describe("the config's overlays", () => {
  it("are a list of file paths: anything else is refused at its value", async () => {
    const dir = project();
    const heads = async (overlays: unknown) => {
      writeFileSync(
        join(dir, "apigen.config.json"),
        `{ "spec": "openapi.yaml", "out": "pkg", "overlays": ${JSON.stringify(overlays)} }\n`,
      );
      const printed = await problemsOf(dir, "apigen.config.json");
      return printed.split("\n").filter((l) => / - error /.test(l));
    };
    const wrong = (shown: string) =>
      `apigen.config.json:1:53 - error config-wrong-value: overlays must be a list of file paths (OpenAPI Overlay 1.0 files applied to the document in order, relative to this file), not ${shown}`;
    expect(await heads("a.overlay.yaml")).toEqual([wrong("a.overlay.yaml")]);
    expect((await heads(["a.overlay.yaml", ""]))[0]).toMatch(
      /config-wrong-value: overlays must be/,
    );
    expect(await heads(["a.overlay.yaml", "b.overlay.yaml"])).toEqual([]);
  });
});

describe("several APIs in one config", () => {
  it("generate and check run every one, --api picks one, and a command of one API asks which", async () => {
    const dir = project();
    cpSync(join(dir, "spec"), join(dir, "admin-spec"), { recursive: true });
    writeFileSync(
      join(dir, "apigen.config.ts"),
      [
        'import { defineConfig } from "apigen-cli";',
        "",
        "export default defineConfig([",
        '  { name: "shop", spec: "spec", out: "packages/shop" },',
        '  { name: "admin", spec: "admin-spec", out: "packages/admin", outputs: { testing: false } },',
        "]);",
        "",
      ].join("\n"),
    );
    const all = await runCli(["generate"], dir);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toMatch(
      /^packages\/shop\/: \d+ added, 0 changed, 0 unchanged\npackages\/admin\/: \d+ added, 0 changed, 0 unchanged\n$/,
    );
    expect(existsSync(join(dir, "packages/shop/src/testing.ts"))).toBe(true);
    expect(existsSync(join(dir, "packages/admin/src/testing.ts"))).toBe(false);

    // one stale API fails the check, and the other is still checked
    const types = join(dir, "admin-spec/types.yaml");
    writeFileSync(types, readFileSync(types, "utf8").replace("One item.", "One item of the shop."));
    const check = await runCli(["check"], dir);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/^packages\/shop\/ is up to date with the spec/);
    expect(check.stderr).toMatch(
      /^error stale-output: packages\/admin\/src\/types\.ts is out of date/m,
    );

    const one = await runCli(["generate", "--api", "admin"], dir);
    expect(one.stdout).toMatch(/^packages\/admin\/: 0 added, [1-9]\d* changed, \d+ unchanged\n$/);
    expect((await runCli(["check"], dir)).status).toBe(0);

    const unknown = await runCli(["generate", "--api", "shp"], dir);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /^no API named shp in apigen\.config\.ts; its APIs: shop, admin\n/,
    );
    const gaps = await runCli(["gaps"], dir);
    expect(gaps.status).toBe(2);
    expect(gaps.stderr).toMatch(
      /^gaps runs on one API, and apigen\.config\.ts has 2 \(shop, admin\): pick one with --api NAME\n/,
    );
    expect((await runCli(["gaps", "--api", "shop"], dir)).status).toBe(0);
    const folders = await runCli(["generate", "--out", "elsewhere"], dir);
    expect(folders.status).toBe(2);
    expect(folders.stderr).toMatch(
      /^--spec, --out, --ref-root and --ref-map apply to one API, and apigen\.config\.ts has 2/,
    );
    expect(existsSync(join(dir, "elsewhere"))).toBe(false);
  });
});
