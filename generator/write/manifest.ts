/**
 * The output folder's manifest: which files the generator wrote, and for each the hash of
 * what the emitter produced and of what was written after formatting. Files listed are the
 * generator's own; the hashes let an unchanged file skip formatting.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const manifestName = ".apigen-manifest.json";

export interface ManifestEntry {
  /** Hash of the emitter's output before formatting. */
  source: string;
  /** Hash of the formatted bytes written. */
  output: string;
}

export interface Manifest {
  generator: "apigen";
  /** Formatter and version the output hashes were made with. */
  formatter: string;
  /** Fingerprint of the run's inputs (write/inputs.ts); absent when written without one. */
  inputs?: string;
  files: Record<string, ManifestEntry>;
}

export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
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
    return {
      generator: "apigen",
      formatter: String(parsed.formatter ?? ""),
      ...inputs,
      files: parsed.files,
    };
  } catch {
    return undefined;
  }
}

/** The manifest's own file for this run's outputs, keys sorted. */
export function manifestContents(
  formatter: string,
  entries: Record<string, ManifestEntry>,
  inputs?: string,
): string {
  const files = Object.fromEntries(
    Object.keys(entries)
      .sort()
      .map((path) => [path, entries[path]!]),
  );
  const manifest: Manifest = {
    generator: "apigen",
    formatter,
    ...(inputs ? { inputs } : {}),
    files,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
