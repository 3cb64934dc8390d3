/**
 * How the stand-in pages a paged endpoint (runtime/testing/paging.ts): the spec's pagination
 * as the stand-in reads and writes it, with how each field says "no more" in its own type (left
 * out where it is optional, null where it is nullable, else the empty string or false), so
 * that the last page passes the package's own response checks.
 */
import type { Endpoint, FieldPath, TypeNode } from "./model.ts";
import type { RoutePaging, PageEnd } from "../runtime/testing/paging.ts";
import { resolveType } from "./callback-routing.ts";
import type { TypeLookup } from "./callback-routing.ts";

/** How the field at `path` of `body` is written on the last page. */
function endOf(body: TypeNode, path: FieldPath, types: TypeLookup): PageEnd {
  let current = body;
  for (const [i, name] of path.entries()) {
    const resolved = resolveType(current, types);
    const field =
      resolved.kind === "object" ? resolved.fields.find((f) => f.name === name) : undefined;
    if (!field) return "absent";
    if (i === path.length - 1)
      return !field.required ? "absent" : field.type.nullable ? "null" : "empty";
    current = field.type;
  }
  return "absent";
}

/** The stand-in's paging of an endpoint, or undefined for one that does not page. */
export function routePagingOf(endpoint: Endpoint, types: TypeLookup): RoutePaging | undefined {
  const p = endpoint.pagination;
  const body = endpoint.response.body;
  if (!p || !body) return undefined;
  // copies: the model is plain data, and no two of its places share an array
  const common = {
    items: [...p.items],
    ...(p.in === "body" ? { in: "body" as const } : {}),
    ...("hasMore" in p && p.hasMore ? { hasMore: [...p.hasMore] } : {}),
    ...("total" in p && p.total ? { total: [...p.total] } : {}),
  };
  switch (p.style) {
    case "cursor":
      return { ...common, style: "cursor", param: p.param, cursor: [...p.cursor] };
    case "nextToken":
      return {
        ...common,
        style: "nextToken",
        param: p.param,
        token: [...p.token],
        end: endOf(body, p.token, types),
      };
    case "offset":
      return { ...common, style: "offset", param: p.offset, start: p.start };
    case "page":
      return { ...common, style: "page", param: p.page, start: p.start };
    case "link":
      return {
        ...common,
        style: "link",
        ...(p.field
          ? { field: [...p.field], end: endOf(body, p.field, types) }
          : { header: p.header ?? "Link" }),
      };
    default: {
      const unhandled: never = p;
      throw new Error(`unhandled paging ${JSON.stringify(unhandled)}`);
    }
  }
}
