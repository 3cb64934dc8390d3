/** How a path is shown in messages: relative to the working folder, with `/` separators. */
import { existsSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { cliIo } from "../cli-io.ts";
import { isSpecUrl, specSourceKind, urlShown } from "../load/spec-source.ts";

/** `file` relative to the working folder (the run's, cli-io.ts), `/`-separated on every platform. */
export function displayPath(file: string): string {
  return relative(cliIo().cwd, file).split(sep).join("/");
}

/** Files that mark the root of the project a spec folder belongs to. */
const rootMarkers = ["package.json", ".git"];

/**
 * How generated files name their spec folder (`spec/`, `test/fixtures/features/objects/`) or
 * OpenAPI document (`api/openapi.yaml`, a URL without its query): relative to the nearest folder above it that holds a `package.json` or `.git` (the project
 * the spec belongs to), else the folder's own name. Never relative to the working folder,
 * so the same spec generates the same bytes wherever the command runs.
 */
export function specLabel(specDir: string): string {
  // An OpenAPI document: its URL as shown (no query), or its file, without the folder's `/`.
  if (isSpecUrl(specDir)) return urlShown(specDir);
  const end = specSourceKind(specDir) === "document" ? "" : "/";
  const folder = resolve(specDir);
  for (let root = dirname(folder); ; root = dirname(root)) {
    if (rootMarkers.some((m) => existsSync(join(root, m))))
      return `${relative(root, folder).split(sep).join("/")}${end}`;
    if (dirname(root) === root) return `${basename(folder)}${end}`;
  }
}
