/**
 * A frontend's tests against the generated `./msw` entry, type-checked strict by TypeScript 6
 * and 7 (test/typecheck.test.ts): an override takes a value of its endpoint's type, a
 * function giving one, or a Response; what must not compile is marked.
 */
import { setupServer } from "msw/node";
import { standInHandlers, type MswAnswers } from "../../generated/src/msw.js";
import type { Transaction } from "../../generated/src/index.js";

export function componentTestServer(tx: Transaction) {
  const api = standInHandlers({ baseUrl: "http://127.0.0.1:9", seed: 1, keys: { apiKey: { valid: ["k"] } } });
  const server = setupServer(...api.handlers);
  server.use(api.override("transactions.get", tx));
  server.use(api.override("transactions.get", ({ params }) => ({ ...tx, reference: params.reference ?? "" })));
  server.use(api.override("transactions.get", async ({ request }) => new Response(null, { status: 503, headers: { "X-Url": request.url } })));
  server.use(api.override("webhooks.delete", undefined));
  const answer: MswAnswers["testing.getRandomPhone"] = { phone: "+15550000000" };
  server.use(api.override("testing.getRandomPhone", answer));
  // @ts-expect-error text is not the answer of transactions.get
  server.use(api.override("transactions.get", "settled"));
  // @ts-expect-error a function must give the endpoint's type
  server.use(api.override("transactions.get", () => ({ reference: 1 })));
  // @ts-expect-error there is no such endpoint
  server.use(api.override("transactions.delete", tx));
  // @ts-expect-error the base URL is required
  standInHandlers({ seed: 1 });
  void api.standIn.state();
  return server;
}
