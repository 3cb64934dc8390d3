/**
 * apigen as an API team uses it: `npm pack` here, the tarball installed into a fresh project
 * (its other packages from the npm registry), then `apigen init`, `npm run generate`, `apigen
 * check`, `npm run build` in the package folder (TypeScript comes in as apigen's peer), and a
 * consumer that type-checks against the built package and calls a stand-in server on
 * 127.0.0.1; then a spec edit, regenerated, built and seen by the consumer. Everything lives
 * in one scratch folder, removed at the end (npm's logs and temporary files included).
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "./helpers.ts";
import { filesUnder } from "./support/shared-runtime.ts";

const scratch = tempDir("apigen-packed-");
const project = join(scratch, "project");
/** npm's logs and every tool's temporary files go to the scratch folder, not the system's. */
const env = {
  // none of this repository's npm settings (its .npmrc sets legacy-peer-deps): a user's shell
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  TMPDIR: join(scratch, "tmp"),
  npm_config_logs_dir: join(scratch, "npm-logs"),
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
};

/** Runs a command in `cwd`; fails the test with its output when it exits non-zero. */
function runBoth(cwd: string, command: string, args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 240_000 });
  const output = `${command} ${args.join(" ")}\n${result.stdout}${result.stderr}`;
  expect(result.status, output).toBe(0);
  return result;
}

/** Runs a command in `cwd`, its standard output; fails the test when it exits non-zero. */
function run(cwd: string, command: string, args: string[]): string {
  return runBoth(cwd, command, args).stdout;
}

const apigen = (...args: string[]) => run(project, join(project, "node_modules/.bin/apigen"), args);
const npm = (...args: string[]) => run(project, "npm", args);
const install = ["install", "--prefer-offline", "--no-audit", "--no-fund"];

/** The stand-in server: GET /items/{id} with the right key answers an item. */
let server: Server;
let baseUrl: string;
const item = { id: "item-7", name: "Lamp", price_cents: 1999, color: "teal" };

beforeAll(async () => {
  mkdirSync(join(scratch, "tmp"), { recursive: true });
  server = createServer((req, res) => {
    const ok = req.url === "/items/item-7" && req.headers["x-api-key"] === "key-1";
    res.writeHead(ok ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(ok ? item : { error: `${req.method} ${req.url}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/** Type-checks and builds the consumer (src/ -> out/), then runs it against the stand-in server. */
async function consume(source: string): Promise<string> {
  writeFileSync(join(project, "src/main.ts"), source);
  run(project, join(project, "node_modules/.bin/tsc"), ["-p", "."]);
  const { stdout } = await promisify(execFile)(process.execPath, ["out/main.js", baseUrl], {
    cwd: project,
    env,
  });
  return stdout;
}

describe("the packed tool in a project of its own", () => {
  it("installs, inits, generates, checks, builds, is consumed, and regenerates a spec edit", async () => {
    const manifest = readFileSync(join(repoRoot, "package.json"));
    const packed = JSON.parse(
      run(repoRoot, "npm", ["pack", "--json", "--pack-destination", scratch]),
    ) as [{ filename: string; files: { path: string }[] }];
    // the tarball's package.json has no scripts: none runs outside the repository, and npm
    // asks to approve an installed package's `prepare` (issue 30 item 14); the repository
    // keeps its own, byte for byte
    const tarball = join(scratch, packed[0].filename);
    const packedManifest = JSON.parse(
      run(scratch, "tar", ["-xzOf", tarball, "package/package.json"]),
    );
    expect(packedManifest.scripts).toBeUndefined();
    expect(packedManifest.bin).toEqual({ apigen: "generator/bin.mjs" });
    expect(readFileSync(join(repoRoot, "package.json"))).toEqual(manifest);
    expect(existsSync(join(repoRoot, "dist/package.json.before-pack"))).toBe(false);
    const shipped = packed[0].files.map((f) => f.path);
    expect(shipped).toContain("generator/schema/spec.schema.json");
    expect(shipped).toContain("generator/runtime/client/core.ts");
    expect(shipped).toContain("templates/package.json.hbs");
    expect(shipped).toContain("dist/generator/cli.js");
    // `import { defineConfig } from "apigen-cli"`, for ES modules and CommonJS, with types for each
    for (const file of ["config.js", "config.cjs", "config.d.ts", "config.d.cts"])
      expect(shipped).toContain(`dist/public/${file}`);
    expect(shipped.filter((p) => /^generator\/(?!runtime\/).*\.ts$/.test(p))).toEqual([]);
    // the tool's own package.json as npm and registries read it (bin, files, engines, exports),
    // in the tarball itself (publint on the folder would pack it again)
    expect(
      run(scratch, join(repoRoot, "node_modules/.bin/publint"), ["run", tarball, "--strict"]),
    ).toMatch(/All good!/);
    expect(run(scratch, join(repoRoot, "node_modules/.bin/attw"), [tarball])).toMatch(
      /No problems found/,
    );

    mkdirSync(join(project, "src"), { recursive: true });
    const pkg = { name: "shop", version: "1.0.0", private: true, type: "module" };
    writeFileSync(join(project, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    const installed = runBoth(project, "npm", [...install, "-D", tarball, "@types/node@20.19.25"]);
    expect(installed.stdout + installed.stderr).not.toMatch(/install-scripts|prepare|apigen-cli@/);
    const tool = JSON.parse(
      readFileSync(join(project, "node_modules/apigen-cli/package.json"), "utf8"),
    ) as { dependencies: object; bin: object };
    // ts-morph (which carries its own TypeScript) reads TypeScript for scaffold-handlers and
    // diff; @swc/wasm-typescript (Node's own stripper, pure WebAssembly) runs a TypeScript config;
    // jsonpath-rfc9535 (no dependencies) selects the targets of import's overlays
    expect(Object.keys(tool.dependencies).sort()).toEqual([
      "@swc/wasm-typescript",
      "ajv",
      "js-yaml",
      "jsonpath-rfc9535",
      "ts-morph",
      "yaml",
    ]);
    // no loader, no bundler where it runs; TypeScript arrived as the peer, for the build
    expect(existsSync(join(project, "node_modules/tsx"))).toBe(false);
    expect(existsSync(join(project, "node_modules/esbuild"))).toBe(false);
    expect(existsSync(join(project, "node_modules/typescript"))).toBe(true);

    expect(apigen("init")).toMatch(
      /^spec\/: api\.yaml, types\.yaml, endpoints\.yaml, callbacks\.yaml \(shop-api\)$/m,
    );
    expect(readFileSync(join(project, "spec/api.yaml"), "utf8")).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/node_modules\/apigen-cli\/generator\/schema\/spec\.schema\.json\n/,
    );
    expect(npm("run", "generate")).toMatch(/^generated\/: \d+ added, 0 changed, 0 unchanged$/m);
    expect(apigen("check")).toMatch(/^generated\/ is up to date with the spec/);
    npm("run", "build", "--prefix", "generated");
    npm(...install, "./generated");
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          target: "ES2022",
          strict: true,
          outDir: "out",
          rootDir: "src",
          types: ["node"],
        },
        include: ["src"],
      }),
    );
    const main = (fields: string) =>
      [
        'import { ShopClient, type Item } from "shop-api";',
        'const client = new ShopClient({ baseUrl: process.argv[2]!, apiKey: "key-1" });',
        'const item: Item = await client.items.get("item-7");',
        `console.log(${fields});`,
        "",
      ].join("\n");
    expect(await consume(main("item.name, item.price_cents"))).toBe("Lamp 1999\n");
    // the merchant's handlers, scaffolded once; the spec as it is now, kept to diff against
    expect(apigen("scaffold-handlers", "src/handlers.ts")).toMatch(
      /handlers\.ts: 1 handlers scaffolded/,
    );
    cpSync(join(project, "spec"), join(project, "spec-before"), { recursive: true });

    // A field added to the spec reaches the consumer's types after generate and build.
    const types = join(project, "spec/types.yaml");
    writeFileSync(
      types,
      readFileSync(types, "utf8").replace(
        "    fields:\n",
        "    fields:\n      color: { type: string, required: true }\n",
      ),
    );
    expect(npm("run", "generate")).toMatch(
      /^generated\/: 0 added, [1-9]\d* changed, \d+ unchanged$/m,
    );
    expect(readFileSync(join(project, "generated/src/types.ts"), "utf8")).toMatch(
      /^ {2}color: string;$/m,
    );
    // a callback added: the handlers file gains its stub in place, and still compiles (consume)
    const callbacks = join(project, "spec/callbacks.yaml");
    const changed = readFileSync(callbacks, "utf8").split("\n  item.changed:")[1]!;
    writeFileSync(
      callbacks,
      `${readFileSync(callbacks, "utf8")}  item.removed:${changed.replace("/item-changed", "/item-removed")}`,
    );
    expect(npm("run", "generate")).toMatch(/^generated\/: \d+ added, [1-9]\d* changed/m);
    expect(apigen("scaffold-handlers", "src/handlers.ts")).toMatch(
      /^ {2}added callback "item\.removed": stub itemRemoved, /m,
    );
    expect(apigen("scaffold-handlers", "src/handlers.ts", "--check")).toMatch(
      /is current with the spec/,
    );
    // diff sees both edits in the spec and in the package's TypeScript surface
    const diff = apigen("diff", "spec-before");
    expect(diff).toMatch(/^minor {4}shop-api Item: changed compatibly \(consumers read it\)$/m);
    expect(diff).toMatch(/^minor {4}\d+ more exports through the types they use: .*ShopClient/m);
    // a handler that must now be written: the handlers type breaks those who write it
    expect(diff).toMatch(
      /^BREAKING shop-api\/callbacks CallbackHandlers: consumers write it; .*Property '"item\.removed"' is missing/m,
    );
    expect(diff).toMatch(
      /^semver: major \(spec: 1 breaking, 1 minor, 0 patch; TypeScript surface: /m,
    );
    npm("run", "build", "--prefix", "generated");
    expect(await consume(main("item.name, item.color"))).toBe("Lamp teal\n");
    expect(apigen("check")).toMatch(/is up to date/);

    // A typed config (issue 33 item 6): tsc checks it against the installed declarations,
    // and the installed CLI runs it: in an ES module project, in a CommonJS one (the same
    // file, typed by the CommonJS declarations), and as CommonJS JavaScript.
    const manifestFile = join(project, "package.json");
    const esmManifest = readFileSync(manifestFile, "utf8");
    const configs: [type: string, file: string, text: string, testing: boolean][] = [
      [
        "module",
        "apigen.config.ts",
        'import { defineConfig } from "apigen-cli";\n\nexport default defineConfig({ spec: "spec", out: "generated", outputs: { testing: false } });\n',
        false,
      ],
      [
        "commonjs",
        "apigen.config.ts",
        'import { defineConfig } from "apigen-cli";\n\nexport default defineConfig([{ name: "shop", spec: "spec", out: "generated" }]);\n',
        true,
      ],
      [
        "commonjs",
        "apigen.config.cjs",
        'const { defineConfig } = require("apigen-cli");\n\nmodule.exports = defineConfig([{ name: "shop", spec: "spec", out: "generated", outputs: { testing: false } }]);\n',
        false,
      ],
    ];
    const tsc = join(project, "node_modules/.bin/tsc");
    for (const [type, file, text, testing] of configs) {
      writeFileSync(manifestFile, esmManifest.replace('"type": "module"', `"type": "${type}"`));
      writeFileSync(join(project, file), text);
      if (file.endsWith(".ts")) {
        writeFileSync(
          join(project, "tsconfig.config.json"),
          JSON.stringify({
            compilerOptions: { module: "NodeNext", strict: true, noEmit: true, types: [] },
            files: [file],
          }),
        );
        run(project, tsc, ["-p", "tsconfig.config.json"]);
        writeFileSync(join(project, file), text.replace('spec: "spec"', 'sepc: "spec"'));
        const typo = spawnSync(tsc, ["-p", "tsconfig.config.json"], {
          cwd: project,
          env,
          encoding: "utf8",
        });
        expect(typo.stdout).toMatch(
          /error TS\d+: Object literal may only specify known properties, .*'sepc' does not exist in type '(ApiConfig|ApigenConfig)'/,
        );
        writeFileSync(join(project, file), text);
      }
      const generated = apigen("generate");
      expect(generated).toMatch(
        testing
          ? /^generated\/: [1-9]\d* added, \d+ changed, \d+ unchanged$/m
          : /^generated\/: 0 added, \d+ changed, \d+ unchanged, [1-9]\d* removed$/m,
      );
      expect(existsSync(join(project, "generated/src/testing.ts"))).toBe(testing);
      expect(apigen("check", ...(text.includes("name:") ? ["--api", "shop"] : []))).toMatch(
        /is up to date/,
      );
      rmSync(join(project, file));
    }
    writeFileSync(manifestFile, esmManifest);
  }, 600_000);

  it("builds, with the lowest TypeScript its peer range allows, a package that uses every runtime module", () => {
    const peer = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
      peerDependencies: { typescript: string };
    };
    expect(peer.peerDependencies.typescript).toBe(">=5.9.0");
    const dir = join(scratch, "lowest-typescript");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "name": "lowest", "private": true }\n');
    run(dir, "npm", [...install, "typescript@5.9.3"]);
    // streams, paging, expansion, conditional requests, callbacks and webhooks: every runtime
    // file a package can carry (shown below), in one package (test/fixtures/every-runtime), so
    // that TypeScript 5.9 checks the runtime once, not once per feature's package. Run in the
    // project's folder: the repository's apigen.config.ts (every output on, the integrations'
    // peers among them) is not its config.
    run(dir, process.execPath, [
      join(repoRoot, "generator/launch.mjs"),
      "--spec",
      join(repoRoot, "test/fixtures/every-runtime"),
      "--out",
      join(dir, "every-runtime"),
    ]);
    // every runtime module but the integrations' (their peers, msw and TanStack Query, are not
    // installed here: test/msw.test.ts and test/tanstack-query.test.ts build them)
    const carried = new Set(filesUnder(join(dir, "every-runtime/src/runtime")));
    const shipped = filesUnder(join(repoRoot, "generator/runtime")).filter(
      (path) => !/^(msw|tanstack)\//.test(path),
    );
    expect(shipped.filter((path) => !carried.has(path))).toEqual([]);
    // the package's own build (its `npm run build`: ES modules, then CommonJS), both in one
    // compiler process (build mode), which starts TypeScript 5.9 once. The ES build checks
    // every file of the package (its tsconfig.json leaves TypeScript's own lib files out,
    // `skipDefaultLibCheck`); the CommonJS build checks nothing (`noCheck`, as the package says).
    run(dir, join(dir, "node_modules/.bin/tsc"), [
      "-b",
      "every-runtime/tsconfig.build.json",
      "every-runtime/tsconfig.cjs.json",
    ]);
    for (const built of ["dist/index.js", "dist/cjs/index.js"])
      expect(existsSync(join(dir, "every-runtime", built)), built).toBe(true);
  }, 300_000);
});
