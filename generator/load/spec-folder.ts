/**
 * The one listing of a spec folder: which files are spec files, and their bytes. The loader
 * parses exactly what this returns, and the up-to-date check (write/inputs.ts) hashes the
 * same bytes, so the two can never disagree about what the spec is.
 *
 * Symbolic links are followed (a spec may share files through them), a link that loops or
 * leads nowhere is reported, and anything that is not a regular file (a FIFO, a socket, a
 * device) is reported without ever being read: opening a FIFO would wait for a writer forever.
 *
 * Only `node:` modules are imported: the up-to-date check must not load the YAML parser.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { join } from "node:path";

/** Largest spec file read; past it the file is reported, not read (memory stays bounded). */
export const maxSpecFileBytes = 16 * 1024 * 1024;

/** One spec file: the path it was reached by, and its bytes. */
export interface SpecSource {
  path: string;
  bytes: Uint8Array;
}

/** Why a file or folder below the spec folder could not be read. */
export interface FolderProblem {
  path: string;
  kind: "unreadable" | "not-a-file" | "too-large" | "link-loop";
  /** Words for the diagnostic; never an absolute path. */
  reason: string;
}

export interface SpecFolder {
  /** Spec files in path order. */
  sources: SpecSource[];
  problems: FolderProblem[];
}

const specFileName = /\.ya?ml$/;

/** Words for a file system error, without the path Node puts in its message. */
export function reasonOf(error: unknown): { kind: FolderProblem["kind"]; reason: string } {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "ELOOP":
      return { kind: "link-loop", reason: "its symbolic links form a loop" };
    case "ENOENT":
      return { kind: "unreadable", reason: "it does not exist (a symbolic link to nothing?)" };
    case "EACCES":
    case "EPERM":
      return { kind: "unreadable", reason: "permission denied" };
    case "EISDIR":
      return { kind: "not-a-file", reason: "it is a folder" };
    default:
      return {
        kind: "unreadable",
        reason: typeof code === "string" ? code : "it could not be read",
      };
  }
}

/**
 * Reads a file that must be a regular file of at most `maxBytes`. It is opened without
 * blocking and checked on the open descriptor, so a file swapped for a FIFO after the listing
 * is still never waited on. The importer reads the files a document's `$ref`s reach with it.
 */
export function readRegularFile(
  path: string,
  maxBytes = maxSpecFileBytes,
): Uint8Array | Omit<FolderProblem, "path"> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return reasonOf(error);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return reasonOf({ code: "EISDIR" });
    if (!stats.isFile())
      return { kind: "not-a-file", reason: "it is not a regular file (a FIFO, socket or device)" };
    if (stats.size > maxBytes)
      return { kind: "too-large", reason: `it is larger than ${maxBytes / 1024 / 1024} MiB` };
    const bytes = new Uint8Array(stats.size);
    let at = 0;
    while (at < bytes.length) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) break;
      at += read;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    return reasonOf(error);
  } finally {
    closeSync(fd);
  }
}

/** Every spec file below `dir` (symbolic links followed), read, plus what could not be read. */
export function readSpecFolder(dir: string): SpecFolder {
  const sources: SpecSource[] = [];
  const problems: FolderProblem[] = [];
  const report = (path: string, problem: Omit<FolderProblem, "path">): void => {
    problems.push({ path, ...problem });
  };
  /** Real paths of the folders on the way down: a link back to one of them is a loop. */
  const ancestors = new Set<string>();
  const walk = (folder: string): void => {
    let real: string;
    let names: string[];
    try {
      real = realpathSync(folder);
      names = readdirSync(folder).sort();
    } catch (error) {
      return report(folder, reasonOf(error));
    }
    if (ancestors.has(real))
      return report(folder, {
        kind: "link-loop",
        reason: "a symbolic link leads back to a folder that contains it",
      });
    ancestors.add(real);
    for (const name of names) {
      const full = join(folder, name);
      let isFolder: boolean;
      try {
        isFolder = statSync(full).isDirectory();
      } catch (error) {
        // A spec-named entry that cannot be reached is a spec file the run would miss.
        if (specFileName.test(name)) report(full, reasonOf(error));
        continue;
      }
      if (isFolder) walk(full);
      else if (specFileName.test(name)) {
        const read = readRegularFile(full);
        if (read instanceof Uint8Array) sources.push({ path: full, bytes: read });
        else report(full, read);
      }
    }
    ancestors.delete(real);
  };
  walk(dir);
  sources.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { sources, problems };
}
