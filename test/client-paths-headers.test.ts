/**
 * What a call puts on the wire cannot be steered by its values (issue 30, items 5 and 9): the
 * client of test/fixtures/features/params-and-credentials against a server on 127.0.0.1 that
 * records the path that arrived. A path parameter never changes which path is called (`.`,
 * `..` and empty are refused; `/`, `\`, `?`, `#` and `%2e` stay inside their segment), and a
 * header value, header name or credential fetch would refuse is a RequestValidationError
 * before anything is sent, never a retried ConnectionError, never showing a credential.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operation, pathOf } from "../generator/runtime/client/operation.ts";
import { pathSegments } from "../generator/runtime/client/params.ts";
import { tempDir, writeGenerated } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";

/** What the test uses of the generated module (imported at run time from its temp folder). */
interface Generated {
  ParamsClient: new (options: Record<string, unknown>) => Client;
  RequestValidationError: new (...args: never[]) => Error;
}
type Call = (...args: unknown[]) => Promise<unknown>;
interface Client {
  issues: Record<"list" | "create", Call>;
  account: Record<"get", Call>;
  charges: Record<"create", Call>;
  contents: Record<"get", Call>;
}

let out: string;
let mod: Generated;
let server: TestServer;
/** How often the client called fetch: a refused call never does. */
let fetches = 0;
beforeAll(async () => {
  out = tempDir("apigen-client-paths-");
  await writeGenerated("test/fixtures/features/params-and-credentials", out);
  mod = (await import(pathToFileURL(join(out, "src/index.ts")).href)) as Generated;
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
});

/** A client that would retry twice, with a fetch that counts its calls. */
function client(options: Record<string, unknown> = {}): Client {
  fetches = 0;
  return new mod.ParamsClient({
    baseUrl: server.url,
    maxRetries: 2,
    retryBackoffMs: 1,
    timeoutMs: 5000,
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      fetches++;
      return fetch(input, init);
    },
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("the call did not fail");
}

/** A refusal before anything was sent: a RequestValidationError at `field`, no fetch, no request. */
async function refused(call: Promise<unknown>, field: string): Promise<Error> {
  const error = await rejection(call);
  expect(error, String(error)).toBeInstanceOf(mod.RequestValidationError);
  expect(error.field).toBe(field);
  expect(fetches).toBe(0);
  expect(server.requests).toHaveLength(0);
  return error;
}

describe("path parameters never change which path is called", () => {
  it("`.`, `..` and empty are refused, naming the parameter; nothing is sent", async () => {
    server.json(200, []);
    for (const [owner, repo, field] of [
      ["..", "r", "params.owner"],
      ["o", "..", "params.repo"],
      [".", "r", "params.owner"],
      ["o", ".", "params.repo"],
      ["", "r", "params.owner"],
      ["o", "", "params.repo"],
    ] as const) {
      const error = await refused(client().issues.list(owner, repo), field);
      expect(error.message).toMatch(
        /^issues\.list: params\.(owner|repo) makes its path segment (empty|`\.`|`\.\.`): the call would reach another path$/,
      );
    }
  });

  it("a first segment cannot climb above the base URL's path prefix", async () => {
    server.json(200, []);
    const c = client({ baseUrl: `${server.url}/api/v1` });
    const error = await refused(c.issues.list("..", ".."), "params.owner");
    expect(error.message).toBe(
      "issues.list: params.owner makes its path segment `..`: the call would reach another path; params.repo makes its path segment `..`: the call would reach another path",
    );
    await c.issues.list("o", "r");
    expect(server.requests.map((r) => r.url)).toEqual(["/api/v1/repos/o/r/issues?sort=created"]);
  });

  it("values that look like dot segments or separators stay one segment, as the caller wrote them", async () => {
    server.json(200, []);
    const values = [
      "%2e",
      "%2E%2E",
      ".%2e",
      "...",
      ". ",
      "a/../b",
      "a\\b",
      "a?b=1",
      "a#b",
      "/",
      "é 🙂",
    ];
    for (const value of values)
      await client({ baseUrl: `${server.url}/api` }).issues.list(value, value);
    expect(server.requests).toHaveLength(values.length);
    server.requests.forEach((request, i) => {
      const segments = request.url.split("?")[0]!.split("/");
      expect(segments).toHaveLength(6);
      expect(segments.slice(0, 3)).toEqual(["", "api", "repos"]);
      expect(segments[5]).toBe("issues");
      expect(decodeURIComponent(segments[3]!)).toBe(values[i]);
      expect(decodeURIComponent(segments[4]!)).toBe(values[i]);
    });
  });

  it("a lone surrogate in a path or query value, or a query credential, is a RequestValidationError, not a URIError", async () => {
    server.json(200, []);
    await refused(client().issues.list("a\ud800", "r"), "params.owner");
    await refused(client().issues.list("o", "r", { state: ["\udc00"] }), "params.state");
    const error = await refused(
      client({ apiKey: "sk_query\ud800_secret" }).charges.create(
        { amount: 5 },
        { "Stripe-Account": "a" },
      ),
      "apiKey",
    );
    expect(inspect(error, { depth: Infinity }) + JSON.stringify(error)).not.toContain("sk_query");
  });
});

describe("pathOf: the segment a value lands in, not the value alone", () => {
  const op = (path: string, trailing?: string[]) =>
    operation(
      JSON.stringify({
        id: "files.get",
        method: "GET",
        path,
        credentials: [],
        headers: {},
        trailing,
      }),
    );
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      return (error as { issues: { path: string }[] }).issues.map((i) => i.path);
    }
    return [];
  };

  it("two values that together make a dot segment are both named; a dot beside text is fine", () => {
    const files = op("/files/{name}.{ext}");
    expect(pathOf(files, { name: "a", ext: "" })).toBe("/files/a.");
    expect(pathOf(files, { name: "..", ext: "json" })).toBe("/files/...json");
    expect(refusal(() => pathOf(files, { name: "", ext: "" }))).toEqual([
      "params.name",
      "params.ext",
    ]);
    expect(refusal(() => pathOf(op("/x/{a}{b}"), { a: ".", b: "." }))).toEqual([
      "params.a",
      "params.b",
    ]);
  });

  it("a catch-all's value is every segment from its own on; each part is held to the rule", () => {
    const files = operation(
      JSON.stringify({
        id: "files.get",
        method: "GET",
        path: "/v1/{bucket}/files/{path}",
        credentials: [],
        headers: {},
        code: ["segments"],
      }),
      pathSegments,
    );
    expect(pathOf(files, { bucket: "b", path: "a/b c/d.txt" })).toBe("/v1/b/files/a/b%20c/d.txt");
    expect(refusal(() => pathOf(files, { bucket: "..", path: "a/../b" }))).toEqual([
      "params.bucket",
      "params.path",
    ]);
    expect(refusal(() => pathOf(files, { bucket: "b", path: "a/b/" }))).toEqual(["params.path"]);
    // without `segments`, the same value is one segment
    expect(pathOf(op("/v1/{bucket}/files/{path}"), { bucket: "b", path: "a/b" })).toBe(
      "/v1/b/files/a%2Fb",
    );
  });

  it("trailing parameters are segments of their own; a template's own trailing slash is no value's", () => {
    const download = op("/v2/files", ["name", "part"]);
    expect(pathOf(download, { name: "a b", part: 2 })).toBe("/v2/files/a%20b/2");
    expect(refusal(() => pathOf(download, { name: "..", part: 2 }))).toEqual(["params.name"]);
    expect(refusal(() => pathOf(download, { name: "a" }))).toEqual(["params.part"]);
    expect(pathOf(op("/v2/things/"), undefined)).toBe("/v2/things/");
  });
});

describe("a catch-all path parameter (`slashes: true`)", () => {
  it("sends its value's slashes as they are, every part between them percent-encoded", async () => {
    server.json(200, { path: "x" });
    const values = ["docs/a b.md", "a?b/c#d", "a%2Fb/c", "é/🙂", "README"];
    for (const value of values) await client().contents.get("o", "r", value);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/repos/o/r/contents/docs/a%20b.md",
      "/repos/o/r/contents/a%3Fb/c%23d",
      "/repos/o/r/contents/a%252Fb/c",
      "/repos/o/r/contents/%C3%A9/%F0%9F%99%82",
      "/repos/o/r/contents/README",
    ]);
  });

  it("refuses a value with an empty, `.` or `..` part, naming it; nothing is sent", async () => {
    server.json(200, { path: "x" });
    for (const value of ["", "/a", "a/", "a//b", "a/../b", "./a", ".."]) {
      const error = await refused(client().contents.get("o", "r", value), "params.path");
      expect(error.message).toMatch(/^contents\.get: params\.path makes its path segment /);
    }
  });

  it("the package's stand-in takes the rest of the path as the value, and answers", async () => {
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn(): { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn();
    const c = client({
      fetch: (input: Request | URL | string, init?: RequestInit) =>
        standIn.fetch(new Request(input, init)),
    });
    await expect(c.contents.get("o", "r", "docs/guide/a b.md")).resolves.toHaveProperty("path");
    expect((await standIn.fetch(new Request("http://s.test/repos/o/r/contents"))).status).toBe(404);
  });
});

describe("header values, header names and credentials fetch would refuse", () => {
  it("a header parameter above U+00FF is refused, naming it: no request reached the server, no retry", async () => {
    server.json(200, []);
    const error = await refused(
      client().issues.list("o", "r", { "If-None-Match": 'W/"\u0100"' }),
      'params["If-None-Match"]',
    );
    expect(error.message).toBe(
      'issues.list: params["If-None-Match"] holds a character above U+00FF, which a header cannot carry',
    );
  });

  it("control characters that fetch refuses (besides CR, LF and NUL) are refused too", async () => {
    server.json(200, []);
    for (const value of ["a\u0001b", "a\u007fb", "a\u001fb"]) {
      const error = await refused(
        client().issues.list("o", "r", { "If-None-Match": value }),
        'params["If-None-Match"]',
      );
      expect(error.message).toContain("holds a control character, which a header cannot carry");
    }
  });

  it("a credential fetch would refuse: named by its option, its value in no error", async () => {
    server.json(201, { number: 1, title: "t" });
    const token = "ghp_secret\u0100token";
    for (const option of [token, async () => token, "ghp_secret\r\ntoken", "ghp_secret\u0007"]) {
      const error = await refused(
        client({ token: option }).issues.create("o", "r", { title: "t" }),
        "token",
      );
      const shown = [
        String(error),
        JSON.stringify(error),
        inspect(error, { depth: Infinity }),
      ].join();
      expect(shown).not.toContain("ghp_secret");
      expect(shown).not.toContain("token\u0100");
    }
  });

  it("the client's and the call's own headers, the idempotency key and a nonce: each named, nothing sent", async () => {
    server.json(200, []);
    await refused(
      client({ headers: { "X-Team": "Ā" } }).issues.list("o", "r"),
      'headers["x-team"]',
    );
    await refused(
      client().issues.list("o", "r", {}, { headers: { "X-Team": "a\nb" } }),
      'options.headers["x-team"]',
    );
    await refused(
      client().issues.list("o", "r", {}, { headers: { "X Team": "a" } }),
      'options.headers["x team"]',
    );
    await refused(
      client().issues.list("o", "r", {}, { idempotencyKey: "k\u2028" }),
      "options.idempotencyKey",
    );
    await refused(client().issues.list("o", "r", {}, { nonce: () => "n\r\n" }), "options.nonce");
    await refused(
      client({ idempotencyHeader: "Idem Key" }).issues.list("o", "r", {}, { idempotencyKey: "k" }),
      "idempotencyHeader",
    );
  });

  it("what fetch takes is still sent as it is: Latin-1, tabs and spaces", async () => {
    server.json(200, []);
    await client({ token: "tök\tén" }).issues.list("o", "r", { "If-None-Match": "café ÿ" });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(
      Buffer.from(request!.headers["if-none-match"] as string, "latin1").toString("latin1"),
    ).toBe("café ÿ");
    expect(request!.headers.authorization).toBe("Bearer tök\tén");
  });
});
