/**
 * One copy of the hand-written runtime for several generated packages that a test
 * type-checks in one program (docs/test-suite.md, "Type-checking"). Every package carries the
 * same runtime (generator/runtime, copied under src/runtime/ with the package's banner line),
 * and checking it was about four fifths of TypeScript 6's time on a package of a few hundred
 * operations: a program of thirteen packages checked it thirteen times. Here the packages'
 * runtime files are first shown to be the same text below the banner wherever two have the
 * same file, then gathered into one folder that the packages' own files import instead. What
 * each package generated for its API is checked as before, against the same runtime text.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The files under `dir`, relative to it with `/`, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

/** A runtime file's text without its first line, the banner naming the package's API. */
function belowBanner(text: string): string {
  return text.slice(text.indexOf("\n") + 1);
}

/**
 * Makes the packages (their folders, each with src/runtime/) share one runtime in `sharedDir`:
 * the union of their runtime files (a package copies only the modules its API needs), each of
 * which must have the same text below the banner in every package that has it (else this
 * throws, naming the file). Each package loses its own copy, and its files import the shared
 * one.
 */
export function shareRuntime(packageDirs: readonly string[], sharedDir: string): void {
  const texts = new Map<string, { text: string; from: string }>();
  for (const dir of packageDirs) {
    const runtime = join(dir, "src/runtime");
    for (const file of filesUnder(runtime)) {
      const path = join(runtime, file);
      const text = readFileSync(path, "utf8");
      const seen = texts.get(file);
      if (seen === undefined) texts.set(file, { text, from: path });
      else if (belowBanner(seen.text) !== belowBanner(text)) {
        throw new Error(`${path} differs from ${seen.from}`);
      }
    }
    rmSync(runtime, { recursive: true });
  }
  // the module format of the packages' own package.json (ES modules), for the folder's files
  const { type } = JSON.parse(readFileSync(join(packageDirs[0]!, "package.json"), "utf8")) as {
    type?: string;
  };
  mkdirSync(sharedDir, { recursive: true });
  writeFileSync(join(sharedDir, "package.json"), `${JSON.stringify({ type })}\n`);
  for (const [file, { text }] of texts) {
    mkdirSync(dirname(join(sharedDir, file)), { recursive: true });
    writeFileSync(join(sharedDir, file), text);
  }
  for (const dir of packageDirs) importRuntimeFrom(join(dir, "src"), sharedDir);
}

/** Makes the TypeScript files directly in `src` import `./runtime/...` from `runtimeDir` instead. */
export function importRuntimeFrom(src: string, runtimeDir: string): void {
  const target = relative(src, runtimeDir).split("\\").join("/");
  for (const file of readdirSync(src).filter((name) => name.endsWith(".ts"))) {
    const path = join(src, file);
    const text = readFileSync(path, "utf8").replace(/(["'])\.\/runtime\//g, `$1${target}/`);
    writeFileSync(path, text);
  }
}

/**
 * One program over the packages (folders relative to `root`) and the `more` files or folders
 * (relative to `root`: consumers, checks): their runtime shared in root/runtime
 * (`shareRuntime`), under the first package's compiler options; the path of its tsconfig.json.
 */
export function programOverSharedRuntime(
  root: string,
  packages: readonly string[],
  more: readonly string[] = [],
): string {
  shareRuntime(
    packages.map((dir) => join(root, dir)),
    join(root, "runtime"),
  );
  const project = join(root, "tsconfig.json");
  writeFileSync(
    project,
    JSON.stringify({
      extends: `./${packages[0]}/tsconfig.json`,
      include: ["runtime", ...packages.map((dir) => `${dir}/src`), ...more],
    }),
  );
  return project;
}
