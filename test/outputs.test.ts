/**
 * The outputs a config switches on and off (issue 33 item 6): an output that is off leaves
 * out its files, its entry in the package's exports and its README section, and nothing
 * else; the rest still type-checks and keeps prettier's style; the default is the package as
 * it always was (generated/ is made with every output on); and switching an output is a
 * change the up-to-date shortcut sees.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as prettier from "prettier";
import { afterAll, describe, expect, it } from "vitest";
import { outputDefaults, type OutputSwitches } from "../generator/emit/shared/outputs.ts";
import { runPipeline } from "../generator/pipeline.ts";
import { repoRoot, runCli, tempDir, withoutBytes } from "./helpers.ts";
import { prettierOptions, prettierParser } from "./support/prettier-style.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Callbacks, webhooks and endpoints: every output has something to leave out. */
const specDir = join(repoRoot, "test/fixtures/features/operations");

function generate(outputs: Partial<OutputSwitches>) {
  const outDir = tempDir("apigen-outputs-");
  made.push(outDir);
  const result = runPipeline({ specDir, outDir, outputs: { ...outputDefaults, ...outputs } });
  return { ...result, outDir };
}

const paths = (files: readonly { path: string }[]) => files.map((f) => f.path);
const text = (files: readonly { path: string; contents: string }[], path: string) =>
  files.find((f) => f.path === path)!.contents;

describe("outputs", () => {
  const all = generate({});

  it("by default are every output but the integrations with a peer dependency: the package as the spec alone gives it", () => {
    const off = Object.entries(outputDefaults).filter(([, on]) => !on);
    expect(off.map(([name]) => name)).toEqual(["msw", "tanstackQuery"]);
    const unset = runPipeline({ specDir, outDir: all.outDir });
    expect(withoutBytes(unset.files)).toEqual(withoutBytes(all.files));
  });

  // given the output switched off, want the files that go (by prefix) and the exports that go;
  // the stand-in's deliveries keep the signer (callbacks/schemes.ts, base64.ts), the form
  // writer (callbacks/form.ts) and the redactor (client/redact.ts) while testing is on
  const table: [keyof OutputSwitches, RegExp, string[], string][] = [
    [
      "client",
      /^src\/(client|client-features|errors|request-validators(\.browser)?)\.ts$|^src\/runtime\/client\/(?!redact\.ts$)/,
      ["./client-features"],
      "## Client",
    ],
    [
      "callbacks",
      /^src\/callbacks\.ts$|^src\/runtime\/callbacks\/(?!(schemes|base64|form)\.ts$)/,
      ["./callbacks"],
      "## Callbacks",
    ],
    [
      "openapi",
      /^openapi\.(json|yaml)$|^src\/openapi\.ts$/,
      ["./openapi", "./openapi.json", "./openapi.yaml"],
      "## OpenAPI",
    ],
    ["testing", /^src\/testing\.ts$|^src\/runtime\/testing\//, ["./testing"], "## A stand-in"],
  ];

  it.each(table)(
    "%s off leaves out its files, exports and README section, nothing else",
    async (output, files, exports, section) => {
      const off = generate({ [output]: false });
      const gone = paths(all.files).filter((p) => !paths(off.files).includes(p));
      expect(gone.length).toBeGreaterThan(0);
      expect(gone.filter((p) => !files.test(p))).toEqual([]);
      expect(paths(off.files).filter((p) => files.test(p))).toEqual([]);
      const before = JSON.parse(text(all.files, "package.json")) as { exports: object };
      const after = JSON.parse(text(off.files, "package.json")) as { exports: object };
      expect(Object.keys(before.exports).filter((e) => !(e in after.exports))).toEqual(exports);
      expect(text(all.files, "README.md")).toContain(section);
      expect(text(off.files, "README.md")).not.toContain(section);
      for (const file of off.files.filter(
        (f) => prettierParser(f.path) && !f.path.startsWith("src/runtime/"),
      )) {
        const parser = prettierParser(file.path)!;
        const formatted = await prettier.format(file.contents, { ...prettierOptions, parser });
        expect(file.contents, `${output} off: ${file.path}`).toBe(formatted);
      }
    },
  );

  it("msw on adds its entry, its runtime folder, msw as an optional peer, and its README section", () => {
    const on = generate({ msw: true });
    const added = paths(on.files).filter((p) => !paths(all.files).includes(p));
    expect(added.sort()).toEqual(["src/msw.ts", "src/runtime/msw/handlers.ts"]);
    const pkg = JSON.parse(text(on.files, "package.json")) as Record<
      string,
      Record<string, unknown>
    >;
    expect(pkg.exports!["./msw"]).toEqual({
      require: { types: "./dist/cjs/msw.d.ts", default: "./dist/cjs/msw.js" },
      default: { types: "./dist/msw.d.ts", default: "./dist/msw.js" },
    });
    expect(pkg.peerDependencies).toEqual({ msw: "^2.0.0" });
    expect(pkg.peerDependenciesMeta).toEqual({ msw: { optional: true } });
    expect(pkg.dependencies).toBeUndefined();
    // the version the package builds with is the one this repository tests with
    const ours = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies!.msw).toBe(ours.devDependencies.msw);
    expect(text(on.files, "README.md")).toContain("## msw handlers");
    expect(JSON.parse(text(all.files, "package.json"))).not.toHaveProperty("peerDependencies");
  });

  it("a package without its client is its types, and one with its client alone type-checks", () => {
    const tsc = typescript6;
    const packages = [
      generate({ client: false }),
      generate({ callbacks: false, openapi: false, testing: false }),
    ];
    expect(text(packages[0]!.files, "src/index.ts")).toMatch(
      /^export type \* from "\.\/types\.js";\n$/m,
    );
    expect(text(packages[0]!.files, "src/index.ts")).not.toMatch(/client|errors/);
    for (const { files, outDir } of packages) {
      for (const file of files) {
        mkdirSync(dirname(join(outDir, file.path)), { recursive: true });
        writeFileSync(join(outDir, file.path), file.contents);
      }
      const run = runTypeScript(tsc, [
        "-p",
        join(withRuntimeDeclarations(outDir), "tsconfig.json"),
      ]);
      expect(run.status, run.stdout).toBe(0);
    }
  }, 120_000);

  it("switched in the config regenerate the package, never taken for current (the fingerprint knows them)", async () => {
    const dir = tempDir("apigen-outputs-cli-");
    made.push(dir);
    writeFileSync(join(dir, "package.json"), '{ "name": "shop" }\n');
    cpSync(specDir, join(dir, "spec"), { recursive: true });
    const config = (outputs: object) =>
      writeFileSync(join(dir, "apigen.config.json"), JSON.stringify({ out: "pkg", outputs }));
    config({});
    expect((await runCli(["generate"], dir)).status).toBe(0);
    expect(existsSync(join(dir, "pkg/src/testing.ts"))).toBe(true);
    config({ testing: false });
    const check = await runCli(["check"], dir);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/pkg\/src\/testing\.ts is no longer generated/);
    const off = await runCli(["generate"], dir);
    expect(off.stdout).toMatch(
      /^pkg\/: 0 added, [1-9]\d* changed, \d+ unchanged, [1-9]\d* removed\n$/,
    );
    expect(existsSync(join(dir, "pkg/src/testing.ts"))).toBe(false);
    expect((await runCli(["check"], dir)).status).toBe(0);
    config({ testing: true });
    expect((await runCli(["generate"], dir)).stdout).toMatch(/^pkg\/: [1-9]\d* added/);
    expect(existsSync(join(dir, "pkg/src/testing.ts"))).toBe(true);
  });
});
