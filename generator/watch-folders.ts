/**
 * What `watch` listens to: every folder of the spec, never its files. A watch on a file
 * follows the file, not its name, so after one save that writes a new file and renames it
 * over the old one (sed -i, vim, JetBrains' safe write) it listened to a file that no longer
 * existed, and every later save went unseen; Node's recursive watch on Linux watches files
 * that way. A folder's watch sees each name in it change, however the change is made: an
 * edit in place, a rename over it, a delete and a new write, a new file.
 *
 * The folders are the ones the loader reads (spec-folder.ts): the spec folder and each folder
 * below it, symbolic links followed, and for a spec file that is a link, the folder of the
 * file it leads to (only that name counts there). `sync` lists them again after each burst
 * of events, so a folder made or removed since is watched or dropped.
 */
import { lstatSync, readdirSync, realpathSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join } from "node:path";

const specFileName = /\.ya?ml$/;

/** A watched folder (by its real path): its watch, and the names that count in it (all spec files when undefined). */
interface WatchedFolder {
  watcher: FSWatcher;
  names: Set<string> | undefined;
}

/**
 * The folders to watch, by real path, each with the names that count in it: undefined for a
 * folder of the spec (every spec file), a set for a folder a linked spec file leads into.
 */
function foldersToWatch(root: string): Map<string, Set<string> | undefined> {
  const folders = new Map<string, Set<string> | undefined>();
  const linkTargets: string[] = [];
  const walk = (folder: string): void => {
    let real: string;
    let names: string[];
    try {
      real = realpathSync(folder);
      names = readdirSync(folder);
    } catch {
      return; // gone, or unreadable: the loader reports it
    }
    if (folders.has(real) && folders.get(real) === undefined) return; // seen, or a link loop
    folders.set(real, undefined);
    for (const name of names) {
      const path = join(folder, name);
      try {
        if (statSync(path).isDirectory()) walk(path);
        else if (specFileName.test(name) && lstatSync(path).isSymbolicLink())
          linkTargets.push(realpathSync(path));
      } catch {
        // a link to nothing, or a loop: nothing to watch but its folder, which is watched
      }
    }
  };
  walk(root);
  for (const target of linkTargets) {
    const folder = dirname(target);
    if (folders.has(folder) && folders.get(folder) === undefined) continue;
    const names = folders.get(folder) ?? new Set<string>();
    names.add(basename(target));
    folders.set(folder, names);
  }
  return folders;
}

export interface SpecFolderWatch {
  /** Lists the folders again and watches exactly those; returns whether the set changed. */
  sync(): boolean;
  close(): void;
}

/**
 * Watches the spec folder `root`: `changed(specFile)` is called on every event in a watched
 * folder, with whether it names a spec file that counts (a save) or something else (an
 * editor's swap file, a folder made or removed: call `sync` to know whether the folders
 * changed). Throws as `fs.watch` does when `root` cannot be watched.
 */
export function watchSpecFolders(
  root: string,
  changed: (specFile: boolean) => void,
  /** Names of the files that count (an OpenAPI document's folder: JSON files too). */
  fileName: RegExp = specFileName,
  /** The folders to watch, when not the spec folder `root` and every folder below it. */
  listFolders: () => Map<string, Set<string> | undefined> = () => foldersToWatch(root),
): SpecFolderWatch {
  const watched = new Map<string, WatchedFolder>();
  const open = (folder: string, names: Set<string> | undefined): WatchedFolder => {
    const entry: WatchedFolder = { watcher: watch(folder), names };
    entry.watcher.on("change", (_event, name) => {
      const file = name === null ? undefined : String(name);
      changed(
        file === undefined ||
          (fileName.test(file) && (entry.names === undefined || entry.names.has(file))),
      );
    });
    // a folder removed under its watch (some platforms say so with an error): drop it
    entry.watcher.on("error", () => {
      entry.watcher.close();
      if (watched.get(folder) === entry) watched.delete(folder);
      changed(false);
    });
    return entry;
  };
  const sync = (): boolean => {
    const wanted = listFolders();
    let altered = false;
    for (const [folder, entry] of watched)
      if (!wanted.has(folder)) {
        entry.watcher.close();
        watched.delete(folder);
        altered = true;
      }
    for (const [folder, names] of wanted) {
      const entry = watched.get(folder);
      if (entry) {
        entry.names = names;
        continue;
      }
      try {
        watched.set(folder, open(folder, names));
        altered = true;
      } catch {
        // removed between the listing and the watch: the next sync sees it gone
      }
    }
    return altered;
  };
  sync();
  let rootFolder = root;
  try {
    rootFolder = realpathSync(root);
  } catch {
    // not there: the watch below throws as fs.watch does
  }
  if (!watched.has(rootFolder)) watched.set(rootFolder, open(root, undefined));
  return {
    sync: () => sync(),
    close: () => {
      for (const entry of watched.values()) entry.watcher.close();
      watched.clear();
    },
  };
}
