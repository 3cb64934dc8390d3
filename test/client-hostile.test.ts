/**
 * The generated client against a hostile server on 127.0.0.1: one test per defect that the
 * issue listed or the fuzzer (test/fuzz/client.fuzz.test.ts) found, each with its smallest
 * failing case. Redirects, secrets echoed in other spellings, huge and deep bodies, request
 * bodies JSON cannot hold, and base URLs the client cannot use.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ClientOptionsError,
  MerchantApiError,
  MerchantClient,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  type MerchantClientOptions,
} from "../generated/src/index.ts";
import { TestServer } from "./support/test-server.ts";

const secrets = {
  apiKey: "sk_live/abc123XYZ",
  publishableKey: "pk_live_publishable_0123",
  accessToken: "at_live_access_token_0123",
};

let server: TestServer;
/** Another origin: the same host on another port. */
let other: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
  other = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
  await other.stop();
});

function client(options: Partial<MerchantClientOptions> = {}): MerchantClient {
  return new MerchantClient({
    baseUrl: server.url,
    ...secrets,
    maxRetries: 0,
    timeoutMs: 5000,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

/** Everything a person or a log could be shown of an error. */
function shown(error: Error): string {
  return [
    String(error),
    error.message,
    JSON.stringify(error),
    inspect(error, { depth: Infinity }),
  ].join("\n");
}

describe("redirects", () => {
  it("a 302 to another origin is refused: no credential leaves, the other body never resolves the call", async () => {
    other.json(200, { stolen: true });
    server.respond((_req, res) => res.writeHead(302, { location: `${other.url}/collect` }).end());
    const error = await rejection(client().subscriptions.cancel("sub_1"));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toBe(
      `subscriptions.cancel was redirected (302) to another origin, ${other.url}: not followed`,
    );
    expect((error as RedirectError).status).toBe(302);
    expect((error as RedirectError).endpointId).toBe("subscriptions.cancel");
    expect(other.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
  });

  it("a redirect to another scheme of the same host is another origin too", async () => {
    server.respond((_req, res) =>
      res.writeHead(307, { location: server.url.replace("http:", "https:") + "/x" }).end(),
    );
    expect(await rejection(client().transactions.list())).toBeInstanceOf(RedirectError);
  });

  it("a redirect within the origin is followed with the credentials, a 303 of a POST as a GET without body", async () => {
    server.sequence(
      (_req, res) => res.writeHead(303, { location: "/v1/moved" }).end(),
      (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":1}'),
    );
    await expect(client().orders.create({ cart: { total_amount: 5 } })).resolves.toEqual({
      ok: 1,
    });
    const [first, second] = server.requests;
    expect([first!.method, second!.method, second!.url]).toEqual(["POST", "GET", "/v1/moved"]);
    expect(second!.headers["x-api-key"]).toBe(secrets.apiKey);
    expect(second!.body).toBe("");
    expect(second!.headers["content-type"]).toBeUndefined();
  });

  it("a redirect loop within the origin stops after maxRedirects", async () => {
    server.respond((req, res) => res.writeHead(307, { location: req.url }).end());
    const error = await rejection(client({ maxRedirects: 3 }).transactions.list());
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toBe(
      "transactions.list was redirected (307) more than 3 times: not followed",
    );
    expect(server.requests).toHaveLength(4);
  });
});

describe("secrets the server echoes in another spelling", () => {
  const escaped = secrets.apiKey.replace("/", "\\/");
  const unicode = secrets.apiKey.replace("s", "\\u0073");
  it.each([
    ["JSON-escaped", `{"errors":[{"code":1005,"message":"key ${escaped} rejected"}]}`],
    ["\\u-escaped", `{"errors":[{"code":1005,"message":"key ${unicode} rejected"}]}`],
    ["percent-encoded, in a text body", `bad key ${encodeURIComponent(secrets.apiKey)}`],
  ])("%s never reaches the error", async (_name, body) => {
    server.respond((_req, res) => res.writeHead(403).end(body));
    const error = await rejection(client().transactions.list());
    expect(error).toBeInstanceOf(MerchantApiError);
    const text = shown(error);
    expect(text).toContain("[redacted]");
    for (const form of [secrets.apiKey, escaped, unicode, encodeURIComponent(secrets.apiKey)])
      expect(text).not.toContain(form);
  });

  it("a credential cut in two by maxErrorBodyBytes leaves no first half in the error", async () => {
    server.respond((_req, res) => res.writeHead(500).end(`${"x".repeat(65_530)}${secrets.apiKey}`));
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(error.body).toBe(`${"x".repeat(65_530)}[redacted]`);
  });

  it("nor when the cut falls inside an escape of its spelling", async () => {
    const spelled = Array.from(
      secrets.apiKey,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    server.respond((_req, res) => res.writeHead(500).end(`key ${spelled.join("")}`));
    const error = (await rejection(
      client({ maxErrorBodyBytes: 4 + 6 * 9 + 3 }).transactions.list(),
    )) as MerchantApiError;
    expect(error.body).toBe("key [redacted]");
  });

  it("a credential in a response header never reaches util.inspect(error)", async () => {
    server.respond((req, res) =>
      res.writeHead(401, { "x-echo": String(req.headers["x-api-key"]) }).end(),
    );
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(inspect(error, { depth: Infinity })).not.toContain(secrets.apiKey);
    expect(error.headers.get("x-echo")).toBe("[redacted]");
  });

  it("a password in baseUrl is refused at construction, without repeating it", () => {
    const make = () => client({ baseUrl: `http://user:hunter2secret@127.0.0.1:9/api` });
    expect(make).toThrow(ClientOptionsError);
    expect(make).toThrow(
      "baseUrl holds a user name or password: pass credentials as their own options",
    );
    try {
      make();
    } catch (error) {
      expect(shown(error as Error)).not.toContain("hunter2secret");
    }
  });
});

describe("bodies that are too big or too deep", () => {
  it("an error body nested 5,000 deep still gives an error JSON.stringify can show", async () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    server.respond((_req, res) => res.writeHead(500).end(deep));
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(() => inspect(error, { depth: Infinity })).not.toThrow();
    expect(error.body).toBe(deep);
    expect(error.message.length).toBeLessThan(600);
  });

  it("a success body that never ends is cut at maxResponseBytes (16 MiB by default)", async () => {
    let written = 0;
    server.respond((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      const more = () => {
        while (!res.destroyed && written < 400 * 2 ** 20) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      res.on("close", () => res.removeAllListeners("drain"));
      more();
    });
    const error = await rejection(client().transactions.list());
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe(
      "transactions.list answered 200 with a body over the 16777216-byte limit",
    );
    expect(written).toBeLessThan(100 * 2 ** 20);
  });

  it("an error keeps at most maxErrorBodyBytes of an error body", async () => {
    server.respond((_req, res) => res.writeHead(502).end("x".repeat(2 ** 20)));
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(error.body).toBe("x".repeat(65_536));
    const small = (await rejection(
      client({ maxErrorBodyBytes: 10 }).transactions.list(),
    )) as MerchantApiError;
    expect(small.body).toBe("x".repeat(10));
  });

  it("an error page of 64 KiB of '<' is read in linear time", async () => {
    server.respond((_req, res) => res.writeHead(500).end("<".repeat(65_536)));
    const started = performance.now();
    const error = (await rejection(client().transactions.list())) as MerchantApiError;
    expect(error.status).toBe(500);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("base URLs per runtime", () => {
  /** Runs `body` with a global `location` like a runtime's: a page's, or Deno's, which throws. */
  function withLocation(location: PropertyDescriptor, body: () => void): void {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "location");
    Object.defineProperty(globalThis, "location", { configurable: true, ...location });
    try {
      body();
    } finally {
      if (saved) Object.defineProperty(globalThis, "location", saved);
      else delete (globalThis as { location?: unknown }).location;
    }
  }

  it("an absolute baseUrl works where reading location throws (Deno without --location)", () => {
    withLocation(
      {
        get() {
          throw new ReferenceError('Access to "location", run again with --location <href>.');
        },
      },
      () => {
        expect(() => client({ baseUrl: "https://api.example/v1" })).not.toThrow();
        expect(() => client({ baseUrl: "/api" })).toThrow(ClientOptionsError);
      },
    );
  });

  it("calls the fetch it is given as a plain function (a browser's refuses to run on another object)", async () => {
    server.json(200, { ok: true });
    const receivers: unknown[] = [];
    const strictFetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      receivers.push(this);
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      return fetch(input, init);
    };
    await expect(client({ fetch: strictFetch }).transactions.list()).resolves.toEqual({ ok: true });
    expect(receivers).toEqual([undefined]);
  });

  it("a baseUrl relative to the page works in a browser, resolved against it", async () => {
    server.json(200, { ok: true });
    let relative: MerchantClient | undefined;
    withLocation({ value: { href: `${server.url}/shop/cart` } }, () => {
      relative = client({ baseUrl: "/api/" });
    });
    await expect(relative!.transactions.list()).resolves.toEqual({ ok: true });
    expect(server.requests[0]!.url).toBe("/api/v1/merchant/transactions");
  });
});

describe("requests the client cannot send", () => {
  it.each([
    ["a cycle", () => Object.assign({ cart: { total_amount: 5 } }, { self: {} as object })],
    ["a BigInt", () => ({ cart: { total_amount: 5 }, extra: 10n })],
  ])("a body holding %s is a RequestValidationError at body; nothing is sent", async (_n, make) => {
    server.json(200, {});
    const body = make() as Record<string, unknown>;
    if ("self" in body) body.self = body;
    const error = await rejection(client().orders.create(body as never));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).field).toBe("body");
    expect(error.message).toMatch(/^orders\.create: body cannot be sent as JSON: /);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ["not a URL", "127.0.0.1:8080", "baseUrl is not an http: or https: URL"],
    ["another scheme", "ftp://127.0.0.1/", "baseUrl is not an http: or https: URL"],
    [
      "a query",
      "http://127.0.0.1/api?x=1",
      "baseUrl has a query or fragment, which endpoint paths cannot follow",
    ],
  ])(
    "a baseUrl that is %s is refused at construction, not retried as a connection error",
    (_n, baseUrl, message) => {
      const make = () => client({ baseUrl });
      expect(make).toThrow(ClientOptionsError);
      expect(make).toThrow(message);
    },
  );
});
