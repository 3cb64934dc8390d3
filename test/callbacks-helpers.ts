/**
 * Helpers of the callback router tests: real servers on 127.0.0.1 (started and stopped by
 * the tests), raw HTTP requests (node:http, so a GET can carry a body and bytes go out
 * exactly as given), and a reference signer on node:crypto, independent of the router's
 * Web Crypto code.
 */
import { createHmac } from "node:crypto";
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import {
  createCallbackRouter,
  type CallbackHandlers,
  type CallbackRouterOptions,
} from "../generated/src/callbacks.ts";

export const secret = "test-signing-secret";
export const previousSecret = "previous-signing-secret";
export const signatureHeader = "X-Service-Hmac-Sha256";

/** base64(HMAC-SHA256(secret, bytes)), computed with node:crypto. */
export function sign(body: string | Uint8Array, key = secret): string {
  return createHmac("sha256", key).update(body).digest("base64");
}

/** The raw digest, for malformed-signature cases. */
export function digest(body: string | Uint8Array, key = secret): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

export interface Running {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with an OS-chosen port. */
export async function listen(handler: RequestListener | Server): Promise<Running> {
  const server = typeof handler === "function" ? createServer(handler) : handler;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: any;
}

export interface SendOptions {
  method?: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Sign the body with this secret into X-Service-Hmac-Sha256 (default: `secret`); `false`: no header. */
  signWith?: string | false;
  /** Send the body in these pieces with chunked transfer encoding (no Content-Length). */
  chunks?: (string | Uint8Array)[];
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One HTTP request to 127.0.0.1, bytes exactly as given. */
export function send(running: Running, path: string, options: SendOptions = {}): Promise<Sent> {
  const method = options.method ?? "POST";
  const body = options.chunks ? undefined : (options.body ?? "");
  const raw = options.chunks
    ? Buffer.concat(options.chunks.map((c) => Buffer.from(c)))
    : Buffer.from(body ?? "");
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...options.headers,
  };
  if (options.signWith !== false) headers[signatureHeader] = sign(raw, options.signWith ?? secret);
  if (!options.chunks) headers["content-length"] = String(raw.byteLength);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: running.port, path, method, headers },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => {
          const text = Buffer.concat(parts).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(raw);
    }
  });
}

/**
 * Streams `total` bytes in `chunkSize` pieces (chunked encoding, no Content-Length) and
 * resolves with the response and how many bytes the client had written when it came.
 */
export function sendEndless(
  running: Running,
  path: string,
  total: number,
  chunkSize: number,
): Promise<{ status: number; json: any; writtenWhenAnswered: number }> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: running.port,
        path,
        method: "POST",
        headers: { [signatureHeader]: "AAAA" },
      },
      (res) => {
        answered = true;
        const at = written;
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => {
          req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            json: parse(Buffer.concat(parts).toString("utf8")),
            writtenWhenAnswered: at,
          });
        });
      },
    );
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const chunk = Buffer.alloc(chunkSize, 0x20);
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.byteLength;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** One call a handler received. */
export interface Call {
  event: string;
  input: unknown;
}

/** Handlers for every Merchant callback that record their calls and answer fixed bodies. */
export function recordingHandlers(calls: Call[]): CallbackHandlers {
  return {
    "product.info": async (body) => {
      calls.push({ event: "product.info", input: body });
      return {
        status: "success",
        data: {
          Current: { Name: "Mug", Prices: [{ UnitPriceInCents: 1250, Currency: "USD" }] },
          Variants: [],
          Parent: { Name: "Mugs" },
        },
      };
    },
    "order.shipping": async (body) => {
      calls.push({ event: "order.shipping", input: body });
      return {
        status: "success",
        data: {
          shipping_options: [{ service: "ground", cost: 500, reference: "ship-1" }],
          is_store_location: false,
        },
      };
    },
    "cart.update": (body) => {
      calls.push({ event: "cart.update", input: body });
      return { status: "failure", errors: [{ code: 6001, data: [{ reason: "out of stock" }] }] };
    },
    "account.login": async (params) => {
      calls.push({ event: "account.login", input: params });
      return { status: "success" };
    },
  };
}

/** Bodies of the Merchant callbacks, as the service would send them. */
export const bodies = {
  productInfo: JSON.stringify({ event: "product.info", data: { productID: "p-1", sku: "SKU-1" } }),
  orderShipping: JSON.stringify({
    event: "order.shipping",
    data: {
      shipping_address: { country_code: "US", postal_code: "94103" },
      cart: { items: [{ sku: "SKU-1", quantity: 2 }], total_amount: 2500 },
      request_source: "checkout",
    },
  }),
  cartUpdate: JSON.stringify({
    event: "cart.update",
    data: {
      order_reference: "ord-1",
      add_items: [{ product_id: "p-1", price: 1250, currency: "USD", quantity: 1 }],
    },
  }),
};

/** What a test file's Merchant router server records, and how to start another with other options. */
export interface MerchantServer {
  /** The server of the file (set in `beforeAll`). */
  server: Running;
  calls: Call[];
  errors: unknown[];
  rejects: { event?: string; path: string; status: number; reason: string }[];
  webhooks: unknown[];
  /** Router options of the file's server, with overrides. */
  options(overrides?: Partial<CallbackRouterOptions>): CallbackRouterOptions;
  /** Runs `run` against a second server with other options, stopped afterwards. */
  withRouter<T>(
    overrides: Partial<CallbackRouterOptions>,
    run: (s: Running) => Promise<T>,
  ): Promise<T>;
}

/**
 * A Merchant callback router on node:http for a test file: started before its tests,
 * stopped after them, its records cleared after each test. Recording handlers, `onError`,
 * `onReject` and a webhook route at `/webhooks`.
 */
export function merchantServer(): MerchantServer {
  const state: MerchantServer = {
    server: undefined as unknown as Running,
    calls: [],
    errors: [],
    rejects: [],
    webhooks: [],
    options: (overrides = {}) => ({
      signingSecrets: [secret],
      handlers: recordingHandlers(state.calls),
      onError: (error) => state.errors.push(error),
      onReject: (info) => state.rejects.push(info),
      webhook: { path: "/webhooks", handler: (payload) => void state.webhooks.push(payload) },
      ...overrides,
    }),
    withRouter: async (overrides, run) => {
      const other = await listen(createCallbackRouter(state.options(overrides)).node);
      try {
        return await run(other);
      } finally {
        await other.close();
      }
    },
  };
  beforeAll(async () => {
    state.server = await listen(createCallbackRouter(state.options()).node);
  });
  afterAll(() => state.server.close());
  afterEach(() => {
    for (const list of [state.calls, state.errors, state.rejects, state.webhooks]) list.length = 0;
  });
  return state;
}
