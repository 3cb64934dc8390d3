/**
 * Typed webhooks at run time: the packages of the two feature fixtures (the event named by
 * the `X-GitHub-Event` header, and by the payload's `type` field), generated into temp
 * folders and served through `router.fetch` and, behind a real 127.0.0.1 server, the node
 * adapter. A signed delivery reaches the handler of its event with the validated payload;
 * a bad payload, an unknown event, a missing header or field and a bad signature are each
 * refused with a reason that names the event and the field, and no handler runs. With one
 * payload for every delivery whose type the spec gives (the stand-in fixture's `payload:
 * Ticket`), the one handler gets it validated and typed.
 */
import { createHmac } from "node:crypto";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, send } from "./callbacks-helpers.ts";
import { repoRoot, writeGenerated, tempDir } from "./helpers.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const secret = "webhook-secret";
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Writes the package of a feature fixture into a temp folder; its folder. */
async function generated(feature: string): Promise<string> {
  const out = tempDir(`apigen-${feature}-`);
  made.push(out);
  await writeGenerated(`test/fixtures/features/${feature}`, out);
  return out;
}

/** A router module of a generated package, loosely typed (its precise types are checked by tsc below). */
type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): {
    fetch(request: Request): Promise<Response>;
    node: (req: never, res: never) => void;
  };
};

const load = async (out: string) =>
  (await import(pathToFileURL(join(out, "src/callbacks.ts")).href)) as RouterModule;

const sign = (body: string, key = secret) =>
  createHmac("sha256", key).update(body).digest("base64");

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** Posts a delivery through `router.fetch`, signed under `signatureHeader` unless `signed` is false. */
async function deliver(
  router: ReturnType<RouterModule["createCallbackRouter"]>,
  signatureHeader: string,
  body: string,
  headers: Record<string, string> = {},
  key: string | false = secret,
): Promise<Answer> {
  const res = await router.fetch(
    new Request("http://127.0.0.1/webhooks", {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        ...(key === false ? {} : { [signatureHeader]: sign(body, key) }),
        ...headers,
      },
    }),
  );
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

/** `usage` as src/usage.ts of the package in `out` type-checks with it, against its runtime's declarations. */
function expectUsageCompiles(out: string, usage: string): void {
  writeFileSync(join(out, "src/usage.ts"), usage);
  const run = runTypeScript(typescript6, [
    "-p",
    join(withRuntimeDeclarations(out), "tsconfig.json"),
  ]);
  expect(run.stdout + run.stderr).toBe("");
  expect(run.status).toBe(0);
}

const refusal = (status: number, code: number, message: string) => ({
  status,
  json: { error: { code, message } },
});

describe("webhook events named by a header (test/fixtures/features/typed-webhooks)", () => {
  let out: string;
  let mod: RouterModule;
  const seen: { event: string; payload: unknown }[] = [];
  const rejected: { event?: string; status: number }[] = [];
  const header = "X-Hub-Signature-256";
  const issues = {
    action: "opened",
    issue: { number: 7, title: "It broke", state: "open", labels: [{ name: "bug" }] },
    sender: { login: "octocat", id: 1 },
  };
  beforeAll(async () => {
    out = await generated("typed-webhooks");
    mod = await load(out);
  });
  const router = (extra: Record<string, unknown> = {}) =>
    mod.createCallbackRouter({
      signingSecrets: [secret],
      onReject: (info: { event?: string; status: number }) => rejected.push(info),
      webhook: {
        path: "/webhooks",
        handlers: {
          issues: (payload: unknown, ctx: { event: string }) => {
            seen.push({ event: ctx.event, payload });
          },
          ping: (payload: unknown, ctx: { event: string }) => {
            seen.push({ event: ctx.event, payload });
          },
        },
        ...extra,
      },
    });
  const post = (body: unknown, event?: string, key: string | false = secret) =>
    deliver(
      router(),
      header,
      JSON.stringify(body),
      event === undefined ? {} : { "X-GitHub-Event": event },
      key,
    );

  it("routes a signed delivery to the handler of its event, with the validated payload", async () => {
    seen.length = 0;
    expect(await post(issues, "issues")).toEqual({ status: 200, text: "", json: undefined });
    expect(await post({ zen: "Keep it simple.", hook_id: 12 }, "ping")).toMatchObject({
      status: 200,
    });
    expect(seen).toEqual([
      { event: "issues", payload: issues },
      { event: "ping", payload: { zen: "Keep it simple.", hook_id: 12 } },
    ]);
  });

  it("refuses a payload that does not match its event's type, naming the event and the field", async () => {
    seen.length = 0;
    const bad = { ...issues, issue: { ...issues.issue, number: "7" } };
    expect(await post(bad, "issues")).toMatchObject(
      refusal(400, 400, "event issues: body.issue.number must be a number, not a string"),
    );
    // a ping payload sent as issues is checked as issues
    expect(await post({ zen: "z", hook_id: 1 }, "issues")).toMatchObject(
      refusal(
        400,
        400,
        "event issues: body.action is required; event issues: body.issue is required; event issues: body.sender is required",
      ),
    );
    expect(seen).toEqual([]);
  });

  it("refuses an unknown event, naming it and the events it knows; prototype names are unknown too", async () => {
    seen.length = 0;
    rejected.length = 0;
    for (const event of ["star", "constructor", "__proto__", "toString"])
      expect(await post(issues, event)).toMatchObject(
        refusal(
          400,
          400,
          `unknown event ${JSON.stringify(event)} in X-GitHub-Event; this receiver knows issues, ping`,
        ),
      );
    expect(seen).toEqual([]);
    expect(rejected.map((r) => [r.event, r.status])).toEqual([
      ["star", 400],
      ["constructor", 400],
      ["__proto__", 400],
      ["toString", 400],
    ]);
  });

  it("cuts a long unknown event name at 100 characters, in the answer and for onReject", async () => {
    rejected.length = 0;
    const long = "x".repeat(5000);
    expect(await post(issues, long)).toMatchObject(
      refusal(
        400,
        400,
        `unknown event "${"x".repeat(100)}..." in X-GitHub-Event; this receiver knows issues, ping`,
      ),
    );
    expect(rejected.map((r) => r.event)).toEqual([`${"x".repeat(100)}...`]);
  });

  it("hands an unknown event to onUnknownEvent when it is given", async () => {
    const unknown: unknown[] = [];
    const res = await deliver(
      router({
        onUnknownEvent: (payload: unknown, ctx: { event: string }) =>
          unknown.push(ctx.event, payload),
      }),
      header,
      JSON.stringify({ starred: true }),
      { "X-GitHub-Event": "star" },
    );
    expect(res.status).toBe(200);
    expect(unknown).toEqual(["star", { starred: true }]);
  });

  it("refuses a delivery without the event header", async () => {
    expect(await post(issues)).toMatchObject(
      refusal(400, 400, "X-GitHub-Event header is missing; it names the event of a delivery"),
    );
    expect(await post(issues, "  ")).toMatchObject({ status: 400 });
  });

  it("checks the signature first: a bad or missing one is 422 and no handler runs", async () => {
    seen.length = 0;
    expect(await post(issues, "issues", "wrong-secret")).toMatchObject(
      refusal(422, 422, "X-Hub-Signature-256 does not match the body"),
    );
    expect((await post(issues, "issues", false)).status).toBe(422);
    expect(seen).toEqual([]);
  });

  it("accepts a listed event without a handler unread, and a handler that throws is the generic 500", async () => {
    const quiet = mod.createCallbackRouter({
      signingSecrets: [secret],
      onError: () => {},
      webhook: {
        path: "/webhooks",
        handlers: {
          ping: () => {
            throw new Error("boom");
          },
        },
      },
    });
    const body = JSON.stringify(issues);
    expect((await deliver(quiet, header, body, { "X-GitHub-Event": "issues" })).status).toBe(200);
    expect(
      await deliver(quiet, header, JSON.stringify({ zen: "z", hook_id: 1 }), {
        "X-GitHub-Event": "ping",
      }),
    ).toMatchObject(refusal(500, 500, "internal error"));
  });

  it("works the same through the node adapter on a real 127.0.0.1 server", async () => {
    seen.length = 0;
    const running = await listen(router().node as never);
    try {
      const body = JSON.stringify(issues);
      const ok = await send(running, "/webhooks", {
        body,
        signWith: false,
        headers: { [header]: sign(body), "X-GitHub-Event": "issues" },
      });
      expect([ok.status, ok.text]).toEqual([200, ""]);
      const unknown = await send(running, "/webhooks", {
        body,
        signWith: false,
        headers: { [header]: sign(body), "X-GitHub-Event": "star" },
      });
      expect([unknown.status, unknown.json.error.message]).toEqual([
        400,
        'unknown event "star" in X-GitHub-Event; this receiver knows issues, ping',
      ]);
      const get = await send(running, "/webhooks", { method: "GET", signWith: false });
      expect(get.status).toBe(405);
    } finally {
      await running.close();
    }
    expect(seen).toEqual([{ event: "issues", payload: issues }]);
  });

  it("types each handler by its event: a field of another event's payload is a compile error", () => {
    const usage = [
      'import { createCallbackRouter } from "./callbacks.js";',
      "createCallbackRouter({",
      '  signingSecrets: ["s"],',
      "  webhook: {",
      '    path: "/webhooks",',
      "    handlers: {",
      "      issues: (payload, ctx) => {",
      "        const n: number = payload.issue.number;",
      "        const e: string = ctx.event;",
      "        void n, e;",
      "      },",
      "      ping: (payload) => {",
      "        // @ts-expect-error a ping payload has no issue",
      "        void payload.issue;",
      "        const zen: string = payload.zen;",
      "        void zen;",
      "      },",
      "      // @ts-expect-error the spec lists no star event",
      "      star: () => {},",
      "    },",
      "    onUnknownEvent: (payload, ctx) => void [payload, ctx.event],",
      "  },",
      "});",
      "",
    ].join("\n");
    expectUsageCompiles(out, usage);
  });
});

describe("webhook events named as the delivery names them, with slashes (Shopify's orders/create)", () => {
  it("generates, and routes a delivery whose header names the event so", async () => {
    const spec = tempDir("apigen-slashed-events-");
    made.push(spec);
    cpSync(join(repoRoot, "test/fixtures/features/typed-webhooks"), spec, { recursive: true });
    const file = join(spec, "api.yaml");
    const text = readFileSync(file, "utf8");
    writeFileSync(
      file,
      text.replace("    ping:\n", "    orders/create:\n      payload: PingEvent\n    ping:\n"),
    );
    const out = tempDir("apigen-slashed-events-out-");
    made.push(out);
    await writeGenerated(spec, out);
    const seen: string[] = [];
    const router = (await load(out)).createCallbackRouter({
      signingSecrets: [secret],
      webhook: {
        path: "/webhooks",
        handlers: { "orders/create": (_: unknown, ctx: { event: string }) => seen.push(ctx.event) },
      },
    });
    const body = JSON.stringify({ zen: "Keep it simple.", hook_id: 12 });
    const answer = await deliver(router, "X-Hub-Signature-256", body, {
      "X-GitHub-Event": "orders/create",
    });
    expect(answer.status).toBe(200);
    expect(seen).toEqual(["orders/create"]);
  });
});

describe("webhook events named by a payload field (test/fixtures/features/typed-webhooks-field)", () => {
  let mod: RouterModule;
  const seen: { event: string; payload: unknown }[] = [];
  const header = "Webhook-Signature";
  const succeeded = {
    id: "evt_1",
    type: "payment_intent.succeeded",
    created: 1700000000,
    data: { object: { id: "pi_1", amount: 500, currency: "eur" } },
  };
  const deleted = {
    id: "evt_2",
    type: "customer.deleted",
    created: 1700000001,
    data: { object: { id: "cus_1" } },
  };
  let out: string;
  beforeAll(async () => {
    out = await generated("typed-webhooks-field");
    mod = await load(out);
  });
  const post = (body: unknown, key: string | false = secret) =>
    deliver(
      mod.createCallbackRouter({
        signingSecrets: [secret],
        webhook: {
          path: "/webhooks",
          handlers: {
            "payment_intent.succeeded": (payload: unknown, ctx: { event: string }) => {
              seen.push({ event: ctx.event, payload });
            },
            "customer.deleted": (payload: unknown, ctx: { event: string }) => {
              seen.push({ event: ctx.event, payload });
              // an event without a declared answer: what its handler returns is not sent
              return { leaked: true };
            },
            url_verification: (payload: { challenge: string }) => ({
              challenge: payload.challenge,
            }),
            webhook_callback_verification: (payload: { challenge: string }) => payload.challenge,
          },
        },
      }),
      header,
      typeof body === "string" ? body : JSON.stringify(body),
      {},
      key,
    );

  it("routes each delivery by its type field to that event's handler", async () => {
    seen.length = 0;
    expect((await post(succeeded)).status).toBe(200);
    expect((await post(deleted)).status).toBe(200);
    expect(seen).toEqual([
      { event: "payment_intent.succeeded", payload: succeeded },
      { event: "customer.deleted", payload: deleted },
    ]);
  });

  it("refuses a payload that does not match its event's type, naming the event and the field", async () => {
    const bad = { ...succeeded, data: { object: { ...succeeded.data.object, amount: -1 } } };
    expect(await post(bad)).toMatchObject(
      refusal(
        400,
        400,
        "event payment_intent.succeeded: body.data.object.amount must be at least 0",
      ),
    );
    // the customer.deleted payload under another event's name fails that event's checks
    expect((await post({ ...deleted, type: "payment_intent.succeeded" })).status).toBe(400);
  });

  it("refuses a missing or non-string type, and an unknown one", async () => {
    const { type: _type, ...untyped } = succeeded;
    expect(await post(untyped)).toMatchObject(
      refusal(400, 400, "body.type is missing; it names the event of a delivery"),
    );
    expect(await post({ ...succeeded, type: 5 })).toMatchObject(
      refusal(400, 400, "body.type must be a non-empty string naming the event of a delivery"),
    );
    expect(await post([succeeded])).toMatchObject({ status: 400 });
    expect(await post({ ...succeeded, type: "charge.refunded" })).toMatchObject(
      refusal(
        400,
        400,
        'unknown event "charge.refunded" in body.type; this receiver knows payment_intent.succeeded, customer.deleted, url_verification, webhook_callback_verification',
      ),
    );
    expect(await post("{not json")).toMatchObject(refusal(400, 400, "body is not valid JSON"));
  });

  it("checks the signature before reading the type", async () => {
    seen.length = 0;
    expect((await post(succeeded, "other")).status).toBe(422);
    expect(seen).toEqual([]);
  });

  it("answers an event with a declared success with what its handler returns, and no other", async () => {
    const handshake = { type: "url_verification", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmd" };
    const answer = await post(handshake);
    expect(answer).toMatchObject({ status: 200, json: { challenge: handshake.challenge } });
    expect((await post(deleted)).text).toBe("");
    expect((await post({ type: "url_verification" })).status).toBe(400);
  });

  it("answers a string answer as the text itself (Twitch's challenge), not a JSON string", async () => {
    const verification = { type: "webhook_callback_verification", challenge: "pogchamp-kappa-360" };
    const res = await mod
      .createCallbackRouter({
        signingSecrets: [secret],
        webhook: {
          path: "/webhooks",
          handlers: { webhook_callback_verification: (p: { challenge: string }) => p.challenge },
        },
      })
      .fetch(
        new Request("http://127.0.0.1/webhooks", {
          method: "POST",
          body: JSON.stringify(verification),
          headers: {
            "content-type": "application/json",
            [header]: sign(JSON.stringify(verification), secret),
          },
        }),
      );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("pogchamp-kappa-360");
  });

  it("types an answering event's handler to return its answer (a void handler does not compile)", () => {
    // one compile: an unused @ts-expect-error is an error of its own (TS2578)
    expectUsageCompiles(
      out,
      `import type { WebhookHandlers } from "./callbacks.ts";
export const answered: WebhookHandlers = {
  url_verification: async (payload) => ({ challenge: payload.challenge }),
};
export const unanswered: WebhookHandlers = {
  // @ts-expect-error the API reads the answer: the handler must return it
  url_verification: () => undefined,
};
`,
    );
  });
});

describe("one typed payload for every delivery (test/fixtures/features/stand-in: `payload: Ticket`)", () => {
  let out: string;
  let mod: RouterModule;
  const seen: unknown[] = [];
  const header = "X-Signature";
  beforeAll(async () => {
    out = await generated("stand-in");
    mod = await load(out);
  });
  const post = (body: unknown) =>
    deliver(
      mod.createCallbackRouter({
        signingSecrets: [secret],
        webhook: { path: "/webhooks", handler: (payload: unknown) => void seen.push(payload) },
      }),
      header,
      JSON.stringify(body),
    );

  it("hands the handler a payload that is a Ticket", async () => {
    seen.length = 0;
    const ticket = { ticket_id: "t-1", state: "open" };
    expect(await post(ticket)).toEqual({ status: 200, text: "", json: undefined });
    expect(seen).toEqual([ticket]);
  });

  it("refuses one that is not, naming the field, and runs no handler", async () => {
    seen.length = 0;
    expect(await post({ ticket_id: 7, state: "open" })).toMatchObject(
      refusal(400, 400, "body.ticket_id must be a string, not number 7"),
    );
    expect((await post({ ticket_id: "t-2", state: "reopened" })).status).toBe(400);
    expect((await post([])).status).toBe(400);
    expect(seen).toEqual([]);
  });

  it("types the handler's payload as the spec's type", () => {
    const usage = [
      'import { createCallbackRouter } from "./callbacks.js";',
      'import type { Ticket } from "./types.js";',
      "createCallbackRouter({",
      '  signingSecrets: ["s"],',
      "  webhook: {",
      '    path: "/webhooks",',
      "    handler: (payload, ctx) => {",
      "      const ticket: Ticket = payload;",
      '      const state: "open" | "closed" | undefined = payload.state;',
      "      // @ts-expect-error a Ticket has no amount",
      "      void payload.amount;",
      "      void [ticket, state, ctx.rawBody];",
      "    },",
      "  },",
      "});",
      "",
    ].join("\n");
    expectUsageCompiles(out, usage);
  });
});
