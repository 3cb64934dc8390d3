/**
 * `--diff BASE [--fail-on LEVEL]`: compares the spec with BASE and prints every change,
 * who it breaks, the changes of the package's TypeScript surface and the semver bump; exits 1
 * when a change reaches LEVEL.
 */
import { existsSync } from "node:fs";
import { fromCwd, printOut } from "../cli-io.ts";
import { coloursOf } from "../diagnostics/colours.ts";
import { compareModels, type Change } from "../diff/compare.ts";
import { loadBaseModel, loadModel, type DocumentSource } from "../diff/load-base.ts";
import type { OutputSwitches } from "../emit/shared/outputs.ts";

export { BaseNotFound } from "../diff/load-base.ts";
import { formatChanges } from "../diff/report.ts";

const rank = { patch: 0, minor: 1, breaking: 2 } as const;

export async function diffCommand(
  specDir: string,
  base: string,
  failOn: keyof typeof rank | undefined,
  texts: Map<string, string>,
  outDir: string,
  outputs: OutputSwitches,
  source: DocumentSource = {},
): Promise<number> {
  // BASE is a folder or a document relative to the run's working folder when there is one, else a revision
  base = existsSync(fromCwd(base)) ? fromCwd(base) : base;
  const before = loadBaseModel(base, specDir, texts, source);
  const after = loadModel(specDir, texts, source);
  const changes: Change[] = compareModels(before, after);
  // the package's TypeScript surface (ts-morph, loaded by this command alone)
  const { diffSurfaces } = await import("../diff/surface/surface-diff.ts");
  const surface = diffSurfaces({ base, specDir, outDir, before, after, outputs });
  printOut(formatChanges(changes, surface, coloursOf("stdout")));
  const all = [...changes, ...surface.changes];
  return failOn !== undefined && all.some((c) => rank[c.level] >= rank[failOn]) ? 1 : 0;
}
