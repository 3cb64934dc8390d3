#!/usr/bin/env node
// @ts-check
/**
 * The package.json that `npm pack` and `npm publish` put in the tarball: the repository's
 * without its `scripts`. None of them can run where the tool is installed (they run files
 * that are not shipped: build.mjs, launch.mjs, vitest), and npm flags an installed package's
 * `prepare` as an install script to approve, though it never runs it. In the repository
 * `prepare` must stay: it is what builds the generator on `npm ci`.
 *
 * npm puts in the tarball the package.json on disk when it packs, so `prepack` runs `strip`
 * (after the build) and `postpack` runs `restore`: the file is saved in dist/ and renamed
 * back, whole. A pack that died between the two left the file stripped; the next `strip`
 * (any `npm pack`) or `restore` puts it back first.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(root, "package.json");
/** The repository's package.json while a pack runs (dist/ is not in git, nor in the tarball). */
const saved = join(root, "dist", "package.json.before-pack");

/** Puts the repository's package.json back, if a pack set it aside. */
export function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

/** Sets the repository's package.json aside and writes the one the tarball carries. */
export function strip() {
  restore();
  const text = readFileSync(manifest, "utf8");
  const { scripts: _scripts, ...packed } = JSON.parse(text);
  mkdirSync(dirname(saved), { recursive: true });
  writeFileSync(saved, text);
  const next = `${manifest}.packing`;
  writeFileSync(next, `${JSON.stringify(packed, null, 2)}\n`);
  renameSync(next, manifest);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === "strip") strip();
  else if (step === "restore") restore();
  else {
    console.error("usage: node generator/pack-manifest.mjs strip|restore");
    process.exitCode = 2;
  }
}
