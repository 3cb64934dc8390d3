/**
 * What each place of a request can carry, checked against each parameter's resolved type. A
 * query string: a scalar, an array of scalars in any style, and an object of scalars (or
 * arrays of scalars) only as `style: deepObject` (`created[gte]=1`). A path segment or a
 * header: a scalar or an array of scalars (comma-separated). Anything else would fail on every
 * call, or send `[object Object]`, so it is an error at the parameter instead. A path parameter
 * with `slashes: true` is a string: its text is split at `/` into segments.
 */
import type { BuildContext } from "./build-context.ts";
import { resolveType } from "./callback-routing.ts";
import type { Endpoint, NamedType, Param, TypeNode } from "./model.ts";

/** Whether `node` holds structure (an object, a map, an array) rather than one scalar value. */
function isStructured(node: TypeNode, types: ReadonlyMap<string, NamedType>): boolean {
  const type = resolveType(node, types);
  if (type.kind === "union") return type.variants.some((v) => isStructured(v, types));
  return type.kind === "object" || type.kind === "map" || type.kind === "array";
}

/** Why `param` cannot travel in a query string as its style says, or `undefined` when it can. */
function queryProblem(param: Param, types: ReadonlyMap<string, NamedType>): string | undefined {
  const type = resolveType(param.type, types);
  const variants = type.kind === "union" ? type.variants.map((v) => resolveType(v, types)) : [type];
  for (const variant of variants) {
    if (variant.kind === "array") {
      if (isStructured(variant.items, types))
        return "is an array of objects or arrays, which no query style can carry";
    } else if (variant.kind === "object" || variant.kind === "map") {
      if (param.style !== "deepObject")
        return "is an object, which travels in a query string only with `style: deepObject` (name[field]=value)";
      const values = variant.kind === "map" ? [variant.values] : variant.fields.map((f) => f.type);
      if (values.some((value) => nestsStructure(value, types)))
        return "nests objects below its fields, which `style: deepObject` does not carry (one level: name[field]=value)";
    }
  }
  return undefined;
}

/**
 * Whether a deepObject field's value holds structure below one level: a scalar and a list of
 * scalars (`name[field][]=a`) do not, nor does a union of those (OpenSearch's `Ids`, one id or
 * a list of them: the client writes whichever the value is).
 */
function nestsStructure(node: TypeNode, types: ReadonlyMap<string, NamedType>): boolean {
  const type = resolveType(node, types);
  const variants = type.kind === "union" ? type.variants.map((v) => resolveType(v, types)) : [type];
  return variants.some((variant) =>
    isStructured(variant.kind === "array" ? variant.items : variant, types),
  );
}

/** Why `param` (in a path segment or a header) cannot carry its type, or `undefined`. */
function valueProblem(param: Param, types: ReadonlyMap<string, NamedType>): string | undefined {
  const type = resolveType(param.type, types);
  const variants = type.kind === "union" ? type.variants.map((v) => resolveType(v, types)) : [type];
  for (const variant of variants) {
    if (variant.kind === "object" || variant.kind === "map") return "is an object";
    if (variant.kind === "array" && isStructured(variant.items, types))
      return "is an array of objects or arrays";
  }
  return undefined;
}

/** Reports each parameter of the endpoints whose type its place (and style) cannot send. */
export function checkParamShapes(
  ctx: BuildContext,
  types: readonly NamedType[],
  endpoints: readonly Endpoint[],
): void {
  const byName = new Map(types.map((t) => [t.name, t] as const));
  for (const endpoint of endpoints)
    for (const param of endpoint.params) {
      if (param.placement === "query") {
        const problem = queryProblem(param, byName);
        if (problem)
          ctx.bag.report("param-query-shape", { name: param.name, problem }, param.location);
        continue;
      }
      const problem = valueProblem(param, byName);
      if (problem)
        ctx.bag.report(
          "param-value-shape",
          { name: param.name, placement: param.placement, problem },
          param.location,
        );
      else if (param.slashes && !isText(param.type, byName))
        ctx.bag.report(
          "param-slashes",
          { name: param.name, problem: "its type is not a string" },
          param.location,
        );
    }
}

/** Whether `node` is a string (or an enum or literal of strings): the only text split at `/`. */
function isText(node: TypeNode, types: ReadonlyMap<string, NamedType>): boolean {
  const type = resolveType(node, types);
  switch (type.kind) {
    case "primitive":
      return type.name === "string";
    case "enum":
      return type.values.every((value) => typeof value === "string");
    case "literal":
      return typeof type.value === "string";
    default:
      return false;
  }
}
