/**
 * The project's config file: where the spec and the package are, and which outputs the
 * package has, for one API or several, so that `apigen generate` runs bare. Paths in it are
 * relative to the file (as in tsconfig.json); flags given on the command line win. What the
 * package is (name, version, client name, the client's default timeout and retries) stays in
 * the spec's `api` section, its one source, fingerprinted with the spec.
 *
 * The file is `apigen.config.json` (plain JSON: config-json.ts says where it is not, and
 * why), or a module, `apigen.config.ts` (or .mts, .cts, .js, .mjs, .cjs: config-module.ts
 * runs it), typed by `defineConfig` from the tool's package. Both are checked by the same
 * rules (config-shape.ts), each problem at its place in the file.
 */
import { existsSync, lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { diagnostic, DiagnosticsError, sortDiagnostics } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { readRegularFile } from "../load/spec-folder.ts";
import { jsonProblem } from "./config-json.ts";
import { isModuleConfig, loadModuleConfig, moduleConfigExtensions } from "./config-module.ts";
import { locationAt } from "./config-module-locate.ts";
import { checkConfig, type ConfigApi, type ConfigLocator } from "./config-shape.ts";

export { apiKeys } from "./config-shape.ts";
export type { ConfigApi } from "./config-shape.ts";

/** The config file `apigen init` writes. */
export const configFileName = "apigen.config.json";

/** Every name a config file can have, in the order they are listed when several are found. */
const configFileNames = [
  ...moduleConfigExtensions.map((extension) => `apigen.config.${extension}`),
  configFileName,
];

export interface ProjectConfig {
  file: string;
  /** One API or several, in the file's order. */
  apis: ConfigApi[];
}

/**
 * The config file that applies in `cwd`: one of `apigen.config.{ts,mts,cts,js,mjs,cjs,json}`
 * there or in a folder above it, up to the project's root (the nearest folder with a
 * package.json), so a script run from a subfolder finds it too. Two of them in one folder is
 * an error: one would be passed over in silence.
 */
export function findConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = configFileNames.map((name) => join(dir, name)).filter((f) => existsSync(f));
    if (found.length > 1)
      throw new DiagnosticsError([
        diagnostic("config-several", { files: found.map((f) => displayPath(f)).join(", ") }),
      ]);
    if (found.length === 1) return found[0];
    if (existsSync(join(dir, "package.json")) || dirname(dir) === dir) return undefined;
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Reads, runs (a module) and checks the config file; every problem is a catalogue diagnostic
 * at its file:line:col (thrown as DiagnosticsError; `texts` receives the text for the code
 * frame).
 */
export async function loadConfig(
  file: string,
  texts: Map<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<ProjectConfig> {
  const shown = displayPath(file);
  // opened without blocking and refused unless a regular file: a FIFO is never waited on
  const read = readRegularFile(file);
  if (!(read instanceof Uint8Array)) {
    const reason = existsSync(file) || isLink(file) ? read.reason : "it does not exist";
    throw new DiagnosticsError([diagnostic("config-unreadable", { file: shown, reason })]);
  }
  const text = new TextDecoder().decode(read);
  texts.set(shown, text);
  let value: unknown;
  let locator: () => Promise<ConfigLocator>;
  if (isModuleConfig(file)) {
    ({ value, locator } = await loadModuleConfig(file, shown, text, options.timeoutMs));
  } else {
    const problem = jsonProblem(text);
    if (problem)
      throw new DiagnosticsError([
        diagnostic(
          "config-syntax",
          { detail: problem.detail },
          locationAt(shown, text, problem.offset),
        ),
      ]);
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
    locator = () => jsonLocator(shown, text);
  }
  // Located only when something is wrong: locating loads YAML's parser, or reads the module's tokens.
  const check = (locate: ConfigLocator) => {
    try {
      return checkConfig(value, file, shown, locate);
    } catch (error) {
      // a module's value is its code's: a getter or a proxy that throws as it is read
      const detail = `reading its value threw ${error instanceof Error ? error.message : String(error)}`;
      throw new DiagnosticsError([diagnostic("config-module-failed", { file: shown, detail })]);
    }
  };
  const first = check(() => undefined);
  if (first.problems.length === 0) return { file, apis: first.apis };
  const locate = await locator();
  const wholeFile = { file: shown, line: 1, col: 1 };
  const { problems } = check((path, at) => locate(path, at) ?? wholeFile);
  throw new DiagnosticsError(sortDiagnostics(problems));
}

/** Locations of keys and values in a JSON config, through the spec loader's YAML locator (JSON is YAML). */
async function jsonLocator(shown: string, text: string): Promise<ConfigLocator> {
  const { parseDocument } = await import("yaml");
  const { DocumentLocator } = await import("../load/spec-file.ts");
  const found = new DocumentLocator(parseDocument(text));
  return (path, at) => locationAt(shown, text, found.offset([...path], at, 0));
}
