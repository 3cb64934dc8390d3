/**
 * TypeScript 6's `tsc -p <project>` run inside the test worker instead of a process of its own
 * (docs/test-suite.md, "Type-checking"): the same compiler, options and files, and the same
 * exit status and text as test/support/tsc6.cjs prints, but the compiler is loaded once per
 * worker, and the files that never change within a run (TypeScript's lib files, @types/node,
 * everything under node_modules/) are parsed and bound once per worker and shared by every
 * program after, as TypeScript's own language service shares them. Those were about a second
 * of CPU of every check (loading tsc.js, then parsing and binding lib.dom.d.ts and the rest)
 * before the package itself was checked.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { rootsWithRuntimeDeclarations, runtimeAsDeclarations } from "./runtime-declarations.ts";

/** What a `tsc` run gave: its exit status and what it printed (tsc prints to stdout). */
export interface TscRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Parsed files that do not change within a run, shared between programs. The key holds what
 * the parse depends on (the language version and the module format the file is read in), and
 * the binder's strictness, which it records on the file.
 */
const stableFiles = new Map<string, ts.SourceFile>();
/** The repository's own installed packages: TypeScript's lib files, @types/node. */
const installed = join(import.meta.dirname, "../../node_modules/");

function sharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  const strict = Boolean(options.strict || options.alwaysStrict);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.startsWith(installed))
      return parse(fileName, languageVersion, onError, shouldCreate);
    const setting =
      typeof languageVersion === "object"
        ? `${languageVersion.languageVersion}:${languageVersion.impliedNodeFormat}`
        : `${languageVersion}`;
    const key = `${fileName}\0${setting}\0${strict}`;
    const known = stableFiles.get(key);
    // the text is read again (a few milliseconds): a file that changed is parsed again
    if (known && known.text === host.readFile(fileName)) return known;
    const file = parse(fileName, languageVersion, onError, shouldCreate);
    if (file) stableFiles.set(key, file);
    return file;
  };
  return host;
}

/**
 * A TypeScript 6 program of `rootNames` under `options`, its installed files (the lib files
 * above all) shared with every other program of this worker and not checked
 * (`skipDefaultLibCheck`): for a test that reads the diagnostics itself.
 */
export function programSharingLibFiles(
  rootNames: readonly string[],
  options: ts.CompilerOptions,
): ts.Program {
  const shared = { ...options, skipDefaultLibCheck: true };
  return ts.createProgram({ rootNames, options: shared, host: sharingHost(shared) });
}

const formatHost = (cwd: string): ts.FormatDiagnosticsHost => ({
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => cwd,
  getNewLine: () => "\n",
});

/**
 * The diagnostics tsc reports before it emits, in its order: syntax errors alone when there are
 * any, else the options' and global ones, then the semantic ones when those are none, then
 * the declaration ones of a `noEmit` project that declares.
 */
function reportedDiagnostics(program: ts.Program, ownFilesOnly: boolean): ts.Diagnostic[] {
  const options = program.getCompilerOptions();
  const all = [...program.getConfigFileParsingDiagnostics()];
  const fromConfig = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length > fromConfig) return all;
  all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
  // the project's own files (its `files` and `include`), each checked alone: the checker then
  // works out only the types of what they use from the files they import
  const own = ownFilesOnly
    ? program.getRootFileNames().map((name) => program.getSourceFile(name))
    : [undefined];
  if (all.length === fromConfig)
    for (const file of own) all.push(...program.getSemanticDiagnostics(file));
  const declares = Boolean(options.declaration || options.composite);
  if (options.noEmit && declares && all.length === fromConfig)
    for (const file of own) all.push(...program.getDeclarationDiagnostics(file));
  return all;
}

/**
 * `tsc --skipDefaultLibCheck -p <project>` (what test/support/tsc6.cjs runs), `noEmit` as
 * the project or `noEmit` says: diagnostics printed as tsc prints them into a pipe, paths
 * relative to `cwd`, and tsc's exit status (0 when clean; with errors 2, or 1 where the
 * emit was skipped, which a `noEmit` program's is not; 1 for a config that is not there).
 */
export function typeCheck6InProcess(
  project: string,
  {
    noEmit = false,
    cwd = process.cwd(),
    runtimeDeclarations = false,
    ownFilesOnly = false,
  }: {
    noEmit?: boolean;
    cwd?: string | undefined;
    runtimeDeclarations?: boolean;
    ownFilesOnly?: boolean;
  } = {},
): TscRun {
  const found = statSync(project, { throwIfNoEntry: false });
  // tsc's own words for a path that is not there (its check of `-p` before reading it)
  if (!found)
    return {
      status: 1,
      stdout: `error TS5058: The specified path does not exist: '${project}'.\n`,
      stderr: "",
    };
  if (found.isDirectory()) project = join(project, "tsconfig.json");
  let configError: ts.Diagnostic | undefined;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    project,
    { skipDefaultLibCheck: true, ...(noEmit ? { noEmit: true } : {}) },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => (configError = diagnostic),
    },
  );
  if (!parsed || configError) {
    const stdout = configError ? ts.formatDiagnostics([configError], formatHost(cwd)) : "";
    return { status: 1, stdout, stderr: "" };
  }
  // a generated package's runtime as its declarations (test/support/runtime-declarations.ts):
  // only for a program that writes nothing, which emitted JavaScript would need the runtime of
  const asDeclarations = runtimeDeclarations && parsed.options.noEmit === true;
  const host = asDeclarations
    ? runtimeAsDeclarations(sharingHost(parsed.options))
    : sharingHost(parsed.options);
  const program = ts.createProgram({
    rootNames: asDeclarations
      ? rootsWithRuntimeDeclarations(host, parsed.fileNames)
      : parsed.fileNames,
    options: parsed.options,
    ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    host,
  });
  const diagnostics = reportedDiagnostics(program, ownFilesOnly);
  const emitted = program.emit();
  diagnostics.push(...emitted.diagnostics);
  const sorted = ts.sortAndDeduplicateDiagnostics(diagnostics);
  const stdout = ts.formatDiagnostics(sorted, formatHost(cwd));
  const status = sorted.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return { status, stdout, stderr: "" };
}
