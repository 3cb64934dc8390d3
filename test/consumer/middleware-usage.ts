/**
 * Middleware typed with the endpoint ids (runtime/client/hooks.ts), type-checked strict by
 * TypeScript 6 and 7 (test/typecheck.test.ts): a hook's `endpointId` is the package's union
 * of ids, so a `switch` on it narrows, and an id the package does not have is an error.
 */
import {
  MerchantClient,
  MiddlewareError,
  withMiddleware,
  type MerchantEndpointId,
  type Middleware,
} from "../../generated/src/index.js";

const metrics: Middleware<MerchantEndpointId> = {
  onResponse({ endpointId, response }) {
    switch (endpointId) {
      case "transactions.get":
      case "webhooks.delete":
        return;
      // @ts-expect-error there is no such endpoint
      case "transactions.nope":
        return;
    }
    void response.status;
  },
};

const tracing: Middleware = {
  // A middleware for any client (ids as strings) fits this one's too.
  onRequest: ({ request }) => void request.headers.set("traceparent", "00-1-2-01"),
};

const other: Middleware<"pets.list"> = { onRequest: ({ endpointId }) => void endpointId };

export const client = new MerchantClient({
  baseUrl: "https://api.example",
  middleware: withMiddleware(metrics, tracing, {
    // Written in place, a hook's endpointId is this client's union too.
    async onRequest({ endpointId, request }) {
      const id: MerchantEndpointId = endpointId;
      // @ts-expect-error not one of this client's ids
      if (endpointId === "orders.delete") return;
      return id === "orders.create" ? new Request(request, { headers: { "x-order": "1" } }) : undefined;
    },
    onError: ({ error }) => (error.endpointId === "x" ? new Response("{}") : undefined),
  }),
});

export const wrong = new MerchantClient({
  baseUrl: "https://api.example",
  // @ts-expect-error a stack of another API's middleware
  middleware: withMiddleware(other),
});

export function hookFailed(error: unknown): string | undefined {
  return error instanceof MiddlewareError ? `${error.endpointId} ${error.hook} ${error.index}` : undefined;
}
