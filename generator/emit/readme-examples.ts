/**
 * The code of the generated README, as code-model statements printed like every other
 * generated TypeScript: one client call per endpoint and one handler per callback, written
 * from the IR. Bodies and answers are literals with a value per type (the spec's example
 * where it gives one, else a placeholder): every required field, and in the two outer levels
 * a few optional ones of known type too, so an example shows a shape.
 */
import { objectFieldsOf, resolveType, type TypeLookup } from "../ir/callback-routing.ts";
import type { ApiModel, Callback, Endpoint, Field, Param, TypeNode } from "../ir/model.ts";
import { arr, call, id, lit, member, newExpr, obj, valueExpr } from "./code/build.ts";
import type { Expr, ObjectProperty, Statement } from "./code/nodes.ts";

/** Deepest nesting a sample literal goes to; below it an object is left empty. */
const maxDepth = 4;

/** Levels (from the outside) that show optional fields too, and how many fields at most. */
const optionalDepth = 2;
const optionalFields = 3;

/** An object literal of the required fields (and a few optional ones near the top). */
function objectSample(
  fields: readonly Field[],
  types: TypeLookup,
  depth: number,
  omit?: string,
): Expr {
  const own = fields.filter((f) => f.name !== omit);
  const required = own.filter((f) => f.required);
  const optional =
    depth < optionalDepth ? own.filter((f) => !f.required && f.type.kind !== "unknown") : [];
  const shown = [...required, ...optional.slice(0, Math.max(0, optionalFields - required.length))];
  if (shown.length === 0 || depth >= maxDepth) return obj([]);
  return obj(shown.map((f) => [f.name, sample(f.type, types, depth + 1)] as const));
}

/** A literal of a value of `node`: the spec's example, or a placeholder of its type. */
export function sample(node: TypeNode, types: TypeLookup, depth = 0, omit?: string): Expr {
  if (node.docs.example !== undefined) return valueExpr(node.docs.example);
  switch (node.kind) {
    case "primitive":
      if (node.name === "binary") return newExpr(id("Blob"), arr([lit("…")]));
      return node.name === "string"
        ? lit(node.constraints.prefix ? `${node.constraints.prefix}…` : "…")
        : lit(node.name === "boolean" ? false : 0);
    case "unknown":
    case "param":
      return lit(null);
    case "literal":
      return lit(node.value);
    case "enum":
      return lit(node.values[0] ?? null);
    case "array":
      return arr([]);
    case "map":
      return obj([]);
    case "object":
      return objectSample(node.fields, types, depth, omit);
    case "ref": {
      const resolved = resolveType(node, types);
      return resolved.kind === "ref" ? obj([]) : sample(resolved, types, depth, omit);
    }
    case "union":
      return unionSample(node, types, depth);
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The first variant; a tagged one with its tag first, since the variant's own tag field may say only `string`. */
function unionSample(node: TypeNode & { kind: "union" }, types: TypeLookup, depth: number): Expr {
  const first = node.variants[0]!;
  const tag = node.discriminator;
  if (!tag) return sample(first, types, depth);
  const resolved = resolveType(first, types);
  const rest = objectSample(
    resolved.kind === "object" ? resolved.fields : [],
    types,
    depth,
    tag.field,
  );
  const properties = rest.kind === "object" ? rest.properties : [];
  return {
    kind: "object",
    properties: [
      { kind: "property", key: tag.field, value: lit(tag.cases[0]!.value) },
      ...properties,
    ],
  };
}

/** The named types of a model, for following references. */
export const typeLookup = (model: ApiModel): TypeLookup =>
  new Map(model.types.map((t) => [t.name, t]));

/**
 * The path arguments of an example call: `"<reference>"` for a string parameter, a value of
 * its type for any other (an integer's `0`, an enum's first value), so that the call compiles.
 */
export function pathArguments(endpoint: Endpoint, types: TypeLookup): Expr[] {
  const isText = (p: Param) => {
    const type = resolveType(p.type, types);
    return type.kind === "primitive" && type.name === "string";
  };
  return endpoint.params
    .filter((p) => p.placement === "path" || p.placement === "trailing")
    .map((p) => (isText(p) ? lit(`<${p.name}>`) : sample(p.type, types)));
}

/** `const getResult = await client.transactions.get("<reference>");` (`const stream = ...` for a stream). */
export function endpointExample(endpoint: Endpoint, types: TypeLookup): Statement {
  const args = pathArguments(endpoint, types);
  if (endpoint.body) args.push(sample(endpoint.body, types));
  const query = endpoint.params.filter(
    (p) => (p.placement === "query" || p.placement === "header") && p.required,
  );
  if (query.length) args.push(obj(query.map((p) => [p.name, sample(p.type, types)] as const)));
  const callee = member(member(id("client"), endpoint.groupProperty), endpoint.methodName);
  const awaited: Expr = { kind: "await", expr: call(callee, ...args) };
  // A stream's result is read with `for await` (docs/client.md, "Streams"): it is named so.
  if (endpoint.response.stream)
    return { kind: "variable", declarationKind: "const", name: "stream", init: awaited };
  return endpoint.response.body
    ? { kind: "variable", declarationKind: "const", name: `${endpoint.name}Result`, init: awaited }
    : { kind: "expression-statement", expr: awaited };
}

/** The handler of a callback answering its success type (the router adds `event`). */
export function callbackExample(callback: Callback, types: TypeLookup): ObjectProperty {
  const input = callback.body ? "body" : callback.paramsTypeName ? "params" : undefined;
  const answer = callback.success ?? callback.failure;
  const fields = answer ? objectFieldsOf(answer, types) : undefined;
  const body: Expr | readonly Statement[] = !answer
    ? []
    : fields
      ? objectSample(fields, types, 0, callback.routing.responseEvent)
      : sample(answer, types);
  return {
    kind: "property",
    key: callback.event,
    value: { kind: "arrow", isAsync: true, params: input ? [{ name: input }] : [], body },
  };
}
