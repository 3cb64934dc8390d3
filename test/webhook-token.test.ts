/**
 * A webhook secret sent as it is (`scheme: token`: GitLab's X-Gitlab-Token, Google Calendar's
 * X-Goog-Channel-Token), on test/fixtures/webhook-token (GitLab's hooks, whose events are named
 * with spaces: `Push Hook`): the generated router takes a delivery carrying the token and
 * refuses one with another token or none, saying so without the word "body"; `apigen trigger`
 * sends the token; and the scheme survives the package's OpenAPI document and import. And
 * events named in upper case, as PayPal names them (`CHECKOUT.ORDER.APPROVED`): the spec takes
 * them (the PayPal trial had them refused as no lower-case words), and each delivery reaches
 * the handler of its exact name, one that differs only in case included.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { listen, send, type Running } from "./callbacks-helpers.ts";
import { runCli, tempDir, writeGenerated } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";

const out = tempDir("apigen-webhook-token-");
const token = "gl-secret-token-1";
const seen: string[] = [];
let running: Running;

beforeAll(async () => {
  await writeGenerated("test/fixtures/webhook-token", out);
  compileInPlace(out);
  const mod = await importCompiled<{
    createCallbackRouter(options: Record<string, unknown>): { node: Parameters<typeof listen>[0] };
  }>(join(out, "src/callbacks.ts"));
  const router = mod.createCallbackRouter({
    signingSecrets: [token],
    webhook: {
      path: "/gitlab",
      handlers: {
        "Push Hook": (payload: { ref: string }) => void seen.push(`push ${payload.ref}`),
        "Merge Request Hook": () => void seen.push("merge request"),
        "CHECKOUT.ORDER.APPROVED": () => void seen.push("approved"),
        "PAYMENT.CAPTURE.COMPLETED": () => void seen.push("COMPLETED"),
        "payment.capture.completed": () => void seen.push("completed"),
      },
    },
  });
  running = await listen(router.node);
}, 60_000);
afterAll(async () => {
  await running.close();
  rmSync(out, { recursive: true, force: true });
});

const push = JSON.stringify({ object_kind: "push", ref: "refs/heads/main" });
const deliver = (headers: Record<string, string>) =>
  send(running, "/gitlab", {
    body: push,
    signWith: false,
    headers: { "X-Gitlab-Event": "Push Hook", ...headers },
  });

describe("scheme: token", () => {
  it("takes a delivery carrying the token, under an event named with spaces", async () => {
    seen.length = 0;
    expect((await deliver({ "X-Gitlab-Token": token })).status).toBe(200);
    expect(seen).toEqual(["push refs/heads/main"]);
  });

  it("refuses another token, a longer one and none, no handler run", async () => {
    seen.length = 0;
    const wrong = await deliver({ "X-Gitlab-Token": "gl-secret-token-2" });
    const longer = await deliver({ "X-Gitlab-Token": `${token}x` });
    const none = await deliver({});
    expect([wrong.status, longer.status, none.status]).toEqual([422, 422, 422]);
    expect(wrong.json.error.message).toBe("X-Gitlab-Token is not a token this receiver was given");
    expect(JSON.stringify(wrong.json)).not.toContain(token);
    expect(none.json.error.message).toBe("missing X-Gitlab-Token header");
    expect(seen).toEqual([]);
  });

  it("apigen trigger sends the token, and the router's answer passes", async () => {
    const run = await runCli([
      "trigger",
      "Push Hook",
      "--spec",
      "test/fixtures/webhook-token",
      "--url",
      `${running.origin}/gitlab`,
      "--secret",
      token,
    ]);
    expect(run.stdout).toContain("signed token in X-Gitlab-Token");
    expect(run.stdout).toContain("verdict: ok");
    expect(run.status).toBe(0);
  });

  it("survives the package's OpenAPI document and import", async () => {
    const spec = join(out, "imported");
    const run = await runCli(["import", join(out, "openapi.json"), "--out-spec", spec]);
    expect(run.status, run.stderr).toBe(0);
    const api = parse(readFileSync(join(spec, "api.yaml"), "utf8"));
    expect(api.credentials.gitlabToken).toMatchObject({
      in: "signature",
      header: "X-Gitlab-Token",
      scheme: "token",
    });
  });
});

describe("upper-case webhook event names", () => {
  const named = (event: string) =>
    send(running, "/gitlab", {
      body: push,
      signWith: false,
      headers: { "X-Gitlab-Event": event, "X-Gitlab-Token": token },
    });

  it("each delivery reaches the handler of its exact name", async () => {
    seen.length = 0;
    const events = [
      "CHECKOUT.ORDER.APPROVED",
      "PAYMENT.CAPTURE.COMPLETED",
      "payment.capture.completed",
    ];
    const statuses = [];
    for (const event of events) statuses.push((await named(event)).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(seen).toEqual(["approved", "COMPLETED", "completed"]);
  });

  it("a name in another case than the spec's is no event of it", async () => {
    seen.length = 0;
    expect((await named("checkout.order.approved")).status).toBeGreaterThanOrEqual(400);
    expect(seen).toEqual([]);
  });
});
