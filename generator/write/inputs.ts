/**
 * The fingerprint of everything a run's output depends on: the spec folder's files, the
 * generator's own sources and templates, the versions of the packages that shape its output,
 * and the spec label printed in banners. The manifest records it; when it is unchanged
 * and every file the manifest lists is on disk with the bytes it recorded, the output is
 * current and the run can stop before loading the spec (the build-step case).
 *
 * The spec folder is listed and read by the loader's own `readSpecFolder`, so this check and
 * the loader always agree on what the spec is (symbolic links followed, FIFOs never opened).
 * Only `node:` modules and the light diagnostics are imported here: the point is to answer
 * without loading the YAML parser or the emitters.
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { readSpecFolder, type SpecFolder } from "../load/spec-folder.ts";
import { generatorFingerprint } from "./generator-fingerprint.ts";
import { contentHash, readManifest } from "./manifest.ts";
import { hasPendingWrite } from "./staging.ts";

/**
 * The fingerprint of a run on the spec folder `folder` (as the loader lists and reads it)
 * whose banners name the spec `specLabel`; undefined when a file could not be read (loading
 * then reports why, and a run with problems records no fingerprint).
 */
export function inputsFingerprint(
  specDir: string,
  folder: SpecFolder,
  specLabel: string,
): string | undefined {
  if (folder.problems.length > 0) return undefined;
  // SHA-1, as contentHash: a change detector, read over every spec byte at each run
  const hash = createHash("sha1").update(generatorFingerprint()).update(`\0label\0${specLabel}`);
  for (const source of folder.sources) {
    hash.update(`\0spec/${relative(specDir, source.path).split(sep).join("/")}\0`);
    // CRLF is read as LF, so a Windows checkout agrees; latin1 maps every byte to one character.
    // A file without a carriage return is hashed as it is, the same bytes without the two
    // copies (--timings on GitHub's API: fingerprint 55-60 ms for 6 MB of spec).
    if (source.bytes.includes(0x0d))
      hash.update(Buffer.from(source.bytes).toString("latin1").replaceAll("\r\n", "\n"), "latin1");
    else hash.update(source.bytes);
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * The number of files (manifest included) when `outDir` already holds exactly what a run
 * would write, judged by the fingerprint and the recorded hashes alone; undefined otherwise.
 */
export function currentOutputFiles(
  specDir: string,
  outDir: string,
  specLabel: string,
): number | undefined {
  const manifest = readManifest(outDir);
  // A write that was cut off (or is under way) is finished or reported by the full run.
  if (!manifest?.inputs || hasPendingWrite(outDir)) return undefined;
  let folder: SpecFolder;
  try {
    folder = readSpecFolder(specDir);
  } catch {
    return undefined; // no spec folder: the full run says so
  }
  if (manifest.inputs !== inputsFingerprint(specDir, folder, specLabel)) return undefined;
  try {
    for (const [path, entry] of Object.entries(manifest.files)) {
      if (contentHash(readFileSync(join(outDir, path))) !== entry) return undefined;
    }
  } catch {
    return undefined; // a missing output file: the full run writes it again
  }
  return Object.keys(manifest.files).length + 1;
}
