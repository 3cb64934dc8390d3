/**
 * The `./tanstack-query` entry (issue 33 item 4) with a real `QueryClient` of
 * @tanstack/query-core: the Merchant package of generated/ against its stand-in on 127.0.0.1
 * (queries, a group's invalidation by its key prefix, mutations, an abort that reaches the
 * server), and the pagination fixture's lists against a server of pages (infinite queries
 * walking cursor, offset, page and token lists to their last page). The types are checked by
 * one TypeScript program: the fixture's package strictly, and a consumer whose data is typed
 * as each endpoint's result, with wrong calls marked as errors. Golden files of the entry.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  InfiniteQueryObserver,
  MutationObserver,
  QueryClient,
  QueryObserver,
} from "@tanstack/query-core";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantCore } from "../generated/src/index.ts";
import * as merchant from "../generated/src/tanstack-query.ts";
import { createStandIn, listen, type RunningStandIn } from "../generated/src/testing.ts";
import { outputDefaults } from "../generator/emit/shared/outputs.ts";
import type { Paging } from "../generator/runtime/client/operation.ts";
import { infiniteQueryOptionsOf, type PageParam } from "../generator/runtime/tanstack/query.ts";
import { runPipeline } from "../generator/pipeline.ts";
import { repoRoot } from "./helpers.ts";
import { prettierOptions } from "./support/prettier-style.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

/** Inside the repository (git-ignored), so that the scratch project resolves @tanstack/query-core. */
const scratch = join(repoRoot, "test/.tmp-tanstack-query");
const keys = {
  apiKey: { valid: ["sandbox-key"] },
  publishableKey: { valid: ["pk-sandbox"] },
  accessToken: { valid: ["token-1"] },
};

/** The pagination fixture's package with the entry on, written to the scratch folder. */
function generatePages() {
  const specDir = join(repoRoot, "test/fixtures/features/pagination");
  const outDir = join(scratch, "pagination");
  const outputs = { ...outputDefaults, tanstackQuery: true };
  const result = runPipeline({ specDir, outDir, outputs });
  for (const file of result.files) {
    mkdirSync(dirname(join(outDir, file.path)), { recursive: true });
    writeFileSync(join(outDir, file.path), file.contents);
  }
  return result;
}

/** The pages of every list: `{ id: "x_0", n: 0 }` to `{ id: "x_6", n: 6 }`. */
const all = Array.from({ length: 7 }, (_, n) => ({ id: `x_${n}`, n }));
const int = (q: URLSearchParams, name: string, fallback: number) =>
  q.has(name) ? Number(q.get(name)) : fallback;

function pageOf(url: URL): unknown {
  const q = url.searchParams;
  switch (url.pathname) {
    case "/v1/customers": {
      const after = q.has("starting_after")
        ? all.findIndex((c) => c.id === q.get("starting_after")) + 1
        : 0;
      const data = all.slice(after, after + int(q, "limit", 3));
      return { object: "list", data, has_more: after + data.length < all.length };
    }
    case "/v1/files": {
      const from = q.has("page_token") ? Number(q.get("page_token")!.slice(1)) : 0;
      const files = all.slice(from, from + int(q, "page_size", 3));
      const next = from + files.length;
      return { files, next_page_token: next < all.length ? `t${next}` : null };
    }
    case "/v1/events": {
      const offset = int(q, "offset", 0);
      return { events: all.slice(offset, offset + int(q, "limit", 3)), total_count: all.length };
    }
    case "/v1/orgs/acme/repos": {
      const size = int(q, "per_page", 3);
      const page = int(q, "page", 1);
      return { repos: all.slice((page - 1) * size, page * size) };
    }
    default:
      return undefined;
  }
}

let standIn: RunningStandIn;
let pagesServer: Server;
let pagesUrl: string;
const pageRequests: string[] = [];
/** Requests the stand-in received, as `METHOD path`. */
const merchantRequests: string[] = [];
// The fixture's generated modules; their types are checked by the program below, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pages: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pagesIndex: any;
let pagesEntry: string;

async function serve(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  const result = generatePages();
  pagesEntry = result.files.find((f) => f.path === "src/tanstack-query.ts")!.contents;
  pagesIndex = await import(pathToFileURL(join(scratch, "pagination/src/index.ts")).href);
  pages = await import(pathToFileURL(join(scratch, "pagination/src/tanstack-query.ts")).href);
  standIn = await listen(createStandIn({ seed: 3, keys }));
  pagesServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", pagesUrl);
    pageRequests.push(`${url.pathname}${url.search}`);
    const body = pageOf(url);
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(body ?? { message: "no such list" }));
  });
  pagesUrl = await serve(pagesServer);
});

afterAll(async () => {
  await standIn?.close();
  await new Promise((resolve) => pagesServer?.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/** A core of the Merchant stand-in that records each request it sends. */
function merchantCore(baseUrl = standIn.url) {
  return new MerchantCore({
    baseUrl,
    apiKey: "sandbox-key",
    publishableKey: "pk-sandbox",
    accessToken: "token-1",
    maxRetries: 0,
    fetch: (input, init) => {
      const request = new Request(input, init);
      merchantRequests.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
}

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

/** Resolves when the observer's query has succeeded (an observer makes its query active). */
function succeeded(observer: {
  subscribe(listener: (result: { isSuccess: boolean }) => void): () => void;
  getCurrentResult(): { isSuccess: boolean };
}): Promise<void> {
  return new Promise((resolve) => {
    const check = (result: { isSuccess: boolean }) => result.isSuccess && resolve();
    observer.subscribe(check);
    check(observer.getCurrentResult());
  });
}

describe("queries, invalidation and mutations against the Merchant stand-in", () => {
  it("fetchQuery with queryOptions gives the endpoint's result, cached under its hierarchical key", async () => {
    const core = merchantCore();
    const queryClient = client();
    const options = merchant.transactionsGetQueryOptions(core, "ABCD-EFGH-IJKL");
    expect(options.queryKey).toEqual([
      "merchant-commerce-api",
      "transactions",
      "get",
      { reference: "ABCD-EFGH-IJKL" },
    ]);
    const tx = await queryClient.fetchQuery(options);
    expect(tx.reference).toMatch(/^[^-]{4}-[^-]{4}-[^-]{4}$/);
    expect(queryClient.getQueryData(merchant.transactionsGetQueryKey("ABCD-EFGH-IJKL"))).toBe(tx);
    // fresh data: a second fetch within staleTime sends nothing
    const before = merchantRequests.length;
    await queryClient.fetchQuery({ ...options, staleTime: 60_000 });
    expect(merchantRequests.length).toBe(before);
  });

  it("invalidating a group's prefix refetches that group's active queries and no other", async () => {
    const core = merchantCore();
    const queryClient = client();
    const tx = new QueryObserver(
      queryClient,
      merchant.transactionsGetQueryOptions(core, "ABCD-EFGH-IJKL"),
    );
    const list = new QueryObserver(queryClient, merchant.transactionsListQueryOptions(core));
    const phone = new QueryObserver(queryClient, merchant.testingGetRandomPhoneQueryOptions(core));
    await Promise.all([tx, list, phone].map(succeeded));
    merchantRequests.length = 0;
    await queryClient.invalidateQueries({ queryKey: merchant.queryKeys.transactions });
    expect(merchantRequests.sort()).toEqual([
      "GET /v1/merchant/transactions",
      "GET /v1/merchant/transactions/ABCD-EFGH-IJKL",
    ]);
    merchantRequests.length = 0;
    await queryClient.invalidateQueries({ queryKey: merchant.queryKeys["transactions.list"] });
    expect(merchantRequests).toEqual(["GET /v1/merchant/transactions"]);
    merchantRequests.length = 0;
    await queryClient.invalidateQueries({ queryKey: merchant.queryKeyRoot });
    expect(merchantRequests).toHaveLength(3);
    queryClient.clear();
  });

  it("a mutation sends its variables, under the operation's key", async () => {
    const core = merchantCore();
    const queryClient = client();
    const create = new MutationObserver(queryClient, merchant.webhooksCreateMutationOptions(core));
    const created = await create.mutate({
      body: { division_id: "div-tanstack", url: "https://merchant.example/tq" },
    });
    expect(created.webhook_id).toMatch(/^wh_[a-z0-9]{16}$/);
    const found = queryClient
      .getMutationCache()
      .findAll({ mutationKey: merchant.queryKeys.webhooks });
    expect(found.map((m) => m.state.status)).toEqual(["success"]);
    const remove = new MutationObserver(queryClient, merchant.webhooksDeleteMutationOptions(core));
    await remove.mutate({ webhookId: created.webhook_id! });
    // the stand-in removed it: deleting again is refused with the API's error
    await expect(remove.mutate({ webhookId: created.webhook_id! })).rejects.toMatchObject({
      status: 404,
    });
  });

  it("cancelling a query aborts its request: the server sees the connection close unanswered", async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let closed!: () => void;
    const closing = new Promise<void>((resolve) => (closed = resolve));
    const silent = createServer((req) => {
      req.socket.once("close", closed);
      arrived();
    });
    const url = await serve(silent);
    try {
      const queryClient = client();
      const options = merchant.transactionsGetQueryOptions(merchantCore(url), "WXYZ-WXYZ-WXYZ");
      const fetching = queryClient.fetchQuery(options);
      await arrival;
      await queryClient.cancelQueries({ queryKey: options.queryKey });
      await expect(fetching).rejects.toMatchObject({ revert: true });
      await closing;
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("infinite queries walk the fixture's lists as the client's own walk does", () => {
  /** Every page of a list, fetched with `fetchNextPage` until TanStack says there is none. */
  async function walk(options: object) {
    const queryClient = client();
    const observer = new InfiniteQueryObserver(queryClient, options as never);
    let result = await new Promise<{ hasNextPage: boolean; data?: unknown }>((resolve) => {
      const off = observer.subscribe((r) => r.isSuccess && (off(), resolve(r)));
    });
    while (result.hasNextPage) result = await observer.fetchNextPage();
    return result.data as { pages: unknown[]; pageParams: unknown[] };
  }

  const core = () => new pagesIndex.PagesCore({ baseUrl: pagesUrl, token: "t", apiKey: "k" });

  it.each([
    ["cursor", "customersList", { limit: 3 }, "data", [undefined, "x_2", "x_5"]],
    ["nextToken", "filesList", { page_size: 3 }, "files", [undefined, "t3", "t6"]],
    ["offset", "eventsList", { limit: 3 }, "events", [0, 3, 6]],
  ])("%s: every item once, then no next page", async (_style, name, query, items, params) => {
    const options = pages[`${name}InfiniteQueryOptions`](core(), query);
    const data = await walk(options);
    expect(data.pages.flatMap((p) => (p as Record<string, unknown[]>)[items]!)).toEqual(all);
    expect(data.pageParams).toEqual(params);
  });

  it("page: counts up from the caller's page, the org in the key and the path", async () => {
    pageRequests.length = 0;
    const options = pages.reposListInfiniteQueryOptions(core(), "acme", { per_page: 3 });
    expect(options.queryKey).toEqual([
      "feature-pagination",
      "repos",
      "list",
      { org: "acme", query: { per_page: 3 } },
      "infinite",
    ]);
    const data = await walk(options);
    expect(data.pages.flatMap((p) => (p as { repos: unknown[] }).repos)).toEqual(all);
    // a page past the last is empty, and ends the walk
    expect(pageRequests).toEqual(
      [1, 2, 3, 4].map((n) => `/v1/orgs/acme/repos?per_page=3&page=${n}`),
    );
  });

  it("fetchInfiniteQuery fetches the pages asked for, starting at the caller's cursor", async () => {
    const queryClient = client();
    const options = pages.customersListInfiniteQueryOptions(core(), {
      starting_after: "x_0",
      limit: 2,
    });
    const data = await queryClient.fetchInfiniteQuery({ ...options, pages: 2 });
    expect(data.pageParams).toEqual(["x_0", "x_2"]);
    expect(data.pages.flatMap((p) => (p as { data: unknown[] }).data)).toEqual(all.slice(1, 5));
  });
});

describe("the next page's value, read off the pages as the client's walk reads them", () => {
  const cursor: Paging = { style: "cursor", param: "after", cursor: ["id"], items: ["data"] };
  const offset: Paging = { style: "offset", offset: "offset", start: 0, total: ["total"] };
  const page: Paging = { style: "page", page: "page", start: 1, total: ["total"], items: ["r"] };
  const ids = (...names: string[]) => ({ data: names.map((id) => ({ id })) });
  // given the paging, the pages so far and their values, want the next value (undefined: none)
  const table: [string, Paging, unknown[], PageParam[], PageParam][] = [
    ["cursor: the last item's", cursor, [ids("a", "b")], [undefined], "b"],
    ["cursor: an empty page ends it", cursor, [ids("a"), ids()], [undefined, "a"], undefined],
    [
      "cursor: an empty page goes on when the spec says so",
      { ...cursor, stopOnEmptyPage: false },
      [ids()],
      [undefined],
      undefined, // and no last item: no cursor
    ],
    [
      "cursor: a value sent before ends it (a server in a circle)",
      cursor,
      [ids("a"), ids("a")],
      [undefined, "a"],
      undefined,
    ],
    [
      "cursor: hasMore false ends it",
      { ...cursor, hasMore: ["more"] },
      [{ ...ids("a"), more: false }],
      [undefined],
      undefined,
    ],
    ["offset: moves by the page's items", offset, [[1, 2, 3]], [10], 13],
    [
      "offset: total reached ends it",
      offset,
      [Object.assign([1, 2], { total: 12 })],
      [10],
      undefined,
    ],
    ["page: counts up from the caller's page", page, [{ r: [1, 2], total: 9 }], [3], 4],
    [
      "page: pages before the first count as full ones",
      page,
      [{ r: [1, 2], total: 6 }],
      [3],
      undefined,
    ],
  ];
  it.each(table)("%s", (_name, paging, pages, params, want) => {
    const options = infiniteQueryOptionsOf(["k"], paging, {}, () => Promise.resolve<unknown>({}));
    expect(options.getNextPageParam(pages.at(-1), pages, params.at(-1), params)).toBe(want);
  });
});

describe("the entry's text and types", () => {
  it("matches its golden files, in prettier's style", async () => {
    // generated/ turns the output on (and test/generated-current.test.ts holds it current)
    const merchantEntry = readFileSync(join(repoRoot, "generated/src/tanstack-query.ts"), "utf8");
    await expect(merchantEntry).toMatchFileSnapshot("./__snapshots__/tanstack-query/merchant.ts");
    await expect(pagesEntry).toMatchFileSnapshot("./__snapshots__/tanstack-query/pagination.ts");
    for (const text of [merchantEntry, pagesEntry])
      expect(await prettier.format(text, { ...prettierOptions, parser: "typescript" })).toBe(text);
  });

  it("type-checks strictly; data is typed as each endpoint's result, wrong calls are errors", () => {
    const consumer = join(scratch, "consumer.ts");
    writeFileSync(consumer, consumerSource);
    writeFileSync(
      join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: "../../generated/tsconfig.json",
        // the package's own files strictly; the libraries' declarations are their authors'
        compilerOptions: { noUnusedLocals: true, skipLibCheck: true, types: [] },
        include: ["consumer.ts", "pagination/src"],
      }),
    );
    // TypeScript 6 in the worker; the runtime as its declarations (both packages' runtime,
    // tanstack/query.ts among it, is checked whole with generated/ by test/typecheck.test.ts)
    const run = runTypeScript(typescript6, ["-p", join(scratch, "tsconfig.json")], {
      runtimeDeclarations: true,
    });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

/** A consumer of both entries: each `@ts-expect-error` line must be an error, all else clean. */
const consumerSource = `import { QueryClient, type InfiniteData } from "@tanstack/query-core";
import { MerchantCore } from "../../generated/src/index.js";
import * as merchant from "../../generated/src/tanstack-query.js";
import type { CreateWebhookResponse, Transaction } from "../../generated/src/types.js";
import { PagesCore } from "./pagination/src/index.js";
import * as pages from "./pagination/src/tanstack-query.js";
import type { CustomerList } from "./pagination/src/types.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_proof: Equal<A, B>) => undefined;

export async function check(queryClient: QueryClient, core: MerchantCore, pagesCore: PagesCore) {
  const options = merchant.transactionsGetQueryOptions(core, "ABCD-EFGH-IJKL");
  const tx = await queryClient.fetchQuery(options);
  same<typeof tx, Transaction>(true);
  // the options' key is tagged with the data: the cache's reads and writes are typed
  const cached = queryClient.getQueryData(options.queryKey);
  same<typeof cached, Transaction | undefined>(true);
  // @ts-expect-error a reference is a string
  merchant.transactionsGetQueryOptions(core, 42);
  const create = merchant.webhooksCreateMutationOptions(core);
  const created = await create.mutationFn({ body: { division_id: "d", url: "https://x.example" } });
  same<typeof created, CreateWebhookResponse>(true);
  // @ts-expect-error the variables are the call's arguments by name
  await create.mutationFn({ division_id: "d", url: "https://x.example" });
  const infinite = pages.customersListInfiniteQueryOptions(pagesCore);
  const list = await queryClient.fetchInfiniteQuery(infinite);
  same<typeof list.pages, CustomerList[]>(true);
  const again = queryClient.getQueryData(infinite.queryKey);
  same<typeof again, InfiniteData<CustomerList, string | number | undefined> | undefined>(true);
  // @ts-expect-error a limit is a number
  pages.customersListInfiniteQueryOptions(pagesCore, { limit: "3" });
}
`;
