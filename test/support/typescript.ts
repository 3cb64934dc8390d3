/**
 * The TypeScript compilers tests type-check with (docs/test-suite.md, "Type-checking"):
 * TypeScript 6 (JavaScript) and the native TypeScript 7. Run each as
 * `node <compiler> -p <project>`.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");

/**
 * TypeScript 6's tsc without re-checking TypeScript's own lib files in every project
 * (`--skipDefaultLibCheck`, test/support/tsc6.cjs): what every test that type-checks a
 * generated package, a consumer or an example runs. Each file of the project itself, .d.ts
 * files included, is checked as before.
 */
export const typescript6 = join(import.meta.dirname, "tsc6.cjs");

/**
 * TypeScript 6's own tsc, lib files checked too: only test/typecheck.test.ts, which checks
 * the lib files once per run under the generated package's settings.
 */
export const typescript6Full = join(root, "node_modules/typescript/bin/tsc");

/** The native TypeScript 7 compiler (cheap: it checks everything, lib files included). */
export const typescript7 = join(root, "node_modules/typescript7/bin/tsc");

/**
 * `node <compiler> --noEmit -p <project>` without blocking the event loop (for tests whose
 * servers live in their own process): its exit status and everything it printed. Killed
 * after `killAfterMs`.
 */
export function typeCheckAsync(
  compiler: string,
  project: string,
  killAfterMs = 120_000,
): Promise<{ status: number | null; output: string }> {
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
