/**
 * `--diff BASE [--fail-on LEVEL]`: compares the spec with BASE and prints every change,
 * who it breaks and the semver bump; exits 1 when a change reaches LEVEL.
 */
import { coloursOf } from "../diagnostics/colours.ts";
import { compareModels, type Change } from "../diff/compare.ts";
import { loadBaseModel, loadModel } from "../diff/load-base.ts";

export { BaseNotFound } from "../diff/load-base.ts";
import { formatChanges } from "../diff/report.ts";

const rank = { patch: 0, minor: 1, breaking: 2 } as const;

export function diffCommand(
  specDir: string,
  base: string,
  failOn: keyof typeof rank | undefined,
  texts: Map<string, string>,
): number {
  const before = loadBaseModel(base, specDir, texts);
  const after = loadModel(specDir, texts);
  const changes: Change[] = compareModels(before, after);
  console.log(formatChanges(changes, coloursOf("stdout")));
  return failOn !== undefined && changes.some((c) => rank[c.level] >= rank[failOn]) ? 1 : 0;
}
