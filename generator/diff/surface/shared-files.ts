/**
 * The declarations files two versions of a package share: the same text, importing only files
 * they share too (an unchanged `index.d.ts` that re-exports a changed `client.d.ts` is not
 * shared). The comparison loads each shared file once and both versions import that one, so
 * their types are the same declarations: nothing to compare structurally (most of a diff's
 * type-checking time was the runtime compared with its identical copy), and the result is the
 * same, as identical closures declare identical types.
 */
import { ts } from "ts-morph";
import { posix } from "node:path";

/**
 * The declarations file a relative `specifier` in the file at `from` names, among those `has`:
 * `./core.js` is `core.d.ts` beside it.
 */
export function declarationTarget(
  from: string,
  specifier: string,
  has: (path: string) => boolean,
): string | undefined {
  const target = posix.join(posix.dirname(from), specifier);
  const base = target.replace(/\.([cm]?)js$/, "");
  const candidates = [`${base}.d.ts`, `${base}.d.mts`, `${base}.d.cts`, `${target}.d.ts`];
  return [...candidates, `${target}/index.d.ts`].find(has);
}

/** The package files `path` imports by a relative specifier, as paths of `files`. */
function relativeImports(path: string, text: string, files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith(".")) continue;
    const found = declarationTarget(path, fileName, (p) => files.has(p));
    // a path outside the package's declarations: never shared, as it cannot be told the same
    out.push(found ?? `\0${posix.join(posix.dirname(path), fileName)}`);
  }
  return out;
}

/** The paths whose whole import closure is the same in `before` and `after`. */
export function sharedFiles(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Set<string> {
  const shared = new Set([...after.keys()].filter((p) => before.get(p) === after.get(p)));
  const imports = new Map([...shared].map((p) => [p, relativeImports(p, after.get(p)!, after)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const path of shared)
      if (imports.get(path)!.some((p) => !shared.has(p))) {
        shared.delete(path);
        changed = true;
      }
  }
  return shared;
}
