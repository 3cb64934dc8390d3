/**
 * The merchant backend: one node:http server that
 * - mounts the callback router under `/callbacks` (the service's calls: product.info,
 *   order.shipping, cart.update, account.login), signatures checked with SIGNING_SECRET,
 *   and the webhook deliveries at `/callbacks/webhooks` (kept in `deliveries`, newest last);
 * - serves `GET /orders/:reference`, which fetches the transaction from the service with the
 *   generated client and answers a summary of it (400 for a malformed reference, 404 when the
 *   service has none, 502 when the service fails).
 */
import { createServer, type Server } from "node:http";
import { MerchantApiError, MerchantClient, RequestValidationError } from "merchant-commerce-api";
import { createCallbackRouter } from "merchant-commerce-api/callbacks";
import { handlers } from "./handlers.js";

export interface Config {
  port: number;
  host: string;
  serviceBaseUrl: string;
  apiKey: string;
  signingSecrets: string[];
}

/** Reads the configuration from environment variables; a missing required one is an error. */
export function configFromEnv(env: NodeJS.ProcessEnv): Config {
  const need = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`set ${name} (see examples/merchant-server/README.md)`);
    return value;
  };
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? "127.0.0.1",
    serviceBaseUrl: need("SERVICE_BASE_URL"),
    apiKey: need("API_KEY"),
    signingSecrets: [need("SIGNING_SECRET"), env.PREVIOUS_SIGNING_SECRET].filter((s): s is string => Boolean(s)),
  };
}

function sendJson(res: import("node:http").ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** Webhook payloads received, newest last (the spec does not show their shape). */
export const deliveries: unknown[] = [];

/** The server, not yet listening. */
export function createMerchantServer(config: Config): Server {
  const client = new MerchantClient({ baseUrl: config.serviceBaseUrl, apiKey: config.apiKey, maxRetries: 1, timeoutMs: 10_000 });
  const router = createCallbackRouter({
    signingSecrets: config.signingSecrets,
    handlers,
    basePath: "/callbacks",
    webhook: { path: "/webhooks", handler: (payload) => void deliveries.push(payload) },
    onError: (error, info) => console.error(`callback ${info.event ?? info.path} failed:`, error),
    onReject: (info) => console.warn(`refused ${info.path}: ${info.status} ${info.reason}`),
  });

  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://merchant.local");
    if (url.pathname.startsWith("/callbacks/")) return void router.node(req, res);
    const order = /^\/orders\/([^/]+)$/.exec(url.pathname);
    if (order && req.method === "GET") {
      client.transactions
        .get(decodeURIComponent(order[1]!))
        .then((tx) => sendJson(res, 200, { reference: tx.reference, status: tx.status, amount: tx.amount, order_number: tx.merchant_order_number }))
        .catch((error: unknown) => {
          // The client checks the reference against the spec's pattern before sending anything.
          if (error instanceof RequestValidationError) sendJson(res, 400, { error: error.message });
          else if (error instanceof MerchantApiError) sendJson(res, error.status === 404 ? 404 : 502, { error: error.message, code: error.code ?? null });
          else sendJson(res, 502, { error: "the service could not be reached" });
        });
      return;
    }
    sendJson(res, 404, { error: "not found" });
  });
}
