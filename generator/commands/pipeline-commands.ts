/**
 * The commands that run the whole pipeline on the spec: write the package, check it is
 * current, list the gaps, scaffold callback handlers.
 */
import { fromCwd, printErr, printOut } from "../cli-io.ts";
import { existsSync } from "node:fs";
import { coloursOf } from "../diagnostics/colours.ts";
import { diagnostic } from "../diagnostics/diagnostic.ts";
import { formatDiagnostics } from "../diagnostics/format.ts";
import { specLabel } from "../diagnostics/display-path.ts";
import { displayPath } from "../load/load-spec.ts";
import type { PipelineResult } from "../pipeline.ts";
import type { GapNote } from "../ir/model.ts";
import { writeHandlersScaffold } from "../write/scaffold.ts";
import { hasPendingWrite } from "../write/staging.ts";
import { writeOutput } from "../write/writer.ts";
import { upToDate, writeSummary } from "./messages.ts";
import { noProgress, type Progress } from "./progress.ts";

/** Writes the changed files; exit 1 (nothing written) when a file in the way is the user's. */
export function writeCommand(
  result: PipelineResult,
  out: string,
  progress: Progress = noProgress,
): number {
  const { plan } = result;
  if (plan.notOwned.length) {
    const problems = plan.notOwned.map((p) =>
      diagnostic("output-not-owned", { file: `${out}/${p}` }),
    );
    printErr(formatDiagnostics(problems, new Map(), coloursOf("stderr")));
    return 1;
  }
  const writes = plan.added.length + plan.changed.length + plan.stale.length;
  progress.stage(`write ${writes} files to ${out}/`);
  let done;
  try {
    done = writeOutput(fromCwd(out), result.files, plan);
  } finally {
    progress.done();
  }
  printOut(
    writeSummary(
      out,
      {
        added: done.added.length,
        changed: done.changed.length,
        unchanged: done.unchanged.length,
        removed: done.stale.length,
      },
      coloursOf("stdout"),
    ),
  );
  return 0;
}

/** Exit code 1 when the output folder does not match the spec. */
export function checkCommand(result: PipelineResult, out: string): number {
  const { plan } = result;
  const differing = [
    ...(hasPendingWrite(fromCwd(out))
      ? [diagnostic("output-interrupted", { dir: `${out}/` })]
      : []),
    ...plan.added.map((p) => diagnostic("stale-output", { file: `${out}/${p}`, state: "missing" })),
    ...[...plan.changed, ...plan.notOwned].map((p) =>
      diagnostic("stale-output", { file: `${out}/${p}`, state: "out of date" }),
    ),
    ...plan.stale.map((p) =>
      diagnostic("stale-output", { file: `${out}/${p}`, state: "no longer generated" }),
    ),
  ];
  if (differing.length === 0) {
    printOut(upToDate(out, result.files.length, coloursOf("stdout")));
    return 0;
  }
  printErr(formatDiagnostics(differing, new Map(), coloursOf("stderr")));
  return 1;
}

export function gapsCommand(result: PipelineResult): number {
  for (const gap of gapsByPlace(result.model.gaps)) {
    const l = gap.location;
    printOut(`${l.file}:${l.line}:${l.col}  ${gap.subject}: ${gap.text}`);
  }
  printOut(`\n${result.model.gaps.length} undocumented facts`);
  return 0;
}

/** Gap notes by file, line and column: the order `--gaps` lists them in. */
function gapsByPlace(gaps: readonly GapNote[]): GapNote[] {
  return [...gaps].sort(
    (a, b) =>
      a.location.file.localeCompare(b.location.file) ||
      a.location.line - b.location.line ||
      a.location.col - b.location.col,
  );
}

/**
 * `scaffold-handlers FILE`: writes the handlers scaffold, or brings the file there up to date
 * with the spec in place (handlers-update/, which loads ts-morph: only this case pays for it);
 * with `check`, writes nothing and exits 1 when the file is missing or not current.
 */
export async function scaffoldCommand(
  result: PipelineResult,
  specDir: string,
  mode: { file: string; handlersImport?: string; check?: boolean },
): Promise<number> {
  const { file, handlersImport, check = false } = mode;
  const count = result.model.callbacks.length + (result.model.webhooks?.events.length ?? 0);
  if (count === 0) {
    printErr(`the spec has no callbacks and no webhook events: no handlers to scaffold`);
    return 1;
  }
  if (existsSync(file)) {
    const { updateHandlersFile } = await import("../handlers-update/update-file.ts");
    return updateHandlersFile(result.model, specLabel(specDir), file, handlersImport, check);
  }
  if (check) {
    printErr(
      `${displayPath(file)} does not exist: scaffold-handlers would write it (${count} handlers)`,
    );
    return 1;
  }
  if (writeHandlersScaffold(result.model, specLabel(specDir), file, handlersImport) === "exists") {
    // made between the look and the write: not ours to overwrite
    printErr(`${displayPath(file)} appeared while apigen was writing it. Nothing was written.`);
    return 1;
  }
  printOut(`${displayPath(file)}: ${count} handlers scaffolded`);
  return 0;
}
