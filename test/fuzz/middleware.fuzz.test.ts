/**
 * Middleware, as a property (runtime/client/hooks.ts; docs/client.md, "Middleware"): random
 * stacks of middleware whose hooks tag, replace, answer, throw or return garbage, sync or
 * async, against a server on 127.0.0.1 that answers a random script of statuses, with
 * retries and redirects. An oracle written from the documented rules predicts the order of every hook's
 * call, the requests the server sees (and the headers the hooks set on them), and the
 * call's outcome; the test checks all three.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MerchantApiError,
  MerchantClient,
  MiddlewareError,
  RedirectError,
  withMiddleware,
  type Middleware,
} from "../../generated/src/index.ts";
import { TestServer } from "../support/test-server.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

type OnRequest = "none" | "tag" | "replace" | "answer" | "throw" | "garbage";
type OnResponse = "none" | "observe" | "replace" | "throw";
interface Spec {
  onRequest: OnRequest;
  onResponse: OnResponse;
  async: boolean;
}
interface Case {
  stack: Spec[];
  statuses: number[];
  maxRetries: number;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  stack: fc.array(
    fc.record({
      onRequest: fc.constantFrom<OnRequest>(
        "none",
        "tag",
        "tag",
        "replace",
        "answer",
        "throw",
        "garbage",
      ),
      onResponse: fc.constantFrom<OnResponse>("none", "observe", "observe", "replace", "throw"),
      async: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  statuses: fc.array(fc.constantFrom(200, 503, 404, 302), { minLength: 1, maxLength: 4 }),
  maxRetries: fc.integer({ min: 0, max: 2 }),
});

type Outcome =
  | { ok: unknown }
  | { middleware: [hook: string, index: number] }
  | { status: number }
  | { redirects: number };

/** What the documented rules say a case comes to. */
function predict(c: Case): { log: string[]; requests: string[]; outcome: Outcome } {
  const log: string[] = [];
  const requests: string[] = [];
  for (let attempt = 1; ; attempt++) {
    let response: { status: number; body: unknown } | undefined;
    let after = c.stack.length;
    const tags: string[] = [];
    for (let i = 0; i < c.stack.length && !response; i++) {
      const kind = c.stack[i]!.onRequest;
      if (kind === "none") continue;
      log.push(`${i}.onRequest #${attempt}`);
      if (kind === "throw" || kind === "garbage")
        return { log, requests, outcome: { middleware: ["onRequest", i] } };
      if (kind === "answer") [response, after] = [{ status: 200, body: { answered: i } }, i];
      else tags.push(String(i));
    }
    // Sent, with each redirect followed on the same headers (at most 5: the client's default).
    for (let hops = 0; !response; hops++) {
      const n = requests.length;
      requests.push(tags.join(","));
      const status = c.statuses[Math.min(n, c.statuses.length - 1)]!;
      if (status === 302 && hops === 5) return { log, requests, outcome: { redirects: 302 } };
      if (status !== 302)
        response = { status, body: status === 200 ? { n } : { errors: [{ code: status }] } };
    }
    for (let i = after - 1; i >= 0; i--) {
      const kind = c.stack[i]!.onResponse;
      if (kind === "none") continue;
      log.push(`${i}.onResponse ${response.status} #${attempt}`);
      if (kind === "throw") return { log, requests, outcome: { middleware: ["onResponse", i] } };
      if (kind === "replace") response = { status: 200, body: { replaced: i } };
    }
    if (response.status === 200) return { log, requests, outcome: { ok: response.body } };
    if (response.status !== 503 || attempt > c.maxRetries)
      return { log, requests, outcome: { status: response.status } };
  }
}

/** The stack a case describes, logging each hook's call. */
function stackOf(c: Case, log: string[]): Middleware[] {
  return c.stack.map((s, i): Middleware => {
    const later = <T>(value: T): T | Promise<T> =>
      s.async ? new Promise((r) => setImmediate(() => r(value))) : value;
    const json = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
    const m: Middleware = {};
    if (s.onRequest !== "none")
      m.onRequest = ({ request, attempt }) => {
        log.push(`${i}.onRequest #${attempt}`);
        const tags = request.headers.get("x-tags");
        const tagged = tags === null ? String(i) : `${tags},${i}`;
        switch (s.onRequest) {
          case "tag":
            request.headers.set("x-tags", tagged);
            return later(undefined);
          case "replace": {
            const next = new Request(request, { headers: new Headers(request.headers) });
            next.headers.set("x-tags", tagged);
            return later(next);
          }
          case "answer":
            return later(json({ answered: i }));
          case "throw":
            return s.async ? Promise.reject(new Error(`hook ${i}`)) : thrower(i);
          case "garbage":
            return later({ not: "a request" } as unknown as Request);
        }
      };
    if (s.onResponse !== "none")
      m.onResponse = async ({ response, attempt }) => {
        log.push(`${i}.onResponse ${response.status} #${attempt}`);
        if (s.async) await new Promise((r) => setImmediate(r));
        if (s.onResponse === "throw") throw new Error(`hook ${i}`);
        if (s.onResponse !== "replace") return;
        await response.body?.cancel();
        return json({ replaced: i });
      };
    return m;
  });
}

function thrower(i: number): never {
  throw new Error(`hook ${i}`);
}

let server: TestServer;
let script: number[] = [200];
beforeAll(async () => {
  server = await TestServer.start();
  server.respond((_req, res) => {
    const n = server.requests.length - 1;
    const status = script[Math.min(n, script.length - 1)]!;
    res.writeHead(status, { "content-type": "application/json", location: "/elsewhere" });
    res.end(JSON.stringify(status === 200 ? { n } : { errors: [{ code: status }] }));
  });
});
afterAll(() => server.stop());

describe("middleware (property)", () => {
  it(
    "runs each hook in the documented order, once per attempt, and the call ends as the rules say",
    async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          server.requests.length = 0;
          script = c.statuses;
          const log: string[] = [];
          const client = new MerchantClient({
            baseUrl: server.url,
            apiKey: "k-0123456789",
            maxRetries: c.maxRetries,
            retryBackoffMs: 0,
            middleware: withMiddleware(...stackOf(c, log)),
          });
          let outcome: Outcome;
          try {
            outcome = { ok: await client.transactions.get("ABCD-EFGH-IJKL") };
          } catch (error) {
            if (error instanceof MiddlewareError)
              outcome = { middleware: [error.hook, error.index] };
            else if (error instanceof MerchantApiError) outcome = { status: error.status };
            else if (error instanceof RedirectError) outcome = { redirects: error.status };
            else throw error;
          }
          const seen = server.requests.map((r) => String(r.headers["x-tags"] ?? ""));
          expect({ log, requests: seen, outcome }).toEqual(predict(c));
          expect(server.requests.every((r) => r.headers["x-api-key"] === "k-0123456789")).toBe(
            true,
          );
        }),
        fuzzParameters(300),
      );
    },
    fuzzTimeout(30_000),
  );
});
