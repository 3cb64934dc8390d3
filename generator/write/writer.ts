/**
 * Stage 5, write: compares the formatted files with what the output folder holds and
 * writes only the files whose bytes changed. Nothing is written unless every file can be: a
 * file the user owns is never overwritten.
 *
 * A write survives being killed at any moment (see docs/security.md, "The generator"): the
 * new files are first written in full to a staging folder (`.apigen-staging/` in the output
 * folder, which also marks the folder as being written), then a journal listing every rename
 * is committed, then each file is renamed into place. Every file is therefore always either
 * old or new, and a later run finishes a committed write or drops an uncommitted one
 * before it does anything else (`staging.ts`).
 */
import { Buffer } from "node:buffer";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { bannerMarker } from "../emit/context.ts";
import { manifestName, readManifest } from "./manifest.ts";
import { claimOutput } from "./staging.ts";

export interface OutputFile {
  path: string;
  /** The text; a file with `bytes` decodes it from them when read (`encodedFile`). */
  readonly contents: string;
  /** The contents as UTF-8, when already encoded (for the manifest's hash): compared and written as they are. */
  bytes?: Uint8Array;
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

/** The bytes of a file, or undefined when there is none (a folder in the way counts as changed). */
function readIfExists(path: string): Buffer | undefined {
  if (!existsSync(path)) return undefined;
  return statSync(path).isFile() ? readFileSync(path) : Buffer.alloc(0);
}

/**
 * Whether a file's first 200 characters hold the banner. They lie within its first 800
 * bytes (at most 3 bytes a UTF-16 unit), so only those are decoded.
 */
function hasBanner(bytes: Buffer): boolean {
  return bytes.subarray(0, 800).toString("utf8").slice(0, 200).includes(bannerMarker);
}

/** Files the previous run recorded in its manifest: the generator's own. */
function previousFiles(outDir: string): string[] {
  return Object.keys(readManifest(outDir)?.files ?? {});
}

/**
 * Whether `path` in `outDir` is a file the user keeps: there, and neither listed by the last
 * run's manifest nor starting with the banner.
 */
export function isUsersFile(outDir: string, path: string): boolean {
  const current = readIfExists(join(outDir, path));
  return current !== undefined && !previousFiles(outDir).includes(path) && !hasBanner(current);
}

/** What writing `files` into `outDir` would do. */
export function planOutput(outDir: string, files: readonly OutputFile[]): OutputPlan {
  const previous = new Set(previousFiles(outDir));
  const plan: OutputPlan = { added: [], changed: [], unchanged: [], stale: [], notOwned: [] };
  for (const file of files) {
    const current = readIfExists(join(outDir, file.path));
    // Bytes against bytes: an encoded file's text is not kept (manifest.ts, encodedFile).
    if (current === undefined) plan.added.push(file.path);
    else if (current.equals(file.bytes ?? Buffer.from(file.contents)))
      plan.unchanged.push(file.path);
    else if (previous.has(file.path) || file.path === manifestName || hasBanner(current))
      plan.changed.push(file.path);
    else plan.notOwned.push(file.path);
  }
  const produced = new Set(files.map((f) => f.path));
  plan.stale = [...previous].filter((p) => !produced.has(p) && existsSync(join(outDir, p))).sort();
  return plan;
}

/**
 * Carries out a plan that has no `notOwned` files, and returns the plan carried out: when an
 * earlier run was killed while writing, its write is finished or dropped first and the plan
 * is made again over what that leaves. Throws DiagnosticsError when another run is writing
 * the folder or a file cannot be written (the folder is then as it was).
 */
export function writeOutput(
  outDir: string,
  files: readonly OutputFile[],
  plan: OutputPlan,
): OutputPlan {
  if (plan.notOwned.length)
    throw new Error("writeOutput called with files the generator does not own");
  const claim = claimOutput(outDir);
  try {
    const carried = claim.recovered ? planOutput(outDir, files) : plan;
    if (carried.notOwned.length)
      throw new Error("writeOutput: a file the generator does not own appeared while it recovered");
    const toWrite = new Set([...carried.added, ...carried.changed]);
    claim.write(
      files.filter((f) => toWrite.has(f.path)),
      carried.stale,
    );
    return carried;
  } finally {
    claim.release();
  }
}
