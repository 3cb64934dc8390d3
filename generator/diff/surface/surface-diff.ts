/**
 * The TypeScript surface part of `diff BASE`: which two packages to compare, and their
 * comparison. Imported on demand by the diff command alone, as it loads ts-morph and with it
 * the TypeScript compiler.
 */
import { dirname } from "node:path";
import { specSourceKind } from "../../load/spec-source.ts";
import { existsSync, statSync } from "node:fs";
import { displayPath, specLabel } from "../../diagnostics/display-path.ts";
import type { OutputSwitches } from "../../emit/shared/outputs.ts";
import type { ApiModel } from "../../ir/model.ts";
import { compareSurfaces, type SurfaceReport } from "./compare-surface.ts";
import { committedPackage, generatedPackage, type PackageSource } from "./package-source.ts";

export interface SurfaceDiffInput {
  /** BASE as given: a spec folder or a git revision. */
  base: string;
  specDir: string;
  /** The package folder, whose committed state at a revision is the base package. */
  outDir: string;
  before: ApiModel;
  after: ApiModel;
  /** The outputs the config switches on and off: the package the spec makes has those alone. */
  outputs: OutputSwitches;
}

/**
 * The base package: the package folder as committed at the revision BASE (the surface that
 * was released from there, whichever apigen made it), else what this apigen makes of the base
 * spec.
 */
function basePackage(input: SurfaceDiffInput): PackageSource {
  const { base, specDir, outDir } = input;
  const isFolder = existsSync(base) && statSync(base).isDirectory();
  // git runs in the spec's folder: a document's own folder, or none for a URL
  const kind = specSourceKind(specDir);
  const gitDir = kind === "document" ? dirname(specDir) : kind === "folder" ? specDir : undefined;
  const isRevision = !isFolder && !(existsSync(base) && statSync(base).isFile());
  const committed =
    !isRevision || gitDir === undefined
      ? undefined
      : committedPackage(gitDir, outDir, base, `${displayPath(outDir)}/ at ${base}`);
  if (committed) return committed;
  const where = isFolder
    ? `${displayPath(base)}/`
    : isRevision
      ? `the spec at ${base}`
      : displayPath(base);
  return generatedPackage(
    input.before,
    specLabel(specDir),
    `${where} as this apigen generates it`,
    input.outputs,
  );
}

/** Compares the base package's surface with the one this apigen makes from the spec now. */
export function diffSurfaces(input: SurfaceDiffInput): SurfaceReport {
  const after = generatedPackage(
    input.after,
    specLabel(input.specDir),
    `${specLabel(input.specDir)} as this apigen generates it`,
    input.outputs,
  );
  return compareSurfaces(basePackage(input), after);
}
