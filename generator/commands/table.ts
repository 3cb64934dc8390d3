/**
 * Every command of the command line, one entry each: its name, a one-line summary, its
 * positional arguments, its flags and its handler. Parsing, `--help` and dispatch read this
 * table alone, so a new command is one entry here (its handler imported on demand, so a run
 * pays only for the command it runs).
 */
import type { Flags, FlagValues } from "./flags.ts";
import { diffMode, importMode, modeOfFlags, scaffoldMode, type Mode } from "./options.ts";
import { runOptions } from "./run-options.ts";
import { mockFlags, mockModeOf, triggerFlags, triggerModeOf } from "./stand-in-options.ts";

/** What a handler is given: its flags and arguments, and the project's folders, resolved. */
export interface CommandInput {
  values: FlagValues;
  positionals: string[];
  /** Absolute spec folder: --spec, else the config file's `spec`, else `spec`. */
  specDir: string;
  /** Absolute package folder: --out, else the config file's `out`, else `generated`. */
  outDir: string;
  /** The config file that applied, when there was one. */
  configFile?: string;
  /** Absolute folder an imported document's `$ref`s may reach: the config file's `refRoot`. */
  refRoot?: string;
  /** Texts of the files read, by displayed path, for the code frames of diagnostics. */
  texts: Map<string, string>;
  /** `performance.now()` when the process started the command, for --timings. */
  started: number;
}

export interface Command {
  name: string;
  summary: string;
  /** Positional arguments, each required, as the help names them: `["BASE"]`. */
  args?: readonly string[];
  flags: Flags;
  /** A paragraph at the end of its help. */
  note?: string;
  /** The exit code. Bad input throws DiagnosticsError, a refusal CommandError. */
  run(input: CommandInput): Promise<number>;
}

const timings: Flags = { timings: { type: "boolean", help: "print the time of each stage" } };
const force: Flags = {
  force: {
    type: "boolean",
    help: "run every stage even when spec, generator and output are unchanged since the last run",
  },
};

/** `npm run generate -- --check` and the other mode flags `generate` has always taken. */
const modeFlags: Flags = Object.fromEntries(
  [
    ["check", "boolean"],
    ["gaps", "boolean"],
    ["watch", "boolean"],
    ["diff", "string"],
    ["fail-on", "string"],
    ["scaffold-handlers", "string"],
    ["handlers-import", "string"],
    ["import", "string"],
    ["out-spec", "string"],
    ["name", "string"],
    ["ref-root", "string"],
  ].map(([name, type]) => [
    name,
    { type: type as "string" | "boolean", help: `as the command ${name}`, hidden: true },
  ]),
);

const text = (values: FlagValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
};

/** Runs a pipeline mode on the project's folders. */
function pipeline(input: CommandInput, mode: Mode): Promise<number> {
  const options = {
    specDir: input.specDir,
    outDir: input.outDir,
    timings: input.values.timings === true,
    force: input.values.force === true,
    // An import without --ref-root takes the config file's `refRoot`, if it names one.
    mode:
      mode.kind === "import" && mode.refRoot === undefined && input.refRoot !== undefined
        ? { ...mode, refRoot: input.refRoot }
        : mode,
  };
  return runOptions(options, { texts: input.texts }, input.started);
}

export const commands: readonly Command[] = [
  {
    name: "init",
    summary:
      "write a spec folder for a new API and a `generate` script in package.json; never overwrites a file",
    flags: {
      name: {
        type: "string",
        value: "NAME",
        help: "npm name of the package to generate (default: the project's name + -api)",
      },
    },
    run: async (input) => (await import("./init-command.ts")).initCommand(input),
  },
  {
    name: "generate",
    summary: "write the package from the spec, only the files that changed (the default)",
    flags: { ...force, ...timings, ...modeFlags },
    note: [
      "It also takes the flags `npm run generate -- ...` has always taken, each the command of its name:",
      "--check, --gaps, --watch, --diff BASE [--fail-on LEVEL], --scaffold-handlers FILE",
      "[--handlers-import SPEC], --import FILE --out-spec DIR [--name NAME] [--ref-root DIR].",
    ].join("\n"),
    run: (input) => pipeline(input, modeOfFlags(input.values)),
  },
  {
    name: "check",
    summary: "write nothing; exit 1 listing the files that differ from the spec (for CI)",
    flags: { ...force, ...timings },
    run: (input) => pipeline(input, { kind: "check" }),
  },
  {
    name: "gaps",
    summary: "list every undocumented note of the spec with its location",
    flags: timings,
    run: (input) => pipeline(input, { kind: "gaps" }),
  },
  {
    name: "diff",
    args: ["BASE"],
    summary:
      "compare the spec with BASE (a spec folder or a git revision of it): each change, who it breaks, the package's TypeScript surface, the semver bump",
    flags: {
      "fail-on": {
        type: "string",
        value: "LEVEL",
        help: "exit 1 on a change of LEVEL or above (breaking, minor, patch)",
      },
    },
    run: (input) => pipeline(input, diffMode(input.positionals[0]!, text(input.values, "fail-on"))),
  },
  {
    name: "watch",
    summary: "regenerate whenever a spec file changes; keep the last good output on errors",
    flags: {},
    run: (input) => pipeline(input, { kind: "watch" }),
  },
  {
    name: "scaffold-handlers",
    args: ["FILE"],
    summary:
      "write a typed callback handlers file to fill in, or bring an existing one up to date with the spec in place",
    flags: {
      "handlers-import": {
        type: "string",
        value: "SPEC",
        help: "module the file imports from (default: <package name>/callbacks); moves an existing file's import",
      },
      check: {
        type: "boolean",
        help: "write nothing; exit 1 listing what an update would change",
      },
      ...timings,
    },
    note: [
      "On an existing file it adds a stub for each event the file has no handler for, marks the handlers of",
      "events the spec no longer has (a comment; never a deletion) and keeps every other line as it is.",
    ].join("\n"),
    run: (input) =>
      pipeline(
        input,
        scaffoldMode(
          input.positionals[0]!,
          text(input.values, "handlers-import"),
          input.values.check === true,
        ),
      ),
  },
  {
    name: "import",
    args: ["FILE"],
    summary: "read an OpenAPI 3.0/3.1 document (JSON or YAML) and write a spec folder",
    flags: {
      "out-spec": {
        type: "string",
        value: "DIR",
        help: "the spec folder to write (a new or empty folder); required",
      },
      name: { type: "string", value: "NAME", help: "npm name of the package (api.name)" },
      "ref-root": {
        type: "string",
        value: "DIR",
        help: "a folder holding the document, anywhere in which its $refs may reach (default: the document's own folder)",
      },
    },
    run: (input) =>
      pipeline(
        input,
        importMode(
          input.positionals[0]!,
          text(input.values, "out-spec"),
          text(input.values, "name"),
          text(input.values, "ref-root"),
        ),
      ),
  },
  {
    name: "mock",
    summary: "serve a stand-in of the spec's service on 127.0.0.1 (docs/testing.md)",
    flags: mockFlags,
    run: async (input) =>
      (await import("./stand-in-commands.ts")).standInCommand(
        input.specDir,
        mockModeOf(input.values, input.positionals),
      ),
  },
  {
    name: "trigger",
    args: ["EVENT"],
    summary: "send one signed callback or webhook delivery to a server and judge its answer",
    flags: triggerFlags,
    run: async (input) =>
      (await import("./stand-in-commands.ts")).standInCommand(
        input.specDir,
        triggerModeOf(input.values, input.positionals),
      ),
  },
];

/** The command run when the command line names none: `npm run generate -- --check` still works. */
export const defaultCommand = "generate";
