/**
 * The stand-in's pages. A paged endpoint answers a walk of two pages: the first points at the
 * second the way the spec's pagination says (a token, a cursor on its last item, `hasMore`, a
 * `total` past it, a `Link` header or a link field), and the second is the last, said in the
 * same terms, so a client's `for await` walks both and ends. Which page a request asks for is
 * read from the request: the parameter the walk moves on (a query parameter, or a field of
 * the request body), or, for links, a mark the first page's link adds to the query.
 */
import { put } from "./sample.js";

/** How a field says "no more": left out (optional), null (nullable), else the empty string. */
export type PageEnd = "absent" | "null" | "empty";

type Path = readonly string[];

/** A route's paging, as the generator writes it from the spec (ir/stand-in-paging.ts). */
export type RoutePaging = { items: Path; hasMore?: Path; total?: Path; in?: "body" } & (
  | { style: "cursor"; param: string; cursor: Path }
  | { style: "nextToken"; param: string; token: Path; end: PageEnd }
  | { style: "offset" | "page"; param: string; start: number }
  | { style: "link"; header: string }
  | { style: "link"; field: Path; end: PageEnd }
);

/** The query parameter a first page's link adds, which says the second page is asked for. */
export const linkMark = "apigen_page";

/** The token the first page gives (nextToken), which asks for the second. */
const secondToken = "page-2";

/**
 * The value a request sent of the parameter the walk moves on: from the query, or (`in:
 * "body"`) from a field of the request body; null when it sent none.
 */
function sentValue(
  paging: RoutePaging,
  param: string,
  query: URLSearchParams,
  body: unknown,
): string | null {
  if (paging.in !== "body") return query.get(param);
  const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const value = Object.hasOwn(fields, param) ? fields[param] : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

/** Whether a request asks for the second page. */
export function isSecondPage(paging: RoutePaging, query: URLSearchParams, body?: unknown): boolean {
  if (paging.style === "link") return query.get(linkMark) === "2";
  const value = sentValue(paging, paging.param, query, body);
  if (value === null) return false;
  return paging.style === "offset" || paging.style === "page"
    ? Number(value) !== paging.start
    : true;
}

type Json = Record<string, unknown>;

/** The object holding the last field of `path` inside `value`, and that field's name; undefined where a step is no object. */
function parentOf(value: unknown, path: Path): [Json, string] | undefined {
  if (!path.length || value === null || typeof value !== "object") return undefined;
  let at = value as Json;
  for (const name of path.slice(0, -1)) {
    const next = Object.hasOwn(at, name) ? at[name] : undefined;
    if (next === null || typeof next !== "object" || Array.isArray(next)) return undefined;
    at = next as Json;
  }
  return [at, path.at(-1)!];
}

/** Sets the field at `path` (an own property, even one named `__proto__`). */
function set(value: unknown, path: Path, field: unknown): void {
  const parent = parentOf(value, path);
  if (parent) put(parent[0], parent[1], field);
}

/** Writes "no more" into the field at `path` the way its type says it. */
function end(value: unknown, path: Path, how: PageEnd): void {
  const parent = parentOf(value, path);
  if (!parent) return;
  if (how === "absent") delete parent[0][parent[1]];
  else set(value, path, how === "null" ? null : "");
}

/** The items array of a page (the body itself when `items` is empty). */
function itemsOf(value: unknown, items: Path): unknown[] | undefined {
  if (!items.length) return Array.isArray(value) ? value : undefined;
  const parent = parentOf(value, items);
  const found = parent && Object.hasOwn(parent[0], parent[1]) ? parent[0][parent[1]] : undefined;
  return Array.isArray(found) ? found : undefined;
}

/** Replaces the items of a page; returns the body (a new one when the body is the array). */
function withItems(value: unknown, items: Path, list: unknown[]): unknown {
  if (!items.length) return list;
  set(value, items, list);
  return value;
}

/** The target of the second page: this request's query with the mark, as a relative reference. */
function secondPageLink(query: URLSearchParams): string {
  const next = new URLSearchParams(query);
  next.set(linkMark, "2");
  return `?${next.toString()}`;
}

/**
 * A page of the walk: `value` is the answer's body as made up, `headers` its headers (a
 * `Link` header set or removed here); `query` and `body` are the request's. Returns the body
 * to send.
 */
export function paged(
  paging: RoutePaging,
  value: unknown,
  headers: Record<string, string>,
  query: URLSearchParams,
  request?: unknown,
): unknown {
  const second = isSecondPage(paging, query, request);
  const made = itemsOf(value, paging.items) ?? [];
  // the last page is one item, or none where only an empty page can say it is the last
  const emptyEnd =
    (paging.style === "cursor" && !paging.hasMore) ||
    ((paging.style === "offset" || paging.style === "page") && !paging.hasMore && !paging.total);
  const items = second ? (emptyEnd ? [] : made.slice(0, 1)) : made;
  const body = withItems(value, paging.items, items);
  if (paging.hasMore) set(body, paging.hasMore, !second);
  if (paging.total && (paging.style === "offset" || paging.style === "page")) {
    // one more item than the first page shows; on the second, no more than the walk reached
    const before =
      paging.style === "offset"
        ? Number(sentValue(paging, paging.param, query, request)) - paging.start
        : 1;
    set(body, paging.total, second ? before + items.length : items.length + 1);
  }
  switch (paging.style) {
    case "nextToken":
      if (second) end(body, paging.token, paging.end);
      else set(body, paging.token, secondToken);
      break;
    case "link":
      if ("header" in paging) {
        if (second) delete headers[paging.header];
        else headers[paging.header] = `<${secondPageLink(query)}>; rel="next"`;
      } else if (second) end(body, paging.field, paging.end);
      else set(body, paging.field, secondPageLink(query));
      break;
    case "cursor":
    case "offset":
    case "page":
      break;
    default: {
      const unhandled: never = paging;
      throw new Error(`unhandled paging ${JSON.stringify(unhandled)}`);
    }
  }
  return body;
}
