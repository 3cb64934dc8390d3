/**
 * Writing an output folder so that a run killed at any moment leaves every file old or new,
 * and the next run puts the whole folder right.
 *
 * 1. Claim: the staging folder `.apigen-staging/` is made under a private name holding the
 *    owner's process id, then renamed into place; the rename fails while another run holds
 *    it, so two runs never write one folder at once. A staging folder whose owner is gone is
 *    a killed run's: it is recovered first (step 4).
 * 2. Stage: each new file is written in full (and flushed to disk) under `files/`; the
 *    folders the targets need are made, and anything in their way is found, before anything
 *    is committed, so a failure here leaves the output folder as it was.
 * 3. Commit: `journal.json` (every rename and every stale file to remove) appears by one
 *    rename, flushed. From here on the write is done in effect.
 * 4. Apply: each staged file is renamed over its target, stale files are removed, and the
 *    staging folder is deleted. Recovery repeats this for a committed journal (a file already
 *    renamed is simply no longer staged), and deletes an uncommitted staging folder.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { DiagnosticsError, diagnostic } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import type { OutputFile } from "./writer.ts";

export const stagingName = ".apigen-staging";
const journalName = "journal.json";
const ownerName = "owner";

interface Journal {
  /** Staged file (relative to the staging folder) -> target (relative to the output folder). */
  renames: { staged: string; target: string }[];
  /** Files of the last run to remove, relative to the output folder. */
  removed: string[];
}

/** Whether `outDir` holds a write that was interrupted, or one under way. */
export function hasPendingWrite(outDir: string): boolean {
  return existsSync(join(outDir, stagingName));
}

/** Whether a process with this id is running (a process of another user counts as running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The owner's process id recorded in a staging folder, if it can be read. */
function ownerOf(staging: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(staging, ownerName), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a file and flushes it to disk before returning. */
function writeDurable(path: string, contents: string | Uint8Array): void {
  const fd = openSync(path, "w");
  try {
    writeFileSync(fd, contents); // all of it: a single write may be partial
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Flushes a folder's entries (the renames into it) to disk. Best effort: some platforms
 * (Windows) cannot open a folder for flushing, and the write is no less correct without it,
 * only less sure to survive a power loss.
 */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Words for a file system error, without the absolute path Node puts in its message. */
function reasonOf(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOSPC":
      return "no space left on the device";
    case "EROFS":
      return "the file system is read-only";
    case "ENOTDIR":
    case "EEXIST":
      return "a file is in the way of its folder";
    case "EISDIR":
      return "a folder is in the way";
    default:
      return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

function writeFailed(file: string, error: unknown): DiagnosticsError {
  return new DiagnosticsError([
    diagnostic("output-write-failed", { file: displayPath(file), reason: reasonOf(error) }),
  ]);
}

/** Renames whatever a journal still has staged and removes its stale files; idempotent. */
function apply(outDir: string, staging: string, journal: Journal): void {
  const folders = new Set<string>();
  for (const { staged, target } of journal.renames) {
    const from = join(staging, staged);
    if (!existsSync(from)) continue; // renamed before the run was cut off
    const to = join(outDir, target);
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    folders.add(dirname(to));
  }
  for (const folder of folders) syncFolder(folder);
  for (const path of journal.removed) {
    try {
      unlinkSync(join(outDir, path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/** Finishes a killed run's committed write, or drops an uncommitted one, and removes its staging folder. */
function recover(outDir: string, staging: string): void {
  const journalPath = join(staging, journalName);
  if (existsSync(journalPath))
    apply(outDir, staging, JSON.parse(readFileSync(journalPath, "utf8")) as Journal);
  rmSync(staging, { recursive: true, force: true });
}

/** Private staging folders of claims cut off before their rename: removed when their owner is gone. */
function removeAbandonedClaims(outDir: string): void {
  for (const name of readdirSync(outDir)) {
    const pid = new RegExp(`^${stagingName.replace(".", "\\.")}\\.(\\d+)$`).exec(name)?.[1];
    if (pid !== undefined && (Number(pid) === process.pid || !isRunning(Number(pid))))
      rmSync(join(outDir, name), { recursive: true, force: true });
  }
}

/** Makes the parent folders of `target`, recording the ones it made. */
function makeParents(target: string, made: string[]): void {
  const missing: string[] = [];
  for (let dir = dirname(target); !existsSync(dir); dir = dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    mkdirSync(dir);
    made.push(dir);
  }
  if (!statSync(dirname(target)).isDirectory())
    throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
}

/** The output folder, held by this run from `claimOutput` until `release`. */
export class OutputClaim {
  private committed = false;
  private applied = false;

  constructor(
    readonly outDir: string,
    readonly staging: string,
    /** An earlier run's interrupted write was finished or dropped while claiming. */
    readonly recovered: boolean,
  ) {}

  /**
   * Stages, commits and applies one write. On a failure before the commit, the folders it
   * made are removed and nothing else has changed; the error names the file.
   */
  write(files: readonly OutputFile[], stale: readonly string[]): void {
    const journal: Journal = { renames: [], removed: [...stale] };
    const made: string[] = [];
    let current = this.outDir;
    try {
      files.forEach((file, i) => {
        const target = join(this.outDir, file.path);
        current = target;
        makeParents(target, made);
        if (existsSync(target) && statSync(target).isDirectory())
          throw Object.assign(new Error("a folder"), { code: "EISDIR" });
        writeDurable(join(this.staging, "files", String(i)), file.bytes ?? file.contents);
        journal.renames.push({ staged: `files/${i}`, target: file.path });
      });
      current = this.outDir;
      writeDurable(join(this.staging, `${journalName}.tmp`), JSON.stringify(journal));
      renameSync(join(this.staging, `${journalName}.tmp`), join(this.staging, journalName));
      syncFolder(this.staging);
    } catch (error) {
      for (const dir of made.reverse()) rmdirSync(dir);
      throw error instanceof DiagnosticsError ? error : writeFailed(current, error);
    }
    this.committed = true;
    apply(this.outDir, this.staging, journal);
    this.applied = true;
  }

  /** Deletes the staging folder, unless a committed write could not be applied (a later run finishes it). */
  release(): void {
    if (!this.committed || this.applied) rmSync(this.staging, { recursive: true, force: true });
  }
}

/** Claims `outDir` for writing; throws DiagnosticsError when another running process holds it. */
export function claimOutput(outDir: string): OutputClaim {
  try {
    mkdirSync(outDir, { recursive: true });
    removeAbandonedClaims(outDir);
  } catch (error) {
    throw writeFailed(outDir, error);
  }
  const staging = join(outDir, stagingName);
  const mine = `${staging}.${process.pid}`;
  let recovered = false;
  for (;;) {
    try {
      mkdirSync(join(mine, "files"), { recursive: true });
      writeDurable(join(mine, ownerName), String(process.pid));
      renameSync(mine, staging);
      return new OutputClaim(outDir, staging, recovered);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOTEMPTY" && code !== "EEXIST") || recovered) {
        rmSync(mine, { recursive: true, force: true });
        throw writeFailed(staging, error);
      }
      const owner = ownerOf(staging);
      if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
        rmSync(mine, { recursive: true, force: true });
        throw new DiagnosticsError([
          diagnostic("output-busy", { dir: displayPath(outDir), pid: owner }),
        ]);
      }
      recover(outDir, staging);
      recovered = true;
    }
  }
}
