/** Spawns a process and measures its wall time and peak RSS (via /usr/bin/time -f %M when present). */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const root = join(import.meta.dirname, "..");
export const scratch = join(root, "node_modules", ".cache", "apigen-bench");
const hasTime = existsSync("/usr/bin/time");

export function freshDir(name: string): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface ProcResult {
  ms: number;
  rssMb: number | undefined;
  /** User plus system CPU time of the process, when /usr/bin/time is there: less swayed by load. */
  cpuMs: number | undefined;
  stdout: string;
  stderr: string;
}

/**
 * A project folder of its own (a package.json, no apigen config) to run our CLI in on a
 * document: in the repository's root, its apigen.config.ts (every output on, the Merchant
 * package's) would apply, and the package made would not be the one a team gets by default.
 */
export function teamProject(): string {
  const dir = join(scratch, "team-project");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "team-project", "private": true }\n');
  return dir;
}

export function timed(cmd: string, args: string[], cwd = root, timeoutMs = 300_000): ProcResult {
  const rssFile = join(scratch, `rss-${process.pid}.txt`);
  mkdirSync(scratch, { recursive: true });
  const [c, a] = hasTime
    ? ["/usr/bin/time", ["-f", "%M %U %S", "-o", rssFile, cmd, ...args]]
    : [cmd, args];
  const start = performance.now();
  const r = spawnSync(c, a as string[], {
    cwd,
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - start;
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}\n${r.stdout}`.slice(0, 4000),
    );
  let rssMb: number | undefined;
  let cpuMs: number | undefined;
  if (hasTime) {
    const [kb, user, system] = readFileSync(rssFile, "utf8").trim().split("\n").at(-1)!.split(" ");
    rssMb = Number(kb) / 1024;
    cpuMs = (Number(user) + Number(system)) * 1000;
  }
  return { ms, rssMb, cpuMs, stdout: r.stdout, stderr: r.stderr };
}
