/**
 * Command line: `apigen [command] [arguments] [options]` (in this repository `npm run
 * generate -- ...`); the commands are in commands/table.ts. A broken spec or config file
 * prints its diagnostics and exits 1 without writing; a bad command line prints the help and
 * exits 2; never a stack trace.
 *
 * `main` runs one command line against the io it is given (cli-io.ts) and gives back the exit
 * status; `runAsProcess` is the bin entry's, with the process's own io. Run as a script
 * (`node --import tsx generator/cli.ts`), this module is the bin entry itself.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliIo, printErr, printOut, processIo, withIo, type CliIo } from "./cli-io.ts";
import { commandHelp, readCommandLine, CommandLineError } from "./commands/command-line.ts";
import { reportFailure } from "./commands/failure.ts";
import { UsageError } from "./commands/options.ts";
import { fetchSpecDocuments, forgetSpecDocuments, projectApis } from "./commands/project-apis.ts";

export type { CliIo, OutputStream } from "./cli-io.ts";

/** Runs the command line `argv` with `io`; its exit status. */
export function main(argv: readonly string[], io: CliIo): Promise<number> {
  return withIo(io, () => run(argv));
}

async function run(argv: readonly string[]): Promise<number> {
  const started = performance.now();
  const texts = new Map<string, string>();
  let line;
  try {
    line = readCommandLine(argv);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    printErr(`${error.message}\n\n${error.help}`);
    return 2;
  }
  if (line.kind === "help") {
    printOut(line.text);
    return 0;
  }
  const { command, values, positionals } = line;
  let apis: Parameters<typeof fetchSpecDocuments>[0] = [];
  try {
    const project = await projectApis(values, texts);
    apis = project.apis;
    // an OpenAPI document named by URL is fetched once, before the command reads it
    if (command.name !== "init" && command.name !== "import") await fetchSpecDocuments(apis);
    return await command.run({ values, positionals, ...project, texts, started });
  } catch (error) {
    if (error instanceof UsageError) {
      printErr(`${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    const code = reportFailure(error, texts);
    if (code !== undefined) return code;
    printErr(`internal error: ${(error as Error).message}`);
    if (cliIo().env.APIGEN_DEBUG) printErr(String((error as Error).stack));
    return 1;
  } finally {
    // the next run in this process fetches them again, as a run of its own would
    forgetSpecDocuments(apis);
  }
}

/** The bin entry: the process's command line and io; the exit status set for when it ends. */
export async function runAsProcess(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2), processIo());
}

// `node --import tsx generator/cli.ts ...`: the sources run as the bin entry. (In the bundle
// this module's URL is its source's, which no process runs as its script.)
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await runAsProcess();
