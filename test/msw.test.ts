/**
 * The `./msw` entry of the generated package (issue 33 item 5): msw's node server with the
 * generated handlers, and the generated Merchant client calling an address below
 * http://127.0.0.1:9 that nothing listens on, so every answer is msw's (nothing leaves the
 * machine, and a request msw does not take fails to connect). The answers are the
 * stand-in's: its bodies, its refusals as the typed error, its state; an override answers
 * one endpoint with a value of its type; `server.close()` hands fetch back.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ConnectionError,
  ErrorCode,
  MerchantApiError,
  MerchantClient,
} from "../generated/src/index.ts";
import { standInHandlers } from "../generated/src/msw.ts";
import { createStandIn } from "../generated/src/testing.ts";
import type { Transaction } from "../generated/src/types.ts";
import { loadConfig } from "../generator/commands/config.ts";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { mswStandIn } from "../generator/runtime/msw/handlers.ts";
import { createStandInFrom } from "../generator/runtime/testing/stand-in.ts";
import { tableOf } from "../generator/runtime/testing/table.ts";
import * as prettier from "prettier";
import { everyOutput, generateFrom, tempDir } from "./helpers.ts";
import { prettierOptions } from "./support/prettier-style.ts";

/** Below a path, so the handlers must take the API's requests at its base path, not the root. */
const baseUrl = "http://127.0.0.1:9/merchant-api";
const keys = { apiKey: { valid: ["sandbox-key"], otherEnvironment: ["production-key"] } };
const api = standInHandlers({ baseUrl, seed: 5, keys });
// Anything the handlers leave alone reaches this one: a request of another address, or an
// endpoint an override does not concern, shows up as 599.
const elsewhere = http.all("*", () => new Response("not the stand-in", { status: 599 }));
const server = setupServer(...api.handlers, elsewhere);
const unpatchedFetch = globalThis.fetch;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  api.standIn.reset();
});
afterAll(() => server.close());

const client = (apiKey = "sandbox-key") =>
  new MerchantClient({ baseUrl, apiKey, publishableKey: "pk", accessToken: "t", maxRetries: 0 });

/** The MerchantApiError a call ends in. */
async function refusal(call: PromiseLike<unknown>): Promise<MerchantApiError> {
  const error: unknown = await Promise.resolve(call).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof MerchantApiError) return error;
  throw new Error(`expected a MerchantApiError, got ${String(error)}`);
}

describe("msw handlers of the generated package", () => {
  it("answer a typed call with the stand-in's answer, and leave other addresses alone", async () => {
    const tx: Transaction = await client().transactions.get("ABCD-EFGH-IJKL");
    // the same request to a stand-in of the same seed, at the root: the same body
    const direct = await createStandIn({ seed: 5, keys }).fetch(
      new Request("http://127.0.0.1/v1/merchant/transactions/ABCD-EFGH-IJKL", {
        headers: { "X-API-Key": "sandbox-key" },
      }),
    );
    expect(direct.status).toBe(200);
    expect(tx).toEqual(await direct.json());
    expect((await fetch("http://127.0.0.1:9/elsewhere/v1/merchant/transactions")).status).toBe(599);
    expect((await fetch("http://127.0.0.2:9/merchant-api/v1/merchant/transactions")).status).toBe(
      599,
    );
  });

  it("turn the spec's refusals into the typed error: a key of the other environment, invalid input", async () => {
    const rejected = await refusal(client("production-key").transactions.get("ABCD-EFGH-IJKL"));
    expect([rejected.status, rejected.code]).toEqual([403, ErrorCode.apiKeyRejected]);
    expect(rejected.serverMessage).toContain("other environment");
    // the stand-in validates what the client's own checks do not see: a body sent by hand
    const invalid = await fetch(`${baseUrl}/v1/webhooks`, {
      method: "POST",
      headers: { "X-API-Key": "sandbox-key", "Content-Type": "application/json" },
      body: JSON.stringify({ url: "https://merchant.example/hooks" }),
    });
    expect(invalid.status).toBe(422);
  });

  it("keep the stand-in's state across calls: a deleted webhook is gone", async () => {
    const c = client();
    const created = await c.webhooks.create({ division_id: "d1", url: "https://m.example/h" });
    expect(created.webhook_id).toMatch(/^wh_/);
    expect(api.standIn.state().collections.webhooks).toHaveLength(1);
    await c.webhooks.delete(created.webhook_id!);
    const again = await refusal(c.webhooks.delete(created.webhook_id!));
    expect(again.status).toBe(404);
  });

  it("take an override typed by the endpoint; the stand-in still checks the request", async () => {
    const made: Transaction = await client().transactions.get("ABCD-EFGH-IJKL");
    const fixed: Transaction = { ...made, reference: "FIXD-FIXD-FIXD" };
    server.use(
      api.override("transactions.get", ({ params }) => ({
        ...fixed,
        reference: params.reference!,
      })),
    );
    expect(await client().transactions.get("WXYZ-WXYZ-WXYZ")).toEqual({
      ...fixed,
      reference: "WXYZ-WXYZ-WXYZ",
    });
    const refused = await refusal(client("production-key").transactions.get("WXYZ-WXYZ-WXYZ"));
    expect(refused.code).toBe(ErrorCode.apiKeyRejected);
    // other endpoints are the stand-in's still
    expect((await client().transactions.list()).transactions).toBeDefined();
    // a Response is sent as it is, before the stand-in sees the request
    server.use(
      api.override("transactions.list", () => Response.json({ code: 1005 }, { status: 401 })),
    );
    expect((await refusal(client().transactions.list())).code).toBe(ErrorCode.apiKeyRejected);
    expect(() => api.override("no.such" as "transactions.get", fixed)).toThrow(/no endpoint/);
  });

  it("hand fetch back on server.close(): the address then refuses the connection", async () => {
    expect(globalThis.fetch).not.toBe(unpatchedFetch);
    server.close();
    expect(globalThis.fetch).toBe(unpatchedFetch);
    const error = await client()
      .transactions.get("ABCD-EFGH-IJKL")
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ConnectionError);
  });
});

describe("the msw output in a config", () => {
  it("needs the stand-in: msw on with testing off is refused at the value", async () => {
    const dir = tempDir("apigen-msw-config-");
    try {
      mkdirSync(join(dir, "spec"));
      const file = join(dir, "apigen.config.json");
      writeFileSync(file, '{\n  "outputs": { "testing": false, "msw": true }\n}\n');
      const problems = await loadConfig(file, new Map()).then(
        () => [],
        (error: unknown) => {
          if (!(error instanceof DiagnosticsError)) throw error;
          return error.diagnostics.map((d) => formatDiagnostic(d, new Map()).split("\n")[0]);
        },
      );
      expect(problems).toEqual([
        expect.stringMatching(
          /apigen\.config\.json:2:41 - error config-wrong-value: outputs\.msw must be false while outputs\.testing is false \(its handlers answer with the stand-in\), not true$/,
        ),
      ]);
      writeFileSync(file, '{ "outputs": { "msw": true } }\n');
      const config = await loadConfig(file, new Map());
      expect(config?.apis[0]?.outputs).toMatchObject({ testing: true, msw: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the msw entry of other specs", () => {
  // requests: text and binary answers, a host of its own; streaming: streamed answers
  const made = ["requests", "streaming"].map(async (feature) => {
    const result = await generateFrom(`test/fixtures/features/${feature}`, undefined, {
      outputs: everyOutput,
    });
    return { feature, result, msw: result.files.find((f) => f.path === "src/msw.ts")!.contents };
  });

  it("print src/msw.ts as their golden files, in prettier's style", async () => {
    for (const { feature, msw } of await Promise.all(made)) {
      await expect(msw).toMatchFileSnapshot(`./__snapshots__/msw/${feature}.ts`);
      expect(await prettier.format(msw, { ...prettierOptions, parser: "typescript" })).toBe(msw);
    }
  });

  it("answer text and binary overrides in their kind, and the spec's other host", async () => {
    const { result } = (await Promise.all(made))[0]!;
    const table = tableOf(result.model.standIn.table, {});
    const media = "http://127.0.0.1:9/media";
    // what the generated standInHandlers passes: the spec's address of its uploads host
    const api = mswStandIn<Record<string, unknown>>(
      (options) => createStandInFrom(table, options),
      { baseUrl: media },
      { uploads: "http://127.0.0.1:9/uploads" },
    );
    const local = setupServer(...api.handlers);
    local.listen({ onUnhandledRequest: "error" });
    try {
      const auth = { headers: { Authorization: "Bearer t" } };
      local.use(api.override("pages.render", "<p>fixed</p>"));
      const page = await fetch(`${media}/albums/a1/page`, auth);
      expect([page.status, page.headers.get("content-type"), await page.text()]).toEqual([
        200,
        "text/html",
        "<p>fixed</p>",
      ]);
      local.use(api.override("files.download", new Blob(["bytes"])));
      expect(await (await fetch(`${media}/files/f1`, auth)).text()).toBe("bytes");
      // the stand-in's refusal still comes first: no token
      expect((await fetch(`${media}/files/f1`)).status).toBe(401);
      // the uploads host is served too, by the same stand-in
      const upload = table.routes.find((r) => r.endpoint === "photos.upload")!;
      const elsewhere = await fetch(`http://127.0.0.1:9/uploads${upload.path}`, {
        method: upload.method,
        ...auth,
      });
      expect(elsewhere.status).not.toBe(404);
    } finally {
      local.close();
    }
  });

  it("answer a stream only with a Response: a value for a call that asked for the stream is an error", async () => {
    const { result } = (await Promise.all(made))[1]!;
    const table = tableOf(result.model.standIn.table, {});
    const api = mswStandIn<Record<string, unknown>>(
      (options) => createStandInFrom(table, options),
      { baseUrl: "http://127.0.0.1:9" },
    );
    const local = setupServer(...api.handlers);
    local.listen({ onUnhandledRequest: "error" });
    try {
      const chat = (stream: boolean) =>
        fetch("http://127.0.0.1:9/v1/chat/completions", {
          method: "POST",
          headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
          body: JSON.stringify({ model: "m", prompt: "p", stream }),
        });
      local.use(api.override("chat.create", { id: "c1", text: "fixed" }));
      expect(await (await chat(false)).json()).toEqual({ id: "c1", text: "fixed" });
      // msw answers a handler's exception with a 500 and prints it: expected here, kept quiet
      const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
      try {
        expect((await chat(true)).status).toBe(500);
      } finally {
        quiet.mockRestore();
      }
      const events = "data: {}\n\ndata: [DONE]\n\n";
      local.use(
        api.override(
          "completions.stream",
          () => new Response(events, { headers: { "Content-Type": "text/event-stream" } }),
        ),
      );
      const streamed = await fetch("http://127.0.0.1:9/v1/completions", {
        method: "POST",
        body: "{}",
      });
      expect(await streamed.text()).toBe(events);
    } finally {
      local.close();
    }
  });
});

describe("an OAuth token URL at its own origin", () => {
  it("is served by the handlers there (only that URL), as the stand-in's token endpoint answers", async () => {
    const dir = tempDir("apigen-msw-token-");
    try {
      writeFileSync(
        join(dir, "api.yaml"),
        `api: { name: auth-api, title: Auth, version: 1.0.0, clientName: AuthClient }
credentials:
  oauth:
    in: oauth2
    flows: { clientCredentials: { tokenUrl: "https://auth.example.test/oauth2/token", scopes: {} } }
types:
  Item: { fields: { id: { type: string, required: true } } }
endpoints:
  items.get: { method: GET, path: "/items/{id}", auth: [oauth], params: { id: string }, response: { status: 200, body: Item } }
`,
      );
      const result = await generateFrom(dir, undefined, { outputs: everyOutput });
      const table = tableOf(result.model.standIn.table, {});
      const keys = { oauth: { valid: ["msw-token"] } };
      const api = mswStandIn<Record<string, unknown>>(
        (options) => createStandInFrom(table, { ...options, keys }),
        { baseUrl: "http://127.0.0.1:9/api" },
      );
      const other = http.all("*", () => new Response("not the stand-in", { status: 599 }));
      const local = setupServer(...api.handlers, other);
      local.listen({ onUnhandledRequest: "error" });
      try {
        const grant = await fetch("https://auth.example.test/oauth2/token", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${btoa("app:secret")}`,
          },
          body: "grant_type=client_credentials",
        });
        expect(grant.status).toBe(200);
        expect(await grant.json()).toMatchObject({
          access_token: "msw-token",
          token_type: "Bearer",
        });
        // the token's calls pass the stand-in's check at the API's address
        const call = await fetch("http://127.0.0.1:9/api/items/i1", {
          headers: { authorization: "Bearer msw-token" },
        });
        expect(call.status).toBe(200);
        // nothing else of that origin is taken
        expect((await fetch("https://auth.example.test/other", { method: "POST" })).status).toBe(
          599,
        );
        expect((await fetch("https://auth.example.test/oauth2/token")).status).toBe(599);
      } finally {
        local.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
