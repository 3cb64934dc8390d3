/**
 * The `environment` option (docs/client.md, "Environments"): a spec that gives its
 * environments' addresses makes a client that takes one by name instead of `baseUrl`. Each
 * call's URL is read in the client's own middleware (`onRequest`), and `baseUrl` is checked
 * against a server on 127.0.0.1: nothing here leaves the machine. The types (one of the two
 * is required; an environment without an address is none of them) are checked by TypeScript 6 and 7.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { checkUsage } from "./support/usage-check.ts";

const spec = `api: { name: shop-api, title: Shop, version: 1.0.0, clientName: ShopClient }
environments:
  sandbox: { baseUrl: "https://sandbox.shop.example/v2", description: Test money only. }
  production: { baseUrl: "https://api.shop.example/v2" }
  staging: { description: Not public., undocumented: Its address is not shown. }
credentials:
  apiKey: { in: header, header: X-API-Key }
types:
  Item:
    fields:
      id: { type: string, required: true }
endpoints:
  items.get:
    method: GET
    path: /items/{id}
    auth: [apiKey]
    params: { id: string }
    response: { status: 200, body: Item }
`;

/** Addresses with variables: one the caller must give (the port), one with listed values. */
const tenantSpec = `api: { name: tenant-api, title: Tenant, version: 1.0.0, clientName: TenantClient }
environments:
  local:
    baseUrl: "http://{host}:{port}/{version}"
    variables:
      host: { default: 127.0.0.1, enum: [127.0.0.1, localhost] }
      port: { description: The port the server listens on. }
      version: { default: v1, enum: [v1, v2] }
  fixed: { baseUrl: "https://api.tenant.example" }
endpoints:
  status.get: { method: GET, path: /status, response: { status: 200, body: { fields: { path: string } } } }
`;

let dir: string;
let out: string;
let tenantOut: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tenant: any;

beforeAll(async () => {
  dir = tempDir("apigen-environments-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  out = join(dir, "pkg");
  await writeGenerated(join(dir, "spec"), out);
  pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
  mkdirSync(join(dir, "tenant-spec"));
  writeFileSync(join(dir, "tenant-spec/api.yaml"), tenantSpec);
  tenantOut = join(dir, "tenant");
  await writeGenerated(join(dir, "tenant-spec"), tenantOut);
  tenant = await import(pathToFileURL(join(tenantOut, "src/index.ts")).href);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URL a call of `items.get` goes to, read by middleware before anything is sent. */
async function urlOf(options: Record<string, unknown>): Promise<string> {
  let seen = "";
  const stop = new Error("stopped before sending");
  const client = new pkg.ShopClient({
    apiKey: "k",
    maxRetries: 0,
    middleware: pkg.withMiddleware({
      onRequest: ({ request }: { request: Request }) => {
        seen = request.url;
        throw stop;
      },
    }),
    ...options,
  });
  await expect(client.items.get("it_1")).rejects.toBeDefined();
  return seen;
}

describe("a spec that gives its environments' addresses", () => {
  it("exports them by name, the environments without an address left out", () => {
    expect(pkg.ShopEnvironments).toEqual({
      sandbox: "https://sandbox.shop.example/v2",
      production: "https://api.shop.example/v2",
    });
  });

  it("makes a client that sends to the environment it names", async () => {
    expect(await urlOf({ environment: "sandbox" })).toBe(
      "https://sandbox.shop.example/v2/items/it_1",
    );
    expect(await urlOf({ environment: "production" })).toBe(
      "https://api.shop.example/v2/items/it_1",
    );
  });

  it("takes baseUrl instead, which wins over an environment (a proxy in front of it)", async () => {
    const server = createServer((_, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"id":"it_1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const options of [{ baseUrl }, { baseUrl, environment: "production" }]) {
        const client = new pkg.ShopClient({ apiKey: "k", ...options });
        expect(await client.items.get("it_1")).toEqual({ id: "it_1" });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses neither, and a name the spec gives no address for, naming the environments", () => {
    const made = (options: object) => () => new pkg.ShopCore(options);
    expect(made({})).toThrow(
      expect.objectContaining({
        name: "ClientOptionsError",
        message: "baseUrl or environment (sandbox, production) is required",
      }),
    );
    expect(made({ environment: "staging" })).toThrow(
      expect.objectContaining({
        name: "ClientOptionsError",
        option: "environment",
        message: "environment is none of the API's: sandbox, production",
      }),
    );
  });

  it("types the option: one of baseUrl or environment, an environment with an address", () => {
    // the package's README makes its client with the first environment, and that compiles too
    const readme = readFileSync(join(out, "README.md"), "utf8");
    const made = /^const client = new ShopClient\(.*\);$/m.exec(readme)?.[0];
    expect(made).toBe('const client = new ShopClient({ environment: "sandbox", apiKey: "…" });');
    for (const run of checkUsage(
      out,
      "usage-check.ts",
      [
        'import { ShopClient, ShopCore, ShopEnvironments } from "./index.js";',
        'import type { ShopClientOptions, ShopClientSettings } from "./index.js";',
        'export const a = new ShopClient({ environment: "sandbox", apiKey: "k" });',
        'export const b = new ShopCore({ baseUrl: "http://127.0.0.1:1" });',
        'export const url: "https://api.shop.example/v2" = ShopEnvironments.production;',
        "// options kept in a variable of the options' type, and settings extended, as before",
        'export const options: ShopClientOptions = { environment: "production", apiKey: "k" };',
        "export const c = new ShopClient(options);",
        "export interface Mine extends ShopClientSettings { region?: string }",
        "// @ts-expect-error one of baseUrl or environment is required",
        'export const none: ShopClientOptions = { apiKey: "k" };',
        "// @ts-expect-error staging's address is not in the spec",
        'export const d = new ShopClient({ environment: "staging" });',
        `export ${made}`,
        "",
      ].join("\n"),
    )) {
      expect(run.output, run.compiler).toBe("");
      expect(run.status, run.compiler).toBe(0);
    }
  });
});

describe("an environment whose address has variables (OpenAPI's server variables)", () => {
  it("fills them from serverVariables, else their defaults, and calls the address they make", async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((server.address() as AddressInfo).port);
      const client = new tenant.TenantClient({ environment: "local", serverVariables: { port } });
      expect(await client.status.get()).toEqual({ path: "/v1/status" });
      const v2 = new tenant.TenantClient({
        environment: "local",
        serverVariables: { port, version: "v2", host: "127.0.0.1" },
      });
      expect(await v2.status.get()).toEqual({ path: "/v2/status" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses a missing value, one not listed, one that would move the host, and a name it does not have", () => {
    const made = (serverVariables?: object) => () =>
      new tenant.TenantCore({ environment: "local", serverVariables });
    const refused = (message: string) =>
      expect.objectContaining({ name: "ClientOptionsError", option: "serverVariables", message });
    expect(made()).toThrow(
      refused(
        "serverVariables needs port: environment local's address has it, and it has no default",
      ),
    );
    expect(made({ port: "1", version: "v3" })).toThrow(
      refused('serverVariables version must be one of v1, v2, not "v3"'),
    );
    expect(made({ port: "1@evil.example" })).toThrow(
      refused(
        'serverVariables port "1@evil.example" is not a host name\'s letters, digits, dots and hyphens',
      ),
    );
    expect(made({ port: "1", region: "eu" })).toThrow(
      refused(
        "serverVariables names region, which is no variable of environment local (host, port, version)",
      ),
    );
    // an environment without variables, and baseUrl, read none
    expect(() => new tenant.TenantCore({ environment: "fixed" })).not.toThrow();
    expect(
      () => new tenant.TenantCore({ baseUrl: "http://127.0.0.1:1", serverVariables: { x: "y" } }),
    ).not.toThrow();
  });

  it("types serverVariables per environment: required where a variable has no default, listed values as literals", () => {
    const readme = readFileSync(join(tenantOut, "README.md"), "utf8");
    const made = /^const client = new TenantClient\(.*\);$/m.exec(readme)?.[0];
    expect(made).toBe(
      'const client = new TenantClient({ environment: "local", serverVariables: { port: "…" } });',
    );
    for (const run of checkUsage(
      tenantOut,
      "usage-check.ts",
      [
        'import { TenantClient } from "./index.js";',
        'export const a = new TenantClient({ environment: "local", serverVariables: { port: "8080" } });',
        'export const b = new TenantClient({ environment: "fixed" });',
        "// @ts-expect-error port has no default: local needs serverVariables",
        'export const c = new TenantClient({ environment: "local" });',
        "// @ts-expect-error v3 is none of version's values",
        'export const d = new TenantClient({ environment: "local", serverVariables: { port: "1", version: "v3" } });',
        `export ${made}`,
        "",
      ].join("\n"),
    )) {
      expect(run.output, run.compiler).toBe("");
      expect(run.status, run.compiler).toBe(0);
    }
  });

  it("writes them into the OpenAPI document's server, a variable without a default marked", () => {
    const document = JSON.parse(readFileSync(join(tenantOut, "openapi.json"), "utf8"));
    expect(document.servers[0]).toEqual({
      url: "http://{host}:{port}/{version}",
      variables: {
        host: { default: "127.0.0.1", enum: ["127.0.0.1", "localhost"] },
        port: {
          default: "port",
          "x-apigen-description": "The port the server listens on.",
          "x-apigen-required": true,
        },
        version: { default: "v1", enum: ["v1", "v2"] },
      },
      "x-environment": "local",
    });
  });
});
