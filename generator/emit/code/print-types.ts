/**
 * Layout of type expressions and type members, as prettier lays out the same TypeScript:
 * unions break one member per line with a leading `|`, type arguments break inside `<>`,
 * object types keep one member per line.
 */
import {
  group,
  hardline,
  ifBreak,
  indent,
  join,
  line,
  softline,
  willBreak,
  type Doc,
} from "./layout.ts";
import type { Member, Param, TypeExpr, TypeParameter } from "./nodes.ts";
import type { PrintContext } from "./print-context.ts";
import { printDocComment, printPropertyKey, printString } from "./print-text.ts";

/** Where a type stands, for the layouts that depend on it. */
export type TypePosition = "type-arg" | "other";

/** A type as a layout document. */
export function printType(
  type: TypeExpr,
  ctx: PrintContext,
  position: TypePosition = "other",
): Doc {
  switch (type.kind) {
    case "ref":
      return ctx.use(type);
    case "keyword":
      return type.name;
    case "generic":
      return [ctx.use(type.target), printTypeArgs(type.args, ctx)];
    case "array":
      return [printType(type.items, ctx), "[]"];
    case "union":
      return printUnion(type.types, ctx, position);
    case "intersection":
      return printIntersection(type.types, ctx);
    case "literal-type":
      return typeof type.value === "string" ? printString(type.value) : String(type.value);
    case "object-type":
      return printObjectType(type.members, ctx, !type.inline);
    case "function-type":
      return [
        type.isConstructor ? "new " : "",
        printTypeParameters(type.typeParameters, ctx),
        printFunctionType(type.params, type.returns, ctx),
      ];
    case "typeof":
      return ["typeof ", ctx.use(type.target)];
    case "keyof":
      return ["keyof ", printType(type.type, ctx)];
    case "indexed":
      return [printType(type.object, ctx), "[", printType(type.index, ctx), "]"];
    case "paren-type":
      return ["(", printType(type.type, ctx), ")"];
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled type ${JSON.stringify(unhandled)}`);
    }
  }
}

/** `<T, const E extends X = Y>`, or nothing; breaks one per line inside the brackets when too long. */
export function printTypeParameters(
  params: readonly TypeParameter[] | undefined,
  ctx: PrintContext,
): Doc {
  if (!params?.length) return "";
  const printed = params.map((p) => [
    p.isConst ? "const " : "",
    p.name,
    p.constraint ? [" extends ", printType(p.constraint, ctx)] : "",
    p.default ? [" = ", printType(p.default, ctx)] : "",
  ]);
  return group(["<", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ">"]);
}

/** Whether prettier keeps this type argument on the line of its `<` (a keyword, a plain name, an object type). */
function isHuggableType(type: TypeExpr): boolean {
  if (type.kind === "keyword" || type.kind === "ref" || type.kind === "object-type") return true;
  return type.kind === "union" && isHuggedUnion(type.types);
}

/** `<A, B>`: on the line when it is one simple type, else a group that breaks inside the brackets. */
export function printTypeArgs(args: readonly TypeExpr[], ctx: PrintContext): Doc {
  if (args.length === 1 && isHuggableType(args[0]!))
    return ["<", printType(args[0]!, ctx, "type-arg"), ">"];
  const printed = args.map((arg) => printType(arg, ctx, "type-arg"));
  return group(["<", indent([softline, join([",", line], printed)]), softline, ">"]);
}

const isNullish = (type: TypeExpr) =>
  type.kind === "keyword" && (type.name === "null" || type.name === "void");
const isObjectLike = (type: TypeExpr) =>
  type.kind === "object-type" || type.kind === "ref" || type.kind === "generic";

/** `Foo | null`: one object-like member and only null or void besides, printed on one line. */
export function isHuggedUnion(types: readonly TypeExpr[]): boolean {
  const objectType = types.find(isObjectLike);
  return objectType !== undefined && types.every((t) => t === objectType || isNullish(t));
}

/**
 * `A | B` on one line where it fits, else one member per line after a leading `|`; indented
 * unless it is a type argument, whose brackets indent it already.
 */
function printUnion(types: readonly TypeExpr[], ctx: PrintContext, position: TypePosition): Doc {
  if (isHuggedUnion(types))
    return join(
      " | ",
      types.map((t) => printType(t, ctx)),
    );
  const shouldIndent = position !== "type-arg";
  const members = types.map((t) => indent(printType(t, ctx)));
  const printed = [ifBreak([shouldIndent ? line : "", "| "]), join([line, "| "], members)];
  return group(shouldIndent ? indent(printed) : printed);
}

const isObjectType = (type: TypeExpr) => type.kind === "object-type";

function printIntersection(types: readonly TypeExpr[], ctx: PrintContext): Doc {
  let wasIndented = false;
  return group(
    types.map((type, i) => {
      const doc = printType(type, ctx);
      if (i === 0) return doc;
      const current = isObjectType(type);
      const previous = isObjectType(types[i - 1]!);
      if (previous && current) return [" & ", wasIndented ? indent(doc) : doc];
      if (!previous && !current) return indent([" &", line, doc]);
      if (i > 1) wasIndented = true;
      return [" & ", i > 1 ? indent(doc) : doc];
    }),
  );
}

/** An object type: one member per line when `expanded`, else on one line where it fits. */
function printObjectType(members: readonly Member[], ctx: PrintContext, expanded: boolean): Doc {
  if (members.length === 0) return "{}";
  const parts = members.map((member, i) => [
    printMember(member, ctx),
    i === members.length - 1 ? ifBreak(";") : ";",
  ]);
  return group(["{", indent([line, join(line, parts)]), line, "}"], { shouldBreak: expanded });
}

/** The members of an interface body, each on its own line with its `;`. */
export function printInterfaceBody(members: readonly Member[], ctx: PrintContext): Doc {
  if (members.length === 0) return "{}";
  const parts = members.map((member) => [printMember(member, ctx), ";"]);
  return ["{", indent([hardline, join(hardline, parts)]), hardline, "}"];
}

/** A call, property or index signature with its doc comment (without the `;`). */
function printMember(member: Member, ctx: PrintContext): Doc {
  const docs = member.docs?.length ? [printDocComment(member.docs), hardline] : [];
  switch (member.kind) {
    case "call-signature":
      return [
        ...docs,
        member.name ?? "",
        printTypeParameters(member.typeParameters, ctx),
        printSignature(member.params, member.returnType, ctx),
      ];
    case "property-signature":
      return [
        ...docs,
        member.isReadonly ? "readonly " : "",
        printPropertyKey(member.name),
        member.hasQuestionToken ? "?" : "",
        ": ",
        printType(member.type, ctx),
      ];
    case "index-signature":
      return [
        ...docs,
        group([
          member.isReadonly ? "readonly " : "",
          "[",
          group([
            indent([softline, member.keyName, ": ", printType(member.keyType, ctx)]),
            softline,
          ]),
          "]",
          ": ",
          printType(member.returnType, ctx),
        ]),
      ];
    default: {
      const unhandled: never = member;
      throw new Error(`unhandled member ${JSON.stringify(unhandled)}`);
    }
  }
}

/** `(params): ReturnType`: the parameters break one per line when the whole does not fit. */
export function printSignature(
  params: readonly Param[],
  returnType: TypeExpr | undefined,
  ctx: PrintContext,
  breakParams = false,
): Doc {
  const returnDoc = returnType ? [": ", printType(returnType, ctx)] : "";
  const paramsDoc = printParams(params, ctx);
  const groupParams =
    params.length === 1 &&
    returnType !== undefined &&
    (returnType.kind === "object-type" || willBreak(returnDoc));
  return group([
    breakParams
      ? group(paramsDoc, { shouldBreak: true })
      : groupParams
        ? group(paramsDoc)
        : paramsDoc,
    returnDoc,
  ]);
}

/** `(a: A, b: B) => R`: the parameters break one per line when the whole does not fit. */
function printFunctionType(params: readonly Param[], returns: TypeExpr, ctx: PrintContext): Doc {
  const returnDoc = [" => ", printType(returns, ctx)];
  let paramsDoc = printParams(params, ctx);
  if (params.length === 1 && returns.kind === "object-type") paramsDoc = group(paramsDoc);
  return group([paramsDoc, returnDoc]);
}

/** `name?: Type`, with a constructor parameter's modifiers. */
export function printParam(param: Param, ctx: PrintContext): Doc {
  return [
    param.scope ? `${param.scope} ` : "",
    param.isReadonly ? "readonly " : "",
    param.name,
    param.hasQuestionToken ? "?" : "",
    param.type ? [": ", printType(param.type, ctx)] : "",
  ];
}

/**
 * A parameter list: `(a, b)` on one line, or one per line with a trailing comma (the group
 * is the caller's). A lone parameter of an object type hugs the parentheses.
 */
export function printParams(params: readonly Param[], ctx: PrintContext): Doc {
  if (params.length === 0) return "()";
  const printed = params.map((p) => printParam(p, ctx));
  if (params.length === 1 && params[0]!.type?.kind === "object-type")
    return ["(", printed[0]!, ")"];
  return ["(", indent([softline, join([",", line], printed)]), ifBreak(","), softline, ")"];
}
