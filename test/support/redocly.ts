/**
 * `redocly lint --extends recommended` on one OpenAPI file, with no telemetry and no update
 * check (the tests reach no network), read back as its JSON report.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";

const require = createRequire(import.meta.url);
const redoclyBin = join(dirname(require.resolve("@redocly/cli/package.json")), "bin/cli.js");

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string; source?: { ref: string } }[];
}

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: LintProblem[];
}

/** Runs `redocly lint --extends recommended` on one file; resolves to its JSON report. */
export async function lint(file: string, timeoutMs = 60_000): Promise<LintReport> {
  return (await lintFiles([file], timeoutMs))[0]!;
}

/**
 * Runs one `redocly lint --extends recommended` over several files, in their common folder;
 * resolves to each file's JSON report, in the order given. One process for many files: the
 * CLI's start (about half a second of CPU) is paid once, not once a file. Redocly prints one
 * report per file, in the order given, one after the other; a report whose problems name a
 * file (`location[].source.ref`) is checked to name its own.
 */
export function lintFiles(files: readonly string[], timeoutMs = 60_000): Promise<LintReport[]> {
  const cwd = commonFolder(files);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        redoclyBin,
        "lint",
        ...files.map((file) => relative(cwd, file)),
        "--extends",
        "recommended",
        "--format",
        "json",
        "--max-problems",
        "20000",
      ],
      {
        cwd,
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
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs * files.length);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(reportsOf(stdout, files, cwd));
      } catch (error) {
        reject(
          new Error(
            `redocly lint printed no JSON report per file (${String(error)}):\n${stdout}\n${stderr}`,
          ),
        );
      }
    });
  });
}

/** The reports of `files` in `stdout`: JSON objects one after another, one per file. */
function reportsOf(stdout: string, files: readonly string[], cwd: string): LintReport[] {
  const reports: LintReport[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < stdout.length; i++) {
    const c = stdout[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" && depth++ === 0) start = i;
    else if (c === "}" && --depth === 0)
      reports.push(JSON.parse(stdout.slice(start, i + 1)) as LintReport);
  }
  if (reports.length !== files.length)
    throw new Error(`${reports.length} reports for ${files.length} files`);
  reports.forEach((report, i) => {
    const own = relative(cwd, files[i]!);
    for (const problem of report.problems)
      for (const { source } of problem.location)
        if (source && source.ref !== own)
          throw new Error(`the report of ${own} names ${source.ref}`);
  });
  return reports;
}

/** The deepest folder that holds every file. */
function commonFolder(files: readonly string[]): string {
  const parts = files.map((file) => resolve(dirname(file)).split(sep));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => i < p.length && p[i] === parts[0]![i]); i++)
    common.push(parts[0]![i]!);
  return common.join(sep) || sep;
}
