/**
 * Several projects type-checked by one compiler process (docs/test-suite.md, "Type-checking"):
 * `tsc -b` over all of them reads TypeScript's lib files (lib.dom.d.ts and the ES libs) and
 * starts the compiler once, not once per project, and each project's diagnostics are given
 * back to it: a test per project still fails on its own errors, with its own message.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { typeCheck6InProcess } from "./tsc6-in-process.ts";
import { typescript6, type CheckOptions } from "./typescript.ts";

/** What one project's check gives back: `status` 0 and `output` "" when it type-checks. */
export interface ProjectCheck {
  status: number | null;
  output: string;
}

/**
 * Runs `node <compiler> -b --verbose --force <project>...` (each project a tsconfig file; no
 * emit, as their own settings say) in `cwd`, without blocking the event loop, killed after
 * `timeoutMs`. Each project gets the lines between the report that starts its build and the
 * next report (`--verbose`: two configs of one folder, or one project's files read by another,
 * are still told apart); a line before any build (a crash, a bad command line) goes to every
 * project, as does a non-zero status that no project's lines explain (the time limit).
 */
export function typeCheckProjects(
  compiler: string,
  projects: string[],
  cwd: string,
  timeoutMs: number,
  {
    runtimeDeclarations = false,
    ownFilesOnlyIn = [],
  }: Pick<CheckOptions, "runtimeDeclarations"> & {
    /** The projects TypeScript 6 checks as CheckOptions' `ownFilesOnly` says. */
    ownFilesOnlyIn?: readonly string[];
  } = {},
): Promise<Map<string, ProjectCheck>> {
  // TypeScript 6 checks each project in the test's own process (tsc6-in-process.ts), which
  // already shares the compiler and the lib files between them
  if (compiler === typescript6)
    return Promise.resolve(
      new Map(
        projects.map((project) => {
          const run = typeCheck6InProcess(resolve(cwd, project), {
            cwd,
            runtimeDeclarations,
            ownFilesOnly: ownFilesOnlyIn.includes(project),
          });
          return [project, { status: run.status, output: run.stdout }];
        }),
      ),
    );
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [compiler, "-b", "--verbose", "--force", ...projects], {
      cwd,
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", fail);
    child.on("close", (status) => {
      clearTimeout(timer);
      done(splitByProject(output, status, projects, cwd));
    });
  });
}

/** A line of build mode's own report (`--verbose`): `9:04:03 AM - Building project '...'...`. */
const statusLine = /^\[?\d{1,2}:\d\d:\d\d(?: [AP]M)?\]? - (.*)$/;

function splitByProject(
  output: string,
  status: number | null,
  projects: string[],
  cwd: string,
): Map<string, ProjectCheck> {
  const byPath = new Map(projects.map((project) => [resolve(cwd, project), project]));
  const lines = new Map<string, string[]>(projects.map((project) => [project, []]));
  const everyone: string[] = [];
  let current = everyone;
  let inStatus = false;
  for (const line of output.replaceAll("\r", "").split("\n")) {
    if (line === "") continue;
    const report = statusLine.exec(line)?.[1];
    if (report !== undefined) {
      // each project's diagnostics follow the line that starts its build
      const building = /^Building project '(.+)'\.\.\.$/.exec(report)?.[1];
      if (building !== undefined)
        current = lines.get(byPath.get(resolve(cwd, building))!) ?? everyone;
      inStatus = true;
      continue;
    }
    // the indented lines under a report line (the list of projects) are the report's
    if (inStatus && /^\s/.test(line)) continue;
    inStatus = false;
    current.push(line);
  }
  const explained = [...lines.values()].some((own) => own.length > 0);
  return new Map(
    projects.map((project) => {
      const own = [...lines.get(project)!, ...everyone];
      const failed = own.length > 0 || (status !== 0 && !explained);
      const text = own.length > 0 ? `${own.join("\n")}\n` : failed ? `(exit ${status})` : "";
      return [project, { status: failed ? (status ?? 1) || 1 : 0, output: text }];
    }),
  );
}
