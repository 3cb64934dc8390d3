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
import { spawnSync } from "node:child_process";
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

/** Bundles the generator when its sources changed since the last bundle (launch.mjs's check). */
function bundleGenerator(): void {
  const script = [
    'import { buildGenerator, builtStamp, sourceStamp } from "./generator/build.mjs";',
    "if (builtStamp() !== sourceStamp()) await buildGenerator();",
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "--eval", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0)
    throw new Error(`building the generator failed:\n${run.stdout}${run.stderr}`);
}

export default function setup(): void {
  bundleGenerator();
  if (!distIsStale()) return;
  rmSync(dist, { recursive: true, force: true });
  const run = spawnSync("npm", ["run", "build", "-w", "merchant-commerce-api"], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0)
    throw new Error(`building the generated package failed:\n${run.stdout}${run.stderr}`);
}
