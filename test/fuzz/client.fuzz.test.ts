/**
 * The generated client against a hostile stand-in server on 127.0.0.1 (fast-check). Every
 * case scripts what the server does with each request (test/fuzz/client-scripts.ts: wrong
 * content types, invalid, truncated, deep and 10 MB bodies, gzip bombs, credentials echoed in
 * every spelling, redirects within the origin, to another origin (a second server on another
 * port) or scheme, Retry-After huge, negative, a date or garbage, 429/5xx storms, resets,
 * silence, bodies that stop, raw bytes), and the client's options; and checks:
 *
 * - the outcome is the one the documented rules predict, and every failure a `ClientError`
 *   subclass naming the endpoint, with a message that explains it;
 * - the server sees exactly the predicted requests (within `maxRetries` and `maxRedirects`),
 *   the other origin none, and each wait between attempts is within the documented bounds;
 * - no piece of a credential shows in an error's message, `toString()`, stack,
 *   `JSON.stringify()` or `util.inspect(…, { depth: Infinity })`, nor in a log line;
 * - (second property) an abort ends the call at once, whatever the server is doing;
 * - (third property, test/fuzz/client-requests.ts) hostile path parameters, query values,
 *   header values and names and credentials: a call the documented rules refuse is a
 *   RequestValidationError naming one of the values at fault, with nothing sent (fetch never
 *   called) and no credential shown; every other call arrives with the template's segments,
 *   each value decoding to what was given, and every header as fetch sends it.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientError, MerchantClient, UserAbortError } from "../../generated/src/index.ts";
import { tempDir, writeGenerated } from "../helpers.ts";
import { TestServer, type RecordedRequest } from "../support/test-server.ts";
import {
  asSent,
  expectedProblems,
  expectedSegments,
  requestCase,
  secretMarkers,
  type RequestCase,
} from "./client-requests.ts";
import {
  bodyBytes,
  hostileCase,
  predict,
  retryAfterValue,
  revealedPiece,
  spell,
  waitBounds,
  type Act,
  type Case,
  type Prediction,
} from "./client-scripts.ts";
import { HostileServer, type Handler, type Seen } from "./hostile-server.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";

/** Scheduling slack on a loaded machine, added to every upper bound of a wait. */
const slackMs = 250;
/** How soon after `abort()` the call must have rejected. */
const abortLatencyMs = 50;
/** No call may take longer than this, whatever the script (at most 4 attempts of 200 ms, redirects, waits). */
const callCapMs = 30_000;

/**
 * The API's stand-in: a fresh one per case, on a fresh port, so that no connection fetch
 * keeps from a case (raw bytes may read as a keep-alive answer) can reach the next one.
 */
let hostile: HostileServer;
/** Another origin: the same host, another port. No request may ever reach it. */
let other: HostileServer;
beforeAll(async () => {
  other = await HostileServer.start();
});
afterAll(async () => {
  await other.stop();
});

/** Where a redirect points. */
function location(a: Extract<Act, { kind: "redirect" }>, seen: Seen): string | undefined {
  const key = String(seen.headers["x-api-key"] ?? "");
  const query = a.echo ? `?key=${encodeURIComponent(key)}` : "";
  switch (a.to) {
    case "same":
      return a.echo ? `${hostile.url}/v1/next${query}` : `/v1/next/${hostile.seen.length}`;
    case "other":
      return `${other.url}/collect${query}`;
    case "otherScheme":
      return `https://127.0.0.1:${hostile.port}/v1/next`;
    case "userinfo":
      return `http://user:${encodeURIComponent(key)}@127.0.0.1:${hostile.port}/v1/next`;
    case "invalid":
      return "http://[::1";
    case "none":
      return undefined;
  }
}

/** The server's side of a case: request n gets act n of the script (the last one after that). */
function scriptHandler(c: Case): Handler {
  return (seen, res, socket, finished) => {
    const index = hostile.seen.indexOf(seen);
    const a = c.script[Math.min(index, c.script.length - 1)]!;
    switch (a.kind) {
      case "answer": {
        const { bytes, encoding } = bodyBytes(a.body, seen.headers);
        const headers: Record<string, string> = {};
        if (a.contentType) headers["content-type"] = a.contentType;
        if (encoding) headers["content-encoding"] = encoding;
        const retryAfter = retryAfterValue(a.retryAfter);
        if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
        if (a.echoHeader)
          headers["x-echo"] = spell(String(seen.headers["x-api-key"] ?? ""), a.echoHeader);
        res.writeHead(a.status, headers);
        res.end(a.status === 204 || a.status === 304 ? undefined : bytes);
        return;
      }
      case "reset":
        if (a.rst) socket.resetAndDestroy();
        else socket.destroy();
        finished();
        return;
      case "hang":
        return;
      case "partial":
        res.writeHead(a.status, { "content-type": "application/json" });
        res.write("x".repeat(a.bytes));
        if (a.then === "close") {
          socket.destroy();
          finished();
        }
        return;
      case "redirect": {
        const to = location(a, seen);
        res.writeHead(a.status, to === undefined ? {} : { location: to });
        res.end();
        return;
      }
      case "raw":
        socket.end(a.text, "latin1");
        finished();
        return;
    }
  };
}

interface Observed {
  /** The call's value, or what it threw. */
  result: { value: unknown } | { error: unknown };
  /** performance.now() when the call settled. */
  settledAt: number;
  seen: Seen[];
  otherSeen: number;
  logs: string[];
  /** Every credential value of the call, the tokens a credential function made included. */
  secrets: string[];
}

/** Runs one case against the hostile server; `abortAfterMs` aborts the call that long after it starts. */
async function run(
  c: Case,
  abortAfterMs?: number,
): Promise<Observed & { abortedAt: number | undefined }> {
  hostile = await HostileServer.start();
  hostile.handle(scriptHandler(c));
  other.handle((_seen, res) => res.writeHead(200).end('{"stolen":true}'));
  const tokens: string[] = [];
  const logs: string[] = [];
  const client = new MerchantClient({
    baseUrl: c.prefix ? `${hostile.url}/api/` : hostile.url,
    apiKey: c.apiKey,
    publishableKey: c.publishableKey,
    accessToken: c.tokenFunction
      ? async () => {
          const token = `${c.accessToken}${tokens.length}`;
          tokens.push(token);
          return token;
        }
      : c.accessToken,
    maxRetries: c.maxRetries,
    maxRedirects: c.maxRedirects,
    timeoutMs: c.timeoutMs,
    retryBackoffMs: c.retryBackoffMs,
    maxRetryBackoffMs: c.maxRetryBackoffMs,
    maxRetryAfterMs: c.maxRetryAfterMs,
    maxResponseBytes: c.maxResponseBytes,
    maxErrorBodyBytes: c.maxErrorBodyBytes,
    logger: { debug: (line) => logs.push(line) },
  });
  const controller = abortAfterMs === undefined ? undefined : new AbortController();
  const options = {
    ...(c.idempotent ? { idempotencyKey: "idem-1" } : {}),
    ...(controller ? { signal: controller.signal } : {}),
  };
  const calls = {
    list: () => client.transactions.list(options),
    get: () => client.transactions.get("ABCD-EFGH-IJKL", options),
    delete: () => client.webhooks.delete("wh_1", options),
    create: () => client.orders.create({ cart: { total_amount: 5 } }, options),
    authorize: () => client.transactions.authorize({ division_id: "d1" }, options),
    cancel: () => client.subscriptions.cancel("sub_1", options),
    phone: () => client.testing.getRandomPhone(options),
  };
  let abortedAt: number | undefined;
  const abortTimer =
    controller &&
    setTimeout(() => {
      abortedAt = performance.now();
      controller.abort();
    }, abortAfterMs);
  let cap: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    calls[c.endpoint]().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<{ error: unknown }>((resolve) => {
      cap = setTimeout(() => resolve({ error: "the call never settled" }), callCapMs);
    }),
  ]);
  const settledAt = performance.now();
  clearTimeout(cap);
  clearTimeout(abortTimer);
  await hostile.stop();
  return {
    result,
    settledAt,
    abortedAt,
    seen: [...hostile.seen],
    otherSeen: other.seen.length,
    logs,
    secrets: [c.apiKey, c.publishableKey, ...(c.tokenFunction ? tokens : [c.accessToken])],
  };
}

/** Everything a person or a log could be shown of an error. Throws when showing it throws. */
function shown(error: Error): string {
  return [
    String(error),
    error.message,
    error.stack ?? "",
    JSON.stringify(error),
    inspect(error, { depth: Infinity }),
  ].join("\n");
}

/** A failure is a ClientError naming the endpoint, explained, and shows no credential. */
function checkError(error: unknown, o: Observed, id: string): void {
  expect(error, `not a ClientError: ${String(error)}`).toBeInstanceOf(ClientError);
  const e = error as ClientError;
  expect(e.endpointId).toBe(id);
  const explained = e.message.startsWith(id) && e.message.length > id.length + 8;
  expect(explained, e.message.slice(0, 2000)).toBe(true);
  const text = shown(e);
  expect(revealedPiece(text, o.secrets), text.slice(0, 2000)).toBeUndefined();
}

/**
 * What every run must show, however loaded the machine: the other origin saw nothing, the
 * server no more requests than `maxRetries` and `maxRedirects` allow, a failure is a typed
 * error, and no credential shows in it or in a log line.
 */
function checkStrict(c: Case, o: Observed): void {
  expect(o.otherSeen, "a request reached the other origin").toBe(0);
  expect(o.seen.length).toBeLessThanOrEqual((c.maxRetries + 1) * (c.maxRedirects + 1));
  if ("error" in o.result) checkError(o.result.error, o, endpointId(c));
  const logs = o.logs.join("\n");
  expect(revealedPiece(logs, o.secrets), logs.slice(0, 2000)).toBeUndefined();
}

function endpointId(c: Case): string {
  return {
    list: "transactions.list",
    get: "transactions.get",
    delete: "webhooks.delete",
    create: "orders.create",
    authorize: "transactions.authorize",
    cancel: "subscriptions.cancel",
    phone: "testing.getRandomPhone",
  }[c.endpoint];
}

/**
 * Whether two JSON values are equal, walked without recursion: a body may nest thousands
 * deep, past what a recursive comparison (or JSON.stringify) can take.
 */
function sameJson(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length) {
    const [x, y] = pending.pop()!;
    if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) {
      if (!Object.is(x, y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

/** The outcome is the predicted one. */
function checkOutcome(o: Observed, p: Prediction): void {
  const expected = p.expected;
  if (expected.kind === "any") return;
  if (expected.kind === "value") {
    expect("value" in o.result ? "value" : String((o.result as { error: unknown }).error)).toBe(
      "value",
    );
    expect(sameJson((o.result as { value: unknown }).value, expected.value)).toBe(true);
    return;
  }
  const error = (o.result as { error?: unknown }).error;
  expect(error, "the call resolved").toBeDefined();
  expect((error as Error).name, String(error)).toBe(expected.name);
  if (expected.status !== undefined && expected.name !== "ResponseTooLargeError")
    expect((error as { status?: number }).status).toBe(expected.status);
}

/**
 * Exactly the predicted requests (at most them, after raw bytes), and each wait between
 * attempts within its bounds.
 */
function checkAttempts(c: Case, o: Observed, p: Prediction): void {
  if (p.bounded) return void expect(o.seen.length).toBeLessThanOrEqual(p.requests.length);
  expect(o.seen.length, "requests the server saw").toBe(p.requests.length);
  for (let i = 1; i < o.seen.length; i++) {
    const planned = p.requests[i]!;
    if (planned.attempt === undefined) continue;
    const before = o.seen[i - 1]!;
    const { min, max } = waitBounds(c, p.requests[i - 1]!.act, planned.attempt - 1);
    const end = before.done ?? before.arrived + c.timeoutMs * 1.01;
    const since = o.seen[i]!.arrived;
    expect(since - before.arrived, `wait before attempt ${i + 1}`).toBeGreaterThanOrEqual(min - 2);
    expect(since - end, `wait before attempt ${i + 1}`).toBeLessThanOrEqual(max + slackMs);
  }
}

/**
 * Runs a case, applies the strict checks to every run (a failure there fails the case at
 * once), and the exact ones, which timing can upset on a loaded machine (a run stalled for
 * half a second times out, or waits too long), to up to three runs: they must hold in one.
 * A defect of the client fails them every time.
 */
async function holdsInOneOfThree(
  c: Case,
  abortAfterMs: number | undefined,
  exact: (o: Observed & { abortedAt: number | undefined }, p: Prediction) => void,
): Promise<void> {
  let failure: unknown;
  for (let tries = 0; tries < 3; tries++) {
    const o = await run(c, abortAfterMs);
    const p = predict(c, o.seen[0]?.headers ?? {});
    checkStrict(c, o);
    try {
      exact(o, p);
      return;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

describe("the fuzz's own model of the client", () => {
  it("expects anything after raw bytes, also when redirects end the script (seed 379009540)", () => {
    const found: Case = {
      endpoint: "list",
      idempotent: true,
      prefix: false,
      apiKey: "sk_live/eJMKY-9NjchtymP7",
      publishableKey: "pk_live_=Yq_CdKqEDa.vN3yQFSm+",
      tokenFunction: true,
      accessToken: "at_live_u9w1g-atYj.ano+Qr",
      maxRetries: 3,
      maxRedirects: 3,
      retryBackoffMs: 3,
      maxRetryBackoffMs: 12,
      maxRetryAfterMs: 14,
      maxResponseBytes: 64,
      maxErrorBodyBytes: 65536,
      timeoutMs: 20000,
      script: [
        {
          kind: "answer",
          status: 599,
          body: { kind: "spaces", bytes: 70000, gzip: true },
          contentType: "text/html",
          retryAfter: { kind: "date", offsetMs: -9701617739 },
          echoHeader: undefined,
        },
        // A truncated JSON body over HTTP/1.0 reads as a ResponseParseError, not a retry.
        { kind: "raw", text: "HTTP/1.0 200 OK\r\n\r\n[1,2" },
        { kind: "redirect", status: 308, to: "same", echo: false },
      ],
    } as Case;
    const prediction = predict(found, {});
    expect(prediction.bounded).toBe(true);
    expect(prediction.expected).toEqual({ kind: "any" });
  });
});

describe("the client against a hostile server", () => {
  it(
    "fails only with typed errors, within its retries, waits and limits, and shows no credential",
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileCase, (c) =>
          holdsInOneOfThree(c, undefined, (o, p) => {
            checkOutcome(o, p);
            checkAttempts(c, o, p);
          }),
        ),
        fuzzParameters(150),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "ends a call at once when it is aborted, whatever the server is doing",
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileCase, fc.integer({ min: 0, max: 120 }), (c, after) =>
          holdsInOneOfThree(c, after, (o, p) => {
            expect(o.seen.length).toBeLessThanOrEqual(p.requests.length);
            if (o.abortedAt === undefined || o.settledAt < o.abortedAt) return checkOutcome(o, p);
            const latency = o.settledAt - o.abortedAt;
            expect(latency, "time from abort() to the call's end").toBeLessThan(abortLatencyMs);
            // A call whose answer was in before the abort took effect keeps it.
            if (!("error" in o.result && o.result.error instanceof UserAbortError))
              checkOutcome(o, p);
          }),
        ),
        fuzzParameters(60, 2_000),
      );
    },
    fuzzTimeout(60_000),
  );
});

describe("the client's requests: hostile path parameters, header values and credentials", () => {
  let out: string;
  let server: TestServer;
  // The generated module of test/fixtures/features/params-and-credentials.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let mod: any;
  beforeAll(async () => {
    out = tempDir("apigen-fuzz-requests-");
    await writeGenerated("test/fixtures/features/params-and-credentials", out);
    mod = await import(pathToFileURL(join(out, "src/index.ts")).href);
    server = await TestServer.start();
  });
  afterAll(async () => {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  });

  /** Calls the case's endpoint; the call's outcome, fetch's calls and the client's log lines. */
  async function call(c: RequestCase) {
    let fetches = 0;
    const logs: string[] = [];
    const client = new mod.ParamsClient({
      baseUrl: server.url + c.prefix,
      token: c.tokenFunction ? async () => c.token : c.token,
      apiKey: c.apiKey,
      basic: { username: c.username, password: c.password },
      ...(c.clientHeader ? { headers: { [c.clientHeader[0]]: c.clientHeader[1] } } : {}),
      maxRetries: 2,
      retryBackoffMs: 1,
      timeoutMs: 5000,
      logger: { debug: (line: string) => logs.push(line) },
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        fetches++;
        return fetch(input, init);
      },
    });
    const options = {
      ...(c.callHeader ? { headers: { [c.callHeader[0]]: c.callHeader[1] } } : {}),
      ...(c.idempotencyKey !== undefined ? { idempotencyKey: c.idempotencyKey } : {}),
    };
    const query = {
      ...(c.state ? { state: c.state } : {}),
      ...(c.ifNoneMatch !== undefined ? { "If-None-Match": c.ifNoneMatch } : {}),
    };
    const calls = {
      list: () => client.issues.list(c.owner, c.repo, query, options),
      create: () => client.issues.create(c.owner, c.repo, { title: "t" }, options),
      charge: () =>
        client.charges.create({ amount: 5 }, { "Stripe-Account": c.stripeAccount }, options),
      account: () => client.account.get(options),
    };
    const result = await calls[c.endpoint]().then(
      (value: unknown) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { result, fetches, logs };
  }

  /** The request arrived with the template's segments, each value as given, every header as sent. */
  function checkArrived(c: RequestCase, request: RecordedRequest): void {
    const [path, search = ""] = request.url.split("?") as [string, string?];
    const segments = path.split("/").slice(1);
    const prefix = c.prefix.split("/").slice(1);
    expect(segments.slice(0, prefix.length), request.url).toEqual(prefix);
    expect(segments.slice(prefix.length).map(decodeURIComponent), request.url).toEqual(
      expectedSegments(c),
    );
    const query = new URLSearchParams(search);
    const header = (name: string) => request.headers[name];
    if (c.endpoint === "list") {
      expect(query.getAll("state")).toEqual(c.state ?? []);
      expect(header("if-none-match")).toBe(
        c.ifNoneMatch === undefined ? undefined : asSent(c.ifNoneMatch),
      );
    }
    if (c.endpoint === "charge") {
      expect(query.get("api_key")).toBe(c.apiKey);
      expect(header("stripe-account")).toBe(asSent(c.stripeAccount));
    }
    if (c.endpoint === "list" || c.endpoint === "create")
      expect(header("authorization")).toBe(asSent(`Bearer ${c.token}`));
    if (c.callHeader) expect(header(c.callHeader[0].toLowerCase())).toBe(asSent(c.callHeader[1]));
    if (c.idempotencyKey !== undefined)
      expect(header("idempotency-key")).toBe(asSent(c.idempotencyKey));
  }

  it(
    "refuses before sending what would change the path or a header, and sends everything else as given",
    async () => {
      const tally = { sent: 0, refused: 0 };
      server.respond((request, res) => {
        res.writeHead(request.method === "POST" ? 201 : 200, {
          "content-type": "application/json",
        });
        res.end(request.url.includes("/issues") && request.method === "GET" ? "[]" : "{}");
      });
      await fc.assert(
        fc.asyncProperty(requestCase, async (c) => {
          server.requests.length = 0;
          const { result, fetches, logs } = await call(c);
          const problems = expectedProblems(c);
          const shownLogs = logs.join("\n");
          for (const marker of secretMarkers) expect(shownLogs).not.toContain(marker);
          if (problems.size) {
            tally.refused++;
            expect("error" in result, "the call was sent").toBe(true);
            const error = (result as { error: Error & { issues?: { path: string }[] } }).error;
            expect(error.name, String(error)).toBe("RequestValidationError");
            for (const issue of error.issues!)
              expect([...problems], error.message).toContain(issue.path);
            expect(fetches, "fetch was called").toBe(0);
            expect(server.requests).toHaveLength(0);
            const text = shown(error);
            for (const marker of secretMarkers) expect(text).not.toContain(marker);
            return;
          }
          tally.sent++;
          expect("value" in result, String((result as { error?: unknown }).error)).toBe(true);
          expect(fetches).toBe(1);
          expect(server.requests).toHaveLength(1);
          checkArrived(c, server.requests[0]!);
        }),
        fuzzParameters(150),
      );
      if (longRun) console.log(`client requests: ${tally.sent} sent, ${tally.refused} refused`);
      // Both outcomes occur, so neither half of the property holds vacuously.
      expect(tally.sent).toBeGreaterThan(0);
      expect(tally.refused).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
