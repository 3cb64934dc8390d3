/**
 * `x-apigen-pagination` of a paged operation: how its list walks its pages, with the keys the
 * spec format writes (`style`, `items`, `param`, `cursor`, `hasMore`, ...; dot paths as
 * text). OpenAPI 3.1 has no object for paging, so tools that do not know the extension see
 * the parameters and the response as they are.
 */
import type { Endpoint, FieldPath, Pagination } from "../../ir/model.ts";
import { obj, type JsonObject } from "./json.ts";

/** A dot path as the spec writes it; nothing for an empty one. */
const dots = (path: FieldPath | undefined) => (path?.length ? path.join(".") : undefined);

/** The keys of one style beyond `style` and `items`. */
function styleKeys(p: Pagination): Record<string, string | undefined> {
  switch (p.style) {
    case "cursor":
      return { param: p.param, cursor: dots(p.cursor), hasMore: dots(p.hasMore) };
    case "nextToken":
      return { param: p.param, token: dots(p.token), hasMore: dots(p.hasMore) };
    case "offset":
      return { offset: p.offset, limit: p.limit, total: dots(p.total), hasMore: dots(p.hasMore) };
    case "page":
      return { page: p.page, perPage: p.perPage, total: dots(p.total), hasMore: dots(p.hasMore) };
    case "link":
      return { header: p.header, field: dots(p.field) };
    default: {
      const unhandled: never = p;
      throw new Error(`unhandled pagination ${String(unhandled)}`);
    }
  }
}

/** The operation's `x-apigen-pagination`, or nothing when the endpoint does not page. */
export function paginationExtension(endpoint: Endpoint): JsonObject | undefined {
  const p = endpoint.pagination;
  return p
    ? obj({
        style: p.style,
        items: dots(p.items),
        in: p.in,
        ...styleKeys(p),
        stopOnEmptyPage: p.stopOnEmptyPage,
      })
    : undefined;
}
