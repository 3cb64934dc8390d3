/**
 * Generated packages run as JavaScript that Node loads itself (docs/test-suite.md, "Writing a
 * heavy test"): each TypeScript file under a folder gets its JavaScript beside it (esbuild's
 * transform, one file at a time, types removed as `verbatimModuleSyntax` says: what a
 * bundler does), and the test imports the `.js` by Node's own `import()`. Through vitest's
 * module runner instead, every file of every package was transformed, source-mapped and
 * graphed by the run's main process: about 8 s of CPU for the thirteen corpus packages.
 * The generated files import each other as `./x.js` (NodeNext), so the JavaScript resolves
 * as the TypeScript did.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { nativeImport } from "../helpers.ts";

/**
 * One TypeScript file as JavaScript, without type checks: esbuild's transform, the types
 * removed as `verbatimModuleSyntax` says (what a bundler does). `path` names it in errors.
 */
export function transpiledTs(text: string, path: string): string {
  return transformSync(text, {
    loader: "ts",
    format: "esm",
    target: "es2022",
    sourcefile: path,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  }).code;
}

/** Writes `x.js` beside every `x.ts` (not `.d.ts`) under `dir`. */
export function compileInPlace(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isFile() || !name.endsWith(".ts") || name.endsWith(".d.ts")) continue;
    const path = join(entry.parentPath, name);
    writeFileSync(path.replace(/\.ts$/, ".js"), transpiledTs(readFileSync(path, "utf8"), path));
  }
}

/** A relative import's specifier in esbuild's JavaScript: `from "./x.js"`, `import "./x.js"`, `import("./x.js")`. */
const relativeImport = /(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}\/[^"]+)\.js"/g;

/**
 * Writes `x.js` beside each of `entries` and beside every TypeScript file they import by a
 * relative specifier, directly or not: the JavaScript a run of them loads, not a whole
 * folder's. An import that only types use is gone from the JavaScript, so is its file here;
 * a package's largest files (its OpenAPI document, the validators of every type) are read
 * only by the code that imports them.
 */
export function compileReachable(entries: readonly string[]): void {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let path = queue.pop(); path !== undefined; path = queue.pop()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const code = compiledOnce(path);
    for (const [, specifier] of code.matchAll(relativeImport)) {
      const imported = resolve(dirname(path), `${specifier}.ts`);
      if (existsSync(imported)) queue.push(imported);
    }
  }
}

/**
 * The hash of each file's text as this worker last compiled it: a file a later call reaches
 * again unchanged (corpus-calls compiles each package's testing.ts for its consumer, then its
 * client and validators for the sweep's calls) is read back, not transformed again. Hashes,
 * not texts, are kept: the worker outlives the file, and the texts are megabytes.
 */
const compiledText = new Map<string, string>();

/** Writes `x.js` beside `x.ts` unless this worker wrote it from the same text; its code. */
function compiledOnce(path: string): string {
  const text = readFileSync(path, "utf8");
  const hash = createHash("sha1").update(text).digest("hex");
  const js = path.replace(/\.ts$/, ".js");
  if (compiledText.get(path) === hash && existsSync(js)) return readFileSync(js, "utf8");
  const code = transpiledTs(text, path);
  writeFileSync(js, code);
  compiledText.set(path, hash);
  return code;
}

/** Imports the JavaScript that compileInPlace wrote for `tsPath`, by Node itself. */
export function importCompiled<T>(tsPath: string): Promise<T> {
  return nativeImport(pathToFileURL(tsPath.replace(/\.ts$/, ".js")).href) as Promise<T>;
}
