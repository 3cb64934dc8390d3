/**
 * The built generated package as a registry would get it: `npm pack` of generated/ after the
 * build (test/support/build-package.ts), checked by publint and by @arethetypeswrong/cli
 * (its default profile: types resolve for every entry under node10, node16 from CommonJS and
 * from ES modules, and bundler resolution, each to the build of its format), imported by name in plain Node,
 * and with a main entry whose import graph never reaches the callback router.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";

const pkgDir = join(repoRoot, "generated");
const publintBin = join(repoRoot, "node_modules/publint/src/cli.js");
const attwBin = join(repoRoot, "node_modules/@arethetypeswrong/cli/dist/index.js");
const run = (args: string[], cwd = repoRoot) =>
  spawnSync(args[0]!, args.slice(1), { cwd, encoding: "utf8", timeout: 120_000 });

let scratch: string;
let tarball: string;
let packed: string[];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "apigen-pack-"));
  // Built already by the global setup; --ignore-scripts skips the prepack rebuild.
  const pack = run(
    ["npm", "pack", "--ignore-scripts", "--json", "--pack-destination", scratch],
    pkgDir,
  );
  expect(pack.status, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(scratch, info!.filename);
  packed = info!.files.map((f) => f.path).sort();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the packed package", () => {
  it("holds dist/ (JavaScript, .d.ts, maps), the sources the maps point to, the OpenAPI files and no build settings", () => {
    for (const file of [
      "package.json",
      "README.md",
      "openapi.json",
      "openapi.yaml",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/callbacks.js",
      "dist/callbacks.d.ts",
      "dist/index.d.ts.map",
      "dist/cjs/package.json",
      "dist/cjs/index.js",
      "dist/cjs/index.d.ts",
      "dist/cjs/callbacks.js",
      "src/index.ts",
    ]) {
      expect(packed).toContain(file);
    }
    expect(
      packed.filter((f) => f.startsWith("dist/runtime/callbacks/") && f.endsWith(".js")).length,
    ).toBeGreaterThan(3);
    expect(packed.filter((f) => f.startsWith("tsconfig") || f.startsWith(".apigen"))).toEqual([]);
  });

  it("passes publint --strict with no message but the browser map's suggestion", () => {
    // the tarball itself (publint unpacks it), not the folder, which publint would pack again
    const lint = run([process.execPath, publintBin, "run", tarball, "--strict"]);
    expect(lint.stderr).toBe("");
    // publint suggests `imports` conditions for the `browser` map (the browser build's request
    // loop, docs/client.md): a `#` import would send src/'s imports of the loop through
    // package.json to dist/, which neither the type-check of src/ nor a bundle of src/ has.
    const report = lint.stdout.slice(lint.stdout.indexOf("Linting...") + 10).trim();
    const browserMap =
      /^Suggestions:\n1\. pkg\.browser with an object value can be refactored to use pkg\.exports\/pkg\.imports[^\n]*$/;
    expect(report === "All good!" || browserMap.test(report), report).toBe(true);
    expect(lint.status).toBe(0);
  });

  it("passes arethetypeswrong's default profile: each entry's types resolve under node10, node16 (CommonJS and ESM) and bundler, to the build of its format", () => {
    // openapi.yaml is a data file, not a module TypeScript can resolve.
    const attw = run([
      process.execPath,
      attwBin,
      tarball,
      "--exclude-entrypoints",
      "./openapi.yaml",
      "--format",
      "json",
    ]);
    expect(attw.status, attw.stdout.slice(0, 2000)).toBe(0);
    const { analysis } = JSON.parse(attw.stdout) as {
      analysis: {
        problems: unknown[];
        entrypoints: Record<
          string,
          {
            resolutions: Record<
              string,
              { resolution?: { fileName: string; isTypeScript: boolean } }
            >;
          }
        >;
      };
    };
    expect(analysis.problems).toEqual([]);
    const formats = {
      node10: "dist/cjs",
      "node16-cjs": "dist/cjs",
      "node16-esm": "dist",
      bundler: "dist",
    };
    for (const [entry, file] of [
      [".", "index.d.ts"],
      ["./callbacks", "callbacks.d.ts"],
      ["./testing", "testing.d.ts"],
      ["./openapi", "openapi.d.ts"],
    ] as const) {
      for (const [kind, folder] of Object.entries(formats)) {
        const resolution = analysis.entrypoints[entry]!.resolutions[kind]!.resolution!;
        expect(resolution.fileName, `${entry} under ${kind}`).toBe(
          `/node_modules/merchant-commerce-api/${folder}/${file}`,
        );
        expect(resolution.isTypeScript).toBe(true);
      }
    }
  });
});

describe("the built package in Node", () => {
  it("imports by name: the client from the main entry, the router only from /callbacks", () => {
    const script = [
      'const main = await import("merchant-commerce-api");',
      'const callbacks = await import("merchant-commerce-api/callbacks");',
      'const { default: doc } = await import("merchant-commerce-api/openapi.json", { with: { type: "json" } });',
      'const openapi = await import("merchant-commerce-api/openapi");',
      "console.log(JSON.stringify({ client: typeof main.MerchantClient, routerInMain: 'createCallbackRouter' in main, router: typeof callbacks.createCallbackRouter, same: JSON.stringify(doc) === JSON.stringify(openapi.openApiDocument), documentInMain: 'openApiDocument' in main, from: import.meta.resolve('merchant-commerce-api') }));",
    ].join("\n");
    const node = run([process.execPath, "--input-type=module", "-e", script]);
    expect(node.stderr).toBe("");
    expect(JSON.parse(node.stdout)).toEqual({
      client: "function",
      routerInMain: false,
      router: "function",
      same: true,
      documentInMain: false,
      from: expect.stringMatching(/\/generated\/dist\/index\.js$/),
    });
  });

  it("has a main entry whose import graph never reaches the callback router, the stand-in or the OpenAPI document", () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, "utf8");
      // Import and re-export statements at the start of a line (tsc keeps multi-line ones as written).
      const statements = [
        ...code.matchAll(/^(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']/gm),
        ...code.matchAll(/^import\s*["']([^"']+)["']/gm),
      ];
      for (const [, spec] of statements) {
        expect(spec!.startsWith("."), `${file} imports ${spec}`).toBe(true);
        visit(normalize(join(dirname(file), spec!)));
      }
    };
    visit(join(pkgDir, "dist/index.js"));
    const relative = [...seen].map((f) => f.slice(pkgDir.length + 1)).sort();
    expect(relative).toContain("dist/client.js");
    expect(relative.filter((f) => f.includes("callbacks"))).toEqual([]);
    expect(relative.filter((f) => f.includes("testing"))).toEqual([]);
    expect(relative.filter((f) => f.includes("openapi"))).toEqual([]);
  });

  it("exports the stand-in from /testing, built", () => {
    const script =
      'const t = await import("merchant-commerce-api/testing"); const s = t.createStandIn(); const r = await s.fetch(new Request("http://x/v1/webhooks", { method: "POST" })); console.log(JSON.stringify({ listen: typeof t.listen, status: r.status, from: import.meta.resolve("merchant-commerce-api/testing") }));';
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      listen: "function",
      status: 401,
      from: expect.stringMatching(/\/generated\/dist\/testing\.js$/),
    });
  });
});
