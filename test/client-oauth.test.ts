/**
 * OAuth 2.0 credentials (test/fixtures/features/oauth) in the generated package, on
 * 127.0.0.1: `oauthClientCredentials` asks the package's stand-in for a token by the
 * client-credentials grant and the calls carry it; one token serves calls until it is due
 * for renewal, calls made while one is asked for wait for that one request; the token
 * endpoint's refusals are TokenRequestErrors with the OAuth error and never the secret; and
 * the options it cannot work with are refused before anything is sent.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { TestServer } from "./support/test-server.ts";
import { runTypeScript, typescript7 } from "./support/typescript.ts";

const out = tempDir("apigen-client-oauth-");
let running: { url: string; close(): Promise<void> };
let index: any; // typed by the generated package, which exists only once this test made it
let testing: any;
let server: TestServer;
const log: string[] = [];
const secret = "s3cr3t-client-secret";

beforeAll(async () => {
  await writeGenerated("test/fixtures/features/oauth", out);
  const load = (path: string) => import(pathToFileURL(join(out, path)).href);
  [index, testing] = await Promise.all([load("src/index.ts"), load("src/testing.ts")]);
  running = await testing.listen(
    testing.createStandIn({
      keys: { oauth: { valid: ["issued-token"] } },
      log: (line: string) => log.push(line),
    }),
  );
  server = await TestServer.start();
}, 60_000);
afterAll(async () => {
  await running.close();
  await server.stop();
  rmSync(out, { recursive: true, force: true });
});

const rejection = async (promise: Promise<unknown>): Promise<any> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("it did not fail");
};

describe("a token by the client-credentials grant, from the package's stand-in", () => {
  it("asks the spec's token URL under baseUrl once, and every call carries the token", async () => {
    log.length = 0;
    const oauth = index.oauthClientCredentials({
      clientId: "app",
      clientSecret: secret,
      scopes: ["orders:read"],
      baseUrl: running.url,
    });
    const client = new index.OAuthClient({ baseUrl: running.url, oauth, maxRetries: 0 });
    const [orders, again] = await Promise.all([client.orders.list(), client.orders.list()]);
    expect(Array.isArray(orders) && Array.isArray(again)).toBe(true);
    await client.orders.list();
    expect(log.filter((line) => line.startsWith("POST /oauth/token"))).toEqual([
      "POST /oauth/token -> 200",
    ]);
    expect(log.filter((line) => line.startsWith("GET /orders"))).toEqual(
      Array(3).fill("GET /orders -> 200"),
    );
  });

  it("the stand-in refuses a token it did not issue, so the token is what made the calls pass", async () => {
    const client = new index.OAuthClient({ baseUrl: running.url, oauth: "forged", maxRetries: 0 });
    expect((await rejection(client.orders.list())).status).toBe(401);
  });

  it("a scope the flow does not grant is the stand-in's invalid_scope, a TokenRequestError", async () => {
    const oauth = index.oauthClientCredentials({
      clientId: "app",
      clientSecret: secret,
      scopes: ["orders:delete"],
      baseUrl: running.url,
    });
    const client = new index.OAuthClient({ baseUrl: running.url, oauth, maxRetries: 0 });
    const error = await rejection(client.orders.list());
    expect(error).toBeInstanceOf(index.TokenRequestError);
    expect([error.status, error.error]).toEqual([400, "invalid_scope"]);
    expect(error.message).toBe(
      "the token endpoint answered 400: invalid_scope (not a scope of the flow: orders:delete)",
    );
  });
});

describe("the stand-in's token endpoint refuses as an OAuth server does", () => {
  const ask = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(`${running.url}/oauth/token`, { method: "POST", body, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const basic = { ...form, authorization: `Basic ${btoa("app:secret")}` };

  it.each([
    [
      "a body that is no form",
      "{}",
      { ...basic, "content-type": "application/json" },
      400,
      "invalid_request",
    ],
    ["no grant_type", "scope=orders%3Aread", basic, 400, "invalid_request"],
    ["another grant", "grant_type=password", basic, 400, "unsupported_grant_type"],
    ["no client authentication", "grant_type=client_credentials", form, 401, "invalid_client"],
    [
      "a client id without its secret",
      "grant_type=client_credentials&client_id=app",
      form,
      401,
      "invalid_client",
    ],
  ])("%s: %s", async (_what, body, headers, status, error) => {
    const answer = await ask(body, headers);
    expect([answer.status, answer.body.error]).toEqual([status, error]);
    expect(answer.body.error_description).toEqual(expect.any(String));
  });

  it("client_id and client_secret in the form will do, and the token is the listed key", async () => {
    const answer = await ask("grant_type=client_credentials&client_id=app&client_secret=s", form);
    expect(answer).toEqual({
      status: 200,
      body: { access_token: "issued-token", token_type: "Bearer", expires_in: 3600 },
    });
  });
});

describe("the token endpoint as a server writes it", () => {
  const tokenAnswer = (body: unknown) =>
    server.respond((request, response) => {
      if (request.url === "/oauth/token") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end("[]");
      }
    });
  const clientWith = (options: Record<string, unknown>) =>
    new index.OAuthClient({
      baseUrl: server.url,
      maxRetries: 0,
      oauth: index.oauthClientCredentials({
        clientId: "app id",
        clientSecret: secret,
        baseUrl: server.url,
        ...options,
      }),
    });

  it("sends the grant as a form, the client by HTTP basic of its form-encoded id and secret", async () => {
    tokenAnswer({ access_token: "t1", token_type: "bearer", expires_in: 3600 });
    await clientWith({ scopes: ["orders:read", "orders:write"] }).orders.list();
    const [asked, call] = server.requests;
    expect(asked!.method).toBe("POST");
    expect(asked!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(asked!.body).toBe("grant_type=client_credentials&scope=orders%3Aread%20orders%3Awrite");
    const basic = Buffer.from(`app%20id:${secret}`).toString("base64");
    expect(asked!.headers.authorization).toBe(`Basic ${basic}`);
    expect(call!.headers.authorization).toBe("Bearer t1");
  });

  it("authMethod body puts client_id and client_secret in the form instead", async () => {
    tokenAnswer({ access_token: "t2", token_type: "Bearer" });
    await clientWith({ authMethod: "body" }).orders.list();
    const [asked] = server.requests;
    expect(asked!.headers.authorization).toBeUndefined();
    expect(asked!.body).toBe(
      `grant_type=client_credentials&client_id=app%20id&client_secret=${secret}`,
    );
  });

  it("asks again once the token is due for renewal, not before", async () => {
    tokenAnswer({ access_token: "t3", token_type: "Bearer", expires_in: 30 });
    const client = clientWith({ refreshLeewaySeconds: 30 });
    await client.orders.list();
    await client.orders.list();
    const asked = () => server.requests.filter((r) => r.url === "/oauth/token").length;
    expect(asked()).toBe(2); // expires_in within the leeway: every call asks again
    tokenAnswer({ access_token: "t4", token_type: "Bearer", expires_in: 3600 });
    const kept = clientWith({});
    await kept.orders.list();
    await kept.orders.list();
    expect(asked()).toBe(1);
  });

  it("invalidate() drops the token, so the next call asks for another", async () => {
    tokenAnswer({ access_token: "t5", token_type: "Bearer" });
    const oauth = index.oauthClientCredentials({
      clientId: "app",
      clientSecret: secret,
      baseUrl: server.url,
    });
    const client = new index.OAuthClient({ baseUrl: server.url, oauth, maxRetries: 0 });
    await client.orders.list();
    oauth.invalidate();
    await client.orders.list();
    expect(server.requests.filter((r) => r.url === "/oauth/token")).toHaveLength(2);
  });

  it("a refusal is a TokenRequestError with the OAuth error, the secret redacted where echoed", async () => {
    server.respond((_request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: "invalid_client", error_description: `bad secret ${secret}` }),
      );
    });
    const error = await rejection(clientWith({}).orders.list());
    expect(error).toBeInstanceOf(index.TokenRequestError);
    expect([error.status, error.error]).toEqual([401, "invalid_client"]);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(error.message).not.toContain(secret);
    expect(server.requests.map((r) => r.url)).toEqual(["/oauth/token"]); // the API was not called
  });

  it("an answer without a bearer access token is refused", async () => {
    tokenAnswer({ token_type: "Bearer" });
    expect((await rejection(clientWith({}).orders.list())).message).toBe(
      "the token endpoint's answer holds no access_token",
    );
    tokenAnswer({ access_token: "m", token_type: "mac" });
    expect((await rejection(clientWith({}).orders.list())).message).toBe(
      'the token endpoint gave a "mac" token, not a bearer token',
    );
  });

  it("a redirect is refused: the secret goes to the token URL only", async () => {
    server.respond((_request, response) => {
      response.writeHead(307, { location: "https://elsewhere.invalid/token" });
      response.end();
    });
    const error = await rejection(clientWith({}).orders.list());
    expect([error.name, error.status]).toEqual(["TokenRequestError", 0]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("options the grant cannot work with, refused when it is made", () => {
  const make = (options: Record<string, unknown>) => () =>
    index.oauthClientCredentials({ clientId: "app", clientSecret: secret, ...options });
  it.each([
    [{ baseUrl: undefined }, "tokenUrl is relative and needs baseUrl"],
    [
      { tokenUrl: "http://auth.example.com/token" },
      "tokenUrl must be an https: URL (http: only to localhost), so the client secret is never sent in the clear",
    ],
    [
      { tokenUrl: "https://user:pw@auth.example.com/token" },
      "tokenUrl has a user name, password or fragment",
    ],
    [{ clientSecret: "" }, "clientSecret is required"],
    [
      { tokenUrl: "https://{shortCode}.example.com/token" },
      "tokenUrl holds the template variable {shortCode}: pass the token URL with its values filled in",
    ],
  ])("%j", (options, message) => {
    expect(make(options)).toThrow(message);
    try {
      make(options)();
    } catch (error) {
      expect(error).toBeInstanceOf(index.ClientOptionsError);
      expect(String(error)).not.toContain(secret);
    }
  });
});

describe("credentials any one of which will do (`anyOf`: an API key or a token)", () => {
  const clientWith = (credentials: Record<string, unknown>, baseUrl = server.url) =>
    new index.OAuthClient({ baseUrl, maxRetries: 0, ...credentials });
  const answered = () =>
    server.respond((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "o1", item: "pen" }));
    });

  it("sends the first the client has, and only that one", async () => {
    answered();
    await clientWith({ apiKey: "k1", oauth: "t1" }).orders.get("o1");
    await clientWith({ oauth: "t2" }).orders.get("o1");
    expect(server.requests.map((r) => [r.headers["x-api-key"], r.headers.authorization])).toEqual([
      ["k1", undefined],
      [undefined, "Bearer t2"],
    ]);
  });

  it("with none of them, the call is a MissingCredentialError naming each, nothing sent", async () => {
    answered();
    const error = await rejection(clientWith({}).orders.get("o1"));
    expect(error).toBeInstanceOf(index.MissingCredentialError);
    expect(error.message).toBe(
      "orders.get needs the apiKey or oauth or partner option (sent as X-API-Key or Authorization), and the client has none",
    );
    expect(server.requests).toEqual([]);
  });

  it("the stand-in refuses a call with none of them, and takes either", async () => {
    const raw = (headers: Record<string, string>) =>
      fetch(`${running.url}/orders/o1`, { headers }).then((r) => r.status);
    expect(await raw({})).toBe(401);
    expect(await raw({ "x-api-key": "any" })).toBe(200);
    expect(await raw({ authorization: "Bearer issued-token" })).toBe(200);
    expect(await raw({ authorization: "Bearer forged" })).toBe(401);
  });
});

describe("a token URL with template variables (`https://{region}.auth.example.com/token`)", () => {
  it("makes tokenUrl a required option of its maker, for the compiler", () => {
    const consumer = join(out, "template-consumer.ts");
    const call = (options: string) =>
      `partnerClientCredentials({ clientId: "a", clientSecret: "b"${options} });`;
    writeFileSync(
      consumer,
      [
        'import { partnerClientCredentials } from "./src/index.js";',
        call(', tokenUrl: "https://eu.auth.example.com/token"'),
        "// @ts-expect-error the token URL has template variables: the caller gives it",
        call(""),
      ].join("\n"),
    );
    const flags = ["--ignoreConfig", "--noEmit", "--strict", "--module", "nodenext"];
    const more = ["--target", "es2022", "--skipLibCheck", "--allowImportingTsExtensions"];
    const run = runTypeScript(typescript7, [...flags, ...more, consumer]);
    expect(run.stdout + run.stderr).toBe("");
  });

  it("is not served by the stand-in, and the maker refuses it unfilled at run time", async () => {
    expect(() =>
      index.clientCredentials({
        clientId: "a",
        clientSecret: "b",
        tokenUrl: "https://{region}.x/t",
      }),
    ).toThrow("tokenUrl holds the template variable {region}");
    const status = await fetch(`${running.url}/token`, { method: "POST" }).then((r) => r.status);
    expect(status).toBe(404);
  });
});

/**
 * Sakari's document declares its token endpoint as an operation that takes JSON
 * (`POST /oauth2/token`, `{ grant_type, client_id, client_secret }`): a sweep's package asked
 * its own stand-in for a token in RFC 6749's form and that endpoint's route refused it (400).
 */
describe("a token endpoint the spec declares as an endpoint taking JSON (Sakari's)", () => {
  const spec = `api: { name: sms-api, title: SMS, version: 1.0.0, clientName: SmsClient }
credentials:
  sakariAuth:
    in: oauth2
    flows: { clientCredentials: { tokenUrl: /oauth2/token, scopes: {} } }
types:
  TokenRequest:
    fields:
      grant_type: { const: client_credentials, required: true }
      client_id: { type: string, required: true }
      client_secret: { type: string, required: true }
  TokenResponse:
    fields:
      access_token: { type: string, required: true }
      token_type: { const: Bearer, required: true }
      expires_in: integer
  Campaign:
    fields:
      id: { type: string, required: true }
endpoints:
  auth.token:
    method: POST
    path: /oauth2/token
    body: TokenRequest
    response: { status: 200, body: TokenResponse }
  campaigns.list:
    method: GET
    path: /campaigns
    auth: [sakariAuth]
    response: { status: 200, body: "Campaign[]" }
`;
  const dir = tempDir("apigen-client-oauth-json-");
  let sms: any;
  let smsTesting: any;
  beforeAll(async () => {
    writeFileSync(join(dir, "api.yaml"), spec);
    await writeGenerated(dir, join(dir, "pkg"));
    sms = await import(pathToFileURL(join(dir, "pkg/src/index.ts")).href);
    smsTesting = await import(pathToFileURL(join(dir, "pkg/src/testing.ts")).href);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sends the grant as that JSON, the client's id and secret in it", async () => {
    server.respond((request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        request.url === "/oauth2/token"
          ? JSON.stringify({ access_token: "j1", token_type: "Bearer", expires_in: 3600 })
          : "[]",
      );
    });
    const sakariAuth = sms.sakariAuthClientCredentials({
      clientId: "app",
      clientSecret: secret,
      baseUrl: server.url,
    });
    await new sms.SmsClient({ baseUrl: server.url, sakariAuth, maxRetries: 0 }).campaigns.list();
    const [asked, call] = server.requests;
    expect(asked!.headers["content-type"]).toBe("application/json");
    expect(asked!.headers.authorization).toBeUndefined();
    expect(JSON.parse(asked!.body)).toEqual({
      grant_type: "client_credentials",
      client_id: "app",
      client_secret: secret,
    });
    expect(call!.headers.authorization).toBe("Bearer j1");
  });

  it("gets its token from the package's own stand-in, which reads that JSON", async () => {
    // the listed key is the token the stand-in's token endpoint gives, and the one it takes
    const keys = { sakariAuth: { valid: ["issued-json-token"] } };
    const standIn = await smsTesting.listen(smsTesting.createStandIn({ keys }));
    try {
      const sakariAuth = sms.sakariAuthClientCredentials({
        clientId: "app",
        clientSecret: secret,
        baseUrl: standIn.url,
      });
      const client = new sms.SmsClient({ baseUrl: standIn.url, sakariAuth, maxRetries: 0 });
      expect(Array.isArray(await client.campaigns.list())).toBe(true);
      expect(await sakariAuth()).toBe("issued-json-token");
      // the form RFC 6749 writes is refused there, saying why
      const form = await fetch(`${standIn.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=a&client_secret=b",
      });
      expect(form.status).toBe(400);
      expect(await form.json()).toMatchObject({
        error: "invalid_request",
        error_description: "the body is not a JSON object (the spec's token endpoint takes JSON)",
      });
    } finally {
      await standIn.close();
    }
  });
});
