/**
 * `trigger <event>` against examples/merchant-server (its own server, in this process, on
 * 127.0.0.1): all four callbacks and a webhook delivery, signed as the service signs them
 * and checked against the spec's success and failure types; a wrong secret and a handler
 * that answers a wrong shape end in exit status 1. One run goes through the command line.
 */
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deliveries, createMerchantServer } from "../examples/merchant-server/src/server.ts";
import { trigger, type TriggerOptions } from "../generator/commands/trigger-command.ts";
import { repoRoot, runCli } from "./helpers.ts";

const secret = "trigger-test-secret";
const specDir = join(repoRoot, "spec");
let merchant: Server;
let wrong: Server;
let base = "";
let wrongBase = "";
/**
 * What the example prints of the callbacks it refuses or fails (console.warn, console.error):
 * kept here and asserted on, so that a refusal the test asks for leaves no line in the log
 * that reads like a failure.
 */
const exampleLog: string[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  for (const level of ["warn", "error"] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      exampleLog.push(`${level}: ${args.join(" ")}`);
    });
  merchant = createMerchantServer({
    port: 0,
    host: "127.0.0.1",
    serviceBaseUrl: "http://127.0.0.1:9",
    apiKey: "unused",
    signingSecrets: [secret],
  });
  base = `${await listen(merchant)}/callbacks`;
  // A handler that answers 200 with a body of neither of the spec's answer types.
  wrong = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ event: "product.info", status: "maybe" }));
    });
  });
  wrongBase = await listen(wrong);
});

afterAll(async () => {
  await close(merchant);
  await close(wrong);
  vi.restoreAllMocks();
  // nothing the example printed went unasserted
  expect(exampleLog).toEqual([]);
});

/** Runs the trigger against the example and keeps its printed lines. */
async function run(event: string, options: Partial<TriggerOptions> = {}) {
  const lines: string[] = [];
  const result = await trigger({ event, specDir, url: base, secret, ...options }, (line) =>
    lines.push(line),
  );
  return { ...result, lines };
}

describe("trigger against examples/merchant-server", () => {
  it("product.info: a known product is a success answer, the built body's unknown one a failure answer", async () => {
    const known = await run("product.info", {
      body: JSON.stringify({ event: "product.info", data: { sku: "MUG-BLUE" } }),
      expect: "success",
    });
    expect(known.code).toBe(0);
    expect(known.answer?.status).toBe(200);
    expect(known.json).toMatchObject({
      status: "success",
      data: { Current: { Name: "Blue mug" } },
    });
    expect(known.lines[0]).toMatch(
      /^callback product\.info: GET http:\/\/127\.0\.0\.1:\d+\/callbacks\/product_get \(\d+ bytes, signed hmac-sha256-base64 in X-Service-Hmac-Sha256\)$/,
    );
    expect(known.lines.at(-1)).toBe("verdict: ok, a success answer of the spec's success type");
    const built = await run("product.info");
    expect(built.code).toBe(0);
    expect(built.answer?.status).toBe(404);
    expect(built.lines.at(-1)).toBe("verdict: ok, a failure answer of the spec's failure type");
  });

  it("order.shipping and cart.update: the built bodies get answers of the spec's types", async () => {
    const shipping = await run("order.shipping", { expect: "success" });
    expect(shipping.code).toBe(0);
    expect(shipping.json).toMatchObject({ event: "order.shipping", status: "success" });
    const cart = await run("cart.update");
    expect(cart.code).toBe(0);
    expect(cart.json).toMatchObject({ event: "cart.update" });
  });

  it("account.login: parameters after the path, signed over the empty body", async () => {
    const login = await run("account.login");
    expect(login.lines[0]).toMatch(
      /GET http:\/\/127\.0\.0\.1:\d+\/callbacks\/oauth\/login\/[^/]+\/[^/]{8}\/openid\/[^/]+ \(0 bytes/,
    );
    expect(login.code).toBe(0);
    expect(login.answer?.status).toBe(401);
    expect(login.json).toMatchObject({ status: "failure" });
  });

  it("a webhook delivery reaches the example's webhook route, verified", async () => {
    const before = deliveries.length;
    const delivered = await run("webhook", { url: `${base}/webhooks`, expect: "success" });
    expect(delivered.code).toBe(0);
    expect(delivered.answer?.status).toBe(200);
    expect(deliveries.length).toBe(before + 1);
    expect(deliveries.at(-1)).toEqual({ sample: expect.any(String) });
  });

  it("a wrong secret is refused by the example (422, code 27): exit 1 when a success was expected", async () => {
    const refused = await run("cart.update", { secret: "not-the-secret", expect: "success" });
    expect(refused.code).toBe(1);
    expect(refused.answer?.status).toBe(422);
    expect(refused.json).toMatchObject({ status: "failure", errors: [{ code: 27 }] });
    expect(refused.lines.at(-1)).toBe("verdict: wrong failure answer: expected a success answer");
    const webhook = await run("webhook", { url: `${base}/webhooks`, secret: "nope" });
    expect(webhook.code).toBe(1);
    expect(webhook.lines.at(-1)).toBe(
      "verdict: wrong failure answer: the spec gives no failure answer for this event",
    );
    // the example said why it refused each, and nothing else
    expect(exampleLog.splice(0)).toEqual([
      "warn: refused /cart_update: 422 X-Service-Hmac-Sha256 does not match the body",
      "warn: refused /webhooks: 422 X-Service-Hmac-Sha256 does not match the body",
    ]);
  });

  it("--expect refusal passes on a 4xx (a wrong secret refused) and fails on a success (the Stripe trial could not test it)", async () => {
    const refused = await run("cart.update", { secret: "not-the-secret", expect: "refusal" });
    expect(refused.code).toBe(0);
    expect(refused.lines.at(-1)).toBe("verdict: ok, refused with 422");
    const accepted = await run("order.shipping", { expect: "refusal" });
    expect(accepted.code).toBe(1);
    expect(accepted.lines.at(-1)).toBe("verdict: wrong answer: expected a refusal (4xx), not 200");
    expect(exampleLog.splice(0)).toEqual([
      "warn: refused /cart_update: 422 X-Service-Hmac-Sha256 does not match the body",
    ]);
  });

  it("a handler that answers a wrong shape: exit 1, naming the field", async () => {
    const result = await run("product.info", { url: wrongBase });
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe(
      'verdict: wrong success answer: body.status: must be "success"',
    );
  });

  it("signs in another scheme when asked: GitHub's sha256=<hex>, with the event in X-GitHub-Event", async () => {
    const seen: { signature?: string; event?: string; expected?: string }[] = [];
    const github = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        seen.push({
          signature: req.headers["x-hub-signature-256"] as string,
          event: req.headers["x-github-event"] as string,
          expected: `sha256=${createHmac("sha256", "gh-secret").update(body).digest("hex")}`,
        });
        res.writeHead(204);
        res.end();
      });
    });
    const url = `${await listen(github)}/hooks`;
    try {
      const result = await trigger({
        event: "issues",
        specDir: join(repoRoot, "examples/github-issues/spec"),
        url,
        secret: "gh-secret",
        signature: { encoding: "hex", prefix: "sha256=" },
      });
      expect(result.code).toBe(0);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.event).toBe("issues");
      expect(seen[0]!.signature).toBe(seen[0]!.expected);
    } finally {
      await close(github);
    }
  });

  it("says when --signature-encoding signs otherwise than the spec (the router of the spec refuses it)", async () => {
    const other = await run("product.info", { signature: { encoding: "hex" } });
    expect(other.lines[0]).toMatch(
      /signed hmac-sha256-hex in X-Service-Hmac-Sha256 \(by --signature-encoding, not the spec's hmac-sha256-base64\)\)$/,
    );
    expect(other.answer?.status).toBe(422);
    expect(exampleLog.splice(0)).toEqual([
      "warn: refused /product_get: 422 X-Service-Hmac-Sha256 does not match the body",
    ]);
  });

  it("an unknown event lists the spec's events (exit 2); an unreachable server is exit 1", async () => {
    const unknown = await run("order.nothing");
    expect(unknown.code).toBe(2);
    expect(unknown.lines[0]).toBe(
      'unknown event "order.nothing"; the spec has: product.info, order.shipping, cart.update, account.login, webhook',
    );
    const gone = await run("cart.update", { url: "http://127.0.0.1:9/callbacks", timeoutMs: 2000 });
    expect(gone.code).toBe(1);
    expect(gone.lines.at(-1)).toMatch(/^verdict: no answer: /);
  });

  it("needs a secret only for an event the spec signs (test/fixtures/callbacks-inline)", async () => {
    const inline = join(repoRoot, "test/fixtures/callbacks-inline");
    const seen: { url: string | undefined; headers: Record<string, unknown> }[] = [];
    const plain = createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers });
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    const address = await listen(plain);
    try {
      const lines: string[] = [];
      const signed = await trigger(
        { event: "stock.check", specDir: inline, url: address },
        (line) => void lines.push(line),
      );
      expect(signed.code).toBe(2);
      expect(lines).toEqual(["stock.check is signed (X-Sig): trigger needs --secret S to sign it"]);
      expect(seen).toEqual([]);
      const unsigned = await trigger({ event: "ping", specDir: inline, url: address }, () => {});
      expect(unsigned.code).toBe(0);
      expect(seen).toEqual([
        { url: "/ping", headers: expect.not.objectContaining({ "x-sig": expect.anything() }) },
      ]);
    } finally {
      await close(plain);
    }
    // the command line takes no --secret for it either
    const cli = await runCli([
      "trigger",
      "ping",
      "--spec",
      "test/fixtures/callbacks-inline",
      "--url",
      "http://127.0.0.1:9",
    ]);
    expect(cli.stdout + cli.stderr).not.toMatch(/needs --secret|--secret/);
  });

  it("runs from the command line: `trigger <event> --spec DIR --url URL --secret S`", async () => {
    const ok = await runCli([
      "trigger",
      "order.shipping",
      "--spec",
      "spec",
      "--url",
      base,
      "--secret",
      secret,
    ]);
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain("verdict: ok, a success answer");
    const bad = await runCli([
      "trigger",
      "product.info",
      "--spec",
      "spec",
      "--url",
      wrongBase,
      "--secret",
      secret,
    ]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("verdict: wrong success answer");
  });
});
