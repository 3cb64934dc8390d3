/**
 * The client of test/fixtures/features/params-and-credentials against a server on
 * 127.0.0.1: the exact query strings and headers that arrive for each parameter style,
 * defaults sent when left out, HEAD and OPTIONS, optional, basic and query credentials
 * (the query key redacted from log lines and errors), string error codes, and the statuses
 * the spec marks `retry: true`.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeGenerated, tempDir } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";

/** What the test uses of the generated module (imported at run time from its temp folder). */
interface Generated {
  ParamsClient: new (options: Record<string, unknown>) => Client;
  ParamsApiError: new (...args: never[]) => Error;
  RequestValidationError: new (...args: never[]) => Error;
  MissingCredentialError: new (...args: never[]) => Error;
  ErrorCode: Record<string, number | string>;
}
/** A call's result, an `ApiPromise` (its types are checked by the typecheck of the snapshots). */
type Call = (...args: unknown[]) => Promise<unknown> & {
  withResponse(): Promise<{ data: unknown; status: number; response: Response }>;
};
interface Client {
  issues: Record<"list" | "check" | "options" | "create" | "search", Call>;
  account: Record<"get", Call>;
  charges: Record<"create", Call>;
}

let out: string;
let mod: Generated;
let server: TestServer;
beforeAll(async () => {
  out = tempDir("apigen-client-params-");
  await writeGenerated("test/fixtures/features/params-and-credentials", out);
  mod = (await import(pathToFileURL(join(out, "src/index.ts")).href)) as Generated;
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
});

function client(options: Record<string, unknown> = {}): Client {
  return new mod.ParamsClient({ baseUrl: server.url, maxRetries: 0, timeoutMs: 5000, ...options });
}

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("the call did not fail");
}

describe("query and header parameters", () => {
  it("writes each style exactly: comma, repeat, brackets, deepObject; sends the header under its name", async () => {
    server.json(200, []);
    await client().issues.list("octo", "hello", {
      "If-None-Match": 'W/"abc"',
      labels: ["bug", "ui,ux"],
      state: ["open", "closed"],
      expand: ["a", "b c"],
      created: { gte: 1, lte: 2 },
      per_page: 50,
    });
    const [request] = server.requests;
    expect(request!.method).toBe("GET");
    expect(request!.url).toBe(
      "/repos/octo/hello/issues?labels=bug,ui%2Cux&state=open&state=closed&expand[]=a&expand[]=b+c&created[gte]=1&created[lte]=2&per_page=50&sort=created",
    );
    expect(request!.headers["if-none-match"]).toBe('W/"abc"');
  });

  it("writes a deepObject field that is one value or a list as whichever it is given", async () => {
    server.json(200, []);
    await client().issues.list("o", "r", { created: { gte: 1, not: [3, 4] } });
    await client().issues.list("o", "r", { created: { not: 3 } });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/repos/o/r/issues?created[gte]=1&created[not][]=3&created[not][]=4&sort=created",
      "/repos/o/r/issues?created[not]=3&sort=created",
    ]);
  });

  it("sends a QUERY with its body, retried as a GET is (a safe method), never as a POST", async () => {
    server.json(200, [{ number: 1, title: "Crash" }]);
    const found = await client().issues.search("o", "r", { text: "crash", labels: ["bug"] });
    expect(found).toEqual([{ number: 1, title: "Crash" }]);
    const [request] = server.requests;
    expect([request!.method, request!.url]).toEqual(["QUERY", "/repos/o/r/issues"]);
    expect(JSON.parse(request!.body)).toEqual({ text: "crash", labels: ["bug"] });
    expect(request!.headers["content-type"]).toBe("application/json");
    // a 503 is retried for the QUERY (its body sent again), not for the POST beside it
    server.json(503, { message: "busy" });
    const retrying = { maxRetries: 1, retryBackoffMs: 1, token: "t-1" };
    await rejection(client(retrying).issues.search("o", "r", { text: "crash" }));
    await rejection(client(retrying).issues.create("o", "r", { title: "t" }));
    expect(server.requests.map((r) => r.method)).toEqual(["QUERY", "QUERY", "POST"]);
  });

  it("the stand-in answers a QUERY and a GET of one path each as its own endpoint", async () => {
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn(): { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn();
    const at = "http://stand-in.test/repos/o/r/issues";
    const body = (text: unknown) => ({ method: "QUERY", body: JSON.stringify({ text }) });
    expect((await standIn.fetch(new Request(at, body("crash")))).status).toBe(200);
    // the QUERY's body is checked as its own: the GET takes none
    const refused = await standIn.fetch(new Request(at, body(7)));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("body.text");
    expect((await standIn.fetch(new Request(at))).status).toBe(200);
  });

  it("writes space and pipe delimited arrays (OpenAPI spaceDelimited, pipeDelimited) as one value each", async () => {
    server.json(200, []);
    await client().issues.list("octo", "hello", { sizes: [1, 2], ids: ["a|b", "c d"] });
    expect(server.requests[0]!.url).toBe(
      "/repos/octo/hello/issues?sizes=1%202&ids=a%7Cb|c+d&sort=created",
    );
  });

  it("the stand-in reads them back as the arrays they are", async () => {
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn(): { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn();
    const ask = (query: string) =>
      standIn.fetch(new Request(`http://stand-in.test/repos/o/r/issues?${query}`));
    expect((await ask("sizes=1%202&ids=a|b")).status).toBe(200);
    // a deepObject field of one value or a list, as the client writes either
    expect((await ask("created[gte]=1&created[not][]=3&created[not][]=4")).status).toBe(200);
    expect((await ask("created[not]=3")).status).toBe(200);
    // and reads each field as its type says: a deepObject field that is no integer is refused
    const notANumber = await ask("created[gte]=soon");
    expect(notANumber.status).toBe(400);
    expect(await notANumber.text()).toContain("params.created.gte");
    // the items are integers: a space-delimited item that is none is refused, as such
    const refused = await ask("sizes=1%20x");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("params.sizes[1]");
  });

  it("sends a sendDefault parameter's default when left out, and the caller's value otherwise; never a plain default", async () => {
    server.json(200, []);
    await client().issues.list("o", "r");
    await client().issues.list("o", "r", { sort: "updated" });
    expect(server.requests.map((r) => r.url)).toEqual([
      "/repos/o/r/issues?sort=created",
      "/repos/o/r/issues?sort=updated",
    ]);
    expect(server.requests[0]!.headers["if-none-match"]).toBeUndefined();
  });

  it("refuses a header value with a line break, naming the parameter; nothing is sent", async () => {
    server.json(200, []);
    const error = await rejection(
      client().issues.list("o", "r", { "If-None-Match": "a\r\nX-Evil: 1" }),
    );
    expect(error).toBeInstanceOf(mod.RequestValidationError);
    expect(error.field).toBe('params["If-None-Match"]');
    expect(error.message).toContain('params["If-None-Match"] holds a line break');
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a deepObject value nested deeper than one level, naming the field", async () => {
    server.json(200, []);
    const error = await rejection(
      client().issues.list("o", "r", { created: { gte: { deeper: 1 } } as never }),
    );
    expect(error).toBeInstanceOf(mod.RequestValidationError);
    expect(String(error.message)).toContain("params.created.gte");
    expect(server.requests).toHaveLength(0);
  });

  it("checks a required header parameter like any other", async () => {
    server.json(200, { id: "ch_1", amount: 5 });
    const error = await rejection(
      client({ apiKey: "key_1234" }).charges.create({ amount: 5 }, {} as never),
    );
    expect(error).toBeInstanceOf(mod.RequestValidationError);
    expect(error.field).toBe('params["Stripe-Account"]');
    expect(server.requests).toHaveLength(0);
  });
});

describe("HEAD and OPTIONS", () => {
  it("HEAD resolves to undefined; OPTIONS is sent as OPTIONS", async () => {
    server.respond((_req, res) => {
      res.writeHead(200, { allow: "GET, HEAD, OPTIONS, POST" });
      res.end();
    });
    await expect(client().issues.check("o", "r")).resolves.toBeUndefined();
    // A HEAD's answer is its status and headers: withResponse() gives them.
    const head = await client().issues.check("o", "r").withResponse();
    expect(head.data).toBeUndefined();
    expect(head.status).toBe(200);
    expect(head.response.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    await client().issues.options("o", "r");
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "HEAD /repos/o/r/issues",
      "HEAD /repos/o/r/issues",
      "OPTIONS /repos/o/r/issues",
    ]);
  });
});

describe("credentials", () => {
  it("an optional token is left out when the client has none, and sent when it has one", async () => {
    server.json(200, []);
    await client().issues.list("o", "r");
    await client({ token: "ghp_secret_token" }).issues.list("o", "r");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      undefined,
      "Bearer ghp_secret_token",
    ]);
  });

  it("a required token is still required", async () => {
    const error = await rejection(client().issues.create("o", "r", { title: "t" }));
    expect(error).toBeInstanceOf(mod.MissingCredentialError);
  });

  it("basic credentials go out as base64 of the UTF-8 bytes of username:password", async () => {
    server.json(200, { login: "ok" });
    await client({ basic: { username: "zoë", password: "pä ss:1" } }).account.get();
    await client({ basic: async () => ({ username: "a", password: "b" }) }).account.get();
    const expected = `Basic ${Buffer.from("zoë:pä ss:1", "utf8").toString("base64")}`;
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([expected, "Basic YTpi"]);
  });

  it("a missing basic credential says it travels as Authorization: Basic", async () => {
    const error = await rejection(client().account.get());
    expect(error).toBeInstanceOf(mod.MissingCredentialError);
    expect(error.message).toBe(
      "account.get needs the basic option (sent as Authorization: Basic), and the client has none",
    );
  });

  it("a basic username with ':' is refused before anything is sent", async () => {
    server.json(200, { login: "ok" });
    const error = await rejection(
      client({ basic: { username: "a:b", password: "c" } }).account.get(),
    );
    expect(error).toBeInstanceOf(mod.RequestValidationError);
    expect(error.message).toContain("basic has a ':' in its username");
    expect(server.requests).toHaveLength(0);
  });

  it("a query key is sent in the query string, and redacted from log lines and errors", async () => {
    const key = "sk_query_key_0123";
    server.respond((req, res) => {
      res.writeHead(402, { "content-type": "application/json", "x-echo": req.url });
      res.end(
        JSON.stringify({
          error: { type: "card_error", code: "card_declined", message: `Declined for ${req.url}` },
        }),
      );
    });
    const lines: string[] = [];
    const error = await rejection(
      client({ apiKey: key, logger: { debug: (l: string) => lines.push(l) } }).charges.create(
        { amount: 5 },
        { "Stripe-Account": "acct_1" },
      ),
    );
    expect(server.requests[0]!.url).toBe(`/v1/charges?api_key=${key}`);
    expect(server.requests[0]!.headers["stripe-account"]).toBe("acct_1");
    expect(lines.join("\n")).toContain("POST http://127.0.0.1");
    expect(lines.join("\n")).toContain("api_key=[redacted]");
    const shown = [
      lines.join("\n"),
      error.message,
      JSON.stringify(error),
      inspect(error, { depth: 5 }),
      String(error),
    ].join("\n");
    expect(shown).not.toContain(key);
    expect(shown).not.toContain("sk_query");
  });
});

describe("a query key outside ASCII", () => {
  it("is redacted from the log line's URL, where it is percent-encoded UTF-8 (found by the client fuzz)", async () => {
    const key = "sk_query_ключ_🙂";
    server.json(200, { id: "ch_1", amount: 5 });
    const lines: string[] = [];
    await client({ apiKey: key, logger: { debug: (l: string) => lines.push(l) } }).charges.create(
      { amount: 5 },
      { "Stripe-Account": "acct_1" },
    );
    expect(new URL(server.requests[0]!.url, server.url).searchParams.get("api_key")).toBe(key);
    expect(lines.join("\n")).toContain("api_key=[redacted]");
    expect(lines.join("\n")).not.toContain("sk_query");
  });
});

describe("a query key and redirects", () => {
  it("a redirect elsewhere that echoes the key is refused, and the key is in no message or log line", async () => {
    const key = "sk_query_key_4567";
    server.respond((req, res) => {
      res.writeHead(302, { location: `http://evil.invalid${req.url}` });
      res.end();
    });
    const lines: string[] = [];
    const error = await rejection(
      client({ apiKey: key, logger: { debug: (l: string) => lines.push(l) } }).charges.create(
        { amount: 5 },
        { "Stripe-Account": "acct_1" },
      ),
    );
    expect(error.name).toBe("RedirectError");
    expect(server.requests).toHaveLength(1);
    const shown = [lines.join("\n"), error.message, JSON.stringify(error), inspect(error)].join();
    expect(shown).toContain("evil.invalid");
    expect(shown).not.toContain(key);
  });
});

describe("error codes", () => {
  it("reads a string code of a Stripe body onto ApiError.code", async () => {
    server.json(402, {
      error: {
        type: "card_error",
        code: "card_declined",
        message: "Your card was declined.",
        param: "",
      },
    });
    const error = await rejection(
      client({ apiKey: "key_1234" }).charges.create({ amount: 5 }, { "Stripe-Account": "a" }),
    );
    expect(error).toBeInstanceOf(mod.ParamsApiError);
    expect(error.code).toBe("card_declined");
    expect(error.code).toBe(mod.ErrorCode.cardDeclined);
    expect(error.message).toBe(
      "charges.create failed with 402 code card_declined: Your card was declined.",
    );
  });

  it("reads an integer code, and GitHub's {message, documentation_url}", async () => {
    server.json(401, { errors: [{ code: 1005, message: "Bad key" }] });
    const numeric = await rejection(
      client({ apiKey: "key_1234" }).charges.create({ amount: 5 }, { "Stripe-Account": "a" }),
    );
    expect(numeric.code).toBe(mod.ErrorCode.apiKeyRejected);
    server.json(404, { message: "Not Found", documentation_url: "https://docs.github.com" });
    const github = await rejection(client().issues.list("o", "r"));
    expect(github.code).toBeUndefined();
    expect(github.message).toBe("issues.list failed with 404: Not Found");
  });
});

describe("statuses the spec marks retry: true", () => {
  const forbiddenThenOk = (retryAfter: string) => {
    server.sequence(
      (_req, res) => {
        res.writeHead(403, { "content-type": "application/json", "retry-after": retryAfter });
        res.end('{"message":"You have exceeded a secondary rate limit."}');
      },
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("[]");
      },
    );
  };

  it("a 403 of a GET is retried, after its Retry-After", async () => {
    forbiddenThenOk("0.2");
    const started = Date.now();
    await expect(client({ maxRetries: 2 }).issues.list("o", "r")).resolves.toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.requests).toHaveLength(2);
  });

  it("not past maxRetries", async () => {
    server.json(403, { message: "Forbidden" }, { "retry-after": "0" });
    const error = await rejection(client({ maxRetries: 1 }).issues.list("o", "r"));
    expect(error).toBeInstanceOf(mod.ParamsApiError);
    expect(error.status).toBe(403);
    expect(server.requests).toHaveLength(2);
  });

  it("a 403 of a POST without an idempotency key is not retried; with one it is", async () => {
    forbiddenThenOk("0");
    const c = client({ maxRetries: 2, token: "ghp_token_1234" });
    const error = await rejection(c.issues.create("o", "r", { title: "t" }));
    expect(error.status).toBe(403);
    expect(server.requests).toHaveLength(1);
    forbiddenThenOk("0");
    server.requests.length = 0;
    await c.issues.create("o", "r", { title: "t" }, { idempotencyKey: "k1" });
    expect(server.requests).toHaveLength(2);
  });

  it("a status the spec does not mark (404) is not retried", async () => {
    server.json(404, { message: "Not Found" });
    await rejection(client({ maxRetries: 2 }).issues.list("o", "r"));
    expect(server.requests).toHaveLength(1);
  });
});
