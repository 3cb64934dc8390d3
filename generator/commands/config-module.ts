/**
 * A config file written as a module (`apigen.config.ts`, `.mts`, `.cts`, `.js`, `.mjs`,
 * `.cjs`): run, and its default export taken as the config.
 *
 * A JavaScript config is imported as it is, by Node's own rules. Node 20 cannot run
 * TypeScript, so a TypeScript config has its types stripped first, as Node 22 and later strip
 * them when they run a .ts file themselves: by the same stripper (swc's, `strip-only`, the
 * one Node's `--experimental-strip-types` uses), which blanks the types out and leaves every
 * other character where it was, so a line and column of the JavaScript are the config's own.
 * (The TypeScript compiler that apigen has as its peer is no help here: the TypeScript 7 that
 * npm installs for it has no JavaScript API.) The JavaScript is written beside the config
 * under a name of its own and imported there, so the config's relative imports and packages
 * resolve as they would for the config itself; it is removed when the import settles. A .mts
 * config is an ES module, a .cts one CommonJS, and a .ts one an ES module when it has
 * `import` or `export` (as a config with defineConfig does), CommonJS when not, whatever the
 * package's `type`: a CommonJS project writes its typed config as any other project does.
 * What the stripper made of a config is cached in the project's node_modules/.cache/apigen/,
 * keyed by its text and the stripper's version, so a build step whose config did not change
 * does not load the stripper (a 4 MB WebAssembly module).
 *
 * Every failure is a diagnostic at the config's own line and column: a syntax error (from the
 * stripper, or Node's for JavaScript), a throw while it runs (its first stack frame in the
 * config), an import that does not resolve (at the import), no default export, a value that
 * does not settle in time.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { diagnostic, DiagnosticsError } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import type { SourceLocation } from "../ir/model.ts";
import { hasModuleSyntax, locationAt, moduleLocator } from "./config-module-locate.ts";
import type { ConfigLocator } from "./config-shape.ts";

/** Config files written as a module, by extension, in the order they are looked for. */
export const moduleConfigExtensions = ["ts", "mts", "cts", "js", "mjs", "cjs"] as const;

/** How long a config module may take to give its value. */
export const moduleConfigTimeoutMs = 30_000;

/** Bumped when what is asked of the stripper changes, so older cache entries are not used. */
const cacheVersion = "1";

/** The stripper's package. */
const stripperPackage = "@swc/wasm-typescript";

interface Stripper {
  transformSync(
    source: string,
    options: { mode: "strip-only"; filename: string },
  ): { code: string };
}

/** How swc reports what it cannot read: the place is 1-based line, 0-based column. */
interface StripError {
  message?: unknown;
  startLine?: unknown;
  startColumn?: unknown;
}

/** A module config's value, and the locator of its keys. */
export interface LoadedModule {
  value: unknown;
  locator: () => Promise<ConfigLocator>;
}

/** Whether `file` is a config file written as a module (by its name's extension). */
export function isModuleConfig(file: string): boolean {
  return /\.[mc]?[jt]s$/.test(basename(file));
}

const require = createRequire(import.meta.url);

/** The stripper's version, read without loading it. */
function stripperVersion(): string {
  const manifest = require.resolve(`${stripperPackage}/package.json`);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/** The cache entry for `key`: in the nearest node_modules of the config's project, if it has one. */
function cacheFile(file: string, key: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules")))
      return join(dir, "node_modules", ".cache", "apigen", `config-${key}.js`);
    if (existsSync(join(dir, "package.json")) || dirname(dir) === dir) return undefined;
  }
}

function readCache(entry: string | undefined): string | undefined {
  if (entry === undefined) return undefined;
  try {
    return readFileSync(entry, "utf8");
  } catch {
    return undefined; // no entry yet: strip again
  }
}

/** Written whole or not at all (a run at the same time writes the same bytes); a cache that cannot be written is only slower. */
function writeCache(entry: string | undefined, code: string): void {
  if (entry === undefined) return;
  const temp = `${entry}.${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(dirname(entry), { recursive: true });
    writeFileSync(temp, code);
    renameSync(temp, entry);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** The TypeScript config as JavaScript, every position kept; a syntax error is a diagnostic at its place. */
async function strip(file: string, shown: string, text: string): Promise<string> {
  const key = createHash("sha256")
    .update(`${cacheVersion}\0${stripperVersion()}\0${basename(file)}\0${text}`)
    .digest("hex")
    .slice(0, 32);
  const entry = cacheFile(file, key);
  const cached = readCache(entry);
  if (cached !== undefined) return cached;
  const module = await import(stripperPackage);
  const stripper = ((module as { default?: Stripper }).default ?? module) as Stripper;
  let code: string;
  try {
    code = stripper.transformSync(text, { mode: "strip-only", filename: basename(file) }).code;
  } catch (error) {
    const { message, startLine, startColumn } = (error ?? {}) as StripError;
    const at =
      typeof startLine === "number" && typeof startColumn === "number"
        ? { file: shown, line: startLine, col: startColumn + 1 }
        : undefined;
    const detail = typeof message === "string" ? message : String(error);
    throw new DiagnosticsError([diagnostic("config-module-syntax", { file: shown, detail }, at)]);
  }
  writeCache(entry, code);
  return code;
}

/** `promise`, or `onTimeout()` thrown after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The file that ran (the config, or its JavaScript beside it) and the config as it is shown. */
interface Failing {
  ran: string;
  shown: string;
  text: string;
}

/** Where a failure happened in the config: the first stack frame in the file that ran, or the import that did not resolve. */
function failureLocation(run: Failing, error: unknown): SourceLocation | undefined {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const url = pathToFileURL(run.ran).href;
  // the JavaScript has the config's lines and columns: a place in one is the place in the other
  const at = (line: number, col: number) => ({ file: run.shown, line, col });
  for (const place of [url, run.ran]) {
    const escaped = place.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const frame = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(stack);
    if (frame) return at(Number(frame[1]), Number(frame[2]));
    // a SyntaxError at load time: `file:///...:LINE`, the line, and a caret under the place
    const link = new RegExp(`^${escaped}:(\\d+)\\n.*\\n( *)\\^`).exec(stack);
    if (link) return at(Number(link[1]), link[2]!.length + 1);
  }
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(
    error instanceof Error ? error.message : "",
  )?.[1];
  if (missing !== undefined) {
    const name = missing.startsWith("/") ? basename(missing) : missing;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const at = new RegExp(`["'\`][^"'\`\\n]*${escaped}[^"'\`\\n]*["'\`]`).exec(run.text);
    if (at) return locationAt(run.shown, run.text, at.index);
  }
  return undefined;
}

/** What went wrong, in one line, with the file that ran named as the config. */
function failureDetail(run: Failing, error: unknown): string {
  const raw =
    error instanceof Error
      ? `${error.name && error.name !== "Error" ? `${error.name}: ` : ""}${error.message}`
      : `it threw ${typeof error === "string" ? JSON.stringify(error) : String(error)}`;
  const firstLine = raw.split("\n")[0]!.replace(/^Error \[ERR_[A-Z_]+\]: /, "");
  const folder = displayPath(dirname(run.ran));
  return firstLine
    .replaceAll(pathToFileURL(run.ran).href, run.shown)
    .replaceAll(run.ran, run.shown)
    .replaceAll(`${dirname(run.ran)}${sep}`, folder ? `${folder}/` : "");
}

/** The default export, through CommonJS's `exports.default` of a compiled `export default`. */
function defaultExport(namespace: { default?: unknown }): unknown {
  const value = namespace.default;
  if (
    typeof value === "object" &&
    value !== null &&
    (value as { __esModule?: unknown }).__esModule === true &&
    "default" in value
  )
    return (value as { default: unknown }).default;
  return value;
}

/** The file to import for a TypeScript config: its JavaScript, written beside it under a name of its own. */
function besideConfig(file: string, shown: string, code: string): string {
  // .mts: an ES module; .cts: CommonJS; .ts: as its syntax says
  const esm = /\.mts$/.test(file) || (/\.ts$/.test(file) && hasModuleSyntax(code));
  const temp = join(
    dirname(file),
    `.${basename(file)}.${process.pid}-${randomBytes(4).toString("hex")}.${esm ? "mjs" : "cjs"}`,
  );
  try {
    writeFileSync(temp, code, { flag: "wx" });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new DiagnosticsError([
      diagnostic("config-module-failed", {
        file: shown,
        detail: `apigen runs it from a file beside it, which cannot be written (${reason})`,
      }),
    ]);
  }
  return temp;
}

/** Imports `run.ran` and gives its default export, settled; `temp`: remove it once imported. */
async function evaluate(run: Failing, temp: boolean, timeoutMs: number): Promise<unknown> {
  const timedOut = () =>
    new DiagnosticsError([
      diagnostic("config-module-timeout", { file: run.shown, seconds: timeoutMs / 1000 }),
    ]);
  const failed = (error: unknown, at?: SourceLocation) =>
    new DiagnosticsError([
      diagnostic(
        "config-module-failed",
        { file: run.shown, detail: failureDetail(run, error) },
        at,
      ),
    ]);
  let namespace: { default?: unknown };
  try {
    namespace = await within(import(pathToFileURL(run.ran).href), timeoutMs, timedOut);
  } catch (error) {
    if (error instanceof DiagnosticsError) throw error;
    throw failed(error, failureLocation(run, error));
  } finally {
    if (temp) rmSync(run.ran, { force: true });
  }
  const value = defaultExport(namespace);
  if (value === undefined)
    throw new DiagnosticsError([diagnostic("config-module-no-default", { file: run.shown })]);
  if (typeof (value as { then?: unknown } | null)?.then !== "function") return value;
  try {
    return await within(Promise.resolve(value), timeoutMs, timedOut);
  } catch (error) {
    if (error instanceof DiagnosticsError) throw error;
    throw failed(error, failureLocation(run, error));
  }
}

/**
 * Runs the module config `file` (its text already read, shown as `shown`) and gives its
 * value; every failure is thrown as DiagnosticsError.
 */
export async function loadModuleConfig(
  file: string,
  shown: string,
  text: string,
  timeoutMs = moduleConfigTimeoutMs,
): Promise<LoadedModule> {
  const typescript = /\.[mc]?ts$/.test(file);
  const code = typescript ? await strip(file, shown, text) : text;
  const ran = typescript ? besideConfig(file, shown, code) : file;
  const value = await evaluate({ ran, shown, text }, typescript, timeoutMs);
  return {
    value,
    locator: async () => {
      const locate = moduleLocator(code);
      return (path, at) => {
        const offset = locate(path, at);
        return offset === undefined ? undefined : locationAt(shown, text, offset);
      };
    },
  };
}
