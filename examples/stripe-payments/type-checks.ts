/**
 * Mistakes the generated types turn into compile errors, each marked `@ts-expect-error` (an
 * unused mark is itself an error): tsc over this example fails if the package gets looser.
 * Never run; only type-checked (test/example-stripe.test.ts, TypeScript 6 and 7).
 */
import type {
  CreatePaymentIntentParams,
  Event,
  PaymentIntent,
  PaymentMethod,
  StripeClient,
} from "./generated/src/index.js";
import { createCallbackRouter } from "./generated/src/callbacks.js";

export function typeChecks(
  client: StripeClient,
  pm: PaymentMethod,
  intent: PaymentIntent,
  event: Event,
): void {
  if (event.type === "customer.created") {
    // @ts-expect-error a customer.created event carries a Customer, and a field it does not declare is unknown
    void event.data.object.amount_received.toFixed();
  }
  // @ts-expect-error the details field exists only once `type` says which variant it is
  void pm.card;
  if (pm.type === "sepa_debit") {
    // @ts-expect-error a SEPA debit has no card
    void pm.card;
  }
  // @ts-expect-error an expandable field may be the id: narrow it before reading the customer
  void intent.customer.email;
  // @ts-expect-error amount is in the smallest currency unit, a number
  const wrongAmount: CreatePaymentIntentParams = { amount: "20.00", currency: "eur" };
  // @ts-expect-error currency is required
  const noCurrency: CreatePaymentIntentParams = { amount: 2000 };
  void [wrongAmount, noCurrency];
  // @ts-expect-error the header parameter is a string
  void client.paymentIntents.create({ amount: 1, currency: "eur" }, { "Stripe-Account": 1 });
  // @ts-expect-error created is a range object, not a number (deepObject: created[gte]=...)
  void client.customers.list({ created: 1_700_000_000 });
  // @ts-expect-error expand is a list of field paths
  void client.paymentMethods.retrieve("pm_1", { expand: "customer" });
  void client.files.create({
    // @ts-expect-error a file is bytes (Blob, Uint8Array, ArrayBuffer, a stream), not a string
    file: "evidence.pdf",
    purpose: "dispute_evidence",
  });
  void createCallbackRouter({
    signingSecrets: ["whsec_test"],
    webhook: {
      path: "/stripe/webhooks",
      handlers: {
        // @ts-expect-error a customer.created event carries a Customer: a field it does not declare is unknown
        "customer.created": (event) => void event.data.object.amount.toFixed(),
        // @ts-expect-error an event the spec does not list has no typed handler (onUnknownEvent takes it)
        "charge.refunded": () => undefined,
      },
    },
  });
}

/** The result of a call follows its `expand` list: ids where a field is not listed. */
export async function expandChecks(client: StripeClient): Promise<void> {
  const plain = await client.paymentIntents.retrieve("pi_1");
  // @ts-expect-error not listed in expand: the customer is an id (or null)
  void plain.customer?.email;
  const expanded = await client.paymentIntents.retrieve("pi_1", { expand: ["customer"] });
  void expanded.customer?.email;
  // @ts-expect-error payment_method was not listed: an id
  void expanded.payment_method?.type;
  // @ts-expect-error expand takes the answer's expandable paths only
  void client.paymentIntents.retrieve("pi_1", { expand: ["customr"] });
}
