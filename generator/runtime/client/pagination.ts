/**
 * Walking a paged list: the call of a paged endpoint returns a `PagePromise`, which is the
 * first page's `ApiPromise` (awaited, it gives the body as any call does) and also iterates
 * every item of every page (`for await`), or every page (`pages()`). Each page is one more
 * call through ClientCore, so retries, timeouts, credentials, validation and the caller's
 * signal apply to it as to any call. How the next page is asked for, and when there is none,
 * is the descriptor's `paging` (operation.ts; docs/client.md, "Pagination").
 *
 * Only paged endpoints import this module: core.ts does not, so a bundle without them
 * leaves it out.
 */
import { ApiPromise, type WithResponse } from "./api-promise.js";
import type { ClientCore, RequestOptions } from "./core.js";
import { PaginationError } from "./errors.js";
import { queryPair } from "./params.js";
import {
  endpointOf,
  type FieldPath,
  type Operation,
  type Paging,
  type PathParams,
  type QueryParams,
} from "./operation.js";

/** What one walk sends again for every page, and the cursors, tokens, pages and links it sent. */
interface Walk {
  core: ClientCore;
  op: Operation & { paging: Paging };
  params: PathParams | undefined;
  body: unknown;
  query: QueryParams | undefined;
  call: RequestOptions;
  sent: Set<string>;
  /** The most pages the walk reads: the call's `maxPages`, else the client's. */
  maxPages: number;
  /** What sends this walk's later pages, but for next links (`laterPages`); made at the first. */
  later?: Operation;
}

/**
 * The request of the next page: the value that moves the walk on, and the query parameter
 * (or request body field) or the link that sends it.
 */
interface Next {
  value: string | number;
  param?: string;
  url?: URL;
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

/** The `rel="next"` URL of a Link header (`<url>; rel="next", <url>; rel="last"`); URLs may hold commas. */
function nextLink(header: string | null): string | undefined {
  for (const [, target, params] of (header ?? "").matchAll(/<([^>]*)>((?:\s*;\s*[^;,<]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params ?? "")?.[1] ?? "";
    if (rel.toLowerCase().split(/\s+/).includes("next")) return target;
  }
  return undefined;
}

/** What the walk calls a value it sent, in an error's message. */
const what = {
  cursor: "cursor",
  nextToken: "page token",
  offset: "offset",
  page: "page",
  link: "next link",
};

/** One page of a walk: its body, items and response, and the way to the next page. */
export class Page<T, I, H = Record<string, never>> {
  /** The body, as `await` of the call gives it. */
  readonly data: T;
  /** The items of this page. */
  readonly items: I[];
  readonly response: Response;
  readonly status: number;
  /** The headers the spec declares, parsed by their type (as `withResponse()` gives them). */
  readonly headers: H;
  private readonly next: Next | undefined;
  private pending?: Promise<Page<T, I, H>>;

  /** Items up to and including this page, counted from the walk's start (page style: for `total`). */
  private readonly reached: number;

  constructor(
    private readonly walk: Walk,
    result: WithResponse<T, H>,
    /** The offset or page number this page was asked for. */
    at: number,
    /** Items of the pages before this one; absent for the first page of a walk. */
    before?: number,
    /** This page's place in the walk: 1 for the first. */
    private readonly count = 1,
  ) {
    ({ data: this.data, response: this.response, status: this.status } = result);
    this.headers = result.headers;
    const { op } = walk;
    const items = dig(result.data, op.paging.items) ?? [];
    if (!Array.isArray(items))
      throw new PaginationError(`${op.id}: the page's items are not a list`, op.id);
    this.items = items as I[];
    const { paging } = op;
    // A walk that starts past the first page counts the pages before as full ones like this.
    this.reached =
      paging.style === "offset"
        ? at + items.length
        : (before ?? (paging.style === "page" ? at - paging.start : 0) * items.length) +
          items.length;
    this.next = nextOf(walk, result, this.items, at, this.reached);
  }

  /** Whether the server says another page follows (docs/client.md, "Pagination": the stop rules). */
  hasNextPage(): boolean {
    return this.next !== undefined;
  }

  /**
   * The next page, asked for once however often this is called. Rejects with a
   * PaginationError on the last page, on the walk's `maxPages`-th page, or when the server
   * repeats a value this walk already sent.
   */
  nextPage(): Promise<Page<T, I, H>> {
    return (this.pending ??= this.fetchNext());
  }

  private async fetchNext(): Promise<Page<T, I, H>> {
    const { walk, next } = this;
    const { op, core, sent } = walk;
    const fail = (message: string) => new PaginationError(`${op.id}: ${message}`, op.id);
    if (!next) throw fail("this is the last page; there is no next one");
    if (this.count >= walk.maxPages)
      throw fail(
        `the walk reached its limit of ${walk.maxPages} pages (maxPages) and the server names another; stopping`,
      );
    const key = String(next.value);
    if (sent.has(key))
      throw fail(
        `the server gave ${what[op.paging.style]} ${JSON.stringify(next.value)} again; stopping instead of walking in a circle`,
      );
    sent.add(key);
    const result = next.url
      ? await core.request<T, H>(...linkRequest(walk, next.url)).withResponse()
      : await core.request<T, H>(...laterRequest(walk, next.param!, next.value)).withResponse();
    const at = typeof next.value === "number" ? next.value : 0;
    return new Page(walk, result, at, this.reached, this.count + 1);
  }
}

/**
 * The next page's request after a page, or undefined when the page is the last: an empty
 * page (unless the spec's `stopOnEmptyPage` is false), `hasMore` false; cursor: a last item
 * without the cursor; nextToken: no token; offset and page: `total` reached; link: no next
 * link.
 */
function nextOf<T, H>(
  walk: Walk,
  result: WithResponse<T, H>,
  items: unknown[],
  at: number,
  reached: number,
): Next | undefined {
  const { op } = walk;
  const { paging } = op;
  const { data, response } = result;
  // An empty page with a new token or link after it, forever, would never end the walk.
  if (!items.length && paging.stopOnEmptyPage !== false) return;
  if (paging.style !== "link" && paging.hasMore && dig(data, paging.hasMore) === false) return;
  const moved = (param: string, value: string | number): Next => ({ value, param });
  switch (paging.style) {
    case "cursor": {
      const cursor = dig(items.at(-1), paging.cursor);
      return typeof cursor === "string" || typeof cursor === "number"
        ? moved(paging.param, cursor)
        : undefined;
    }
    case "nextToken": {
      const token = dig(data, paging.token);
      return typeof token === "string" && token !== "" ? moved(paging.param, token) : undefined;
    }
    case "offset":
    case "page": {
      const total = dig(data, paging.total);
      if (typeof total === "number" && reached >= total) return;
      return paging.style === "offset"
        ? moved(paging.offset, at + items.length)
        : moved(paging.page, at + 1);
    }
    case "link": {
      const field = paging.field && dig(data, paging.field);
      const link = paging.field
        ? typeof field === "string" && field !== ""
          ? field
          : undefined
        : nextLink(response.headers.get(paging.header ?? "link"));
      return link === undefined
        ? undefined
        : linkOf(op, link, response.url || walk.core.addressOf(op).base);
    }
    default: {
      const unhandled: never = paging;
      throw new Error(`unhandled paging ${String(unhandled)}`);
    }
  }
}

/**
 * The request of a later page (cursor, token, offset or page), as arguments of
 * `core.request`: the walk's operation for them, and the one value that moves it on.
 */
function laterRequest(
  walk: Walk,
  param: string,
  value: string | number,
): Parameters<ClientCore["request"]> {
  const { params, body, query, call } = walk;
  if (walk.op.paging.in === "body") {
    // the caller's body again with the one field changed (a computed key: an own property,
    // whatever its name), and the caller's query as it was
    const moved = { ...(body as Record<string, unknown> | undefined), [param]: value };
    return [laterBodyPages(walk), params, moved, query, call];
  }
  return [laterPages(walk, param), params, body, { [param]: value }, call];
}

/**
 * What sends the later pages of a walk that moves on through a field of the request body
 * (`in: "body"`): the endpoint without its validators, which checked the caller's parameters
 * and body on the first page; a later page's body is that one with the server's value in it.
 */
function laterBodyPages(walk: Walk): Operation {
  const { validateParams: _params, validateBody: _body, ...unchecked } = walk.op;
  return (walk.later ??= unchecked);
}

/**
 * What sends a walk's later pages (cursor, token, offset or page; made once per walk): the
 * endpoint with the call's other query parameters placed once, the query it takes being the
 * one value the walk moves on (`name`), and no validators. The first page's request checked
 * and placed the caller's parameters and body, which every page sends again unchanged; the
 * moving value is the server's (a cursor or token) or counted from the server's pages. So a
 * page costs the request and that one pair; checking and placing every parameter again was
 * about 3% of a walk on loopback (bench/streams.ts).
 */
function laterPages(walk: Walk, name: string): Operation {
  if (walk.later) return walk.later;
  const { op, query } = walk;
  // The moving value is a query parameter of the endpoint (ir/build-pagination.ts), so it has `place`.
  const place = op.place!;
  const { [name]: _given, ...rest } = query ?? {};
  const { [name]: _default, ...defaults } = op.sendDefaults ?? {};
  const fixed = place({ ...op, sendDefaults: defaults }, rest);
  const placeMoving: typeof place = (_spec, moving, extra = []) => {
    let pair: string;
    try {
      pair = queryPair(name, String(moving![name]));
    } catch {
      throw new PaginationError(
        `${op.id}: the server gave ${what[op.paging.style]} that a URL cannot carry (a lone surrogate); stopping`,
        op.id,
      );
    }
    const pairs = [pair, ...extra].join("&");
    return {
      search: fixed.search ? `${fixed.search}&${pairs}` : `?${pairs}`,
      headers: fixed.headers,
    };
  };
  const { validateParams: _params, validateBody: _body, ...unchecked } = op;
  return (walk.later = { ...unchecked, place: placeMoving });
}

/**
 * The next link resolved against the page's URL, without its fragment and without the
 * endpoint's query credentials (the client adds its own, and an echoed key never reaches an
 * error message).
 */
function linkOf(op: Operation, link: string, from: string): Next {
  let url: URL;
  try {
    url = new URL(link, from);
  } catch {
    throw new PaginationError(
      `${op.id}: the next link ${JSON.stringify(link)} is not a URL`,
      op.id,
    );
  }
  url.hash = "";
  for (const c of op.credentials)
    if (c.query !== undefined && url.searchParams.has(c.query)) url.searchParams.delete(c.query);
  return { value: url.href, url };
}

/**
 * The request of a next link, as arguments of `core.request`: the endpoint with its path
 * replaced by the link (so the client's base address, retries and credentials apply), only
 * header parameters placed from the call's own, and query credentials added to the link's
 * query. A link to another origin is refused before anything is sent there.
 */
function linkRequest(walk: Walk, url: URL): Parameters<ClientCore["request"]> {
  const { core, op, params, body, query, call } = walk;
  const { base, origin } = core.addressOf(op);
  if (url.origin !== origin || url.username || url.password)
    throw new PaginationError(
      `${op.id}: the next link points to ${url.origin === origin ? "an address with a user name or password" : `another origin, ${url.origin}`}; not followed (credentials go only to ${origin})`,
      op.id,
    );
  const href = url.href;
  // The URL the client sends is the base address and this; dot segments climb out of a base path the link is not under.
  const rest = href.startsWith(base)
    ? href.slice(base.length)
    : "/..".repeat(new URL(base).pathname.split("/").filter(Boolean).length) +
      url.pathname +
      url.search;
  const { sendDefaults: _, place, ...spec } = op;
  const placeLinked: Operation["place"] = (s, q, extra) => {
    const headers = Object.entries(q ?? {}).filter(([name]) => s.headerParams?.includes(name));
    const placed = place!(s, Object.fromEntries(headers), extra);
    const search = placed.search && (url.search ? `&${placed.search.slice(1)}` : placed.search);
    return { ...placed, search };
  };
  const linked: Operation = { ...spec, parts: [rest], ...(place ? { place: placeLinked } : {}) };
  // The link's descriptor shares the endpoint's fixed headers, and with them the client's cached headers (core.ts).
  return [linked, params, body, query, call];
}

/**
 * What a paged endpoint's call returns: the first page's call (`await` gives its body;
 * `withResponse()` and `asResponse()` as on any call), and every item of every page with
 * `for await`, or every page with `pages()`. The first page is asked for once, by the call;
 * each walk asks for the pages after it.
 */
export class PagePromise<T, I, H = Record<string, never>>
  extends ApiPromise<T, H>
  implements AsyncIterable<I>
{
  private firstResult?: Promise<WithResponse<T, H>>;

  constructor(
    private readonly first: ApiPromise<T, H>,
    private readonly walk: Omit<Walk, "sent" | "maxPages">,
  ) {
    super(() => Promise.resolve());
  }

  override then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.first.then(onFulfilled, onRejected);
  }

  override withResponse(): Promise<WithResponse<T, H>> {
    return (this.firstResult ??= this.first.withResponse());
  }

  override asResponse(): Promise<Response> {
    return this.first.asResponse();
  }

  /** Every page, the first one included; each one more request after the first. */
  async *pages(): AsyncGenerator<Page<T, I, H>, void, undefined> {
    const { core, call } = this.walk;
    const walk: Walk = { ...this.walk, sent: new Set(), maxPages: call.maxPages ?? core.maxPages };
    const { op, query } = walk;
    const { paging } = op;
    const result = await this.withResponse();
    // what the caller's first request sent of the value that moves the walk on
    const sent = paging.in === "body" ? (walk.body as Record<string, unknown> | undefined) : query;
    const given = (name: string) => sent?.[name];
    const at =
      paging.style === "offset" || paging.style === "page"
        ? Number(given(paging.style === "offset" ? paging.offset : paging.page) ?? paging.start)
        : 0;
    // What the first request sent moves no walk on: a server that gives it back walks in a circle.
    const first =
      paging.style === "cursor" || paging.style === "nextToken"
        ? given(paging.param)
        : paging.style === "link" && result.response.url
          ? linkOf(op, result.response.url, result.response.url).value
          : at;
    if (typeof first === "string" || typeof first === "number") walk.sent.add(String(first));
    let page: Page<T, I, H> | undefined = new Page(walk, result, at);
    while (page) {
      yield page;
      page = page.hasNextPage() ? await page.nextPage() : undefined;
    }
  }

  /**
   * Every item of every page, in order. Items of a page already read are given with a
   * resolved promise and no more: `yield*` of an async generator costs about a microsecond
   * per item, which on pages of 100 small items made the walk a quarter slower than a
   * hand-written loop of fetch calls. `return()` (a `break`) ends the walk of pages.
   */
  [Symbol.asyncIterator](): AsyncIterator<I> {
    const pages = this.pages();
    let items: I[] = [];
    let at = 0;
    let done = false;
    const end: IteratorResult<I> = { done: true, value: undefined };
    const next = (): Promise<IteratorResult<I>> => {
      if (at < items.length) return Promise.resolve({ done: false, value: items[at++]! });
      if (done) return Promise.resolve(end);
      return pages.next().then((page) => {
        if (page.done) {
          done = true;
          return end;
        }
        ({ items } = page.value);
        at = 0;
        return next();
      });
    };
    return {
      next,
      return: async () => {
        done = true;
        items = [];
        await pages.return(undefined);
        return end;
      },
    };
  }
}

/**
 * A paged endpoint's function, made from its descriptor (`endpointOf`) as core.ts's
 * `endpoint` makes any other's; its calls return a PagePromise. Only paged endpoints use
 * it, so only their bundles carry this module.
 */
export function pagedEndpoint<F>(data: string, ...code: unknown[]): F {
  return endpointOf<F>(data, code, (core, op, call) =>
    paginate(core, op, call.params, call.body, call.query, call.options),
  );
}

/**
 * The call of a paged endpoint: the first page is asked for at once, as by any call; the
 * PagePromise walks on from it.
 */
export function paginate<T, I, H = Record<string, never>>(
  core: ClientCore,
  op: Operation,
  params?: PathParams,
  body?: unknown,
  query?: QueryParams,
  call: RequestOptions = {},
): PagePromise<T, I, H> {
  const paged = op as Operation & { paging: Paging };
  const first = core.request<T, H>(op, params, body, query, call);
  return new PagePromise<T, I, H>(first, { core, op: paged, params, body, query, call });
}
