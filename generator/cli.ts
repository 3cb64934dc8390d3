/**
 * Command line: `npm run generate [-- --spec DIR --out DIR --check --gaps --timings --scaffold-handlers FILE]`.
 * A broken spec prints its diagnostics and exits 1 without writing; never a stack trace.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DiagnosticsError, diagnostic } from "./diagnostics/diagnostic.ts";
import { formatDiagnostics } from "./diagnostics/format.ts";
import { displayPath } from "./load/load-spec.ts";
import { runPipeline, type PipelineResult, type SpecTexts } from "./pipeline.ts";
import { writeHandlersScaffold } from "./write/scaffold.ts";
import { writeOutput } from "./write/writer.ts";

const usage = `Usage: npm run generate -- [options]

  --spec DIR    spec folder to read (default: spec)
  --out DIR     package folder to write (default: generated)
  --check       write nothing; exit 1 listing the files that differ from the spec
  --gaps        list every undocumented note of the spec with its location
  --timings     print the time of each stage
  --scaffold-handlers FILE  write a typed callback handlers file (never overwrites one), not the package
  --handlers-import SPEC    module the scaffold imports from (default: <package name>/callbacks)
  --help        show this text`;

interface CliOptions {
  specDir: string;
  outDir: string;
  check: boolean;
  gaps: boolean;
  timings: boolean;
  scaffoldHandlers?: string;
  handlersImport?: string;
}

function parseOptions(argv: string[]): CliOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      spec: { type: "string", default: "spec" },
      out: { type: "string", default: "generated" },
      check: { type: "boolean", default: false },
      gaps: { type: "boolean", default: false },
      timings: { type: "boolean", default: false },
      "scaffold-handlers": { type: "string" },
      "handlers-import": { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) return undefined;
  const scaffold = values["scaffold-handlers"] !== undefined ? { scaffoldHandlers: resolve(values["scaffold-handlers"]) } : {};
  const handlersImport = values["handlers-import"] !== undefined ? { handlersImport: values["handlers-import"] } : {};
  return { specDir: resolve(values.spec), outDir: resolve(values.out), check: values.check, gaps: values.gaps, timings: values.timings, ...scaffold, ...handlersImport };
}

function printGaps(result: PipelineResult): void {
  for (const gap of result.model.gaps) {
    const l = gap.location;
    console.log(`${l.file}:${l.line}:${l.col}  ${gap.subject}: ${gap.text}`);
  }
  console.log(`\n${result.model.gaps.length} undocumented facts`);
}

function printTimings(result: PipelineResult, totalMs: number): void {
  for (const t of result.timings) console.error(`${t.stage.padEnd(16)} ${t.ms.toFixed(1).padStart(8)} ms`);
  console.error(`${"total".padEnd(16)} ${totalMs.toFixed(1).padStart(8)} ms`);
}

/** Exit code 1 when the output folder does not match the spec. */
function check(result: PipelineResult, out: string): number {
  const { plan } = result;
  const differing = [
    ...plan.added.map((p) => diagnostic("stale-output", { file: `${out}/${p}`, state: "missing" })),
    ...[...plan.changed, ...plan.notOwned].map((p) => diagnostic("stale-output", { file: `${out}/${p}`, state: "out of date" })),
    ...plan.stale.map((p) => diagnostic("stale-output", { file: `${out}/${p}`, state: "no longer generated" })),
  ];
  if (differing.length === 0) {
    console.log(`${out}/ is up to date with the spec (${result.files.length} files)`);
    return 0;
  }
  console.error(formatDiagnostics(differing, new Map()));
  return 1;
}

/** The refusal when a file is already where the scaffold would go; exit code 1. */
function refuseExisting(file: string): number {
  console.error(`${displayPath(file)} already exists: --scaffold-handlers never overwrites a file. Remove it or choose another path.`);
  return 1;
}

/** `--scaffold-handlers FILE`: writes the handlers scaffold unless a file is there (exit 1). */
async function scaffold(result: PipelineResult, options: CliOptions, file: string): Promise<number> {
  const shown = displayPath(file);
  if (result.model.callbacks.length === 0) {
    console.error(`the spec has no callbacks: no handlers to scaffold`);
    return 1;
  }
  if ((await writeHandlersScaffold(result.model, `${displayPath(options.specDir)}/`, file, options.handlersImport)) === "exists") return refuseExisting(file);
  console.log(`${shown}: ${result.model.callbacks.length} handlers scaffolded`);
  return 0;
}

function write(result: PipelineResult, out: string): number {
  const { plan } = result;
  if (plan.notOwned.length) {
    const problems = plan.notOwned.map((p) => diagnostic("output-not-owned", { file: `${out}/${p}` }));
    console.error(formatDiagnostics(problems, new Map()));
    return 1;
  }
  writeOutput(resolve(out), result.files, plan);
  const removed = plan.stale.length ? `, ${plan.stale.length} removed` : "";
  console.log(`${out}/: ${plan.added.length} added, ${plan.changed.length} changed, ${plan.unchanged.length} unchanged${removed}`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const started = performance.now();
  let options: CliOptions | undefined;
  try {
    options = parseOptions(argv);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (!options) {
    console.log(usage);
    return 0;
  }
  if (options.scaffoldHandlers && existsSync(options.scaffoldHandlers)) return refuseExisting(options.scaffoldHandlers);
  const sources: SpecTexts = { texts: new Map() };
  try {
    const result = await runPipeline(options, sources);
    const out = displayPath(options.outDir);
    const code = options.scaffoldHandlers ? await scaffold(result, options, options.scaffoldHandlers) : options.gaps ? (printGaps(result), 0) : options.check ? check(result, out) : write(result, out);
    if (options.timings) printTimings(result, performance.now() - started);
    return code;
  } catch (error) {
    if (error instanceof DiagnosticsError) {
      console.error(formatDiagnostics(error.diagnostics, sources.texts));
      return 1;
    }
    console.error(`internal error: ${(error as Error).message}`);
    if (process.env.APIGEN_DEBUG) console.error((error as Error).stack);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
