/** How a path is shown in messages: relative to the working folder, with `/` separators. */
import { existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";

/** `file` relative to the working folder, `/`-separated on every platform. */
export function displayPath(file: string): string {
  return relative(process.cwd(), file).split(sep).join("/");
}

/** Files that mark the root of the project a spec folder belongs to. */
const rootMarkers = ["package.json", ".git"];

/**
 * How generated files name their spec folder (`spec/`, `test/fixtures/features/objects/`):
 * relative to the nearest folder above it that holds a `package.json` or `.git` (the project
 * the spec belongs to), else the folder's own name. Never relative to the working folder,
 * so the same spec generates the same bytes wherever the command runs.
 */
export function specLabel(specDir: string): string {
  const folder = resolve(specDir);
  for (let root = dirname(folder); ; root = dirname(root)) {
    if (rootMarkers.some((m) => existsSync(join(root, m))))
      return `${relative(root, folder).split(sep).join("/")}/`;
    if (dirname(root) === root) return `${basename(folder)}/`;
  }
}
