/**
 * The command line's options, parsed and resolved once into one mode with its settings.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  parseStandInArgs,
  standInUsage,
  type MockMode,
  type TriggerMode,
} from "./stand-in-options.ts";

export const usage = `Usage: npm run generate -- [options]

  --spec DIR                spec folder to read (default: spec)
  --out DIR                 package folder to write (default: generated)
  --check                   write nothing; exit 1 listing the files that differ from the spec
  --gaps                    list every undocumented note of the spec with its location
  --watch                   regenerate whenever a spec file changes; keep the last good output on errors
  --diff BASE               compare the spec with BASE (a spec folder or a git revision of it) and
                            print every change, who it breaks and the semver bump it implies
  --fail-on LEVEL           with --diff: exit 1 on a change of LEVEL or above (breaking, minor, patch)
  --scaffold-handlers FILE  write a typed callback handlers file (never overwrites one), not the package
  --handlers-import SPEC    module the scaffold imports from (default: <package name>/callbacks)
  --import FILE             read an OpenAPI 3.0/3.1 document (JSON or YAML) and write a spec folder
                            (--out-spec DIR, a new or empty folder; --name sets the package name)
  --force                   run every stage even when the spec, the generator and the output are
                            unchanged since the last run (which otherwise stops after comparing hashes)
  --timings                 print the time of each stage
  --help                    show this text
${standInUsage}`;

export type Mode =
  | { kind: "write" }
  | { kind: "check" }
  | { kind: "gaps" }
  | { kind: "watch" }
  | { kind: "diff"; base: string; failOn?: "breaking" | "minor" | "patch" }
  | { kind: "scaffold"; file: string; handlersImport?: string }
  | { kind: "import"; input: string; outSpec: string; packageName?: string }
  | MockMode
  | TriggerMode;

export interface CliOptions {
  specDir: string;
  outDir: string;
  timings: boolean;
  /** Run the whole pipeline even when the output's fingerprint says it is current. */
  force: boolean;
  mode: Mode;
}

export class UsageError extends Error {}

/** The options of `argv`, or undefined for --help; throws UsageError on bad flags. */
export function parseOptions(argv: string[]): CliOptions | undefined {
  if (argv[0] === "mock" || argv[0] === "trigger") {
    if (argv.includes("--help")) return undefined;
    try {
      const { specDir, mode } = parseStandInArgs(argv);
      return { specDir, outDir: resolve("generated"), timings: false, force: false, mode };
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        spec: { type: "string", default: "spec" },
        out: { type: "string", default: "generated" },
        check: { type: "boolean", default: false },
        gaps: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        diff: { type: "string" },
        "fail-on": { type: "string" },
        timings: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        "scaffold-handlers": { type: "string" },
        "handlers-import": { type: "string" },
        import: { type: "string" },
        "out-spec": { type: "string" },
        name: { type: "string" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return undefined;
  const modes: Mode[] = [
    ...(values.check ? [{ kind: "check" } as const] : []),
    ...(values.gaps ? [{ kind: "gaps" } as const] : []),
    ...(values.watch ? [{ kind: "watch" } as const] : []),
    ...(values.diff !== undefined
      ? [{ kind: "diff", base: values.diff, ...failOn(values["fail-on"]) } as const]
      : []),
    ...(values["scaffold-handlers"] !== undefined
      ? [
          {
            kind: "scaffold",
            file: resolve(values["scaffold-handlers"]),
            ...(values["handlers-import"] !== undefined
              ? { handlersImport: values["handlers-import"] }
              : {}),
          } as const,
        ]
      : []),
    ...(values.import !== undefined
      ? [importMode(values.import, values["out-spec"], values.name)]
      : []),
  ];
  if (modes.length > 1)
    throw new UsageError(`--${modes.map((m) => m.kind).join(", --")} cannot be combined`);
  if (
    (values["out-spec"] !== undefined || values.name !== undefined) &&
    values.import === undefined
  )
    throw new UsageError("--out-spec and --name go with --import");
  if (values["fail-on"] !== undefined && values.diff === undefined)
    throw new UsageError("--fail-on goes with --diff");
  return {
    specDir: resolve(values.spec),
    outDir: resolve(values.out),
    timings: values.timings,
    force: values.force,
    mode: modes[0] ?? { kind: "write" },
  };
}

function failOn(value: string | undefined): { failOn?: "breaking" | "minor" | "patch" } {
  if (value === undefined) return {};
  if (value === "breaking" || value === "minor" || value === "patch") return { failOn: value };
  throw new UsageError(`--fail-on takes breaking, minor or patch, not ${JSON.stringify(value)}`);
}

/** `--import FILE --out-spec DIR [--name NAME]`. */
function importMode(input: string, outSpec: string | undefined, name: string | undefined): Mode {
  if (outSpec === undefined)
    throw new UsageError("--import needs --out-spec DIR: the spec folder to write");
  return {
    kind: "import",
    input: resolve(input),
    outSpec: resolve(outSpec),
    ...(name !== undefined ? { packageName: name } : {}),
  };
}
