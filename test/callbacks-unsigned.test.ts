/**
 * Callbacks the spec does not sign (issue 30, item 12). The spec `apigen init` writes signs
 * its callback, so the router generated from it, built as the docs say, refuses a delivery
 * under the wrong secret and an unsigned one (real requests to 127.0.0.1). A spec whose
 * callbacks name no signature credential makes `generate` warn, naming each; its router's
 * doc says which requests are checked; and `signingSecrets` given to a router that checks
 * nothing is refused, by the compiler and at creation.
 */
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initNames, initSpecFiles } from "../generator/commands/init-spec.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { listen, send, type Running } from "./callbacks-helpers.ts";
import { repoRoot, runCli, tempDir, writeGenerated } from "./helpers.ts";
import { programSharingLibFiles } from "./support/tsc6-in-process.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the temp folder, removed after the tests. */
function folder(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

/** A router module of a generated package, loosely typed (the precise types are checked with tsc below). */
type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): {
    node: Parameters<typeof listen>[0];
    fetch(request: Request): Promise<Response>;
  };
};

const load = async (out: string) =>
  (await import(pathToFileURL(join(out, "src/callbacks.ts")).href)) as RouterModule;

const sign = (body: string, key: string) => createHmac("sha256", key).update(body).digest("base64");

describe("the spec `apigen init` writes", () => {
  const secret = "init-signing-secret";
  const specDir = folder("apigen-init-spec-");
  const out = folder("apigen-init-out-");
  let running: Running;
  const received: unknown[] = [];
  let warnings: string[] = [];

  beforeAll(async () => {
    const schema = join(repoRoot, "generator/schema/spec.schema.json");
    for (const file of initSpecFiles(initNames("shop-api"), schema))
      writeFileSync(join(specDir, file.name), file.text);
    const result = await writeGenerated(specDir, out);
    warnings = result.warnings.map((w) => w.code);
    const { createCallbackRouter } = await load(out);
    // as docs/callbacks.md and the package's README build it
    const router = createCallbackRouter({
      signingSecrets: [secret],
      handlers: {
        "item.changed": (body: unknown) => {
          received.push(body);
          return { received: true };
        },
      },
    });
    running = await listen(router.node);
  });
  afterAll(() => running?.close());

  const item = JSON.stringify({ id: "i1", name: "Tea", tags: [] });
  const post = (headers: Record<string, string>) =>
    send(running, "/item-changed", { body: item, headers, signWith: false });

  it("generates without a warning, and its router answers a delivery signed with the secret", async () => {
    expect(warnings).toEqual([]);
    received.length = 0;
    const ok = await post({ "X-Signature": sign(item, secret) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ received: true });
    expect(received).toEqual([JSON.parse(item)]);
  });

  it("refuses a delivery signed with the wrong secret, and an unsigned one, running no handler", async () => {
    received.length = 0;
    const wrong = await post({ "X-Signature": sign(item, "not-the-secret") });
    expect(wrong.status).toBe(422);
    expect(wrong.json).toEqual({
      error: { code: 422, message: "X-Signature does not match the body" },
    });
    const unsigned = await post({});
    expect(unsigned.status).toBe(422);
    expect(unsigned.json).toEqual({ error: { code: 422, message: "missing X-Signature header" } });
    expect(received).toEqual([]);
  });

  it("its README and router doc say every request is signature-checked, and that is true", () => {
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
      "The router checks each request's signature over the raw body",
    );
    expect(readFileSync(join(out, "src/callbacks.ts"), "utf8")).toContain(
      "Every request is signature-checked over its raw bytes",
    );
  });
});

/** A spec with one unsigned callback and unsigned webhook deliveries. */
const unsignedSpec = `api:
  name: open-hooks
  title: Open Hooks
  version: 1.0.0

credentials:
  apiKey: { in: header, header: X-API-Key }

callbacks:
  item.changed:
    method: POST
    path: /item-changed
    auth: [apiKey]
    body: { fields: { id: { type: string, required: true } } }
    success: { fields: { received: boolean } }

webhooks:
  payload: unknown
`;

describe("a spec that signs none of its callbacks", () => {
  const specDir = folder("apigen-unsigned-spec-");
  const out = folder("apigen-unsigned-out-");
  let mod: RouterModule;
  let printed: string[] = [];

  beforeAll(async () => {
    writeFileSync(join(specDir, "api.yaml"), unsignedSpec);
    const result = await writeGenerated(specDir, out);
    const sources = new Map([[result.warnings[0]?.location?.file ?? "", unsignedSpec]]);
    printed = result.warnings.map((w) => formatDiagnostic(w, sources).split("\n")[0]!);
    mod = await load(out);
  });

  it("generate warns at each unsigned callback and at the webhooks, naming them", () => {
    expect(printed).toEqual([
      expect.stringMatching(
        /api\.yaml:10:3 - warning callback-unsigned: callback item\.changed is not signed: its auth names no `in: signature` credential \(only apiKey, `in: header`: a key sent as it is, not a signature of the body\), so the callback router accepts it from anyone who can reach the server; add one to its auth \(docs\/callbacks\.md\)$/,
      ),
      expect.stringMatching(
        /api\.yaml:17:1 - warning callback-unsigned: every webhook delivery is not signed: /,
      ),
    ]);
  });

  it("the CLI prints the warning with its place and still generates", async () => {
    const cliOut = folder("apigen-unsigned-cli-");
    const run = await runCli(["generate", "--spec", specDir, "--out", cliOut]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /api\.yaml:10:3 - warning callback-unsigned: callback item\.changed is not signed/,
    );
    expect(run.stderr).toMatch(/0 errors, 2 warnings\n$/);
  });

  it("the router's doc and the README say that no request is signature-checked, and name them", () => {
    const source = readFileSync(join(out, "src/callbacks.ts"), "utf8");
    expect(source).not.toContain("Every request is signature-checked");
    expect(source).toContain(
      " * No request is signature-checked: the spec names no `in: signature` credential for item.changed and webhook",
    );
    expect(source).toContain(
      "NOT signature-checked: the spec names no `in: signature` credential for this callback",
    );
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain(
      "The router checks no signature: the spec declares no signature for `item.changed` and webhook deliveries",
    );
    expect(readme).not.toContain("signingSecrets");
  });

  it("refuses signingSecrets at creation, with a message that says why", () => {
    const handlers = { "item.changed": () => ({ received: true }) };
    for (const signingSecrets of [["a-secret"], [], [undefined]])
      expect(() => mod.createCallbackRouter({ signingSecrets, handlers })).toThrow(
        "createCallbackRouter: signingSecrets is given, but no callback or webhook of this spec is signed (none names an `in: signature` credential), so no request would be checked; remove signingSecrets, or declare the signature in the spec (docs/callbacks.md)",
      );
  });

  it("without secrets it serves, as its doc says, whoever sends the request", async () => {
    const router = mod.createCallbackRouter({
      handlers: { "item.changed": () => ({ received: true }) },
    });
    const running = await listen(router.node);
    try {
      const body = JSON.stringify({ id: "i1" });
      const answer = await send(running, "/item-changed", { body, signWith: false });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ received: true });
    } finally {
      await running.close();
    }
  });

  it("signingSecrets does not compile against its options type", () => {
    const dir = join(out, "usage");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "router.ts");
    writeFileSync(
      file,
      [
        'import { createCallbackRouter } from "../src/callbacks.js";',
        'const handlers = { "item.changed": () => ({ received: true }) };',
        "createCallbackRouter({ handlers });",
        'createCallbackRouter({ signingSecrets: ["s"], handlers });',
        "",
      ].join("\n"),
    );
    // the usage's own errors (the checker types what it uses of the package), the lib files
    // parsed once per worker and not checked again (test/support/tsc6-in-process.ts)
    const program = programSharingLibFiles([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ({
      file: d.file && resolve(d.file.fileName),
      line:
        d.file && d.start !== undefined
          ? d.file.getLineAndCharacterOfPosition(d.start).line + 1
          : 0,
      text: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    }));
    expect(errors).toEqual([
      { file, line: 4, text: "Type 'string[]' is not assignable to type 'undefined'." },
    ]);
  });
});

describe("a spec that signs some callbacks (test/fixtures/callbacks-inline)", () => {
  it("warns about the unsigned one only, and the router's doc names both kinds", async () => {
    const out = folder("apigen-inline-out-");
    const result = await writeGenerated("test/fixtures/callbacks-inline", out);
    expect(result.warnings.map((w) => `${w.code}: ${w.message.split(":")[0]}`)).toEqual([
      "callback-unsigned: callback ping is not signed",
    ]);
    const source = readFileSync(join(out, "src/callbacks.ts"), "utf8");
    expect(source).toContain(
      " * Signature-checked over the raw bytes: stock.check. NOT signature-checked: the spec names no `in: signature`\n * credential for ping,",
    );
    const { createCallbackRouter } = await load(out);
    // secrets are needed (stock.check is signed), and ping is served unsigned as documented
    expect(() => createCallbackRouter({ handlers: {} })).toThrow(
      /signingSecrets has no usable secret/,
    );
    const router = createCallbackRouter({
      signingSecrets: ["s"],
      handlers: { "stock.check": () => ({ status: "ok" }), ping: () => undefined },
    });
    const body = JSON.stringify({ event: "stock.check", quantity: 1 });
    const unsigned = await router.fetch(
      new Request("http://127.0.0.1/stock/abc?warehouse=1", { method: "POST", body }),
    );
    expect(unsigned.status).toBe(422);
    const signed = await router.fetch(
      new Request("http://127.0.0.1/stock/abc?warehouse=1", {
        method: "POST",
        body,
        headers: { "X-Sig": sign(body, "s") },
      }),
    );
    expect(signed.status).toBe(200);
  });
});
