/**
 * Middleware of the generated client (runtime/client/hooks.ts; docs/client.md, "Middleware"):
 * the order hooks run in, once per attempt around retries and redirects, the token refresh
 * that sends a request again, tracing headers, onError on a refused connection, and hooks
 * that throw, against a real server on 127.0.0.1; and that a bundle without middleware keeps
 * none of its code.
 */
import { build } from "esbuild";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionError,
  MerchantApiError,
  MerchantClient,
  MiddlewareError,
  TimeoutError,
  UserAbortError,
  withMiddleware,
  type Middleware,
  type MerchantEndpointId,
} from "../generated/src/index.ts";
import { repoRoot } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.stop());

const apiKey = "sk_live_middleware_key_0123";
const reference = "ABCD-EFGH-IJKL";
const cart = { total_amount: 1200, currency: "USD" };

const client = (
  middleware: Middleware<MerchantEndpointId>[],
  options: Partial<ConstructorParameters<typeof MerchantClient>[0]> = {},
) =>
  new MerchantClient({
    baseUrl: server.url,
    apiKey,
    accessToken: "stale-token",
    maxRetries: 0,
    retryBackoffMs: 1,
    middleware: withMiddleware(...middleware),
    ...options,
  });

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

/** A middleware that records its hooks' calls in `log` and adds its name to `x-order`. */
function recorder(name: string, log: string[], wait = false): Middleware<MerchantEndpointId> {
  const pause = () => (wait ? new Promise((r) => setImmediate(r)) : undefined);
  return {
    async onRequest({ request, endpointId, attempt }) {
      await pause();
      log.push(`${name}.onRequest ${endpointId} #${attempt}`);
      const order = request.headers.get("x-order");
      request.headers.set("x-order", order ? `${order},${name}` : name);
    },
    async onResponse({ response, attempt }) {
      await pause();
      log.push(`${name}.onResponse ${response.status} #${attempt}`);
    },
    onError({ error, attempt }) {
      log.push(`${name}.onError ${error.name} #${attempt}`);
    },
  };
}

describe("order", () => {
  it("runs onRequest in the order given and onResponse in reverse, sync and async alike", async () => {
    server.json(200, { reference });
    for (const wait of [false, true]) {
      const log: string[] = [];
      const c = client(["a", "b", "c"].map((n) => recorder(n, log, wait)));
      expect(await c.transactions.get(reference)).toEqual({ reference });
      expect(log).toEqual([
        "a.onRequest transactions.get #1",
        "b.onRequest transactions.get #1",
        "c.onRequest transactions.get #1",
        "c.onResponse 200 #1",
        "b.onResponse 200 #1",
        "a.onResponse 200 #1",
      ]);
      expect(server.requests.at(-1)!.headers["x-order"]).toBe("a,b,c");
    }
  });

  it("waits for each async hook before the next, and sends what the last one left", async () => {
    server.json(200, {});
    const slowFirst: Middleware = {
      async onRequest({ request }) {
        await new Promise((r) => setTimeout(r, 20));
        request.headers.set("x-step", "slow");
      },
    };
    const second: Middleware = {
      onRequest: ({ request }) => {
        const next = new Request(request, { headers: new Headers(request.headers) });
        next.headers.set("x-step", `${request.headers.get("x-step")}+then`);
        return next;
      },
    };
    await client([slowFirst, second]).transactions.list();
    expect(server.requests[0]!.headers["x-step"]).toBe("slow+then");
    expect(server.requests[0]!.headers["x-api-key"]).toBe(apiKey);
  });
});

describe("around retries and redirects", () => {
  it("runs onRequest and onResponse once per attempt: a retry runs them again", async () => {
    let n = 0;
    server.respond((_req, res) => {
      res.writeHead(++n === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end("{}");
    });
    const log: string[] = [];
    await client([recorder("a", log)], { maxRetries: 2 }).transactions.get(reference);
    expect(log).toEqual([
      "a.onRequest transactions.get #1",
      "a.onResponse 503 #1",
      "a.onRequest transactions.get #2",
      "a.onResponse 200 #2",
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it("does not run for a redirect the client follows: onResponse sees the end, the hop carries the hooks' headers", async () => {
    server.respond((req, res) => {
      if (req.url.startsWith("/v1/merchant/transactions/")) {
        res.writeHead(302, { location: "/moved" });
        res.end();
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"moved":true}');
      }
    });
    const log: string[] = [];
    expect(await client([recorder("a", log)]).transactions.get(reference)).toEqual({
      moved: true,
    });
    expect(log).toEqual(["a.onRequest transactions.get #1", "a.onResponse 200 #1"]);
    expect(server.requests.map((r) => [r.url, r.headers["x-order"]])).toEqual([
      [`/v1/merchant/transactions/${reference}`, "a"],
      ["/moved", "a"],
    ]);
  });

  it("a response a hook gives is retried on its status as the server's would be", async () => {
    server.json(200, { real: true });
    let replaced = 0;
    const flaky: Middleware = {
      async onResponse({ response }) {
        if (replaced++ > 0) return;
        await response.body?.cancel();
        return new Response("{}", { status: 503 });
      },
    };
    expect(await client([flaky], { maxRetries: 1 }).transactions.get(reference)).toEqual({
      real: true,
    });
    expect(server.requests).toHaveLength(2);
  });
});

describe("token refresh, then one retry", () => {
  /** The docs' example (docs/client.md, "Middleware"). */
  function refreshOn401(refresh: () => Promise<string>): Middleware<MerchantEndpointId> {
    return {
      async onResponse({ request, response, fetch }) {
        if (response.status !== 401 || request.headers.has("x-refreshed")) return;
        await response.body?.cancel();
        const again = new Request(request, { headers: new Headers(request.headers) });
        again.headers.set("authorization", `Bearer ${await refresh()}`);
        again.headers.set("x-refreshed", "1");
        return fetch(again);
      },
    };
  }

  it("sends the same request again with the new token, once, though a POST is never retried", async () => {
    server.respond((req, res) => {
      const ok = req.headers.authorization === "Bearer fresh-token";
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(ok ? '{"status":"approved"}' : '{"errors":[{"code":63,"message":"expired"}]}');
    });
    let refreshes = 0;
    const c = client([refreshOn401(async () => (refreshes++, "fresh-token"))]);
    expect(await c.transactions.authorize({ cart })).toEqual({ status: "approved" });
    expect(refreshes).toBe(1);
    expect(server.requests.map((r) => [r.method, r.headers.authorization])).toEqual([
      ["POST", "Bearer stale-token"],
      ["POST", "Bearer fresh-token"],
    ]);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ cart });
    expect(server.requests.map((r) => r.headers["content-type"])).toEqual([
      "application/json",
      "application/json",
    ]);
    expect(server.requests[1]!.headers["x-api-key"]).toBe(apiKey);
  });

  it("gives up after the one retry: a second 401 is the call's error", async () => {
    server.json(401, { errors: [{ code: 63, message: "expired" }] });
    const c = client([refreshOn401(async () => "still-bad")]);
    const error = await rejection(c.transactions.authorize({ cart }));
    expect(error).toBeInstanceOf(MerchantApiError);
    expect((error as MerchantApiError).status).toBe(401);
    expect(server.requests).toHaveLength(2);
  });
});

describe("tracing", () => {
  it("adds a traceparent per attempt, and metrics see each attempt's outcome", async () => {
    let n = 0;
    server.respond((_req, res) => {
      res.writeHead(++n === 1 ? 500 : 200, { "content-type": "application/json" });
      res.end("{}");
    });
    const spans: string[] = [];
    const metrics: string[] = [];
    const tracing: Middleware<MerchantEndpointId> = {
      onRequest({ request, attempt }) {
        const span = `00-${"0".repeat(31)}1-${String(attempt).padStart(16, "0")}-01`;
        spans.push(span);
        request.headers.set("traceparent", span);
      },
    };
    const metering: Middleware<MerchantEndpointId> = {
      onResponse: ({ endpointId, response }) =>
        void metrics.push(`${endpointId} ${response.status}`),
    };
    await client([metering, tracing], { maxRetries: 1 }).transactions.list();
    expect(server.requests.map((r) => r.headers.traceparent)).toEqual(spans);
    expect(new Set(spans).size).toBe(2);
    expect(metrics).toEqual(["transactions.list 500", "transactions.list 200"]);
  });
});

describe("onError", () => {
  /** An address on 127.0.0.1 where nothing listens: a port just freed. */
  async function refusingUrl(): Promise<string> {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    return `http://127.0.0.1:${port}`;
  }

  it("sees a refused connection on each attempt as a redacted ConnectionError, then the call fails as before", async () => {
    const log: string[] = [];
    const seen: unknown[] = [];
    const c = client([recorder("a", log), { onError: ({ error }) => void seen.push(error) }], {
      baseUrl: await refusingUrl(),
      maxRetries: 1,
    });
    const error = await rejection(c.transactions.get(reference));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(log).toEqual([
      "a.onRequest transactions.get #1",
      "a.onError ConnectionError #1",
      "a.onRequest transactions.get #2",
      "a.onError ConnectionError #2",
    ]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeInstanceOf(ConnectionError);
    expect((seen[0] as ConnectionError).endpointId).toBe("transactions.get");
    expect((seen[0] as Error).message).toMatch(
      /^transactions\.get could not reach the API: .*ECONNREFUSED/,
    );
  });

  it("may answer the attempt with a Response, which onResponse then sees", async () => {
    const log: string[] = [];
    const offline: Middleware = {
      onError: () =>
        new Response('{"cached":true}', { headers: { "content-type": "application/json" } }),
    };
    const c = client([recorder("a", log), offline], { baseUrl: await refusingUrl() });
    expect(await c.transactions.get(reference)).toEqual({ cached: true });
    expect(log).toEqual(["a.onRequest transactions.get #1", "a.onResponse 200 #1"]);
  });

  it("is not called for an error status: onResponse has it", async () => {
    server.json(404, { errors: [{ code: 404, message: "no" }] });
    const log: string[] = [];
    const error = await rejection(client([recorder("a", log)]).transactions.get(reference));
    expect(error).toBeInstanceOf(MerchantApiError);
    expect(log).toEqual(["a.onRequest transactions.get #1", "a.onResponse 404 #1"]);
  });
});

describe("a hook that fails", () => {
  it.each(["onRequest", "onResponse"] as const)(
    "in %s fails the call with a MiddlewareError naming the endpoint, redacted, not retried",
    async (hook) => {
      server.json(200, {});
      const cause = new Error(`refresh failed for ${apiKey}\nsecond line`);
      const c = client([{}, { [hook]: () => Promise.reject(cause) }], { maxRetries: 2 });
      const error = await rejection(c.transactions.get(reference));
      expect(error).toBeInstanceOf(MiddlewareError);
      const e = error as MiddlewareError;
      expect(e.endpointId).toBe("transactions.get");
      expect([e.hook, e.index, e.cause]).toEqual([hook, 1, cause]);
      expect(e.message).toBe(
        `transactions.get: middleware[1].${hook} threw Error: refresh failed for [redacted] second line`,
      );
      expect(JSON.stringify(e)).not.toContain(apiKey);
      expect(server.requests).toHaveLength(hook === "onRequest" ? 0 : 1);
    },
  );

  it("returning what is neither a Request nor a Response is a MiddlewareError", async () => {
    server.json(200, {});
    const wrong = { onRequest: () => ({ url: "/x" }) } as unknown as Middleware;
    const error = await rejection(client([wrong]).transactions.list());
    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe(
      "transactions.list: middleware[0].onRequest returned [object Object], which is not a Request or Response",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("throwing a value with no text is still a MiddlewareError", async () => {
    const error = await rejection(
      client([{ onRequest: () => Promise.reject(Object.create(null)) }]).transactions.list(),
    );
    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("transactions.list: middleware[0].onRequest threw [object Object]");
  });

  it("a Response of another class (another realm's, undici's own package's) is taken as one", async () => {
    server.json(200, {});
    const foreign = {
      [Symbol.toStringTag]: "Response",
      status: 200,
      type: "default",
      headers: new Headers({ "content-type": "application/json" }),
      body: new Response('{"foreign":true}').body,
    } as unknown as Response;
    const c = client([{ onResponse: () => foreign }]);
    expect(await c.transactions.list()).toEqual({ foreign: true });
  });

  it("that hangs ends at the attempt's timeout, and the request is never sent", async () => {
    server.json(200, {});
    let release!: () => void;
    const hang: Middleware = { onRequest: () => new Promise<void>((r) => (release = r)) };
    const error = await rejection(client([hang], { timeoutMs: 30 }).transactions.list());
    expect(error).toBeInstanceOf(TimeoutError);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(server.requests).toHaveLength(0);
  });

  it("that hangs ends at once when the caller aborts", async () => {
    const controller = new AbortController();
    const hang: Middleware = {
      onRequest: () => {
        controller.abort();
        return new Promise<void>(() => {});
      },
    };
    const error = await rejection(client([hang]).transactions.list({ signal: controller.signal }));
    expect(error).toBeInstanceOf(UserAbortError);
  });
});

describe("onRequest answering itself", () => {
  it("sends nothing; only the middleware before it see the response", async () => {
    server.json(200, {});
    const log: string[] = [];
    const cache: Middleware = {
      onRequest: () =>
        new Response('{"from":"cache"}', { headers: { "content-type": "application/json" } }),
    };
    const c = client([recorder("a", log), cache, recorder("b", log)]);
    expect(await c.transactions.get(reference)).toEqual({ from: "cache" });
    expect(log).toEqual(["a.onRequest transactions.get #1", "a.onResponse 200 #1"]);
    expect(server.requests).toHaveLength(0);
  });

  it("a new Request with another body is sent as given, and again on a retry", async () => {
    let n = 0;
    server.respond((_req, res) => {
      res.writeHead(++n === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end("{}");
    });
    const rewrite: Middleware = {
      async onRequest({ request }) {
        const body = { ...(await request.clone().json()), rewritten: true };
        return new Request(request, { body: JSON.stringify(body) });
      },
    };
    await client([rewrite], { maxRetries: 1 }).transactions.authorize(
      { cart },
      { idempotencyKey: "k1" },
    );
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { cart, rewritten: true },
      { cart, rewritten: true },
    ]);
    expect(server.requests[1]!.headers["content-type"]).toBe("application/json");
  });
});

describe("cost without middleware", () => {
  /** A browser bundle of `entry` (as bench/bundle.ts makes it), minified. */
  async function bundle(entry: string): Promise<string> {
    const r = await build({
      stdin: { contents: entry, resolveDir: repoRoot, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
    });
    return r.outputFiles[0]!.text;
  }
  const index = JSON.stringify(join(repoRoot, "generated/src/index.ts"));

  it("a bundle of one operation keeps none of the middleware's code; one that uses it does", async () => {
    const plain = await bundle(
      `import { MerchantCore, transactionsGet } from ${index};
export const get = (ref) => transactionsGet(new MerchantCore({ baseUrl: "https://x" }), ref);`,
    );
    const hooked = await bundle(
      `import { MerchantCore, transactionsGet, withMiddleware } from ${index};
export const get = (ref) => transactionsGet(new MerchantCore({ baseUrl: "https://x", middleware: withMiddleware({}) }), ref);`,
    );
    // (Not "onError": "ConnectionError" holds it.)
    for (const text of ["onRequest", "onResponse", "MiddlewareError"]) {
      const found = { text, plain: plain.includes(text), hooked: hooked.includes(text) };
      expect(found).toEqual({ text, plain: false, hooked: true });
    }
  });
});
