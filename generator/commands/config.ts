/**
 * The project's config file, `apigen.config.json`: where the spec and the package are, so a
 * project whose folders are not `spec/` and `generated/` runs `apigen generate` bare. Paths
 * in it are relative to the file (as in tsconfig.json); flags given on the command line win.
 * What the package is (name, version, client name, the client's default timeout and retries)
 * stays in the spec's `api` section, its one source, fingerprinted with the spec.
 *
 * The file is plain JSON (config-json.ts says where it is not, and why). A config file written
 * as a module (`apigen.config.ts`, `.js`, ...) is not read yet: one found where the JSON file
 * would be is an error that says so, never silently passed over.
 */
import { existsSync, lstatSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { diagnostic, DiagnosticsError, suggestion } from "../diagnostics/diagnostic.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import type { SourceLocation } from "../ir/model.ts";
import { readRegularFile } from "../load/spec-folder.ts";
import { jsonProblem } from "./config-json.ts";

export const configFileName = "apigen.config.json";

/** Config files written as a module, which apigen does not read (yet). */
const moduleConfigFileNames = ["ts", "mts", "cts", "js", "mjs", "cjs"].map(
  (extension) => `apigen.config.${extension}`,
);

/** Whether `file` is a config file written as a module (by its name's extension). */
function isModuleConfig(file: string): boolean {
  return /\.[mc]?[jt]s$/.test(basename(file));
}

/** The config file that applies, and the problems of the folder it was looked for in. */
export interface FoundConfig {
  file?: string;
  /** A module config beside the JSON one: not read, and said so as a warning. */
  warnings: Diagnostic[];
}

/** Each key the file may hold, with what its value must be (as generator/schema/config.schema.json says, for editors). */
export const configKeys: Record<string, string> = {
  $schema: "a string (the JSON Schema editors check the file with)",
  spec: "a folder path (the spec folder, relative to this file)",
  out: "a folder path (the package folder, relative to this file)",
  refRoot:
    "a folder path (the folder an imported document's $refs may reach, relative to this file)",
};

export interface ProjectConfig {
  file: string;
  /** Absolute spec folder, when the file names one. */
  spec?: string;
  /** Absolute package folder, when the file names one. */
  out?: string;
  /** Absolute folder an imported document's `$ref`s may reach, when the file names one. */
  refRoot?: string;
}

/**
 * The config file that applies in `cwd`: `apigen.config.json` there or in a folder above it,
 * up to the project's root (the nearest folder with a package.json), so a script run from a
 * subfolder finds it too. A module config (`apigen.config.ts`, ...) in the first folder that
 * has either is an error when no JSON file is beside it (its settings would be ignored), and a
 * warning when one is.
 */
export function findConfig(cwd: string = process.cwd()): FoundConfig {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, configFileName);
    const modules = moduleConfigFileNames.filter((name) => existsSync(join(dir, name)));
    if (existsSync(file))
      return {
        file,
        warnings: modules.map((name) =>
          diagnostic("config-module-ignored", { file: displayPath(join(dir, name)) }),
        ),
      };
    if (modules.length > 0) throw moduleConfigError(join(dir, modules[0]!));
    if (existsSync(join(dir, "package.json")) || dirname(dir) === dir) return { warnings: [] };
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function moduleConfigError(file: string): DiagnosticsError {
  return new DiagnosticsError([diagnostic("config-module-not-read", { file: displayPath(file) })]);
}

/**
 * Reads and checks the config file; every problem is a catalogue diagnostic at its
 * file:line:col (thrown as DiagnosticsError; `texts` receives the text for the code frame).
 */
export async function loadConfig(file: string, texts: Map<string, string>): Promise<ProjectConfig> {
  const shown = displayPath(file);
  if (isModuleConfig(file)) throw moduleConfigError(file);
  // opened without blocking and refused unless a regular file: a FIFO is never waited on
  const read = readRegularFile(file);
  if (!(read instanceof Uint8Array)) {
    const reason = existsSync(file) || isLink(file) ? read.reason : "it does not exist";
    throw new DiagnosticsError([diagnostic("config-unreadable", { file: shown, reason })]);
  }
  const text = new TextDecoder().decode(read);
  texts.set(shown, text);
  const problem = jsonProblem(text);
  if (problem)
    throw new DiagnosticsError([
      diagnostic("config-syntax", { detail: problem.detail }, at0(shown, text, problem.offset)),
    ]);
  const data: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
  const problems = await check(shown, text, data);
  if (problems.length > 0) throw new DiagnosticsError(problems);
  const values = data as Record<string, string>;
  const base = dirname(file);
  return {
    file,
    ...(values.spec !== undefined ? { spec: resolve(base, values.spec) } : {}),
    ...(values.out !== undefined ? { out: resolve(base, values.out) } : {}),
    ...(values.refRoot !== undefined ? { refRoot: resolve(base, values.refRoot) } : {}),
  };
}

/** The problems of the parsed file: not an object, unknown keys, values of the wrong kind. */
async function check(shown: string, text: string, data: unknown): Promise<Diagnostic[]> {
  const locate = await locator(shown, text);
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return [diagnostic("config-not-object", { file: shown }, locate([], "value"))];
  const problems: Diagnostic[] = [];
  for (const [key, value] of Object.entries(data)) {
    const expected = configKeys[key];
    if (expected === undefined) {
      const hint =
        suggestion(key, Object.keys(configKeys)) ||
        `; expected one of: ${Object.keys(configKeys).join(", ")}`;
      problems.push(diagnostic("config-unknown-key", { key, hint }, locate([key], "key")));
    } else if (typeof value !== "string" || value.trim() === "") {
      const actual = typeof value === "string" ? "an empty string" : JSON.stringify(value);
      problems.push(
        diagnostic("config-wrong-value", { key, expected, actual }, locate([key], "value")),
      );
    }
  }
  return problems;
}

/** Locations of keys and values in the file, through the spec loader's YAML locator (JSON is YAML). */
async function locator(
  shown: string,
  text: string,
): Promise<(path: string[], at: "key" | "value") => SourceLocation> {
  const { parseDocument } = await import("yaml");
  const { DocumentLocator } = await import("../load/spec-file.ts");
  const found = new DocumentLocator(parseDocument(text));
  return (path, at) => at0(shown, text, found.offset(path, at, 0));
}

/** The line and column of a character offset. */
function at0(file: string, text: string, offset: number): SourceLocation {
  const before = text.slice(0, Math.min(offset, text.length)).split("\n");
  return { file, line: before.length, col: before.at(-1)!.length + 1 };
}
