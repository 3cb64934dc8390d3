/**
 * Command line: `apigen [command] [arguments] [options]` (in this repository `npm run
 * generate -- ...`); the commands are in commands/table.ts. A broken spec or config file
 * prints its diagnostics and exits 1 without writing; a bad command line prints the help and
 * exits 2; never a stack trace.
 */
import { resolve } from "node:path";
import { DiagnosticsError } from "./diagnostics/diagnostic.ts";
import { formatDiagnostic, formatDiagnostics } from "./diagnostics/format.ts";
import { commandHelp, readCommandLine, CommandLineError } from "./commands/command-line.ts";
import { CommandError, UsageError } from "./commands/options.ts";
import type { CommandInput } from "./commands/table.ts";
import type { FlagValues } from "./commands/flags.ts";

/** The spec and package folders: flags, else the config file, else `spec` and `generated`. */
async function projectFolders(
  values: FlagValues,
  texts: Map<string, string>,
): Promise<Pick<CommandInput, "specDir" | "outDir" | "configFile" | "refRoot">> {
  const flag = (name: string) => (typeof values[name] === "string" ? values[name] : undefined);
  const { findConfig, loadConfig } = await import("./commands/config.ts");
  const found = flag("config") !== undefined ? { file: resolve(flag("config")!) } : findConfig();
  if ("warnings" in found)
    for (const warning of found.warnings) console.error(formatDiagnostic(warning, texts));
  const configFile = found.file;
  const config = configFile !== undefined ? await loadConfig(configFile, texts) : undefined;
  const pick = (name: "spec" | "out", fallback: string) =>
    flag(name) !== undefined ? resolve(flag(name)!) : (config?.[name] ?? resolve(fallback));
  return {
    specDir: pick("spec", "spec"),
    outDir: pick("out", "generated"),
    ...(configFile !== undefined ? { configFile } : {}),
    ...(config?.refRoot !== undefined ? { refRoot: config.refRoot } : {}),
  };
}

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
    const folders = await projectFolders(values, texts);
    return await command.run({ values, positionals, ...folders, texts, started });
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    if (error instanceof DiagnosticsError) {
      console.error(formatDiagnostics(error.diagnostics, texts));
      return 1;
    }
    if (error instanceof CommandError) {
      console.error(error.message);
      return 1;
    }
    console.error(`internal error: ${(error as Error).message}`);
    if (process.env.APIGEN_DEBUG) console.error((error as Error).stack);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
