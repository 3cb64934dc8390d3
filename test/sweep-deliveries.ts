/**
 * The sweep's inbound step (test/sweep.ts): the package's own stand-in delivers each of the
 * spec's callbacks and webhook events (sampled, signed as the spec says) to the package's own
 * callback router, served on 127.0.0.1, whose handlers accept everything. A delivery the router
 * refuses itself (its signature, its validation: `onReject`) is a disagreement between the two
 * halves of one package, as a refused call is on the outbound side.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ApiModel } from "../generator/ir/model.ts";

/** What the deliveries of one package came to. */
export interface DeliveryReport {
  /** Events the router took (its handler ran, or it was accepted unread). */
  accepted: number;
  /** Events the router refused itself, with why (at most 10 kept). */
  refused: { event: string; status: number; reason: string }[];
  /** Deliveries that got no answer, or an answer the sweep does not judge (a handler's result). */
  other: number;
}

/** At most this many events a package. */
const maxEvents = 40;
const secret = "sweep-signing-secret";

/** Delivers each event of `model` from the package at `pkg` to its own router; undefined without events. */
export async function sweepDeliveries(
  model: ApiModel,
  pkg: string,
): Promise<DeliveryReport | undefined> {
  const events = model.standIn.events.slice(0, maxEvents);
  if (events.length === 0) return undefined;
  const callbacks = (await import(pathToFileURL(join(pkg, "src/callbacks.ts")).href)) as {
    createCallbackRouter(options: object): { node: Parameters<typeof createServer>[1] };
  };
  const testing = (await import(pathToFileURL(join(pkg, "src/testing.ts")).href)) as {
    createStandIn(options: object): {
      deliver(event: string): Promise<{ answered: boolean; status?: number }>;
    };
  };
  const refused: DeliveryReport["refused"] = [];
  const accept = async () => undefined;
  const everyEvent = new Proxy({}, { get: () => accept });
  // each option only where the spec has what it is for: the router refuses the others
  const signs = model.credentials.some((c) => c.placement === "signature");
  const router = callbacks.createCallbackRouter({
    ...(signs ? { signingSecrets: [secret] } : {}),
    ...(model.callbacks.length ? { handlers: everyEvent } : {}),
    // a route of one payload reads `handler`, one of typed events `handlers`: this one has both
    ...(model.webhooks
      ? { webhook: { path: "/webhooks", handler: accept, handlers: everyEvent } }
      : {}),
    onReject: (info: { event?: string; status: number; reason: string }) => {
      if (refused.length < 10)
        refused.push({ event: info.event ?? "?", status: info.status, reason: info.reason });
    },
  });
  const server = createServer(router.node);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const standIn = testing.createStandIn({
      deliver: { url, webhookUrl: `${url}/webhooks`, secret, timeoutMs: 5000 },
    });
    let accepted = 0;
    let other = 0;
    for (const event of events) {
      const before = refused.length;
      const outcome = await standIn.deliver(event.name);
      if (refused.length > before) continue;
      if (outcome.answered && outcome.status! < 300) accepted++;
      else other++;
    }
    return { accepted, refused, other };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
