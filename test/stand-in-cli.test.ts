/**
 * `mock` on the command line: the stand-in served straight from a spec folder (no generated
 * package), on 127.0.0.1, with keys from a file and a seed; bad flags and a bad keys file
 * are clear errors, never a stack trace. The server is stopped with SIGTERM.
 */
import type { ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listen } from "./callbacks-helpers.ts";
import { rawExchange, requestHead } from "./callbacks-raw.ts";
import { repoRoot, runCli, startMockCli, tempDir, type MockProcess } from "./helpers.ts";

const dir = tempDir("apigen-mock-");
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `mock` (startMockCli), kept to be stopped after the file if a test does not. */
async function startMock(args: string[]): Promise<MockProcess> {
  const mock = await startMockCli(args);
  children.push(mock.child);
  return mock;
}

describe("mock --spec DIR --port N --seed N --keys FILE", () => {
  it("serves the spec on 127.0.0.1 with the keys of the file, validates, logs, and stops on SIGTERM", async () => {
    const keys = join(dir, "keys.json");
    writeFileSync(
      keys,
      JSON.stringify({ apiKey: { valid: ["k-sandbox"], otherEnvironment: ["k-live"] } }),
    );
    const { url, child, output } = await startMock([
      "--spec",
      "spec",
      "--port",
      "0",
      "--seed",
      "5",
      "--keys",
      keys,
    ]);
    expect(output()).toContain("stand-in for Merchant Commerce API listening on http://127.0.0.1:");
    const get = (key?: string) =>
      fetch(`${url}/v1/merchant/transactions`, { headers: key ? { "X-API-Key": key } : {} });
    const missing = await get();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ errors: [{ code: 1015 }] });
    expect((await get("k-live")).status).toBe(403);
    const ok = await get("k-sandbox");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveProperty("transactions");
    const invalid = await fetch(`${url}/v1/shipments/mock_service_shipping`, {
      method: "POST",
      headers: { "X-API-Key": "k-sandbox", "Content-Type": "application/json" },
      body: JSON.stringify({ tracking_number: "X" }),
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      errors: [{ message: 'body.tracking_number: must begin with "MockService"' }],
      result: { success: false },
    });
    expect(output()).toContain("POST /v1/shipments/mock_service_shipping -> 422");
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("survives TRACE and the target http://[::1 (each killed it) and keeps serving", async () => {
    const { url, child } = await startMock(["--spec", "spec", "--port", "0"]);
    const port = Number(new URL(url).port);
    const ask = (method: string, target: string) =>
      rawExchange(port, [requestHead(method, target, [["host", "x"]])], {
        until: "answer",
        endAfter: false,
      });
    const trace = await ask("TRACE", "/v1/merchant/transactions");
    expect(trace.first?.status).toBe(405);
    expect(trace.first?.headers.allow).toBe("GET, HEAD");
    expect((await ask("GET", "http://[::1")).first?.status).toBe(404);
    expect((await ask("GET", "//evil.example/v1/merchant/transactions")).first?.status).toBe(404);
    expect(child.exitCode).toBe(null);
    const after = await fetch(`${url}/v1/merchant/transactions`, {
      headers: { "X-API-Key": "any-key" },
    });
    expect(after.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("refuses bad flags and a bad keys file with a clear message (exit 2)", async () => {
    const port = await runCli(["mock", "--port", "http"]);
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port takes a whole number from 0 to 65535, not "http"');
    const extra = await runCli(["mock", "--url", "http://127.0.0.1:1"]);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toContain("Unknown option '--url'");
    const bad = join(dir, "bad-keys.json");
    writeFileSync(bad, JSON.stringify({ apiKey: { valid: "k1" } }));
    const keys = await runCli(["mock", "--keys", bad, "--port", "0"]);
    expect(keys.status).toBe(2);
    expect(keys.stderr).toBe(
      `--keys ${bad}: apiKey.valid must be a list of strings (a key or token as sent; an HTTP basic credential as "user:password")\n`,
    );
    const trigger = await runCli(["trigger", "--url", "http://127.0.0.1:1", "--secret", "s"]);
    expect(trigger.status).toBe(2);
    expect(trigger.stderr).toContain(
      "trigger takes EVENT\n\nUsage: apigen trigger EVENT [options]",
    );
    const missing = join(dir, "no-such-body.json");
    const body = await runCli([
      "trigger",
      "cart.update",
      "--url",
      "http://127.0.0.1:1",
      "--secret",
      "s",
      "--body",
      missing,
    ]);
    expect(body.status).toBe(2);
    expect(body.stderr).toMatch(
      new RegExp(`^--body ${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: ENOENT`),
    );
  });
});

describe("mock --deliver-to URL --secret S", () => {
  it("POST /_stand-in/deliveries/EVENT sends the event to the server, signed; the secret is never printed", async () => {
    const secret = "mock-delivery-secret";
    const received: { path: string; signature: string; expected: string }[] = [];
    const receiver = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        received.push({
          path: req.url ?? "",
          signature: String(req.headers["x-hub-signature-256"]),
          expected: `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
        });
        res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      });
    });
    try {
      const { url, child, output } = await startMock([
        "--spec",
        "test/fixtures/callbacks-schemes",
        "--port",
        "0",
        "--deliver-to",
        receiver.origin,
        "--secret",
        secret,
      ]);
      const sent = await fetch(`${url}/_stand-in/deliveries/order.hex`, { method: "POST" });
      expect(sent.status).toBe(200);
      expect(await sent.json()).toEqual({
        event: "order.hex",
        answered: true,
        status: 200,
        body: '{"ok":true}',
      });
      expect(received).toHaveLength(1);
      expect(received[0]!.path).toBe("/hex");
      expect(received[0]!.signature).toBe(received[0]!.expected);
      const unknown = await fetch(`${url}/_stand-in/deliveries/order.nope`, { method: "POST" });
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { problem: string }).problem).toContain(
        'unknown event "order.nope"',
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output()).toContain("/_stand-in/deliveries/<event> sends the event, signed");
      expect(output()).not.toContain(secret);
    } finally {
      await receiver.close();
    }
  });

  it("refuses --deliver-to without a secret and --secret without --deliver-to (exit 2)", async () => {
    const env = { APIGEN_SIGNING_SECRET: "" };
    const bare = await runCli(
      ["mock", "--port", "0", "--deliver-to", "http://127.0.0.1:1"],
      repoRoot,
      env,
    );
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("--deliver-to needs --secret S (or APIGEN_SIGNING_SECRET set)");
    const alone = await runCli(["mock", "--port", "0", "--secret", "s3cret-value"], repoRoot, env);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--webhook-url and --secret go with --deliver-to");
    expect(alone.stderr).not.toContain("s3cret-value");
    const relative = await runCli(
      ["mock", "--deliver-to", "127.0.0.1:3000", "--secret", "s"],
      repoRoot,
      env,
    );
    expect(relative.status).toBe(2);
    expect(relative.stderr).toContain("--deliver-to must be an absolute http(s) address");
  });
});
