/**
 * The project's config file, `apigen.config.json`: where the spec and the package are, so a
 * project whose folders are not `spec/` and `generated/` runs `apigen generate` bare. Paths
 * in it are relative to the file (as in tsconfig.json); flags given on the command line win.
 * What the package is (name, version, client name, the client's default timeout and retries)
 * stays in the spec's `api` section, its one source, fingerprinted with the spec.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { diagnostic, DiagnosticsError, suggestion } from "../diagnostics/diagnostic.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import type { SourceLocation } from "../ir/model.ts";

export const configFileName = "apigen.config.json";

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
 * subfolder finds it too.
 */
export function findConfig(cwd: string = process.cwd()): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, configFileName);
    if (existsSync(file)) return file;
    if (existsSync(join(dir, "package.json")) || dirname(dir) === dir) return undefined;
  }
}

/**
 * Reads and checks the config file; every problem is a catalogue diagnostic at its
 * file:line:col (thrown as DiagnosticsError; `texts` receives the text for the code frame).
 */
export async function loadConfig(file: string, texts: Map<string, string>): Promise<ProjectConfig> {
  const shown = displayPath(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new DiagnosticsError([diagnostic("config-unreadable", { file: shown, reason })]);
  }
  texts.set(shown, text);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const detail = (error as Error).message.replace(/ in JSON at position \d+.*$/s, "");
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    const at = at0(shown, text, position === undefined ? text.length : Number(position));
    throw new DiagnosticsError([diagnostic("config-syntax", { detail }, at)]);
  }
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
