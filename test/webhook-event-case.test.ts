/**
 * Webhook events named in upper case, as PayPal names them (`CHECKOUT.ORDER.APPROVED`,
 * test/fixtures/webhook-event-case): the spec takes them (the PayPal trial had them refused as
 * no lower-case words), the generated router hands each delivery to the handler of its exact
 * name, one that differs only in case included, and refuses a name of another case that the
 * spec does not list.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, send, sign, type Running } from "./callbacks-helpers.ts";
import { tempDir, writeGenerated } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";

const out = tempDir("apigen-webhook-event-case-");
const secret = "case-secret";
const seen: string[] = [];
let running: Running;

beforeAll(async () => {
  await writeGenerated("test/fixtures/webhook-event-case", out);
  compileInPlace(out);
  const mod = await importCompiled<{
    createCallbackRouter(options: Record<string, unknown>): { node: Parameters<typeof listen>[0] };
  }>(join(out, "src/callbacks.ts"));
  const handler = (name: string) => (payload: { id: string }) =>
    void seen.push(`${name} ${payload.id}`);
  const router = mod.createCallbackRouter({
    signingSecrets: [secret],
    webhook: {
      path: "/paypal",
      handlers: {
        "CHECKOUT.ORDER.APPROVED": handler("approved"),
        "PAYMENT.CAPTURE.COMPLETED": handler("COMPLETED"),
        "payment.capture.completed": handler("completed"),
      },
    },
  });
  running = await listen(router.node);
}, 60_000);
afterAll(async () => {
  await running.close();
  rmSync(out, { recursive: true, force: true });
});

const deliver = (eventType: string, id: string) => {
  const body = JSON.stringify({ id, event_type: eventType });
  return send(running, "/paypal", {
    body,
    signWith: false,
    headers: { "X-Signature": sign(body, secret) },
  });
};

describe("upper-case webhook event names", () => {
  it("each delivery reaches the handler of its exact name", async () => {
    seen.length = 0;
    const statuses = [
      (await deliver("CHECKOUT.ORDER.APPROVED", "o1")).status,
      (await deliver("PAYMENT.CAPTURE.COMPLETED", "c1")).status,
      (await deliver("payment.capture.completed", "c2")).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    expect(seen).toEqual(["approved o1", "COMPLETED c1", "completed c2"]);
  });

  it("a name in another case than the spec's is no event of it", async () => {
    seen.length = 0;
    const answer = await deliver("checkout.order.approved", "o2");
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(seen).toEqual([]);
  });
});
