/**
 * The commands that run the whole pipeline on the spec: write the package, check it is
 * current, list the gaps, scaffold callback handlers.
 */
import { resolve } from "node:path";
import { coloursOf } from "../diagnostics/colours.ts";
import { diagnostic } from "../diagnostics/diagnostic.ts";
import { formatDiagnostics } from "../diagnostics/format.ts";
import { specLabel } from "../diagnostics/display-path.ts";
import { displayPath } from "../load/load-spec.ts";
import type { PipelineResult } from "../pipeline.ts";
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
    console.error(formatDiagnostics(problems, new Map(), coloursOf("stderr")));
    return 1;
  }
  const writes = plan.added.length + plan.changed.length + plan.stale.length;
  progress.stage(`write ${writes} files to ${out}/`);
  let done;
  try {
    done = writeOutput(resolve(out), result.files, plan);
  } finally {
    progress.done();
  }
  console.log(
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
    ...(hasPendingWrite(resolve(out))
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
    console.log(upToDate(out, result.files.length, coloursOf("stdout")));
    return 0;
  }
  console.error(formatDiagnostics(differing, new Map(), coloursOf("stderr")));
  return 1;
}

export function gapsCommand(result: PipelineResult): number {
  for (const gap of result.model.gaps) {
    const l = gap.location;
    console.log(`${l.file}:${l.line}:${l.col}  ${gap.subject}: ${gap.text}`);
  }
  console.log(`\n${result.model.gaps.length} undocumented facts`);
  return 0;
}

/** The refusal when a file is already where the scaffold would go; exit code 1. */
export function refuseExisting(file: string): number {
  console.error(
    `${displayPath(file)} already exists: --scaffold-handlers never overwrites a file. Remove it or choose another path.`,
  );
  return 1;
}

/** `--scaffold-handlers FILE`: writes the handlers scaffold unless a file is there (exit 1). */
export function scaffoldCommand(
  result: PipelineResult,
  specDir: string,
  file: string,
  handlersImport: string | undefined,
): number {
  const count = result.model.callbacks.length + (result.model.webhooks?.events.length ?? 0);
  if (count === 0) {
    console.error(`the spec has no callbacks and no webhook events: no handlers to scaffold`);
    return 1;
  }
  if (writeHandlersScaffold(result.model, specLabel(specDir), file, handlersImport) === "exists")
    return refuseExisting(file);
  console.log(`${displayPath(file)}: ${count} handlers scaffolded`);
  return 0;
}
