/**
 * Sequences of deliveries for the replay property of the router fuzzer
 * (test/fuzz/router.fuzz.test.ts), against the package of test/fixtures/callbacks-replay:
 * the same deliveries sent again, from a small pool of ids, signed right or not, their signing
 * time inside, at the edge of or outside the tolerance window (or missing, malformed, given
 * twice), the clock moving on between them (past the window, past the time an id is
 * remembered), handlers that fail, webhook event headers that disagree with the signed body,
 * over `router.fetch` and `router.node`. `expectedStatus` is the oracle: the documented rules,
 * applied in the documented order to a model of the seen-id store.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";

/** The signing secret of the replay router. */
export const replaySecret = "replay-fuzz-secret";

/** Where the fuzz clock starts, in ms (whole seconds: the window's edges are then exact). */
export const clockStart = 1_800_000_000_000;

export type ReplayRoute = "order.paid" | "order.viewed" | "webhook";

/** A signing time: seconds from the clock, or a way of getting it wrong. */
export type Stamp =
  | { kind: "offset"; seconds: number }
  | { kind: "missing" }
  | { kind: "malformed"; text: string }
  | { kind: "twice" };

/** A delivery id: one of a small pool (so repeats are frequent), none, or one that is too long. */
export type IdChoice = { kind: "pool"; index: number } | { kind: "missing" } | { kind: "long" };

/** Ids of the pool, awkward keys among them (a store must keep them as plain data). */
export const idPool = ["d-1", "d-2", "d-3", "__proto__", "constructor", "toString"] as const;

export interface Delivery {
  route: ReplayRoute;
  /** Clock advance before this delivery, in whole seconds. */
  advance: number;
  signature: "right" | "wrong" | "missing";
  stamp: Stamp;
  id: IdChoice;
  /** Webhooks: the header names the body's event, another listed one, or one the spec does not list; or both name an unlisted one. */
  event: "agree" | "other" | "unknown" | "unlisted";
  /** The handler throws. */
  fails: boolean;
  transport: "fetch" | "node";
}

export interface ReplayCase {
  /** The seen-id store: none, `createMemorySeenIds`, or an asynchronous one. */
  store: "none" | "memory" | "async";
  toleranceSeconds: number;
  rememberSeconds: number;
  deliveries: Delivery[];
}

const stamp: fc.Arbitrary<Stamp> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .oneof(
        fc.constantFrom(0, -1, 1, -59, -60, -61, 60, 61, -299, -300, -301, 300, 301),
        fc.integer({ min: -100_000, max: 100_000 }),
      )
      .map((seconds) => ({ kind: "offset" as const, seconds })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "missing" as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("", "abc", "-5", "1.5", "1e9", "1234567890123", " ", "0x10", "+5")
      .map((text) => ({ kind: "malformed" as const, text })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "twice" as const }) },
);

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .integer({ min: 0, max: idPool.length - 1 })
      .map((index) => ({ kind: "pool" as const, index })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "missing" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "long" as const }) },
);

const delivery: fc.Arbitrary<Delivery> = fc.record({
  route: fc.constantFrom<ReplayRoute>("order.paid", "order.viewed", "webhook"),
  advance: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 3, arbitrary: fc.constantFrom(1, 59, 60, 61, 299, 300, 301, 599, 600, 601) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 200_000 }) },
  ),
  signature: fc.constantFrom<Delivery["signature"]>("right", "right", "right", "wrong", "missing"),
  stamp,
  id: idChoice,
  event: fc.constantFrom<Delivery["event"]>(
    "agree",
    "agree",
    "agree",
    "other",
    "unknown",
    "unlisted",
  ),
  fails: fc.constantFrom(false, false, false, true),
  transport: fc.constantFrom<Delivery["transport"]>("fetch", "node"),
});

export const replayCase: fc.Arbitrary<ReplayCase> = fc.record({
  store: fc.constantFrom<ReplayCase["store"]>("memory", "memory", "async", "none"),
  toleranceSeconds: fc.constantFrom(60, 300, Infinity),
  rememberSeconds: fc.constantFrom(600, 86_400),
  deliveries: fc.array(delivery, { minLength: 1, maxLength: 10 }),
});

/** The id a delivery carries, as sent. */
export function idText(id: IdChoice): string | undefined {
  if (id.kind === "pool") return idPool[id.index];
  return id.kind === "long" ? "x".repeat(257) : undefined;
}

/** The signing time's text in the request, from the clock (ms) and the stamp. */
function stampText(s: Stamp, clock: number): string | undefined {
  const now = Math.floor(clock / 1000);
  switch (s.kind) {
    case "offset":
      return String(now + s.seconds);
    case "missing":
      return undefined;
    case "malformed":
      return s.text;
    case "twice":
      return String(now);
    default: {
      const unhandled: never = s;
      throw new Error(`unhandled stamp ${JSON.stringify(unhandled)}`);
    }
  }
}

const mac = (data: string, key: string) => createHmac("sha256", key).update(data);

/** The webhook event the body names, and the one the header names. */
function webhookEvents(d: Delivery): { body: string; header: string } {
  switch (d.event) {
    case "agree":
      return { body: "shipped", header: "shipped" };
    case "other":
      return { body: "shipped", header: "cancelled" };
    case "unknown":
      return { body: "shipped", header: "refunded" };
    case "unlisted":
      return { body: "refunded", header: "refunded" };
    default: {
      const unhandled: never = d.event;
      throw new Error(`unhandled event choice ${String(unhandled)}`);
    }
  }
}

/** A delivery as a request: method POST, path, headers and body text, at clock `clock` (ms). */
export function replayRequest(
  d: Delivery,
  clock: number,
): { path: string; headers: Record<string, string>; body: string } {
  const key = d.signature === "wrong" ? "someone-else" : replaySecret;
  const id = idText(d.id);
  const t = stampText(d.stamp, clock);
  const headers: Record<string, string> = {};
  if (d.route === "webhook") {
    const events = webhookEvents(d);
    const body = JSON.stringify({ ...(id !== undefined ? { id } : {}), kind: events.body });
    // the digest covers `<t>.<body>`, with the text of the first t= item as sent
    const items =
      t === undefined ? [] : d.stamp.kind === "twice" ? [`t=${t}`, `t=${t}`] : [`t=${t}`];
    const v1 = mac(`${t ?? ""}.${body}`, key).digest("hex");
    if (d.signature !== "missing") headers["Hook-Signature"] = [...items, `v1=${v1}`].join(",");
    headers["X-Hook-Event"] = events.header;
    return { path: "/hooks", headers, body };
  }
  const paid = d.route === "order.paid";
  const body = JSON.stringify(paid ? { event: "order.paid", order: "o-1" } : { order: "o-1" });
  if (d.signature !== "missing")
    headers[paid ? "X-Sig" : "X-Id-Sig"] = mac(body, key).digest("base64");
  if (paid && t !== undefined)
    headers["X-Sig-Timestamp"] = d.stamp.kind === "twice" ? `${t}, ${t}` : t;
  if (id !== undefined) headers["X-Delivery"] = id;
  return { path: paid ? "/order-paid" : "/order-viewed", headers, body };
}

/** The seen-id store as the oracle keeps it: id -> when it expires (ms). */
export type StoreModel = Map<string, number>;

/** What the router must answer, and whether the handler runs; updates `model` as the store must change. */
export function expectedOutcome(
  c: ReplayCase,
  d: Delivery,
  clock: number,
  model: StoreModel,
): { status: number; runs: boolean } {
  if (d.signature !== "right") return { status: 422, runs: false };
  const stamped = d.route !== "order.viewed";
  let signedAt: number | undefined;
  if (stamped) {
    const text = stampText(d.stamp, clock);
    // a header given twice arrives as one value "t, t": not unix seconds
    if (d.stamp.kind === "missing" || d.stamp.kind === "twice") return { status: 422, runs: false };
    if (text === undefined || !/^\d{1,12}$/.test(text.trim())) return { status: 422, runs: false };
    signedAt = Number(text.trim());
    if (Math.abs(clock / 1000 - signedAt) > c.toleranceSeconds) return { status: 422, runs: false };
  }
  if (d.route === "webhook" && (d.event === "other" || d.event === "unknown"))
    return { status: 400, runs: false };
  // a listed event's payload requires its id (ShippedEvent.id): validation refuses it first
  if (d.route === "webhook" && d.event === "agree" && idText(d.id) === undefined)
    return { status: 400, runs: false };
  const ok = d.route === "order.viewed" ? 204 : 200;
  if (c.store === "none") return d.fails ? { status: 500, runs: true } : { status: ok, runs: true };
  const id = idText(d.id);
  if (id === undefined || id.length > 256) return { status: 400, runs: false };
  const held = model.get(id);
  if (held !== undefined && held > clock) return { status: 409, runs: false };
  const expiresAt =
    signedAt !== undefined && c.toleranceSeconds !== Infinity
      ? (signedAt + c.toleranceSeconds) * 1000
      : clock + c.rememberSeconds * 1000;
  model.set(id, expiresAt);
  if (d.fails) {
    model.delete(id);
    return { status: 500, runs: true };
  }
  return { status: ok, runs: true };
}
