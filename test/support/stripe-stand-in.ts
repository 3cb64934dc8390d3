/**
 * A stand-in for Stripe on 127.0.0.1 for the Stripe example (test/example-stripe.test.ts):
 * node:http, answering the calls of examples/stripe-payments/consumer.ts as Stripe does. It
 * checks the Bearer key, reads form bodies and bracketed query strings the way Stripe's Rack
 * stack does (`metadata[order_id]=1` is a hash, `expand[]=a` a list), reads multipart uploads
 * with undici's own parser, keeps idempotent results by `Idempotency-Key`, answers errors in
 * Stripe's `{ error: { type, code, message } }` shape with a `Request-Id`, and records every
 * request with its raw body.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const secretKey = "sk_test_51ExampleStandInKey";

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A parsed form or query: Rack's nested params (values are strings, `[]` makes a list). */
export type Params = { [key: string]: string | string[] | Params };

/**
 * Reads `a=1&m[k]=v&e[]=x&e[]=y` as Stripe's servers do: brackets nest hashes, an empty
 * bracket appends to a list. A key it cannot read throws, so a wrongly encoded body fails.
 */
export function parseParams(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new Error(`a key Stripe cannot read: ${key}`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: Params | string[] = root;
    path.forEach((segment, i) => {
      const next = path[i + 1];
      if (Array.isArray(node)) {
        if (segment !== "" || next !== undefined) throw new Error(`a list holds values: ${key}`);
        node.push(value);
      } else if (next === undefined) node[segment] = value;
      else {
        node[segment] ??= next === "" ? [] : {};
        node = node[segment] as Params | string[];
      }
    });
  }
  return root;
}

/** An answer: status, JSON body, extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Route = (request: Recorded, url: URL) => Reply | Promise<Reply>;

/** Stripe's error body. */
export function stripeError(
  status: number,
  type: string,
  code: string | undefined,
  message: string,
  extra: Record<string, unknown> = {},
): Reply {
  return { status, body: { error: { type, ...(code ? { code } : {}), message, ...extra } } };
}

/** One stand-in server: routes by `METHOD /path` (a `*` segment matches any id). */
export class StripeStandIn {
  readonly requests: Recorded[] = [];
  /** Answers kept by idempotency key, replayed as Stripe replays them. */
  private readonly replays = new Map<string, Reply>();
  /** Keys whose first attempt is told another request with the key is in flight (409). */
  readonly busyOnce = new Set<string>();
  /** The answer of the next request, whatever it is. */
  failNext: Reply | undefined;
  private requestCount = 0;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly url: string,
    private readonly routes: Record<string, Route>,
  ) {}

  static async start(routes: Record<string, Route>): Promise<StripeStandIn> {
    let instance: StripeStandIn | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const recorded = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        void instance!.answer(recorded, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    instance = new StripeStandIn(server, `http://127.0.0.1:${port}`, routes);
    return instance;
  }

  /** Forgets the requests recorded so far; request ids count from `req_1` again. */
  clear(): void {
    this.requests.length = 0;
    this.requestCount = 0;
  }

  private async answer(request: Recorded, res: ServerResponse): Promise<void> {
    this.requests.push(request);
    const requestId = `req_${++this.requestCount}`;
    let reply: Reply;
    try {
      reply = await this.reply(request);
    } catch (error) {
      reply = stripeError(500, "api_error", undefined, `stand-in: ${String(error)}`);
    }
    res.writeHead(reply.status, {
      "content-type": "application/json",
      "request-id": requestId,
      ...reply.headers,
    });
    res.end(JSON.stringify(reply.body));
  }

  private async reply(request: Recorded): Promise<Reply> {
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return stripeError(401, "invalid_request_error", undefined, "Invalid API Key provided.");
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) return failure;
    const url = new URL(request.url, this.url);
    const key = request.headers["idempotency-key"] as string | undefined;
    if (key !== undefined && this.busyOnce.delete(key))
      return stripeError(
        409,
        "idempotency_error",
        "idempotency_key_in_use",
        "There is currently another in-progress request using this Idempotent Key.",
      );
    const replay = key !== undefined ? this.replays.get(key) : undefined;
    if (replay) return { ...replay, headers: { "idempotent-replayed": "true" } };
    const name = `${request.method} ${url.pathname.replace(/\/(pi|pm|cus|file)_\w+/g, "/*")}`;
    const route = this.routes[name];
    const reply = route
      ? await route(request, url)
      : stripeError(404, "invalid_request_error", undefined, `Unrecognized request URL (${name}).`);
    // Stripe keeps the answer of a key once the request ran, errors from its own checks aside.
    if (
      key !== undefined &&
      request.method === "POST" &&
      reply.status !== 400 &&
      reply.status < 500
    )
      this.replays.set(key, reply);
    return reply;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
