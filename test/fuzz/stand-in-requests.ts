/**
 * Hostile requests for the stand-in fuzzer (test/fuzz/stand-in.fuzz.test.ts): an endpoint of
 * the Merchant stand-in aimed at, a method, a request target, credentials, a `Prefer`
 * header, a body, extra headers and the framing on the wire. The methods, extra headers,
 * hostile bodies, decorations and framings are the callback router fuzzer's
 * (router-requests.ts), so both servers meet the same hostile requests.
 */
import fc from "fast-check";
import {
  decoration,
  extraHeader,
  framing,
  hostileBody,
  methods,
  type Framing,
} from "./router-requests.ts";

/** The keys the fuzzed stand-in takes, and one of the other environment. */
export const keys = {
  apiKey: { valid: ["key-right"], otherEnvironment: ["key-live"] },
  publishableKey: { valid: ["pk-right"] },
  accessToken: { valid: ["token-right"] },
};

/** An endpoint as the fuzzer aims at it: a path with its parameters filled, a valid body, the statuses of a right request. */
interface Endpoint {
  method: string;
  path: string;
  /** A valid body (`""`: the endpoint takes none). */
  body: string;
  /** The statuses a request right in every way may get (a duplicate webhook is 422). */
  golden: readonly number[];
}

/** The Merchant stand-in's endpoints (spec/). */
export const endpoints = {
  "transactions.authorize": {
    method: "POST",
    path: "/v1/merchant/transactions/authorize",
    body: '{"amount":100,"currency":"USD"}',
    golden: [200],
  },
  "transactions.list": {
    method: "GET",
    path: "/v1/merchant/transactions",
    body: "",
    golden: [200],
  },
  "transactions.get": {
    method: "GET",
    path: "/v1/merchant/transactions/ABCD-EFGH-IJKL",
    body: "",
    golden: [200],
  },
  "orders.create": { method: "POST", path: "/v1/merchant/orders", body: "{}", golden: [200] },
  "testing.trackMockShipment": {
    method: "POST",
    path: "/v1/shipments/mock_service_shipping",
    body: '{"tracking_number":"MockService-1","status":"in_transit"}',
    golden: [200],
  },
  "subscriptions.cancel": {
    method: "POST",
    path: "/v1/subscriptions/sub_1/cancel",
    body: "",
    golden: [200],
  },
  "webhooks.create": {
    method: "POST",
    path: "/v1/webhooks",
    body: '{"division_id":"d1","url":"https://shop.example/hooks"}',
    golden: [200, 422],
  },
  "webhooks.delete": { method: "DELETE", path: "/v1/webhooks/wh_none", body: "", golden: [404] },
  "testing.getRandomPhone": {
    method: "GET",
    path: "/v3/testing/accounts/phones",
    body: "",
    golden: [200],
  },
} satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
const endpointNames = Object.keys(endpoints) as EndpointName[];

/** Target forms; `canonical`, `query` and `absolute` reach the endpoint when all else is right. */
export type TargetForm =
  | "canonical"
  | "query"
  | "absolute"
  | "evil"
  | "backslash"
  | "noUrl"
  | "unknown"
  | "trailing"
  | "encoded"
  | "dots"
  | "random";
export const routedTargets: ReadonlySet<TargetForm> = new Set(["canonical", "query", "absolute"]);
/** Forms that are no path of the spec, whatever follows them: always 404. */
export const missingTargets: ReadonlySet<TargetForm> = new Set([
  "evil",
  "backslash",
  "noUrl",
  "unknown",
]);

/** Credentials as sent: all right, or one of them wrong, missing, or of the other environment. */
export type CredentialForm = "right" | "wrongKey" | "missingKey" | "otherKey" | "wrongToken";

/** What a `Prefer` header asks for, and what the stand-in must answer on a routed request. */
export const preferForms = {
  none: { header: undefined, status: undefined },
  listed: { header: "code=404", status: 404 },
  rate: { header: "code=429, retry-after=3", status: 429 },
  /** A 5xx the spec lists, asked for: the one 5xx the stand-in gives by request. */
  server: { header: "code=500", status: 500 },
  errorListed: { header: "error=18", status: 403 },
  unlisted: { header: "code=418", status: 400 },
  invalid: { header: "code=999", status: 400 },
  notNumber: { header: "code=abc", status: 400 },
  errorUnlisted: { header: "error=77", status: 400 },
  errorBad: { header: 'error=a"b<c', status: 400 },
  long: { header: `code=${"9".repeat(5000)}`, status: 400 },
  /** Asks for nothing: the request goes on. */
  low: { header: "code=204", status: undefined },
  garbage: { header: "respond-async, wait=10", status: undefined },
  /** A stream's error item, asked of an endpoint that has none (the Merchant spec streams nothing). */
  streamError: { header: "stream-error=card_declined", status: 400 },
  streamErrorBad: { header: 'stream-error=a"b<c', status: 400 },
} as const;
export type PreferForm = keyof typeof preferForms;

/** A body: the endpoint's own, with harmless decorations, hostile bytes, or over the limit. */
export type BodyForm = "valid" | "decorated" | "hostile" | "oversize";

export interface StandInCase {
  endpoint: EndpointName;
  method: string;
  /** The method reaches the endpoint: its own, or HEAD on a GET endpoint. */
  rightMethod: boolean;
  form: TargetForm;
  target: string;
  credentials: CredentialForm;
  prefer: PreferForm;
  bodyForm: BodyForm;
  body: Uint8Array;
  extraHeaders: [string, string][];
  framing: Framing;
}

const text = new TextEncoder();

/** Members of `decoration` inserted first into the endpoint's JSON body. */
function decorated(endpoint: EndpointName): fc.Arbitrary<string> {
  const base = endpoints[endpoint].body || "{}";
  return fc
    .array(decoration, { minLength: 1, maxLength: 3 })
    .map((members) => `{${members.join(",")}${base === "{}" ? "" : `,${base.slice(1, -1)}`}}`);
}

/** A target of `form` for the endpoint's path. */
function targetOf(path: string, form: TargetForm, junk: string): string {
  switch (form) {
    case "canonical":
      return path;
    case "query":
      return `${path}?x=${encodeURIComponent(junk)}`;
    case "absolute":
      return `http://proxy.example${path}`;
    case "evil":
      return `//evil.example${path}`;
    case "backslash":
      return `/\\evil.example${path}`;
    case "noUrl":
      return ["http://[::1", "http://[::1]:99999/x", "*", "http://", "ftp://host/v1/webhooks"][
        junk.length % 5
      ]!;
    case "unknown":
      return `/v1/nothing/${encodeURIComponent(junk)}`;
    case "trailing":
      return `${path}/`;
    case "encoded":
      return path.replace(/v/, "%76");
    case "dots":
      return `/v1/x/..${path.slice(3)}`;
    case "random":
      return junk.startsWith("/") ? junk : `/${junk}`;
    default: {
      const unhandled: never = form;
      throw new Error(`unknown target form ${String(unhandled)}`);
    }
  }
}

/** Headers a case sets itself (credentials, Prefer). */
const ownHeaders = new Set(["x-api-key", "x-publishable-key", "authorization", "prefer"]);

/** The credential headers of a form (every endpoint's: each takes those it checks). */
function credentialHeaders(form: CredentialForm): [string, string][] {
  const headers: [string, string][] = [
    ["x-api-key", "key-right"],
    ["x-publishable-key", "pk-right"],
    ["authorization", "Bearer token-right"],
  ];
  switch (form) {
    case "right":
      return headers;
    case "wrongKey":
      return headers.map(([n, v]) => [n, n === "x-api-key" ? "key-wrong" : v]);
    case "missingKey":
      return headers.filter(([n]) => n !== "x-api-key");
    case "otherKey":
      return headers.map(([n, v]) => [n, n === "x-api-key" ? "key-live" : v]);
    case "wrongToken":
      return headers.map(([n, v]) => [n, n === "authorization" ? "Bearer stale" : v]);
    default: {
      const unhandled: never = form;
      throw new Error(`unknown credential form ${String(unhandled)}`);
    }
  }
}

/** The headers of a case: credentials, Prefer, a JSON content type, then the extra ones. */
export function headersOf(c: StandInCase): [string, string][] {
  const prefer = preferForms[c.prefer].header;
  return [
    ...credentialHeaders(c.credentials),
    ...(prefer !== undefined ? [["prefer", prefer] as [string, string]] : []),
    ["content-type", "application/json"],
    ...c.extraHeaders,
  ];
}

/** The length a request's `Content-Length` announces for `bytes` framed as `framing`, if it sends one. */
export function announced(framing: Framing, bytes: Uint8Array): number | undefined {
  switch (framing.kind) {
    case "length":
    case "both":
      return bytes.byteLength;
    case "long":
      return bytes.byteLength + framing.extra;
    case "short":
      return Math.min(framing.keep, Math.max(0, bytes.byteLength - 1));
    default:
      return undefined;
  }
}

/** Whether a case's credentials pass its endpoint: only transactions.authorize checks the bearer token. */
export function credentialsPass(c: Pick<StandInCase, "credentials" | "endpoint">): boolean {
  return (
    c.credentials === "right" ||
    (c.credentials === "wrongToken" && c.endpoint !== "transactions.authorize")
  );
}

/** Whether the stand-in reads the body of a case: a routed request that passes every check before it. */
export function readsBody(c: StandInCase, bodyLimit: number): boolean {
  return (
    routedTargets.has(c.form) &&
    c.rightMethod &&
    credentialsPass(c) &&
    preferForms[c.prefer].status === undefined &&
    (announced(c.framing, c.body) ?? 0) <= bodyLimit
  );
}

/** A case as a counterexample prints it: the body by its length and start, not 64 KiB of numbers. */
function shown(c: StandInCase): StandInCase {
  const { body, ...rest } = c;
  const start = new TextDecoder().decode(body.subarray(0, 120));
  const text = `${JSON.stringify(rest)} with a body of ${body.byteLength} bytes: ${JSON.stringify(start)}`;
  return Object.assign(c, { [fc.toStringMethod]: () => text });
}

/** Stand-in cases; `bodyLimit` is the fuzzed stand-in's, so `oversize` bodies are over it. */
export function standInCase(bodyLimit: number): fc.Arbitrary<StandInCase> {
  return fc
    .record({
      endpoint: fc.constantFrom(...endpointNames),
      otherMethod: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constant("HEAD") },
        { weight: 2, arbitrary: fc.constantFrom(...methods, "TRACE", "TRACK", "CONNECT") },
      ),
      form: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom<TargetForm>("canonical", "query", "absolute") },
        {
          weight: 4,
          arbitrary: fc.constantFrom<TargetForm>(
            "evil",
            "backslash",
            "noUrl",
            "unknown",
            "trailing",
            "encoded",
            "dots",
            "random",
          ),
        },
      ),
      junk: fc.string({ unit: fc.constantFrom(..."abc/?#%.:@&=+\\-_~é!$'()*,;["), maxLength: 20 }),
      credentials: fc.oneof(
        { weight: 6, arbitrary: fc.constant<CredentialForm>("right") },
        {
          weight: 2,
          arbitrary: fc.constantFrom<CredentialForm>(
            "wrongKey",
            "missingKey",
            "otherKey",
            "wrongToken",
          ),
        },
      ),
      prefer: fc.oneof(
        { weight: 8, arbitrary: fc.constant<PreferForm>("none") },
        { weight: 4, arbitrary: fc.constantFrom(...(Object.keys(preferForms) as PreferForm[])) },
      ),
      bodyForm: fc.constantFrom<BodyForm>("valid", "valid", "decorated", "hostile", "oversize"),
      // other headers, not one the case sets itself
      extraHeaders: fc.array(
        extraHeader.filter(([name]) => !ownHeaders.has(name)),
        { maxLength: 2 },
      ),
      framing,
    })
    .chain((c) =>
      (c.bodyForm === "hostile"
        ? hostileBody
        : c.bodyForm === "decorated"
          ? decorated(c.endpoint).map((s) => text.encode(s))
          : c.bodyForm === "oversize"
            ? fc.constant(text.encode(`{"pad":"${"x".repeat(bodyLimit)}"}`))
            : fc.constant(text.encode(endpoints[c.endpoint].body))
      ).map((body): StandInCase => {
        const own = endpoints[c.endpoint].method;
        const method = c.otherMethod ?? own;
        const candidate: StandInCase = {
          endpoint: c.endpoint,
          method,
          rightMethod: method === own || (method === "HEAD" && own === "GET"),
          form: c.form,
          target: targetOf(endpoints[c.endpoint].path, c.form, c.junk),
          credentials: c.credentials,
          prefer: c.prefer,
          bodyForm: c.bodyForm,
          body,
          extraHeaders: c.extraHeaders,
          framing: c.framing,
        };
        // a stall only where the body is read, so it ends in 408 instead of a keep-alive wait
        const stalls = c.framing.kind === "stall" || (c.framing.kind === "long" && !c.framing.fin);
        return shown(
          stalls && !readsBody(candidate, bodyLimit)
            ? { ...candidate, framing: { kind: "length", cuts: [], pauses: [] } }
            : candidate,
        );
      }),
    );
}
