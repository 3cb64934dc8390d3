/**
 * Shared test helpers: run the pipeline on a spec folder in-process, or the CLI as a
 * user would.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { outputDefaults, type OutputSwitches } from "../generator/emit/shared/outputs.ts";
import { runPipeline, type PipelineOptions, type PipelineResult } from "../generator/pipeline.ts";

export const repoRoot = join(import.meta.dirname, "..");

/** A fresh empty folder under the system temp folder. */
export function tempDir(prefix = "apigen-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every output on: what apigen.config.ts asks of generated/ (the Merchant package shows them all). */
export const everyOutput = Object.fromEntries(
  Object.keys(outputDefaults).map((name) => [name, true]),
) as unknown as OutputSwitches;

/**
 * A run's files without the writer's encoding of each (`bytes`, kept beside the text), for
 * comparing two runs: toEqual compares bytes item by item (about 2 s for the Merchant
 * package's, against a millisecond for the texts they are made from).
 */
export function withoutBytes<File extends object>(files: readonly File[]): Omit<File, "bytes">[] {
  return files.map((file) => {
    const { bytes: _bytes, ...rest } = file as File & { bytes?: unknown };
    return rest;
  });
}

/** Runs every stage but the write on `specDir` (relative to the repo root, or absolute). */
export async function generateFrom(
  specDir: string,
  outDir = tempDir(),
  options: Pick<PipelineOptions, "validators" | "outputs"> = {},
): Promise<PipelineResult> {
  return runPipeline({ specDir: resolve(repoRoot, specDir), outDir, ...options });
}

/**
 * Runs the pipeline on `specDir` and writes every file it makes into `outDir`, as the CLI
 * would. `validators: "all"` adds validators of the types only responses use, which tests
 * check the stand-in's answers with.
 */
export async function writeGenerated(
  specDir: string,
  outDir: string,
  options: Pick<PipelineOptions, "validators" | "outputs"> = {},
): Promise<PipelineResult> {
  const result = await generateFrom(specDir, outDir, options);
  for (const file of result.files) {
    mkdirSync(dirname(join(outDir, file.path)), { recursive: true });
    writeFileSync(join(outDir, file.path), file.contents);
  }
  return result;
}

/**
 * The diagnostics of a spec that must fail, each as its first printed line:
 * `path:line:col - severity code: message`. Fails the test if the spec generates.
 */
export async function diagnosticsOf(specDir: string): Promise<string[]> {
  try {
    await generateFrom(specDir);
  } catch (error) {
    if (error instanceof DiagnosticsError)
      return error.diagnostics.map((d) => formatDiagnostic(d, new Map()));
    throw error;
  }
  throw new Error(`${specDir} generated without diagnostics`);
}

/**
 * The command line of a CLI process as `npm run generate` starts it: launch.mjs, which runs the
 * generator's bundle (dist/generator/, built from the current sources by the global setup,
 * test/support/build-package.ts, and again by launch.mjs should a source change during the
 * run).
 */
const launcher = [join(repoRoot, "generator/launch.mjs")];

/**
 * The environment of a CLI run: this process's, without what turns colour or the progress
 * line on or off, so that a run's output is the piped one whatever shell runs the tests
 * (CI logs often set FORCE_COLOR), with `env` set over it.
 */
export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, NO_COLOR: _no, APIGEN_PROGRESS: _progress, ...rest } = process.env;
  return { ...rest, ...env };
}

/** What a CLI run gives back. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `import()` by Node itself, past vitest's module runner (native-import.cjs says why). */
export const nativeImport = createRequire(import.meta.url)("./native-import.cjs") as (
  url: string,
) => Promise<unknown>;

/** The bundle's entry: what launch.mjs and the installed bin run, `main` taking an io of ours. */
type CliModule = typeof import("../generator/cli.ts");
let bundle: Promise<CliModule> | undefined;

/**
 * Runs the generator CLI in this process, as `npm run generate -- ...args` would from `cwd`
 * (the repo root by default) with `env` over this process's (cliEnv): the same bundle
 * launch.mjs runs (dist/generator/cli.js, built by the global setup), its `main` given the
 * working folder, the environment and two piped output streams, so the run reads and prints
 * nothing of this process's own. The bundle, not the sources: every test of the CLI still
 * runs the code the tool ships (a bundling mistake fails them, as it did when they started
 * it as a process), and the bundle's module state (the fetched documents, the compiled
 * templates, the surface diff's caches) is its own, never the one the test's own imports of
 * the generator fill. Imported by Node, not by vitest's module runner, as the process would (a
 * config module the run imports gets Node's resolution and errors). Loaded once per worker: a run costs only its command, not the ~0.3 s
 * of a node start and the bundle's load. Runs may go side by side (Promise.all): each has its
 * own io. `watch` and `mock` wait for a signal, which no in-process run gets: they run as a
 * process (runCliProcess, startMockCli).
 */
export async function runCli(
  args: string[],
  cwd = repoRoot,
  env: Record<string, string> = {},
): Promise<CliRun> {
  bundle ??= nativeImport(
    pathToFileURL(join(repoRoot, "dist/generator/cli.js")).href,
  ) as Promise<CliModule>;
  return runMain((await bundle).main, args, cwd, env);
}

/** A CLI's `main` run on `args` from `cwd`, with `env` over this process's and its output captured. */
async function runMain(
  main: CliModule["main"],
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    cwd: resolve(cwd),
    env: cliEnv(env),
    stdout: { isTTY: false, write: (text: string) => (stdout += text) },
    stderr: { isTTY: false, write: (text: string) => (stderr += text) },
    untilStopped: () =>
      Promise.reject(
        new Error("an in-process run gets no signal: run watch and mock as a process"),
      ),
  });
  return { status, stdout, stderr };
}

function spawnCli(entry: string[], args: string[], cwd: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [...entry, ...args], {
    cwd,
    env: cliEnv(env),
    encoding: "utf8",
    // A run that never exits (a thread left holding the process) fails the test instead of hanging it.
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The generator CLI as a process of its own, started as `npm run generate -- ...args` starts
 * it (launch.mjs and the bundle), from `cwd`: for the tests of what only the process has (the
 * bin entry, its exit status as the shell sees it, a run that must not hang the test).
 */
export function runCliProcess(
  args: string[],
  cwd = repoRoot,
  env: Record<string, string> = {},
): CliRun {
  return spawnCli(launcher, args, cwd, env);
}

/**
 * Runs the generator CLI from its TypeScript sources, not from the bundle, in this process
 * (vitest's module runner compiles them): for the tests that compare the two. As a process
 * through tsx, each run loaded some 200 modules through its loader (about 1.5 s of CPU).
 */
export async function runCliFromSources(
  args: string[],
  cwd = repoRoot,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const { main } = await import("../generator/cli.ts");
  return runMain(main, args, cwd, env);
}

/**
 * The CLI as a process, awaited without blocking: for a test whose servers live in its own
 * process (runCliProcess would block them). Killed after `killAfterMs`; `cwd` and `env` as for
 * runCli.
 */
export function runCliProcessAsync(
  args: string[],
  killAfterMs = 60_000,
  cwd = repoRoot,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [...launcher, ...args], {
    cwd,
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  return new Promise((resolve) =>
    child.once("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** A running `apigen mock`: its address, its output so far, and a stop that waits for its exit. */
export interface MockProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<unknown>;
}

/**
 * Starts `apigen mock ARGS` (the bundled CLI, as runCli) and resolves once it prints its address;
 * rejects with its output when it exits first or says nothing within 30 s, and then stops it.
 */
export async function startMockCli(
  args: string[],
  cwd = repoRoot,
  env: Record<string, string> = {},
): Promise<MockProcess> {
  const child = spawn(process.execPath, [...launcher, "mock", ...args], {
    cwd,
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    return exited;
  };
  let output = "";
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`mock did not start:\n${output}`)), 30_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString("utf8");
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`mock exited with ${code}:\n${output}`));
      });
    });
    return { url, child, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The feature fixtures (test/fixtures/features/<name>), which together use every feature of the model. */
export const features = [
  "primitives",
  "containers",
  "objects",
  "enums-and-literals",
  "constraints-and-docs",
  "recursion",
  "extends-and-omit",
  "operations",
  "multi-file",
  "params-and-credentials",
  "oauth",
  "typed-webhooks",
  "typed-webhooks-field",
  "standard-webhooks",
  "bodies-and-responses",
  "unions",
  "pagination",
  "streaming",
  "stand-in",
  "generics",
  "expandable",
  "read-and-write-only",
  "requests",
  "errors-and-retries",
] as const;

export type Feature = (typeof features)[number];

/** A generated validator: appends one issue per problem of `value`. */
export type Check = (
  value: unknown,
  path: string,
  issues: { path: string; message: string }[],
) => void;

/**
 * The validators of every named type and parameters interface of `specDir`, response types
 * too. A package keeps only the validators its own code calls (ir/validated.ts); tests check
 * the stand-in's answers against the others. Generated into a temp folder that `dispose`
 * removes.
 */
export async function validatorsOfAllTypes(
  specDir: string,
): Promise<{ validators: Record<string, Check>; dispose: () => void }> {
  const out = tempDir("apigen-validators-");
  await writeGenerated(specDir, out, { validators: "all" });
  const validators = (await import(pathToFileURL(join(out, "src/validators.ts")).href)) as Record<
    string,
    Check
  >;
  return { validators, dispose: () => rmSync(out, { recursive: true, force: true }) };
}
