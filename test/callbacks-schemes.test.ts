/**
 * Signature schemes (issue 32, item 4), on the package of test/fixtures/callbacks-schemes
 * served by `router.node` on 127.0.0.1: every scheme a spec can name is verified by the router
 * as the service writes it (signed here with node:crypto, independently of the runtime's Web
 * Crypto code), and refused when it is not: another secret, another body, a stale or missing
 * signing time, no `v1` signature, a malformed encoding. Rotation: a header with a signature
 * under each of two secrets passes a router that knows either, and a router given two secrets
 * takes a delivery signed with either. Standard Webhooks keys with the bytes of a `whsec_`
 * secret, not its text. An HMAC scheme's `signs` template covers what it spells, with the
 * values of the headers it names: Slack's published example verifies as published.
 */
import { createHmac, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PipelineResult } from "../generator/pipeline.ts";
import { signatureHeaders } from "../generator/runtime/callbacks/schemes.ts";
import { verifyWebhook } from "../generator/runtime/callbacks/signature.ts";
import { listen, send, type Running, type Sent } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";

const secret = "scheme-secret";
const other = "another-secret";
/** A Standard Webhooks secret: whsec_ and the key in base64. */
const key = randomBytes(32);
const whsec = `whsec_${key.toString("base64")}`;
const otherKey = randomBytes(24);
const otherWhsec = `whsec_${otherKey.toString("base64")}`;

/** The routers' clock, in ms. */
const clock = 1_800_000_000_000;
const now = () => clock;
const seconds = Math.floor(clock / 1000);

const out = tempDir("apigen-callbacks-schemes-");
afterAll(() => rmSync(out, { recursive: true, force: true }));

type RouterModule = {
  createCallbackRouter(options: Record<string, unknown>): {
    node: Parameters<typeof listen>[0];
  };
  webhookSignatureScheme: Parameters<typeof signatureHeaders>[0];
};
let mod: RouterModule;
let generated: PipelineResult;
beforeAll(async () => {
  generated = await writeGenerated("test/fixtures/callbacks-schemes", out);
  mod = (await import(pathToFileURL(join(out, "src/callbacks.ts")).href)) as RouterModule;
});

const body = JSON.stringify({ id: "ord_1", amount: 1250 });
const hmac = (k: string | Buffer, ...parts: string[]) => {
  const h = createHmac("sha256", k);
  for (const part of parts) h.update(part);
  return h.digest();
};

/** Every handler answers `{ ok: true }` and records the event; the slash command, its body. */
const calls: string[] = [];
const commands: unknown[] = [];
const ack = (event: string) => () => {
  calls.push(event);
  return { ok: true };
};
const handlers = {
  ...Object.fromEntries(
    ["base64", "prefixed", "hex", "stamped", "standard", "branded"].map((n) => [
      `order.${n}`,
      ack(n),
    ]),
  ),
  "order.ided": ack("ided"),
  "order.twitch": ack("twitch"),
  "vector.standard": ack("vector"),
  "command.slack": (command: unknown) => void commands.push(command),
};

/** A Standard Webhooks secret no delivery here is signed with: the fixture's router needs one. */
const spareWhsec = `whsec_${randomBytes(32).toString("base64")}`;

/**
 * Runs `test` against a router with these secrets on 127.0.0.1 (and a spare whsec_ secret: a
 * router of the fixture serves Standard Webhooks routes too) and this clock; closes it after.
 */
async function serving(
  secrets: string[],
  test: (running: Running) => Promise<void>,
  clockMs: () => number = now,
) {
  const router = mod.createCallbackRouter({
    signingSecrets: [...secrets, spareWhsec],
    handlers,
    replay: { now: clockMs },
  });
  const running = await listen(router.node);
  try {
    await test(running);
  } finally {
    await running.close();
  }
}

/** One signed POST; its answer's status and message. */
async function post(
  running: Running,
  path: string,
  headers: Record<string, string>,
  sent = body,
): Promise<{ status: number; message?: string }> {
  const answer: Sent = await send(running, path, { body: sent, headers, signWith: false });
  return { status: answer.status, message: answer.json?.error?.message };
}

const ok = { status: 200, message: undefined };
const refused = (message: string) => ({ status: 422, message });

describe("golden files", () => {
  const contents = (path: string) => generated.files.find((f) => f.path === path)!.contents;

  it("src/callbacks.ts matches its snapshot (each route's scheme, the webhooks')", async () => {
    await expect(contents("src/callbacks.ts")).toMatchFileSnapshot(
      "./__snapshots__/callbacks-schemes/callbacks.ts",
    );
  });

  it("the OpenAPI document's signature header parameters match their snapshot (x-apigen-signature-scheme)", async () => {
    const document = JSON.parse(contents("openapi.json")) as {
      components: { parameters: Record<string, { in: string }> };
    };
    const headers = Object.fromEntries(
      Object.entries(document.components.parameters).filter(([, p]) => p.in === "header"),
    );
    await expect(`${JSON.stringify(headers, null, 2)}\n`).toMatchFileSnapshot(
      "./__snapshots__/callbacks-schemes/signature-parameters.json",
    );
  });
});

describe("hmac-sha256-base64 and hmac-sha256-hex, with and without a prefix", () => {
  it("takes the body's digest in the declared encoding after the declared prefix", async () => {
    await serving([secret], async (running) => {
      const digest = hmac(secret, body);
      expect(await post(running, "/base64", { "X-Signature": digest.toString("base64") })).toEqual(
        ok,
      );
      expect(
        await post(running, "/prefixed", {
          "X-Signature-B64": `sha256=${digest.toString("base64")}`,
        }),
      ).toEqual(ok);
      expect(
        await post(running, "/hex", { "X-Hub-Signature-256": `sha256=${digest.toString("hex")}` }),
      ).toEqual(ok);
    });
  });

  it("takes a header of several signatures while a secret rotates (PagerDuty's v1=<hex>,v1=<hex>)", async () => {
    await serving([secret], async (running) => {
      const hex = (k: string) => `sha256=${hmac(k, body).toString("hex")}`;
      const rotating = { "X-Hub-Signature-256": `${hex(other)},${hex(secret)}` };
      expect(await post(running, "/hex", rotating)).toEqual(ok);
      const spaced = { "X-Hub-Signature-256": `${hex(secret)}, v2=${"0".repeat(64)}` };
      expect(await post(running, "/hex", spaced)).toEqual(ok);
      const b64 = (k: string) => hmac(k, body).toString("base64");
      expect(
        await post(running, "/base64", { "X-Signature": `${b64(other)},${b64(secret)}` }),
      ).toEqual(ok);
      expect(
        await post(running, "/hex", { "X-Hub-Signature-256": `${hex(other)},${hex("third")}` }),
      ).toEqual(refused("X-Hub-Signature-256 does not match the body"));
      const many = Array.from({ length: 21 }, () => hex(secret)).join(",");
      expect(await post(running, "/hex", { "X-Hub-Signature-256": many })).toEqual(
        refused("X-Hub-Signature-256 is not a well-formed signature"),
      );
    });
  });

  it("refuses another secret, another body, a missing prefix, upper-case hex and base64 for hex", async () => {
    await serving([secret], async (running) => {
      const hex = (d: Buffer) => ({ "X-Hub-Signature-256": `sha256=${d.toString("hex")}` });
      expect(await post(running, "/hex", hex(hmac(other, body)))).toEqual(
        refused("X-Hub-Signature-256 does not match the body"),
      );
      expect(await post(running, "/hex", hex(hmac(secret, `${body} `)))).toEqual(
        refused("X-Hub-Signature-256 does not match the body"),
      );
      const malformed = refused("X-Hub-Signature-256 is not a well-formed signature");
      const digest = hmac(secret, body);
      for (const value of [
        digest.toString("hex"),
        `sha256=${digest.toString("hex").toUpperCase()}`,
        `sha256=${digest.toString("base64")}`,
        `sha1=${digest.toString("hex")}`,
      ])
        expect(await post(running, "/hex", { "X-Hub-Signature-256": value })).toEqual(malformed);
      expect(
        await post(running, "/prefixed", { "X-Signature-B64": digest.toString("base64") }),
      ).toEqual(refused("X-Signature-B64 is not a well-formed signature"));
      expect(await post(running, "/hex", {})).toEqual(
        refused("missing X-Hub-Signature-256 header"),
      );
    });
  });
});

describe("timestamped (t=<unix>,v1=<hex> over <t>.<body>)", () => {
  const stamped = (t: number, ...keys: string[]) => ({
    "Stripe-Signature": [
      `t=${t}`,
      ...keys.map((k) => `v1=${hmac(k, `${t}.`, body).toString("hex")}`),
    ].join(","),
  });

  it("takes a v1 of <t>.<body>, any of several, and ignores other items", async () => {
    await serving([secret], async (running) => {
      expect(await post(running, "/stamped", stamped(seconds, secret))).toEqual(ok);
      // rotation: the service signs with the old and the new secret
      expect(await post(running, "/stamped", stamped(seconds, other, secret))).toEqual(ok);
      const withV0 = `${stamped(seconds, secret)["Stripe-Signature"]},v0=${"0".repeat(64)}`;
      expect(await post(running, "/stamped", { "Stripe-Signature": withV0 })).toEqual(ok);
    });
  });

  it("refuses a digest of the body alone, another t than the one signed, and another secret", async () => {
    await serving([secret], async (running) => {
      const bodyOnly = `t=${seconds},v1=${hmac(secret, body).toString("hex")}`;
      const mismatch = refused("Stripe-Signature does not match the body");
      expect(await post(running, "/stamped", { "Stripe-Signature": bodyOnly })).toEqual(mismatch);
      const moved = stamped(seconds - 10, secret)["Stripe-Signature"].replace(
        `t=${seconds - 10}`,
        `t=${seconds}`,
      );
      expect(await post(running, "/stamped", { "Stripe-Signature": moved })).toEqual(mismatch);
      expect(await post(running, "/stamped", stamped(seconds, other))).toEqual(mismatch);
    });
  });

  it("refuses a stale or future t, a missing t, two t items and a header without v1", async () => {
    await serving([secret], async (running) => {
      expect(await post(running, "/stamped", stamped(seconds - 301, secret))).toEqual(
        refused(
          "the t= item of Stripe-Signature is 301 s in the past; calls signed more than 300 s from now are refused",
        ),
      );
      expect(await post(running, "/stamped", stamped(seconds + 600, secret))).toEqual(
        refused(
          "the t= item of Stripe-Signature is 600 s in the future; calls signed more than 300 s from now are refused",
        ),
      );
      expect(await post(running, "/stamped", stamped(seconds - 300, secret))).toEqual(ok);
      const v1 = `v1=${hmac(secret, `${seconds}.`, body).toString("hex")}`;
      expect(await post(running, "/stamped", { "Stripe-Signature": v1 })).toEqual(
        refused("Stripe-Signature has no t= item; it carries the time the call was signed"),
      );
      expect(
        await post(running, "/stamped", { "Stripe-Signature": `t=${seconds},t=${seconds},${v1}` }),
      ).toEqual(refused("Stripe-Signature has more than one t= item"));
      expect(await post(running, "/stamped", { "Stripe-Signature": `t=${seconds}` })).toEqual(
        refused("Stripe-Signature has no v1= signature"),
      );
      expect(await post(running, "/stamped", { "Stripe-Signature": `t=${seconds},v1=zz` })).toEqual(
        refused("Stripe-Signature is not a well-formed signature"),
      );
    });
  });

  it("takes a delivery signed with either secret of a router given two (rotation)", async () => {
    await serving([other, secret], async (running) => {
      expect(await post(running, "/stamped", stamped(seconds, secret))).toEqual(ok);
      expect(await post(running, "/stamped", stamped(seconds, other))).toEqual(ok);
      expect(await post(running, "/stamped", stamped(seconds, "third"))).toEqual(
        refused("Stripe-Signature does not match the body"),
      );
    });
  });
});

describe("standard-webhooks (v1,<base64> over <id>.<timestamp>.<body>, whsec_ secrets)", () => {
  const standard = (
    id: string,
    t: number,
    keys: Buffer[],
    names = { id: "webhook-id", timestamp: "webhook-timestamp", signature: "webhook-signature" },
  ) => ({
    [names.id]: id,
    [names.timestamp]: String(t),
    [names.signature]: keys
      .map((k) => `v1,${hmac(k, `${id}.${t}.`, body).toString("base64")}`)
      .join(" "),
  });

  it("takes a v1 signature keyed with the bytes of the whsec_ secret, among others", async () => {
    await serving([whsec], async (running) => {
      expect(await post(running, "/standard", standard("msg_1", seconds, [key]))).toEqual(ok);
      expect(await post(running, "/standard", standard("msg_2", seconds, [otherKey, key]))).toEqual(
        ok,
      );
      const asymmetric = standard("msg_3", seconds, [key]);
      asymmetric["webhook-signature"] =
        `v1a,${"A".repeat(86)}== ${asymmetric["webhook-signature"]}`;
      expect(await post(running, "/standard", asymmetric)).toEqual(ok);
      const branded = standard("msg_4", seconds, [key], {
        id: "svix-id",
        timestamp: "svix-timestamp",
        signature: "svix-signature",
      });
      expect(await post(running, "/branded", branded)).toEqual(ok);
    });
  });

  it("refuses the secret's text as the key, another id or time than signed, and a stale time", async () => {
    await serving([whsec], async (running) => {
      const mismatch = refused("webhook-signature does not match the body");
      const keyedWithText = {
        "webhook-id": "msg_1",
        "webhook-timestamp": String(seconds),
        "webhook-signature": `v1,${hmac(whsec, `msg_1.${seconds}.`, body).toString("base64")}`,
      };
      expect(await post(running, "/standard", keyedWithText)).toEqual(mismatch);
      const swapped = { ...standard("msg_1", seconds, [key]), "webhook-id": "msg_2" };
      expect(await post(running, "/standard", swapped)).toEqual(mismatch);
      const later = {
        ...standard("msg_1", seconds, [key]),
        "webhook-timestamp": String(seconds + 1),
      };
      expect(await post(running, "/standard", later)).toEqual(mismatch);
      expect(await post(running, "/standard", standard("msg_1", seconds, [otherKey]))).toEqual(
        mismatch,
      );
      expect(await post(running, "/standard", standard("msg_1", seconds - 400, [key]))).toEqual(
        refused(
          "webhook-timestamp is 400 s in the past; calls signed more than 300 s from now are refused",
        ),
      );
    });
  });

  it("refuses a delivery without its id or time, and a header without a v1 signature", async () => {
    await serving([whsec], async (running) => {
      const signed = standard("msg_1", seconds, [key]);
      const without = (name: string) =>
        Object.fromEntries(Object.entries(signed).filter(([n]) => n !== name));
      expect(await post(running, "/standard", without("webhook-id"))).toEqual(
        refused("missing webhook-id header; it is signed with the body"),
      );
      expect(await post(running, "/standard", without("webhook-timestamp"))).toEqual(
        refused("missing webhook-timestamp header; it carries the time the call was signed"),
      );
      expect(
        await post(running, "/standard", {
          ...signed,
          "webhook-signature": `v1a,${"A".repeat(88)}`,
        }),
      ).toEqual(refused("webhook-signature has no v1, signature"));
      expect(
        await post(running, "/standard", { ...signed, "webhook-signature": "v1,not-base64" }),
      ).toEqual(refused("webhook-signature is not a well-formed signature"));
    });
  });

  it("takes a delivery keyed by either whsec_ secret of a router given two (rotation)", async () => {
    await serving([otherWhsec, whsec], async (running) => {
      expect(await post(running, "/standard", standard("msg_1", seconds, [key]))).toEqual(ok);
      expect(await post(running, "/standard", standard("msg_2", seconds, [otherKey]))).toEqual(ok);
    });
  });

  it("refuses at creation secrets of which none holds a Standard Webhooks key, without repeating them", () => {
    const create = () =>
      mod.createCallbackRouter({ signingSecrets: ["not base64!"], handlers, replay: { now } });
    expect(create).toThrow(
      "createCallbackRouter: no signing secret is a Standard Webhooks secret: one must be whsec_ followed by the key in padded base64",
    );
    try {
      create();
    } catch (error) {
      expect((error as Error).message).not.toContain("not base64!");
    }
  });
});

/**
 * The example of the Standard Webhooks specification (github.com/standard-webhooks/standard-webhooks,
 * spec/standard-webhooks.md), which its reference libraries test against too.
 */
describe("the Standard Webhooks specification's own example", () => {
  const vector = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };
  const headers = (signature = vector.signature) => ({
    "webhook-id": vector.id,
    "webhook-timestamp": String(vector.timestamp),
    "webhook-signature": signature,
  });

  /** A router whose clock is `seconds` after the example was signed, on 127.0.0.1. */
  const at = (seconds: number, test: (running: Running) => Promise<void>) =>
    serving([vector.secret], test, () => (vector.timestamp + seconds) * 1000);

  it("the router takes it as published, and refuses it altered or outside the window", async () => {
    await at(10, async (running) => {
      expect(await post(running, "/vector", headers(), vector.body)).toEqual(ok);
      expect(await post(running, "/vector", headers(), '{"test": 2432232315}')).toEqual(
        refused("webhook-signature does not match the body"),
      );
      // rotation: the published signature after another key's
      const other = `v1,${hmac(otherKey, `${vector.id}.${vector.timestamp}.`, vector.body).toString("base64")}`;
      expect(
        await post(running, "/vector", headers(`${other} ${vector.signature}`), vector.body),
      ).toEqual(ok);
    });
    await at(301, async (running) => {
      expect(await post(running, "/vector", headers(), vector.body)).toEqual(
        refused(
          "webhook-timestamp is 301 s in the past; calls signed more than 300 s from now are refused",
        ),
      );
    });
  });

  it("the runtime's signer (the trigger's) writes the published signature", async () => {
    const written = await signatureHeaders(
      { name: "standard-webhooks", id: "webhook-id", timestamp: "webhook-timestamp" },
      "webhook-signature",
      [vector.secret],
      vector.body,
      { timestamp: vector.timestamp, id: vector.id },
    );
    expect(written).toEqual(headers());
  });
});

describe("the runtime's signer (the one the trigger uses) writes what the router reads", () => {
  const schemes = [
    ["/base64", "X-Signature", { name: "hmac-sha256-base64" }],
    ["/prefixed", "X-Signature-B64", { name: "hmac-sha256-base64", prefix: "sha256=" }],
    ["/hex", "X-Hub-Signature-256", { name: "hmac-sha256-hex", prefix: "sha256=" }],
    ["/stamped", "Stripe-Signature", { name: "timestamped", timestamp: "t" }],
    [
      "/standard",
      "webhook-signature",
      { name: "standard-webhooks", id: "webhook-id", timestamp: "webhook-timestamp" },
    ],
    [
      "/ided",
      "X-Hook-Signature",
      {
        name: "hmac-sha256-base64",
        signs: "{id}{timestamp}{body}",
        id: "X-Hook-Id",
        timestamp: "X-Hook-Timestamp",
      },
    ],
  ] as const;

  it.each(schemes)("%s", async (path, header, scheme) => {
    const secrets = scheme.name === "standard-webhooks" ? [otherWhsec, whsec] : [other, secret];
    // one signature per secret: a router that knows only the second takes it
    const known = secrets[1]!;
    await serving([known], async (running) => {
      const headers = await signatureHeaders(scheme, header, secrets, body, {
        timestamp: seconds,
        id: "msg_signer",
      });
      expect(await post(running, path, headers)).toEqual(ok);
      expect(await post(running, path, headers, body.replace("1250", "1251"))).toEqual(
        refused(`${header} does not match the body`),
      );
    });
  });

  it("needs no signing time or id for a scheme that signs neither, and asks for an id where one is signed", async () => {
    const hex = { name: "hmac-sha256-hex", prefix: "sha256=" } as const;
    expect(await signatureHeaders(hex, "X-Hub-Signature-256", [secret], body)).toEqual({
      "X-Hub-Signature-256": `sha256=${hmac(secret, body).toString("hex")}`,
    });
    const standard = {
      name: "standard-webhooks",
      id: "webhook-id",
      timestamp: "webhook-timestamp",
    } as const;
    await expect(
      signatureHeaders(standard, "webhook-signature", [whsec], body, { timestamp: 1 }),
    ).rejects.toThrow(
      "signatureHeaders: scheme standard-webhooks signs a delivery id: pass facts.id",
    );
  });

  it("verifyWebhook checks a Standard Webhooks delivery with the generated webhookSignatureScheme", async () => {
    const payload = JSON.stringify({ type: "order.created", id: "ord_1" });
    const headers = await signatureHeaders(
      mod.webhookSignatureScheme,
      "webhook-signature",
      [whsec],
      payload,
      { timestamp: seconds, id: "msg_v" },
    );
    const request = {
      method: "POST",
      target: "/hooks",
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    };
    const verify = (text: string, secrets: string[]) =>
      verifyWebhook(text, headers["webhook-signature"], secrets, {
        scheme: mod.webhookSignatureScheme,
        header: "webhook-signature",
        request,
      });
    expect(await verify(payload, [whsec])).toEqual({
      ok: true,
      payload: { type: "order.created", id: "ord_1" },
    });
    expect(await verify(payload, [otherWhsec])).toEqual({
      ok: false,
      reason: "mismatch",
      message: "webhook-signature does not match the body",
    });
  });
});

/**
 * HMAC over a `signs` template: what is signed is the template's text with the values of the
 * headers it names and the raw body. Slack's example is the one its documentation publishes
 * ("Verifying requests from Slack", api.slack.com/authentication/verifying-requests-from-slack),
 * a slash command sent as a form.
 */
describe("signs: an HMAC of a template (Slack's v0:{timestamp}:{body})", () => {
  const slack = {
    secret: "8f742231b10e8888abcd99yyyzzz85a5",
    timestamp: 1531420618,
    body: "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
    signature: "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  };
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const headers = (signature = slack.signature, timestamp = String(slack.timestamp)) => ({
    ...form,
    "X-Slack-Request-Timestamp": timestamp,
    "X-Slack-Signature": signature,
  });

  /** A router whose clock is 10 s after Slack's example was signed, on 127.0.0.1. */
  const atSlackTime = (test: (running: Running) => Promise<void>) =>
    serving([slack.secret], test, () => (slack.timestamp + 10) * 1000);

  it("the router takes Slack's published example, and hands the handler its form's fields", async () => {
    commands.length = 0;
    await atSlackTime(async (running) => {
      const answer = await send(running, "/slack", {
        body: slack.body,
        headers: headers(),
        signWith: false,
      });
      expect(answer.status).toBe(204);
    });
    expect(commands).toEqual([
      expect.objectContaining({
        team_id: "T1DC2JH3J",
        command: "/webhook-collect",
        text: "",
        trigger_id: "398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
      }),
    ]);
  });

  it("refuses the body's digest alone, another signing time than signed, and no timestamp header", async () => {
    await atSlackTime(async (running) => {
      const mismatch = refused("X-Slack-Signature does not match the body");
      const bodyOnly = `v0=${hmac(slack.secret, slack.body).toString("hex")}`;
      expect(await post(running, "/slack", headers(bodyOnly), slack.body)).toEqual(mismatch);
      const moved = headers(slack.signature, String(slack.timestamp + 1));
      expect(await post(running, "/slack", moved, slack.body)).toEqual(mismatch);
      const { "X-Slack-Request-Timestamp": _t, ...untimed } = headers();
      expect(await post(running, "/slack", untimed, slack.body)).toEqual(
        refused("missing X-Slack-Request-Timestamp header; it is signed with the body"),
      );
    });
  });

  it("verifyWebhook refuses a scheme whose template it cannot read, before any request", async () => {
    const scheme = { name: "hmac-sha256-hex", signs: "v0:{time}:{body}" } as const;
    await expect(
      verifyWebhook(slack.body, slack.signature, [slack.secret], { scheme }),
    ).rejects.toThrow("the scheme's signs template: {time} is none of {timestamp}, {id}, {body}");
  });

  it("signatureHeaders writes the published signature and the timestamp header", async () => {
    const written = await signatureHeaders(
      {
        name: "hmac-sha256-hex",
        prefix: "v0=",
        signs: "v0:{timestamp}:{body}",
        timestamp: "X-Slack-Request-Timestamp",
      },
      "X-Slack-Signature",
      [slack.secret],
      slack.body,
      { timestamp: slack.timestamp, id: "unused" },
    );
    const { "content-type": _c, ...expected } = headers();
    expect(written).toEqual(expected);
  });

  it("a delivery id and signing time signed before the body: each one the router checks", async () => {
    const signed = (id: string, t: number) => ({
      "X-Hook-Id": id,
      "X-Hook-Timestamp": String(t),
      "X-Hook-Signature": hmac(secret, id, String(t), body).toString("base64"),
    });
    await serving([secret], async (running) => {
      expect(await post(running, "/ided", signed("evt_1", seconds))).toEqual(ok);
      const mismatch = refused("X-Hook-Signature does not match the body");
      expect(
        await post(running, "/ided", { ...signed("evt_1", seconds), "X-Hook-Id": "evt_2" }),
      ).toEqual(mismatch);
      const { "X-Hook-Id": _id, ...anonymous } = signed("evt_1", seconds);
      expect(await post(running, "/ided", anonymous)).toEqual(
        refused("missing X-Hook-Id header; it is signed with the body"),
      );
      expect(await post(running, "/ided", signed("evt_1", seconds - 400))).toEqual(
        refused(
          "X-Hook-Timestamp is 400 s in the past; calls signed more than 300 s from now are refused",
        ),
      );
    });
  });
});

/** Twitch's EventSub: the signing time an RFC 3339 date-time with nanoseconds, signed as written. */
describe("a signing time written as an RFC 3339 date-time (timestamp.format: date-time)", () => {
  const twitch = (id: string, time: string, key = secret) => ({
    "Twitch-Eventsub-Message-Id": id,
    "Twitch-Eventsub-Message-Timestamp": time,
    "Twitch-Eventsub-Message-Signature": `sha256=${hmac(key, id, time, body).toString("hex")}`,
  });
  // the routers' clock: 2027-01-15T08:00:00Z
  const at = (offsetSeconds: number) =>
    new Date(clock + offsetSeconds * 1000).toISOString().replace(".000Z", ".123456789Z");

  it("takes a delivery signed over the time as Twitch writes it, and checks the window", async () => {
    await serving([secret], async (running) => {
      expect(await post(running, "/twitch", twitch("m-1", at(-5)))).toEqual(ok);
      expect(await post(running, "/twitch", twitch("m-2", at(-400)))).toEqual(
        refused(
          "Twitch-Eventsub-Message-Timestamp is 400 s in the past; calls signed more than 300 s from now are refused",
        ),
      );
      expect(await post(running, "/twitch", twitch("m-3", String(seconds)))).toEqual(
        refused("Twitch-Eventsub-Message-Timestamp is not an RFC 3339 date-time"),
      );
      const moved = { ...twitch("m-4", at(-5)), "Twitch-Eventsub-Message-Timestamp": at(-6) };
      expect(await post(running, "/twitch", moved)).toEqual(
        refused("Twitch-Eventsub-Message-Signature does not match the body"),
      );
    });
  });

  it("signatureHeaders writes the time as a date-time, the one it signs", async () => {
    const scheme = {
      name: "hmac-sha256-hex" as const,
      prefix: "sha256=",
      signs: "{id}{timestamp}{body}",
      id: "Twitch-Eventsub-Message-Id",
      timestamp: "Twitch-Eventsub-Message-Timestamp",
      timestampFormat: "date-time" as const,
    };
    const written = await signatureHeaders(
      scheme,
      "Twitch-Eventsub-Message-Signature",
      [secret],
      body,
      {
        timestamp: seconds,
        id: "m-5",
      },
    );
    expect(written).toEqual({
      "Twitch-Eventsub-Message-Id": "m-5",
      "Twitch-Eventsub-Message-Timestamp": "2027-01-15T08:00:00.000Z",
      "Twitch-Eventsub-Message-Signature": twitch("m-5", "2027-01-15T08:00:00.000Z")[
        "Twitch-Eventsub-Message-Signature"
      ],
    });
    await serving([secret], async (running) => {
      expect(await post(running, "/twitch", written)).toEqual(ok);
    });
  });
});
