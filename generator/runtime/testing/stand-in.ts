/**
 * A stand-in for the service, from the generated route table: `fetch(request)` answers as
 * the spec says the service does (credentials, validation, responses built from the types,
 * the state the spec implies), on Web APIs only, so it runs in a test process, a worker or
 * behind `listen` (node.ts). Both go through the request handling the callback router uses
 * (../http/), with its body limit and deadline (core.ts). Deterministic: the same seed and
 * the same requests give the same answers.
 */
import { bodyTimeout, defaultBodyLimit } from "../http/body.js";
import { inboundOf, responseOf } from "../http/fetch.js";
import { handleRequest } from "../http/handle.js";
import { coreFor, createCore, type StandInCore } from "./core.js";
import {
  deliverer,
  type DeliverCall,
  type DeliverOptions,
  type DeliveryOutcome,
} from "./deliver.js";
import { Memory, type StandInState } from "./memory.js";
import type { KeySet } from "./request.js";
import type { StandInTable } from "./table.js";

export type { DeliverCall, DeliverOptions, DeliveryOutcome } from "./deliver.js";
export type { KeySet } from "./request.js";
export type { StandInState } from "./memory.js";

export interface StandInOptions {
  /** Seed of every made-up value (default 1). */
  seed?: number;
  /** Keys by credential id (`apiKey`); a credential not listed takes any non-empty value. */
  keys?: Readonly<Record<string, KeySet>>;
  /** Largest request body read, in bytes (default 1 MiB); a longer one is refused with 413. */
  maxBodyBytes?: number;
  /**
   * Longest wait for a whole request body, in ms from when the stand-in starts reading it
   * (default 10,000, as the callback router's); a slower one is refused with 408 and its
   * connection closed. `Infinity`: no limit.
   */
  bodyTimeoutMs?: number;
  /** Gets one line per request: method, path, status and any note. */
  log?: (line: string) => void;
  /**
   * A `Prefer` value for requests that carry none, e.g. to script an answer for a server
   * whose own client you do not control: `(r) => r.url.endsWith("/NONE") ? "code=404" : undefined`.
   */
  prefer?: (request: Request) => string | undefined;
  /**
   * Where `deliver(event)` sends the spec's callbacks and webhook events, and the secret it
   * signs them with under the spec's scheme (the router's and the trigger's signer).
   */
  deliver?: DeliverOptions;
}

export interface StandIn {
  /** Answers one request as the service would. Never rejects. */
  fetch(request: Request): Promise<Response>;
  /** A copy of what it remembers. */
  state(): StandInState;
  /** Forgets every record and state (the seed's sequence starts again). */
  reset(): void;
  /**
   * Sends a callback or webhook event (by its name in the spec) to `options.deliver.url`,
   * signed, as the service would; resolves with the receiver's answer or why none came
   * (within `deliver.timeoutMs`). Throws without `deliver` options or for an unknown event.
   */
  deliver(event: string, call?: DeliverCall): Promise<DeliveryOutcome>;
}

/** The core of each stand-in made here, for `listen`. */
const cores = new WeakMap<StandIn, StandInCore>();
/** The route table of each stand-in made here, for the msw handlers' overrides (../msw/). */
const tables = new WeakMap<StandIn, StandInTable>();

/** The core of a stand-in made by `createStandInFrom` (`createStandIn`), else `undefined`. */
export function standInCore(standIn: StandIn): StandInCore | undefined {
  return cores.get(standIn);
}

/** The route table of a stand-in made by `createStandInFrom` (`createStandIn`), else `undefined`. */
export function standInTable(standIn: StandIn): StandInTable | undefined {
  return tables.get(standIn);
}

/** Path below which `POST <path><event>` makes a stand-in with `deliver` options send that event. */
export const deliveryPath = "/_stand-in/deliveries/";

/**
 * The answer to `POST /_stand-in/deliveries/<event>` when the stand-in has `deliver` options
 * (how `apigen mock --deliver-to` is told to send an event): 200 with the receiver's answer
 * as JSON (`{ event, answered, status, body }`), 502 when none came (`{ event, answered,
 * problem }`), 400 for an event the spec does not have. `undefined` for every other request,
 * which the stand-in serves as the API.
 */
export function deliveryControl(
  standIn: StandIn,
  method: string,
  target: string,
): Promise<Response> | undefined {
  if (method.toUpperCase() !== "POST" || !deliveries.has(standIn)) return undefined;
  const path = target.startsWith("/") ? target : safePath(target);
  if (path === undefined || !path.startsWith(deliveryPath)) return undefined;
  let event: string;
  try {
    event = decodeURIComponent(path.slice(deliveryPath.length).split("?")[0]!);
  } catch {
    return Promise.resolve(
      jsonResponse({ problem: "the event is not percent-encoded text" }, { status: 400 }),
    );
  }
  return standIn.deliver(event).then(
    (outcome) => jsonResponse(outcome, { status: outcome.answered ? 200 : 502 }),
    (error: unknown) => jsonResponse({ event, problem: (error as Error).message }, { status: 400 }),
  );
}

/** A JSON answer (`Response.json` is missing from early Node 18 releases). */
const jsonResponse = (value: unknown, init: { status: number }): Response =>
  new Response(JSON.stringify(value), {
    status: init.status,
    headers: { "Content-Type": "application/json" },
  });

/** The path of an absolute URL, `undefined` when it is none. */
function safePath(target: string): string | undefined {
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

/** The stand-ins made here with `deliver` options. */
const deliveries = new WeakSet<StandIn>();

/** The largest body of the options: a whole number of bytes, 1 MiB when unset. */
function bodyLimit(bytes: number | undefined): number {
  if (bytes === undefined) return defaultBodyLimit;
  if (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 0)
    throw new Error(
      `createStandIn: maxBodyBytes must be a whole number of bytes, not ${String(bytes)}`,
    );
  return bytes;
}

/** The stand-in of a route table (the generated `createStandIn` passes its own). */
export function createStandInFrom(table: StandInTable, options: StandInOptions = {}): StandIn {
  const seed = options.seed ?? 1;
  const memory = new Memory(table, seed);
  const core = createCore({
    table,
    options,
    seed,
    memory,
    limit: bodyLimit(options.maxBodyBytes),
    timeoutMs: bodyTimeout(options.bodyTimeoutMs, "createStandIn"),
  });
  const fetch = async (request: Request): Promise<Response> => {
    const control = deliveryControl(standIn, request.method, request.url);
    if (control) return control;
    const answer = await handleRequest(
      coreFor(core, () => request),
      inboundOf(request),
    );
    // HEAD: the answer's headers (its length included), without the body
    return request.method === "HEAD"
      ? new Response(null, { status: answer.status, headers: answer.headers })
      : responseOf(answer);
  };
  const send = options.deliver
    ? deliverer(table.events ?? [], table.types, options.deliver, seed)
    : undefined;
  const deliver = (event: string, call?: DeliverCall): Promise<DeliveryOutcome> =>
    send
      ? send(event, call)
      : Promise.reject(new Error("deliver: createStandIn was given no deliver option"));
  const standIn: StandIn = {
    fetch,
    state: () => memory.snapshot(),
    reset: () => memory.reset(),
    deliver,
  };
  cores.set(standIn, core);
  if (send) deliveries.add(standIn);
  tables.set(standIn, table);
  return standIn;
}
