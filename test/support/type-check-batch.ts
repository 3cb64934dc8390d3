/**
 * Several projects type-checked by one compiler process (docs/test-suite.md, "Type-checking"):
 * `tsc -b` over all of them reads TypeScript's lib files (lib.dom.d.ts and the ES libs) and
 * starts the compiler once, not once per project, and each project's diagnostics are given
 * back to it: a test per project still fails on its own errors, with its own message.
 */
import { spawn } from "node:child_process";
import { resolve, sep } from "node:path";

/** What one project's check gives back: `status` 0 and `output` "" when it type-checks. */
export interface ProjectCheck {
  status: number | null;
  output: string;
}

/**
 * Runs `node <compiler> -b --force <project>...` (each project a tsconfig file; no emit, as
 * their own settings say) in `cwd`, without blocking the event loop, killed after `timeoutMs`.
 * Each output line naming a file is given to the project whose folder holds it, with the
 * indented lines after it; a line naming none (a config error, a crash) goes to every project,
 * as does a non-zero status that no project's lines explain (a crash, the time limit).
 */
export function typeCheckProjects(
  compiler: string,
  projects: string[],
  cwd: string,
  timeoutMs: number,
): Promise<Map<string, ProjectCheck>> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [compiler, "-b", "--force", ...projects], { cwd });
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

/** The folder of each project (its tsconfig file's), with a separator at its end. */
function folderOf(project: string, cwd: string): string {
  const path = resolve(cwd, project);
  return path.slice(0, path.lastIndexOf(sep) + 1);
}

function splitByProject(
  output: string,
  status: number | null,
  projects: string[],
  cwd: string,
): Map<string, ProjectCheck> {
  const folders = projects.map((project) => folderOf(project, cwd));
  const lines = new Map<string, string[]>(projects.map((project) => [project, []]));
  const everyone: string[] = [];
  let current = everyone;
  for (const line of output.split("\n")) {
    if (line === "") continue;
    if (!/^\s/.test(line)) {
      // `path(line,col): error TS...`, or `path: ...`; the longest folder holding it wins
      const file = /^(.+?)(?:\(\d+,\d+\))?: /.exec(line)?.[1];
      const path = file === undefined ? undefined : resolve(cwd, file);
      let owner: string | undefined;
      projects.forEach((project, i) => {
        if (
          path?.startsWith(folders[i]!) &&
          (!owner || folders[i]!.length > folderOf(owner, cwd).length)
        )
          owner = project;
      });
      current = owner === undefined ? everyone : lines.get(owner)!;
    }
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
