/**
 * Command line: `npm run generate -- [--spec DIR] [--out DIR] [--check | --gaps | --watch |
 * --diff BASE | --scaffold-handlers FILE] [--timings]`. A broken spec prints its
 * diagnostics and exits 1 without writing; never a stack trace.
 */
import { existsSync } from "node:fs";
import { DiagnosticsError } from "./diagnostics/diagnostic.ts";
import { formatDiagnostics } from "./diagnostics/format.ts";
import { diffCommand } from "./commands/diff-command.ts";
import { parseOptions, usage, UsageError, type CliOptions } from "./commands/options.ts";
import { checkCommand, gapsCommand, printTimings, refuseExisting, scaffoldCommand, writeCommand } from "./commands/pipeline-commands.ts";
import { watchCommand } from "./commands/watch-command.ts";
import { displayPath } from "./load/load-spec.ts";
import { runPipeline, type SpecTexts } from "./pipeline.ts";

/** Runs the mode that needs the pipeline's result. */
async function runWithPipeline(options: CliOptions, sources: SpecTexts, started: number): Promise<number> {
  const result = await runPipeline(options, sources);
  const out = displayPath(options.outDir);
  const mode = options.mode;
  let code: number;
  switch (mode.kind) {
    case "write":
      code = writeCommand(result, out);
      break;
    case "check":
      code = checkCommand(result, out);
      break;
    case "gaps":
      code = gapsCommand(result);
      break;
    case "scaffold":
      code = await scaffoldCommand(result, options.specDir, mode.file, mode.handlersImport);
      break;
    case "watch":
    case "diff":
      throw new Error(`${mode.kind} does not run the pipeline once`);
    default: {
      const unhandled: never = mode;
      throw new Error(`unhandled mode ${JSON.stringify(unhandled)}`);
    }
  }
  if (options.timings) printTimings(result, performance.now() - started);
  return code;
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
  if (mode.kind === "scaffold" && existsSync(mode.file)) return refuseExisting(mode.file);
  const sources: SpecTexts = { texts: new Map() };
  try {
    if (mode.kind === "watch") return await watchCommand(options.specDir, options.outDir);
    if (mode.kind === "diff") return diffCommand(options.specDir, mode.base, mode.failOn, sources.texts);
    return await runWithPipeline(options, sources, started);
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
