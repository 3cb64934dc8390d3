/**
 * Reads a handlers file the user owns with ts-morph (the TypeScript parser, nothing
 * type-checked, nothing resolved): the import of the handler types and the objects typed by
 * them, as plain positions in the text, so that the update (plan.ts) edits the text where
 * ts-morph says and leaves every other byte as it is. A file it does not recognise is refused
 * with the reason, at its line.
 */
import {
  Node,
  Project,
  SyntaxKind,
  ts,
  type ImportDeclaration,
  type ObjectLiteralExpression,
  type SourceFile,
  type Statement,
} from "ts-morph";

/** The file is not one the update can edit safely: why, and where (1-based line). */
export class UpdateRefused extends Error {
  constructor(
    readonly reason: string,
    readonly line?: number,
  ) {
    super(reason);
  }
}

/** An import declaration that brings in a handler type. */
export interface HandlersImport {
  specifier: string;
  /** The module specifier's string literal, quotes included. */
  specifierStart: number;
  specifierEnd: number;
  /** `import type { ... }`: names are added without `type`. */
  typeOnly: boolean;
  /** Imported name -> local name. */
  names: Map<string, string>;
  /** Where a new name goes: after the last specifier (and its comma, if any). */
  namesEnd: number;
  /** The last specifier has a comma after it. */
  trailingComma: boolean;
  /** The `}` of the list. */
  closeBrace: number;
  /** Indentation of the last specifier's line. */
  indent: string;
  /** The whole declaration, for reflowing a one-line import that grows too long. */
  start: number;
  end: number;
  hasComments: boolean;
}

/** One key of a handlers object. */
export interface HandlersEntry {
  event: string;
  /** Start of the entry's line. */
  lineStart: number;
  /** The identifier it refers to (`productInfo` in `"product.info": productInfo`), if that is what it is. */
  valueName?: string;
}

/** An object typed by `CallbackHandlers` or `WebhookHandlers`. */
export interface HandlersObject {
  /** The variable's name. */
  name: string;
  entries: HandlersEntry[];
  /** Start of the line of the comments just above its statement: where new stubs go. */
  statementInsertAt: number;
  /** End of the statement's last line (before its newline). */
  statementLineEnd: number;
  openBrace: number;
  closeBrace: number;
  /** End of the last entry and its comma (when it has one); `openBrace + 1` when empty. */
  lastEntryEnd: number;
  lastEntryHasComma: boolean;
  /** Indentation of the last entry's line, or of the statement plus two spaces when empty. */
  indent: string;
  /** Indentation of the statement's line. */
  statementIndent: string;
  /** Only white space between the braces. */
  blank: boolean;
}

/** A top-level declaration a removed event's entry may refer to. */
export interface TopLevelDeclaration {
  /** Start of the line of the comments just above it. */
  insertAt: number;
  indent: string;
}

export interface HandlersFile {
  text: string;
  newline: "\n" | "\r\n";
  imports: HandlersImport[];
  callbacks: HandlersObject;
  webhooks?: HandlersObject;
  /** Every name declared or imported at the top level. */
  topLevelNames: Set<string>;
  declarations: Map<string, TopLevelDeclaration>;
}

/** The names the update looks for, as the package exports them. */
export interface HandlerTypeNames {
  handlersType: string;
  webhookHandlersType: string;
}

const lineStartOf = (text: string, pos: number) => text.lastIndexOf("\n", pos - 1) + 1;

function lineEndOf(text: string, pos: number): number {
  const end = text.indexOf("\n", pos);
  const at = end === -1 ? text.length : end;
  return text[at - 1] === "\r" ? at - 1 : at;
}

const indentAt = (text: string, pos: number) =>
  /^[ \t]*/.exec(text.slice(lineStartOf(text, pos)))![0];

/**
 * Start of the line where the comments directly above `node` begin (no blank line between
 * them and it), else of its own line: new text put there stays out of what the comments
 * describe.
 */
function leadingBlockStart(node: Node, text: string): number {
  let start = node.getStart();
  const comments = node.getLeadingCommentRanges();
  for (let i = comments.length - 1; i >= 0; i--) {
    const comment = comments[i]!;
    const between = text.slice(comment.getEnd(), start);
    if (/\n[ \t]*\r?\n/.test(between) || /[^\s]/.test(between)) break;
    start = comment.getPos();
  }
  return lineStartOf(text, start);
}

function propertyKey(name: Node): string | undefined {
  if (Node.isIdentifier(name) || Node.isPrivateIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name))
    return name.getLiteralValue();
  if (Node.isNumericLiteral(name)) return String(name.getLiteralValue());
  if (Node.isComputedPropertyName(name)) return propertyKey(name.getExpression());
  return undefined;
}

function readImport(declaration: ImportDeclaration, text: string): HandlersImport | undefined {
  const named = declaration.getImportClause()?.getNamedBindings();
  if (!named || !Node.isNamedImports(named)) return undefined;
  const elements = named.getElements();
  const last = elements.at(-1);
  if (!last) return undefined;
  const comma = last.getNextSiblingIfKind(SyntaxKind.CommaToken);
  const specifier = declaration.getModuleSpecifier();
  return {
    specifier: specifier.getLiteralValue(),
    specifierStart: specifier.getStart(),
    specifierEnd: specifier.getEnd(),
    typeOnly: declaration.isTypeOnly(),
    names: new Map(elements.map((e) => [e.getName(), e.getAliasNode()?.getText() ?? e.getName()])),
    namesEnd: comma?.getEnd() ?? last.getEnd(),
    trailingComma: comma !== undefined,
    closeBrace: named.getEnd() - 1,
    indent: indentAt(text, last.getStart()),
    start: declaration.getStart(),
    end: declaration.getEnd(),
    hasComments: /\/[/*]/.test(text.slice(named.getStart(), named.getEnd())),
  };
}

/** The object literal `init` is, under `satisfies T`, `as const` and parentheses; and T. */
function unwrap(init: Node | undefined): {
  object?: ObjectLiteralExpression | undefined;
  satisfies?: Node | undefined;
} {
  let node = init;
  let satisfies: Node | undefined;
  for (;;) {
    if (Node.isParenthesizedExpression(node)) node = node.getExpression();
    else if (Node.isSatisfiesExpression(node)) {
      satisfies ??= node.getTypeNode();
      node = node.getExpression();
    } else if (Node.isAsExpression(node) && node.getTypeNode()?.getText() === "const")
      node = node.getExpression();
    else break;
  }
  return Node.isObjectLiteralExpression(node) ? { object: node, satisfies } : { satisfies };
}

function readObject(
  name: string,
  statement: Statement,
  object: ObjectLiteralExpression,
  text: string,
): HandlersObject {
  const entries: HandlersEntry[] = [];
  for (const property of object.getProperties()) {
    if (Node.isSpreadAssignment(property))
      throw new UpdateRefused(
        `the object ${name} spreads \`${property.getExpression().getText()}\`: apigen cannot tell which events it handles. List them in ${name} itself`,
        property.getStartLineNumber(),
      );
    const event = propertyKey(property.getNameNode());
    if (event === undefined)
      throw new UpdateRefused(
        `the key \`${property.getNameNode().getText()}\` of ${name} is computed: apigen cannot tell which event it handles`,
        property.getStartLineNumber(),
      );
    const value = Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
    const valueName = Node.isShorthandPropertyAssignment(property)
      ? property.getName()
      : Node.isIdentifier(value)
        ? value.getText()
        : undefined;
    entries.push({
      event,
      lineStart: lineStartOf(text, property.getStart()),
      ...(valueName !== undefined ? { valueName } : {}),
    });
  }
  const properties = object.getProperties();
  const last = properties.at(-1);
  const comma = last?.getNextSiblingIfKind(SyntaxKind.CommaToken);
  const openBrace = object.getStart();
  const closeBrace = object.getEnd() - 1;
  const statementIndent = indentAt(text, statement.getStart());
  return {
    name,
    entries,
    statementInsertAt: leadingBlockStart(statement, text),
    statementLineEnd: lineEndOf(text, statement.getEnd()),
    openBrace,
    closeBrace,
    lastEntryEnd: comma?.getEnd() ?? last?.getEnd() ?? openBrace + 1,
    lastEntryHasComma: comma !== undefined,
    indent: last ? indentAt(text, last.getStart()) : `${statementIndent}  `,
    statementIndent,
    blank: text.slice(openBrace + 1, closeBrace).trim() === "",
  };
}

/** Every name declared or imported by `statement` at the top level of the file. */
function declaredNames(statement: Statement): string[] {
  if (Node.isImportDeclaration(statement)) {
    const clause = statement.getImportClause();
    const bindings = clause?.getNamedBindings();
    return [
      ...(clause?.getDefaultImport() ? [clause.getDefaultImport()!.getText()] : []),
      ...(bindings && Node.isNamespaceImport(bindings) ? [bindings.getName()] : []),
      ...(bindings && Node.isNamedImports(bindings)
        ? bindings.getElements().map((e) => e.getAliasNode()?.getText() ?? e.getName())
        : []),
    ];
  }
  if (Node.isVariableStatement(statement))
    return statement
      .getDeclarations()
      .flatMap((d) => [
        d.getNameNode(),
        ...d.getNameNode().getDescendantsOfKind(SyntaxKind.Identifier),
      ])
      .filter((n) => Node.isIdentifier(n))
      .map((n) => n.getText());
  if (
    Node.isFunctionDeclaration(statement) ||
    Node.isClassDeclaration(statement) ||
    Node.isInterfaceDeclaration(statement) ||
    Node.isTypeAliasDeclaration(statement) ||
    Node.isEnumDeclaration(statement) ||
    Node.isModuleDeclaration(statement) ||
    Node.isImportEqualsDeclaration(statement)
  ) {
    const name = statement.getName();
    return name !== undefined ? [name] : [];
  }
  return [];
}

/** Where the parser stopped understanding the file, if it did. */
function syntaxError(project: Project, file: SourceFile): UpdateRefused | undefined {
  const program = project.getProgram().compilerObject;
  const [first] = program.getSyntacticDiagnostics(file.compilerNode);
  if (!first) return undefined;
  const line = first.start !== undefined ? file.getLineAndColumnAtPos(first.start).line : undefined;
  const message = ts.flattenDiagnosticMessageText(first.messageText, " ").replace(/\.$/, "");
  return new UpdateRefused(`it does not parse: ${message}`, line);
}

/** The object typed by `typeName` (an annotation or `satisfies`), if there is exactly one. */
function findObject(
  file: SourceFile,
  localName: string | undefined,
  text: string,
): HandlersObject | undefined {
  if (localName === undefined) return undefined;
  const found: HandlersObject[] = [];
  for (const statement of file.getVariableStatements())
    for (const declaration of statement.getDeclarations()) {
      const { object, satisfies } = unwrap(declaration.getInitializer());
      const typed = [declaration.getTypeNode(), satisfies].some(
        (t) => Node.isTypeReference(t) && t.getTypeName().getText() === localName,
      );
      if (!typed) continue;
      if (!object)
        throw new UpdateRefused(
          `${declaration.getName()} is typed ${localName} but is not an object literal: apigen can only add to an object written out`,
          declaration.getStartLineNumber(),
        );
      found.push(readObject(declaration.getName(), statement, object, text));
    }
  if (found.length > 1)
    throw new UpdateRefused(
      `${found.map((o) => o.name).join(" and ")} are both typed ${localName}: apigen cannot tell which one to update`,
    );
  return found[0];
}

/** The parser's project, made at the first read. */
let project: Project | undefined;

/** Reads `text` (the file at `path`); throws UpdateRefused when it is not a handlers file. */
export function readHandlersFile(
  path: string,
  text: string,
  types: HandlerTypeNames,
): HandlersFile {
  if (!/\.[cm]?tsx?$/.test(path))
    throw new UpdateRefused("it is not a TypeScript file (.ts, .mts, .cts or .tsx)");
  // one project for every file read: each is removed once read, as what is kept is plain data
  project ??= new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { noLib: true, noResolve: true, types: [] },
  });
  const file = project.createSourceFile(path, text, { overwrite: true });
  try {
    return readFile(project, file, text, types);
  } finally {
    project.removeSourceFile(file);
  }
}

function readFile(
  project: Project,
  file: SourceFile,
  text: string,
  types: HandlerTypeNames,
): HandlersFile {
  const error = syntaxError(project, file);
  if (error) throw error;
  const handlerTypes = [types.handlersType, types.webhookHandlersType];
  const imports = file
    .getImportDeclarations()
    .map((d) => readImport(d, text))
    .filter((i): i is HandlersImport => i !== undefined)
    .filter((i) => handlerTypes.some((t) => i.names.has(t)));
  const local = (type: string) =>
    imports.find((i) => i.names.has(type))?.names.get(type) ?? undefined;
  if (!imports.some((i) => i.names.has(types.handlersType)))
    throw new UpdateRefused(
      `it imports no ${types.handlersType} by name (the scaffold's \`import type { ${types.handlersType}, ... } from "<package>/callbacks"\`)`,
    );
  const callbacks = findObject(file, local(types.handlersType), text);
  if (!callbacks)
    throw new UpdateRefused(
      `no object is typed ${local(types.handlersType)} (the scaffold's \`export const handlers: ${types.handlersType} = { ... }\`, or \`satisfies ${types.handlersType}\`)`,
    );
  const webhooks = findObject(file, local(types.webhookHandlersType), text);
  const declarations = new Map<string, TopLevelDeclaration>();
  const topLevelNames = new Set<string>();
  for (const statement of file.getStatements()) {
    const names = declaredNames(statement);
    names.forEach((n) => topLevelNames.add(n));
    if (Node.isImportDeclaration(statement)) continue;
    for (const name of names)
      declarations.set(name, {
        insertAt: leadingBlockStart(statement, text),
        indent: indentAt(text, statement.getStart()),
      });
  }
  return {
    text,
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    imports,
    callbacks,
    ...(webhooks ? { webhooks } : {}),
    topLevelNames,
    declarations,
  };
}
