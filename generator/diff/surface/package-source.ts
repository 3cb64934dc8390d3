/**
 * The two packages whose TypeScript surfaces `diff` compares: the one this apigen makes from
 * the current spec, and the base: the package folder as it was committed at the base revision
 * (so a change that comes from apigen itself shows too: a renamed export, a narrowed type), or,
 * when BASE is a spec folder or the package was not committed there, the one this apigen makes
 * from the base spec. Only what the surface is read from: package.json and the sources.
 */
import { execFileSync } from "node:child_process";
import { relative } from "node:path";
import { createEmitContext } from "../../emit/context.ts";
import { emittersFor } from "../../emit/emitters.ts";
import { outputDefaults, type OutputSwitches } from "../../emit/shared/outputs.ts";
import type { ApiModel } from "../../ir/model.ts";

export interface PackageSource {
  /** Files by their path in the package (`package.json`, `src/client.ts`, `dist/index.d.ts`). */
  files: Map<string, string>;
  /** Where it comes from, for the report: `generated/ at HEAD~1`. */
  origin: string;
}

/** An entry point of the package: `merchant-commerce-api/callbacks` and its declarations file. */
export interface EntryPoint {
  /** Its key in `exports`: `.`, `./callbacks`. */
  key: string;
  specifier: string;
  /** The path in the package of the declarations it names (`dist/callbacks.d.ts`). */
  types: string;
}

/** A file the surface is read from: the manifest and TypeScript sources or declarations. */
const surfaceFile = (path: string) => path === "package.json" || /\.(d\.)?[cm]?ts$/.test(path);

/** The package this apigen generates from `model` with `outputs`, in memory. */
export function generatedPackage(
  model: ApiModel,
  specName: string,
  origin: string,
  outputs: OutputSwitches = outputDefaults,
): PackageSource {
  const ctx = createEmitContext(model, specName, outputs);
  const files = new Map<string, string>();
  for (const emitter of emittersFor(outputs))
    for (const file of [emitter.emit(ctx)].flat())
      if (surfaceFile(file.path)) files.set(file.path, file.contents);
  return { files, origin };
}

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
}

/**
 * The package folder `outDir` as committed at `revision` of the repository that holds
 * `specDir`; undefined when no package.json was committed there.
 */
export function committedPackage(
  specDir: string,
  outDir: string,
  revision: string,
  origin: string,
): PackageSource | undefined {
  const top = git(specDir, ["rev-parse", "--show-toplevel"]).trim();
  const inRepo = relative(top, outDir).split("\\").join("/");
  if (inRepo.startsWith("..")) return undefined;
  const prefix = inRepo === "" ? "" : `${inRepo}/`;
  const listed = git(top, ["ls-tree", "-r", "--name-only", revision, "--", inRepo || "."])
    .split("\n")
    .filter((f) => f.startsWith(prefix) && surfaceFile(f.slice(prefix.length)));
  if (!listed.includes(`${prefix}package.json`)) return undefined;
  const texts = committedTexts(top, revision, listed);
  const files = new Map(listed.map((file, i) => [file.slice(prefix.length), texts[i]!]));
  return { files, origin };
}

/**
 * The texts of `paths` (listed by `git ls-tree` at `revision`) as committed there, read by one
 * `git cat-file --batch`: a `git show` per file was most of a `diff`'s own time on a package
 * of some eighty files (about 0.5 s, a process each).
 */
function committedTexts(top: string, revision: string, paths: readonly string[]): string[] {
  const out = execFileSync("git", ["cat-file", "--batch"], {
    cwd: top,
    input: paths.map((path) => `${revision}:${path}\n`).join(""),
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  // each object: `<name> <type> <size>\n`, its bytes, `\n`
  let at = 0;
  return paths.map((path) => {
    const end = out.indexOf(0x0a, at);
    const header = /^\S+ \S+ (\d+)$/.exec(out.toString("utf8", at, end === -1 ? at : end));
    if (end === -1 || !header)
      throw new Error(`git cat-file could not read ${path} at ${revision}`);
    const size = Number(header[1]);
    at = end + 1 + size + 1;
    return out.toString("utf8", end + 1, end + 1 + size);
  });
}

/**
 * The declarations file of an `exports` value: its `types`, else its ES module build's (the
 * `import` or `default` condition: a package that is also CommonJS has the same declarations
 * under `require`), else none.
 */
function typesOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const conditions = value as Record<string, unknown>;
  if (typeof conditions["types"] === "string") return conditions["types"];
  return typesOf(conditions["import"]) ?? typesOf(conditions["default"]);
}

/** `exports` of package.json with a `types` condition, each as an entry point. */
export function entryPoints(pkg: PackageSource): EntryPoint[] {
  const manifest = JSON.parse(pkg.files.get("package.json") ?? "{}") as {
    name?: string;
    types?: string;
    exports?: Record<string, unknown>;
  };
  const name = manifest.name ?? "package";
  const entries: EntryPoint[] = [];
  const exports = manifest.exports ?? (manifest.types ? { ".": { types: manifest.types } } : {});
  for (const [key, value] of Object.entries(exports)) {
    const types = typesOf(value);
    if (types === undefined) continue;
    entries.push({
      key,
      specifier: key === "." ? name : `${name}/${key.replace(/^\.\//, "")}`,
      types: types.replace(/^\.\//, ""),
    });
  }
  return entries;
}
