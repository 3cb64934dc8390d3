/**
 * `redocly lint --extends recommended` on one OpenAPI file, with no telemetry and no update
 * check (the tests reach no network), read back as its JSON report.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const redoclyBin = join(dirname(require.resolve("@redocly/cli/package.json")), "bin/cli.js");

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: LintProblem[];
}

/** Runs `redocly lint --extends recommended` on one file; resolves to its JSON report. */
export function lint(file: string, timeoutMs = 60_000): Promise<LintReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        redoclyBin,
        "lint",
        file,
        "--extends",
        "recommended",
        "--format",
        "json",
        "--max-problems",
        "20000",
      ],
      {
        cwd: dirname(file),
        // No telemetry, no update check: the test reaches no network.
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          NO_COLOR: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout) as LintReport);
      } catch {
        reject(new Error(`redocly lint printed no JSON report:\n${stdout}\n${stderr}`));
      }
    });
  });
}
