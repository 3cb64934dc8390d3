/**
 * The declarations (.d.ts) of a package, as a consumer's compiler sees it, made structural so
 * that two versions of it can be compared by assignability:
 *
 * - each source's declarations come from `transpileDeclaration` (no type checker: the
 *   generated files are written with every exported type spelled out), and from the
 *   checker's declaration emit for the few files where a type must be inferred;
 * - private and `#private` members are dropped: with them, two copies of one class are never
 *   assignable to each other (a private member is nominal), whatever changed; consumers
 *   cannot touch them anyway. `protected` members stay, as public ones;
 * - methods become properties of function type: TypeScript compares method parameters both
 *   ways (bivariance), which would let a narrowed parameter pass; a property's function type
 *   is compared strictly, as a consumer's call is.
 */
import { Project, ts } from "ts-morph";
import type { PackageSource } from "./package-source.ts";

/** The options the generated package compiles with (its tsconfig.json). */
export const packageCompilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  types: [],
};

const isSource = (path: string) => /\.[cm]?ts$/.test(path) && !/\.d\.[cm]?ts$/.test(path);
const declarationPath = (path: string) => path.replace(/\.([cm]?)ts$/, ".d.$1ts");

/**
 * Declarations the checker emits for `sources` (paths in `pkg`), from a program of the whole
 * package in memory.
 */
function checkedDeclarations(pkg: PackageSource, sources: readonly string[]): Map<string, string> {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { ...packageCompilerOptions, declaration: true, emitDeclarationOnly: true },
  });
  const root = "/package/";
  for (const [path, text] of pkg.files)
    if (path === "package.json") project.getFileSystem().writeFileSync(`${root}${path}`, text);
    else if (isSource(path)) project.createSourceFile(`${root}${path}`, text);
  const out = new Map<string, string>();
  for (const path of sources) {
    const file = project.getSourceFileOrThrow(`${root}${path}`);
    const emitted = project.emitToMemory({ targetSourceFile: file, emitOnlyDtsFiles: true });
    for (const written of emitted.getFiles())
      if (written.filePath.startsWith(root))
        out.set(written.filePath.slice(root.length), written.text);
  }
  return out;
}

/**
 * The leading `//` comment lines of a file (not `///` directives): the generated header, which
 * names the spec and its version, so that a version bump changes every file's first line.
 */
const leadingLineComments = /^(?:\/\/(?!\/).*\n)+/;

/**
 * A source's declarations made alone, or undefined when a type in it must be inferred. By
 * path and text less the header (which the structural declarations drop anyway): the two
 * packages of a diff mostly share their runtime files, also across a version bump.
 */
const transpiledCache = new Map<string, string | undefined>();
export function declarationsAlone(path: string, source: string): string | undefined {
  const text = source.replace(leadingLineComments, "");
  const key = `${path}\0${text}`;
  if (transpiledCache.has(key)) return transpiledCache.get(key);
  const result = ts.transpileDeclaration(text, {
    fileName: path,
    compilerOptions: { ...packageCompilerOptions, isolatedDeclarations: true },
    reportDiagnostics: true,
  });
  const made = result.diagnostics?.length ? undefined : result.outputText;
  transpiledCache.set(key, made);
  return made;
}

/** Every declarations file of the package, by path: given ones as they are, the others made. */
export function packageDeclarations(pkg: PackageSource): Map<string, string> {
  const out = new Map<string, string>();
  const needChecker: string[] = [];
  for (const [path, text] of pkg.files) {
    if (!/\.[cm]?ts$/.test(path)) continue;
    if (!isSource(path)) {
      out.set(path, text);
      continue;
    }
    const made = declarationsAlone(path, text);
    if (made === undefined) needChecker.push(path);
    else out.set(declarationPath(path), made);
  }
  if (needChecker.length)
    for (const [path, text] of checkedDeclarations(pkg, needChecker)) out.set(path, text);
  return out;
}

const printer = ts.createPrinter({ removeComments: true });

const isPrivate = (member: ts.ClassElement) =>
  (member.name !== undefined && ts.isPrivateIdentifier(member.name)) ||
  (ts.canHaveModifiers(member) &&
    (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword));

/** `(a: A) => R` of a method signature (its `this`, type parameters and parameters kept). */
function functionType(method: ts.MethodSignature | ts.MethodDeclaration): ts.TypeNode {
  return ts.factory.createParenthesizedType(
    ts.factory.createFunctionTypeNode(
      method.typeParameters,
      method.parameters,
      method.type ?? ts.factory.createKeywordTypeNode(ts.SyntaxKind.AnyKeyword),
    ),
  );
}

/** A member's name as text, to tell overloads apart (a computed name printed). */
function nameKey(name: ts.PropertyName, file: ts.SourceFile): string {
  if (ts.isComputedPropertyName(name))
    return `[${printer.printNode(ts.EmitHint.Expression, name.expression, file)}]`;
  return name.text;
}

/** The methods of a member list as properties; overloads (methods of one name) as one intersection. */
function methodsAsProperties<T extends ts.Node>(
  file: ts.SourceFile,
  members: readonly T[],
  property: (first: ts.MethodSignature | ts.MethodDeclaration, type: ts.TypeNode) => T,
): T[] {
  const out: T[] = [];
  const isMethod = (m: ts.Node): m is ts.MethodSignature | ts.MethodDeclaration =>
    ts.isMethodSignature(m) || ts.isMethodDeclaration(m);
  for (let i = 0; i < members.length; i++) {
    const member = members[i]!;
    if (!isMethod(member)) {
      out.push(member);
      continue;
    }
    const name = nameKey(member.name, file);
    const overloads = [member];
    while (i + 1 < members.length) {
      const next = members[i + 1]!;
      if (!isMethod(next) || nameKey(next.name, file) !== name) break;
      overloads.push(next);
      i++;
    }
    const types = overloads.map(functionType);
    const type = types.length === 1 ? types[0]! : ts.factory.createIntersectionTypeNode(types);
    out.push(property(member, type));
  }
  return out;
}

function withoutProtected(modifiers: readonly ts.ModifierLike[] | undefined) {
  return modifiers?.filter((m) => m.kind !== ts.SyntaxKind.ProtectedKeyword);
}

/** The transformer: privates dropped, `protected` made public, methods made properties. */
const structuralTransformer: ts.TransformerFactory<ts.SourceFile> = (context) => (file) => {
  const { factory } = context;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isClassDeclaration(node)) {
      const members = node.members
        .filter((m) => !isPrivate(m))
        .map((m) => ts.visitNode(m, visit) as ts.ClassElement);
      const converted = methodsAsProperties(file, members, (method, type) =>
        factory.createPropertyDeclaration(
          withoutProtected(
            ts.getModifiers(method as ts.MethodDeclaration),
          ) as readonly ts.Modifier[],
          method.name,
          method.questionToken,
          type,
          undefined,
        ),
      );
      return factory.updateClassDeclaration(
        node,
        node.modifiers,
        node.name,
        node.typeParameters,
        node.heritageClauses,
        converted,
      );
    }
    if (ts.isPropertyDeclaration(node) && node.modifiers)
      return factory.updatePropertyDeclaration(
        node,
        withoutProtected(node.modifiers),
        node.name,
        node.questionToken ?? node.exclamationToken,
        node.type ? (ts.visitNode(node.type, visit) as ts.TypeNode) : undefined,
        undefined,
      );
    if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      const members = node.members.map((m) => ts.visitNode(m, visit) as ts.TypeElement);
      const converted = methodsAsProperties(file, members, (method, type) =>
        factory.createPropertySignature(
          ts.getModifiers(method as ts.MethodSignature) as readonly ts.Modifier[] | undefined,
          method.name,
          method.questionToken,
          type,
        ),
      );
      return ts.isInterfaceDeclaration(node)
        ? factory.updateInterfaceDeclaration(
            node,
            node.modifiers,
            node.name,
            node.typeParameters,
            node.heritageClauses,
            converted,
          )
        : factory.updateTypeLiteralNode(node, factory.createNodeArray(converted));
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitNode(file, visit) as ts.SourceFile;
};

/** A declarations file made structural (see the top of this file), printed without comments. */
export function structuralDeclarations(path: string, text: string): string {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const result = ts.transform(file, [structuralTransformer]);
  try {
    return printer.printFile(result.transformed[0]!);
  } finally {
    result.dispose();
  }
}
