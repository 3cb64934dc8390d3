/**
 * The public TypeScript surface of two versions of a package, compared the way a consumer's
 * compiler would (issue 34): every name each entry point exports, and for each one kept, a
 * consumer probe type-checked against both versions' declarations at once: does a use of the
 * old export still compile with the new one? For a value (a function, a class, a constant)
 * that is `typeof New.X` assignable to `typeof Old.X` (and, for a class, the old constructor
 * arguments accepted by the new one); for a type it depends on how consumers use it
 * (variance.ts): a type they read must fit where the old one was read (New to Old), one they
 * write must accept what was written (Old to New). A removed export, a value that became a
 * type only, or a failed check is breaking; an added export, or a changed one whose checks
 * hold in the directions consumers use it, is a compatible (minor) change; the rest is
 * unchanged. The same rule serves a spec change and a change in apigen
 * itself, which a model diff cannot see.
 */
import { Node, Project, ts, type SourceFile } from "ts-morph";
import { packageDeclarations, structuralDeclarations } from "./declarations.ts";
import { entryPoints, type EntryPoint, type PackageSource } from "./package-source.ts";
import { declarationTarget, sharedFiles } from "./shared-files.ts";
import { Variance, type Direction } from "./variance.ts";

export type SurfaceLevel = "breaking" | "minor";

export interface SurfaceChange {
  /** `merchant-commerce-api/callbacks`, then `CallbackHandlers` (empty for a whole entry point). */
  entry: string;
  name: string;
  level: SurfaceLevel;
  description: string;
  /** Its own declaration is unchanged: it changes through the types it refers to. */
  indirect: boolean;
}

export interface SurfaceReport {
  changes: SurfaceChange[];
  /** Exports whose declaration and type are the same in both. */
  unchanged: number;
  before: string;
  after: string;
}

type Side = "before" | "after";

interface Export {
  declarations: Node[];
  /** Their text, for telling a change of its own from one through what it refers to. */
  text: string;
  isType: boolean;
  isValue: boolean;
  isClass: boolean;
  typeParameters: number;
}

/** Whether `node` declares a value (something a consumer can use in an expression). */
const declaresValue = (d: Node) =>
  Node.isVariableDeclaration(d) ||
  Node.isFunctionDeclaration(d) ||
  Node.isClassDeclaration(d) ||
  Node.isEnumDeclaration(d) ||
  (Node.isModuleDeclaration(d) && d.getDeclarationKind() !== "global");

const declaresType = (d: Node) =>
  Node.isInterfaceDeclaration(d) ||
  Node.isTypeAliasDeclaration(d) ||
  Node.isClassDeclaration(d) ||
  Node.isEnumDeclaration(d);

const typeParameterCount = (d: Node) =>
  Node.isInterfaceDeclaration(d) || Node.isTypeAliasDeclaration(d) || Node.isClassDeclaration(d)
    ? d.getTypeParameters().length
    : 0;

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The exports of one entry point's declarations file, by name. */
function exportsOf(file: SourceFile | undefined): Map<string, Export> {
  const out = new Map<string, Export>();
  if (!file) return out;
  for (const [name, declarations] of file.getExportedDeclarations()) {
    if (!identifier.test(name)) continue;
    const nodes = declarations as Node[];
    out.set(name, {
      declarations: nodes,
      text: nodes.map((d) => d.getText().replace(/\s+/g, " ")).join("\n"),
      isType: nodes.some(declaresType),
      isValue: nodes.some(declaresValue),
      isClass: nodes.some((d) => Node.isClassDeclaration(d)),
      typeParameters: Math.max(0, ...nodes.map(typeParameterCount)),
    });
  }
  return out;
}

/**
 * The project of this process's comparisons, made at the first: TypeScript's lib files
 * (lib.dom.d.ts most of all) are parsed and bound once, not once per comparison. Each
 * comparison's files go under a folder of their own (`/1/`, `/2/`, with its probe at
 * `/probe-1.ts`), so no module resolution of an earlier one is ever reused, and are removed
 * once it is made.
 */
let comparisons: { project: Project; count: number; current?: Loaded | undefined } | undefined;

function comparisonProject(): NonNullable<typeof comparisons> {
  if (comparisons) return comparisons;
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    },
    resolutionHost: (host, options) => ({
      // a shared file is not under after/: a relative import of one from there goes to before/
      resolveModuleNames: (names, containingFile) =>
        names.map((name) => {
          const { root, probe, shared } = comparisons!.current!;
          // the importing file and the specifier, relative to the after package's root
          const [from, specifier] = containingFile.startsWith(`${root}after/`)
            ? [containingFile.slice(`${root}after/`.length), name]
            : containingFile === probe && name.startsWith(`.${root}after/`)
              ? ["probe.ts", `./${name.slice(`.${root}after/`.length)}`]
              : [undefined, name];
          const hit =
            from !== undefined && specifier.startsWith(".")
              ? declarationTarget(from, specifier, (p) => shared.has(p))
              : undefined;
          if (hit !== undefined)
            return {
              resolvedFileName: `${root}before/${hit}`,
              extension: ts.Extension.Dts,
              isExternalLibraryImport: false,
            };
          return ts.resolveModuleName(name, containingFile, options(), host).resolvedModule;
        }),
    }),
  });
  return (comparisons = { project, count: 0 });
}

/**
 * A comparison's files: both packages' structural declarations, each under its own root,
 * but the files they share (shared-files.ts) once, under `before/`, where both resolve.
 */
function loadBoth(before: PackageSource, after: PackageSource): Loaded {
  const structural = (pkg: PackageSource) =>
    new Map(
      [...packageDeclarations(pkg)].map(([path, text]) => [
        path,
        structuralDeclarations(path, text),
      ]),
    );
  const [old, now] = [structural(before), structural(after)];
  const shared = sharedFiles(old, now);
  const context = comparisonProject();
  const n = ++context.count;
  const loaded: Loaded = {
    project: context.project,
    shared,
    root: `/${n}/`,
    probe: `/probe-${n}.ts`,
  };
  context.current = loaded;
  for (const [path, text] of old)
    loaded.project.createSourceFile(`${loaded.root}before/${path}`, text);
  for (const [path, text] of now)
    if (!shared.has(path)) loaded.project.createSourceFile(`${loaded.root}after/${path}`, text);
  return loaded;
}

/** Removes a comparison's files from the project; the lib files stay for the next. */
function unload(loaded: Loaded): void {
  for (const file of loaded.project.getSourceFiles())
    if (file.getFilePath().startsWith(loaded.root) || file.getFilePath() === loaded.probe)
      loaded.project.removeSourceFile(file);
  comparisons!.current = undefined;
}

interface Loaded {
  project: Project;
  /** Paths loaded once, under `before/`, for both versions. */
  shared: Set<string>;
  /** The folder of this comparison's files (`/1/`), and its probe's path. */
  root: string;
  probe: string;
}

/** The declarations file an entry point names: as given, else the one made from its source. */
function entryFile(loaded: Loaded, side: Side, entry: EntryPoint): SourceFile | undefined {
  const candidates = [entry.types, entry.types.replace(/^dist\//, "src/")];
  for (const path of candidates) {
    const root = side === "after" && loaded.shared.has(path) ? "before" : side;
    const file = loaded.project.getSourceFile(`${loaded.root}${root}/${path}`);
    if (file) return file;
  }
  return undefined;
}

/**
 * Every key path of a type, each required, leaves and functions left open: a consumer reads
 * and writes the old keys by name (`money.currency`, `{ currency: "USD" }`), which plain
 * assignability lets vanish when they were optional. `Keys<New>` must be assignable to
 * `Keys<Old>` whoever uses the type.
 */
const keys =
  "type Keys<T> = T extends (...args: never) => unknown ? unknown : T extends object ? { [K in keyof T]-?: Keys<T[K]> } : unknown;";

/** One line of the probe and what it checks. */
interface Check {
  entry: string;
  name: string;
  kind: "old-value" | "new-value" | "value" | "value-back" | "constructor" | "keys" | Direction;
}

/** The deepest line of a compiler message: the member or type that does not fit. */
function reason(message: ts.DiagnosticMessageChain | string): string {
  let deepest: ts.DiagnosticMessageChain | string = message;
  while (typeof deepest !== "string" && deepest.next?.length) deepest = deepest.next[0]!;
  const text = typeof deepest === "string" ? deepest : deepest.messageText;
  return text.replace(/import\("\/\d+\/(before|after)\/[^"]*"\)\./g, "").slice(0, 240);
}

interface Compared {
  entry: EntryPoint;
  index: number;
  /** The entry point's declarations file in each version, as the probe imports it. */
  beforeFile: string;
  afterFile: string;
  before: Map<string, Export>;
  after: Map<string, Export>;
}

/** `./1/before/src/index.js` for `/1/before/src/index.d.ts` (from the probe, at the root). */
const importPath = (file: string) => `.${file.replace(/\.d\.([cm]?)ts$/, ".$1js")}`;

/** The probe's text: per kept export, each check on a line of its own. */
function probe(compared: readonly Compared[]): { text: string; checks: Check[]; header: number } {
  const lines: string[] = [];
  const checks: Check[] = [];
  const add = (check: Check, line: string) => {
    checks.push(check);
    lines.push(line);
  };
  const imports: string[] = [];
  for (const { entry, index, before, after, beforeFile, afterFile } of compared) {
    const [b, a] = [`B${index}`, `A${index}`];
    imports.push(
      `import type * as ${b} from "${importPath(beforeFile)}";`,
      `import type * as ${a} from "${importPath(afterFile)}";`,
    );
    for (const [name, old] of before) {
      const next = after.get(name);
      if (!next) continue;
      const n = checks.length;
      const at = { entry: entry.specifier, name };
      if (old.isValue && next.isValue) {
        add({ ...at, kind: "old-value" }, `export declare const p${n}: typeof ${b}.${name};`);
        add({ ...at, kind: "new-value" }, `export declare const q${n}: typeof ${a}.${name};`);
        add(
          { ...at, kind: "value" },
          `export const v${n} = (x: typeof ${a}.${name}): typeof ${b}.${name} => x;`,
        );
        add(
          { ...at, kind: "value-back" },
          `export const w${n} = (x: typeof ${b}.${name}): typeof ${a}.${name} => x;`,
        );
        if (old.isClass && next.isClass)
          add(
            { ...at, kind: "constructor" },
            `export const c${n} = (x: ConstructorParameters<typeof ${b}.${name}>): ConstructorParameters<typeof ${a}.${name}> => x;`,
          );
      }
      if (old.isType && next.isType && old.typeParameters === next.typeParameters) {
        const args = old.typeParameters
          ? `<${Array(old.typeParameters).fill("any").join(", ")}>`
          : "";
        add(
          { ...at, kind: "reads" },
          `export const r${n} = (x: ${a}.${name}${args}): ${b}.${name}${args} => x;`,
        );
        add(
          { ...at, kind: "writes" },
          `export const s${n} = (x: ${b}.${name}${args}): ${a}.${name}${args} => x;`,
        );
        add(
          { ...at, kind: "keys" },
          `export const k${n} = (x: Keys<${a}.${name}${args}>): Keys<${b}.${name}${args}> => x;`,
        );
      }
    }
  }
  const header = [...imports, keys];
  return { text: `${[...header, ...lines].join("\n")}\n`, checks, header: header.length };
}

/** Classifies one export kept in both versions from the failures of its checks. */
function classify(
  old: Export,
  next: Export,
  failed: Map<Check["kind"], string>,
  uses: Set<Direction>,
): Omit<SurfaceChange, "entry" | "name"> | undefined {
  const indirect = old.text === next.text;
  const change = (level: SurfaceLevel, description: string) => ({ level, description, indirect });
  const oldValue = old.isValue && !failed.has("old-value");
  const newValue = next.isValue && !failed.has("new-value");
  if (oldValue && !newValue)
    return change(
      "breaking",
      "no longer a value (a type only): a use in an expression no longer compiles",
    );
  if (old.isType && !next.isType)
    return change("breaking", "no longer a type: a use as a type no longer compiles");
  if (old.isType && next.isType && old.typeParameters !== next.typeParameters)
    return change(
      "breaking",
      `type parameters ${old.typeParameters} -> ${next.typeParameters}: a use with the old ones no longer compiles`,
    );
  const needed = uses.size ? uses : new Set<Direction>(["reads", "writes"]);
  const who =
    uses.size === 0
      ? "no function of the package uses it, so it is held both ways"
      : `consumers ${[...uses].map((u) => (u === "reads" ? "read" : "write")).join(" and ")} it`;
  if (oldValue && newValue) {
    const broken = failed.get("value") ?? failed.get("constructor");
    if (broken !== undefined)
      return change("breaking", `a use of the old value no longer compiles: ${broken}`);
  }
  if (old.isType && next.isType) {
    if (failed.has("keys"))
      return change(
        "breaking",
        `a key consumers use by name is gone (${who}): ${failed.get("keys")}`,
      );
    if (needed.has("reads") && failed.has("reads"))
      return change(
        "breaking",
        `${who}; the new type does not fit where the old one was read: ${failed.get("reads")}`,
      );
    if (needed.has("writes") && failed.has("writes"))
      return change(
        "breaking",
        `${who}; what was written as the old type is no longer accepted: ${failed.get("writes")}`,
      );
  }
  if (!old.isValue && next.isValue) return change("minor", "now also a value");
  if (!old.isType && next.isType) return change("minor", "now also a type");
  // a change both ways assignable is still one a consumer may see (a new optional field)
  const checked = failed.size > 0 || old.text !== next.text;
  return checked ? change("minor", `changed compatibly (${who})`) : undefined;
}

/** Compares the surfaces of two packages (each its package.json and sources or declarations). */
export function compareSurfaces(before: PackageSource, after: PackageSource): SurfaceReport {
  const loaded = loadBoth(before, after);
  try {
    return compareLoaded(loaded, before, after);
  } finally {
    unload(loaded);
  }
}

function compareLoaded(loaded: Loaded, before: PackageSource, after: PackageSource): SurfaceReport {
  const { project } = loaded;
  const changes: SurfaceChange[] = [];
  const afterEntries = entryPoints(after);
  const beforeEntries = entryPoints(before);
  const compared: Compared[] = [];
  for (const entry of beforeEntries) {
    const next = afterEntries.find((e) => e.key === entry.key);
    if (!next) {
      changes.push({
        entry: entry.specifier,
        name: "",
        level: "breaking",
        description: "entry point removed",
        indirect: false,
      });
      continue;
    }
    const beforeFile = entryFile(loaded, "before", entry);
    const afterFile = entryFile(loaded, "after", next);
    if (!beforeFile) continue; // nothing of it to compare with
    if (!afterFile) {
      changes.push({
        entry: next.specifier,
        name: "",
        level: "breaking",
        description: `its declarations (${next.types}) are missing`,
        indirect: false,
      });
      continue;
    }
    compared.push({
      entry: next,
      index: compared.length,
      beforeFile: beforeFile.getFilePath(),
      afterFile: afterFile.getFilePath(),
      before: exportsOf(beforeFile),
      after: exportsOf(afterFile),
    });
  }
  for (const entry of afterEntries.filter((e) => !beforeEntries.some((b) => b.key === e.key)))
    changes.push({
      entry: entry.specifier,
      name: "",
      level: "minor",
      description: "entry point added",
      indirect: false,
    });
  const { text, checks, header } = probe(compared);
  const file = project.createSourceFile(loaded.probe, text);
  // what the package's functions do with each type, read off the new declarations
  const variance = new Variance();
  for (const { after: now } of compared)
    for (const next of now.values())
      if (next.isValue) next.declarations.forEach((d) => variance.value(d));
  const failures = new Map<string, Map<Check["kind"], string>>();
  for (const diagnostic of project
    .getProgram()
    .compilerObject.getSemanticDiagnostics(file.compilerNode)) {
    const line = file.compilerNode.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
    const check = checks[line - header];
    if (!check) continue;
    const key = `${check.entry}\0${check.name}`;
    const failed = failures.get(key) ?? new Map<Check["kind"], string>();
    if (!failed.has(check.kind)) failed.set(check.kind, reason(diagnostic.messageText));
    failures.set(key, failed);
  }
  let unchanged = 0;
  for (const { entry, before: old, after: now } of compared) {
    for (const [name, previous] of old) {
      const next = now.get(name);
      if (!next) {
        changes.push({
          entry: entry.specifier,
          name,
          level: "breaking",
          description: "export removed (or renamed)",
          indirect: false,
        });
        continue;
      }
      const failed = failures.get(`${entry.specifier}\0${name}`) ?? new Map();
      const uses = variance.directionsOf(next.declarations);
      const found = classify(previous, next, failed, uses);
      if (found) changes.push({ entry: entry.specifier, name, ...found });
      else unchanged++;
    }
    for (const name of now.keys())
      if (!old.has(name))
        changes.push({
          entry: entry.specifier,
          name,
          level: "minor",
          description: "export added",
          indirect: false,
        });
  }
  return { changes, unchanged, before: before.origin, after: after.origin };
}
