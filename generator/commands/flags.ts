/**
 * The flags a command takes, described once: node:util's parseArgs reads them from the
 * command line and the help prints them, so the two never disagree.
 */
import { parseArgs } from "node:util";
import { UsageError } from "./options.ts";

export interface Flag {
  type: "string" | "boolean";
  /** The value's name in the help, for a string flag: `--spec DIR`. */
  value?: string;
  help: string;
  /** Left out of the help: an older spelling that keeps working. */
  hidden?: boolean;
  /** A string flag that may be given more than once: its values in order. */
  multiple?: boolean;
}

export type Flags = Readonly<Record<string, Flag>>;
export type FlagValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** `--ref-map URL=PATH`: where `import` and the live route read a remote `$ref`'s target. */
export const refMapFlag: Flag = {
  type: "string",
  value: "URL=PATH",
  multiple: true,
  help: "for an OpenAPI document: the local copy of what its remote $refs under the URL prefix name (a folder for a URL ending in /, else a file); repeatable",
};

/** Flags of every command that reads the project: where the spec and the package are. */
export const projectFlags: Flags = {
  spec: { type: "string", value: "DIR", help: "spec folder (default: spec)" },
  "ref-root": {
    type: "string",
    value: "DIR",
    help: "for an OpenAPI document as the spec: a folder holding it, anywhere in which its $refs may reach (default: the document's own folder)",
  },
  "ref-map": refMapFlag,
  out: { type: "string", value: "DIR", help: "package folder to write (default: generated)" },
  config: {
    type: "string",
    value: "FILE",
    help: "config file (default: apigen.config.ts or .json in the project, when there is one)",
  },
  api: {
    type: "string",
    value: "NAME",
    help: "the API of the config file to run on, by its name (default: every one)",
  },
};

export const helpFlag: Flags = { help: { type: "boolean", help: "show this text" } };

/** `argv` read against `flags`; throws UsageError on an unknown flag or a missing value. */
export function readFlags(
  argv: readonly string[],
  flags: Flags,
): { values: FlagValues; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      { type: flag.type, ...(flag.multiple ? { multiple: true } : {}) },
    ]),
  );
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: true,
    });
    return { values: values as FlagValues, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** One help line per shown flag, the texts aligned: `  --spec DIR   spec folder ...`. */
export function flagLines(flags: Flags): string[] {
  const shown = Object.entries(flags).filter(([, flag]) => !flag.hidden);
  const heads = shown.map(([name, flag]) => `--${name}${flag.value ? ` ${flag.value}` : ""}`);
  const width = Math.max(0, ...heads.map((h) => h.length)) + 2;
  return shown.map(([, flag], i) => `  ${heads[i]!.padEnd(width)}${flag.help}`);
}
