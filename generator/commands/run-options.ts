/**
 * Runs one pipeline mode (generate, check, gaps, watch, diff, scaffold-handlers, import) on
 * the project's spec and output folders. Everything that loads the YAML parser, Ajv or the
 * emitters is imported on demand: a run whose output is already current never pays for them.
 */
import { printErr, printOut } from "../cli-io.ts";
import { coloursOf } from "../diagnostics/colours.ts";
import { displayPath, specLabel } from "../diagnostics/display-path.ts";
import { formatDiagnostics } from "../diagnostics/format.ts";
import { runLabel, type SpecTexts } from "../pipeline.ts";
import { reachOf } from "../load/spec-source.ts";
import { currentOutputFiles } from "../write/inputs.ts";
import { upToDate, writeSummary } from "./messages.ts";
import { CommandError, type CliOptions } from "./options.ts";
import { progressLine } from "./progress.ts";
import { printTimings } from "./timings.ts";

/** Runs the mode that needs the pipeline's result. */
async function runWithPipeline(
  options: CliOptions,
  sources: SpecTexts,
  started: number,
): Promise<number> {
  const { runPipeline } = await import("../pipeline.ts");
  const commands = await import("./pipeline-commands.ts");
  const progress = progressLine();
  let result;
  try {
    result = runPipeline({ ...options, onStage: progress.stage }, sources);
  } finally {
    progress.done();
  }
  if (result.warnings.length > 0)
    printErr(formatDiagnostics(result.warnings, sources.texts, coloursOf("stderr")));
  const out = displayPath(options.outDir);
  const mode = options.mode;
  let code: number;
  switch (mode.kind) {
    case "write":
      code = commands.writeCommand(result, out, progress);
      break;
    case "check":
      code = commands.checkCommand(result, out);
      break;
    case "gaps":
      code = commands.gapsCommand(result);
      break;
    case "scaffold":
      code = await commands.scaffoldCommand(result, options.specDir, mode);
      break;
    case "watch":
    case "diff":
    case "import":
      throw new Error(`${mode.kind} does not run the pipeline once`);
    default: {
      const unhandled: never = mode;
      throw new Error(`unhandled mode ${JSON.stringify(unhandled)}`);
    }
  }
  if (options.timings) printTimings(result.timings, performance.now() - started);
  return code;
}

/**
 * The build-step case: `write` and `check` end here, before loading anything heavy, when the
 * manifest's fingerprint and hashes show the output is already what a full run would give.
 * The messages are the full run's, so nothing tells the two apart but the time.
 */
function reportIfCurrent(options: CliOptions, started: number): number | undefined {
  const { mode } = options;
  if ((mode.kind !== "write" && mode.kind !== "check") || options.force) return undefined;
  const checkStart = performance.now();
  const label = runLabel(specLabel(options.specDir), options);
  const files = currentOutputFiles(options.specDir, options.outDir, label);
  if (files === undefined) return undefined;
  const out = displayPath(options.outDir);
  const colours = coloursOf("stdout");
  printOut(
    mode.kind === "write"
      ? writeSummary(out, { added: 0, changed: 0, unchanged: files, removed: 0 }, colours)
      : upToDate(out, files, colours),
  );
  if (options.timings)
    printTimings(
      [{ stage: "up-to-date check", ms: performance.now() - checkStart }],
      performance.now() - started,
    );
  return 0;
}

/**
 * Runs `options.mode`; its exit code. A broken spec throws DiagnosticsError (the caller prints
 * it with the texts gathered in `sources`).
 */
export async function runOptions(
  options: CliOptions,
  sources: SpecTexts,
  started: number,
): Promise<number> {
  const { mode } = options;
  if (mode.kind === "watch") return (await import("./watch-command.ts")).watchCommand(options);
  if (mode.kind === "import")
    return (await import("./import-command.ts")).importCommand(mode, sources.texts);
  if (mode.kind === "diff") {
    const { diffCommand, BaseNotFound } = await import("./diff-command.ts");
    try {
      return await diffCommand(
        options.specDir,
        mode.base,
        mode.failOn,
        sources.texts,
        options.outDir,
        options.outputs,
        // a document read as every build reads it: its overlays and its `$ref`s' reach
        {
          ...reachOf(options),
          ...(options.overlays?.length ? { overlays: options.overlays } : {}),
        },
      );
    } catch (error) {
      // A base that is no spec folder and no revision is the user's to fix, not an internal error.
      if (error instanceof BaseNotFound) throw new CommandError(error.message);
      throw error;
    }
  }
  return reportIfCurrent(options, started) ?? (await runWithPipeline(options, sources, started));
}
