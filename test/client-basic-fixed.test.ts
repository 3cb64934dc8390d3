/**
 * HTTP basic credentials of which the API fixes one half (`in: basic` with `username` or
 * `password`): Mailgun's user name `api` with the key as the password, Stripe's key as the
 * user name with no password. The client's option is the other half alone; what it sends is
 * read by a server on 127.0.0.1. The OpenAPI document carries the fixed half
 * (`x-apigen-username`, `x-apigen-password`) and import reads it back; a spec that fixes both
 * halves, or fixes one on another kind of credential, is told at the key.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec } from "../generator/import/import.ts";
import { repoRoot, runCli, tempDir, writeGenerated } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript7 } from "./support/typescript.ts";

const spec = `api: { name: mail-api, title: Mail, version: 1.0.0, clientName: MailClient }
credentials:
  mailgun: { in: basic, username: api, description: The API key is the password. }
  secretKey: { in: basic, password: "", description: The secret key is the user name. }
types:
  Domain:
    fields:
      name: { type: string, required: true }
endpoints:
  domains.get:
    method: GET
    path: /v4/domains/{name}
    auth: [mailgun]
    params: { name: string }
    response: { status: 200, body: Domain }
  charges.get:
    method: GET
    path: /v1/charges/{id}
    auth: [secretKey]
    params: { id: string }
    response: { status: 200, body: Domain }
`;

let dir: string;
let out: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
let baseUrl: string;
const seen: IncomingHttpHeaders[] = [];
const server = createServer((req, res) => {
  seen.push(req.headers);
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"name":"d"}');
});

beforeAll(async () => {
  dir = tempDir("apigen-basic-fixed-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  out = join(dir, "pkg");
  await writeGenerated(join(dir, "spec"), out);
  pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString("base64")}`;

describe("a basic credential of which the API fixes a half", () => {
  it("sends the fixed user name with the option as the password (Mailgun's api:<key>)", async () => {
    seen.length = 0;
    await new pkg.MailClient({ baseUrl, mailgun: "key-3ax6" }).domains.get("mg.example.com");
    // a function giving the key, called per call, as for any credential
    await new pkg.MailClient({ baseUrl, mailgun: async () => "key-rotated" }).domains.get("d");
    expect(seen.map((h) => h.authorization)).toEqual([
      basic("api:key-3ax6"),
      basic("api:key-rotated"),
    ]);
  });

  it("sends the option as the user name with the fixed password (Stripe's <key>:)", async () => {
    seen.length = 0;
    await new pkg.MailClient({ baseUrl, secretKey: "sk_test_4eC39" }).charges.get("ch_1");
    expect(seen[0]!.authorization).toBe(basic("sk_test_4eC39:"));
  });

  it("is taken by the package's stand-in, whose keys are the pairs it sends", async () => {
    const testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
    const keys = { mailgun: { valid: ["api:key-1"] } };
    const standIn = await testing.listen(testing.createStandIn({ keys }));
    try {
      const good = new pkg.MailClient({ baseUrl: standIn.url, mailgun: "key-1", maxRetries: 0 });
      expect(await good.domains.get("d")).toBeDefined();
      const bad = new pkg.MailClient({ baseUrl: standIn.url, mailgun: "key-2", maxRetries: 0 });
      await expect(bad.domains.get("d")).rejects.toMatchObject({ status: 401 });
    } finally {
      await standIn.close();
    }
  });

  it("types the option as a string (or a function giving one), not a pair", () => {
    writeFileSync(
      join(out, "src/usage-check.ts"),
      [
        'import { MailClient } from "./index.js";',
        'export const a = new MailClient({ baseUrl: "http://127.0.0.1", mailgun: "k", secretKey: () => "s" });',
        "// @ts-expect-error the user name is the spec's: the option is the password alone",
        'export const b = new MailClient({ baseUrl: "http://127.0.0.1", mailgun: { username: "api", password: "k" } });',
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

  it("goes through the package's OpenAPI document and back", () => {
    const imported = importSpec({
      input: join(out, "openapi.json"),
      outSpec: join(dir, "again"),
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    const api = parse(imported.files.find((f) => f.path === "api.yaml")!.text);
    expect(api.credentials.mailgun).toMatchObject({ in: "basic", username: "api" });
    expect(api.credentials.secretKey).toMatchObject({ in: "basic", password: "" });
  });

  it("is an error fixed on both halves, or on a credential that is not basic, at the key", async () => {
    const broken = join(dir, "broken");
    mkdirSync(broken);
    writeFileSync(
      join(broken, "api.yaml"),
      `api: { name: b, title: B, version: 1.0.0 }
credentials:
  both: { in: basic, username: api, password: x }
  key: { in: header, header: X-Key, username: api }
`,
    );
    const run = await runCli(["--spec", broken, "--out", join(dir, "broken-out")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "api.yaml:3:37 - error credential-key-misplaced: password does not belong on credential both (`in: basic`): with username fixed too, the caller would give nothing; fix one of them",
    );
    expect(run.stderr).toContain(
      "api.yaml:4:37 - error credential-key-misplaced: username does not belong on credential key (`in: header`): a fixed username belongs to an `in: basic` credential",
    );
  });
});
