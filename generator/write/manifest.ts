/**
 * The output folder's manifest: which files the generator wrote, each with the hash of its
 * bytes, and the fingerprint of the run's inputs. Files listed are the generator's own; the
 * hashes and the fingerprint let a run whose output is current stop early (`inputs.ts`).
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputFile } from "./writer.ts";

export const manifestName = ".apigen-manifest.json";

export interface Manifest {
  generator: "apigen";
  /** Fingerprint of the run's inputs (write/inputs.ts); absent when written without one. */
  inputs?: string;
  /**
   * An OpenAPI document read as the spec: the files the run read (the document and those its
   * `$ref`s reached), relative to the document's folder, which the up-to-date check hashes.
   */
  documentFiles?: string[];
  /** Hash of each file's bytes, by its path in the output folder. */
  files: Record<string, string>;
}

/**
 * A hash of a file's text, to tell whether it changed (nothing here is a security boundary):
 * SHA-1, which hashes the tens of megabytes a large spec generates in half SHA-256's time.
 */
export function contentHash(text: string | Uint8Array): string {
  return createHash("sha1").update(text).digest("hex").slice(0, 32);
}

/** The manifest of the last run in `outDir`, if it has a readable one. */
export function readManifest(outDir: string): Manifest | undefined {
  try {
    const parsed = JSON.parse(
      readFileSync(join(outDir, manifestName), "utf8"),
    ) as Partial<Manifest>;
    if (parsed.generator !== "apigen" || typeof parsed.files !== "object" || parsed.files === null)
      return undefined;
    const inputs = typeof parsed.inputs === "string" ? { inputs: parsed.inputs } : {};
    const documentFiles =
      Array.isArray(parsed.documentFiles) &&
      parsed.documentFiles.every((name) => typeof name === "string")
        ? { documentFiles: parsed.documentFiles }
        : {};
    // Manifests of earlier versions kept `{ source, output }` per file: the output hash counts.
    const files = Object.fromEntries(
      Object.entries(parsed.files as Record<string, unknown>).map(([path, entry]) => [
        path,
        typeof entry === "string" ? entry : String((entry as { output?: unknown })?.output ?? ""),
      ]),
    );
    return { generator: "apigen", ...inputs, ...documentFiles, files };
  } catch {
    return undefined;
  }
}

/**
 * A file as it is written: its UTF-8 bytes, encoded once for the manifest's hash, the
 * comparison with the output folder and the write, and its text decoded from them only when
 * something reads it (tests, which read few files). The pipeline encodes each emitter's
 * files as soon as it has printed them, so the text of GitHub's 47 MB of output, most of it
 * two bytes a character, is not kept beside its bytes until the write (peak RSS in the
 * commit that made this so).
 */
export function encodedFile(path: string, contents: string): EncodedFile {
  const bytes = Buffer.from(contents);
  return {
    path,
    bytes,
    get contents() {
      return bytes.toString("utf8");
    },
  };
}

/** An output file whose bytes are known. */
export type EncodedFile = OutputFile & { bytes: Uint8Array };

/**
 * The files of a run, each with its UTF-8 bytes (encoded here unless they already are),
 * followed by the manifest that lists them (keys sorted) and the fingerprint.
 */
export function withManifest(
  files: readonly OutputFile[],
  inputs?: string,
  documentFiles?: readonly string[],
): OutputFile[] {
  // taken as they are, not copied: a copy would read (decode) an encoded file's contents
  const encoded = files.map((file) =>
    file.bytes ? (file as EncodedFile) : encodedFile(file.path, file.contents),
  );
  const hashes = Object.fromEntries(
    [...encoded]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((file) => [file.path, contentHash(file.bytes)]),
  );
  const manifest: Manifest = {
    generator: "apigen",
    ...(inputs ? { inputs } : {}),
    ...(inputs && documentFiles ? { documentFiles: [...documentFiles] } : {}),
    files: hashes,
  };
  return [...encoded, { path: manifestName, contents: `${JSON.stringify(manifest, null, 2)}\n` }];
}
