/**
 * Stage 5, write: compares the formatted files with what the output folder holds and
 * writes only the files whose bytes changed, each atomically (temp file, then rename).
 * Nothing is written unless every file can be: a file the user owns is never overwritten.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { bannerMarker } from "../emit/context.ts";
import { manifestName, readManifest } from "./manifest.ts";

export interface OutputFile {
  path: string;
  contents: string;
}

export interface OutputPlan {
  added: string[];
  changed: string[];
  unchanged: string[];
  /** Files of the last run that this run no longer produces. */
  stale: string[];
  /** Files in the way that the generator did not write. */
  notOwned: string[];
}

function readIfExists(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/** Files the previous run recorded in its manifest: the generator's own. */
function previousFiles(outDir: string): string[] {
  return Object.keys(readManifest(outDir)?.files ?? {});
}

/** What writing `files` into `outDir` would do. */
export function planOutput(outDir: string, files: readonly OutputFile[]): OutputPlan {
  const previous = new Set(previousFiles(outDir));
  const plan: OutputPlan = { added: [], changed: [], unchanged: [], stale: [], notOwned: [] };
  for (const file of files) {
    const current = readIfExists(join(outDir, file.path));
    if (current === undefined) plan.added.push(file.path);
    else if (current === file.contents) plan.unchanged.push(file.path);
    else if (previous.has(file.path) || file.path === manifestName || current.slice(0, 200).includes(bannerMarker)) plan.changed.push(file.path);
    else plan.notOwned.push(file.path);
  }
  const produced = new Set(files.map((f) => f.path));
  plan.stale = [...previous].filter((p) => !produced.has(p) && existsSync(join(outDir, p))).sort();
  return plan;
}

/** Carries out a plan that has no `notOwned` files. */
export function writeOutput(outDir: string, files: readonly OutputFile[], plan: OutputPlan): void {
  if (plan.notOwned.length) throw new Error("writeOutput called with files the generator does not own");
  const toWrite = new Set([...plan.added, ...plan.changed]);
  const temps: { temp: string; target: string }[] = [];
  try {
    for (const file of files) {
      if (!toWrite.has(file.path)) continue;
      const target = join(outDir, file.path);
      mkdirSync(dirname(target), { recursive: true });
      const temp = `${target}.apigen-tmp-${process.pid}`;
      writeFileSync(temp, file.contents);
      temps.push({ temp, target });
    }
  } catch (error) {
    for (const { temp } of temps) rmSync(temp, { force: true });
    throw error;
  }
  for (const { temp, target } of temps) renameSync(temp, target);
  for (const path of plan.stale) unlinkSync(join(outDir, path));
}
