/**
 * Vitest global setup: builds, before any test runs,
 * - the generator's bundle (dist/generator/, as `npm run generate` builds it when a source
 *   changed), which the tests' CLI runs use (test/helpers.ts `runCli`): built once here, so
 *   that no two workers build it at once and no test pays for it;
 * - the generated package (`npm run build -w merchant-commerce-api`, src/ to dist/ and
 *   dist/cjs/), so tests
 *   of the built package, the consumer project and the merchant example work on a clean clone
 *   after `npm ci`. Skipped when dist/ is newer than every file it is built from; a stale
 *   dist/ is removed first, so no file of an old build lingers.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");
const pkg = join(root, "generated");
const dist = join(pkg, "dist");

/** Newest modification time of the files below `dir` (and of `extra`). */
function newest(dir: string, extra: string[] = []): number {
  const times = extra.map((f) => statSync(f).mtimeMs);
  for (const path of readdirSync(dir, { recursive: true, encoding: "utf8" }))
    times.push(statSync(join(dir, path)).mtimeMs);
  return Math.max(0, ...times);
}

/** Whether dist/ is missing or older than src/ or the package's build settings. */
export function distIsStale(): boolean {
  // the build's last step: the CommonJS build's package.json, after both builds
  const marker = join(dist, "cjs/package.json");
  if (!existsSync(marker)) return true;
  const settings = ["package.json", "tsconfig.json", "tsconfig.build.json", "tsconfig.cjs.json"];
  const inputs = newest(
    join(pkg, "src"),
    settings.map((f) => join(pkg, f)),
  );
  return inputs > statSync(marker).mtimeMs;
}

/** Runs `command` in the repository; rejects with its output when it fails or outlasts 120 s. */
function run(what: string, command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: root, encoding: "utf8", timeout: 120_000 }, (error, out, err) =>
      error ? reject(new Error(`${what} failed:\n${out}${err}`)) : resolve(),
    );
  });
}

/** Bundles the generator when its sources changed since the last bundle (launch.mjs's check). */
function bundleGenerator(): Promise<void> {
  const script = [
    'import { buildGenerator, builtStamp, sourceStamp } from "./generator/build.mjs";',
    "if (builtStamp() !== sourceStamp()) await buildGenerator();",
  ].join("\n");
  return run("building the generator", process.execPath, ["--input-type=module", "--eval", script]);
}

/** Builds generated/dist/ when it is stale (the package's own `npm run build`). */
function buildGeneratedPackage(): Promise<void> {
  if (!distIsStale()) return Promise.resolve();
  rmSync(dist, { recursive: true, force: true });
  return run("building the generated package", "npm", [
    "run",
    "build",
    "-w",
    "merchant-commerce-api",
  ]);
}

/**
 * Both builds side by side (neither reads what the other writes): on a clean clone, where
 * both run, the tests start after the longer of the two (about 5 s), not after their sum.
 */
export default async function setup(): Promise<void> {
  await Promise.all([bundleGenerator(), buildGeneratedPackage()]);
}
