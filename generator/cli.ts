/**
 * Command line: `apigen [command] [arguments] [options]` (in this repository `npm run
 * generate -- ...`); the commands are in commands/table.ts. A broken spec or config file
 * prints its diagnostics and exits 1 without writing; a bad command line prints the help and
 * exits 2; never a stack trace.
 */
import { commandHelp, readCommandLine, CommandLineError } from "./commands/command-line.ts";
import { reportFailure } from "./commands/failure.ts";
import { UsageError } from "./commands/options.ts";
import { fetchSpecDocuments, projectApis } from "./commands/project-apis.ts";

async function main(argv: string[]): Promise<number> {
  const started = performance.now();
  const texts = new Map<string, string>();
  let line;
  try {
    line = readCommandLine(argv);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    console.error(`${error.message}\n\n${error.help}`);
    return 2;
  }
  if (line.kind === "help") {
    console.log(line.text);
    return 0;
  }
  const { command, values, positionals } = line;
  try {
    const project = await projectApis(values, texts);
    // an OpenAPI document named by URL is fetched once, before the command reads it
    if (command.name !== "init" && command.name !== "import")
      await fetchSpecDocuments(project.apis);
    return await command.run({ values, positionals, ...project, texts, started });
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    const code = reportFailure(error, texts);
    if (code !== undefined) return code;
    console.error(`internal error: ${(error as Error).message}`);
    if (process.env.APIGEN_DEBUG) console.error((error as Error).stack);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
