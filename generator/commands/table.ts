/**
 * Every command of the command line, one entry each: its name, a one-line summary, its
 * positional arguments, its flags and its handler. Parsing, `--help` and dispatch read this
 * table alone, so a new command is one entry here (its handler imported on demand, so a run
 * pays only for the command it runs).
 */
import { fromCwd } from "../cli-io.ts";
import { reportFailure } from "./failure.ts";
import { refMapFlag, type Flags, type FlagValues } from "./flags.ts";
import {
  diffMode,
  importMode,
  modeOfFlags,
  refMapOfFlags,
  scaffoldMode,
  type Mode,
} from "./options.ts";
import { reachOf } from "../load/spec-source.ts";
import { oneApi, type ApiTarget, type ProjectApis } from "./project-apis.ts";
import { runOptions } from "./run-options.ts";
import { mockFlags, mockModeOf, triggerFlags, triggerModeOf } from "./stand-in-options.ts";

/**
 * What a handler is given: its flags and arguments, and the project's APIs, resolved (each
 * spec folder: --spec, else the config file's `spec`, else `spec`; each package folder: --out,
 * else the config's `out`, else `generated`). A command that runs on one API takes it with
 * `oneApi`, which refuses a config of several unless --api picks one.
 */
export interface CommandInput extends ProjectApis {
  values: FlagValues;
  positionals: string[];
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
  ].map(([name, type]) => [
    name,
    { type: type as "string" | "boolean", help: `as the command ${name}`, hidden: true },
  ]),
);

const text = (values: FlagValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
};

/** An import's mode with the config's `refRoot` and `overlays` where its flags give none. */
function importWithConfig(mode: Extract<Mode, { kind: "import" }>, api: ApiTarget): Mode {
  return {
    ...mode,
    ...reachOf({ refRoot: mode.refRoot ?? api.refRoot, refMap: { ...api.refMap, ...mode.refMap } }),
    ...(mode.overlays === undefined && api.overlays?.length ? { overlays: api.overlays } : {}),
  };
}

/**
 * The source a stand-in mode reads: the API's spec, its `refRoot`, and `--overlay` when given,
 * else the config's `overlays` (as `import` takes them).
 */
function standInSource(input: CommandInput, command: string) {
  const api = oneApi(input, command);
  const flagged = input.values.overlay as string[] | undefined;
  const overlays = flagged?.length ? flagged.map((file) => fromCwd(file)) : api.overlays;
  return {
    specDir: api.specDir,
    ...reachOf(api),
    ...(overlays?.length ? { overlays } : {}),
  };
}

/** Runs a pipeline mode on one API. */
function runOn(input: CommandInput, api: ApiTarget, mode: Mode): Promise<number> {
  const options = {
    specDir: api.specDir,
    ...reachOf(api),
    ...(api.overlays?.length ? { overlays: api.overlays } : {}),
    outDir: api.outDir,
    outputs: api.outputs,
    timings: input.values.timings === true,
    force: input.values.force === true,
    // An import without --ref-root (--overlay) takes the API's `refRoot` (`overlays`) in the config file.
    mode: mode.kind === "import" ? importWithConfig(mode, api) : mode,
  };
  return runOptions(options, { texts: input.texts }, input.started);
}

/**
 * Runs a pipeline mode: writing and checking on every API of the project, one after the
 * other (one that fails is reported and the others still run; exit 1 if any failed), every
 * other mode on the one API. An import writes a spec folder of its own, whatever the config.
 */
async function pipeline(input: CommandInput, mode: Mode): Promise<number> {
  if (mode.kind === "import") return runOn(input, input.apis[0]!, mode);
  if ((mode.kind !== "write" && mode.kind !== "check") || input.apis.length === 1)
    return runOn(input, oneApi(input, mode.kind === "write" ? "generate" : mode.kind), mode);
  let code = 0;
  for (const api of input.apis) {
    try {
      code = Math.max(code, await runOn(input, api, mode));
    } catch (error) {
      const failed = reportFailure(error, input.texts);
      if (failed === undefined) throw error;
      code = Math.max(code, failed);
    }
  }
  return code;
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
    summary:
      "read an OpenAPI 3.0, 3.1 or 3.2 or Swagger 2.0 document (JSON or YAML) and write a spec folder",
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
      overlay: {
        type: "string",
        value: "FILE",
        multiple: true,
        help: "an OpenAPI Overlay 1.0 file applied to the document first; repeatable, applied in order",
      },
      "ref-map": refMapFlag,
    },
    run: (input) =>
      pipeline(
        input,
        importMode(
          input.positionals[0]!,
          text(input.values, "out-spec"),
          text(input.values, "name"),
          text(input.values, "ref-root"),
          input.values.overlay as string[] | undefined,
          refMapOfFlags(input.values["ref-map"] as string[] | undefined),
        ),
      ),
  },
  {
    name: "mock",
    summary: "serve a stand-in of the spec's service on 127.0.0.1 (docs/testing.md)",
    flags: mockFlags,
    run: async (input) =>
      (await import("./stand-in-commands.ts")).standInCommand(
        standInSource(input, "mock"),
        mockModeOf(input.values, input.positionals),
      ),
  },
  {
    name: "trigger",
    args: ["EVENT"],
    summary: "send one signed callback or webhook delivery to a server and judge its answer",
    flags: triggerFlags,
    note: "EVENT is a callback's name or a webhook event's (order.shipping, issues); where the webhooks have one payload for every delivery, not events, it is `webhook`.",
    run: async (input) =>
      (await import("./stand-in-commands.ts")).standInCommand(
        standInSource(input, "trigger"),
        triggerModeOf(input.values, input.positionals),
      ),
  },
];

/** The command run when the command line names none: `npm run generate -- --check` still works. */
export const defaultCommand = "generate";
