/**
 * What the Stripe stand-in (stripe-stand-in.ts) knows and how it answers each endpoint of the
 * example: customers, payment methods (a card, a SEPA debit and a type the spec does not list),
 * payment intents made from the form body, and uploaded files; and the signed event deliveries
 * of the webhook tests. Objects have the fields Stripe sends (API version 2024-06-20), so the
 * answers also pass the package's validators.
 */
import { createHmac } from "node:crypto";
import { parseParams, stripeError, type Params, type Route } from "./stripe-stand-in.ts";

/** Seconds since the epoch of the first customer; each next one a day later. */
export const firstCreated = 1_700_000_000;

export function customer(n: number): Record<string, unknown> {
  return {
    id: `cus_${n}`,
    object: "customer",
    created: firstCreated + n * 86_400,
    email: `customer${n}@example.com`,
    name: `Customer ${n}`,
    description: null,
    address: null,
    balance: 0,
    livemode: false,
    metadata: {},
    invoice_settings: { default_payment_method: null },
  };
}

/** Five customers, newest first, as Stripe lists them. */
export const customers = [5, 4, 3, 2, 1].map(customer);

const billing = { address: null, email: null, name: "Jenny Rosen", phone: null };

export const paymentMethods: Record<string, Record<string, unknown>> = {
  pm_card_visa: {
    id: "pm_card_visa",
    object: "payment_method",
    type: "card",
    billing_details: billing,
    card: {
      brand: "visa",
      country: "US",
      exp_month: 12,
      exp_year: 2034,
      funding: "credit",
      last4: "4242",
    },
    created: firstCreated,
    customer: "cus_1",
    livemode: false,
    metadata: {},
  },
  pm_sepa: {
    id: "pm_sepa",
    object: "payment_method",
    type: "sepa_debit",
    billing_details: billing,
    sepa_debit: { bank_code: "37040044", country: "DE", last4: "3000" },
    created: firstCreated,
    customer: null,
    livemode: false,
  },
  pm_klarna: {
    id: "pm_klarna",
    object: "payment_method",
    type: "klarna",
    billing_details: billing,
    klarna: { dob: null },
    created: firstCreated,
    customer: null,
    livemode: false,
  },
};

/** A PaymentIntent as Stripe makes it from the parsed form. */
function paymentIntent(id: string, form: Params): Record<string, unknown> {
  const expand = (form.expand as string[] | undefined) ?? [];
  const customerId = form.customer as string | undefined;
  const found = customers.find((c) => c.id === customerId);
  const confirmed = form.confirm === "true";
  return {
    id,
    object: "payment_intent",
    amount: Number(form.amount),
    amount_received: confirmed ? Number(form.amount) : 0,
    currency: form.currency,
    customer: customerId === undefined ? null : expand.includes("customer") ? found : customerId,
    description: form.description ?? null,
    metadata: form.metadata ?? {},
    payment_method: form.payment_method ?? null,
    status: confirmed ? "succeeded" : "requires_payment_method",
    client_secret: `${id}_secret_standin`,
    capture_method: "automatic",
    created: firstCreated + 1000,
    livemode: false,
    next_action: null,
  };
}

/** The endpoints of api.stripe.com the example calls; `intents` keeps the intents made. */
export function apiRoutes(intents: Map<string, Record<string, unknown>>): Record<string, Route> {
  let lockedOnce = true;
  return {
    "POST /v1/payment_intents": (request) => {
      if (request.headers["content-type"] !== "application/x-www-form-urlencoded")
        return stripeError(400, "invalid_request_error", undefined, "Form bodies only.");
      const form = parseParams(request.body.toString("utf8"));
      if (!/^[1-9]\d*$/.test(String(form.amount)))
        return stripeError(
          400,
          "invalid_request_error",
          "parameter_invalid_integer",
          "Invalid integer: amount",
          { param: "amount" },
        );
      const id = `pi_${intents.size + 1}`;
      const intent = paymentIntent(id, form);
      if (form.payment_method === "pm_card_chargeDeclined")
        return stripeError(402, "card_error", "card_declined", "Your card was declined.", {
          decline_code: "generic_decline",
          doc_url: "https://stripe.com/docs/error-codes/card-declined",
          payment_intent: { ...intent, status: "requires_payment_method" },
        });
      intents.set(id, intent);
      return { status: 200, body: intent };
    },
    "GET /v1/payment_intents/*": (request, url) => {
      const id = url.pathname.split("/").at(-1)!;
      const intent = intents.get(id);
      if (!intent)
        return stripeError(
          404,
          "invalid_request_error",
          "resource_missing",
          `No such payment_intent: '${id}'`,
        );
      const expand = (parseParams(url.search.slice(1)).expand as string[] | undefined) ?? [];
      const pm = intent.payment_method as string | null;
      return {
        status: 200,
        body: {
          ...intent,
          payment_method: pm && expand.includes("payment_method") ? paymentMethods[pm] : pm,
        },
      };
    },
    "GET /v1/customers": (_request, url) => {
      // One lock timeout (429, as Stripe sends it) on the second page: a GET is retried.
      if (url.searchParams.has("starting_after") && lockedOnce) {
        lockedOnce = false;
        return lockTimeout;
      }
      const query = parseParams(url.search.slice(1));
      const created = (query.created ?? {}) as Params;
      const limit = Number(query.limit ?? 10);
      let list = customers.filter((c) => (c.created as number) >= Number(created.gte ?? 0));
      const after = list.findIndex((c) => c.id === query.starting_after);
      if (query.starting_after !== undefined) list = list.slice(after + 1);
      return {
        status: 200,
        body: {
          object: "list",
          data: list.slice(0, limit),
          has_more: list.length > limit,
          url: "/v1/customers",
        },
      };
    },
  };
}

/** The upload endpoint of files.stripe.com; `uploads` keeps what each upload's parts were. */
export function fileRoutes(
  uploads: { name: string; type: string; size: number; purpose: unknown }[],
): Record<string, Route> {
  return {
    "POST /v1/files": async (request) => {
      const type = String(request.headers["content-type"]);
      if (!type.startsWith("multipart/form-data; boundary="))
        return stripeError(
          400,
          "invalid_request_error",
          undefined,
          "Uploads are multipart/form-data.",
        );
      const form = await new Response(new Uint8Array(request.body), {
        headers: { "content-type": type },
      }).formData();
      const file = form.get("file");
      if (!(file instanceof File))
        return stripeError(
          400,
          "invalid_request_error",
          "parameter_missing",
          "Missing required param: file.",
          { param: "file" },
        );
      uploads.push({
        name: file.name,
        type: file.type,
        size: file.size,
        purpose: form.get("purpose"),
      });
      return {
        status: 200,
        body: {
          id: `file_${uploads.length}`,
          object: "file",
          created: firstCreated + 2000,
          expires_at: null,
          filename: file.name,
          purpose: form.get("purpose"),
          size: file.size,
          title: null,
          type: file.name.split(".").at(-1) ?? null,
          url: `https://files.stripe.com/v1/files/file_${uploads.length}/contents`,
        },
      };
    },
  };
}

/** The clock of the webhook tests, in seconds since the epoch. */
export const now = 1_750_000_000;
/** The endpoint's signing secrets, while one rolls. */
export const secrets = { current: "whsec_current", previous: "whsec_previous" };

/** Stripe's header: `t=<ts>,v1=<hex HMAC-SHA256 of "<ts>.<body>">`, computed with node:crypto. */
export function stripeSignature(body: string, secret: string, t = now): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** An Event delivery of `type` carrying `object`, as its JSON text. */
export function event(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({
    id: "evt_1",
    object: "event",
    api_version: "2024-06-20",
    created: now,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_1", idempotency_key: "order-1001" },
    type,
  });
}

/** A PaymentIntent as an event carries it. */
export function intentsSample(): Record<string, unknown> {
  return {
    id: "pi_77",
    object: "payment_intent",
    amount: 2000,
    amount_received: 2000,
    currency: "eur",
    customer: "cus_3",
    description: "Order 1001",
    metadata: {},
    payment_method: "pm_card_visa",
    status: "succeeded",
    client_secret: "pi_77_secret_x",
    capture_method: "automatic",
    created: now - 5,
    livemode: false,
  };
}

/**
 * The consumer's functions as test/example-stripe.test.ts calls them: it imports consumer.ts at
 * run time, once generated, so the repository's type-check never depends on a generated folder.
 */
export interface StripeConsumer {
  connectStripe(key: string, options: Record<string, unknown>): unknown;
  chargeCustomer(client: unknown, order: Record<string, unknown>): Promise<Record<string, unknown>>;
  describePaymentMethod(pm: unknown): string;
  describeEvent(event: unknown): string;
  describeIntentPayment(client: unknown, intentId: string): Promise<string>;
  listRecentCustomers(client: unknown, since: number, pageSize?: number): Promise<{ id: string }[]>;
  customerPages(
    client: unknown,
    since: number,
    pageSize: number,
  ): Promise<{ size: number; hasMore: boolean }[]>;
  uploadEvidence(
    client: unknown,
    bytes: Uint8Array,
    filename: string,
  ): Promise<Record<string, unknown>>;
  createWebhookReceiver(options: Record<string, unknown>): {
    fetch(request: Request): Promise<Response>;
  };
}
/** The one client call the test makes itself. */
export interface StripeClientApi {
  paymentIntents: { create(body: unknown, params?: unknown, options?: unknown): Promise<unknown> };
}

/** An error on Stripe's end, as Stripe answers it. */
export const serverError = stripeError(
  500,
  "api_error",
  "api_error",
  "Something went wrong on Stripe's end.",
);

/** A lock timeout, as Stripe answers it. */
export const lockTimeout = stripeError(
  429,
  "invalid_request_error",
  "lock_timeout",
  "This object cannot be accessed right now because another API request or Stripe process is currently accessing it.",
);
