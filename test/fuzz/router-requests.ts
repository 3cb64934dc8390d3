/**
 * Hostile requests for the callback router fuzzer (test/fuzz/router.fuzz.test.ts): a route
 * aimed at (or none), a method, a request target, a body, a signature header variant, extra
 * headers, the framing on the wire (Content-Length honest or lying, chunked, pauses, a stall)
 * and how the handler behaves. The signature is kept as a variant, not a value: the header is
 * computed from the bytes each transport actually sends.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { bodies, previousSecret, secret, signatureHeader } from "../callbacks-helpers.ts";

/** Where the fuzz router is mounted. */
export const basePath = "/merchant";

/** The routes of the Merchant router under `basePath`, and the webhook route. */
export const routes = {
  "product.info": { method: "GET", path: "/product_get", body: bodies.productInfo },
  "order.shipping": { method: "POST", path: "/order_shipping", body: bodies.orderShipping },
  "cart.update": { method: "POST", path: "/cart_update", body: bodies.cartUpdate },
  "account.login": { method: "GET", path: "/oauth/login", body: "" },
  webhook: { method: "POST", path: "/webhooks", body: '{"id":"evt_1","type":"order.created"}' },
} as const;

export type RouteName = keyof typeof routes;
const routeNames = Object.keys(routes) as RouteName[];

/** How a signature header is made from the body bytes (see `signatureLines`). */
export type SignatureKind =
  | "valid"
  | "previous"
  | "spaced"
  | "otherBytes"
  | "wrongSecret"
  | "secretCase"
  | "hex"
  | "base64url"
  | "unpadded"
  | "truncated"
  | "shortDigest"
  | "longDigest"
  | "noncanonical"
  | "innerSpace"
  | "lowercase"
  | "repeated"
  | "empty"
  | "missing"
  | "long"
  | "zero"
  | "garbage";

/**
 * Kinds whose header carries the right digest of the bytes: only these may reach a handler. A
 * header sent twice arrives as its values joined by ", ", two signatures the HMAC schemes read
 * as a rotation's: the right digest twice is a right signature.
 */
export const validKinds: ReadonlySet<SignatureKind> = new Set([
  "valid",
  "previous",
  "spaced",
  "repeated",
]);

/** How the body goes on the wire. */
export type Framing =
  /** Content-Length, the body in `pieces` with `pauses` (ms) between them. */
  | { kind: "length"; cuts: number[]; pauses: number[] }
  /** Chunked transfer encoding, one chunk per piece. */
  | { kind: "chunked"; cuts: number[]; pauses: number[] }
  /** Content-Length larger than the body by `extra`; the client then half-closes (`fin`) or stalls. */
  | { kind: "long"; extra: number; fin: boolean }
  /** Content-Length smaller than the body: the rest is read as a next request. */
  | { kind: "short"; keep: number }
  /** Chunked, a first piece, then nothing: no last chunk, no close. */
  | { kind: "stall" }
  /** Both Content-Length and chunked. */
  | { kind: "both" };

/**
 * Which router: `native` has the default scheme (Node's own HMAC, synchronous); `custom` a
 * `compute` on Web Crypto (asynchronous) that fails as a key service outage would when the
 * request says so (`outage`, in a header the test adds), synchronously or not.
 */
export type Scheme = "native" | "custom";
export type Outage = "none" | "throws" | "rejects";

/** What the handler does when it is called. */
export type HandlerMode = "sync" | "async" | "throw" | "reject" | "leaky";
export const throwingModes: ReadonlySet<HandlerMode> = new Set(["throw", "reject", "leaky"]);

/** Target forms; `canonical`, `query` and `absolute` reach the route when all else is right. */
export type TargetForm =
  | "canonical"
  | "query"
  | "absolute"
  | "evil"
  | "backslash"
  | "unmounted"
  | "trailing"
  | "encoded"
  | "dots"
  | "random";
export const goldenTargets: ReadonlySet<TargetForm> = new Set(["canonical", "query", "absolute"]);

/** A body: the route's own (`valid`, with harmless decorations) or hostile bytes. */
export type BodyForm = "valid" | "decorated" | "hostile";

export interface RouterCase {
  route: RouteName;
  method: string;
  /** The method is the route's. */
  rightMethod: boolean;
  form: TargetForm;
  target: string;
  bodyForm: BodyForm;
  body: Uint8Array;
  signature: SignatureKind;
  /** Letter case of the signature header's name, one flag per letter. */
  headerName: string;
  extraHeaders: [string, string][];
  framing: Framing;
  mode: HandlerMode;
  scheme: Scheme;
  outage: Outage;
  /** Varies the details of a signature kind (which byte, how long). */
  seed: number;
}

/** HMAC-SHA256 with node:crypto, independent of the router's code. */
export function hmac(key: string, bytes: Uint8Array): Buffer {
  return createHmac("sha256", key).update(bytes).digest();
}

/** Every text form of a digest that must never appear in an answer. */
export function digestForms(digest: Buffer): string[] {
  const b64 = digest.toString("base64");
  const hex = digest.toString("hex");
  return [b64, b64.replace(/=+$/, ""), digest.toString("base64url"), hex, hex.toUpperCase()];
}

const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The header lines (none, one or two values) a signature kind gives for `bytes`. */
export function signatureLines(kind: SignatureKind, bytes: Uint8Array, seed: number): string[] {
  const digest = hmac(secret, bytes);
  const b64 = digest.toString("base64");
  switch (kind) {
    case "valid":
      return [b64];
    case "previous":
      return [hmac(previousSecret, bytes).toString("base64")];
    case "spaced":
      return [` \t${b64} `];
    case "otherBytes":
      return [hmac(secret, Buffer.concat([bytes, Buffer.from([seed & 0xff])])).toString("base64")];
    case "wrongSecret":
      return [hmac("wrong-secret", bytes).toString("base64")];
    case "secretCase":
      return [hmac(secret.toUpperCase(), bytes).toString("base64")];
    case "hex":
      return [digest.toString("hex")];
    case "base64url":
      return [digest.toString("base64url")];
    case "unpadded":
      return [b64.replace(/=+$/, "")];
    case "truncated":
      return [b64.slice(0, 4 + (seed % 36))];
    case "shortDigest":
      return [digest.subarray(0, 31).toString("base64")];
    case "longDigest":
      return [Buffer.concat([digest, Buffer.from([seed & 0xff])]).toString("base64")];
    case "noncanonical": {
      // 32 bytes: 43 characters and "="; the last character carries 2 bits of zeros
      const last = base64Alphabet.indexOf(b64[42]!);
      return [`${b64.slice(0, 42)}${base64Alphabet[last | (1 + (seed % 3))]}=`];
    }
    case "innerSpace":
      return [`${b64.slice(0, 20)} ${b64.slice(20)}`];
    case "lowercase":
      return [b64.toLowerCase() === b64 ? `${b64}x` : b64.toLowerCase()];
    case "repeated":
      return [b64, b64];
    case "empty":
      return [""];
    case "missing":
      return [];
    case "long":
      return ["A".repeat([100, 4000, 12_000, 20_000][seed % 4]!)];
    case "zero":
      return [Buffer.alloc(32).toString("base64")];
    case "garbage":
      return [`${seed.toString(36)}==`];
    default: {
      const unhandled: never = kind;
      throw new Error(`unknown signature kind ${String(unhandled)}`);
    }
  }
}

const text = new TextEncoder();

/** Inserts `member` (a `"key":value` text) first in the object that starts at `at` in `json`. */
function insertMember(json: string, at: number, member: string): string {
  return `${json.slice(0, at + 1)}${member},${json.slice(at + 1)}`;
}

/** Members that keep a body valid (the spec lets unknown fields pass) but are hostile to parsers. */
export const decoration = fc.oneof(
  fc.constantFrom(
    '"__proto__":{"polluted":true}',
    '"__proto__":{"__proto__":{"polluted":true}}',
    '"constructor":{"prototype":{"polluted":true}}',
    '"prototype":{"polluted":true}',
    '"toString":"x"',
    '"hasOwnProperty":1',
    '"valueOf":{"polluted":true}',
    '"big":1e309',
    '"small":-1e309',
    '"tiny":1e-400',
    '"nan":-0',
    '"dup":1,"dup":2,"dup":{"__proto__":{"polluted":1}}',
    '"unicode":"\\ud800\\u0000\\u2028\\ufeff\u00e9"',
  ),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((depth) => `"deep":${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc
    .integer({ min: 1, max: 5_000 })
    .map((depth) => `"deepObject":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  fc.string({ maxLength: 30 }).map((key) => `${JSON.stringify(key)}:${JSON.stringify(key)}`),
);

/** The route's body with decorations at the top and inside `data`, maybe pretty-printed. */
function decorated(route: RouteName): fc.Arbitrary<string> {
  const base = routes[route].body || "{}";
  return fc
    .record({
      pretty: fc.boolean(),
      top: fc.array(decoration, { maxLength: 3 }),
      inner: fc.array(decoration, { maxLength: 2 }),
    })
    .map(({ pretty, top, inner }) => {
      let json = pretty ? JSON.stringify(JSON.parse(base), null, 2) : base;
      const data = json.search(/"data":\s*\{/);
      if (data >= 0) for (const m of inner) json = insertMember(json, json.indexOf("{", data), m);
      for (const m of top) json = insertMember(json, 0, m);
      return json;
    });
}

/** Bytes no valid callback carries. */
export const hostileBody: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.json().map((j) => text.encode(j)),
  fc
    .constantFrom(
      "",
      "1e309",
      "null",
      "[]",
      '{"event":"cart.update","event":"order.shipping","data":{}}',
      '{"__proto__":{"polluted":true},"event":"cart.update"}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    )
    .map((s) => text.encode(s)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => text.encode("[".repeat(n))),
  // a signed body with thousands of problems: the answer and onReject must stay small
  fc
    .integer({ min: 21, max: 20_000 })
    .map((n) =>
      text.encode(
        `{"event":"cart.update","data":{"order_reference":"o","add_items":[${"1,".repeat(n)}1]}}`,
      ),
    ),
  // valid JSON around bytes that are not UTF-8
  fc
    .uint8Array({ minLength: 1, maxLength: 8 })
    .map((bad) =>
      Buffer.concat([
        Buffer.from('{"event":"cart.update","data":{"order_reference":"'),
        Buffer.from(bad.map((b) => b | 0x80)),
        Buffer.from('"}}'),
      ]),
    ),
);

/** Valid account.login parameters as path segments or a query string. */
const loginParams = fc
  .record({
    code: fc.stringMatching(/^[a-z0-9_-]{1,10}$/),
    state: fc.oneof(fc.constant("Ab3dE6gH"), fc.stringMatching(/^[A-Za-z0-9]{8}$/)),
    reference: fc.stringMatching(/^[a-z0-9_]{1,8}$/),
    asQuery: fc.boolean(),
  })
  .map(({ code, state, reference, asQuery }) =>
    asQuery
      ? `?code=${code}&state=${state}&scope=openid&reference=${reference}`
      : `/${code}/${state}/openid/${reference}`,
  );

/** A request target of `form` for `route` (with the login parameters for account.login). */
function targetOf(route: RouteName, form: TargetForm, params: string, junk: string): string {
  const path = basePath + routes[route].path + (route === "account.login" ? params : "");
  switch (form) {
    case "canonical":
      return path;
    case "query":
      return `${path}${path.includes("?") ? "&" : "?"}x=${encodeURIComponent(junk)}`;
    case "absolute":
      return `http://proxy.example${path}`;
    case "evil":
      return `//evil.example${path}`;
    case "backslash":
      return `/\\evil.example${path}`;
    case "unmounted":
      return routes[route].path;
    case "trailing":
      return `${path}/`;
    case "encoded":
      return path.replace(/_/g, "%5F").replace(/o/, "%6f");
    case "dots":
      return `${basePath}/x/..${routes[route].path}`;
    case "random":
      return junk.startsWith("/") ? junk : `/${junk}`;
    default: {
      const unhandled: never = form;
      throw new Error(`unknown target form ${String(unhandled)}`);
    }
  }
}

/** Where a body is cut into pieces, and the pauses (ms) between them. */
const pieces = fc.record({
  cuts: fc.array(fc.nat(), { maxLength: 3 }),
  pauses: fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 3 }),
});

export const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 16, arbitrary: pieces.map((p) => ({ kind: "length" as const, ...p })) },
  { weight: 8, arbitrary: pieces.map((p) => ({ kind: "chunked" as const, ...p })) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("long" as const),
      extra: fc.integer({ min: 1, max: 1000 }),
      fin: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("short" as const), keep: fc.nat({ max: 50 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "stall" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "both" as const }) },
);

/** Header names and values of other headers, legal in HTTP (visible ASCII and spaces). */
export const extraHeader = fc.tuple(
  fc.oneof(
    fc.constantFrom("content-type", "x-api-key", "x-forwarded-for", "accept", "x-case-dup"),
    fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
  ),
  fc.stringMatching(/^[!-~]([ !-~]{0,40}[!-~])?$/),
);

export const methods = [
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "OPTIONS",
  "HEAD",
  "FOO",
  "M-SEARCH",
];

export const routerCase: fc.Arbitrary<RouterCase> = fc
  .record({
    route: fc.constantFrom(...routeNames),
    otherMethod: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom(...methods) },
    ),
    form: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom<TargetForm>("canonical", "query", "absolute") },
      {
        weight: 3,
        arbitrary: fc.constantFrom<TargetForm>(
          "evil",
          "backslash",
          "unmounted",
          "trailing",
          "encoded",
          "dots",
          "random",
        ),
      },
    ),
    params: loginParams,
    junk: fc.string({ unit: fc.constantFrom(..."abc/?#%.:@&=+\\-_~é!$'()*,;"), maxLength: 20 }),
    bodyForm: fc.constantFrom<BodyForm>("valid", "decorated", "decorated", "hostile"),
    signature: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom<SignatureKind>("valid", "previous", "spaced") },
      {
        weight: 5,
        arbitrary: fc.constantFrom<SignatureKind>(
          "otherBytes",
          "wrongSecret",
          "secretCase",
          "hex",
          "base64url",
          "unpadded",
          "truncated",
          "shortDigest",
          "longDigest",
          "noncanonical",
          "innerSpace",
          "lowercase",
          "repeated",
          "empty",
          "missing",
          "long",
          "zero",
          "garbage",
        ),
      },
    ),
    nameCase: fc.array(fc.boolean(), { minLength: 21, maxLength: 21 }),
    extraHeaders: fc.array(extraHeader, { maxLength: 3 }),
    framing,
    mode: fc.constantFrom<HandlerMode>(
      "sync",
      "sync",
      "async",
      "async",
      "throw",
      "reject",
      "leaky",
    ),
    seed: fc.nat(),
    scheme: fc.constantFrom<Scheme>("native", "native", "custom"),
    outage: fc.constantFrom<Outage>("none", "none", "none", "throws", "rejects"),
  })
  .chain((c) =>
    (c.bodyForm === "hostile"
      ? hostileBody
      : c.bodyForm === "decorated"
        ? decorated(c.route).map((s) => text.encode(s))
        : fc.constant(text.encode(routes[c.route].body))
    ).map((body): RouterCase => {
      const method = c.otherMethod ?? routes[c.route].method;
      // a stall only where the body is read, so it ends in 408 instead of a keep-alive wait
      const stalls = c.framing.kind === "stall" || (c.framing.kind === "long" && !c.framing.fin);
      const keep = stalls && c.route !== "account.login";
      return {
        route: c.route,
        method: keep ? routes[c.route].method : method,
        rightMethod: keep || method === routes[c.route].method,
        form: keep ? "canonical" : c.form,
        target: targetOf(c.route, keep ? "canonical" : c.form, c.params, c.junk),
        bodyForm: c.bodyForm,
        body,
        signature: c.signature,
        headerName: [...signatureHeader]
          .map((ch, i) => (c.nameCase[i] ? ch.toLowerCase() : ch.toUpperCase()))
          .join(""),
        extraHeaders: c.extraHeaders,
        framing: stalls && !keep ? { kind: "length", cuts: [], pauses: [] } : c.framing,
        mode: c.mode,
        seed: c.seed,
        scheme: c.scheme,
        outage: c.scheme === "custom" ? c.outage : "none",
      };
    }),
  );
