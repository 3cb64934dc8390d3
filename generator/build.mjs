#!/usr/bin/env node
// @ts-check
/**
 * Builds the generator ahead of time: generator/*.ts bundled by esbuild into
 * dist/generator/ (ES modules, split so each stage loads only what it imports), with a stamp
 * of the sources it was built from. `npm ci` runs it (the `prepare` script); `npm run
 * generate` runs the build (launch.mjs) and builds again only when a source changed since.
 * Node 20 cannot run TypeScript itself, and a loader costs more at start-up than a current
 * run takes.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const generatorDir = dirname(fileURLToPath(import.meta.url));
/** Where the build goes. */
export const distDir = join(generatorDir, "..", "dist", "generator");

/** A stamp of every source's path, size and mtime: it changes when a source does. */
export function sourceStamp() {
  const hash = createHash("sha256").update(generatorDir);
  const entries = readdirSync(generatorDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && /\.(ts|mjs|json)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest("hex").slice(0, 16);
}

/** The stamp the current build was made from, if there is one. */
export function builtStamp() {
  try {
    return readFileSync(join(distDir, "stamp"), "utf8").trim();
  } catch {
    return undefined;
  }
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

/**
 * Builds into a fresh folder and renames it into place, so a run never sees half a build.
 * Throws with each build error at `file:line:col` when a source does not compile.
 */
export async function buildGenerator() {
  const { build } = await import("esbuild");
  const stamp = sourceStamp();
  const temp = `${distDir}.tmp-${process.pid}`;
  try {
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
      plugins: [keepModuleUrls],
    });
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    const errors =
      /** @type {{ errors?: { text: string, location?: { file: string, line: number, column: number } }[] }} */ (
        error
      ).errors;
    const lines = errors?.map(
      (e) =>
        (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1} - ` : "") +
        e.text,
    );
    throw new Error(
      `the generator's own sources do not build:\n${lines?.join("\n") ?? String(error)}`,
    );
  }
  writeFileSync(join(temp, "stamp"), `${stamp}\n`);
  rmSync(distDir, { recursive: true, force: true });
  try {
    renameSync(temp, distDir);
  } catch (error) {
    // Another run built the same sources first: theirs is as good as ours.
    rmSync(temp, { recursive: true, force: true });
    if (builtStamp() !== stamp) throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildGenerator();
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
}
