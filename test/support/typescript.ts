/**
 * The TypeScript compilers tests type-check with (docs/test-suite.md, "Type-checking"):
 * TypeScript 6 (JavaScript) and the native TypeScript 7. Run each as
 * `node <compiler> -p <project>`.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { typeCheck6InProcess, type TscRun } from "./tsc6-in-process.ts";

const root = join(import.meta.dirname, "../..");

/**
 * TypeScript 6's tsc without re-checking TypeScript's own lib files in every project
 * (`--skipDefaultLibCheck`, test/support/tsc6.cjs): what every test that type-checks a
 * generated package, a consumer or an example runs. Each file of the project itself, .d.ts
 * files included, is checked as before.
 */
export const typescript6 = join(import.meta.dirname, "tsc6.cjs");

/** The native TypeScript 7 compiler (cheap: it checks everything, lib files included). */
export const typescript7 = join(root, "node_modules/typescript7/bin/tsc");

/** How a test asks for a type-check. */
export interface CheckOptions {
  /** TypeScript 6 as a process (a program too large to keep beside the worker's heap). */
  process?: boolean;
  /**
   * TypeScript 6 in process checks the package's generated code against its runtime's
   * declarations (test/support/runtime-declarations.ts), not the runtime's bodies again:
   * for a package of the repository's own settings, whose runtime test/typecheck.test.ts
   * checks in full once per run. TypeScript 7 checks the package whole either way.
   */
  runtimeDeclarations?: boolean;
  /**
   * TypeScript 6 in process reports the type errors of the project's own files (its `files`
   * and `include`), not of the package files they import: for a consumer of a package that
   * another test of the run checks whole under the same settings (the checker still types
   * everything the consumer uses). TypeScript 7 checks every file either way.
   */
  ownFilesOnly?: boolean;
}

/**
 * The project of a plain `-p <project>` command line (with `--noEmit` or not), which
 * TypeScript 6 runs in process; undefined for any other (build mode, other options).
 */
function plainProject(args: readonly string[]): { project: string; noEmit: boolean } | undefined {
  const rest = args.filter((arg) => arg !== "--noEmit");
  if (rest.length !== 2 || rest[0] !== "-p") return undefined;
  return { project: rest[1]!, noEmit: rest.length < args.length };
}

/**
 * `node <compiler> <args>` as a test runs a compiler, its exit status and what it printed.
 * TypeScript 6 on a plain `-p` command line runs in the test's own process
 * (test/support/tsc6-in-process.ts: the compiler and the lib files loaded once per worker);
 * everything else (TypeScript 7, build mode) runs as a process. Pass `process: true` where a
 * program is too large to keep beside the worker's own heap.
 */
export function runTypeScript(
  compiler: string,
  args: readonly string[],
  {
    cwd,
    process: ownProcess = false,
    runtimeDeclarations = false,
    ownFilesOnly = false,
  }: { cwd?: string } & CheckOptions = {},
): TscRun {
  const plain = compiler === typescript6 && !ownProcess ? plainProject(args) : undefined;
  if (plain)
    return typeCheck6InProcess(plain.project, {
      noEmit: plain.noEmit,
      cwd,
      runtimeDeclarations,
      ownFilesOnly,
    });
  const run = spawnSync(process.execPath, [compiler, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
  });
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/**
 * `node <compiler> --noEmit -p <project>`: its exit status and everything it printed.
 * TypeScript 6 runs in the test's own process (runTypeScript) unless `process` is set;
 * TypeScript 7, or 6 with `process` (a program too large to keep beside the worker's heap),
 * runs as a process without blocking the event loop, killed after `killAfterMs`.
 */
export function typeCheckAsync(
  compiler: string,
  project: string,
  killAfterMs = 120_000,
  { process: ownProcess = false, runtimeDeclarations = false }: CheckOptions = {},
): Promise<{ status: number | null; output: string }> {
  if (compiler === typescript6 && !ownProcess) {
    const run = typeCheck6InProcess(project, { noEmit: true, runtimeDeclarations });
    return Promise.resolve({ status: run.status, output: run.stdout + run.stderr });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [compiler, "--noEmit", "-p", project]);
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}
