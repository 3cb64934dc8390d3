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
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readRegularFile, readSpecFolder, type SpecFolder } from "../load/spec-folder.ts";
import {
  fetchedDocuments,
  isSpecUrl,
  maxDocumentFileBytes,
  specSourceKind,
} from "../load/spec-source.ts";
import { generatorFingerprint } from "./generator-fingerprint.ts";
import { contentHash, readManifest, type Manifest } from "./manifest.ts";
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
 * The fingerprint of a run on an OpenAPI document (the live route): the generator, the label,
 * and every file the run read (the document and each file its `$ref`s reached), by name
 * relative to the document's folder, in name order.
 */
export function documentFingerprint(
  files: ReadonlyMap<string, Uint8Array>,
  specLabel: string,
): string {
  const hash = createHash("sha1").update(generatorFingerprint()).update(`\0label\0${specLabel}`);
  for (const name of [...files.keys()].sort())
    hash.update(`\0document/${name}\0`).update(files.get(name)!);
  return hash.digest("hex").slice(0, 32);
}

/**
 * The files a document run read, read again for the up-to-date check: the fetched bytes of a
 * URL, else each named file beside the document (through the loader's guarded read); undefined
 * when one cannot be read (the full run says why).
 */
function documentFilesNow(
  spec: string,
  names: readonly string[],
): Map<string, Uint8Array> | undefined {
  const files = new Map<string, Uint8Array>();
  if (isSpecUrl(spec)) {
    const bytes = fetchedDocuments.get(spec);
    if (!bytes || names.length !== 1) return undefined;
    files.set(names[0]!, bytes);
    return files;
  }
  let folder: string;
  try {
    folder = dirname(realpathSync(spec));
  } catch {
    return undefined;
  }
  for (const name of names) {
    const bytes = readRegularFile(join(folder, name), maxDocumentFileBytes);
    if (!(bytes instanceof Uint8Array)) return undefined;
    files.set(name, bytes);
  }
  return files;
}

/** Whether a document run's recorded fingerprint is that of the files as they are now. */
function documentCurrent(manifest: Manifest, spec: string, specLabel: string): boolean {
  const names = manifest.documentFiles;
  if (!names || names.length === 0) return false;
  const files = documentFilesNow(spec, names);
  return files !== undefined && manifest.inputs === documentFingerprint(files, specLabel);
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
  if (specSourceKind(specDir) !== "folder") {
    if (!documentCurrent(manifest, specDir, specLabel)) return undefined;
  } else {
    let folder: SpecFolder;
    try {
      folder = readSpecFolder(specDir);
    } catch {
      return undefined; // no spec folder: the full run says so
    }
    if (manifest.inputs !== inputsFingerprint(specDir, folder, specLabel)) return undefined;
  }
  try {
    for (const [path, entry] of Object.entries(manifest.files)) {
      if (contentHash(readFileSync(join(outDir, path))) !== entry) return undefined;
    }
  } catch {
    return undefined; // a missing output file: the full run writes it again
  }
  return Object.keys(manifest.files).length + 1;
}
