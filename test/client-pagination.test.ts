/**
 * Paged lists end to end: the client of test/fixtures/features/pagination, generated into a
 * temp folder, against a node:http server on 127.0.0.1 that serves 1,050 items in each of the
 * six paging styles (cursor, next token, offset, page, Link header, link in the body), and a
 * POST search whose next token goes in its request body (`in: body`). Each
 * walk is checked item by item and request by request: where it stops (hasMore false, an
 * empty page, total reached, no next link), what every later page sends (credentials, header
 * parameters, the query), aborts between and during page requests, a page retried after a
 * 503, and the server's mistakes that would loop forever or send credentials elsewhere
 * (PaginationError). The spec's own mistakes are in diagnostics.test.ts.
 */
import { rmSync, writeFileSync } from "node:fs";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

/** Every list holds these items: `{ id: "x_0", n: 0 }` to `{ id: "x_1049", n: 1049 }`. */
const total = 1050;
const all = Array.from({ length: total }, (_, n) => ({ id: `x_${n}`, n }));

interface Seen {
  url: URL;
  headers: IncomingHttpHeaders;
  method: string;
  /** The request body as JSON, when there was one. */
  body: Record<string, unknown> | undefined;
}

/** A test's own answer to a request, or undefined to let the lists answer as usual. */
type Override = (seen: Seen, count: number, res: ServerResponse) => boolean | void;

let server: Server;
let foreign: Server;
let baseUrl: string;
let foreignUrl: string;
let seen: Seen[] = [];
let foreignSeen: string[] = [];
let override: Override | undefined;
let out: string;
// The generated module: its types are checked by the type-check at the end, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;

/** Writes a JSON answer. */
function send(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const int = (url: URL, name: string, fallback: number) =>
  url.searchParams.has(name) ? Number(url.searchParams.get(name)) : fallback;

/** The lists as a well-behaved server pages them. */
function answer(url: URL, res: ServerResponse, body: Record<string, unknown> = {}): void {
  const q = url.searchParams;
  switch (url.pathname) {
    case "/v1/databases/db_1/query": {
      // Notion's: the cursor and page size are fields of the POST body
      const cursor = body.start_cursor;
      const from = typeof cursor === "string" ? Number(cursor.slice(1)) : 0;
      const size = typeof body.page_size === "number" ? body.page_size : 100;
      const results = all.slice(from, from + size);
      const next = from + results.length;
      const more = next < total;
      return send(res, 200, { results, next_cursor: more ? `c${next}` : null, has_more: more });
    }
    case "/v1/customers": {
      const after = q.has("starting_after")
        ? all.findIndex((c) => c.id === q.get("starting_after")) + 1
        : 0;
      const data = all.slice(after, after + int(url, "limit", 10));
      return send(res, 200, { object: "list", data, has_more: after + data.length < total });
    }
    case "/v1/files": {
      const from = q.has("page_token") ? Number(q.get("page_token")!.slice(1)) : 0;
      const files = all.slice(from, from + int(url, "page_size", 20));
      const next = from + files.length;
      return send(res, 200, { files, next_page_token: next < total ? `t${next}` : null });
    }
    case "/v1/events": {
      const offset = int(url, "offset", 0);
      return send(res, 200, {
        events: all.slice(offset, offset + int(url, "limit", 25)),
        total_count: total,
      });
    }
    case "/v1/orgs/acme/repos": {
      const size = int(url, "per_page", 30);
      const page = int(url, "page", 1);
      return send(res, 200, { repos: all.slice((page - 1) * size, page * size) });
    }
    case "/v1/issues":
    case "/v2/issues": {
      const from = int(url, "from", 0);
      const size = int(url, "per_page", 30);
      const next = from + size;
      // Absolute links, then relative ones: both resolve against the page's URL.
      const target =
        next < 500
          ? `${baseUrl}/v2/issues?from=${next}&per_page=${size}`
          : `issues?from=${next}&per_page=${size}`;
      const link =
        next < total
          ? `<${target}>; rel="next", <${baseUrl}/v2/issues?from=0>; rel="first"`
          : `<${baseUrl}/v2/issues?from=0>; rel="first"`;
      return send(res, 200, all.slice(from, next), { Link: link, "X-Total": String(total) });
    }
    case "/v1/things": {
      const from = int(url, "from", 0);
      const size = int(url, "size", 50);
      const things = all.slice(from, from + size);
      const next = from + size < total ? `/v1/things?from=${from + size}&size=${size}` : null;
      return send(res, 200, { things, links: { next } });
    }
    default:
      return send(res, 404, { message: `no ${url.pathname}` });
  }
}

/** Starts a server on 127.0.0.1 that hands each request to `handle`; resolves to its URL. */
async function listen(target: Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  out = tempDir("apigen-pagination-");
  await writeGenerated("test/fixtures/features/pagination", out);
  generated = await import(pathToFileURL(join(out, "src/index.ts")).href);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", baseUrl);
      const text = Buffer.concat(chunks).toString();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const request = { url, headers: req.headers, method: req.method ?? "", body };
      seen.push(request);
      if (override?.(request, seen.length, res)) return;
      answer(url, res, body);
    });
  });
  foreign = createServer((req, res) => {
    foreignSeen.push(req.url ?? "");
    send(res, 200, []);
  });
  baseUrl = await listen(server);
  foreignUrl = await listen(foreign);
});

afterAll(async () => {
  for (const s of [server, foreign]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  rmSync(out, { recursive: true, force: true });
});

beforeEach(() => {
  seen = [];
  foreignSeen = [];
  override = undefined;
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function client(options: Record<string, unknown> = {}): any {
  return new generated.PagesClient({
    baseUrl,
    token: "tok_secret_123",
    apiKey: "key_secret_456",
    retryBackoffMs: 1,
    ...options,
  });
}

/** Every item a walk yields. */
async function walk(list: AsyncIterable<{ n: number }>): Promise<number[]> {
  const ns: number[] = [];
  for await (const item of list) ns.push(item.n);
  return ns;
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: PromiseLike<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

const every = all.map((item) => item.n);
const paths = () => seen.map((s) => s.url.pathname + s.url.search);

describe("each style walks all 1,050 items over many pages, and stops where the server says", () => {
  it("cursor: starting_after = the last item's id, until has_more is false", async () => {
    expect(await walk(client().customers.list({ limit: 25 }))).toEqual(every);
    expect(seen).toHaveLength(42);
    expect(paths().slice(0, 3)).toEqual([
      "/v1/customers?limit=25",
      "/v1/customers?limit=25&starting_after=x_24",
      "/v1/customers?limit=25&starting_after=x_49",
    ]);
  });

  it("nextToken: page_token = next_page_token, until the server gives none", async () => {
    expect(await walk(client().files.list({ page_size: 20 }))).toEqual(every);
    expect(seen).toHaveLength(53);
    expect(paths()[1]).toBe("/v1/files?page_size=20&page_token=t20&api_key=key_secret_456");
  });

  it("offset: offset + the page's items, until total_count is reached (no request after it)", async () => {
    expect(await walk(client().events.list({ limit: 25 }))).toEqual(every);
    expect(seen).toHaveLength(42);
    expect(paths().slice(0, 2)).toEqual([
      "/v1/events?limit=25&sort=created",
      "/v1/events?limit=25&sort=created&offset=25",
    ]);
  });

  it("page: page + 1 from the param's default, until an empty page", async () => {
    expect(await walk(client().repos.list("acme", { per_page: 30 }))).toEqual(every);
    expect(seen).toHaveLength(36); // 35 full pages and the empty one
    expect(paths().slice(0, 2)).toEqual([
      "/v1/orgs/acme/repos?per_page=30",
      "/v1/orgs/acme/repos?per_page=30&page=2",
    ]);
  });

  it("link header: the Link rel=next URL (absolute, then relative to the page), until there is none", async () => {
    expect(await walk(client().issues.list({ per_page: 15 }))).toEqual(every);
    expect(seen).toHaveLength(70);
    expect(paths().slice(0, 2)).toEqual([
      "/v1/issues?per_page=15&api_key=key_secret_456",
      "/v2/issues?from=15&per_page=15&api_key=key_secret_456",
    ]);
    expect(paths().at(-1)).toBe("/v2/issues?from=1035&per_page=15&api_key=key_secret_456");
  });

  it("link in the body: links.next, until it is null", async () => {
    expect(await walk(client().things.list({ size: 50 }))).toEqual(every);
    expect(seen).toHaveLength(21);
    expect(paths()[1]).toBe("/v1/things?from=50&size=50");
  });

  it("nextToken in the request body: start_cursor = next_cursor, every page the caller's body with that field changed", async () => {
    const query = { filter: "status = done", page_size: 100 };
    expect(await walk(client().pages.query("db_1", query))).toEqual(every);
    expect(seen).toHaveLength(11);
    expect(seen.every((s) => s.method === "POST" && s.url.search === "")).toBe(true);
    expect(seen.map((s) => s.body)).toEqual([
      query,
      ...Array.from({ length: 10 }, (_, i) => ({ ...query, start_cursor: `c${(i + 1) * 100}` })),
    ]);
    // the caller's object is theirs: the walk set the cursor on copies
    expect(query).toEqual({ filter: "status = done", page_size: 100 });
    expect(seen.every((s) => s.headers.authorization === "Bearer tok_secret_123")).toBe(true);
    // a walk that starts further on: the caller's own cursor; a server that gave it back would loop
    expect(await walk(client().pages.query("db_1", { start_cursor: "c1000" }))).toEqual(
      every.slice(1000),
    );
    override = (request, count, res) => {
      if (count === 1) return false;
      send(res, 200, { results: all.slice(0, 1), next_cursor: "c7", has_more: true });
      return true;
    };
    seen = [];
    const again = await rejection(walk(client().pages.query("db_1", { start_cursor: "c7" })));
    expect(again.name).toBe("PaginationError");
    expect(again.message).toMatch(/gave page token "c7" again/);
  });

  it("a walk that starts further on: the caller's own offset and page", async () => {
    expect(await walk(client().events.list({ offset: 1000, limit: 25 }))).toEqual(
      every.slice(1000),
    );
    expect(await walk(client().repos.list("acme", { page: 34, per_page: 30 }))).toEqual(
      every.slice(990),
    );
  });
});

describe("against the package's own stand-in: every style walks two pages and ends", () => {
  it.each([
    ["cursor (has_more)", (c: any) => c.customers.list({ limit: 25 })],
    ["nextToken", (c: any) => c.files.list({ page_size: 20 })],
    ["offset (total_count)", (c: any) => c.events.list({ limit: 25 })],
    ["page (an empty page ends it)", (c: any) => c.repos.list("acme", { per_page: 30 })],
    ["link header", (c: any) => c.issues.list({ per_page: 15 })],
    ["link in the body (null at the end)", (c: any) => c.things.list({ size: 50 })],
    ["nextToken in the request body", (c: any) => c.pages.query("db_1", { page_size: 10 })],
  ])("%s", async (_, list) => {
    const testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
    const { responseValidators } = await import(pathToFileURL(join(out, "src/validators.ts")).href);
    const lines: string[] = [];
    const standIn = await testing.listen(
      testing.createStandIn({ log: (line: string) => lines.push(line) }),
    );
    try {
      // every page checked against the spec's types as it arrives
      const items: unknown[] = [];
      for await (const item of list(
        client({ baseUrl: standIn.url, validateResponses: "throw", responseValidators }),
      ))
        items.push(item);
      expect(items.length).toBeGreaterThan(0);
      expect(lines).toHaveLength(2);
      expect(lines.every((line) => / -> 200$/.test(line))).toBe(true);
    } finally {
      await standIn.close();
    }
  });
});

describe("what a later page sends", () => {
  it("the first page's other parameters as they were placed (styles, defaults sent), the moving value after them", async () => {
    const list = client().events.list({ kinds: ["a b", "c"], offset: 1000, limit: 25 });
    expect(await walk(list)).toEqual(every.slice(1000));
    expect(paths()).toEqual([
      "/v1/events?kinds=a+b,c&offset=1000&limit=25&sort=created",
      "/v1/events?kinds=a+b,c&limit=25&sort=created&offset=1025",
    ]);
  });

  it("a cursor as the server gave it: the spec's rules check the caller's parameters, not the server's values", async () => {
    // starting_after has maxLength: 8, which the caller's own value must meet.
    const refused = await rejection(client().customers.list({ starting_after: "x_1000000000" }));
    expect(refused.name).toBe("RequestValidationError");
    expect(seen).toHaveLength(0);
    override = (s, n, res) => {
      const data = n < 3 ? [{ id: `cursor-from-the-server-${n}`, n }] : [];
      send(res, 200, { object: "list", data, has_more: n < 3 });
      return true;
    };
    expect(await walk(client().customers.list({ limit: 1 }))).toEqual([1, 2]);
    expect(seen.map((s) => s.url.searchParams.get("starting_after"))).toEqual([
      null,
      "cursor-from-the-server-1",
      "cursor-from-the-server-2",
    ]);
  });
});

describe("the call and its pages", () => {
  it("await gives the first page's body, and a walk after it sends the first request once", async () => {
    const list = client().customers.list({ limit: 500 });
    const body = await list;
    expect(body.data).toHaveLength(500);
    expect(body.has_more).toBe(true);
    expect(await walk(list)).toEqual(every);
    expect(seen).toHaveLength(3);
    const { data, status } = await list.withResponse();
    expect(data).toBe(body);
    expect(status).toBe(200);
  });

  it(".pages() gives each page's body, items, status, response and typed headers", async () => {
    const pages = [];
    for await (const page of client().issues.list({ per_page: 400 }).pages()) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([400, 400, 250]);
    const [first, , last] = pages;
    expect(first.data).toBe(first.items);
    expect(first.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("application/json");
    expect(first.headers["X-Total"]).toBe(1050);
    expect(first.headers.Link).toContain('rel="next"');
    expect(first.hasNextPage()).toBe(true);
    expect(last.hasNextPage()).toBe(false);
    const error = await rejection(last.nextPage());
    expect(error).toBeInstanceOf(generated.PaginationError);
    expect(error.message).toBe("issues.list: this is the last page; there is no next one");
  });

  it("nextPage() walks by hand, and asks for each page once however often it is called", async () => {
    const pages = client().events.list({ limit: 400 }).pages();
    const { value: first } = await pages.next();
    const second = await first.nextPage();
    expect(await first.nextPage()).toBe(second);
    const third = await second.nextPage();
    expect(third.items.map((e: { n: number }) => e.n)).toEqual(every.slice(800));
    expect(third.hasNextPage()).toBe(false);
    expect(seen).toHaveLength(3);
  });

  it("an empty first page ends the walk at once in every style", async () => {
    override = (s, _n, res) => {
      const empty: Record<string, unknown> = {
        "/v1/customers": { object: "list", data: [], has_more: true },
        "/v1/files": { files: [], next_page_token: null },
        "/v1/events": { events: [], total_count: 0 },
        "/v1/orgs/acme/repos": { repos: [] },
        "/v1/issues": [],
        "/v1/things": { things: [], links: { next: null } },
      };
      send(res, 200, empty[s.url.pathname]);
      return true;
    };
    const c = client();
    for (const list of [
      c.customers.list(),
      c.files.list(),
      c.events.list(),
      c.repos.list("acme"),
      c.issues.list(),
      c.things.list(),
    ])
      expect(await walk(list)).toEqual([]);
    expect(seen).toHaveLength(6);
  });

  it("hasMore false ends a cursor walk even when the last item has a cursor", async () => {
    override = (_s, _n, res) => {
      send(res, 200, { object: "list", data: all.slice(0, 3), has_more: false });
      return true;
    };
    expect(await walk(client().customers.list())).toEqual([0, 1, 2]);
    expect(seen).toHaveLength(1);
  });
});

describe("every page goes through the client: credentials, header parameters, retries, aborts", () => {
  it("sends the credentials and header parameters on every page, and the query credential once per link", async () => {
    await walk(client().issues.list({ per_page: 100, "X-Trace": "trace-1" }));
    expect(seen).toHaveLength(11);
    for (const s of seen) {
      expect(s.headers.authorization).toBe("Bearer tok_secret_123");
      expect(s.headers["x-trace"]).toBe("trace-1");
      expect(s.url.searchParams.getAll("api_key")).toEqual(["key_secret_456"]);
      expect(s.url.searchParams.has("X-Trace")).toBe(false);
    }
    await walk(client().customers.list({ limit: 200, "X-Trace": "trace-2" }));
    for (const s of seen.slice(11)) {
      expect(s.headers["x-trace"]).toBe("trace-2");
      expect(s.headers.authorization).toBe("Bearer tok_secret_123");
    }
  });

  it("puts the client's query credential in a next link in place of one the server echoed", async () => {
    override = (s, n, res) => {
      const link = n < 3 ? `<${baseUrl}/v1/issues?from=${n}&api_key=echoed>; rel="next"` : "";
      send(res, 200, [all[n]], link ? { Link: link } : {});
      return true;
    };
    expect(await walk(client().issues.list())).toEqual([1, 2, 3]);
    expect(paths()).toEqual([
      "/v1/issues?api_key=key_secret_456",
      "/v1/issues?from=1&api_key=key_secret_456",
      "/v1/issues?from=2&api_key=key_secret_456",
    ]);
  });

  it("follows a next link outside the base URL's path, within its origin", async () => {
    override = (s, n, res) => {
      const link = n === 1 ? { Link: '</other/issues?from=1>; rel="next"' } : {};
      send(res, 200, [all[n - 1]], link);
      return true;
    };
    expect(await walk(client({ baseUrl: `${baseUrl}/api/v9` }).issues.list())).toEqual([0, 1]);
    expect(paths()).toEqual([
      "/api/v9/v1/issues?api_key=key_secret_456",
      "/other/issues?from=1&api_key=key_secret_456",
    ]);
  });

  it("retries a page the server answered 503 (the client's own retries)", async () => {
    override = (s, n, res) => {
      if (n !== 3) return false;
      send(res, 503, { message: "busy" });
      return true;
    };
    expect(await walk(client().customers.list({ limit: 100 }))).toEqual(every);
    expect(paths()[2]).toBe(paths()[3]);
    expect(seen).toHaveLength(12);
  });

  it("gives a page request the client's timeout: a page that never comes is a TimeoutError", async () => {
    override = (_s, n) => n === 3; // the third page: no answer at all
    const error = await rejection(
      walk(client({ timeoutMs: 200, maxRetries: 0 }).customers.list({ limit: 100 })),
    );
    expect(error).toBeInstanceOf(generated.TimeoutError);
    expect(seen).toHaveLength(3);
  });

  it("stops between page requests when the signal aborts (UserAbortError), nothing more sent", async () => {
    const controller = new AbortController();
    const ns: number[] = [];
    const list = client().customers.list({ limit: 10 }, { signal: controller.signal });
    const error = await rejection(
      (async () => {
        for await (const c of list) {
          ns.push(c.n);
          if (c.n === 14) controller.abort();
        }
      })(),
    );
    expect(error).toBeInstanceOf(generated.UserAbortError);
    expect(ns).toEqual(every.slice(0, 20));
    expect(seen).toHaveLength(2);
  });

  it("stops during a page request when the signal aborts (UserAbortError)", async () => {
    const controller = new AbortController();
    override = (_s, n) => {
      if (n !== 2) return false;
      controller.abort(); // the second page never answers
      return true;
    };
    const started = Date.now();
    const error = await rejection(walk(client().files.list({}, { signal: controller.signal })));
    expect(error).toBeInstanceOf(generated.UserAbortError);
    expect(error.message).toBe("files.list was aborted");
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("a server that would have the walk loop forever or leave the origin: PaginationError", () => {
  const loop = (
    body: (s: Seen) => unknown,
    headers: (s: Seen) => Record<string, string> = () => ({}),
  ) => {
    override = (s, _n, res) => {
      send(res, 200, body(s), headers(s));
      return true;
    };
  };

  it("a cursor the walk already sent", async () => {
    loop(() => ({ object: "list", data: [all[8], all[9]], has_more: true }));
    const ns: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const c of client().customers.list()) ns.push(c.n);
      })(),
    );
    expect(error).toBeInstanceOf(generated.PaginationError);
    expect(error.message).toBe(
      'customers.list: the server gave cursor "x_9" again; stopping instead of walking in a circle',
    );
    expect(ns).toEqual([8, 9, 8, 9]);
    expect(seen).toHaveLength(2);
  });

  it("a token, or a link, the walk already sent", async () => {
    loop((s) => ({
      files: [all[0]],
      next_page_token: s.url.searchParams.has("page_token") ? "t1" : "t1",
    }));
    const token = await rejection(walk(client().files.list()));
    expect(token.message).toBe(
      'files.list: the server gave page token "t1" again; stopping instead of walking in a circle',
    );
    loop(
      () => [all[0]],
      () => ({ Link: `<${baseUrl}/v1/issues?from=5>; rel="next"` }),
    );
    const link = await rejection(walk(client().issues.list()));
    expect(link).toBeInstanceOf(generated.PaginationError);
    expect(link.message).toBe(
      `issues.list: the server gave next link "${baseUrl}/v1/issues?from=5" again; stopping instead of walking in a circle`,
    );
    expect(link.message).not.toContain("key_secret_456");
  });

  it("a next link to another origin: refused, nothing sent there", async () => {
    loop(
      () => [all[0]],
      () => ({ Link: `<${foreignUrl}/v1/issues?from=1>; rel="next"` }),
    );
    const error = await rejection(walk(client().issues.list()));
    expect(error).toBeInstanceOf(generated.PaginationError);
    expect(error.message).toBe(
      `issues.list: the next link points to another origin, ${foreignUrl}; not followed (credentials go only to ${baseUrl})`,
    );
    expect(foreignSeen).toEqual([]);
    expect(seen).toHaveLength(1);
    loop(() => ({ things: [all[0]], links: { next: `${foreignUrl}/v1/things` } }));
    expect((await rejection(walk(client().things.list()))).message).toContain("another origin");
    expect(foreignSeen).toEqual([]);
  });

  it("items that are not a list", async () => {
    loop(() => ({ events: { n: 1 }, total_count: 5 }));
    const error = await rejection(walk(client().events.list()));
    expect(error).toBeInstanceOf(generated.PaginationError);
    expect(error.message).toBe("events.list: the page's items are not a list");
  });
});

describe("walks that would never end: an empty page ends them, a page limit bounds them", () => {
  /**
   * A server whose every page after the first is empty and names a new next page; after
   * `cap` requests it gives no next page, so a walk that does not stop on its own still ends
   * (and the test fails on the count instead of hanging).
   */
  const emptyForever = (page: (n: number, more: boolean) => [unknown, Record<string, string>?]) => {
    const cap = 200;
    override = (_s, n, res) => {
      send(res, 200, ...page(n, n < cap));
      return true;
    };
  };

  it("a Link header to a new page after an empty page: the walk ends at the empty page", async () => {
    emptyForever((n, more) => [
      n === 1 ? [all[0]] : [],
      more ? { Link: `<${baseUrl}/v1/issues?from=${n}>; rel="next"` } : {},
    ]);
    expect(await walk(client().issues.list())).toEqual([0]);
    expect(seen).toHaveLength(2);
  });

  it("a link in the body, or a next token, after an empty page: the walk ends there", async () => {
    emptyForever((n, more) => [
      { things: n === 1 ? [all[0]] : [], links: { next: more ? `/v1/things?from=${n}` : null } },
    ]);
    expect(await walk(client().things.list())).toEqual([0]);
    expect(seen).toHaveLength(2);
    seen = [];
    emptyForever((n, more) => [
      { files: n === 1 ? [all[0]] : [], next_page_token: more ? `t${n}` : null },
    ]);
    expect(await walk(client().files.list())).toEqual([0]);
    expect(seen).toHaveLength(2);
  });

  it("maxPages: a walk past the client's limit rejects with PaginationError, the page after it never asked for", async () => {
    override = (_s, n, res) => {
      send(res, 200, { files: [all[n]], next_page_token: n < 100 ? `t${n}` : null });
      return true;
    };
    const ns: number[] = [];
    const error = await rejection(
      (async () => {
        for await (const file of client({ maxPages: 5 }).files.list()) ns.push(file.n);
      })(),
    );
    expect(error).toBeInstanceOf(generated.PaginationError);
    expect(error.message).toBe(
      "files.list: the walk reached its limit of 5 pages (maxPages) and the server names another; stopping",
    );
    expect(ns).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toHaveLength(5);
    seen = [];
    // A call's own maxPages wins over the client's.
    const pages = client({ maxPages: 5 }).files.list({}, { maxPages: 2 }).pages();
    const first = (await pages.next()).value;
    await pages.next();
    expect((await rejection(pages.next())).message).toContain("limit of 2 pages");
    expect(seen).toHaveLength(2);
    expect(first.hasNextPage()).toBe(true);
  });

  it("maxPages is 10,000 by default; Infinity lifts it", async () => {
    let fetched = 0;
    const inMemory = async () => {
      fetched++;
      // A next token on every page up to 10,100: a walk without a limit still ends.
      const token = fetched < 10_100 ? `t${fetched}` : null;
      const body = { files: [{ id: `f${fetched}`, n: fetched }], next_page_token: token };
      return new Response(JSON.stringify(body), {
        headers: { "content-type": "application/json" },
      });
    };
    const error = await rejection(walk(client({ fetch: inMemory }).files.list()));
    expect(error.message).toContain("limit of 10000 pages");
    expect(fetched).toBe(10_000);
    fetched = 0;
    let items = 0;
    for await (const _ of client({ fetch: inMemory, maxPages: Infinity }).files.list()) items++;
    expect(items).toBe(10_100);
  }, 60_000);
});

describe("stopOnEmptyPage: false, for a server whose pages may be empty before the last", () => {
  const spec = [
    "api: { name: feed, title: Feed, version: 1.0.0, clientName: FeedClient }",
    "types:",
    "  Entry: { fields: { n: { type: integer, required: true } } }",
    "  Feed:",
    "    fields:",
    '      entries: { type: "Entry[]", required: true }',
    "      next: { type: string, nullable: true }",
    "      more: { type: boolean, required: true }",
    "endpoints:",
    "  feed.list:",
    "    method: GET",
    "    path: /v1/issues",
    "    params: { cursor: { in: query, type: string } }",
    "    response: { body: Feed }",
    "    pagination:",
    "      { style: nextToken, items: entries, param: cursor, token: next, hasMore: more, stopOnEmptyPage: false }",
    "",
  ].join("\n");

  it("walks on over empty pages until hasMore is false", async () => {
    const specDir = tempDir("apigen-feed-spec-");
    const feedOut = tempDir("apigen-feed-");
    try {
      writeFileSync(join(specDir, "api.yaml"), spec);
      await writeGenerated(specDir, feedOut);
      const feed = await import(pathToFileURL(join(feedOut, "src/index.ts")).href);
      override = (_s, n, res) => {
        const entries = n === 2 || n === 3 ? [] : [{ n }];
        send(res, 200, { entries, next: `c${n}`, more: n < 5 });
        return true;
      };
      const c = new feed.FeedClient({ baseUrl });
      expect(await walk(c.feed.list())).toEqual([1, 4, 5]);
      expect(seen).toHaveLength(5);
    } finally {
      rmSync(specDir, { recursive: true, force: true });
      rmSync(feedOut, { recursive: true, force: true });
    }
  });
});

describe("types", () => {
  it("type-check: items, pages, typed headers, the body of await, and wrong uses refused", () => {
    writeFileSync(
      join(out, "src/usage-check.ts"),
      [
        'import { PagesClient, type Page, type PagePromise, type Customer, type CustomerList, type Issue } from "./index.js";',
        'const c = new PagesClient({ baseUrl: "http://127.0.0.1" });',
        "export async function check(signal: AbortSignal): Promise<void> {",
        "  const body: CustomerList = await c.customers.list({ limit: 10 });",
        "  const asPromise: Promise<CustomerList> = c.customers.list();",
        "  const call: PagePromise<CustomerList, Customer> = c.customers.list({}, { signal, maxPages: 50 });",
        '  const limited = new PagesClient({ baseUrl: "http://127.0.0.1", maxPages: Infinity });',
        "  void limited;",
        "  for await (const customer of c.customers.list()) {",
        "    const id: string = customer.id;",
        "    // @ts-expect-error an item is a Customer, not the list",
        "    void customer.has_more;",
        "    void id;",
        "  }",
        "  for await (const page of c.issues.list({ per_page: 5 }).pages()) {",
        "    const items: Issue[] = page.items;",
        "    const data: Issue[] = page.data;",
        '    const totalCount: number | undefined = page.headers["X-Total"];',
        "    // @ts-expect-error Link is a string",
        "    const wrong: number | undefined = page.headers.Link;",
        '    const next: Page<Issue[], Issue, { Link?: string; "X-Total"?: number }> = await page.nextPage();',
        "    const more: boolean = page.hasNextPage();",
        "    void [items, data, totalCount, wrong, next, more];",
        "  }",
        "  for await (const event of c.events.list()) void event.n;",
        '  for await (const repo of c.repos.list("acme")) void repo.id;',
        "  for await (const file of c.files.list()) void file.id;",
        "  for await (const thing of c.things.list()) void thing.id;",
        '  for await (const page of c.pages.query("db_1", { filter: "x" })) void page.n;',
        "  // @ts-expect-error start_cursor is a string",
        '  c.pages.query("db_1", { start_cursor: 5 });',
        "  // @ts-expect-error starting_after is a string",
        "  c.customers.list({ starting_after: 5 });",
        "  void [body, asPromise, call];",
        "}",
        "",
      ].join("\n"),
    );
    const tsc = typescript6;
    const run = runTypeScript(tsc, ["-p", join(withRuntimeDeclarations(out), "tsconfig.json")]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
