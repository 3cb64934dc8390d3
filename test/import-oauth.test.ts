/**
 * OAuth 2.0 and OpenID Connect security schemes imported (docs/openapi-documents.md): flows
 * with their URLs and scopes, an OpenID Connect provider, the scopes each operation asks, the
 * defects real documents have (scopes asked that no flow grants, scopes that differ between
 * alternatives, flows without their URLs, a scope that is no scope token), and the package
 * generated from what import wrote, with the same schemes in its OpenAPI document.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

const scratch = tempDir("apigen-import-oauth-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");

let count = 0;
/** The spec folder import writes for `doc`, read back, and the model generate builds from it. */
function imported(doc: Record<string, unknown>) {
  const dir = join(scratch, String(++count));
  const input = join(scratch, `${count}.json`);
  writeFileSync(
    input,
    JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1.0.0" }, ...doc }),
  );
  const result = importSpec({ input, outSpec: dir, schemaFile });
  writeSpecFolder(dir, result.files);
  const read = (path: string) => parse(readFileSync(join(dir, path), "utf8"));
  // throws on an error: whatever import writes, generate accepts
  const { model, warnings } = loadApiModel({ specDir: dir });
  expect(warnings).toEqual([]);
  return { read, model, gaps: model.gaps.map((g) => g.text.replace(/ \(import: .*\)$/, "")) };
}

const ordersPath = (security: unknown[]) => ({
  "/orders": { get: { security, responses: { "200": { description: "ok" } } } },
});

describe("OAuth security schemes as credentials", () => {
  it("carries every flow with its URLs and scopes, and each operation's scopes", () => {
    const { read, model, gaps } = imported({
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: {
              clientCredentials: { tokenUrl: "oauth/token", scopes: { read: "Read." } },
              authorizationCode: {
                authorizationUrl: "https://a.example.com/authorize",
                tokenUrl: "https://a.example.com/token",
                refreshUrl: "https://a.example.com/token",
                scopes: { read: "Read.", write: "Write." },
              },
            },
          },
          oidc: {
            type: "openIdConnect",
            openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration",
          },
          key: { type: "apiKey", in: "header", name: "X-Key" },
        },
      },
      paths: ordersPath([{ oauth: ["read", "write"] }, { oauth: ["read", "write"], key: [] }]),
    });
    expect(read("api.yaml").credentials).toEqual({
      oauth: {
        in: "oauth2",
        flows: {
          // a relative URL without its leading slash gets one, as a path key does
          clientCredentials: { tokenUrl: "/oauth/token", scopes: { read: "Read." } },
          authorizationCode: {
            authorizationUrl: "https://a.example.com/authorize",
            tokenUrl: "https://a.example.com/token",
            refreshUrl: "https://a.example.com/token",
            scopes: { read: "Read.", write: "Write." },
          },
        },
      },
      oidc: { in: "openIdConnect", url: "https://id.example.com/.well-known/openid-configuration" },
      key: { in: "header", header: "X-Key" },
    });
    // the set within the larger one is required, the rest optional: nothing noted
    const endpoint = model.endpoints[0]!;
    expect([endpoint.auth, endpoint.optionalAuth, endpoint.authScopes]).toEqual([
      ["oauth", "key"],
      ["key"],
      { oauth: ["read", "write"] },
    ]);
    expect(gaps).toEqual([]);
  });

  it("declares the scopes operations ask and no flow grants, noted once on the credential", () => {
    const { read, model, gaps } = imported({
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: { implicit: { authorizationUrl: "/authorize", scopes: { read: "Read." } } },
          },
        },
      },
      paths: {
        ...ordersPath([{ oauth: ["read", "orders:list"] }]),
        "/items": {
          get: {
            security: [{ oauth: ["items:list"] }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(read("api.yaml").credentials.oauth.flows.implicit.scopes).toEqual({
      read: "Read.",
      "orders:list": "",
      "items:list": "",
    });
    expect(model.endpoints.map((e) => [e.path, e.authScopes])).toEqual([
      ["/items", { oauth: ["items:list"] }],
      ["/orders", { oauth: ["read", "orders:list"] }],
    ]);
    expect(gaps).toEqual([
      "scopes operations ask that no flow granted, added to its flows: orders:list, items:list",
    ]);
  });

  it("keeps what every alternative asks, and notes alternatives that differ (Google's)", () => {
    const { model, gaps } = imported({
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: { implicit: { authorizationUrl: "/a", scopes: { all: "", read: "", cal: "" } } },
          },
        },
      },
      paths: ordersPath([{ oauth: ["cal", "all"] }, { oauth: ["cal", "read"] }]),
    });
    expect(model.endpoints[0]!.authScopes).toEqual({ oauth: ["cal"] });
    expect(model.endpoints[0]!.optionalAuth).toEqual([]);
    expect(gaps).toEqual([
      "alternative scopes of oauth: cal all | cal read; those all of them ask are kept",
    ]);
  });

  it("leaves out what the spec format would refuse, noted; with no flow left, a bearer token", () => {
    const { read, gaps } = imported({
      components: {
        securitySchemes: {
          partly: {
            type: "oauth2",
            flows: {
              password: { tokenUrl: "https://t.example.com/token", scopes: { 'a"b': "", ok: "" } },
              clientCredentials: { tokenUrl: "#environment-specific", scopes: {} },
            },
          },
          none: { type: "oauth2", flows: { authorizationCode: { tokenUrl: "/t", scopes: {} } } },
          provider: { type: "openIdConnect" },
        },
      },
      paths: ordersPath([{ partly: ["ok"] }]),
    });
    const credentials = read("api.yaml").credentials;
    expect(credentials.partly.flows).toEqual({
      password: { tokenUrl: "https://t.example.com/token", scopes: { ok: "" } },
    });
    expect(credentials.none).toMatchObject({
      in: "header",
      header: "Authorization",
      scheme: "Bearer",
    });
    expect(credentials.provider).toMatchObject({ in: "header", scheme: "Bearer" });
    expect(gaps.sort()).toEqual(
      [
        'scope "a\\"b" is no scope token (RFC 6749 section 3.3); left out',
        'tokenUrl "#environment-specific" is no URL; left out',
        "OAuth flow clientCredentials without tokenUrl; left out",
        "OAuth flow authorizationCode without authorizationUrl; left out",
        "oauth2 security scheme without a usable flow or provider; its token is sent as a bearer token, how it is obtained is not carried",
        "no openIdConnectUrl",
        "openIdConnect security scheme without a usable flow or provider; its token is sent as a bearer token, how it is obtained is not carried",
      ].sort(),
    );
  });

  it("requirements of the same schemes plus a different one each are anyOf, nothing noted (Okta's)", () => {
    const { read, model, gaps } = imported({
      components: {
        securitySchemes: {
          apiToken: { type: "apiKey", in: "header", name: "Authorization" },
          oauth: {
            type: "oauth2",
            flows: { implicit: { authorizationUrl: "/a", scopes: { "users.read": "" } } },
          },
          tenant: { type: "apiKey", in: "header", name: "X-Tenant" },
        },
      },
      paths: ordersPath([
        { tenant: [], apiToken: [] },
        { tenant: [], oauth: ["users.read"] },
      ]),
    });
    expect(read("endpoints/orders.yaml").endpoints["orders.get"].auth).toEqual([
      "tenant",
      { anyOf: ["apiToken", { credential: "oauth", scopes: ["users.read"] }] },
    ]);
    const endpoint = model.endpoints[0]!;
    expect([endpoint.optionalAuth, endpoint.authAnyOf]).toEqual([
      ["apiToken", "oauth"],
      ["apiToken", "oauth"],
    ]);
    expect(gaps).toEqual([]);
  });

  it("an alternative asking every scope another asks and more is needless, nothing noted (3GPP's)", () => {
    const { model, gaps } = imported({
      components: {
        securitySchemes: {
          oauth: {
            type: "oauth2",
            flows: { clientCredentials: { tokenUrl: "/t", scopes: { nfm: "", "nfm:write": "" } } },
          },
        },
      },
      paths: ordersPath([{ oauth: ["nfm"] }, { oauth: ["nfm", "nfm:write"] }, { oauth: ["nfm"] }]),
    });
    expect([model.endpoints[0]!.auth, model.endpoints[0]!.authScopes]).toEqual([
      ["oauth"],
      { oauth: ["nfm"] },
    ]);
    expect(gaps).toEqual([]);
  });

  it("carries OpenAPI 3.2's device flow, which apigen's 3.1 document names x-apigen-device-authorization, back and forth", async () => {
    const device = {
      deviceAuthorizationUrl: "https://id.example.com/device",
      tokenUrl: "https://id.example.com/token",
      scopes: { read: "Read." },
    };
    const { read } = imported({
      openapi: "3.2.0",
      components: {
        securitySchemes: { tv: { type: "oauth2", flows: { deviceAuthorization: device } } },
      },
      paths: ordersPath([{ tv: ["read"] }]),
    });
    expect(read("api.yaml").credentials.tv).toEqual({
      in: "oauth2",
      flows: { deviceAuthorization: device },
    });
    const out = join(scratch, "device-package");
    await writeGenerated(join(scratch, String(count)), out);
    const document = JSON.parse(readFileSync(join(out, "openapi.json"), "utf8"));
    expect(document.components.securitySchemes.tv.flows).toEqual({
      "x-apigen-device-authorization": device,
    });
    const again = importSpec({
      input: join(out, "openapi.json"),
      outSpec: join(scratch, "device-again"),
      schemaFile,
    });
    writeSpecFolder(join(scratch, "device-again"), again.files);
    const api = parse(readFileSync(join(scratch, "device-again", "api.yaml"), "utf8"));
    expect(api.credentials.tv.flows).toEqual({ deviceAuthorization: device });
  });

  it("scopes of a scheme that is no OAuth one are noted, not carried", () => {
    const { model, gaps } = imported({
      components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
      paths: ordersPath([{ key: ["admin"] }]),
    });
    expect(model.endpoints[0]!.authScopes).toBeUndefined();
    expect(gaps).toEqual(["scopes of key: admin"]);
  });
});
