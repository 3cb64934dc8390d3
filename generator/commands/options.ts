/**
 * What a pipeline command runs: one mode with its settings. `generate` also takes the mode
 * flags `npm run generate -- --check` has always taken (`--check`, `--diff BASE`, ...), each
 * the same as the command of that name; this turns them into the mode.
 */
import { fromCwd } from "../cli-io.ts";
import type { OutputSwitches } from "../emit/shared/outputs.ts";
import type { FlagValues } from "./flags.ts";
import { isRefMapPrefix, reachOf, type RefMap } from "../load/spec-source.ts";

export type Mode =
  | { kind: "write" }
  | { kind: "check" }
  | { kind: "gaps" }
  | { kind: "watch" }
  | { kind: "diff"; base: string; failOn?: "breaking" | "minor" | "patch" }
  | { kind: "scaffold"; file: string; handlersImport?: string; check?: boolean }
  | {
      kind: "import";
      input: string;
      outSpec: string;
      packageName?: string;
      refRoot?: string;
      refMap?: RefMap;
      overlays?: string[];
    };

export interface CliOptions {
  /** The spec folder, or an OpenAPI document (a file or a URL). */
  specDir: string;
  /** For a document: the folder its `$ref`s may reach, when the config widens it. */
  refRoot?: string;
  /** For a document: local copies of what its remote `$ref`s name, by URL prefix. */
  refMap?: RefMap;
  /** For a document: the config's overlay files, applied to it in order. */
  overlays?: string[];
  outDir: string;
  /** The parts of the package to generate (the config's `outputs`). */
  outputs: OutputSwitches;
  timings: boolean;
  /** Run the whole pipeline even when the output's fingerprint says it is current. */
  force: boolean;
  mode: Mode;
}

/** A command line that does not parse: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** A refusal or failure the user can act on (a bad git revision, a file in the way): its message alone, exit code 1. */
export class CommandError extends Error {}

const text = (values: FlagValues, name: string): string | undefined => {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
};

/** The mode that `generate`'s flags pick (`write` without a mode flag); throws UsageError. */
export function modeOfFlags(values: FlagValues): Mode {
  const diff = text(values, "diff");
  const scaffold = text(values, "scaffold-handlers");
  const input = text(values, "import");
  const modes: Mode[] = [
    ...(values.check ? [{ kind: "check" } as const] : []),
    ...(values.gaps ? [{ kind: "gaps" } as const] : []),
    ...(values.watch ? [{ kind: "watch" } as const] : []),
    ...(diff !== undefined ? [diffMode(diff, text(values, "fail-on"))] : []),
    ...(scaffold !== undefined ? [scaffoldMode(scaffold, text(values, "handlers-import"))] : []),
    ...(input !== undefined
      ? [
          importMode(
            input,
            text(values, "out-spec"),
            text(values, "name"),
            text(values, "ref-root"),
            undefined,
            refMapOfFlags(values["ref-map"] as string[] | undefined),
          ),
        ]
      : []),
  ];
  if (modes.length > 1)
    throw new UsageError(`--${modes.map((m) => m.kind).join(", --")} cannot be combined`);
  if ((values["out-spec"] !== undefined || values.name !== undefined) && input === undefined)
    throw new UsageError("--out-spec and --name go with --import");
  if (values["fail-on"] !== undefined && diff === undefined)
    throw new UsageError("--fail-on goes with --diff");
  if (values["handlers-import"] !== undefined && scaffold === undefined)
    throw new UsageError("--handlers-import goes with --scaffold-handlers");
  return modes[0] ?? { kind: "write" };
}

/** `diff BASE [--fail-on LEVEL]`. */
export function diffMode(base: string, level: string | undefined): Mode {
  return { kind: "diff", base, ...failOn(level) };
}

/** `scaffold-handlers FILE [--handlers-import SPEC] [--check]`. */
export function scaffoldMode(
  file: string,
  handlersImport: string | undefined,
  check = false,
): Mode {
  return {
    kind: "scaffold",
    file: fromCwd(file),
    ...(handlersImport !== undefined ? { handlersImport } : {}),
    ...(check ? { check } : {}),
  };
}

function failOn(value: string | undefined): { failOn?: "breaking" | "minor" | "patch" } {
  if (value === undefined) return {};
  if (value === "breaking" || value === "minor" || value === "patch") return { failOn: value };
  throw new UsageError(`--fail-on takes breaking, minor or patch, not ${JSON.stringify(value)}`);
}

/**
 * `--ref-map URL=PATH`, repeatable: each URL prefix with the local copy of what remote `$ref`s
 * under it name (the path from the working folder); undefined without one. The first `=`
 * ends the URL.
 */
export function refMapOfFlags(values: readonly string[] | undefined): RefMap | undefined {
  if (!values?.length) return undefined;
  const map: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    const [url, path] = at < 0 ? [value, ""] : [value.slice(0, at), value.slice(at + 1)];
    if (!isRefMapPrefix(url) || path === "")
      throw new UsageError(
        `--ref-map takes URL=PATH (an http:// or https:// URL prefix, the local copy's path), not ${JSON.stringify(value)}`,
      );
    map[url] = fromCwd(path);
  }
  return map;
}

/** `import FILE --out-spec DIR [--name NAME] [--ref-root DIR] [--overlay FILE] [--ref-map URL=PATH]`. */
export function importMode(
  input: string,
  outSpec: string | undefined,
  name: string | undefined,
  refRoot?: string,
  overlays?: string[],
  refMap?: RefMap,
): Mode {
  if (outSpec === undefined)
    throw new UsageError(
      "import needs --out-spec DIR: the spec folder to write (--out is the package's folder)",
    );
  return {
    kind: "import",
    input: fromCwd(input),
    outSpec: fromCwd(outSpec),
    ...(name !== undefined ? { packageName: name } : {}),
    ...reachOf({ refRoot: refRoot === undefined ? undefined : fromCwd(refRoot), refMap }),
    ...(overlays?.length ? { overlays: overlays.map((file) => fromCwd(file)) } : {}),
  };
}
