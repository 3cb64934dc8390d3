/**
 * `trigger` signs as the spec's scheme says and sends the signing time and delivery id where
 * the spec says the calls carry them (issue 32, item 4, and issue 30's follow-up: a spec that
 * declares a timestamp header had its trigger deliveries refused with 422). Every event of
 * test/fixtures/callbacks-schemes (one callback per scheme, Standard Webhooks deliveries) and
 * of test/fixtures/callbacks-replay is sent to the generated router of the same spec, served
 * by node:http on 127.0.0.1, and must be taken; a stale signing time and a repeated delivery id
 * must not.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  deliver,
  loadTriggerModel,
  type TriggerModel,
  type TriggerOptions,
} from "../generator/commands/trigger-command.ts";
import { listen, type Running } from "./callbacks-helpers.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

const secret = "trigger-scheme-secret";
const whsec = `whsec_${randomBytes(32).toString("base64")}`;

type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): { node: Parameters<typeof listen>[0] };
  createMemorySeenIds(): unknown;
};

const out = tempDir("apigen-trigger-schemes-");
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The generated router and the trigger's model of one spec folder. */
async function prepare(spec: string): Promise<{ mod: RouterModule; model: TriggerModel }> {
  const dir = join(out, spec.replace(/\W/g, "-"));
  await writeGenerated(spec, dir);
  const mod = (await import(pathToFileURL(join(dir, "src/callbacks.ts")).href)) as RouterModule;
  return { mod, model: await loadTriggerModel(join(repoRoot, spec)) };
}

/** Sends one event with the trigger; its exit code, the answer's status and the printed lines. */
async function send(model: TriggerModel, running: Running, options: Partial<TriggerOptions>) {
  const lines: string[] = [];
  const result = await deliver(
    model,
    { event: "", specDir: "", url: running.origin, secret, ...options },
    (line) => lines.push(line),
  );
  return { code: result.code, status: result.answer?.status, lines };
}

describe("every scheme of test/fixtures/callbacks-schemes, end to end", () => {
  let schemes: { mod: RouterModule; model: TriggerModel };
  let running: Running;
  const calls: string[] = [];
  beforeAll(async () => {
    schemes = await prepare("test/fixtures/callbacks-schemes");
    const ack = (event: string) => (input: unknown) => {
      calls.push(event);
      // every event's body has an id but the slash command's form (Slack's fields)
      expect(input).toMatchObject(
        event === "command.slack" ? { command: expect.any(String) } : { id: expect.any(String) },
      );
      return event === "command.slack" ? undefined : { ok: true };
    };
    const router = schemes.mod.createCallbackRouter({
      signingSecrets: [secret, whsec],
      handlers: Object.fromEntries(
        schemes.model.events.filter((e) => e.kind === "callback").map((e) => [e.name, ack(e.name)]),
      ),
      webhook: { path: "/hooks", handlers: { "order.created": ack("order.created") } },
      replay: { seenIds: schemes.mod.createMemorySeenIds() },
    });
    running = await listen(router.node);
  });
  afterAll(() => running.close());

  it.each([
    ["order.base64", "hmac-sha256-base64"],
    ["order.prefixed", "hmac-sha256-base64"],
    ["order.hex", "hmac-sha256-hex"],
    ["order.stamped", "timestamped"],
    ["order.standard", "standard-webhooks"],
    ["order.branded", "standard-webhooks"],
    ["order.ided", "hmac-sha256-base64"],
    ["order.twitch", "hmac-sha256-hex"],
    ["command.slack", "hmac-sha256-hex"],
  ])("%s: signed %s and taken (2xx), its handler run", async (event, scheme) => {
    calls.length = 0;
    const secrets = scheme === "standard-webhooks" ? { secret: whsec } : {};
    const sent = await send(schemes.model, running, { event, ...secrets, seed: 7 });
    expect(sent.lines[0]).toContain(`signed ${scheme} in `);
    expect(sent).toMatchObject({ code: 0, status: event === "command.slack" ? 204 : 200 });
    expect(calls).toEqual([event]);
  });

  it("a Standard Webhooks delivery to the webhook route is taken, twice with two new ids", async () => {
    const url = `${running.origin}/hooks`;
    for (const seed of [1, 1]) {
      const sent = await send(schemes.model, running, {
        event: "order.created",
        secret: whsec,
        url,
        seed,
      });
      expect(sent).toMatchObject({ code: 0, status: 200 });
    }
  });

  it("rotation: a delivery signed with an old and the current secret is taken", async () => {
    const sent = await send(schemes.model, running, {
      event: "order.stamped",
      secrets: ["retired-secret", secret],
      seed: 8,
    });
    expect(sent).toMatchObject({ code: 0, status: 200 });
  });

  it("a signing time outside the window is refused (422), a repeated delivery id too (409)", async () => {
    const stale = await send(schemes.model, running, {
      event: "order.standard",
      secret: whsec,
      signedAt: Math.floor(Date.now() / 1000) - 600,
      expect: "success",
    });
    expect(stale).toMatchObject({ code: 1, status: 422 });
    const once = { event: "order.standard", secret: whsec, deliveryId: "msg_fixed", seed: 9 };
    expect(await send(schemes.model, running, once)).toMatchObject({ code: 0, status: 200 });
    expect(await send(schemes.model, running, { ...once, expect: "success" })).toMatchObject({
      code: 1,
      status: 409,
    });
  });

  it("a secret Standard Webhooks cannot sign with is a usage problem, the secret not printed", async () => {
    const sent = await send(schemes.model, running, {
      event: "order.standard",
      secret: "plain secret!",
    });
    expect(sent.code).toBe(2);
    expect(sent.lines.join("\n")).toContain("no signing secret is a Standard Webhooks secret");
    expect(sent.lines.join("\n")).not.toContain("plain secret!");
  });
});

describe("test/fixtures/callbacks-replay: a timestamp header and a delivery id header, declared", () => {
  it("order.paid is taken: the trigger sends X-Sig-Timestamp and X-Delivery", async () => {
    const replay = await prepare("test/fixtures/callbacks-replay");
    const router = replay.mod.createCallbackRouter({
      signingSecrets: [secret],
      handlers: { "order.paid": () => ({ ok: true }), "order.viewed": () => undefined },
      webhook: { path: "/hooks", handlers: {} },
      replay: { seenIds: replay.mod.createMemorySeenIds() },
    });
    const running = await listen(router.node);
    try {
      for (const event of ["order.paid", "order.paid", "order.viewed"]) {
        const sent = await send(replay.model, running, { event });
        expect(sent.status, sent.lines.join("\n")).toBeLessThan(300);
      }
      const hook = await send(replay.model, running, {
        event: "shipped",
        url: `${running.origin}/hooks`,
      });
      expect(hook.status, hook.lines.join("\n")).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe("test/fixtures/features/standard-webhooks: declared delivery headers, sent typed", () => {
  it("each event is taken, its handler given the declared headers read as their types", async () => {
    const feature = await prepare("test/fixtures/features/standard-webhooks");
    const seen: Record<string, unknown>[] = [];
    const record = (_payload: unknown, ctx: { deliveryHeaders: Record<string, unknown> }) =>
      void seen.push(ctx.deliveryHeaders);
    const router = feature.mod.createCallbackRouter({
      signingSecrets: [whsec],
      webhook: { path: "/", handlers: { "invoice.paid": record, "invoice.voided": record } },
    });
    const running = await listen(router.node);
    try {
      for (const event of ["invoice.paid", "invoice.voided"]) {
        const sent = await send(feature.model, running, {
          event,
          secret: whsec,
          deliveryId: `msg_${event}`,
        });
        expect(sent, sent.lines.join("\n")).toMatchObject({ code: 0, status: 200 });
      }
    } finally {
      await running.close();
    }
    expect(seen).toHaveLength(2);
    for (const [i, headers] of seen.entries()) {
      expect(headers["webhook-id"]).toBe(i === 0 ? "msg_invoice.paid" : "msg_invoice.voided");
      expect(headers["webhook-timestamp"]).toBeTypeOf("number");
      expect(headers["X-Attempt"]).toBeTypeOf("number");
      expect(["live", "test"]).toContain(headers["X-Environment"]);
    }
  });
});

describe("test/fixtures/features/typed-webhooks-field: an event answered with a body", () => {
  it("a handshake answered with its type is a success; one answered without it is a problem", async () => {
    const feature = await prepare("test/fixtures/features/typed-webhooks-field");
    let answer: (payload: { challenge: string }) => unknown = (p) => ({ challenge: p.challenge });
    const router = feature.mod.createCallbackRouter({
      signingSecrets: [secret],
      webhook: {
        path: "/",
        handlers: {
          url_verification: (payload: { challenge: string }) => answer(payload),
          webhook_callback_verification: (payload: { challenge: string }) => payload.challenge,
        },
      },
    });
    const running = await listen(router.node);
    try {
      const taken = await send(feature.model, running, { event: "url_verification" });
      expect(taken, taken.lines.join("\n")).toMatchObject({ code: 0, status: 200 });
      answer = () => ({ token: "no challenge" });
      const wrong = await send(feature.model, running, { event: "url_verification" });
      expect(wrong.code).toBe(1);
      expect(wrong.lines.join("\n")).toContain("body.challenge");
      // a string answer is the text itself: judged as a string, not parsed as JSON
      const text = await send(feature.model, running, { event: "webhook_callback_verification" });
      expect(text, text.lines.join("\n")).toMatchObject({ code: 0, status: 200 });
    } finally {
      await running.close();
    }
  });
});
