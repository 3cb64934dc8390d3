/**
 * Replay protection of signed calls, where the spec says a call carries the time it was signed
 * (a header of its own, or the `t=` item of the signature header) or an id unique to its
 * delivery (a header, or a top-level field of the body). A signature proves who made a call,
 * not when: without these a captured delivery can be sent again at will.
 *
 * - A signed timestamp outside the tolerance window (default 300 s either way) is refused,
 *   as a signature that no longer holds (422).
 * - A delivery id already claimed in the seen-id store is refused (409). The id is claimed
 *   just before the handler runs and released when the answer is a 5xx, so the sender's
 *   retry of a delivery that failed is taken. The store is the caller's (`SeenIdStore`):
 *   `createMemorySeenIds` keeps ids in this process only.
 *
 * The window holds against replay only where the signature covers the timestamp, and the
 * store only where it covers the id (docs/security.md says which cases do).
 */
import { dateTimeMs } from "../validate.js";
import { fieldAt } from "./body.js";
import { headerItems } from "./schemes.js";
import type { HeaderReader } from "./signature.js";

/** Where calls carry their signing time and delivery id, as the generator reads them off the spec. */
export interface ReplaySpec {
  /**
   * Unix seconds (or with `format: "date-time"`, an RFC 3339 date-time), in a header of its own
   * (`in: header`) or an item of the signature header (`in: signature`, e.g. `t`).
   */
  timestamp?: { in: "header" | "signature"; name: string; format?: "date-time" };
  /** An id unique to the delivery, in a header or a top-level string field of the JSON body. */
  deliveryId?: { in: "header" | "body"; name: string };
}

/**
 * Remembers the ids of deliveries already received. `claim` records `id` until `expiresAt`
 * (milliseconds since the epoch) and says whether it was new: `false` for an id it holds
 * already and that has not expired. It must be atomic (two claims of one id: one is new),
 * which a shared store gives with `SET id 1 NX PXAT expiresAt` (Redis) or a unique key.
 * `release` forgets an id again: the router calls it when the answer was a 5xx, so that the
 * sender's retry is taken. Either may return a promise; one that throws or rejects is the
 * generic 500 after `onError`.
 */
export interface SeenIdStore {
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
  release?(id: string): void | Promise<void>;
}

/** Replay protection options of the router (`replay`). */
export interface ReplayOptions {
  /**
   * Largest difference, in seconds, between a call's signed timestamp and the clock, either
   * way; outside it the call is refused (422). Default 300; `Infinity`: no window. Only where
   * the spec declares a timestamp (`timestamp` of the signature credential).
   */
  toleranceSeconds?: number;
  /**
   * Remembers delivery ids: a repeat is refused with 409. Only where the spec declares a
   * delivery id (`deliveryId` of the signature credential). Default: none, repeats are not
   * detected. `createMemorySeenIds()` for one process.
   */
  seenIds?: SeenIdStore;
  /**
   * How long an id is remembered, in seconds, when the call carries no timestamp (or the
   * window is off); with a timestamp, until the timestamp leaves the window. Default 86,400 (a day).
   */
  rememberSeconds?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/** Default tolerance window: 300 s, as Stripe's and Standard Webhooks' libraries use. */
export const defaultToleranceSeconds = 300;

/** Default time an id without a timestamp is remembered: a day. */
export const defaultRememberSeconds = 86_400;

/** Longest delivery id taken, in characters: more is refused, so a store's keys stay small. */
export const maxDeliveryIdLength = 256;

/** Default most ids `createMemorySeenIds` holds. */
export const defaultMaxSeenIds = 100_000;

/** A seen-id store in this process's memory: `SeenIdStore` and how many ids it holds now. */
export interface MemorySeenIds extends SeenIdStore {
  release(id: string): void;
  /** How many ids it holds now. */
  readonly size: number;
}

/**
 * A `SeenIdStore` in memory, for a receiver that runs as one process: not shared between
 * processes, workers or instances, and empty after a restart (a replay to another instance, or
 * after a restart, is not detected: use a shared store there). It holds at most `maxEntries`
 * ids (default 100,000): expired ids are dropped first, then the oldest, so a flood of signed
 * deliveries cannot grow it without bound (an id dropped early can be replayed).
 */
export function createMemorySeenIds(
  options: { maxEntries?: number; now?: () => number } = {},
): MemorySeenIds {
  const max = options.maxEntries ?? defaultMaxSeenIds;
  if (!Number.isInteger(max) || max < 1)
    throw new Error(
      `createMemorySeenIds: maxEntries must be a whole number of at least 1, not ${String(max)}`,
    );
  const now = options.now ?? Date.now;
  /** id -> when it expires, in the order the ids were claimed. */
  const seen = new Map<string, number>();
  /** Drops the expired ids, then the oldest until a tenth of the room is free (one pass per many claims). */
  const prune = (time: number): void => {
    for (const [id, expiresAt] of seen) if (expiresAt <= time) seen.delete(id);
    const target = Math.floor(max * 0.9);
    for (const id of seen.keys()) {
      if (seen.size <= target) break;
      seen.delete(id);
    }
  };
  return {
    get size() {
      return seen.size;
    },
    claim(id, expiresAt) {
      const time = now();
      const known = seen.get(id);
      if (known !== undefined) {
        if (known > time) return false;
        seen.delete(id); // expired: claimed anew, at the end of the order
      }
      if (seen.size >= max) prune(time);
      seen.set(id, expiresAt);
      return true;
    },
    release(id) {
      seen.delete(id);
    },
  };
}

/** A number of seconds the options take: positive, or `Infinity` where `infinite` allows it. */
function seconds(name: string, value: number | undefined, fallback: number, infinite: boolean) {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0) || (!infinite && value === Infinity))
    throw new Error(
      `createCallbackRouter: replay.${name} must be a positive number of seconds${infinite ? " (Infinity: no window)" : ""}, not ${String(value)}`,
    );
  return value;
}

/** What a check found: the value, or why the call is refused. */
export type Found<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The replay checks of a router, with its options resolved once. */
export interface ReplayGuard {
  /** The signing time (unix seconds) of a call whose spec declares one, checked against the window; `undefined` where none is declared. */
  timestamp(
    spec: ReplaySpec | undefined,
    headers: HeaderReader,
    signatureHeader: string,
  ): Found<number | undefined>;
  /** The delivery id to claim and where it was read, `undefined` where none is declared or no store is given. */
  deliveryId(
    spec: ReplaySpec | undefined,
    headers: HeaderReader,
    body: unknown,
  ): Found<{ id: string; where: string } | undefined>;
  /** Whether deliveries of a route with these places have an id to claim (one is declared, and a store is given). */
  identifies(spec: ReplaySpec | undefined): boolean;
  /** Claims an id (`false`: a repeat); it expires when the signing time leaves the window, else after `rememberSeconds`. */
  claim(id: string, signedAt: number | undefined): boolean | Promise<boolean>;
  /** Forgets a claimed id (the answer was a 5xx). */
  release(id: string): void | Promise<void>;
}

/** The answer where nothing is declared (or no store is given): one object, not one per request. */
const nothing = { ok: true, value: undefined } as const;

/** Parses an RFC 3339 date-time (validate.ts's reading of one) into unix seconds. */
function dateTimeSeconds(text: string): number | undefined {
  const ms = dateTimeMs(text.trim());
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** Parses unix seconds: digits only, at most 12 (about year 33,658). */
function unixSeconds(text: string): number | undefined {
  const trimmed = text.trim();
  return /^\d{1,12}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The value of the `name=` items of a comma-separated header (`t=1,v1=ab`): none, one or several. */
function itemValues(header: string, name: string): string[] {
  return headerItems(header)
    .filter(([key]) => key === name)
    .map(([, value]) => value);
}

/**
 * The replay checks for a router whose spec declares a timestamp (`stamped`) or a delivery id
 * (`identified`) somewhere; options that would protect nothing are refused at creation.
 */
export function createReplayGuard(
  options: ReplayOptions | undefined = {},
  declared: { stamped: boolean; identified: boolean },
): ReplayGuard {
  if (options.seenIds !== undefined && !declared.identified)
    throw new Error(
      "createCallbackRouter: replay.seenIds is given, but no signed callback or webhook of this spec declares a delivery id (deliveryId of its signature credential), so no repeat would be detected; see docs/callbacks.md",
    );
  if (options.toleranceSeconds !== undefined && !declared.stamped)
    throw new Error(
      "createCallbackRouter: replay.toleranceSeconds is given, but no signed callback or webhook of this spec declares a timestamp (timestamp of its signature credential), so no call would be checked; see docs/callbacks.md",
    );
  const tolerance = seconds(
    "toleranceSeconds",
    options.toleranceSeconds,
    defaultToleranceSeconds,
    true,
  );
  const remember = seconds(
    "rememberSeconds",
    options.rememberSeconds,
    defaultRememberSeconds,
    false,
  );
  const now = options.now ?? Date.now;
  if (typeof now !== "function")
    throw new Error("createCallbackRouter: replay.now must be a function giving milliseconds");
  const store = options.seenIds;
  return {
    timestamp(spec, headers, signatureHeader) {
      const place = spec?.timestamp;
      if (place === undefined) return nothing;
      let text: string | undefined;
      let where: string;
      if (place.in === "header") {
        where = place.name;
        text = headers.get(place.name) ?? undefined;
        if (text === undefined || text.trim() === "")
          return {
            ok: false,
            reason: `missing ${where} header; it carries the time the call was signed`,
          };
      } else {
        where = `the ${place.name}= item of ${signatureHeader}`;
        const items = itemValues(headers.get(signatureHeader) ?? "", place.name);
        if (items.length === 0)
          return {
            ok: false,
            reason: `${signatureHeader} has no ${place.name}= item; it carries the time the call was signed`,
          };
        if (items.length > 1)
          return { ok: false, reason: `${signatureHeader} has more than one ${place.name}= item` };
        text = items[0]!;
      }
      const iso = place.format === "date-time";
      const signedAt = iso ? dateTimeSeconds(text) : unixSeconds(text);
      if (signedAt === undefined)
        return {
          ok: false,
          reason: `${where} is not ${iso ? "an RFC 3339 date-time" : "a time in unix seconds"}`,
        };
      if (tolerance === Infinity) return { ok: true, value: signedAt };
      const skew = now() / 1000 - signedAt;
      if (Math.abs(skew) > tolerance)
        return {
          ok: false,
          reason: `${where} is ${Math.ceil(Math.abs(skew))} s in the ${skew > 0 ? "past" : "future"}; calls signed more than ${tolerance} s from now are refused`,
        };
      return { ok: true, value: signedAt };
    },
    deliveryId(spec, headers, body) {
      const place = spec?.deliveryId;
      if (place === undefined || store === undefined) return nothing;
      let value: unknown;
      let where: string;
      if (place.in === "header") {
        where = `${place.name} header`;
        value = headers.get(place.name)?.trim();
      } else {
        where = `body.${place.name}`;
        value = fieldAt(body, place.name);
      }
      if (value === undefined || value === null || value === "")
        return { ok: false, reason: `${where} is missing; it identifies the delivery` };
      if (typeof value !== "string" || value.length > maxDeliveryIdLength)
        return {
          ok: false,
          reason: `${where} must be a string of at most ${maxDeliveryIdLength} characters; it identifies the delivery`,
        };
      return { ok: true, value: { id: value, where } };
    },
    identifies(spec) {
      return store !== undefined && spec?.deliveryId !== undefined;
    },
    claim(id, signedAt) {
      const expiresAt =
        signedAt !== undefined && tolerance !== Infinity
          ? (signedAt + tolerance) * 1000
          : now() + remember * 1000;
      return store!.claim(id, expiresAt);
    },
    release(id) {
      return store?.release?.(id);
    },
  };
}
