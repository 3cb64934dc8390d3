/**
 * Short constructors of code-model nodes, so that emitters read as the code they emit.
 */
import type { Expr, ObjectProperty, Statement } from "./nodes.ts";

export const id = (name: string): Expr => ({ kind: "id", name });
export const lit = (value: string | number | boolean | null): Expr => ({ kind: "literal", value });
export const undef: Expr = id("undefined");

/** `callee(args)`. */
export const call = (callee: Expr, ...args: Expr[]): Expr & { kind: "call" } => ({
  kind: "call",
  callee,
  args,
});

/** `/* @__PURE__ *\/ callee(args)`: a bundler may drop it when its value is unused. */
export const pureCall = (callee: Expr, ...args: Expr[]): Expr => ({
  kind: "call",
  callee,
  args,
  pure: true,
});

export const newExpr = (callee: Expr, ...args: Expr[]): Expr => ({
  kind: "call",
  callee,
  args,
  isNew: true,
});

export const member = (object: Expr, name: string): Expr => ({ kind: "member", object, name });

/** An object literal from `[key, value]` pairs, keeping only those with a value. */
export function obj(
  entries: readonly (readonly [string | number, Expr | undefined])[],
  options: { expanded?: boolean } = {},
): Expr {
  const properties = entries.flatMap(([key, value]): ObjectProperty[] => {
    if (value === undefined) return [];
    if (value.kind === "id" && value.name === key) return [{ kind: "shorthand", name: key }];
    return [{ kind: "property", key, value }];
  });
  return { kind: "object", properties, ...(options.expanded ? { expanded: true } : {}) };
}

export const arr = (items: readonly Expr[]): Expr => ({ kind: "array-literal", items });

export const ret = (expr: Expr): Statement => ({ kind: "return", expr });
export const exprStatement = (expr: Expr): Statement => ({ kind: "expression-statement", expr });

/** A JSON value as an expression: objects and arrays as literals (on one line where they fit). */
export function valueExpr(value: unknown): Expr {
  if (Array.isArray(value)) return arr(value.map(valueExpr));
  if (typeof value === "object" && value !== null)
    return obj(Object.entries(value).map(([k, v]) => [k, valueExpr(v)] as const));
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return lit(value);
  return lit(null);
}
