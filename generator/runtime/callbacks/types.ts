/**
 * The router's types: what goes into the core (a request, the options, the generated
 * description of the routes) and what comes out (an answer), shared by the core and its
 * adapters. `core.ts` re-exports them, so the generated `callbacks.ts` imports from there.
 */
import type { Begun, HeaderReader, InboundRequest, OutboundResponse } from "../http/types.js";
import type { Validator } from "../validate.js";
import type { ReplayOptions, ReplaySpec } from "./replay.js";
import type { RouteSpec } from "./routes.js";
import type { SignatureOptions, SignatureScheme } from "./signature.js";

export type { Answer, Begun, InboundRequest, OutboundResponse } from "../http/types.js";

/** What every handler learns about its request besides the validated input. */
export interface RequestContext {
  method: string;
  /** Path below where the router is mounted. */
  path: string;
  query: URLSearchParams;
  headers: HeaderReader;
  /** The body bytes exactly as received (already verified). */
  rawBody: Uint8Array;
}

/** Context of a callback handler. */
export interface CallbackContext extends RequestContext {
  event: string;
  /** The validated parameters by name (path, query, trailing); empty when the callback has none. The handler's input when it has no body. */
  params: Readonly<Record<string, unknown>>;
  /** Sets the HTTP status of the answer (200 to 599; default 200); the body stays what the handler returns. */
  setStatus(status: number): void;
}

/** Any callback handler; the generated `CallbackHandlers` type is the precise one. */
export type AnyHandler = (input: never, ctx: CallbackContext) => unknown;

/** Delivery headers as the router hands them over: by the spec's name, absent ones left out. */
export type DeliveryHeaders = Readonly<Record<string, string | number | boolean>>;

/** Context of a webhook delivery's handler. */
export interface DeliveryContext<Headers extends object = DeliveryHeaders> extends RequestContext {
  /**
   * The delivery headers the spec declares (`webhooks.headers`), validated and read as their
   * types (the generated `WebhookDeliveryHeaders`); empty where the spec declares none.
   */
  deliveryHeaders: Headers;
}

/** The webhook route: mount it at the URL registered with the service. */
export interface WebhookRoute<Headers extends object = DeliveryHeaders, Payload = unknown> {
  /** Path below where the router is mounted, e.g. `/webhooks`. Deliveries are POST. */
  path: string;
  /**
   * Receives the verified, parsed payload: validated against the spec's payload type where the
   * spec gives one (`Payload`), as it arrived where the spec does not show its shape
   * (`unknown`). Answer: 200, empty body.
   */
  handler: (payload: Payload, ctx: DeliveryContext<Headers>) => void | Promise<void>;
}

/** Context of a typed webhook handler. */
export interface WebhookContext<Headers extends object = DeliveryHeaders>
  extends DeliveryContext<Headers> {
  /** The delivery's event, as the spec names it (`issues`, `payment_intent.succeeded`). */
  event: string;
}

/** Any typed webhook handler; the generated `WebhookHandlers` type is the precise one. */
export type AnyWebhookHandler = (payload: never, ctx: WebhookContext<never>) => unknown;

/** Typed webhook handlers by event name, as the core takes them. */
export type AnyWebhookHandlers = { readonly [event: string]: AnyWebhookHandler | undefined };

/**
 * The webhook route of a spec that lists its events: one typed handler per event, each
 * given the payload after it is validated against the event's type. Answer: 200, empty body.
 */
export interface TypedWebhookRoute<Handlers, Headers extends object = DeliveryHeaders> {
  /** Path below where the router is mounted, e.g. `/webhooks`. Deliveries are POST. */
  path: string;
  /** One handler per event, by name; an event the spec lists without a handler here is accepted unread (200). */
  handlers: Handlers;
  /**
   * Deliveries of an event the spec does not list, with the parsed payload (not validated:
   * the spec gives no type). Absent: they are refused with 400, naming the event.
   */
  onUnknownEvent?: (payload: unknown, ctx: WebhookContext<Headers>) => void | Promise<void>;
}

/** How the router tells webhook deliveries apart, generated from the spec's `webhooks.events`. */
export interface WebhookEventsSpec {
  /** Request header whose value names the event (`X-GitHub-Event`) ... */
  header?: string;
  /** ... or top-level payload field that does (`type`). */
  field?: string;
  /**
   * With `header`: the top-level payload field that names the event too (every listed event's
   * payload declares it as the event's name). The signature covers the body, not the header,
   * so a delivery whose header and body name different events is refused.
   */
  bodyField?: string;
  /** The payload check of each event the spec lists, by event name (its paths start with `body`). */
  events: Readonly<Record<string, Validator>>;
  /**
   * The events whose handlers answer with a body (the spec's `success`), and how it is sent
   * with the 200: `json`, or `text` for a string answer (`text/plain`, the string itself).
   */
  answering?: Readonly<Record<string, "json" | "text">>;
}

/** The delivery headers a spec declares, as the generator describes them. */
export interface DeliveryHeadersSpec {
  /** Each header by the spec's name, and what its text is turned into before validation (default: kept as text). */
  names: readonly { name: string; as?: "number" | "boolean" }[];
  /** Checks the headers object (its paths start with `headers`). */
  check: Validator;
}

/** Codes put in the failure bodies the router writes itself. */
export interface FailureCodes {
  signature: number;
  invalid: number;
  notFound: number;
  method: number;
  tooLarge: number;
  timeout: number;
  notImplemented: number;
  internal: number;
  /** A delivery whose id the seen-id store already holds (default 409). */
  replay: number;
}

/** Options every generated router takes (the generated type adds `handlers`). */
export interface BaseRouterOptions {
  /** Current signing secrets; any may match (rotation). Unset and empty entries are skipped. */
  signingSecrets: readonly (string | null | undefined)[];
  /** Prefix the router is mounted under when the server does not strip it (node:http, Fetch), e.g. `/merchant`. */
  basePath?: string;
  /** Largest body read, in bytes; larger gets 413. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Longest wait for the whole body, in milliseconds from when the router starts reading it;
   * a slower sender gets 408 and the connection is closed. Default 10,000; `Infinity`: no limit.
   */
  bodyTimeoutMs?: number;
  /**
   * Web Crypto to use (`subtle`), or a `compute`/`decode` that replaces the spec's scheme for
   * every signed route (default: the scheme the spec names, else base64(HMAC-SHA256(secret, raw body)).
   */
  signature?: SignatureOptions;
  /**
   * Replay protection where the spec declares a signed timestamp or a delivery id: the
   * tolerance window (default 300 s), a seen-id store, the clock. See docs/callbacks.md.
   */
  replay?: ReplayOptions;
  /**
   * Sees every error a handler throws, and internal errors (a body that could not be read, a
   * signature `compute` or `decode` that threw); the response says only "internal error".
   */
  onError?: (error: unknown, info: { event?: string; path: string }) => void;
  /** Sees every request the router refuses itself (bad signature, invalid input, ...); `reason` holds no secret. */
  onReject?: (info: { event?: string; path: string; status: number; reason: string }) => void;
  /** Codes in the router's own failure bodies, over the generated defaults. */
  codes?: Partial<FailureCodes>;
  webhook?: WebhookRoute;
}

/**
 * What the core takes: the generated options of any spec, whichever webhook route it has.
 * `signingSecrets` is absent where the spec signs nothing (the generated options forbid it).
 */
export interface CoreOptions extends Omit<BaseRouterOptions, "webhook" | "signingSecrets"> {
  signingSecrets?: BaseRouterOptions["signingSecrets"];
  /** The callback handlers by event; absent where the spec has no callbacks. */
  handlers?: { readonly [event: string]: AnyHandler | undefined };
  webhook?: WebhookRoute<never, never> | TypedWebhookRoute<AnyWebhookHandlers, never>;
}

/** The generated description of an API's callbacks. */
export interface RouterSpec {
  routes: readonly RouteSpec[];
  /** Signature header of webhook deliveries; absent: the API has no webhooks or does not sign them. */
  webhookSignatureHeader?: string;
  /** The scheme of the webhook signature; absent: the default scheme. */
  webhookSignatureScheme?: SignatureScheme;
  /** Where signed webhook deliveries carry their signing time and delivery id; absent: neither. */
  webhookReplay?: ReplaySpec;
  /** The typed events of webhook deliveries; absent: one payload for every delivery. */
  webhookEvents?: WebhookEventsSpec;
  /**
   * Without events: the check of the one payload every delivery carries, where the spec gives
   * its type; absent: the payload is handed over as parsed (its shape is not in the spec).
   */
  webhookPayload?: Validator;
  /** The headers webhook deliveries carry that the spec declares; absent: none. */
  webhookHeaders?: DeliveryHeadersSpec;
  /** Code of a signature failure, from the spec. */
  signatureCode: number;
}

/**
 * The core of a router: `handle` for any adapter, `begin` for one that reads bodies itself.
 * Neither throws nor rejects: whatever goes wrong inside is the generic 500, after `onError`.
 */
export interface RouterCore {
  handle(request: InboundRequest): Promise<OutboundResponse>;
  begin(method: string, target: string, headers: HeaderReader): Begun;
  /** The generic 500 for an error outside the core (an adapter's), after `onError` has seen it. */
  fail(error: unknown, target: string): OutboundResponse;
}
