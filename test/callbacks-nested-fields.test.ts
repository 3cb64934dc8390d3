/**
 * Webhook shapes the hand-written trials of session 30 met. Deliveries that name their event
 * and carry their delivery id a level down in the body
 * (PagerDuty's v3 envelopes: `{ "event": { "id": ..., "event_type": "incident.triggered" } }`,
 * signed `X-PagerDuty-Signature: v1=<hex>[,v1=<hex>]`), as a hand-written trial of PagerDuty's
 * API needed them: `eventField: event.event_type` and `deliveryId: { in: body, name: event.id }`.
 * The generated router on 127.0.0.1 routes by the nested field, refuses a repeat by the nested
 * id, says which nested field is missing; the trigger sends each event and it is taken. And
 * Jira's event names, `jira:issue_created`, words joined by a colon.
 */
import { createHmac } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliver, loadTriggerModel } from "../generator/commands/trigger-command.ts";
import { listen, type Running } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";

const spec = `api: { name: incidents, title: Incidents, version: 1.0.0 }
credentials:
  webhookSecret:
    in: signature
    header: X-PagerDuty-Signature
    scheme: hmac-sha256-hex
    prefix: "v1="
    deliveryId: { in: body, name: event.id }
webhooks:
  auth: [webhookSecret]
  eventField: event.event_type
  events:
    incident.triggered: { payload: Triggered }
    incident.resolved: { payload: Resolved }
types:
  Triggered:
    fields:
      event:
        required: true
        fields:
          id: { type: string, required: true }
          event_type: { const: incident.triggered, required: true }
          data: { required: true, fields: { title: { type: string, required: true } } }
  Resolved:
    fields:
      event:
        required: true
        fields:
          id: { type: string, required: true }
          event_type: { const: incident.resolved, required: true }
`;

const secret = "pd-webhook-secret";
let dir: string;
let running: Running;
const seen: { event: string; payload: unknown }[] = [];
let triggerModel: Awaited<ReturnType<typeof loadTriggerModel>>;

beforeAll(async () => {
  dir = tempDir("apigen-nested-fields-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  await writeGenerated(join(dir, "spec"), join(dir, "pkg"));
  const mod = await import(pathToFileURL(join(dir, "pkg/src/callbacks.ts")).href);
  const record = (payload: unknown, ctx: { event: string }) =>
    void seen.push({ event: ctx.event, payload });
  const router = mod.createCallbackRouter({
    signingSecrets: [secret],
    webhook: {
      path: "/pagerduty",
      handlers: { "incident.triggered": record, "incident.resolved": record },
    },
    replay: { seenIds: mod.createMemorySeenIds() },
  });
  running = await listen(router.node);
  triggerModel = await loadTriggerModel(join(dir, "spec"));
});
afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** POSTs `body` signed as PagerDuty signs, with `keys` (several while a secret rotates). */
async function post(body: unknown, keys = [secret]) {
  const text = JSON.stringify(body);
  const signature = keys
    .map((k) => `v1=${createHmac("sha256", k).update(text).digest("hex")}`)
    .join(",");
  const res = await fetch(`${running.origin}/pagerduty`, {
    method: "POST",
    body: text,
    headers: { "content-type": "application/json", "X-PagerDuty-Signature": signature },
  });
  const answer = await res.text();
  return { status: res.status, message: answer ? JSON.parse(answer).error?.message : undefined };
}

const triggered = (id: string) => ({
  event: { id, event_type: "incident.triggered", data: { title: "Disk full" } },
});

describe("an event named and identified a level down in the body", () => {
  it("routes by event.event_type, during a rotation too", async () => {
    seen.length = 0;
    expect(await post(triggered("01-a"), ["old-secret", secret])).toEqual({
      status: 200,
      message: undefined,
    });
    expect(await post({ event: { id: "01-b", event_type: "incident.resolved" } })).toEqual({
      status: 200,
      message: undefined,
    });
    expect(seen.map((s) => s.event)).toEqual(["incident.triggered", "incident.resolved"]);
  });

  it("refuses a repeat of event.id (409), and says which nested field is missing", async () => {
    expect((await post(triggered("02-a"))).status).toBe(200);
    expect(await post(triggered("02-a"))).toMatchObject({ status: 409 });
    expect(await post({ event: { id: "02-b" } })).toEqual({
      status: 400,
      message: "body.event.event_type is missing; it names the event of a delivery",
    });
    expect(await post({ event: "incident.triggered" })).toEqual({
      status: 400,
      message: "body.event.event_type is missing; it names the event of a delivery",
    });
  });

  it("the trigger sends each event as its payload type says, and it is taken", async () => {
    // a seed each: the same seed makes the same event.id, which the seen-id store refuses
    for (const [seed, event] of ["incident.triggered", "incident.resolved"].entries()) {
      const lines: string[] = [];
      const result = await deliver(
        triggerModel,
        { event, specDir: "", url: `${running.origin}/pagerduty`, secret, seed: 40 + seed },
        (line) => lines.push(line),
      );
      expect(result.code, lines.join("\n")).toBe(0);
    }
  });
});

describe("event names with a colon (Jira's jira:issue_created)", () => {
  it("are events of their own: typed handlers, routed by webhookEvent", async () => {
    const jira = tempDir("apigen-colon-events-");
    try {
      mkdirSync(join(jira, "spec"));
      writeFileSync(
        join(jira, "spec/api.yaml"),
        `api: { name: jira-hooks, title: Jira Hooks, version: 1.0.0 }
credentials:
  hookSecret: { in: signature, header: X-Hub-Signature, scheme: hmac-sha256-hex, prefix: "sha256=" }
webhooks:
  auth: [hookSecret]
  eventField: webhookEvent
  events:
    jira:issue_created: { payload: { fields: { webhookEvent: { const: "jira:issue_created", required: true }, issue: string } } }
    jira:issue_updated: { payload: { fields: { webhookEvent: { const: "jira:issue_updated", required: true } } } }
`,
      );
      await writeGenerated(join(jira, "spec"), join(jira, "pkg"));
      const mod = await import(pathToFileURL(join(jira, "pkg/src/callbacks.ts")).href);
      const got: string[] = [];
      const router = mod.createCallbackRouter({
        signingSecrets: [secret],
        webhook: {
          path: "/jira",
          handlers: {
            "jira:issue_created": (_p: unknown, ctx: { event: string }) => void got.push(ctx.event),
          },
        },
      });
      const body = JSON.stringify({ webhookEvent: "jira:issue_created", issue: "PROJ-1" });
      const res = await router.fetch(
        new Request("http://127.0.0.1/jira", {
          method: "POST",
          body,
          headers: {
            "content-type": "application/json",
            "X-Hub-Signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
          },
        }),
      );
      expect(res.status).toBe(200);
      expect(got).toEqual(["jira:issue_created"]);
    } finally {
      rmSync(jira, { recursive: true, force: true });
    }
  });
});
