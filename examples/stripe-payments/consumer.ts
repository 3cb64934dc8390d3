/**
 * What a user of the Stripe slice writes with the generated package: a payment with an
 * idempotency key and an expanded customer, a payment method described by its `type`, customers
 * paged by creation time, a dispute evidence upload, a declined card handled by its code, and a
 * webhook endpoint that checks Stripe's signature scheme and hands each event to its own typed
 * handler. Generate the package first (README.md); the test (test/example-stripe.test.ts) runs
 * every function here against a stand-in for Stripe on 127.0.0.1.
 */
import {
  ErrorCode,
  StripeApiError,
  StripeClient,
  type Customer,
  type Event,
  type File as StripeFile,
  type PaymentIntent,
  type PaymentIntentStatus,
  type PaymentMethod,
  type StripeClientOptions,
  type StripeError,
} from "./generated/src/index.js";
import {
  createCallbackRouter,
  type CallbackRouter,
  type SeenIdStore,
} from "./generated/src/callbacks.js";

/**
 * The API version this code is written for; Stripe answers in the account's default without
 * it. The spec's versioning sends it in `Stripe-Version` on every request, and `apiVersion`
 * pins it here, so a package regenerated for a later version fails to compile this line.
 */
export const stripeVersion = "2024-06-20";

/** Options of {@link connectStripe}: the client options, and the two addresses (stand-ins in tests). */
export type ConnectOptions = Omit<StripeClientOptions, "baseUrl" | "secretKey"> & {
  apiBase?: string;
  filesBase?: string;
};

/**
 * A client for a secret key. Stripe serves file uploads from files.stripe.com, which the spec
 * says (`hosts: files`), so the one client sends `files.create` there and everything else to
 * api.stripe.com; `filesBase` moves uploads elsewhere (the client's `hosts.files` option).
 */
export function connectStripe(secretKey: string, options: ConnectOptions = {}): StripeClient {
  const { apiBase = "https://api.stripe.com", filesBase, ...rest } = options;
  return new StripeClient({
    ...rest,
    secretKey,
    baseUrl: apiBase,
    // exactOptionalPropertyTypes: an option is left out, never set to undefined.
    ...(filesBase === undefined ? {} : { hosts: { files: filesBase } }),
    apiVersion: stripeVersion,
  });
}

/** An order of the shop, paid with a PaymentIntent. */
export interface Order {
  id: string;
  amountCents: number;
  currency: string;
  customerId: string;
  /** A saved payment method to charge at once (`confirm`); absent: the customer pays later. */
  paymentMethodId?: string;
  /** A connected account to charge for (Stripe Connect). */
  account?: string;
}

/** What {@link chargeCustomer} reports. */
export type ChargeResult =
  | {
      ok: true;
      intentId: string;
      status: PaymentIntentStatus;
      /** The customer's email, read from the expanded customer. */
      email: string | null;
      requestId: string | undefined;
    }
  | {
      ok: false;
      /** The card was declined: ask the customer for another one. */
      declined: boolean;
      /** Stripe's own words, fit to show the customer. */
      message: string | undefined;
      declineCode: string | undefined;
      /** For Stripe's support. */
      requestId: string | undefined;
    };

/**
 * Creates the order's PaymentIntent with the customer expanded. The idempotency key is the
 * order's, so a retry (the client's own, after a 409 or a 5xx, or a rerun of this function)
 * never charges twice.
 */
export async function chargeCustomer(client: StripeClient, order: Order): Promise<ChargeResult> {
  try {
    const { data: intent, headers } = await client.paymentIntents
      .create(
        {
          amount: order.amountCents,
          currency: order.currency,
          customer: order.customerId,
          description: `Order ${order.id}`,
          metadata: { order_id: order.id },
          ...(order.paymentMethodId !== undefined
            ? { payment_method: order.paymentMethodId, confirm: true }
            : { automatic_payment_methods: { enabled: true, allow_redirects: "never" } }),
          expand: ["customer"],
        },
        order.account !== undefined ? { "Stripe-Account": order.account } : undefined,
        { idempotencyKey: `order-${order.id}` },
      )
      .withResponse();
    return {
      ok: true,
      intentId: intent.id,
      status: intent.status,
      // Listed in `expand`, so the customer is the object (or null): no check for an id.
      email: intent.customer?.email ?? null,
      requestId: headers["Request-Id"],
    };
  } catch (error) {
    if (!(error instanceof StripeApiError)) throw error;
    switch (error.code) {
      case ErrorCode.cardDeclined:
      case ErrorCode.expiredCard:
        return {
          ok: false,
          declined: error.code === ErrorCode.cardDeclined,
          message: error.serverMessage,
          declineCode: isStripeError(error.body) ? error.body.error.decline_code : undefined,
          requestId: error.requestId,
        };
      default:
        throw error;
    }
  }
}

/** Whether an error body has Stripe's shape, `{ error: { type, code, ... } }`. */
function isStripeError(body: unknown): body is StripeError {
  const error = (body as { error?: unknown } | null)?.error;
  return typeof error === "object" && error !== null;
}

/** One line about a payment method for a receipt; a type this package does not know yet still gets one. */
export function describePaymentMethod(pm: PaymentMethod): string {
  switch (pm.type) {
    case "card":
      return `${pm.card.brand} card ending ${pm.card.last4}, expires ${pm.card.exp_month}/${pm.card.exp_year}`;
    case "sepa_debit":
      return `SEPA Direct Debit from ${pm.sepa_debit.country ?? "?"} ending ${pm.sepa_debit.last4 ?? "????"}`;
    case "us_bank_account":
      return `${pm.us_bank_account.bank_name ?? "US bank"} account ending ${pm.us_bank_account.last4 ?? "????"}`;
    default:
      // A type Stripe added after this package was generated (klarna, link, ...).
      return `a ${String(pm.type)} payment method`;
  }
}

/** The payment method of a PaymentIntent, read with `expand[]=payment_method`, described. */
export async function describeIntentPayment(
  client: StripeClient,
  intentId: string,
): Promise<string> {
  const intent = await client.paymentIntents.retrieve(intentId, {
    expand: ["payment_method"],
  });
  // Listed in `expand`: the payment method is the object, typed so.
  const pm = intent.payment_method;
  return pm === null ? "no payment method yet" : describePaymentMethod(pm);
}

/**
 * Every customer created at or after `since` (seconds since the epoch), newest first, a page
 * of `pageSize` at a time: `created[gte]`, and the client walks on with `starting_after` the
 * last one while `has_more` (the spec's `pagination`).
 */
export async function listRecentCustomers(
  client: StripeClient,
  since: number,
  pageSize = 10,
): Promise<Customer[]> {
  const customers: Customer[] = [];
  for await (const customer of client.customers.list({ created: { gte: since }, limit: pageSize }))
    customers.push(customer);
  return customers;
}

/** The size of each page of customers created at or after `since`, and whether Stripe said more follow. */
export async function customerPages(
  client: StripeClient,
  since: number,
  pageSize: number,
): Promise<{ size: number; hasMore: boolean }[]> {
  const pages: { size: number; hasMore: boolean }[] = [];
  for await (const page of client.customers
    .list({ created: { gte: since }, limit: pageSize })
    .pages())
    pages.push({ size: page.items.length, hasMore: page.data.has_more });
  return pages;
}

/** Uploads a PDF as dispute evidence (multipart, with its file name and type), to the files host. */
export function uploadEvidence(
  client: StripeClient,
  bytes: Uint8Array,
  filename: string,
): Promise<StripeFile> {
  return client.files.create({
    file: { data: bytes, filename, contentType: "application/pdf" },
    purpose: "dispute_evidence",
  });
}

/**
 * One line about an event, as `GET /v1/events` or a delivery carries it: the `type` picks the
 * variant, so `data.object` is a PaymentIntent or a Customer without a cast.
 */
export function describeEvent(event: Event): string {
  switch (event.type) {
    case "payment_intent.succeeded":
      return `${event.data.object.id} received ${event.data.object.amount_received} ${event.data.object.currency}`;
    case "payment_intent.payment_failed":
      return `${event.data.object.id} failed: ${event.data.object.last_payment_error?.message ?? "no reason given"}`;
    case "customer.created":
      return `new customer ${event.data.object.email ?? event.data.object.id}`;
    default:
      return `${String(event.type)} (not handled here)`;
  }
}

/** What the shop does with the events it receives. */
export interface ShopEvents {
  /** A payment succeeded: fulfil the order it was for. */
  paid(orderId: string | undefined, intent: PaymentIntent): void | Promise<void>;
  /** A customer was created: send the welcome mail. */
  welcomed(customer: Customer): void | Promise<void>;
  /** An event this receiver subscribed to but does not handle yet. */
  ignored(type: string): void;
}

/** Options of {@link createWebhookReceiver}. */
export interface ReceiverOptions {
  /** The endpoint's signing secrets (whsec_...): while one rolls, the new and the old. */
  signingSecrets: readonly string[];
  events: ShopEvents;
  /** Oldest signature timestamp accepted, in seconds either side of now; Stripe's libraries use 300 (the router's default). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch. */
  now?: () => number;
  /** Remembers event ids, so a delivery sent again is refused (409); e.g. `createMemorySeenIds()`. */
  seenIds?: SeenIdStore;
}

/**
 * The shop's webhook endpoint (`POST /stripe/webhooks`): Stripe's signature checked over the
 * raw body (a wrong signature gets 422, nothing handled), its `t=` timestamp within the
 * tolerance window (the spec declares it, so the router checks it: a stale one gets 422), an
 * event id seen before refused (409) when a store is given, the payload validated against
 * its event's type, then one typed handler per event. Events the spec does not list are
 * answered 200 and left alone, so Stripe does not retry them for days.
 *
 * The spec names Stripe's scheme (`scheme: timestamped`), so the router itself reads the `t=`
 * item and every `v1=` signature of the header, each of `<t>.<raw body>`: while a secret rolls,
 * Stripe signs with both and a receiver given either (or both) takes the delivery.
 */
export function createWebhookReceiver(options: ReceiverOptions): CallbackRouter {
  const { events, toleranceSeconds, now, seenIds } = options;
  return createCallbackRouter({
    signingSecrets: options.signingSecrets,
    replay: {
      ...(toleranceSeconds !== undefined ? { toleranceSeconds } : {}),
      ...(now !== undefined ? { now } : {}),
      ...(seenIds !== undefined ? { seenIds } : {}),
    },
    webhook: {
      path: "/stripe/webhooks",
      handlers: {
        "payment_intent.succeeded": (event) =>
          events.paid(event.data.object.metadata["order_id"], event.data.object),
        "customer.created": (event) => events.welcomed(event.data.object),
      },
      onUnknownEvent: (_payload, ctx) => events.ignored(ctx.event),
    },
  });
}
