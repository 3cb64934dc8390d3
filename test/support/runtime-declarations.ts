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

/** The path below generator/runtime/ that a package's copied runtime file names on its second line. */
const copiedFrom = /^[^\n]*\n\/\/ Copied from generator\/runtime\/(.+)\.\n/;

/**
 * `host` with every runtime file a generated package copied (src/runtime/x.ts, its second line
 * `// Copied from generator/runtime/x.ts.`, which no other file has) seen as its declarations:
 * x.ts is not there and x.d.ts is, so the package's imports of `./runtime/x.js` resolve to the
 * declarations, as in a copy made by withRuntimeDeclarations, without copying. For a `noEmit`
 * program of a package whose folder the test must keep (a relative import into it, a project
 * of the repository): nothing is written.
 */
export function runtimeAsDeclarations(host: ts.CompilerHost): ts.CompilerHost {
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  // a program asks of a file many times: its answer is read once (the host lives for one program)
  const known = new Map<string, string | undefined>();
  /** The runtime file's path below generator/runtime/ when `fileName` is one a package copied. */
  const copied = (fileName: string): string | undefined => {
    if (!/[\\/]src[\\/]runtime[\\/].+(?<!\.d)\.ts$/.test(fileName)) return undefined;
    if (known.has(fileName)) return known.get(fileName);
    const text = readFile(fileName);
    const named = text === undefined ? undefined : copiedFrom.exec(text)?.[1];
    const path =
      named !== undefined && fileName.replaceAll("\\", "/").endsWith(`/runtime/${named}`)
        ? named
        : undefined;
    known.set(fileName, path);
    return path;
  };
  const declarations = (fileName: string): string | undefined => {
    if (!fileName.endsWith(".d.ts")) return undefined;
    const source = `${fileName.slice(0, -".d.ts".length)}.ts`;
    const path = copied(source);
    return path === undefined ? undefined : declarationsOf(path, readFile(source)!);
  };
  host.fileExists = (fileName) =>
    copied(fileName) === undefined &&
    (declarations(fileName) !== undefined || fileExists(fileName));
  host.readFile = (fileName) => declarations(fileName) ?? readFile(fileName);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = declarations(fileName);
    return text === undefined
      ? getSourceFile(fileName, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(fileName, text, languageVersion);
  };
  return host;
}

/**
 * The root files of a program under runtimeAsDeclarations: each copied runtime file
 * (a project's `include` lists the sources) as its declarations.
 */
export function rootsWithRuntimeDeclarations(
  host: ts.CompilerHost,
  roots: readonly string[],
): string[] {
  return roots.map((root) =>
    !host.fileExists(root) && host.fileExists(root.replace(/\.ts$/, ".d.ts"))
      ? root.replace(/\.ts$/, ".d.ts")
      : root,
  );
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
