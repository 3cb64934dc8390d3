/**
 * Type-level test of the generated callback router (type-checked by
 * test/callbacks-types.test.ts with TypeScript 6 and 7, never run). Each `@ts-expect-error`
 * marks a mistake the compiler must catch; an unused one fails the check.
 */
import { createServer } from "node:http";
import express from "express";
import { createCallbackRouter, type CallbackHandlers, type ProductInfoResult } from "../../generated/src/callbacks.js";

const complete: CallbackHandlers = {
  "product.info": async (body) => ({ status: "success", data: { Current: { Name: body.data?.productID ?? "?" }, Variants: [], Parent: {} } }),
  "order.shipping": async (body, ctx) => {
    ctx.setStatus(200);
    return { status: "success", data: { shipping_options: [{ cost: body.data?.cart?.items?.length ?? 0 }] } };
  },
  "cart.update": () => ({ status: "failure", errors: [{ code: 6001, data: [{ reason: "out of stock" }] }] }),
  "account.login": async ({ code, state, scope, reference }) => {
    const fixed: "openid" = scope;
    return code && state && reference && fixed ? { status: "success" } : { status: "failure", errors: [{ code: 1, data: [{ reason: "no" }] }] };
  },
};

// The surface of the issue: node:http, Express (before body parsers) and Fetch runtimes.
const router = createCallbackRouter({ signingSecrets: [process.env.SIGNING_SECRET, process.env.PREVIOUS_SIGNING_SECRET], handlers: complete });
export const server = createServer(router.node);
export const app = express().use("/merchant", router.node);
export default { fetch: router.fetch };
export const withWebhook = createCallbackRouter({ signingSecrets: ["s"], handlers: complete, webhook: { path: "/webhooks", handler: (payload) => void payload } });

// @ts-expect-error a handler is missing: account.login
export const missing: CallbackHandlers = { "product.info": complete["product.info"], "order.shipping": complete["order.shipping"], "cart.update": complete["cart.update"] };

export const unknownEvent: CallbackHandlers = {
  ...complete,
  // @ts-expect-error no callback is named cart.remove
  "cart.remove": complete["cart.update"],
};

export const wrongFieldType: CallbackHandlers = {
  ...complete,
  // @ts-expect-error error.code is an integer, not a string
  "product.info": async () => ({ status: "failure", error: { code: "27", message: "x" } }),
};

export const wrongStatus: CallbackHandlers = {
  ...complete,
  // @ts-expect-error status is "success" or "failure"
  "cart.update": async () => ({ status: "ok" }),
};

export const misspelledField: CallbackHandlers = {
  ...complete,
  // @ts-expect-error `status` is required; `stauts` is not it
  "account.login": async () => ({ stauts: "success" }),
};

export const wrongShapeForEvent: CallbackHandlers = {
  ...complete,
  // @ts-expect-error order.shipping's error is one object, not a list (that is cart.update's `errors`)
  "order.shipping": async () => ({ status: "failure", error: [{ code: 1, data: [{ reason: "x" }] }] }),
};

export const wrongInput: CallbackHandlers = {
  ...complete,
  // @ts-expect-error product.info's body has data.productID and data.sku, not data.product_id
  "product.info": async (body) => ({ status: "success", data: { Current: { Name: body.data?.product_id } } }),
};

export const wrongParams: CallbackHandlers = {
  ...complete,
  // @ts-expect-error account.login's scope is the literal "openid"
  "account.login": async ({ scope }) => (scope === "email" ? { status: "success" } : { status: "success" }),
};

/** With the result type written out (as the scaffold does), an extra field is caught too. */
export const annotated: CallbackHandlers["product.info"] = async (): Promise<ProductInfoResult> => ({
  status: "success",
  // @ts-expect-error no field `extra` in product.info's success body
  extra: true,
});

// @ts-expect-error signingSecrets is required
export const noSecrets = createCallbackRouter({ handlers: complete });
