/**
 * The callback router under hostile requests (test/fuzz/router-requests.ts), each sent twice:
 * as a `Request` to `router.fetch`, and as raw bytes over TCP to `router.node` on a real
 * node:http server on 127.0.0.1 (lying Content-Length, chunks, pauses, stalls, repeated
 * headers). For every exchange:
 * - a handler runs only when the signature header holds the right digest of the exact raw
 *   bytes it is given (checked inside the handler with node:crypto), and those bytes are the
 *   ones sent; a request right in every way reaches its handler;
 * - no 5xx unless a handler threw, and then the generic 500 in the callback's failure shape,
 *   with onError seeing that very error (onError sees nothing else but a client that left);
 * - no secret, no digest of the body in any encoding, no file path and no stack in any
 *   answer (status line, headers, body) or in what onReject is told;
 * - `//host/...` targets are no route; a slow body is 408 with `connection: close` in time;
 * - Object.prototype is untouched, the heap stays bounded, and afterwards the server still
 *   answers a valid request.
 */
import { createHmac } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBase64 } from "../../generator/runtime/callbacks/base64.ts";
import type { MemorySeenIds, SeenIdStore } from "../../generator/runtime/callbacks/replay.ts";
import {
  createCallbackRouter,
  type CallbackHandlers,
  type CallbackRouter,
  type SignedContent,
} from "../../generated/src/callbacks.ts";
import {
  bodies,
  listen,
  previousSecret,
  secret,
  send,
  signatureHeader,
  type Running,
} from "../callbacks-helpers.ts";
import { rawExchange } from "../callbacks-raw.ts";
import { repoRoot, tempDir, writeGenerated } from "../helpers.ts";
import {
  basePath,
  digestForms,
  goldenTargets,
  hmac,
  routes,
  routerCase,
  throwingModes,
  validKinds,
  type HandlerMode,
  type RouteName,
  type RouterCase,
  type Scheme,
} from "./router-requests.ts";
import {
  clockStart,
  expectedOutcome,
  replayCase,
  replayRequest,
  replaySecret,
  type Delivery,
  type StoreModel,
} from "./router-replays.ts";
import { asRequest, asWire, honest, outageHeader, stalls } from "./router-wire.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";

/** Short, so stalled bodies cost little; pauses in the cases add up to 30 ms at most. */
const bodyTimeoutMs = 300;

/** Small, so that some hostile bodies are over it (413). */
const bodyLimit = 64 * 1024;

/** One handler call, as the handler saw it. */
interface Call {
  event: string;
  rawBody: Uint8Array;
  /** The signature header holds base64(HMAC) of `rawBody` under a current secret. */
  signedRight: boolean;
  /** What the handler threw, if it did. */
  thrown?: unknown;
}

/** What the router did during one exchange. */
interface Observed {
  calls: Call[];
  errors: { error: unknown; info: { event?: string; path: string } }[];
  rejects: { event?: string; path: string; status: number; reason: string }[];
}

let observed: Observed = { calls: [], errors: [], rejects: [] };
let mode: HandlerMode = "sync";

/**
 * Whether a header value holds the right signature of `bytes` (around HTTP whitespace): one of
 * its comma-separated signatures (at most 20, a rotation's) under either secret.
 */
function signedRight(header: string | null, bytes: Uint8Array): boolean {
  const items = (header ?? "").split(",").map((item) => item.trim());
  if (items.length > 20) return false;
  const digests = [secret, previousSecret].map((key) => hmac(key, bytes).toString("base64"));
  return items.some((item) => digests.includes(item));
}

/** The handler's answer in the current mode; throwing modes record what they throw. */
function behave(call: Call, answer: unknown): unknown {
  const fail = (): Error => {
    const error =
      mode === "leaky"
        ? new Error(`db at ${repoRoot}/srv/db.ts:12:3 refused ${secret} and ${previousSecret}`)
        : new TypeError(`handler failed for ${call.event}`);
    call.thrown = error;
    return error;
  };
  if (mode === "sync") return answer;
  if (mode === "async") return Promise.resolve(answer);
  if (mode === "reject") return Promise.reject(fail());
  throw fail();
}

/** A handler for `event` that records its call and behaves as the current case says. */
function handler(event: string, answer: unknown) {
  return (
    _input: unknown,
    ctx: { rawBody: Uint8Array; headers: { get(n: string): string | null } },
  ) => {
    const call: Call = {
      event,
      rawBody: Uint8Array.from(ctx.rawBody),
      signedRight: signedRight(ctx.headers.get(signatureHeader), ctx.rawBody),
    };
    observed.calls.push(call);
    return behave(call, answer);
  };
}

const handlers = {
  "product.info": handler("product.info", { status: "success" }),
  "order.shipping": handler("order.shipping", { status: "success" }),
  "cart.update": handler("cart.update", { status: "success" }),
  "account.login": handler("account.login", { status: "success" }),
} as unknown as CallbackHandlers;

/** The generic 500 of each route, in its failure shape. */
const internalBodies: Record<RouteName, unknown> = {
  "product.info": {
    event: "product.info",
    status: "failure",
    error: { code: 500, message: "internal error" },
  },
  "order.shipping": {
    event: "order.shipping",
    status: "failure",
    error: { code: 500, data: [{ reason: "internal error" }] },
  },
  "cart.update": {
    event: "cart.update",
    status: "failure",
    errors: [{ code: 500, data: [{ reason: "internal error" }] }],
  },
  "account.login": {
    status: "failure",
    errors: [{ code: 500, data: [{ reason: "internal error" }] }],
  },
  webhook: { error: { code: 500, message: "internal error" } },
};

/** Codes the router's own refusals carry, by HTTP status. */
const codes: Record<number, number> = {
  400: 400,
  404: 404,
  405: 405,
  408: 408,
  413: 413,
  422: 27,
  501: 501,
};

/** The routers by scheme, and a node:http server for each. */
const routers = {} as Record<Scheme, CallbackRouter>;
const servers = {} as Record<Scheme, Running>;

/** What a key service outage throws; its message names a secret, which must not get out. */
class KeyOutage extends Error {}

/**
 * The `custom` scheme: the default digest, on Web Crypto (asynchronous), unless the request
 * asks for an outage: then it throws, or rejects.
 */
function customCompute(key: string, content: SignedContent): Promise<ArrayBuffer> {
  const outage = content.headers.get(outageHeader);
  const error = new KeyOutage(`key service down while fetching ${key}`);
  if (outage === "throws") throw error;
  if (outage === "rejects") return Promise.reject(error);
  const subtle = globalThis.crypto.subtle;
  return subtle
    .importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ])
    .then((k) => subtle.sign("HMAC", k, content.body));
}

/** Object.prototype's own properties as they were before the run. */
const prototypeBefore = new Map(
  Reflect.ownKeys(Object.prototype).map((k) => [
    k,
    Object.getOwnPropertyDescriptor(Object.prototype, k),
  ]),
);

/** Object.prototype has exactly the properties it had, with the same values. */
function expectPrototypeIntact(): void {
  const keys = Reflect.ownKeys(Object.prototype);
  expect(keys.map(String).sort()).toEqual([...prototypeBefore.keys()].map(String).sort());
  for (const key of keys) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, key)!;
    const was = prototypeBefore.get(key)!;
    expect(now.value === was.value && now.get === was.get && now.set === was.set, String(key)).toBe(
      true,
    );
  }
  expect(Object.getPrototypeOf(Object.prototype)).toBe(null);
}

/** Tallies over the run, so a run that never reaches a handler (or never refuses) fails. */
const tally = {
  cases: 0,
  fetchSkipped: 0,
  handled: 0,
  threw: 0,
  outages: 0,
  statuses: new Map<string, number>(),
};
function count(transport: string, status: number | undefined): void {
  const key = `${transport} ${status ?? "none"}`;
  tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1);
}

/** What one transport got back. */
interface Answer {
  transport: "fetch" | "node";
  /** Status of the answer; `undefined`: none came (node only: the server closed without one). */
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Everything to search for leaks: status line, headers and body as sent. */
  all: string;
  /** The router wrote it (node also answers some malformed requests itself, with 4xx). */
  fromRouter: boolean;
  /** An answer to HEAD, which has no body. */
  head: boolean;
}

/** Texts no answer may contain for a case whose body is `bytes`. */
function needles(bytes: readonly Uint8Array[]): string[] {
  const forms = bytes.flatMap((b) =>
    [secret, previousSecret].flatMap((k) => digestForms(hmac(k, b))),
  );
  return [secret, previousSecret, repoRoot, "node_modules", "node:internal", "file://", ...forms];
}

/** The checks every exchange must pass, whichever transport carried it. */
function check(
  c: RouterCase,
  answer: Answer,
  sent: Uint8Array,
  golden: boolean,
  stalled: boolean,
): void {
  const where = `${answer.transport} ${c.method} ${c.target} -> ${answer.status}: ${answer.body.slice(0, 300)}`;
  const { calls, errors, rejects } = observed;
  // a handler only behind a matching signature over the exact bytes it got, which were sent
  expect(calls.length, where).toBeLessThanOrEqual(1);
  for (const call of calls) {
    expect(call.signedRight, `handler called without a matching signature: ${where}`).toBe(true);
    const expected = c.framing.kind === "short" ? call.rawBody.byteLength : sent.byteLength;
    expect(Buffer.from(call.rawBody).equals(Buffer.from(sent.subarray(0, expected))), where).toBe(
      true,
    );
  }
  // nothing secret, no digest, no path, no stack
  const leaks = needles([sent, ...calls.map((call) => call.rawBody)]);
  const told = JSON.stringify(rejects);
  for (const needle of leaks) {
    expect(answer.all.includes(needle), `"${needle}" in the answer: ${where}`).toBe(false);
    expect(told.includes(needle), `"${needle}" told to onReject: ${where}`).toBe(false);
  }
  expect(answer.all, where).not.toMatch(/\n\s+at .*:\d+:\d+|\bError:/);
  // however many problems a body has, what the router says about it stays small
  expect(answer.body.length, where).toBeLessThan(8 * 1024);
  expect(told.length, `onReject told too much: ${where}`).toBeLessThan(8 * 1024);
  // no 5xx unless a handler threw (or the key service failed); then the generic 500, and
  // onError saw that error
  const thrown = calls.filter((call) => call.thrown !== undefined);
  const outages = errors.filter(({ error }) => error instanceof KeyOutage);
  if (c.outage !== "none") expect(calls, `handler called in an outage: ${where}`).toEqual([]);
  else expect(outages, where).toEqual([]);
  if (answer.status !== undefined && answer.status >= 500) {
    expect(answer.status, where).toBe(500);
    expect(
      thrown.length + outages.length,
      `5xx without a handler throwing or an outage: ${where}`,
    ).toBe(1);
    if (!answer.head) expect(JSON.parse(answer.body), where).toEqual(internalBodies[c.route]);
  }
  for (const { error } of errors) {
    const fromHandler = thrown.some((call) => call.thrown === error);
    const clientLeft =
      c.framing.kind === "long" && c.framing.fin && /aborted|closed/.test(String(error));
    const outage = error instanceof KeyOutage;
    expect(fromHandler || clientLeft || outage, `onError got ${String(error)}: ${where}`).toBe(
      true,
    );
  }
  if (thrown.length > 0)
    expect(
      errors.map((e) => e.error),
      where,
    ).toContain(thrown[0]!.thrown);
  // the router's own refusals are JSON in a failure shape with their code
  if (
    answer.fromRouter &&
    !answer.head &&
    answer.status !== undefined &&
    answer.status >= 400 &&
    answer.status < 500
  ) {
    expect(JSON.stringify(JSON.parse(answer.body)), where).toContain(
      `"code":${codes[answer.status]}`,
    );
  }
  // targets that begin with // (or /\) are no route
  if (c.form === "evil" || c.form === "backslash") {
    expect(calls, where).toEqual([]);
    if (answer.fromRouter) expect(answer.status, where).toBe(404);
  }
  if (stalled) {
    // 408 in time, or 413 first when what was announced or sent before the stall is too much
    const extra = c.framing.kind === "long" ? c.framing.extra : 0;
    const allowed = c.body.byteLength + extra > bodyLimit ? [408, 413] : [408];
    expect(allowed, `a stalled body: ${where}`).toContain(answer.status);
    expect(answer.headers.connection?.toLowerCase(), where).toBe("close");
  }
  // right in every way: the handler runs and its answer goes out
  if (golden) {
    expect(calls, `a right request did not reach its handler: ${where}`).toHaveLength(1);
    expect(answer.status, where).toBe(throwingModes.has(c.mode) ? 500 : 200);
  }
  if (calls.length > 0) tally.handled++;
  if (thrown.length > 0) tally.threw++;
  if (outages.length > 0) tally.outages++;
  count(answer.transport, answer.status);
}

/** Sends the case to `router.fetch` and checks the exchange. */
async function viaFetch(c: RouterCase): Promise<void> {
  const built = asRequest(c);
  if (built === undefined) {
    tally.fetchSkipped++;
    return;
  }
  observed = { calls: [], errors: [], rejects: [] };
  mode = c.mode;
  const started = performance.now();
  const res = await routers[c.scheme].fetch(built.request);
  const body = await res.text();
  expect(performance.now() - started, "router.fetch took too long").toBeLessThan(
    bodyTimeoutMs + 5000,
  );
  const headers = Object.fromEntries(res.headers);
  const all = `${res.status} ${JSON.stringify(headers)} ${body}`;
  const golden =
    goldenTargets.has(c.form) &&
    c.rightMethod &&
    c.outage === "none" &&
    validKinds.has(c.signature) &&
    honest(c.framing) &&
    c.body.byteLength <= bodyLimit &&
    (c.bodyForm !== "hostile" || c.route === "account.login") &&
    (built.sent.byteLength > 0 || routes[c.route].body === "");
  check(
    c,
    { transport: "fetch", status: res.status, headers, body, all, fromRouter: true, head: false },
    built.sent,
    golden,
    built.stalled,
  );
}

/** Sends the case as raw bytes to `router.node` and checks the exchange. */
async function viaNode(c: RouterCase): Promise<void> {
  const wire = asWire(c);
  observed = { calls: [], errors: [], rejects: [] };
  mode = c.mode;
  const stalled = stalls(c.framing) && c.route !== "account.login";
  const res = await rawExchange(servers[c.scheme].port, wire.steps, {
    endAfter: wire.endAfter,
    head: c.method === "HEAD",
    waitMs: bodyTimeoutMs + 5000,
    // a stalled body must end with the connection closed; else the first answer is enough
    until: stalled ? "close" : "answer",
  });
  const where = `node ${c.method} ${c.target}: ${JSON.stringify(res.raw.toString("latin1").slice(0, 300))}`;
  expect(res.closed || res.first?.complete, `no answer and no close: ${where}`).toBe(true);
  if (stalled) expect(res.closed, `a stalled request kept open: ${where}`).toBe(true);
  const first = res.first;
  // A client still sending when the server closes may see the connection reset instead of
  // the answer (its unread data makes the server's TCP stack reset): after the router's 413
  // (see docs/security.md), or node's own 400 for a request it cannot parse, which the router
  // never sees. Nothing else may go unanswered.
  if (first === undefined) {
    const extra = c.framing.kind === "long" ? c.framing.extra : 0;
    const routerSaw = observed.rejects.length + observed.calls.length + observed.errors.length > 0;
    expect(!routerSaw || c.body.byteLength + extra > bodyLimit, `no answer: ${where}`).toBe(true);
  }
  const body = first?.body.toString("utf8") ?? "";
  // every response, not only the first, must stay out of 5xx but for a thrown handler
  for (const status of res.statuses.slice(1)) expect(status, where).toBeLessThan(500);
  if (stalled) expect(res.elapsedMs, where).toBeLessThan(bodyTimeoutMs + 3000);
  const golden =
    goldenTargets.has(c.form) &&
    c.rightMethod &&
    c.outage === "none" &&
    validKinds.has(c.signature) &&
    honest(c.framing) &&
    c.body.byteLength <= bodyLimit &&
    (c.bodyForm !== "hostile" || c.route === "account.login") &&
    c.method !== "HEAD";
  const fromRouter = first?.headers["cache-control"] === "no-store";
  check(
    c,
    {
      transport: "node",
      status: first?.status,
      headers: first?.headers ?? {},
      body,
      all: `${res.raw.toString("latin1")}\n${res.raw.toString("utf8")}`,
      fromRouter,
      head: c.method === "HEAD",
    },
    wire.sent,
    golden,
    // a header node refuses (a 20 kB signature) is answered before the router sees the request
    stalled && fromRouter,
  );
}

beforeAll(async () => {
  for (const scheme of ["native", "custom"] as const) {
    routers[scheme] = createCallbackRouter({
      signingSecrets: [secret, previousSecret],
      basePath,
      bodyTimeoutMs,
      bodyLimit,
      handlers,
      onError: (error, info) => observed.errors.push({ error, info }),
      onReject: (info) => observed.rejects.push(info),
      webhook: {
        path: routes.webhook.path,
        handler: handler("webhook", undefined) as (payload: unknown) => void,
      },
      ...(scheme === "custom" ? { signature: { compute: customCompute } } : {}),
    });
    servers[scheme] = await listen(routers[scheme].node);
  }
});

afterAll(async () => {
  await servers.native.close();
  await servers.custom.close();
});

describe("the callback router under hostile requests", () => {
  it(
    "handlers only behind a matching signature; no 5xx but a thrown handler; nothing leaked or polluted; the server stays up",
    async () => {
      const heapBefore = process.memoryUsage().heapUsed;
      await fc.assert(
        fc.asyncProperty(routerCase, async (c) => {
          tally.cases++;
          await viaFetch(c);
          await viaNode(c);
          expectPrototypeIntact();
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(process.memoryUsage().heapUsed, "heap").toBeLessThan(heapBefore + 512 * 1024 ** 2);
        }),
        fuzzParameters(150, 10_000),
      );
      if (longRun) console.log("router fuzz", tally);
      // the run must reach handlers, make some throw, and see refusals of both transports
      expect(tally.handled).toBeGreaterThan(tally.cases / 10);
      expect(tally.threw).toBeGreaterThan(0);
      expect(tally.outages).toBeGreaterThan(0);
      for (const key of ["fetch 404", "node 404", "fetch 422", "node 422", "fetch 400", "node 400"])
        expect(tally.statuses.get(key) ?? 0, key).toBeGreaterThan(0);
      // the server still answers a valid request
      observed = { calls: [], errors: [], rejects: [] };
      mode = "sync";
      for (const scheme of ["native", "custom"] as const) {
        const res = await send(servers[scheme], `${basePath}/cart_update`, {
          body: bodies.cartUpdate,
        });
        expect(res.status, scheme).toBe(200);
      }
      expect(observed.calls).toHaveLength(2);
    },
    fuzzTimeout(60_000),
  );
});

/** The router module of the replay fixture's package, loosely typed. */
interface ReplayModule {
  createCallbackRouter(options: Record<string, unknown>): CallbackRouter;
  createMemorySeenIds(options: { now(): number }): MemorySeenIds;
}

/** A seen-id store that answers a microtask later, as a shared one would, with the same rules. */
function asyncStore(now: () => number): SeenIdStore {
  const held = new Map<string, number>();
  return {
    claim: async (id, expiresAt) => {
      await Promise.resolve();
      const until = held.get(id);
      if (until !== undefined && until > now()) return false;
      held.set(id, expiresAt);
      return true;
    },
    release: async (id) => {
      await Promise.resolve();
      held.delete(id);
    },
  };
}

/**
 * The scheme of the replay router: the callbacks' default (base64 HMAC of the body), and for
 * webhooks `t=<t>,v1=<hex HMAC of "<t>.<body>">`, the digest covering the first t= item.
 */
const replaySignature = {
  decode: (header: string) => {
    if (!header.includes("v1=")) return decodeBase64(header);
    const hex = /(?:^|,)v1=([0-9a-f]{64})$/.exec(header)?.[1];
    return hex === undefined ? undefined : new Uint8Array(Buffer.from(hex, "hex"));
  },
  compute: (key: string, content: SignedContent) => {
    const hook = content.headers.get("Hook-Signature");
    const hmac = createHmac("sha256", key);
    if (hook === null) return hmac.update(content.body).digest();
    const t = /(?:^|,)t=([^,]*)/.exec(hook)?.[1] ?? "";
    return hmac.update(`${t}.`).update(content.body).digest();
  },
};

describe("replays and signing times (test/fixtures/callbacks-replay)", () => {
  const outDir = tempDir("apigen-replay-fuzz-");
  let replayModule: ReplayModule;
  let current: CallbackRouter;
  let server: Running;

  beforeAll(async () => {
    await writeGenerated("test/fixtures/callbacks-replay", outDir);
    replayModule = (await import(
      pathToFileURL(join(outDir, "src/callbacks.ts")).href
    )) as ReplayModule;
    server = await listen((req, res) => current.node(req, res));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  /** Sends one delivery over the case's transport; its status and body. */
  async function deliver(d: Delivery, clock: number): Promise<{ status: number; body: string }> {
    const { path, headers, body } = replayRequest(d, clock);
    if (d.transport === "node") {
      const sent = await send(server, path, { body, headers, signWith: false });
      return { status: sent.status, body: sent.text };
    }
    const res = await current.fetch(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      }),
    );
    return { status: res.status, body: await res.text() };
  }

  it(
    "a handler runs at most once per delivery id while the id is remembered; every answer is the one the rules give",
    async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(replayCase, async (c) => {
          let clock = clockStart;
          const now = () => clock;
          const model: StoreModel = new Map();
          const store =
            c.store === "memory"
              ? replayModule.createMemorySeenIds({ now })
              : c.store === "async"
                ? asyncStore(now)
                : undefined;
          const runs: string[] = [];
          const errors: unknown[] = [];
          const failure = new Error("handler failed");
          let fails = false;
          const run =
            (label: string, answer?: unknown) =>
            (_input: unknown): unknown => {
              runs.push(label);
              if (fails) throw failure;
              return answer;
            };
          current = replayModule.createCallbackRouter({
            signingSecrets: [replaySecret],
            signature: replaySignature,
            handlers: {
              "order.paid": run("order.paid", { ok: true }),
              "order.viewed": run("order.viewed"),
            },
            webhook: {
              path: "/hooks",
              handlers: { shipped: run("shipped") },
              onUnknownEvent: run("unknown"),
            },
            replay: {
              ...(store ? { seenIds: store } : {}),
              toleranceSeconds: c.toleranceSeconds,
              rememberSeconds: c.rememberSeconds,
              now,
            },
            onError: (error: unknown) => errors.push(error),
          });
          for (const [i, d] of c.deliveries.entries()) {
            clock += d.advance * 1000;
            fails = d.fails;
            const before = runs.length;
            const expected = expectedOutcome(c, d, clock, model);
            const answer = await deliver(d, clock);
            const where = `delivery ${i} ${JSON.stringify(d)} at ${clock} -> ${answer.status} ${answer.body.slice(0, 300)}`;
            expect(answer.status, where).toBe(expected.status);
            expect(runs.length - before, where).toBe(expected.runs ? 1 : 0);
            if (answer.status === 409)
              expect(JSON.parse(answer.body), where).toEqual({
                error: {
                  code: 409,
                  message: expect.stringMatching(/^this delivery was already received/),
                },
              });
            if (store && "size" in store) expect(store.size, where).toBe(model.size);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }
          // onError hears of the handlers that failed, and of nothing else
          for (const error of errors) expect(error).toBe(failure);
        }),
        fuzzParameters(40, 10_000),
      );
      if (longRun) console.log("replay fuzz statuses", statuses);
      for (const status of [200, 204, 400, 409, 422, 500])
        expect(statuses.get(status) ?? 0, String(status)).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
