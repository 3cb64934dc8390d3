/**
 * The command line read against the command table: `apigen [command] [arguments] [flags]`,
 * `generate` when it names no command, and the help of the tool or of one command.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import { flagLines, helpFlag, projectFlags, readFlags, type FlagValues } from "./flags.ts";
import { UsageError } from "./options.ts";
import { commands, defaultCommand, type Command } from "./table.ts";

export type CommandLine =
  | { kind: "run"; command: Command; values: FlagValues; positionals: string[] }
  | { kind: "help"; text: string };

/** The command `argv` names and its flags; throws UsageError (with `command` for its help). */
export function readCommandLine(argv: readonly string[]): CommandLine {
  const first = argv[0];
  const named = first !== undefined && !first.startsWith("-");
  const command = named ? commands.find((c) => c.name === first) : commandNamed(defaultCommand);
  if (!command) {
    const hint =
      suggestion(
        first!,
        commands.map((c) => c.name),
      ) || "";
    throw new CommandLineError(`unknown command ${first}${hint}`, undefined);
  }
  let parsed;
  try {
    parsed = readFlags(argv.slice(named ? 1 : 0), {
      ...projectFlags,
      ...command.flags,
      ...helpFlag,
    });
  } catch (error) {
    throw new CommandLineError((error as Error).message, command);
  }
  if (parsed.values.help) return { kind: "help", text: named ? commandHelp(command) : overview() };
  const args = command.args ?? [];
  if (parsed.positionals.length !== args.length) {
    const takes = args.length ? `takes ${args.join(" ")}` : "takes no arguments";
    const extra = parsed.positionals.length > args.length;
    const detail = extra ? `, not ${parsed.positionals.slice(args.length).join(" ")}` : "";
    throw new CommandLineError(`${command.name} ${takes}${detail}`, command);
  }
  return { kind: "run", command, ...parsed };
}

/** A usage error, with the command whose help should follow it (none: the overview). */
export class CommandLineError extends UsageError {
  constructor(
    message: string,
    readonly command: Command | undefined,
  ) {
    super(message);
  }

  /** The message and the help that explains it. */
  get help(): string {
    return this.command ? commandHelp(this.command) : overview();
  }
}

function commandNamed(name: string): Command {
  const found = commands.find((c) => c.name === name);
  if (!found) throw new Error(`no command ${name} in the table`);
  return found;
}

/** `apigen --help`: every command and the flags they share. */
export function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    "Usage: apigen [command] [options]",
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "Options of every command:",
    ...flagLines({ ...projectFlags, ...helpFlag }),
    "",
    `Without a command, apigen runs ${defaultCommand}. \`apigen <command> --help\` shows a command's options.`,
    "In the apigen repository: npm run generate -- [command] [options].",
  ].join("\n");
}

/** `apigen <command> --help`: its arguments and every flag it takes. */
export function commandHelp(command: Command): string {
  const args = (command.args ?? []).map((a) => ` ${a}`).join("");
  return [
    `Usage: apigen ${command.name}${args} [options]`,
    "",
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    "",
    "Options:",
    ...flagLines({ ...command.flags, ...projectFlags, ...helpFlag }),
    ...(command.note ? ["", command.note] : []),
  ].join("\n");
}
