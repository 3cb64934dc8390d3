/**
 * The browser build of the generated client (docs/client.md, "The browser build"): the
 * Merchant package bundled by esbuild for browsers, as an app's bundler does, takes the lean
 * request loop (runtime/client/browser.ts) through package.json's `browser` map. The bundle
 * is imported here in Node and called against a server on 127.0.0.1: a typed call and a typed
 * error with no feature switched on (the client's core), the credentials always redacted from
 * errors (no switch: secrets never appear in errors or logs), and each feature (features.ts) a
 * client is given: retries as the Node build's, timeouts, redirects as errors; the caller's
 * abort; and a redirect, which the browser build refuses where the Node build follows it (the
 * proof the map swapped the loop). The one-operation bundle's size is held to its budget in
 * bytes, and it keeps none of the features' code.
 */
import { build } from "esbuild";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as nodeBuild from "../generated/src/index.ts";
import * as lean from "../generator/runtime/client/browser.ts";
import {
  ApiError,
  MissingCredentialError,
  RequestValidationError,
} from "../generator/runtime/client/errors.ts";
import { pagedEndpoint } from "../generator/runtime/client/pagination.ts";
import { credentialText, placeParams } from "../generator/runtime/client/params.ts";
import { repoRoot, tempDir } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";

const apiKey = "sk_test_api_key_0123456789";
const index = join(repoRoot, "generated/src/index.ts");
const validatorsEntry = join(repoRoot, "generated/src/validators.ts");
const featuresEntry = join(repoRoot, "generated/src/client-features.ts");

/** Bundles `contents` (an entry importing the package's src/) for browsers, as bench/bundle.ts does. */
async function browserBundle(contents: string, minify: boolean): Promise<Uint8Array> {
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, loader: "ts" },
    bundle: true,
    minify,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
  });
  return result.outputFiles[0]!.contents;
}

let server: TestServer;
let browser: typeof nodeBuild &
  Pick<typeof import("../generated/src/validators.ts"), "requestValidators"> &
  typeof import("../generated/src/client-features.ts");
let dir: string;
beforeAll(async () => {
  dir = tempDir("apigen-browser-");
  const file = join(dir, "client.mjs");
  const entry = `export * from ${JSON.stringify(index)};
export { requestValidators } from ${JSON.stringify(validatorsEntry)};
export * from ${JSON.stringify(featuresEntry)};`;
  writeFileSync(file, await browserBundle(entry, false));
  browser = (await import(pathToFileURL(file).href)) as typeof browser;
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const core = (options: Partial<nodeBuild.MerchantClientOptions> = {}) =>
  new browser.MerchantCore({ baseUrl: server.url, apiKey, retryBackoffMs: 1, ...options });

const transaction = { reference: "ABCD-EFGH-IJKL", amount: 100 };

/** The server answers 503 (Retry-After: 0) once, then the transaction. */
function busyOnceThenTransaction(): void {
  let calls = 0;
  server.respond((_req, res) => {
    if (calls++ === 0) {
      res.statusCode = 503;
      res.setHeader("retry-after", "0");
      return res.end("{}");
    }
    res.end(JSON.stringify(transaction));
  });
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: PromiseLike<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("the browser build", () => {
  it("makes a typed call: path, credential and JSON body", async () => {
    server.respond((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(transaction));
    });
    const call = browser.transactionsGet(core(), "ABCD-EFGH-IJKL");
    const { data, status } = await call.withResponse();
    expect(data).toEqual(transaction);
    expect(status).toBe(200);
    const [request] = server.requests;
    expect(request!.url).toBe("/v1/merchant/transactions/ABCD-EFGH-IJKL");
    expect(request!.headers["x-api-key"]).toBe(apiKey);
    expect(request!.headers.accept).toBe("application/json");
  });

  it("throws the API's typed error without any feature switched on: once, with the Node build's fields", async () => {
    const echoing = (key: string) =>
      JSON.stringify({ errors: [{ code: 1005, message: `Rejected X-API-Key ${key}` }] });
    server.respond((_req, res) => {
      res.statusCode = 503;
      res.setHeader("x-request-id", "req-1");
      res.end(echoing("abc"));
    });
    const error = await rejection(browser.transactionsGet(core(), "ABCD-EFGH-IJKL"));
    expect(error).toBeInstanceOf(browser.MerchantApiError);
    expect(error).toBeInstanceOf(browser.ClientError);
    expect(error).toBeInstanceOf(nodeBuild.MerchantApiError); // the brand holds across builds
    expect(server.requests).toHaveLength(1); // no retries unless switched on
    const node = await rejection(
      nodeBuild.transactionsGet(
        new nodeBuild.MerchantCore({ baseUrl: server.url, apiKey, maxRetries: 0 }),
        "ABCD-EFGH-IJKL",
      ),
    );
    const fields = (e: Error) => {
      const { status, kind, code, tag, serverMessage, requestId, errors, body, name, endpointId } =
        e as nodeBuild.MerchantApiError;
      return { status, kind, code, tag, serverMessage, requestId, errors, body, name, endpointId };
    };
    expect(fields(error)).toEqual(fields(node));
    expect(fields(error)).toMatchObject({
      status: 503,
      code: 1005,
      kind: "server",
      requestId: "req-1",
    });
  });

  it("redacts the API key from an error without any feature: its message, body, headers and JSON", async () => {
    const body = JSON.stringify({
      errors: [{ code: 1005, message: `Rejected X-API-Key ${apiKey}` }],
      given: `"${apiKey.toUpperCase()}"`,
    });
    server.respond((_req, res) => {
      res.statusCode = 403;
      res.setHeader("x-echo", `key=${apiKey.toUpperCase()}`);
      res.setHeader(`x-${apiKey}`, "named by the key"); // a header whose name spells it is left out
      res.end(body);
    });
    for (const client of [core(), core({ features: [] })]) {
      const error = (await rejection(
        browser.transactionsGet(client, "ABCD-EFGH-IJKL"),
      )) as nodeBuild.MerchantApiError;
      expect(error).toBeInstanceOf(browser.MerchantApiError);
      expect([error.status, error.code, error.kind]).toEqual([403, 1005, "permission"]);
      expect(error.serverMessage).toBe("Rejected X-API-Key [redacted]");
      expect(error.message).toContain("Rejected X-API-Key [redacted]");
      expect(error.headers.get("x-echo")).toBe("key=[redacted]");
      expect([...error.headers.keys()].filter((name) => name.startsWith("x-sk"))).toEqual([]);
      const texts = [error.message, JSON.stringify(error.body), JSON.stringify(error)];
      for (const [name, value] of error.headers) texts.push(`${name}: ${value}`);
      for (const text of texts) expect(text.toLowerCase()).not.toContain(apiKey.toLowerCase());
    }
    // The Node build redacts the same answer too: no build lets a key through.
    const node = (await rejection(
      nodeBuild.transactionsGet(
        new nodeBuild.MerchantCore({ baseUrl: server.url, apiKey, maxRetries: 0 }),
        "ABCD-EFGH-IJKL",
      ),
    )) as nodeBuild.MerchantApiError;
    expect(node.serverMessage).toBe("Rejected X-API-Key [redacted]");
  });

  it("retries with the retries feature as the Node build does: a GET after Retry-After, not a POST without an idempotency key", async () => {
    const retrying = core({ features: [browser.retries] });
    const node = new nodeBuild.MerchantCore({ baseUrl: server.url, apiKey, retryBackoffMs: 1 });
    for (const [build, client] of [
      [browser, retrying],
      [nodeBuild, node],
    ] as const) {
      busyOnceThenTransaction();
      expect(await build.transactionsGet(client as never, "ABCD-EFGH-IJKL")).toEqual(transaction);
      expect(server.requests).toHaveLength(2);

      server.respond((_req, res) => {
        res.statusCode = 503;
        res.end("{}");
      });
      const error = await rejection(build.ordersCreate(client as never, { items: [] } as never));
      expect(error).toBeInstanceOf(browser.MerchantApiError);
      expect(server.requests).toHaveLength(1);
      // maxRetries (2) further attempts, then the API's error
      server.respond((_req, res) => {
        res.statusCode = 503;
        res.end("{}");
      });
      const given = await rejection(build.transactionsGet(client as never, "ABCD-EFGH-IJKL"));
      expect((given as nodeBuild.MerchantApiError).status).toBe(503);
      expect(server.requests).toHaveLength(3);
    }
  });

  it("ends an attempt at its timeout with the timeouts feature (retried with retries), and a call at the caller's abort without it", async () => {
    server.respond(() => {}); // never answers
    const timed = core({ features: [browser.timeouts], timeoutMs: 50 });
    expect(await rejection(browser.transactionsGet(timed, "ABCD-EFGH-IJKL"))).toBeInstanceOf(
      browser.TimeoutError,
    );
    expect(server.requests).toHaveLength(1);
    server.respond(() => {});
    const both = core({
      features: [browser.retries, browser.timeouts],
      timeoutMs: 50,
      maxRetries: 1,
    });
    expect(await rejection(browser.transactionsGet(both, "ABCD-EFGH-IJKL"))).toBeInstanceOf(
      browser.TimeoutError,
    );
    expect(server.requests).toHaveLength(2); // as the Node build: a GET that timed out is tried again
    for (const client of [core(), timed]) {
      const controller = new AbortController();
      const call = browser.transactionsGet(client, "ABCD-EFGH-IJKL", { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect(await rejection(call)).toBeInstanceOf(browser.UserAbortError);
    }
  });

  it("follows no redirect (fetch refuses it; a RedirectError with redirectErrors), where the Node build follows one within the origin", async () => {
    server.respond((req, res) => {
      if (req.url.startsWith("/v1/merchant/transactions/ABCD")) {
        res.statusCode = 302;
        res.setHeader("location", "/v1/merchant/transactions/WXYZ-WXYZ-WXYZ");
        return res.end();
      }
      res.end(JSON.stringify(transaction));
    });
    const refused = await rejection(browser.transactionsGet(core(), "ABCD-EFGH-IJKL"));
    expect(refused).toBeInstanceOf(browser.ConnectionError);
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    const client = core({ features: [browser.redirectErrors] });
    const error = await rejection(browser.transactionsGet(client, "ABCD-EFGH-IJKL"));
    expect(error).toBeInstanceOf(browser.RedirectError);
    expect((error as nodeBuild.RedirectError).status).toBe(302);
    expect(server.requests).toHaveLength(1);
    const node = new nodeBuild.MerchantCore({ baseUrl: server.url, apiKey });
    expect(await nodeBuild.transactionsGet(node, "ABCD-EFGH-IJKL")).toEqual(transaction);
  });

  it("hands a success over unread with asResponse()", async () => {
    server.respond((_req, res) => res.end(JSON.stringify(transaction)));
    const response = await browser.transactionsGet(core(), "ABCD-EFGH-IJKL").asResponse();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(transaction);
  });

  it("sends the spec's API headers, version and other hosts, basic and query credentials", async () => {
    server.respond((_req, res) => res.end("{}"));
    const api = {
      headers: { Accept: "application/vnd.test+json" },
      version: { header: "X-Api-Version", versions: ["1", "2"], current: "2" },
      hosts: { files: null },
      // As the generated core passes it: the code that works them out comes with the data.
      lenient: lean.lenientApiRequests,
    };
    const options = {
      baseUrl: "https://unused.invalid",
      apiVersion: "1",
      hosts: { files: server.url },
    };
    const client = new lean.ClientCore(
      options,
      { login: { username: "ann", password: "s3cret-pass" }, key: "k/ey 1" },
      ApiError,
      {},
      undefined,
      api,
    );
    const op = lean.operation(
      JSON.stringify({
        id: "files.get",
        method: "GET",
        path: "/files/{name}",
        host: "files",
        credentials: [
          { option: "login", basic: true },
          { option: "key", query: "api_key" },
          // Not given: an optional one is left out, a required one refuses the call.
          { option: "session", header: "X-Session", optional: true },
        ],
        headers: {},
        documentedResponse: false,
        code: ["place", "credential"],
      }),
      placeParams,
      credentialText,
    );
    await client.request(op, { name: "a b" });
    const [request] = server.requests;
    expect(request!.url).toBe("/files/a%20b?api_key=k%2Fey+1");
    expect(request!.headers["x-api-version"]).toBe("1");
    expect(request!.headers.accept).toBe("application/vnd.test+json");
    expect(request!.headers.authorization).toBe(`Basic ${btoa("ann:s3cret-pass")}`);
    expect(request!.headers["x-session"]).toBeUndefined();
    const required = lean.operation(
      JSON.stringify({
        id: "files.get",
        method: "GET",
        path: "/files/{name}",
        credentials: [{ option: "session", header: "X-Session" }],
        headers: {},
        documentedResponse: false,
      }),
    );
    const missing = await rejection(client.request(required, { name: "a" }));
    expect([missing.constructor, missing.message]).toEqual([
      MissingCredentialError,
      "files.get needs the session option (sent as x-session), and the client has none",
    ]);
    expect(server.requests).toHaveLength(1);
    // What the call sent is redacted from its error: the password, the token and the key.
    const token = btoa("ann:s3cret-pass");
    server.respond((_req, res) => {
      res.statusCode = 401;
      res.end(JSON.stringify({ message: `bad s3cret-pass, ${token}, k/ey 1` }));
    });
    const error = await rejection(client.request(op, { name: "a" }));
    expect(error.message).toContain("bad [redacted], [redacted], [redacted]");
  });

  it("leaves a body the call may leave out unsent and unchecked, with no Content-Type, and checks one given", async () => {
    server.respond((_req, res) => res.end("{}"));
    const client = new lean.ClientCore({ baseUrl: server.url }, {}, ApiError);
    const needsText: (
      value: unknown,
      path: string,
      issues: { path: string; message: string }[],
    ) => void = (value, path, issues) => {
      if (typeof (value as { text?: unknown })?.text !== "string")
        issues.push({ path: `${path}.text`, message: "must be a string" });
    };
    const op = lean.operation(
      JSON.stringify({
        id: "notes.touch",
        method: "POST",
        path: "/notes/touch",
        credentials: [],
        headers: { "Content-Type": "application/json" },
        documentedResponse: false,
        bodyOptional: true,
        code: ["validateBody"],
      }),
      needsText,
    );
    await client.request(op, undefined, undefined);
    expect(server.requests[0]!.body).toBe("");
    expect(server.requests[0]!.headers["content-type"]).toBeUndefined();
    await client.request(op, undefined, { text: "hi" });
    expect(server.requests[1]!.body).toBe('{"text":"hi"}');
    expect(server.requests[1]!.headers["content-type"]).toBe("application/json");
    expect(await rejection(client.request(op, undefined, { text: 1 }))).toBeInstanceOf(
      RequestValidationError,
    );
    expect(server.requests).toHaveLength(2);
  });

  it("runs middleware around each attempt, as the Node build does", async () => {
    busyOnceThenTransaction();
    const seen: string[] = [];
    const middleware = browser.withMiddleware(
      {
        onRequest({ request, attempt, endpointId }) {
          request.headers.set("x-trace", `${endpointId}#${attempt}`);
        },
        onResponse({ response, attempt }) {
          seen.push(`${attempt}:${response.status}`);
        },
      },
      {
        onRequest({ attempt }) {
          if (attempt === 3) throw new Error("never a third");
        },
      },
    );
    const features = [browser.retries];
    expect(await browser.transactionsGet(core({ middleware, features }), "ABCD-EFGH-IJKL")).toEqual(
      transaction,
    );
    expect(server.requests.map((r) => r.headers["x-trace"])).toEqual([
      "transactions.get#1",
      "transactions.get#2",
    ]);
    expect(seen).toEqual(["1:503", "2:200"]);

    const failing = browser.withMiddleware({
      onRequest() {
        throw new Error(`no ${apiKey}`);
      },
    });
    const error = await rejection(
      browser.transactionsGet(core({ middleware: failing }), "ABCD-EFGH-IJKL"),
    );
    expect(error).toBeInstanceOf(browser.MiddlewareError);
    expect(error.message).not.toContain(apiKey);
  });

  it("checks parameters and bodies only with the requestValidators it is given", async () => {
    server.respond((_req, res) => res.end(JSON.stringify(transaction)));
    // The spec's pattern for a reference is ^[^-]{4}-[^-]{4}-[^-]{4}$: the Node build refuses it.
    const node = new nodeBuild.MerchantCore({ baseUrl: server.url, apiKey });
    expect(await rejection(nodeBuild.transactionsGet(node, "bad"))).toBeInstanceOf(
      nodeBuild.RequestValidationError,
    );
    expect(server.requests).toHaveLength(0);
    // Without them the browser build sends it as it is: types checked it at compile time.
    expect(await browser.transactionsGet(core(), "bad")).toEqual(transaction);
    expect(server.requests.map((r) => r.url)).toEqual(["/v1/merchant/transactions/bad"]);

    const { requestValidators } = browser;
    const checked = core({ requestValidators });
    const params = await rejection(browser.transactionsGet(checked, "bad"));
    expect(params).toBeInstanceOf(browser.RequestValidationError);
    expect((params as nodeBuild.RequestValidationError).field).toBe("params.reference");
    const body = await rejection(browser.ordersCreate(checked, { cart: "none" } as never));
    expect(body).toBeInstanceOf(browser.RequestValidationError);
    expect((body as nodeBuild.RequestValidationError).field).toBe("body.cart");
    expect(server.requests).toHaveLength(1); // nothing more was sent
    expect(await browser.transactionsGet(checked, "ABCD-EFGH-IJKL")).toEqual(transaction);
  });

  it("checks a paged call's first page with requestValidators, not the pages a walk asks for after it", async () => {
    server.respond((req, res) => {
      const later = req.url.includes("cursor=");
      res.end(JSON.stringify({ items: [later ? 2 : 1], next: later ? null : "c2" }));
    });
    // As the browser build's generated endpoint is: its validator slot empty (request-validators.browser.ts).
    const list = pagedEndpoint<
      (core: unknown, query: { status?: string }) => AsyncIterable<number> & PromiseLike<unknown>
    >(
      JSON.stringify({
        id: "items.list",
        method: "GET",
        path: "/items",
        credentials: [],
        headers: {},
        args: ["$query"],
        documentedResponse: true,
        paging: { style: "nextToken", param: "cursor", token: ["next"], items: ["items"] },
        code: ["validateParams", "place"],
      }),
      undefined,
      placeParams,
    );
    const status = (value: unknown, path: string, issues: { path: string; message: string }[]) => {
      const given = (value as { status?: unknown }).status;
      if (given !== "open") issues.push({ path: `${path}.status`, message: "must be open" });
    };
    const requestValidators = { "items.list": { params: status } };
    const client = new lean.ClientCore({ baseUrl: server.url, requestValidators }, {}, ApiError);
    const items: number[] = [];
    for await (const item of list(client, { status: "open" })) items.push(item);
    expect(items).toEqual([1, 2]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/items?status=open",
      "/items?status=open&cursor=c2",
    ]);
    const refused = await rejection(list(client, { status: "shut" }));
    expect(refused).toBeInstanceOf(
      lean.ClientCore && ApiError.prototype.constructor === ApiError ? Error : Error,
    );
    expect((refused as { field?: string }).field).toBe("params.status");
    expect(server.requests).toHaveLength(2);
  });

  it("exports every value core.ts exports, which generated code imports through the map", async () => {
    const full = await import("../generator/runtime/client/core.ts");
    expect(Object.keys(lean).sort()).toEqual(Object.keys(full).sort());
  });

  it("keeps one operation with its runtime within its budget, min+gz, and none of the features' code unless switched on, redacting without any", async () => {
    const entry = (features: string) =>
      `import { MerchantCore, transactionsGet } from ${JSON.stringify(index)};
import { allFeatures } from ${JSON.stringify(featuresEntry)};
export const get = (ref) => transactionsGet(new MerchantCore({ baseUrl: "https://x"${features} }), ref);`;
    const [plain, every] = await Promise.all([
      browserBundle(entry(""), true),
      browserBundle(entry(", features: allFeatures"), true),
    ]);
    expect(gzipSync(plain, { level: 9 }).length).toBeLessThanOrEqual(budgetBytes);
    // A text of each feature's code: retries, timeouts, redirectErrors.
    const texts = ["while waiting to retry", "timed out after", "was redirected"];
    const decode = (code: Uint8Array) => new TextDecoder().decode(code);
    for (const text of texts) {
      const found = {
        text,
        plain: decode(plain).includes(text),
        every: decode(every).includes(text),
      };
      expect(found).toEqual({ text, plain: false, every: true });
    }
    // The spec's API headers and hosts come with the cores of specs that have them (Merchant has none).
    expect(decode(plain)).not.toContain("hosts.");
    // Redaction is no feature: the same one-operation bundle, minified with no feature, redacts.
    const bare = await browserBundle(
      `import { MerchantCore, transactionsGet } from ${JSON.stringify(index)};
export const get = (baseUrl, apiKey, ref) => transactionsGet(new MerchantCore({ baseUrl, apiKey }), ref);`,
      true,
    );
    const file = join(dir, "bare.mjs");
    writeFileSync(file, bare);
    const { get } = (await import(pathToFileURL(file).href)) as {
      get: (baseUrl: string, apiKey: string, ref: string) => Promise<unknown>;
    };
    server.respond((_req, res) => {
      res.statusCode = 401;
      res.setHeader("x-echo", apiKey);
      res.end(JSON.stringify({ message: `bad key ${apiKey}` }));
    });
    const error = (await rejection(
      get(server.url, apiKey, "ABCD-EFGH-IJKL"),
    )) as nodeBuild.MerchantApiError;
    expect([error.status, error.serverMessage]).toEqual([401, "bad key [redacted]"]);
    expect(error.headers.get("x-echo")).toBe("[redacted]");
    expect(JSON.stringify(error)).not.toContain(apiKey);
  });
});

/**
 * bench/bundle.ts's one-operation figure (docs/benchmarks.md) may not grow past this: 4.88 KB
 * (4,999 B) when it was set by issue 33's fourth session (5.11 KB, 5,230 B, before it), with
 * room for a little more; the Node build's loop is 9.24 KB. Issue 33's target is 3.0 KB, which
 * the browser build's core does not meet (docs/benchmarks.md says what it is). Session 34 took
 * it from 5,056 B to 5,094 B: a body a call may leave out is not checked, and a call without a
 * body sends no Content-Type (a JSON server such as Fastify refuses an empty body that has one).
 */
const budgetBytes = Math.round(5.0 * 1024);
