/**
 * Vitest global setup: one temporary folder for the whole run, removed at its end. Node's
 * `os.tmpdir()` reads TMPDIR at each call, so every folder a test (or a tool a test runs:
 * npm, tsc, Prism) makes under the system temp folder lands inside this one, and the run
 * leaves the system temp folder as it found it even when a test is cut off before its own
 * clean-up. Tests still remove what they make; this is the net under them.
 *
 * The folder goes on a memory file system when the machine has one with room (runFolderParent):
 * the run writes over a gigabyte of scratch files (generated packages, npm's installs, compiled
 * consumers), and every generation flushes each file it writes to disk
 * (generator/write/staging.ts), which on a disk is about 30 s of the run's system CPU
 * (docs/test-suite.md, "Scratch files in memory").
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Linux's tmpfs, as statfs(2) names it: a file system in memory, whose fsync does nothing. */
const tmpfsMagic = 0x01021994;
/** Free room the memory file system must have: the run holds about 0.3 GB at its peak. */
const roomNeeded = 2 * 1024 ** 3;

/**
 * Where the run's folder is made: a TMPDIR set by whoever started the run is theirs, and kept;
 * otherwise /dev/shm when it is a tmpfs with room (Linux; a container's default /dev/shm of
 * 64 MB is too small, and then the system temp folder is used), else the system temp folder.
 */
export function runFolderParent(
  env: NodeJS.ProcessEnv = process.env,
  memory = "/dev/shm",
  statfs: (path: string) => { type: number; bsize: number; bavail: number } = statfsSync,
): string {
  if (env.TMPDIR) return env.TMPDIR;
  try {
    const fs = statfs(memory);
    if (fs.type === tmpfsMagic && fs.bavail * fs.bsize >= roomNeeded) return memory;
  } catch {
    // no such folder here (macOS, Windows)
  }
  return tmpdir();
}

/** The run's folder, in the system temp folder when /dev/shm would not take it (not writable). */
function makeRunFolder(): string {
  const parent = runFolderParent();
  try {
    return mkdtempSync(join(parent, "apigen-test-run-"));
  } catch (error) {
    if (parent === tmpdir()) throw error;
    return mkdtempSync(join(tmpdir(), "apigen-test-run-"));
  }
}

export default function setup(): () => void {
  // Each vitest project runs the global setup (vitest.config.ts has two): the first makes the
  // run's folder, the others use it (a folder of their own inside it would be removed under them).
  const made = process.env.APIGEN_TEST_ROOT;
  if (made !== undefined && existsSync(made)) return () => {};
  const before = { TMPDIR: process.env.TMPDIR, TEMP: process.env.TEMP, TMP: process.env.TMP };
  const root = makeRunFolder();
  process.env.APIGEN_TEST_ROOT = root;
  process.env.TMPDIR = root;
  process.env.TEMP = root;
  process.env.TMP = root;
  return () => {
    const left = existsSync(root) ? readdirSync(root) : [];
    if (left.length > 0 && process.env.APIGEN_DEBUG)
      console.log(
        `temp-root: ${left.length} entries left by tests: ${left.slice(0, 10).join(", ")}`,
      );
    rmSync(root, { recursive: true, force: true });
    for (const [name, value] of Object.entries(before))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    delete process.env.APIGEN_TEST_ROOT;
  };
}
