/**
 * A generated package as a type-check of its generated code sees it (docs/test-suite.md,
 * "Type-checking"): a copy in which the hand-written runtime (src/runtime/) is its
 * declarations, each file's `.d.ts` made alone by `transpileDeclaration` (the runtime spells
 * out every exported type, so no type checker is needed). TypeScript 6 then checks the
 * package's own files against the runtime's API, as against its sources, without checking the
 * runtime's bodies again: about four fifths of its time on a package of a feature fixture.
 * The runtime itself is checked in full elsewhere: by the project's own tsc (generator/ is
 * in tsconfig.json), and as part of the whole generated package by test/typecheck.test.ts.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";

/** The runtime's declarations by its source text: the same files recur in every package. */
const made = new Map<string, string>();

/** A runtime file's declarations; throws when one of its types would need the checker. */
function declarationsOf(path: string, text: string): string {
  const key = `${path}\0${text.slice(text.indexOf("\n") + 1)}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  const result = ts.transpileDeclaration(text, {
    fileName: path,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      exactOptionalPropertyTypes: true,
      isolatedDeclarations: true,
    },
    reportDiagnostics: true,
  });
  if (result.diagnostics?.length)
    throw new Error(`${path}: its declarations need the type checker`);
  // transpileDeclaration (TypeScript 6.0) writes a class's method named by a well-known symbol
  // (`[Symbol.asyncIterator]()`, `static [Symbol.hasInstance]()`) twice, once more as a
  // property of function type, which the checker then calls a duplicate: the method alone is
  // what the checker's own declaration emit writes
  const methods = new Set(
    [...result.outputText.matchAll(/^ *((?:static )?\[Symbol\.\w+\])\(/gm)].map((m) => m[1]),
  );
  const declarations = result.outputText.replace(
    /^ *((?:static )?\[Symbol\.\w+\]): \(.*\) => .*;\n/gm,
    (line, name: string) => (methods.has(name) ? "" : line),
  );
  made.set(key, declarations);
  return declarations;
}

/**
 * Copies the package folder `pkgDir` to `checkDir` (default: beside it, `-check` added), its
 * src/runtime/ as declarations, and returns `checkDir`. Everything else is copied as it is
 * (a consumer file, the tsconfig), but dist/ and node_modules/.
 */
export function withRuntimeDeclarations(pkgDir: string, checkDir = `${pkgDir}-check`): string {
  // the copy is written beside the package: a test's scratch package, never a repository folder
  if (!pkgDir.startsWith(tmpdir())) throw new Error(`${pkgDir} is not a scratch package`);
  const runtime = join(pkgDir, "src", "runtime");
  const skipped = [runtime, join(pkgDir, "dist"), join(pkgDir, "node_modules")];
  cpSync(pkgDir, checkDir, {
    recursive: true,
    filter: (source) => !skipped.includes(source),
  });
  if (!existsSync(runtime)) return checkDir;
  for (const entry of readdirSync(runtime, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const source = join(entry.parentPath, entry.name);
    const path = relative(runtime, source).split(sep).join("/");
    const target = join(checkDir, "src", "runtime", path.replace(/\.ts$/, ".d.ts"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, declarationsOf(path, readFileSync(source, "utf8")));
  }
  return checkDir;
}
