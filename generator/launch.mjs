#!/usr/bin/env node
// @ts-check
/**
 * What `npm run generate` runs: the generator, started as plain JavaScript. Node 20 cannot run
 * TypeScript itself, and a TypeScript loader costs more at start-up than most runs take, so
 * generator/*.ts is bundled once by esbuild into node_modules/.cache/apigen/cli-<stamp>/ and
 * bundled again only when a source file changes (the stamp covers every source's size and
 * modification time). Dependencies stay outside the bundle and each heavy one is imported only
 * by the stage that needs it (code splitting), so a run whose output is current never loads
 * them. `node --import tsx generator/cli.ts` runs the same command line from the sources.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const generatorDir = dirname(fileURLToPath(import.meta.url));
const cacheDir = join(generatorDir, "..", "node_modules", ".cache", "apigen");

/** A stamp of every bundled source's path, size and mtime, and of this launcher's folder. */
function sourceStamp() {
  const hash = createHash("sha256").update(generatorDir);
  const entries = readdirSync(generatorDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && /\.(ts|mjs)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * An esbuild plugin that gives every module its own `import.meta.url`: the generator finds
 * its runtime sources, templates and schema relative to the file that names them, which a
 * bundle living elsewhere would otherwise break.
 * @type {import("esbuild").Plugin}
 */
const keepModuleUrls = {
  name: "keep-module-urls",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

/** CommonJS packages the bundle loads with `require`: ts-morph, whose scan is the one that costs. */
const commonJsPackages = /^ts-morph(\/|$)/;

/**
 * An esbuild plugin that loads the CommonJS packages with `require` instead of `import`.
 * Importing CommonJS from ES modules makes Node scan each module's whole source for its
 * export names first, which for ts-morph is a third of a second of every full run.
 * @type {import("esbuild").Plugin}
 */
const requireCommonJs = {
  name: "require-common-js",
  setup(build) {
    build.onResolve({ filter: commonJsPackages }, (args) =>
      // The `require` inside the stand-in module is the real one: leave it to Node.
      args.namespace === "require-common-js"
        ? { path: args.path, external: true }
        : { path: args.path, namespace: "require-common-js" },
    );
    build.onLoad({ filter: /.*/, namespace: "require-common-js" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/** Bundles generator/cli.ts into `outDir`, through a temporary folder renamed into place. */
async function bundle(outDir) {
  const { build } = await import("esbuild");
  const temp = `${outDir}.tmp-${process.pid}`;
  await build({
    entryPoints: { cli: join(generatorDir, "cli.ts") },
    outdir: temp,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "silent",
    // What `require` means inside the bundle: Node's, resolved from the bundle's folder.
    banner: {
      js: 'import { createRequire as createRequireForBundle } from "node:module"; const require = createRequireForBundle(import.meta.url);',
    },
    plugins: [keepModuleUrls, requireCommonJs],
  });
  try {
    renameSync(temp, outDir);
  } catch (error) {
    // Another run bundled the same sources first: theirs is as good as ours.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(outDir)) throw error;
  }
}

/** Removes bundles of earlier sources (best effort: a run still using one keeps working). */
function removeOldBundles(current) {
  for (const name of readdirSync(cacheDir)) {
    if (name.startsWith("cli-") && name !== current)
      rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}

const name = `cli-${sourceStamp()}`;
const outDir = join(cacheDir, name);
if (!existsSync(join(outDir, "cli.js"))) {
  mkdirSync(cacheDir, { recursive: true });
  try {
    await bundle(outDir);
  } catch (error) {
    const errors =
      /** @type {{ errors?: { text: string, location?: { file: string, line: number, column: number } }[] }} */ (
        error
      ).errors;
    const lines = errors?.map(
      (e) =>
        (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1} - ` : "") +
        e.text,
    );
    console.error(
      `the generator's own sources do not build:\n${lines?.join("\n") ?? String(error)}`,
    );
    process.exit(1);
  }
  removeOldBundles(name);
}
await import(pathToFileURL(join(outDir, "cli.js")).href);
