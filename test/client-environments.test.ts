/**
 * The `environment` option (docs/client.md, "Environments"): a spec that gives its
 * environments' addresses makes a client that takes one by name instead of `baseUrl`. Each
 * call's URL is read in the client's own middleware (`onRequest`), and `baseUrl` is checked
 * against a server on 127.0.0.1: nothing here leaves the machine. The types (one of the two
 * is required; an environment without an address is none of them) are checked by TypeScript 7.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript7 } from "./support/typescript.ts";

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

let dir: string;
let out: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;

beforeAll(async () => {
  dir = tempDir("apigen-environments-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  out = join(dir, "pkg");
  await writeGenerated(join(dir, "spec"), out);
  pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
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
    writeFileSync(
      join(out, "src/usage-check.ts"),
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
    );
    const run = runTypeScript(typescript7, [
      "-p",
      join(withRuntimeDeclarations(out), "tsconfig.json"),
    ]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
