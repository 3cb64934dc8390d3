/**
 * Typed webhook delivery headers (issue 32, item 9), on the package of the feature fixture
 * test/fixtures/features/standard-webhooks (deliveries signed with Standard Webhooks, four
 * declared headers: a required id and timestamp, an optional attempt number and environment),
 * served by `router.node` on 127.0.0.1: a delivery's declared headers reach its handler read
 * as their types (`ctx.deliveryHeaders`), a header that is not of its type or a required one
 * that is missing is refused with 400 naming it and no handler runs, and tsc types
 * `ctx.deliveryHeaders` by the spec (an undeclared header is a compile error). The same for
 * webhooks with one payload for every delivery (test/fixtures/delivery-headers-untyped), whose
 * single `webhook.handler` gets them.
 */
import { createHmac, randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, send, type Running } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const key = randomBytes(32);
const whsec = `whsec_${key.toString("base64")}`;

const out = tempDir("apigen-delivery-headers-");
afterAll(() => rmSync(out, { recursive: true, force: true }));

type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): { node: Parameters<typeof listen>[0] };
};
let mod: RouterModule;
let untyped: RouterModule;
beforeAll(async () => {
  await writeGenerated("test/fixtures/features/standard-webhooks", out);
  compileInPlace(out);
  mod = await importCompiled<RouterModule>(join(out, "src/callbacks.ts"));
  const untypedOut = join(out, "untyped");
  await writeGenerated("test/fixtures/delivery-headers-untyped", untypedOut);
  compileInPlace(untypedOut);
  untyped = await importCompiled<RouterModule>(join(untypedOut, "src/callbacks.ts"));
});

const body = JSON.stringify({ type: "invoice.paid", invoice: "in_1", amount: 100 });

/** The headers of a delivery signed now under Standard Webhooks, with `extra` on top. */
function signed(id: string, extra: Record<string, string> = {}): Record<string, string> {
  const t = Math.floor(Date.now() / 1000);
  const digest = createHmac("sha256", key).update(`${id}.${t}.`).update(body).digest("base64");
  return {
    "webhook-id": id,
    "webhook-timestamp": String(t),
    "webhook-signature": `v1,${digest}`,
    ...extra,
  };
}

describe("declared delivery headers reach the handler typed", () => {
  const seen: unknown[] = [];
  let running: Running;
  beforeAll(async () => {
    const router = mod.createCallbackRouter({
      signingSecrets: [whsec],
      webhook: {
        path: "/hooks",
        handlers: {
          "invoice.paid": (_payload: unknown, ctx: { deliveryHeaders: unknown }) => {
            seen.push(ctx.deliveryHeaders);
          },
        },
      },
    });
    running = await listen(router.node);
  });
  afterAll(() => running.close());

  const post = async (headers: Record<string, string>) => {
    const answer = await send(running, "/hooks", { body, headers, signWith: false });
    return { status: answer.status, reasons: answer.json?.error?.message };
  };

  it("reads each as its type: numbers as numbers, absent optional ones left out", async () => {
    seen.length = 0;
    expect(await post(signed("msg_1", { "X-Attempt": "2", "X-Environment": "live" }))).toEqual({
      status: 200,
      reasons: undefined,
    });
    expect(await post(signed("msg_2"))).toMatchObject({ status: 200 });
    const [first, second] = seen as Record<string, unknown>[];
    expect(first).toEqual({
      "webhook-id": "msg_1",
      "webhook-timestamp": expect.any(Number),
      "X-Attempt": 2,
      "X-Environment": "live",
    });
    expect(second).toEqual({ "webhook-id": "msg_2", "webhook-timestamp": expect.any(Number) });
  });

  it("takes a delivery signed by the package's own signatureHeaders, the spec's scheme and header", async () => {
    const signing = mod as unknown as {
      signatureHeaders: (
        scheme: unknown,
        header: string,
        secrets: string[],
        body: string,
        facts: { timestamp: number; id: string },
      ) => Promise<Record<string, string>>;
      webhookSignatureScheme: unknown;
      webhookSignatureHeader: string;
    };
    const headers = await signing.signatureHeaders(
      signing.webhookSignatureScheme,
      signing.webhookSignatureHeader,
      [whsec],
      body,
      { timestamp: Math.floor(Date.now() / 1000), id: "msg_own" },
    );
    expect(Object.keys(headers).sort()).toEqual([
      "webhook-id",
      "webhook-signature",
      "webhook-timestamp",
    ]);
    expect(await post(headers)).toMatchObject({ status: 200 });
  });

  it("refuses a header not of its type with 400 naming it, and runs no handler", async () => {
    seen.length = 0;
    expect(await post(signed("msg_3", { "X-Attempt": "two" }))).toEqual({
      status: 400,
      reasons: 'headers["X-Attempt"] must be a number, not a string',
    });
    expect(await post(signed("msg_4", { "X-Attempt": "0" }))).toEqual({
      status: 400,
      reasons: 'headers["X-Attempt"] must be at least 1',
    });
    const staging = await post(signed("msg_5", { "X-Environment": "staging" }));
    expect(staging.status).toBe(400);
    expect(staging.reasons).toContain('headers["X-Environment"]');
    expect(seen).toEqual([]);
  });
});

describe("ctx.deliveryHeaders is typed by the spec", () => {
  it("a declared header has its type, an optional one may be undefined, an undeclared one is a compile error (typed events and one payload)", () => {
    const usage = [
      'import { createCallbackRouter } from "./callbacks.js";',
      "createCallbackRouter({",
      '  signingSecrets: ["whsec_AAAA"],',
      "  webhook: {",
      '    path: "/hooks",',
      "    handlers: {",
      '      "invoice.paid": (payload, ctx) => {',
      '        const id: string = ctx.deliveryHeaders["webhook-id"];',
      '        const sent: number = ctx.deliveryHeaders["webhook-timestamp"];',
      '        const attempt: number | undefined = ctx.deliveryHeaders["X-Attempt"];',
      '        const env: "live" | "test" | undefined = ctx.deliveryHeaders["X-Environment"];',
      "        // @ts-expect-error an optional header may be absent",
      '        const sure: number = ctx.deliveryHeaders["X-Attempt"];',
      "        // @ts-expect-error the spec declares no X-Other header",
      '        void ctx.deliveryHeaders["X-Other"];',
      "        void [payload.amount, id, sent, attempt, env, sure];",
      "      },",
      "    },",
      "    onUnknownEvent: (_payload, ctx) => {",
      '        const id: string = ctx.deliveryHeaders["webhook-id"];',
      "        void id;",
      "    },",
      "  },",
      "});",
      "",
    ].join("\n");
    writeFileSync(join(out, "src/usage.ts"), usage);
    const untypedUsage = [
      'import { createCallbackRouter } from "./callbacks.js";',
      "createCallbackRouter({",
      '  signingSecrets: ["s"],',
      "  webhook: {",
      '    path: "/hooks",',
      "    handler: (_payload, ctx) => {",
      '      const hook: number = ctx.deliveryHeaders["X-Hook-ID"];',
      '      const again: boolean | undefined = ctx.deliveryHeaders["X-Redelivery"];',
      "      // @ts-expect-error the spec declares no X-Other header",
      '      void ctx.deliveryHeaders["X-Other"];',
      "      void [hook, again];",
      "    },",
      "  },",
      "});",
      "",
    ].join("\n");
    writeFileSync(join(out, "untyped/src/usage.ts"), untypedUsage);
    // each package's own files against its runtime's declarations (test/support/runtime-declarations.ts)
    for (const project of [out, join(out, "untyped")].map((p) => withRuntimeDeclarations(p))) {
      const run = runTypeScript(typescript6, ["-p", join(project, "tsconfig.json")]);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.status).toBe(0);
    }
  });
});

describe("one payload for every delivery (test/fixtures/delivery-headers-untyped)", () => {
  it("webhook.handler gets the declared headers typed; a missing or mistyped one is refused with 400", async () => {
    const secret = "untyped-secret";
    const seen: unknown[] = [];
    const router = untyped.createCallbackRouter({
      signingSecrets: [secret],
      webhook: {
        path: "/hooks",
        handler: (_payload: unknown, ctx: { deliveryHeaders: unknown }) =>
          void seen.push(ctx.deliveryHeaders),
      },
    });
    const running = await listen(router.node);
    try {
      const text = '{"anything":true}';
      const signature = `sha256=${createHmac("sha256", secret).update(text).digest("hex")}`;
      const post = async (headers: Record<string, string>) => {
        const answer = await send(running, "/hooks", {
          body: text,
          headers: { "X-Hub-Signature-256": signature, ...headers },
          signWith: false,
        });
        return { status: answer.status, reasons: answer.json?.error?.message };
      };
      expect(
        await post({ "X-Delivery": "d-1", "X-Hook-ID": "12", "X-Redelivery": "true" }),
      ).toEqual({ status: 200, reasons: undefined });
      expect(await post({ "X-Delivery": "d-2" })).toEqual({
        status: 400,
        reasons: 'headers["X-Hook-ID"] is required',
      });
      expect(await post({ "X-Delivery": "d-3", "X-Hook-ID": "12", "X-Redelivery": "yes" })).toEqual(
        { status: 400, reasons: 'headers["X-Redelivery"] must be a boolean, not a string' },
      );
      expect(seen).toEqual([{ "X-Delivery": "d-1", "X-Hook-ID": 12, "X-Redelivery": true }]);
    } finally {
      await running.close();
    }
  });
});
