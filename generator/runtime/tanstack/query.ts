/**
 * The options objects of the package's `./tanstack-query` entry: plain objects of a key and
 * a function (and, for a paged list, how the next page is asked for), which every TanStack
 * Query adapter takes as they are (React, Vue, Solid, Svelte, Angular) and `QueryClient`'s own
 * `fetchQuery`, `prefetchQuery` and `fetchInfiniteQuery`. Only types come from
 * `@tanstack/query-core`, an optional peer dependency: nothing of it is loaded at run time.
 * Each query passes TanStack's AbortSignal to the call, so a query TanStack cancels aborts
 * its request.
 */
import type { DataTag, InfiniteData, QueryFunctionContext, QueryKey } from "@tanstack/query-core";
import type { FieldPath, Paging } from "../client/operation.js";

/**
 * The key of an endpoint's query: `[package, group, operation, arguments]`, so that a prefix
 * of it (`[package, group]`, `[package, group, operation]`) matches a group's or an
 * operation's queries.
 */
export type OperationKey<P extends string, G extends string, O extends string, A> = readonly [
  P,
  G,
  O,
  A,
];

/** The key of a paged list's infinite query: its query's key and `"infinite"`. */
export type InfiniteOperationKey<
  P extends string,
  G extends string,
  O extends string,
  A,
> = readonly [P, G, O, A, "infinite"];

/** A query's options: its key, tagged with the data the query gives, and its function. */
export interface EndpointQueryOptions<T, K extends QueryKey> {
  queryKey: DataTag<K, T>;
  queryFn: (context: QueryFunctionContext<K>) => Promise<T>;
}

/** A mutation's options: its key (the operation's) and its function of the variables. */
export interface EndpointMutationOptions<T, V> {
  mutationKey: QueryKey;
  mutationFn: (variables: V) => Promise<T>;
}

/**
 * The value a page is asked for with: the cursor or token (none for the first page), or
 * the offset or page number.
 */
export type PageParam = string | number | undefined;

/** A paged list's options: every page's body in `data.pages`, the next page from the last. */
export interface EndpointInfiniteQueryOptions<T, K extends QueryKey> {
  queryKey: DataTag<K, InfiniteData<T, PageParam>>;
  queryFn: (context: QueryFunctionContext<K, PageParam>) => Promise<T>;
  initialPageParam: PageParam;
  getNextPageParam: (
    lastPage: T,
    allPages: T[],
    lastPageParam: PageParam,
    allPageParams: PageParam[],
  ) => PageParam;
}

/** The options of a query that sends `send(signal)`. */
export function queryOptionsOf<T, K extends QueryKey>(
  queryKey: K,
  send: (signal: AbortSignal) => PromiseLike<T>,
): EndpointQueryOptions<T, K> {
  return {
    queryKey: queryKey as DataTag<K, T>,
    queryFn: ({ signal }) => Promise.resolve(send(signal)),
  };
}

/** The options of a mutation that sends `send(variables)`. */
export function mutationOptionsOf<T, V = void>(
  mutationKey: QueryKey,
  send: (variables: V) => PromiseLike<T>,
): EndpointMutationOptions<T, V> {
  return { mutationKey, mutationFn: (variables) => Promise.resolve(send(variables)) };
}

/**
 * The options of a paged list whose moving value is a query parameter (cursor, nextToken,
 * offset and page paging; docs/client.md, "Pagination"): each page is one call with the
 * caller's `query` and the page's value in it, and the next page's value is read off the last
 * page as the client's own walk reads it (client/pagination.ts), with the same stop rules.
 */
export function infiniteQueryOptionsOf<T, Q extends object, K extends QueryKey>(
  queryKey: K,
  paging: Paging,
  query: Q | undefined,
  send: (query: Q, signal: AbortSignal) => PromiseLike<T>,
): EndpointInfiniteQueryOptions<T, K> {
  const name = movingParam(paging);
  const given = (query as Record<string, unknown> | undefined)?.[name];
  const start = paging.style === "offset" || paging.style === "page" ? paging.start : undefined;
  const initialPageParam = typeof given === "string" || typeof given === "number" ? given : start;
  return {
    queryKey: queryKey as DataTag<K, InfiniteData<T, PageParam>>,
    queryFn: ({ pageParam, signal }) => {
      const { [name]: _given, ...rest } = (query ?? {}) as Record<string, unknown>;
      const page = pageParam === undefined ? rest : { ...rest, [name]: pageParam };
      return Promise.resolve(send(page as Q, signal));
    },
    initialPageParam,
    getNextPageParam: (lastPage, allPages, _lastParam, allPageParams) => {
      const next = nextPageParam(paging, lastPage, allPages, allPageParams);
      // A server that gives back a value already sent would walk in a circle.
      return next !== undefined && allPageParams.includes(next) ? undefined : next;
    },
  };
}

/** The query parameter that moves a walk on. */
function movingParam(paging: Paging): string {
  switch (paging.style) {
    case "cursor":
    case "nextToken":
      return paging.param;
    case "offset":
      return paging.offset;
    case "page":
      return paging.page;
    case "link":
      throw new Error("a list paged by links has no infinite query options");
    default: {
      const unhandled: never = paging;
      throw new Error(`unhandled paging ${String(unhandled)}`);
    }
  }
}

/** The value at `path` inside `value`; undefined where a step is missing. */
function dig(value: unknown, path: FieldPath | undefined): unknown {
  let current = value;
  for (const name of path ?? []) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

/** The items of a page, or none where the body has no list there. */
function itemsOf(paging: Paging, page: unknown): unknown[] {
  const items = dig(page, paging.items) ?? [];
  return Array.isArray(items) ? items : [];
}

/**
 * The value of the page after `lastPage`, or undefined when it is the last: an empty page
 * (unless the spec's `stopOnEmptyPage` is false), `hasMore` false; cursor: a last item
 * without the cursor; nextToken: no token; offset and page: `total` reached.
 */
function nextPageParam(
  paging: Paging,
  lastPage: unknown,
  allPages: readonly unknown[],
  allPageParams: readonly PageParam[],
): PageParam {
  const items = itemsOf(paging, lastPage);
  if (!items.length && paging.stopOnEmptyPage !== false) return undefined;
  if (paging.style !== "link" && paging.hasMore && dig(lastPage, paging.hasMore) === false)
    return undefined;
  switch (paging.style) {
    case "cursor": {
      const cursor = dig(items.at(-1), paging.cursor);
      return typeof cursor === "string" || typeof cursor === "number" ? cursor : undefined;
    }
    case "nextToken": {
      const token = dig(lastPage, paging.token);
      return typeof token === "string" && token !== "" ? token : undefined;
    }
    case "offset":
    case "page": {
      const first = Number(allPageParams[0] ?? paging.start);
      const last = Number(allPageParams.at(-1) ?? paging.start);
      // Items up to this page from the list's start: pages before the first count as full ones.
      const read = allPages.reduce<number>((n, page) => n + itemsOf(paging, page).length, 0);
      const reached =
        paging.style === "offset"
          ? last + items.length
          : (first - paging.start) * itemsOf(paging, allPages[0]).length + read;
      const total = dig(lastPage, paging.total);
      if (typeof total === "number" && reached >= total) return undefined;
      return paging.style === "offset" ? last + items.length : last + 1;
    }
    case "link":
      return undefined;
    default: {
      const unhandled: never = paging;
      throw new Error(`unhandled paging ${String(unhandled)}`);
    }
  }
}
