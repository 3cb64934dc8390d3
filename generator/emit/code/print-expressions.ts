/**
 * Layout of expressions as prettier lays out the same code: calls that hug their last object
 * or array argument, objects and arrays that break one item per line, and the assignment
 * layouts (`=`, `??=`, object properties) that decide where a long right side breaks.
 */
import {
  canBreak,
  conditionalGroup,
  fill,
  group,
  groupId,
  hardline,
  ifBreak,
  indent,
  indentIfBreak,
  join,
  line,
  softline,
  willBreak,
  type Doc,
} from "./layout.ts";
import { textWidth } from "./layout-print.ts";
import type { Expr, ObjectProperty, Statement } from "./nodes.ts";
import type { PrintContext } from "./print-context.ts";
import { printStatement } from "./print-statements.ts";
import { printDocComment, printNumber, printPropertyKey, printString } from "./print-text.ts";
import { printParams, printType } from "./print-types.ts";

export function printExpr(expr: Expr, ctx: PrintContext): Doc {
  switch (expr.kind) {
    case "ref":
      return ctx.use(expr);
    case "id":
      return expr.name;
    case "literal":
      return printLiteral(expr.value);
    case "object":
      return printObject(expr.properties, expr.expanded ?? false, ctx);
    case "array-literal":
      return printArray(expr.items, ctx);
    case "call": {
      const call = printCall(expr, ctx);
      return expr.pure ? ["/* @__PURE__ */ ", call] : call;
    }
    case "member":
      return [printExpr(expr.object, ctx), ".", expr.name];
    case "assign":
      return printAssignment(printExpr(expr.target, ctx), [" ", expr.operator], expr.value, ctx);
    case "paren":
      return ["(", printExpr(expr.expr, ctx), ")"];
    case "as-const":
      return [printExpr(expr.expr, ctx), " as const"];
    case "await":
      return ["await ", printExpr(expr.expr, ctx)];
    case "arrow":
      return printArrow(expr, ctx);
    default: {
      const unhandled: never = expr;
      throw new Error(`unhandled expression ${JSON.stringify(unhandled)}`);
    }
  }
}

function printLiteral(value: string | number | boolean | null): string {
  if (typeof value === "string") return printString(value);
  if (typeof value === "number") return printNumber(value);
  return String(value);
}

// ---- objects and arrays ----

function printProperty(property: ObjectProperty, ctx: PrintContext): Doc {
  switch (property.kind) {
    case "shorthand":
      return property.name;
    case "spread":
      return ["...", printExpr(property.expr, ctx)];
    case "property": {
      // `{ validateLabel }`: a symbol under its own name, once its import says it has that name.
      if (property.value.kind === "ref" && !property.docs?.length)
        if (ctx.use(property.value) === property.key) return property.key;
      // `__proto__: x` in an object literal sets the prototype; a computed key is a property.
      const key =
        typeof property.key === "number"
          ? printNumber(property.key)
          : property.key === "__proto__"
            ? '["__proto__"]'
            : printPropertyKey(property.key);
      const printed = printAssignment(key, ":", property.value, ctx, {
        shortKey: textWidth(key) < 5,
      });
      return property.docs?.length ? [printDocComment(property.docs), hardline, printed] : printed;
    }
    default: {
      const unhandled: never = property;
      throw new Error(`unhandled property ${JSON.stringify(unhandled)}`);
    }
  }
}

/** `{ a, b: c }` on one line where it fits (unless `expanded`), else one property per line. */
function printObject(
  properties: readonly ObjectProperty[],
  expanded: boolean,
  ctx: PrintContext,
): Doc {
  if (properties.length === 0) return "{}";
  const parts = join(
    [",", line],
    properties.map((p) => printProperty(p, ctx)),
  );
  return group(["{", indent([line, ...parts]), ifBreak(","), line, "}"], { shouldBreak: expanded });
}

const isNumber = (e: Expr) => e.kind === "literal" && typeof e.value === "number";

/** Whether prettier breaks an array however short: several objects (or arrays) of more than one item each. */
function breaksAlways(items: readonly Expr[]): boolean {
  if (items.length <= 1) return false;
  const kind = items[0]!.kind;
  return items.every(
    (item) =>
      item.kind === kind &&
      ((item.kind === "object" && item.properties.length > 1) ||
        (item.kind === "array-literal" && item.items.length > 1)),
  );
}

function printArray(items: readonly Expr[], ctx: PrintContext): Doc {
  if (items.length === 0) return "[]";
  const id = groupId();
  if (items.every(isNumber)) {
    // numbers fill each line, as many as fit
    const parts: Doc[] = [];
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      parts.push([printExpr(item, ctx), last ? ifBreak(",", "", id) : ","]);
      if (!last) parts.push(line);
    });
    return group(["[", indent([softline, fill(parts)]), softline, "]"], { id });
  }
  const printed = items.map((item) => group(printExpr(item, ctx)));
  return group(["[", indent([softline, join([",", line], printed), ifBreak(",")]), softline, "]"], {
    shouldBreak: breaksAlways(items),
    id,
  });
}

// ---- functions ----

/** `async (a, b): R => { ... }` or `(a) => expression`. */
function printArrow(arrow: Expr & { kind: "arrow" }, ctx: PrintContext): Doc {
  const returnDoc = arrow.returnType ? [": ", printType(arrow.returnType, ctx)] : "";
  const signature = [
    arrow.isAsync ? "async " : "",
    group([printParams(arrow.params, ctx), returnDoc]),
  ];
  const { body } = arrow;
  const bodyDoc = isExprBody(body)
    ? [" ", body.kind === "object" ? ["(", printExpr(body, ctx), ")"] : printExpr(body, ctx)]
    : [" ", printBlock(body.map((s) => printStatement(s, ctx)))];
  return group([group(signature), " =>", group(bodyDoc)]);
}

const isExprBody = (body: readonly Statement[] | Expr): body is Expr => !Array.isArray(body);

// ---- calls ----

/** The links of a member chain, from its root: `a`, `.b`, `(args)`, `.c`, `(args)`. */
function chainGroups(
  call: Expr & { kind: "call" },
  ctx: PrintContext,
): { root: Doc; groups: Doc[][] } {
  const links: { kind: "member" | "call"; doc: Doc }[] = [
    { kind: "call", doc: printArguments(call.args, ctx) },
  ];
  let node: Expr = call.callee;
  for (;;) {
    if (node.kind === "call" && !node.isNew && !node.pure) {
      links.unshift({ kind: "call", doc: printArguments(node.args, ctx) });
      node = node.callee;
    } else if (node.kind === "member") {
      links.unshift({ kind: "member", doc: [".", node.name] });
      node = node.object;
    } else break;
  }
  // a group is members followed by the calls on them
  const groups: Doc[][] = [];
  let current: Doc[] = [];
  let calledYet = false;
  for (const link of links) {
    if (link.kind === "member" && calledYet) {
      groups.push(current);
      current = [];
      calledYet = false;
    }
    if (link.kind === "call") calledYet = true;
    current.push(link.doc);
  }
  groups.push(current);
  return { root: printExpr(node, ctx), groups };
}

/**
 * A call. On a member chain it is prettier's member-chain layout: a chain of one link is
 * printed whole; a longer one stays on one line when it fits, else puts each link after the
 * first on its own indented line. (Prettier also forces the broken layout for chains of more
 * than two calls with complex arguments; the generated code has none.)
 */
function printCall(call: Expr & { kind: "call" }, ctx: PrintContext): Doc {
  if (call.isNew) return ["new ", printExpr(call.callee, ctx), printArguments(call.args, ctx)];
  const { callee } = call;
  if (callee.kind === "member") {
    const { root, groups } = chainGroups(call, ctx);
    const oneLine = [root, ...groups];
    if (groups.length <= 1) return group(oneLine);
    const expanded = [root, groups[0]!, indent([hardline, join(hardline, groups.slice(1))])];
    return conditionalGroup([oneLine, expanded]);
  }
  const args = printArguments(call.args, ctx);
  if (callee.kind === "call") return group([printExpr(callee, ctx), args]);
  return [printExpr(callee, ctx), args];
}

/** Whether an argument can take the rest of the line and break inside: an object or array with items. */
const couldExpand = (arg: Expr): boolean =>
  (arg.kind === "object" && arg.properties.length > 0) ||
  (arg.kind === "array-literal" && arg.items.length > 0) ||
  (arg.kind === "arrow" && couldExpandArrow(arg));

/**
 * prettier's rule for an arrow function as the last argument: it hugs one whose body is a
 * block, an object, an array, a call or another arrow, unless its return type is a type
 * reference and its body is not a block with statements.
 */
function couldExpandArrow(arrow: Expr & { kind: "arrow" }): boolean {
  const { body, returnType } = arrow;
  const typeReference = returnType?.kind === "ref" || returnType?.kind === "generic";
  if (isExprBody(body))
    return !typeReference && ["object", "array-literal", "call", "arrow"].includes(body.kind);
  return !typeReference || body.length > 0;
}

function shouldExpandLast(args: readonly Expr[]): boolean {
  const last = args.at(-1)!;
  const before = args.at(-2);
  return (
    couldExpand(last) &&
    (before === undefined || before.kind !== last.kind) &&
    !(args.length > 1 && last.kind === "array-literal" && last.items.every(isNumber))
  );
}

/**
 * `(a, b)`: on one line, else hugging the last argument when it is an object or array, else
 * one argument per line.
 */
export function printArguments(args: readonly Expr[], ctx: PrintContext): Doc {
  if (args.length === 0) return "()";
  const printed = args.map((arg, i) => {
    const doc = printExpr(arg, ctx);
    return i === args.length - 1 ? doc : [doc, ",", line];
  });
  const allBroken = () =>
    group(["(", indent([line, ...printed]), ifBreak(","), line, ")"], { shouldBreak: true });
  if (shouldExpandLast(args)) {
    const head = printed.slice(0, -1);
    if (head.some(willBreak)) return allBroken();
    const last = printed.at(-1)!;
    if (willBreak(last))
      return [
        { type: "break-parent" },
        conditionalGroup([["(", ...head, group(last, { shouldBreak: true }), ")"], allBroken()]),
      ];
    return conditionalGroup([
      ["(", ...head, last, ")"],
      ["(", ...head, group(last, { shouldBreak: true }), ")"],
      allBroken(),
    ]);
  }
  return group(["(", indent([softline, ...printed]), ifBreak(","), softline, ")"], {
    shouldBreak: printed.some(willBreak),
  });
}

// ---- assignments ----

/** Whether an argument is short enough for prettier's "poorly breakable" call rule. */
function isLoneShortArgument(arg: Expr): boolean {
  const threshold = 25; // a quarter of the line width
  if (arg.kind === "id" || arg.kind === "ref") return arg.name.length <= threshold;
  if (arg.kind === "literal")
    return (
      typeof arg.value !== "string" ||
      // quotes and escapes only add: a longer value need not be quoted to know (quoting
      // src/openapi.ts's megabytes of JSON here cost as much as printing them)
      (arg.value.length <= threshold - 2 && printString(arg.value).length <= threshold)
    );
  if (
    arg.kind === "call" &&
    arg.args.length === 0 &&
    (arg.callee.kind === "id" || arg.callee.kind === "ref")
  )
    return arg.callee.name.length <= threshold - 2;
  return false;
}

/** A member chain or call chain that breaking after `=` serves better than breaking inside. */
function isPoorlyBreakable(expr: Expr, deep = false): boolean {
  if (expr.kind === "call" && !expr.isNew) {
    const simple =
      expr.args.length === 0 || (expr.args.length === 1 && isLoneShortArgument(expr.args[0]!));
    return simple && isPoorlyBreakable(expr.callee, true);
  }
  if (expr.kind === "member") return isPoorlyBreakable(expr.object, true);
  return deep && (expr.kind === "id" || expr.kind === "ref");
}

export interface AssignmentOptions {
  /** An object property whose key is shorter than five columns: no point in breaking after it. */
  shortKey?: boolean;
}

/**
 * `left op right` in prettier's assignment layouts: break after the operator for strings
 * and poorly breakable chains, keep short keys and literals on the line, else "fluid" (the
 * right side stays on the line when its first part fits, and breaks inside).
 */
export function printAssignment(
  left: Doc,
  operator: Doc,
  right: Expr,
  ctx: PrintContext,
  options: AssignmentOptions = {},
): Doc {
  const rightDoc = printExpr(right, ctx);
  const breakAfter =
    !options.shortKey &&
    ((right.kind === "literal" && typeof right.value === "string") || isPoorlyBreakable(right));
  if (breakAfter) return group([group(left), operator, group(indent([line, rightDoc]))]);
  const literal =
    right.kind === "literal" &&
    (typeof right.value === "number" || typeof right.value === "boolean");
  if (!canBreak(left) && (options.shortKey || literal))
    return group([group(left), operator, " ", rightDoc]);
  return fluid(left, operator, rightDoc);
}

/** The "fluid" assignment layout. */
export function fluid(left: Doc, operator: Doc, right: Doc): Doc {
  const id = groupId();
  return group([group(left), operator, group(indent(line), { id }), indentIfBreak(right, id)]);
}

/** A block of statements: `{`, each on its own line, `}`. */
export function printBlock(statements: readonly Doc[]): Doc {
  if (statements.length === 0) return "{}";
  return ["{", indent([hardline, join(hardline, statements)]), hardline, "}"];
}
