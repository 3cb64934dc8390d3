/**
 * Command line: `npm run generate -- [--spec DIR] [--out DIR] [--check | --gaps | --watch |
 * --diff BASE | --scaffold-handlers FILE] [--timings]`. A broken spec prints its
 * diagnostics and exits 1 without writing; never a stack trace.
 */
import { existsSync } from "node:fs";
import { DiagnosticsError } from "./diagnostics/diagnostic.ts";
import { displayPath, specLabel } from "./diagnostics/display-path.ts";
import { formatDiagnostics } from "./diagnostics/format.ts";
import { parseOptions, usage, UsageError, type CliOptions } from "./commands/options.ts";
import type { SpecTexts } from "./pipeline.ts";
import { upToDate, writeSummary } from "./commands/messages.ts";
import { printTimings } from "./commands/timings.ts";
import { currentOutputFiles } from "./write/inputs.ts";

// Everything that loads the YAML parser, Ajv or the emitters is imported on demand:
// a run whose output is already current, or a usage error, never pays for them.

/** Runs the mode that needs the pipeline's result. */
async function runWithPipeline(
  options: CliOptions,
  sources: SpecTexts,
  started: number,
): Promise<number> {
  const { runPipeline } = await import("./pipeline.ts");
  const commands = await import("./commands/pipeline-commands.ts");
  const result = runPipeline(options, sources);
  if (result.warnings.length > 0) console.error(formatDiagnostics(result.warnings, sources.texts));
  const out = displayPath(options.outDir);
  const mode = options.mode;
  let code: number;
  switch (mode.kind) {
    case "write":
      code = commands.writeCommand(result, out);
      break;
    case "check":
      code = commands.checkCommand(result, out);
      break;
    case "gaps":
      code = commands.gapsCommand(result);
      break;
    case "scaffold":
      code = commands.scaffoldCommand(result, options.specDir, mode.file, mode.handlersImport);
      break;
    case "watch":
    case "diff":
    case "import":
    case "mock":
    case "trigger":
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
  const files = currentOutputFiles(options.specDir, options.outDir, specLabel(options.specDir));
  if (files === undefined) return undefined;
  const out = displayPath(options.outDir);
  console.log(
    mode.kind === "write"
      ? writeSummary(out, { added: 0, changed: 0, unchanged: files, removed: 0 })
      : upToDate(out, files),
  );
  if (options.timings)
    printTimings(
      [{ stage: "up-to-date check", ms: performance.now() - checkStart }],
      performance.now() - started,
    );
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const started = performance.now();
  let options: CliOptions | undefined;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage}`);
    return 2;
  }
  if (!options) {
    console.log(usage);
    return 0;
  }
  const { mode } = options;
  if (mode.kind === "scaffold" && existsSync(mode.file))
    return (await import("./commands/pipeline-commands.ts")).refuseExisting(mode.file);
  const sources: SpecTexts = { texts: new Map() };
  try {
    if (mode.kind === "watch")
      return await (
        await import("./commands/watch-command.ts")
      ).watchCommand(options.specDir, options.outDir);
    if (mode.kind === "mock" || mode.kind === "trigger")
      return await (await import("./commands/stand-in-commands.ts")).standInCommand(options);
    if (mode.kind === "import")
      return (await import("./commands/import-command.ts")).importCommand(mode, sources.texts);
    if (mode.kind === "diff")
      return (await import("./commands/diff-command.ts")).diffCommand(
        options.specDir,
        mode.base,
        mode.failOn,
        sources.texts,
      );
    return reportIfCurrent(options, started) ?? (await runWithPipeline(options, sources, started));
  } catch (error) {
    if (error instanceof DiagnosticsError) {
      console.error(formatDiagnostics(error.diagnostics, sources.texts));
      return 1;
    }
    console.error(`${mode.kind === "diff" ? "" : "internal error: "}${(error as Error).message}`);
    if (process.env.APIGEN_DEBUG) console.error((error as Error).stack);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
