/**
 * What the hostile server of test/fuzz/client.fuzz.test.ts does, as data (fast-check
 * arbitraries): per request one act (an answer with any status, body, content type and
 * Retry-After; a reset; silence; a body that stops; a redirect anywhere; raw bytes), the
 * client's options and credentials; and `predict`, what the client must do with a script
 * by its documented rules (docs/client.md: retries, back-off, redirects, limits).
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";

/** How the server spells a credential it echoes. */
export type Spelling =
  | "raw"
  | "slash"
  | "unicode"
  | "someUnicode"
  | "doubleUnicode"
  | "percent"
  | "entity";

export type Body =
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string }
  | { kind: "truncated"; value: unknown; keep: number }
  | { kind: "deep"; depth: number; object: boolean }
  | { kind: "echo"; header: EchoedHeader; spelling: Spelling; wrap: "v1" | "text" | "html" }
  | { kind: "big"; bytes: number }
  | { kind: "spaces"; bytes: number; gzip: boolean }
  | { kind: "bytes"; bytes: Uint8Array };

export type EchoedHeader = "x-api-key" | "authorization" | "x-publishable-key";

export type RetryAfter =
  | { kind: "none" }
  | { kind: "text"; text: string }
  | { kind: "date"; offsetMs: number };

export type Act =
  | {
      kind: "answer";
      status: number;
      body: Body;
      contentType: string | undefined;
      retryAfter: RetryAfter;
      /** Echo a credential in a response header too, in this spelling. */
      echoHeader: Spelling | undefined;
    }
  | { kind: "reset"; rst: boolean }
  | { kind: "hang" }
  | { kind: "partial"; status: number; bytes: number; then: "close" | "hang" }
  | {
      kind: "redirect";
      status: 301 | 302 | 303 | 307 | 308;
      to: "same" | "other" | "otherScheme" | "userinfo" | "invalid" | "none";
      /** Put a credential into the Location, percent-encoded. */
      echo: boolean;
    }
  | { kind: "raw"; text: string };

/** The endpoints a case calls: every method, documented and undocumented responses, every credential. */
export const endpoints = {
  list: { id: "transactions.list", unsafe: false, documented: true },
  get: { id: "transactions.get", unsafe: false, documented: true },
  delete: { id: "webhooks.delete", unsafe: false, documented: false },
  create: { id: "orders.create", unsafe: true, documented: false },
  authorize: { id: "transactions.authorize", unsafe: true, documented: false },
  cancel: { id: "subscriptions.cancel", unsafe: true, documented: true },
  phone: { id: "testing.getRandomPhone", unsafe: false, documented: true },
} as const;
export type EndpointName = keyof typeof endpoints;

export interface Case {
  endpoint: EndpointName;
  /** Send an idempotency key: a POST is then retried like a GET. */
  idempotent: boolean;
  /** baseUrl with a path prefix and a trailing slash. */
  prefix: boolean;
  apiKey: string;
  publishableKey: string;
  /** A fixed token, or one made afresh by an async function at every call. */
  tokenFunction: boolean;
  accessToken: string;
  maxRetries: number;
  maxRedirects: number;
  timeoutMs: number;
  retryBackoffMs: number;
  maxRetryBackoffMs: number;
  maxRetryAfterMs: number;
  maxResponseBytes: number;
  maxErrorBodyBytes: number;
  /** The act of request n; the last one answers every request after it. */
  script: Act[];
}

/** Characters of generated credentials: what API keys use, and `/`, which JSON may escape. */
const keyChar = fc.constantFrom(
  ..."ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789_-./+=~",
);
const keyTail = fc.string({ unit: keyChar, minLength: 8, maxLength: 24 });

/** Sizes of big bodies, up to 10 MB. */
const bigSizes = [1024, 65_536, 1_048_576, 10_000_000];

const body: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: "json" as const, value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 80 }))
      .map((text) => ({ kind: "text" as const, text })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({ value: fc.jsonValue({ maxDepth: 3 }), keep: fc.nat({ max: 60 }) })
      .map((r) => ({ kind: "truncated" as const, ...r })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        depth: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 6000 })),
        object: fc.boolean(),
      })
      .map((r) => ({ kind: "deep" as const, ...r })),
  },
  {
    weight: 5,
    arbitrary: fc
      .record({
        header: fc.constantFrom<EchoedHeader>("x-api-key", "authorization", "x-publishable-key"),
        spelling: spelling(),
        wrap: fc.constantFrom<"v1" | "text" | "html">("v1", "text", "html"),
      })
      .map((r) => ({ kind: "echo" as const, ...r })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...bigSizes).map((bytes) => ({ kind: "big" as const, bytes })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ bytes: fc.constantFrom(0, 100, 70_000, 10_000_000), gzip: fc.boolean() })
      .map((r) => ({ kind: "spaces" as const, ...r })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 120 })
      .map((bytes) => ({ kind: "bytes" as const, bytes })),
  },
);

function spelling(): fc.Arbitrary<Spelling> {
  return fc.constantFrom<Spelling>(
    "raw",
    "slash",
    "unicode",
    "someUnicode",
    "doubleUnicode",
    "percent",
    "entity",
  );
}

const retryAfter: fc.Arbitrary<RetryAfter> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "0",
        "0.001",
        "0.005",
        "0.01",
        "0.02",
        "0.03",
        "0.05",
        "1",
        "2",
        "61",
        "120",
        "99999999999",
        "-1",
        "-0.01",
        "1e3",
        "Infinity",
        "NaN",
        "0x10",
        " 0 ",
        "",
      )
      .map((text) => ({ kind: "text" as const, text })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.integer({ min: -2000, max: 2000 }), fc.integer({ min: -1e10, max: 1e10 }))
      .map((offsetMs) => ({ kind: "date" as const, offsetMs })),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.constantFrom(..." abcXYZ019:;,-+.GMT/"), maxLength: 30 })
      .map((text) => ({ kind: "text" as const, text })),
  },
);

const statuses = {
  success: [200, 201, 202, 204],
  other: [300, 304, 400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504, 599],
};

const rawResponses = [
  "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
  "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
  "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n",
  "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Encoding: gzip\r\n\r\n{}",
  "HTTP/1.1 200 OK\r\nX-Bad: a\u0000b\r\nContent-Length: 2\r\n\r\n{}",
  "HTTP/1.1 999 Nine\r\nContent-Length: 2\r\n\r\n{}",
  "HTTP/1.1 503\r\nRetry-After: 0\r\n\r\n",
  "garbage\r\n\r\n",
  "HTTP/1.0 200 OK\r\n\r\n[1,2",
  "",
];

const act: fc.Arbitrary<Act> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("answer" as const),
      status: fc.oneof(fc.constantFrom(...statuses.success), fc.constantFrom(...statuses.other)),
      body,
      contentType: fc.constantFrom(
        undefined,
        "application/json",
        "text/html",
        "text/plain; charset=utf-16",
        "application/octet-stream",
        "application/json; charset=latin1",
      ),
      retryAfter,
      echoHeader: fc.option(spelling(), { nil: undefined, freq: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reset" as const), rst: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "hang" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("partial" as const),
      status: fc.constantFrom(200, 400, 500, 503),
      // Fewer bytes than the smallest size limits, so that only the break can end the read.
      bytes: fc.integer({ min: 1, max: 15 }),
      then: fc.constantFrom<"close" | "hang">("close", "hang"),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("redirect" as const),
      status: fc.constantFrom<301 | 302 | 303 | 307 | 308>(301, 302, 303, 307, 308),
      to: fc.constantFrom<"same" | "other" | "otherScheme" | "userinfo" | "invalid" | "none">(
        "same",
        "same",
        "other",
        "other",
        "otherScheme",
        "userinfo",
        "invalid",
        "none",
      ),
      echo: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.constantFrom(...rawResponses), fc.string({ unit: "binary-ascii", maxLength: 60 }))
      .map((text) => ({ kind: "raw" as const, text })),
  },
);

/** A whole case: endpoint, credentials, options and the server's script. */
export const hostileCase: fc.Arbitrary<Case> = fc
  .record({
    endpoint: fc.constantFrom(...(Object.keys(endpoints) as EndpointName[])),
    idempotent: fc.boolean(),
    prefix: fc.boolean(),
    apiKey: keyTail.map((t) => `sk_live/${t}`),
    publishableKey: keyTail.map((t) => `pk_live_${t}`),
    tokenFunction: fc.boolean(),
    accessToken: keyTail.map((t) => `at_live_${t}`),
    maxRetries: fc.integer({ min: 0, max: 3 }),
    maxRedirects: fc.integer({ min: 0, max: 3 }),
    retryBackoffMs: fc.integer({ min: 0, max: 8 }),
    maxRetryBackoffMs: fc.integer({ min: 0, max: 20 }),
    maxRetryAfterMs: fc.integer({ min: 0, max: 40 }),
    maxResponseBytes: fc.constantFrom(64, 1024, 65_536, 16 * 2 ** 20),
    maxErrorBodyBytes: fc.constantFrom(16, 1024, 65_536),
    script: fc.array(act, { minLength: 1, maxLength: 5 }),
  })
  .map((c) => {
    // Silence needs a timeout to end it; anything else gets one long enough never to fire
    // on a loaded machine, so that what the oracle predicts is what happens. Beside a short
    // timeout, bodies stay small enough to arrive well within it.
    if (!c.script.some(stalls)) return { ...c, timeoutMs: 20_000 };
    const small = (a: Act): Act =>
      a.kind === "answer" && (a.body.kind === "big" || a.body.kind === "spaces")
        ? { ...a, body: { ...a.body, bytes: Math.min(a.body.bytes, 70_000) } }
        : a;
    return { ...c, timeoutMs: 200, script: c.script.map(small) };
  });

/** Whether an act leaves the client waiting for its timeout. */
export function stalls(a: Act): boolean {
  return a.kind === "hang" || (a.kind === "partial" && a.then === "hang");
}

// ---------------------------------------------------------------------------------------------
// Bodies as bytes

/** A credential in one of the spellings a server might echo it in. */
export function spell(value: string, spelling: Spelling, seed = 0): string {
  const u = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  switch (spelling) {
    case "raw":
      return value;
    case "slash":
      return value.replace(/\//g, "\\/");
    case "unicode":
      return Array.from(value, u).join("");
    case "someUnicode":
      return Array.from(value, (c, i) => ((i + seed) % 3 === 0 ? u(c) : c)).join("");
    case "doubleUnicode":
      return Array.from(value, (c) => `\\${u(c)}`).join("");
    case "percent":
      return Array.from(value, (c, i) =>
        (i + seed) % 2 === 0
          ? `%${c.charCodeAt(0).toString(16).toUpperCase()}`
          : encodeURIComponent(c),
      ).join("");
    case "entity":
      return Array.from(value, (c, i) =>
        i % 2 === 0 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`,
      ).join("");
  }
}

const bigBodies = new Map<string, Buffer>();
/** A body built once and kept: a JSON string of `bytes` bytes, or so many spaces (gzipped or not). */
function cachedBody(key: string, make: () => Buffer): Buffer {
  let buffer = bigBodies.get(key);
  if (!buffer) bigBodies.set(key, (buffer = make()));
  return buffer;
}

/** The bytes of a body as sent (after any Content-Encoding), and its Content-Encoding. */
export function bodyBytes(
  b: Body,
  headers: Record<string, string | string[] | undefined>,
): { bytes: Buffer; encoding?: string } {
  switch (b.kind) {
    case "json":
      return { bytes: Buffer.from(JSON.stringify(b.value) ?? "null") };
    case "text":
      return { bytes: Buffer.from(b.text) };
    case "truncated": {
      const text = JSON.stringify(b.value) ?? "null";
      return { bytes: Buffer.from(text.slice(0, Math.min(b.keep, text.length - 1))) };
    }
    case "deep":
      return {
        bytes: Buffer.from(
          b.object
            ? '{"a":'.repeat(b.depth) + "1" + "}".repeat(b.depth)
            : "[".repeat(b.depth) + "]".repeat(b.depth),
        ),
      };
    case "echo": {
      const echoed = spell(String(headers[b.header] ?? "no credential"), b.spelling);
      const text =
        b.wrap === "v1"
          ? `{"errors":[{"code":1005,"message":"key ${echoed} rejected"}],"echo":"${echoed}"}`
          : b.wrap === "html"
            ? `<html><body><h1>Forbidden</h1><p>key ${echoed}</p></body></html>`
            : `bad key: ${echoed}`;
      return { bytes: Buffer.from(text) };
    }
    case "big":
      return {
        bytes: cachedBody(`big${b.bytes}`, () => Buffer.from(`"${"x".repeat(b.bytes - 2)}"`)),
      };
    case "spaces":
      return b.gzip
        ? {
            bytes: cachedBody(`gz${b.bytes}`, () => gzipSync(Buffer.alloc(b.bytes, 0x20))),
            encoding: "gzip",
          }
        : { bytes: cachedBody(`sp${b.bytes}`, () => Buffer.alloc(b.bytes, 0x20)) };
    case "bytes":
      return { bytes: Buffer.from(b.bytes) };
  }
}

/** The body the client reads (after decoding), as bytes. */
function decodedBytes(b: Body, headers: Record<string, string | string[] | undefined>): Buffer {
  if (b.kind === "spaces") return cachedBody(`sp${b.bytes}`, () => Buffer.alloc(b.bytes, 0x20));
  return bodyBytes(b, headers).bytes;
}

// ---------------------------------------------------------------------------------------------
// The oracle

export type Expected =
  | { kind: "value"; value: unknown }
  | { kind: "error"; name: string; status?: number }
  /** Raw bytes: any value or typed error, within the bounds. */
  | { kind: "any" };

/** A request the server will see: whether it starts an attempt (its retry number), and its act. */
export interface Planned {
  /** 0 for the first attempt, n for retry n; undefined for a redirect's next request. */
  attempt: number | undefined;
  act: Act;
}

export interface Prediction {
  expected: Expected;
  requests: Planned[];
  /** The script has raw bytes: the count is an upper bound, and waits are not checked. */
  bounded: boolean;
}

/** What one attempt's final act gives: its outcome, and whether a retry may follow it. */
function outcomeOf(
  a: Act,
  c: Case,
  headers: Record<string, string | string[] | undefined>,
): { expected: Expected; retryable: boolean } {
  const documented = endpoints[c.endpoint].documented;
  switch (a.kind) {
    case "reset":
      return { expected: { kind: "error", name: "ConnectionError" }, retryable: true };
    case "hang":
      return { expected: { kind: "error", name: "TimeoutError" }, retryable: true };
    case "partial":
      return a.then === "close"
        ? { expected: { kind: "error", name: "ConnectionError" }, retryable: true }
        : { expected: { kind: "error", name: "TimeoutError" }, retryable: true };
    case "raw":
      return { expected: { kind: "any" }, retryable: true };
    case "redirect":
      if (a.to === "none")
        return {
          expected: { kind: "error", name: "MerchantApiError", status: a.status },
          retryable: false,
        };
      return {
        expected: { kind: "error", name: "RedirectError", status: a.status },
        retryable: false,
      };
    case "answer": {
      const status = a.status;
      if (status >= 300)
        return {
          expected: { kind: "error", name: "MerchantApiError", status },
          retryable: status === 408 || status === 429 || status >= 500,
        };
      const bytes = status === 204 ? Buffer.alloc(0) : decodedBytes(a.body, headers);
      if (bytes.length > c.maxResponseBytes)
        return {
          expected: { kind: "error", name: "ResponseTooLargeError", status },
          retryable: false,
        };
      const text = new TextDecoder().decode(bytes);
      if (text.trim() === "")
        return documented
          ? { expected: { kind: "error", name: "ResponseParseError", status }, retryable: false }
          : { expected: { kind: "value", value: undefined }, retryable: false };
      try {
        return { expected: { kind: "value", value: JSON.parse(text) }, retryable: false };
      } catch {
        return {
          expected: { kind: "error", name: "ResponseParseError", status },
          retryable: false,
        };
      }
    }
  }
}

/**
 * What the client must do with a case: the outcome, and the requests the server sees. The
 * headers are those the client sends (for what an echo body holds).
 */
export function predict(
  c: Case,
  headers: Record<string, string | string[] | undefined>,
): Prediction {
  const retrySafe = !endpoints[c.endpoint].unsafe || c.idempotent;
  const requests: Planned[] = [];
  const bounded = c.script.some((a) => a.kind === "raw");
  let index = 0;
  const next = () => c.script[Math.min(index++, c.script.length - 1)]!;
  for (let attempt = 0; ; attempt++) {
    let a = next();
    requests.push({ attempt, act: a });
    for (let hops = 0; a.kind === "redirect" && a.to === "same"; hops++) {
      // After raw bytes the outcome may be anything, here as below (found by the long client
      // fuzz, seed 379009540: "[1,2" over HTTP/1.0 is a ResponseParseError, not a retry).
      if (hops >= c.maxRedirects)
        return {
          expected: bounded
            ? { kind: "any" }
            : { kind: "error", name: "RedirectError", status: a.status },
          requests,
          bounded,
        };
      a = next();
      requests.push({ attempt: undefined, act: a });
    }
    const { expected, retryable } = outcomeOf(a, c, headers);
    // After raw bytes, which may read as anything (a retryable answer included), only a
    // bound is known: the most requests, as if every raw answer were retried.
    const done = !(retryable && retrySafe && attempt < c.maxRetries);
    if (done) return { expected: bounded ? { kind: "any" } : expected, requests, bounded };
  }
}

/**
 * Bounds of the wait before retry `retry` (0 for the first) after `previous`, by the
 * documented rules: the server's Retry-After when it is delta-seconds within
 * `maxRetryAfterMs`, else the back-off min(retryBackoffMs * 2^n, maxRetryBackoffMs), less a
 * random half. A date (or text Date.parse reads) is honoured only when it is within the
 * bound, which a test cannot know to the millisecond: then any wait up to the larger cap.
 */
export function waitBounds(c: Case, previous: Act, retry: number): { min: number; max: number } {
  const cap = Math.min(c.retryBackoffMs * 2 ** retry, c.maxRetryBackoffMs);
  const backoff = { min: cap / 2, max: cap };
  if (previous.kind !== "answer" || previous.status < 300) return backoff;
  const ra = previous.retryAfter;
  if (ra.kind === "none") return backoff;
  if (ra.kind === "date") return { min: 0, max: Math.max(cap, c.maxRetryAfterMs) };
  const text = ra.text.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Number(text) * 1000;
    return ms <= c.maxRetryAfterMs ? { min: ms, max: ms } : backoff;
  }
  return Number.isNaN(Date.parse(text))
    ? backoff
    : { min: 0, max: Math.max(cap, c.maxRetryAfterMs) };
}

/** The Retry-After header value of an act, when it has one. */
export function retryAfterValue(ra: RetryAfter): string | undefined {
  if (ra.kind === "none") return undefined;
  if (ra.kind === "date") return new Date(Date.now() + ra.offsetMs).toUTCString();
  return ra.text;
}

// ---------------------------------------------------------------------------------------------
// Finding a credential in what the client shows

/** The text with every escape the server could have used decoded, a few times over, lower-cased. */
function decodedEverySpelling(text: string): string {
  let out = text;
  const char = (code: number) => (code < 0x110000 ? String.fromCodePoint(code) : "");
  for (let round = 0; round < 4; round++) {
    out = out
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+([/"\\])/g, "$1")
      .replace(/&#x0*([0-9a-f]{1,6});/gi, (_m, h: string) => char(parseInt(h, 16)))
      .replace(/&#0*([0-9]{1,7});/g, (_m, d: string) => char(Number(d)))
      .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return out.toLowerCase();
}

/** Length of the pieces of a credential that must not be shown: 8 characters of one give it away. */
const revealingLength = 8;

/** The first piece of a secret that `text` shows in any spelling, or undefined. */
export function revealedPiece(text: string, secrets: readonly string[]): string | undefined {
  const decoded = decodedEverySpelling(text);
  for (const secret of secrets) {
    const lower = secret.toLowerCase();
    for (let i = 0; i + revealingLength <= lower.length; i++) {
      const piece = lower.slice(i, i + revealingLength);
      if (decoded.includes(piece)) return piece;
    }
  }
  return undefined;
}
