/**
 * The parts of a generated paged endpoint, read off its IR `pagination`: the descriptor's
 * `paging` entry (data the runtime's pagination.ts walks by), the call's return type
 * `PagePromise<Body, Item, Headers>`, the maker of its function (`pagedEndpoint`, which
 * brings the paging runtime only into bundles that use a paged endpoint) and the doc line
 * that says how it pages.
 */
import type { Endpoint, FieldPath, Pagination } from "../ir/model.ts";
import type { Expr, TypeExpr } from "./code/nodes.ts";
import { obj, type Json, type JsonObject } from "./shared/json.ts";
import { generatedRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";
import { keyword, typeExpr } from "./shared/type-expr.ts";

const paginationModule = "client/pagination.ts";

/** A dot path as the descriptor's list of field names; absent when there is none. */
const path = (fields: FieldPath | undefined): Json | undefined =>
  fields && fields.length ? [...fields] : undefined;

/** The descriptor's `paging` entry: only what the runtime reads to find the next page. */
export function pagingEntry(endpoint: Endpoint): JsonObject | undefined {
  const p = endpoint.pagination;
  return (
    p &&
    obj({
      style: p.style,
      items: path(p.items),
      in: p.in,
      ...styleEntries(p),
      stopOnEmptyPage: p.stopOnEmptyPage,
    })
  );
}

/** The entries of one style, in the order the spec format lists them. */
function styleEntries(p: Pagination): Record<string, Json | undefined> {
  switch (p.style) {
    case "cursor":
      return {
        param: p.param,
        cursor: path(p.cursor),
        hasMore: path(p.hasMore),
      };
    case "nextToken":
      return {
        param: p.param,
        token: path(p.token),
        hasMore: path(p.hasMore),
      };
    case "offset":
      return {
        offset: p.offset,
        start: p.start,
        total: path(p.total),
        hasMore: path(p.hasMore),
      };
    case "page":
      return {
        page: p.page,
        start: p.start,
        total: path(p.total),
        hasMore: path(p.hasMore),
      };
    case "link":
      return {
        header: p.header,
        field: path(p.field),
      };
    default: {
      const unhandled: never = p;
      throw new Error(`unhandled pagination ${String(unhandled)}`);
    }
  }
}

/** `PagePromise<Body, Item>`, or with the declared headers `PagePromise<Body, Item, XResponseHeaders>`. */
export function pagedReturnType(endpoint: Endpoint, pagination: Pagination): TypeExpr {
  const { body, headersTypeName } = endpoint.response;
  return {
    kind: "generic",
    target: runtimeType(paginationModule, "PagePromise"),
    args: [
      body ? typeExpr(body) : keyword("unknown"),
      typeExpr(pagination.itemType),
      ...(headersTypeName ? [generatedRef(modules.client, headersTypeName, true)] : []),
    ],
  };
}

/** `pagedEndpoint`, which makes a paged endpoint's function: only bundles that use one carry the paging runtime. */
export function pagedEndpointMaker(): Expr {
  return runtimeValue(paginationModule, "pagedEndpoint");
}

/** What the JSDoc says about how the endpoint pages and how to walk it. */
export function pagingDocLines(endpoint: Endpoint): string[] {
  const p = endpoint.pagination;
  if (!p) return [];
  const dots = (fields: FieldPath) => `\`${fields.join(".")}\``;
  // a value that moves the walk on in the request body is named as such; a query parameter is its name
  const sent = (name: string) =>
    p.in === "body" ? `the request body's \`${name}\`` : `\`${name}\``;
  const how = (() => {
    switch (p.style) {
      case "cursor":
        return `${sent(p.param)} = the last item's ${dots(p.cursor)}`;
      case "nextToken":
        return `${sent(p.param)} = ${p.in === "body" ? "the answer's" : "the body's"} ${dots(p.token)}`;
      case "offset":
        return `${sent(p.offset)} moves on by the items of each page`;
      case "page":
        return `${sent(p.page)} counts up from ${p.start}`;
      case "link":
        return p.field
          ? `the next page's URL in ${dots(p.field)}`
          : `the \`${p.header}\` header's rel="next" link`;
      default: {
        const unhandled: never = p;
        throw new Error(`unhandled pagination ${String(unhandled)}`);
      }
    }
  })();
  return [
    `Paged (${p.style}: ${how}). \`await\` gives the first page; \`for await (const item of …)\` walks every item of every page, \`.pages()\` every page.`,
  ];
}
