/**
 * `--diff` of the webhooks section. An event added is no break (its handler is optional), an
 * event removed breaks implementers that handle it (the key of `WebhookHandlers` goes), and a
 * payload is read by its handler, so a change that breaks readers breaks them, and an answer
 * (`success`) is written by it, so one added or changed as writers feel it breaks them; so are the
 * declared delivery headers (a header removed or retyped breaks them, one added does not). The change
 * list and the type comparison come from compare.ts, passed in, so neither file imports the
 * other.
 */
import type { ApiModel, TypeNode } from "../ir/model.ts";
import type { Audience } from "./usage.ts";

/** Where the changes go: one change, or the differences between two payload types. */
export interface WebhookChanges {
  add(
    subject: string,
    description: string,
    level: "breaking" | "minor" | "patch",
    breaks?: Audience[],
  ): void;
  payload(subject: string, before: TypeNode, after: TypeNode): void;
  /** The differences between two answers a receiver writes (either may be absent). */
  answer(subject: string, before: TypeNode | undefined, after: TypeNode | undefined): void;
}

/** Every change of the webhooks section, from `before` to `after`. */
export function diffWebhooks(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  const old = before.webhooks;
  const next = after.webhooks;
  if (!old || !next) {
    if (old)
      out.add("webhooks", "webhooks removed (the webhook route goes)", "minor", ["implementers"]);
    if (next) out.add("webhooks", "webhooks added", "minor");
    return;
  }
  const typed = (w: typeof old) => w.events.length > 0;
  if (typed(old) !== typed(next)) {
    const now = typed(next) ? "one typed handler per event" : "one untyped payload for all";
    out.add(
      "webhooks",
      `deliveries now take ${now} (the webhook route's options change)`,
      "minor",
      ["implementers"],
    );
  }
  const selector = (m: ApiModel) => {
    const s = m.webhooks?.eventSelector;
    return s ? `${s.in} ${s.name}` : "none";
  };
  if (old.eventSelector && next.eventSelector && selector(before) !== selector(after))
    out.add("webhooks", `event named by ${selector(before)} -> ${selector(after)}`, "minor");
  for (const event of old.events) {
    const subject = `webhooks.events.${event.name}`;
    const now = next.events.find((e) => e.name === event.name);
    if (now) {
      out.payload(`${subject}.payload`, event.payload, now.payload);
      out.answer(`${subject}.success`, event.success, now.success);
    } else
      out.add(subject, "webhook event removed (its handler must go)", "minor", ["implementers"]);
  }
  for (const event of next.events.filter((e) => !old.events.some((o) => o.name === e.name)))
    out.add(
      `webhooks.events.${event.name}`,
      "webhook event added (a handler may be added)",
      "minor",
    );
  if (old.payload && next.payload) out.payload("webhooks.payload", old.payload, next.payload);
  // the declared delivery headers are read by the handlers (`ctx.deliveryHeaders`), as a payload is
  if (old.headers || next.headers)
    out.payload(
      "webhooks.headers",
      old.headers ?? noHeaders(next.location),
      next.headers ?? noHeaders(old.location),
    );
}

/** The delivery headers of webhooks that declare none: an object without fields. */
function noHeaders(location: TypeNode["location"]): TypeNode {
  return {
    kind: "object",
    fields: [],
    open: false,
    nullable: false,
    constraints: {},
    docs: { notes: [] },
    location,
  };
}
