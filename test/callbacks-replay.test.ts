/**
 * Replay protection (issue 30, item 11), on the package of test/fixtures/callbacks-replay
 * served by `router.node` on 127.0.0.1: a signed delivery sent twice is refused once a
 * seen-id store is given (409), a signing time outside the tolerance window is refused (422),
 * an id is released when the answer is a 5xx so the sender's retry is taken, and the ids
 * expire (with the timestamp's window, or after `rememberSeconds`). The webhook deliveries
 * carry their time in the `t=` item of the signature header, which the signature covers, and
 * their id in the signed body; their event header must agree with the event the body names.
 */
import { createHmac } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as merchant from "../generated/src/callbacks.ts";
import { createMemorySeenIds, type SeenIdStore } from "../generator/runtime/callbacks/replay.ts";
import { listen, send, type Running, type Sent } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";

const secret = "replay-secret";
/** The clock of the routers below, in ms: moved by the tests. */
const start = 1_800_000_000_000;
let clock = start;
const now = () => clock;
const seconds = () => Math.floor(clock / 1000);

const out = tempDir("apigen-callbacks-replay-");
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The fixture's router module, loosely typed. */
type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): {
    node: Parameters<typeof listen>[0];
    fetch(request: Request): Promise<Response>;
  };
  createMemorySeenIds: typeof createMemorySeenIds;
};
let mod: RouterModule;
beforeAll(async () => {
  await writeGenerated("test/fixtures/callbacks-replay", out);
  mod = (await import(pathToFileURL(join(out, "src/callbacks.ts")).href)) as RouterModule;
});

const hmac = (data: string) => createHmac("sha256", secret).update(data);

/** Runs `test` against a router on 127.0.0.1 built with these options; closes it after. */
async function serving(
  options: Record<string, unknown>,
  test: (running: Running) => Promise<void>,
) {
  const running = await listen(
    mod.createCallbackRouter({ signingSecrets: [secret], ...options }).node,
  );
  try {
    await test(running);
  } finally {
    await running.close();
  }
}

describe("a callback whose signature credential declares a timestamp header and a delivery id header", () => {
  const body = JSON.stringify({ event: "order.paid", order: "o-1" });
  /** An order.paid delivery: the default scheme over the body, X-Sig-Timestamp and X-Delivery as given. */
  const deliver = (running: Running, headers: Record<string, string | undefined> = {}) => {
    const all: Record<string, string | undefined> = {
      "X-Sig": hmac(body).digest("base64"),
      "X-Sig-Timestamp": String(seconds()),
      "X-Delivery": "d-1",
      ...headers,
    };
    const sent = Object.fromEntries(
      Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return send(running, "/order-paid", { body, headers: sent, signWith: false });
  };
  const calls: string[] = [];
  const handlers = {
    "order.paid": (input: { order: string }) => {
      calls.push(input.order);
      return { ok: true };
    },
  };
  const refusal = (sent: Sent) => ({ status: sent.status, message: sent.json?.error?.message });

  it("refuses the same signed delivery sent twice with 409, and runs its handler once", async () => {
    clock = start;
    calls.length = 0;
    await serving(
      { handlers, replay: { seenIds: createMemorySeenIds({ now }), now } },
      async (running) => {
        expect((await deliver(running)).status).toBe(200);
        expect(refusal(await deliver(running))).toEqual({
          status: 409,
          message: "this delivery was already received (its X-Delivery header was seen before)",
        });
        expect((await deliver(running, { "X-Delivery": "d-2" })).status).toBe(200);
        expect(calls).toEqual(["o-1", "o-1"]);
      },
    );
  });

  it("refuses a signing time outside the window either way, and takes one at its edge", async () => {
    clock = start;
    calls.length = 0;
    await serving({ handlers, replay: { now } }, async (running) => {
      const at = (offset: number) =>
        deliver(running, { "X-Sig-Timestamp": String(seconds() + offset) });
      expect((await at(-300)).status).toBe(200);
      expect((await at(300)).status).toBe(200);
      expect(refusal(await at(-301))).toEqual({
        status: 422,
        message:
          "X-Sig-Timestamp is 301 s in the past; calls signed more than 300 s from now are refused",
      });
      expect(refusal(await at(3600))).toEqual({
        status: 422,
        message:
          "X-Sig-Timestamp is 3600 s in the future; calls signed more than 300 s from now are refused",
      });
      expect(refusal(await deliver(running, { "X-Sig-Timestamp": undefined }))).toEqual({
        status: 422,
        message: "missing X-Sig-Timestamp header; it carries the time the call was signed",
      });
      for (const bad of ["12abc", "-5", "1.5", "1e9", "1234567890123"])
        expect(refusal(await deliver(running, { "X-Sig-Timestamp": bad }))).toEqual({
          status: 422,
          message: "X-Sig-Timestamp is not a time in unix seconds",
        });
      expect(calls).toHaveLength(2);
    });
    await serving({ handlers, replay: { now, toleranceSeconds: 60 } }, async (running) => {
      expect((await deliver(running, { "X-Sig-Timestamp": String(seconds() - 60) })).status).toBe(
        200,
      );
      expect((await deliver(running, { "X-Sig-Timestamp": String(seconds() - 61) })).status).toBe(
        422,
      );
    });
    await serving({ handlers, replay: { now, toleranceSeconds: Infinity } }, async (running) => {
      expect((await deliver(running, { "X-Sig-Timestamp": "1" })).status).toBe(200);
    });
  });

  it("checks the signature first: a bad one is refused as such, whatever the time", async () => {
    clock = start;
    await serving({ handlers, replay: { now } }, async (running) => {
      const answer = await deliver(running, {
        "X-Sig": hmac("other").digest("base64"),
        "X-Sig-Timestamp": "1",
      });
      expect(refusal(answer)).toEqual({ status: 422, message: "X-Sig does not match the body" });
    });
  });

  it("releases the id when the answer is a 5xx, so the sender's retry is taken", async () => {
    clock = start;
    let fail = true;
    const failing = {
      "order.paid": () => {
        if (fail) throw new Error("database down");
        return { ok: true };
      },
    };
    await serving(
      { handlers: failing, replay: { seenIds: createMemorySeenIds({ now }), now } },
      async (running) => {
        expect((await deliver(running)).status).toBe(500);
        fail = false;
        expect((await deliver(running)).status).toBe(200);
        expect((await deliver(running)).status).toBe(409);
      },
    );
  });

  it("with a store, a delivery must carry its id: missing or over 256 characters is 400", async () => {
    clock = start;
    await serving(
      { handlers, replay: { seenIds: createMemorySeenIds({ now }), now } },
      async (running) => {
        expect(refusal(await deliver(running, { "X-Delivery": undefined }))).toEqual({
          status: 400,
          message: "X-Delivery header is missing; it identifies the delivery",
        });
        expect(refusal(await deliver(running, { "X-Delivery": "x".repeat(257) }))).toEqual({
          status: 400,
          message:
            "X-Delivery header must be a string of at most 256 characters; it identifies the delivery",
        });
        expect((await deliver(running, { "X-Delivery": "x".repeat(256) })).status).toBe(200);
      },
    );
  });

  it("claims an id until its signing time leaves the window", async () => {
    clock = start;
    const claims: [string, number][] = [];
    const store: SeenIdStore = {
      claim: (id, expiresAt) => (claims.push([id, expiresAt]), true),
    };
    await serving({ handlers, replay: { seenIds: store, now } }, async (running) => {
      await deliver(running, { "X-Sig-Timestamp": String(seconds() - 100) });
    });
    expect(claims).toEqual([["d-1", (seconds() - 100 + 300) * 1000]]);
  });

  it("takes an asynchronous store; one that rejects is the generic 500, and onError sees it", async () => {
    clock = start;
    const held = new Set<string>();
    const store: SeenIdStore = {
      claim: async (id) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (held.has(id)) return false;
        held.add(id);
        return true;
      },
    };
    await serving({ handlers, replay: { seenIds: store, now } }, async (running) => {
      const both = await Promise.all([deliver(running), deliver(running)]);
      expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    });
    const errors: unknown[] = [];
    const outage: SeenIdStore = { claim: () => Promise.reject(new Error("store down")) };
    await serving(
      { handlers, replay: { seenIds: outage, now }, onError: (e: unknown) => errors.push(e) },
      async (running) => {
        expect(refusal(await deliver(running))).toEqual({ status: 500, message: "internal error" });
      },
    );
    expect(errors).toEqual([new Error("store down")]);
  });
});

describe("a callback whose credential declares a delivery id and no timestamp", () => {
  const body = JSON.stringify({ order: "o-9" });
  const deliver = (running: Running, id = "v-1") =>
    send(running, "/order-viewed", {
      body,
      headers: { "X-Id-Sig": hmac(body).digest("base64"), "X-Delivery": id },
      signWith: false,
    });

  it("remembers an id for rememberSeconds (default a day), then takes it again", async () => {
    clock = start;
    const seenIds = createMemorySeenIds({ now });
    const handlers = { "order.viewed": () => undefined };
    await serving({ handlers, replay: { seenIds, now } }, async (running) => {
      expect((await deliver(running)).status).toBe(204);
      clock = start + 86_399_000;
      expect((await deliver(running)).status).toBe(409);
      clock = start + 86_400_000;
      expect((await deliver(running)).status).toBe(204);
    });
    clock = start;
    await serving(
      { handlers, replay: { seenIds: createMemorySeenIds({ now }), now, rememberSeconds: 10 } },
      async (running) => {
        expect((await deliver(running)).status).toBe(204);
        clock = start + 9_000;
        expect((await deliver(running)).status).toBe(409);
        clock = start + 10_000;
        expect((await deliver(running)).status).toBe(204);
      },
    );
  });
});

describe("createMemorySeenIds", () => {
  it("holds an id until it expires, forgets it on release, and stays within maxEntries", () => {
    let t = 0;
    const store = createMemorySeenIds({ now: () => t, maxEntries: 10 });
    expect(store.claim("a", 100)).toBe(true);
    expect(store.claim("a", 100)).toBe(false);
    t = 99;
    expect(store.claim("a", 200)).toBe(false);
    t = 100;
    expect(store.claim("a", 200)).toBe(true);
    store.release("a");
    expect(store.claim("a", 300)).toBe(true);
    // a flood: expired ids go first, then the oldest; never more than 10
    for (let i = 0; i < 1000; i++) {
      expect(store.claim(`id-${i}`, i % 2 ? 150 : 10_000)).toBe(true);
      expect(store.size).toBeLessThanOrEqual(10);
    }
    expect(store.claim("id-998", 10_000)).toBe(false); // among the newest: still held
    expect(() => createMemorySeenIds({ maxEntries: 0 })).toThrow(
      /maxEntries must be a whole number/,
    );
  });
});

describe("webhook deliveries with a t= item and an id in the signed body", () => {
  /** Hook-Signature: t=<seconds>,v1=<hex HMAC-SHA256 of `<t>.<body>`>, as Stripe signs. */
  const signature = {
    decode: (header: string) => {
      const hex = /(?:^|,)v1=([0-9a-f]{64})(?:,|$)/.exec(header)?.[1];
      return hex === undefined ? undefined : new Uint8Array(Buffer.from(hex, "hex"));
    },
    compute: (
      key: string,
      content: { body: Uint8Array; headers: { get(name: string): string | null } },
    ) => {
      const t = /(?:^|,)t=(\d+)/.exec(content.headers.get("Hook-Signature") ?? "")?.[1] ?? "";
      return createHmac("sha256", key).update(`${t}.`).update(content.body).digest();
    },
  };
  const sign = (body: string, t = seconds()) => `t=${t},v1=${hmac(`${t}.${body}`).digest("hex")}`;
  const shipped = JSON.stringify({ id: "evt_1", kind: "shipped", parcel: "p-1" });
  const seen: string[] = [];
  const webhook = {
    path: "/hooks",
    handlers: { shipped: (p: { id: string }) => void seen.push(p.id) },
    onUnknownEvent: (p: { id: string }) => void seen.push(`unknown ${p.id}`),
  };
  const post = (running: Running, body: string, headers: Record<string, string>) =>
    send(running, "/hooks", {
      body,
      headers: { "X-Hook-Event": "shipped", "Hook-Signature": sign(body), ...headers },
      signWith: false,
    });

  it("refuses a stale t=, a replay under a fresh t= (the signature covers t), and an event id seen before", async () => {
    clock = start;
    seen.length = 0;
    const options = { signature, webhook, replay: { seenIds: createMemorySeenIds({ now }), now } };
    await serving(options, async (running) => {
      const stale = await post(running, shipped, {
        "Hook-Signature": sign(shipped, seconds() - 301),
      });
      expect(stale.status).toBe(422);
      expect(stale.json.error.message).toBe(
        "the t= item of Hook-Signature is 301 s in the past; calls signed more than 300 s from now are refused",
      );
      const captured = sign(shipped, seconds() - 200);
      expect((await post(running, shipped, { "Hook-Signature": captured })).status).toBe(200);
      // the same signature with its t= moved into the window no longer matches
      const moved = captured.replace(/^t=\d+/, `t=${seconds()}`);
      expect((await post(running, shipped, { "Hook-Signature": moved })).json.error.message).toBe(
        "Hook-Signature does not match the body",
      );
      // signed anew (by the service) with the same event id: a repeat
      const again = await post(running, shipped, {});
      expect(again.status).toBe(409);
      expect(again.json.error.message).toBe(
        "this delivery was already received (its body.id was seen before)",
      );
      const twice = await post(running, shipped, {
        "Hook-Signature": `t=${seconds()},${sign(shipped)}`,
      });
      expect(twice.json.error.message).toBe("Hook-Signature has more than one t= item");
      expect(
        (await post(running, shipped, { "Hook-Signature": `v1=${"0".repeat(64)}` })).status,
      ).toBe(422);
      expect(seen).toEqual(["evt_1"]);
    });
  });

  it("refuses a delivery whose event header names another event than its signed body", async () => {
    clock = start;
    seen.length = 0;
    await serving({ signature, webhook, replay: { now } }, async (running) => {
      const renamed = await post(running, shipped, { "X-Hook-Event": "cancelled" });
      expect(renamed.status).toBe(400);
      expect(renamed.json.error.message).toBe(
        'X-Hook-Event names the event "cancelled" but the signed body.kind names "shipped"',
      );
      // an event the spec does not list would reach onUnknownEvent with the signed shipped body
      const unknown = await post(running, shipped, { "X-Hook-Event": "refunded" });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error.message).toBe(
        'X-Hook-Event names the event "refunded" but the signed body.kind names "shipped"',
      );
      const unlisted = JSON.stringify({ id: "evt_2", kind: "refunded" });
      expect((await post(running, unlisted, { "X-Hook-Event": "refunded" })).status).toBe(200);
      expect(seen).toEqual(["unknown evt_2"]);
    });
  });
});

describe("replay options that would protect nothing, or are not numbers, are refused at creation", () => {
  it("a seen-id store or a window for the Merchant spec, which declares neither", () => {
    const handlers = {} as merchant.CallbackRouterOptions["handlers"];
    expect(() =>
      merchant.createCallbackRouter({
        signingSecrets: ["s"],
        handlers,
        replay: { seenIds: createMemorySeenIds() },
      }),
    ).toThrow(
      "createCallbackRouter: replay.seenIds is given, but no signed callback or webhook of this spec declares a delivery id (deliveryId of its signature credential), so no repeat would be detected; see docs/callbacks.md",
    );
    expect(() =>
      merchant.createCallbackRouter({
        signingSecrets: ["s"],
        handlers,
        replay: { toleranceSeconds: 60 },
      }),
    ).toThrow(
      /replay\.toleranceSeconds is given, but no signed callback or webhook of this spec declares a timestamp/,
    );
  });

  it("a window or a memory that is not a positive number of seconds", () => {
    for (const toleranceSeconds of [0, -1, Number.NaN, "300"])
      expect(() =>
        mod.createCallbackRouter({
          signingSecrets: [secret],
          handlers: {},
          replay: { toleranceSeconds },
        }),
      ).toThrow(
        /replay\.toleranceSeconds must be a positive number of seconds \(Infinity: no window\)/,
      );
    expect(() =>
      mod.createCallbackRouter({
        signingSecrets: [secret],
        handlers: {},
        replay: { rememberSeconds: Infinity },
      }),
    ).toThrow(/replay\.rememberSeconds must be a positive number of seconds, not Infinity/);
  });
});
