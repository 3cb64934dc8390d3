/**
 * The stand-in delivers signed callbacks and webhook events (issue 32, item 4: the signature
 * schemes are "used by the router, `trigger` and the stand-in alike"). The package generated
 * from test/fixtures/callbacks-schemes (one callback per scheme, Standard Webhooks deliveries)
 * gives both ends: its `createStandIn({ deliver })` sends each event, and its own
 * `createCallbackRouter`, served by node:http on 127.0.0.1, must take every delivery signed
 * with the right secret and refuse (422) one signed with another.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  DeliverOptions,
  DeliveryOutcome,
  StandIn,
  StandInOptions,
} from "../generator/runtime/testing/stand-in.ts";
import { listen, type Running } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";

const secret = "stand-in-delivery-secret";
const whsec = `whsec_${randomBytes(32).toString("base64")}`;

type Generated = {
  router: {
    createCallbackRouter(options: Record<string, unknown>): {
      node: Parameters<typeof listen>[0];
    };
  };
  testing: {
    createStandIn(options?: StandInOptions): StandIn;
    listen(standIn: StandIn): Promise<{ url: string; close(): Promise<void> }>;
  };
};

const out = tempDir("apigen-stand-in-deliver-");
let mod: Generated;
let running: Running;
/** Events whose handler ran, with the body it got. */
const handled: { event: string; input: unknown }[] = [];
const callbackEvents = [
  "order.base64",
  "order.prefixed",
  "order.hex",
  "order.stamped",
  "order.standard",
  "order.branded",
  "order.ided",
  "order.twitch",
];

beforeAll(async () => {
  await writeGenerated("test/fixtures/callbacks-schemes", out);
  const load = (file: string) => import(pathToFileURL(join(out, file)).href);
  mod = { router: await load("src/callbacks.ts"), testing: await load("src/testing.ts") };
  const ack = (event: string) => (input: unknown) => {
    handled.push({ event, input });
    return { ok: true };
  };
  const router = mod.router.createCallbackRouter({
    signingSecrets: [secret, whsec],
    handlers: {
      ...Object.fromEntries([...callbackEvents, "vector.standard"].map((e) => [e, ack(e)])),
      "command.slack": (input: unknown) => void handled.push({ event: "command.slack", input }),
    },
    webhook: { path: "/hooks", handlers: { "order.created": ack("order.created") } },
  });
  running = await listen(router.node);
});

afterAll(async () => {
  await running?.close();
  rmSync(out, { recursive: true, force: true });
});

/** A stand-in of the package delivering to the router with these options. */
function standIn(deliver: Partial<DeliverOptions>): StandIn {
  return mod.testing.createStandIn({
    seed: 3,
    deliver: { url: running.origin, webhookUrl: `${running.origin}/hooks`, ...deliver },
  });
}

/** The scheme each callback of the fixture is signed with, and the secret the scheme takes. */
const schemes: [string, string, string][] = [
  ["order.base64", "base64 HMAC (no scheme named)", secret],
  ["order.prefixed", "base64 HMAC with a prefix", secret],
  ["order.hex", "hex HMAC with a prefix (sha256=<hex>)", secret],
  ["order.stamped", "timestamped (t=,v1=)", secret],
  ["order.standard", "Standard Webhooks", whsec],
  ["order.branded", "Standard Webhooks under svix- headers", whsec],
  ["order.ided", "base64 HMAC of <id><timestamp><body> (a signs template)", secret],
  ["order.twitch", "Twitch's hex HMAC over an RFC 3339 signing time", secret],
];

describe("standIn.deliver: the package's own router verifies each scheme", () => {
  it.each(schemes)("%s, signed %s, is taken (200) and its handler runs", async (event, _s, key) => {
    handled.length = 0;
    const outcome = await standIn({ secret: key }).deliver(event);
    expect(outcome).toMatchObject({ event, answered: true, status: 200 });
    expect(JSON.parse((outcome as { body: string }).body)).toEqual({ ok: true });
    expect(handled.map((h) => h.event)).toEqual([event]);
    // the body built from the event's type (Order), as the trigger builds it
    expect(handled[0]!.input).toMatchObject({ id: expect.any(String) });
  });

  it("a form callback signed Slack's way (v0=<hex> of v0:<timestamp>:<body>) is taken", async () => {
    handled.length = 0;
    const outcome = await standIn({ secret }).deliver("command.slack");
    expect(outcome).toMatchObject({ event: "command.slack", answered: true, status: 204 });
    expect(handled.map((h) => h.event)).toEqual(["command.slack"]);
    expect(handled[0]!.input).toMatchObject({ command: expect.any(String) });
    const wrong = await standIn({ secret: "not-the-secret" }).deliver("command.slack");
    expect(wrong).toMatchObject({ status: 422 });
    expect((wrong as { body: string }).body).toContain("X-Slack-Signature does not match the body");
  });

  it("a webhook event goes to webhookUrl, signed with Standard Webhooks, and is taken", async () => {
    handled.length = 0;
    const outcome = await standIn({ secret: whsec }).deliver("order.created");
    expect(outcome).toMatchObject({ answered: true, status: 200 });
    expect(handled.map((h) => h.event)).toEqual(["order.created"]);
  });

  it("rotation: secrets [retired, current] sign a timestamped delivery the router takes", async () => {
    const outcome = await standIn({ secrets: ["retired-secret", secret] }).deliver("order.stamped");
    expect(outcome).toMatchObject({ answered: true, status: 200 });
  });

  it.each(schemes)(
    "%s signed with the wrong secret is refused (422, the signature named), its handler never run",
    async (event, _s, key) => {
      handled.length = 0;
      const wrong = key.startsWith("whsec_")
        ? `whsec_${randomBytes(32).toString("base64")}`
        : "not-the-secret";
      const outcome = await standIn({ secret: wrong }).deliver(event);
      expect(outcome).toMatchObject({ event, answered: true, status: 422 });
      expect((outcome as { body: string }).body).toMatch(/signature/i);
      expect(handled).toEqual([]);
    },
  );

  it("a body given is sent as it is, and signed as sent", async () => {
    handled.length = 0;
    const body = JSON.stringify({ id: "ord_given", amount: 12 });
    const outcome = await standIn({ secret }).deliver("order.hex", { body });
    expect(outcome).toMatchObject({ answered: true, status: 200 });
    expect(handled[0]!.input).toMatchObject({ id: "ord_given" });
  });
});

describe("POST /_stand-in/deliveries/<event> (how `mock --deliver-to` is told to send)", () => {
  it("standIn.fetch sends the event and answers with the receiver's answer", async () => {
    handled.length = 0;
    const asked = new Request("http://stand-in.test/_stand-in/deliveries/order.stamped", {
      method: "POST",
    });
    const answer = await standIn({ secret }).fetch(asked);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ event: "order.stamped", status: 200 });
    expect(handled.map((h) => h.event)).toEqual(["order.stamped"]);
  });

  it("without deliver options the path is the API's, and not one of its endpoints (404)", async () => {
    const asked = new Request("http://stand-in.test/_stand-in/deliveries/order.hex", {
      method: "POST",
    });
    expect((await mod.testing.createStandIn().fetch(asked)).status).toBe(404);
  });
});

describe("standIn.deliver: limits and secrets", () => {
  it("a receiver that never answers ends the delivery at timeoutMs, with no secret in the problem", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent = createServer(() => undefined);
    silent.on("connection", (s) => sockets.add(s));
    const server = await listen(silent);
    try {
      const started = Date.now();
      const outcome: DeliveryOutcome = await standIn({
        url: server.origin,
        secret,
        timeoutMs: 150,
      }).deliver("order.hex");
      expect(outcome).toEqual({
        event: "order.hex",
        answered: false,
        problem: "no complete answer within 150 ms",
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const s of sockets) s.destroy();
      await server.close();
    }
  });

  it("an answer over maxAnswerBytes is not read", async () => {
    const big = await listen((_req, res) => res.end("x".repeat(5_000)));
    try {
      const outcome = await standIn({ url: big.origin, secret, maxAnswerBytes: 1_000 }).deliver(
        "order.hex",
      );
      expect(outcome).toMatchObject({ answered: false, problem: "answer over 1000 bytes" });
    } finally {
      await big.close();
    }
  });

  it("a secret Standard Webhooks cannot sign with is an error that does not repeat it", async () => {
    const plain = "plain secret, not whsec!";
    const error = await standIn({ secret: plain })
      .deliver("order.standard")
      .catch((e: Error) => e);
    expect(String(error)).toContain("no signing secret is a Standard Webhooks secret");
    expect(String(error)).not.toContain(plain);
  });

  it("an unknown event names the spec's events; without deliver options deliver says so", async () => {
    await expect(standIn({ secret }).deliver("order.nope")).rejects.toThrow(
      /unknown event "order.nope"; the spec has: order.base64, /,
    );
    await expect(mod.testing.createStandIn().deliver("order.hex")).rejects.toThrow(
      "no deliver option",
    );
  });

  it("no deliver secret, and an address that is not http(s) or holds a password, are refused when the stand-in is made", () => {
    expect(() => standIn({})).toThrow("deliver needs a signing secret");
    expect(() => standIn({ secret, url: "127.0.0.1:3000" })).toThrow(
      "deliver.url must be an absolute http(s) address",
    );
    const withPassword = () =>
      standIn({ secret, webhookUrl: "http://merchant:pa55word-x@127.0.0.1:1/hooks" });
    expect(withPassword).toThrow("deliver.webhookUrl must not hold a user or password");
    expect(
      String(
        (() => {
          try {
            withPassword();
          } catch (e) {
            return e;
          }
        })(),
      ),
    ).not.toContain("pa55word-x");
  });
});
