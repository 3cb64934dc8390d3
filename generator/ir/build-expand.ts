/**
 * Expandable fields tied to the request. A field marked `expandable: true` is an id
 * (`string`) or the object it names (`string | Customer`); an endpoint's `expand:` names the
 * query parameter or body field (`string[]`) where a call lists the fields it wants as
 * objects. Here each expandable field's type is checked, and each endpoint's `expand` is
 * resolved to its place and to every path its answer can expand (`customer`,
 * `data.customer`), read off the resolved response type. The client types the result by
 * what was asked; the stand-in answers it.
 */
import type { SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import { objectFieldsOf, resolveType, type TypeLookup } from "./callback-routing.ts";
import { shorthandOf } from "./generics.ts";
import type { Decl } from "./merge.ts";
import type { Endpoint, EndpointExpand, NamedType, TypeNode } from "./model.ts";
import { childTypes } from "./walk.ts";

/** How deep an expansion path may go, as Stripe's (four levels). */
export const maxExpandDepth = 4;

/** Whether a type is an id or an object: `string | Customer`, `string | { ... }`, nullable or not. */
export function isExpandableType(node: TypeNode): boolean {
  if (node.kind !== "union" || node.discriminator || node.variants.length !== 2) return false;
  const ids = node.variants.filter((v) => v.kind === "primitive" && v.name === "string");
  const objects = node.variants.filter((v) => v.kind === "ref" || v.kind === "object");
  return ids.length === 1 && objects.length === 1 && !ids[0]!.nullable && !objects[0]!.nullable;
}

/** Reports every field marked expandable whose type is not an id or an object. */
export function checkExpandableFields(
  ctx: BuildContext,
  namedTypes: readonly NamedType[],
  endpoints: readonly Endpoint[],
): void {
  const seen = new Set<TypeNode>();
  const visit = (node: TypeNode | undefined): void => {
    if (!node || seen.has(node)) return;
    seen.add(node);
    if (node.kind === "object")
      for (const field of node.fields)
        if (field.expandable && !field.inheritedFrom && !isExpandableType(field.type))
          ctx.bag.report(
            "expandable-type",
            { field: field.name, type: shorthandOf(field.type) },
            field.location,
          );
    for (const child of childTypes(node)) visit(child);
  };
  for (const t of namedTypes) if (!t.instance) visit(t.type);
  for (const e of endpoints) {
    visit(e.body);
    visit(e.response.body);
  }
}

/** The endpoints, each with its resolved `expand` where the spec declares one. */
export function withExpand(
  ctx: BuildContext,
  decls: readonly Decl[],
  endpoints: readonly Endpoint[],
  namedTypes: readonly NamedType[],
): Endpoint[] {
  const types: TypeLookup = new Map(namedTypes.map((t) => [t.name, t] as const));
  return endpoints.map((endpoint, i) => {
    const decl = decls[i]!;
    const name = isRecord(decl.value) ? decl.value.expand : undefined;
    if (typeof name !== "string") return endpoint;
    const expand = expandOf(ctx, decl.file, [...decl.path, "expand"], endpoint, name, types);
    return expand ? { ...endpoint, expand } : endpoint;
  });
}

function expandOf(
  ctx: BuildContext,
  file: SpecFile,
  at: (string | number)[],
  endpoint: Endpoint,
  name: string,
  types: TypeLookup,
): EndpointExpand | undefined {
  const where = file.locate(at);
  const param = endpoint.params.find((p) => p.name === name && p.placement === "query");
  const field = param
    ? undefined
    : objectFieldsOf(endpoint.body, types)?.find((f) => f.name === name);
  const type = param?.type ?? field?.type;
  if (!type) {
    ctx.bag.report("expand-place", { name, endpoint: endpoint.id }, where);
    return undefined;
  }
  const list = resolveType(type, types);
  const item = list.kind === "array" ? resolveType(list.items, types) : undefined;
  if (item?.kind !== "primitive" || item.name !== "string") {
    ctx.bag.report("expand-list", { name, type: shorthandOf(type) }, where);
    return undefined;
  }
  const { response } = endpoint;
  const paths =
    response.kind === "json" && response.body && !endpoint.streamResponse
      ? expandablePaths(response.body, types)
      : [];
  if (!paths.length) {
    ctx.bag.report("expand-nothing", { endpoint: endpoint.id }, where);
    return undefined;
  }
  return { name, in: param ? "query" : "body", paths };
}

/**
 * Every expandable path of a type, in field order: through objects (named or inline),
 * arrays (no step of their own) and union members, to `maxExpandDepth` fields; a path ends
 * at an expandable field, and a named type met again on the way is not entered twice.
 */
export function expandablePaths(node: TypeNode, types: TypeLookup): string[] {
  const out = new Set<string>();
  const walk = (current: TypeNode, prefix: string, depth: number, within: Set<string>) => {
    if (depth > maxExpandDepth) return;
    if (current.kind === "ref") {
      if (within.has(current.name)) return;
      const named = types.get(current.name);
      if (named) walk(named.type, prefix, depth, new Set([...within, current.name]));
      return;
    }
    if (current.kind === "array") return walk(current.items, prefix, depth, within);
    if (current.kind === "union") {
      for (const v of current.variants) walk(v, prefix, depth, within);
      return;
    }
    if (current.kind !== "object") return;
    for (const field of current.fields) {
      const path = `${prefix}${field.name}`;
      if (field.expandable && isExpandableType(field.type)) out.add(path);
      else if (depth < maxExpandDepth) walk(field.type, `${path}.`, depth + 1, within);
    }
  };
  walk(node, "", 1, new Set());
  return [...out];
}

/**
 * The type of the expandable field at `path` of a response body (`charges.card`): through
 * named types, arrays and union members, as `expandablePaths` walks; undefined when none.
 */
export function expandableFieldAt(
  node: TypeNode,
  path: string,
  types: TypeLookup,
): TypeNode | undefined {
  const steps = path.split(".");
  const find = (current: TypeNode, i: number, depth: number): TypeNode | undefined => {
    if (depth > 64) return undefined;
    const resolved = resolveType(current, types);
    if (resolved.kind === "array") return find(resolved.items, i, depth + 1);
    if (resolved.kind === "union") {
      for (const v of resolved.variants) {
        const found = find(v, i, depth + 1);
        if (found) return found;
      }
      return undefined;
    }
    if (resolved.kind !== "object") return undefined;
    const field = resolved.fields.find((f) => f.name === steps[i]);
    if (!field) return undefined;
    if (i === steps.length - 1) return field.expandable ? field.type : undefined;
    return find(field.type, i + 1, depth + 1);
  };
  return find(node, 0, 0);
}
