/**
 * Layout of statements and declarations: interfaces, type aliases, functions, classes,
 * variables and re-exports, each with its doc comment.
 */
import { group, hardline, ifBreak, indent, join, line, type Doc } from "./layout.ts";
import type {
  ClassDeclaration,
  ExportFrom,
  ImportFrom,
  Overload,
  Statement,
  TypeExpr,
} from "./nodes.ts";
import type { PrintContext } from "./print-context.ts";
import { fluid, printAssignment, printBlock, printExpr } from "./print-expressions.ts";
import { printDocComment, printLineComment, printPropertyKey, printString } from "./print-text.ts";
import {
  printInterfaceBody,
  printSignature,
  printType,
  printTypeParameters,
} from "./print-types.ts";

/** The doc comment of a declaration and the line after it, or nothing. */
function withDocs(docs: readonly string[] | undefined, declaration: Doc): Doc {
  return docs?.length ? [printDocComment(docs), hardline, declaration] : declaration;
}

const exported = (isExported: boolean | undefined) => (isExported ? "export " : "");

export function printStatement(statement: Statement, ctx: PrintContext): Doc {
  switch (statement.kind) {
    case "comment":
      return printLineComment(statement.text);
    case "doc-comment":
      return printDocComment(statement.lines);
    case "interface":
      return withDocs(statement.docs, [
        exported(statement.isExported),
        printInterfaceHead(
          [statement.name, printTypeParameters(statement.typeParameters, ctx)],
          statement.extends ?? [],
          ctx,
        ),
        " ",
        printInterfaceBody(statement.members, ctx),
      ]);
    case "type-alias":
      return withDocs(statement.docs, [
        exported(statement.isExported),
        printTypeAlias(
          [statement.name, printTypeParameters(statement.typeParameters, ctx)],
          statement.type,
          ctx,
        ),
        ";",
      ]);
    case "function": {
      const head = [exported(statement.isExported), "function ", statement.name];
      return withOverloads(
        statement.overloads,
        head,
        withDocs(statement.docs, [
          head,
          printSignature(statement.params, statement.returnType, ctx),
          " ",
          printBody(statement.body, ctx),
        ]),
        ctx,
      );
    }
    case "class":
      return withDocs(statement.docs, [exported(statement.isExported), printClass(statement, ctx)]);
    case "variable":
      return withDocs(statement.docs, [
        exported(statement.isExported),
        group([statement.declarationKind, " ", printDeclarator(statement, ctx), ";"]),
      ]);
    case "expression-statement":
      return [printExpr(statement.expr, ctx), ";"];
    case "return":
      return ["return ", printExpr(statement.expr, ctx), ";"];
    case "throw":
      return ["throw ", printExpr(statement.expr, ctx), ";"];
    case "export-from":
      return printExportFrom(statement, ctx);
    case "import-from":
      return printImportFrom(statement);
    default: {
      const unhandled: never = statement;
      throw new Error(`unhandled statement ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * Overload signatures (`head(params): Type;`, each with its doc comment) on the lines right
 * above the implementation, as they are written: prettier adds no blank line between them.
 */
function withOverloads(
  overloads: readonly Overload[] | undefined,
  head: Doc,
  implementation: Doc,
  ctx: PrintContext,
): Doc {
  if (!overloads?.length) return implementation;
  const signatures = overloads.map((o) =>
    withDocs(o.docs, [head, printSignature(o.params, o.returnType, ctx), ";"]),
  );
  return [join(hardline, signatures), hardline, implementation];
}

function printBody(statements: readonly Statement[], ctx: PrintContext): Doc {
  return printBlock(statements.map((s) => printStatement(s, ctx)));
}

/** `interface Name extends A, B`: the heritage breaks onto an indented line when too long. */
function printInterfaceHead(name: Doc, heritage: readonly TypeExpr[], ctx: PrintContext): Doc {
  if (heritage.length === 0) return ["interface ", name];
  const types = join(
    [",", line],
    heritage.map((t) => printType(t, ctx)),
  );
  return group([
    "interface ",
    name,
    group(indent([line, "extends ", heritage.length === 1 ? types : indent(types)])),
  ]);
}

/** `type Name = ...`: prettier's "fluid" layout, as for any assignment of a type. */
function printTypeAlias(name: Doc, type: TypeExpr, ctx: PrintContext): Doc {
  return fluid(["type ", name], " =", printType(type, ctx));
}

/** `name: Type = init`, or only `name: Type`. */
function printDeclarator(statement: Statement & { kind: "variable" }, ctx: PrintContext): Doc {
  const left = [statement.name, statement.type ? [": ", printType(statement.type, ctx)] : ""];
  return statement.init ? printAssignment(left, " =", statement.init, ctx) : left;
}

function printClass(declaration: ClassDeclaration, ctx: PrintContext): Doc {
  const head = [
    "class ",
    declaration.name,
    declaration.extends ? [" extends ", printExpr(declaration.extends, ctx)] : "",
  ];
  // properties together, then the constructor and each method after a blank line
  const properties: Doc[] = (declaration.properties ?? []).map((property) => {
    const left = [
      property.isDeclare ? "declare " : "",
      property.isStatic ? "static " : "",
      property.hasOverrideKeyword ? "override " : "",
      property.isReadonly ? "readonly " : "",
      printPropertyKey(property.name),
      property.type ? [": ", printType(property.type, ctx)] : "",
    ];
    const printed = property.init ? printAssignment(left, " =", property.init, ctx) : left;
    return withDocs(property.docs, [printed, ";"]);
  });
  const members: Doc[] = properties.length ? [join(hardline, properties)] : [];
  const { ctor } = declaration;
  if (ctor) {
    const breakParams = ctor.params.length > 1 && ctor.params.some((p) => p.scope || p.isReadonly);
    members.push([
      "constructor",
      printSignature(ctor.params, undefined, ctx, breakParams),
      " ",
      printBody(ctor.body, ctx),
    ]);
  }
  for (const method of declaration.methods ?? []) {
    members.push(
      withOverloads(
        method.overloads,
        method.name,
        withDocs(method.docs, [
          method.name,
          printSignature(method.params, method.returnType, ctx),
          " ",
          printBody(method.body, ctx),
        ]),
        ctx,
      ),
    );
  }
  const body =
    members.length === 0
      ? "{}"
      : ["{", indent([hardline, join([hardline, hardline], members)]), hardline, "}"];
  return [head, " ", body];
}

/** `{ a, type B }`: a single name never breaks; several break one per line. */
export function printSpecifiers(names: readonly string[]): Doc {
  if (names.length === 1) return ["{ ", names[0]!, " }"];
  return group(["{", indent([line, join([",", line], names)]), ifBreak(","), line, "}"]);
}

function printImportFrom(statement: ImportFrom): Doc {
  const from = [" from ", printString(statement.specifier), ";"];
  const keyword = statement.isTypeOnly ? "import type " : "import ";
  const names = (statement.names ?? []).map((n) =>
    n.isType && !statement.isTypeOnly ? `type ${n.name}` : n.name,
  );
  const parts: Doc[] = [];
  if (statement.defaultName) parts.push(statement.defaultName);
  if (names.length) parts.push(printSpecifiers(names));
  return [keyword, join(", ", parts), from];
}

function printExportFrom(statement: ExportFrom, ctx: PrintContext): Doc {
  const from = [" from ", printString(ctx.specifier(statement.module)), ";"];
  const keyword = statement.isTypeOnly ? "export type " : "export ";
  if (!statement.names) return [keyword, "*", from];
  const names = statement.names.map((n) =>
    n.isType && !statement.isTypeOnly ? `type ${n.name}` : n.name,
  );
  return [keyword, printSpecifiers(names), from];
}
