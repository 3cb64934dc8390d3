/**
 * Signature checks of inbound calls (callbacks and webhooks), with Web Crypto, so the same
 * code runs on Node 20+, Deno, Bun, edge runtimes and browsers (on Node, the HMAC the host
 * hands out at run time is used instead when nothing else is asked for: see `nodeHmac`).
 *
 * The spec names the header and the scheme (`schemes.ts`: base64 or hex HMAC-SHA256 of the
 * raw body, after an optional prefix; the timestamped `t=,v1=` scheme; Standard Webhooks);
 * a credential that names no scheme is base64(HMAC-SHA256(secret, raw body bytes exactly as
 * received)). `compute` and `decode` replace the scheme where a service signs otherwise.
 * Every secret is tried (rotation), every digest is compared in constant time, and nothing
 * here ever puts a secret in a message.
 */
import { parseJson } from "../http/body.js";
import type { HeaderReader } from "../http/types.js";
import { decodeBase64, encodeBase64 } from "./base64.js";
import {
  defaultScheme,
  importHmacKey,
  joined,
  readHmac,
  readSignature,
  schemeKeys,
  signedPieces,
  subtleCrypto,
  type SignatureScheme,
} from "./schemes.js";

export type { HeaderReader } from "../http/types.js";
export type { SignatureScheme } from "./schemes.js";

/** What a signature may cover: the raw body plus, for custom schemes, the request line and headers. */
export interface SignedContent {
  /** The body bytes exactly as received; empty for a request without a body. */
  body: Uint8Array<ArrayBuffer>;
  method: string;
  /** Path and query as received, e.g. `/oauth/login?code=...`. */
  target: string;
  headers: HeaderReader;
}

/** Computes the expected digest for one secret. */
export type ComputeSignature = (
  secret: string,
  content: SignedContent,
) => Promise<Uint8Array | ArrayBuffer> | Uint8Array | ArrayBuffer;

/** Turns the header value into digest bytes; `undefined` when it is malformed. */
export type DecodeSignature = (headerValue: string) => Uint8Array | undefined;

/** How signatures are computed and read; each defaults to the spec's signature scheme. */
export interface SignatureOptions {
  /** Default: the scheme's HMAC-SHA256 (of `content.body`, keyed with the secret's UTF-8 bytes, for the plain schemes). */
  compute?: ComputeSignature;
  /** Default: the scheme's reading of the header (strict padded base64, or hex after the spec's prefix, ...). */
  decode?: DecodeSignature;
  /**
   * Web Crypto to compute with; default `globalThis.crypto.subtle`. Node 18 has no global
   * `crypto` unless started with a flag: pass `(await import("node:crypto")).webcrypto.subtle`.
   */
  subtle?: SubtleCrypto;
}

/** Result of a signature check; `reason` is safe to show (it never holds a secret or a digest). */
export type SignatureCheck =
  | { ok: true }
  | {
      ok: false;
      reason: "missing" | "malformed" | "mismatch";
      /** What is wrong, where the scheme can say more than the reason (`Stripe-Signature has no v1= signature`). */
      message?: string;
    };

/**
 * Checks a header value against the content, trying every secret. Synchronous when the
 * digest is (Node's own HMAC): the router then needs no promise for the check.
 */
export type SignatureVerifier = (
  headerValue: string | null | undefined,
  content: SignedContent,
) => SignatureCheck | Promise<SignatureCheck>;

const encoder = new TextEncoder();

/** The non-empty secrets of a list that may hold unset environment variables. */
export function usableSecrets(secrets: readonly (string | null | undefined)[]): string[] {
  return secrets.filter((s): s is string => typeof s === "string" && s.length > 0);
}

/** Imports a secret as an HMAC-SHA256 signing key. */
function hmacKey(subtle: SubtleCrypto, secret: string): Promise<CryptoKey> {
  return importHmacKey(subtle, encoder.encode(secret));
}

/** HMAC-SHA256 of `bytes` with `secret` (UTF-8). */
export async function hmacSha256(
  secret: string,
  bytes: Uint8Array<ArrayBuffer>,
  subtle?: SubtleCrypto,
): Promise<Uint8Array> {
  const crypto = subtleCrypto(subtle);
  return new Uint8Array(await crypto.sign("HMAC", await hmacKey(crypto, secret), bytes));
}

/** The header value the default scheme expects: base64(HMAC-SHA256(secret, body)). For tests and tools. */
export async function signBody(
  secret: string,
  body: Uint8Array<ArrayBuffer> | string,
): Promise<string> {
  return encodeBase64(
    await hmacSha256(secret, typeof body === "string" ? encoder.encode(body) : body),
  );
}

/** Equal bytes, in time that depends only on the lengths, never on where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Node's own synchronous HMAC, as much of `node:crypto` as is used here. */
interface NodeHmac {
  createHmac(algorithm: "sha256", key: Uint8Array): NodeHmacState;
}

/** An HMAC being computed by Node. */
interface NodeHmacState {
  update(data: Uint8Array): NodeHmacState;
  digest(): Uint8Array;
}

/**
 * Node's `node:crypto`, when the host hands it out at run time (`process.getBuiltinModule`,
 * Node 20.16+ and 22.3+). Web Crypto's HMAC on Node costs a thread-pool round trip per call,
 * about four times Node's own: with it the router keeps up with a hand-written handler. No
 * import names it, so bundles for browsers, Deno and edge runtimes never see it.
 */
function nodeHmac(): NodeHmac | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process;
  const crypto = host?.getBuiltinModule?.("node:crypto") as Partial<NodeHmac> | undefined;
  return typeof crypto?.createHmac === "function" ? (crypto as NodeHmac) : undefined;
}

/** Compares each signature given with every digest (no early exit, so timing does not tell which secret matched). */
function compare(given: readonly Uint8Array[], expected: readonly Uint8Array[]): SignatureCheck {
  let matched = false;
  for (const signature of given)
    for (const digest of expected) matched = timingSafeEqual(signature, digest) || matched;
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** The verifier of a `compute` or `decode` of the user's: one signature, digests of the user's making. */
function customVerifier(
  secrets: readonly string[],
  options: SignatureOptions,
  scheme: SignatureScheme,
): SignatureVerifier {
  const decode: DecodeSignature =
    options.decode ??
    ((value) =>
      scheme.name === "hmac-sha256-base64" || scheme.name === "hmac-sha256-hex"
        ? readHmac(scheme, value)?.[0]
        : decodeBase64(value));
  const native = options.compute || options.subtle ? undefined : nodeHmac();
  const subtle = options.compute || native ? undefined : subtleCrypto(options.subtle);
  let keys: Promise<CryptoKey[]> | undefined;
  const digests = async (content: SignedContent): Promise<Uint8Array[]> => {
    if (options.compute) {
      const compute = options.compute;
      return Promise.all(
        secrets.map(async (secret) => new Uint8Array(await compute(secret, content))),
      );
    }
    keys ??= Promise.all(secrets.map((secret) => hmacKey(subtle!, secret)));
    return Promise.all(
      (await keys).map(
        async (key) => new Uint8Array(await subtle!.sign("HMAC", key, content.body)),
      ),
    );
  };
  return (headerValue, content) => {
    if (headerValue === null || headerValue === undefined || headerValue.trim() === "")
      return { ok: false, reason: "missing" };
    const given = decode(headerValue.trim());
    if (given === undefined) return { ok: false, reason: "malformed" };
    if (native)
      return compare(
        [given],
        secrets.map((secret) =>
          native.createHmac("sha256", encoder.encode(secret)).update(content.body).digest(),
        ),
      );
    return digests(content).then((expected) => compare([given], expected));
  };
}

/**
 * A verifier over a fixed set of secrets under the spec's scheme (`schemes.ts`; default
 * base64(HMAC-SHA256(secret, raw body))). Each secret's key is made once (a Standard Webhooks
 * secret that holds no key is an error here, never at a request) and reused, or, on Node
 * when no `subtle` is given, Node's own HMAC computes the same digest. All secrets and all
 * signatures a header carries are always compared, so timing does not tell which matched.
 * A `compute` or `decode` in the options replaces the scheme.
 */
export function createSignatureVerifier(
  secrets: readonly string[],
  options: SignatureOptions = {},
  scheme: SignatureScheme = defaultScheme,
  header = "signature header",
): SignatureVerifier {
  if (options.compute || options.decode) return customVerifier(secrets, options, scheme);
  // a scheme's template is checked here, once, never at a request
  const template =
    "signs" in scheme && scheme.signs !== undefined ? signedPieces(scheme.signs) : [];
  if ("problem" in template) throw new Error(`the scheme's signs template: ${template.problem}`);
  const keyBytes = schemeKeys(scheme, secrets);
  if (scheme.name === "token")
    return (headerValue, content) => {
      const read = readSignature(scheme, header, headerValue, content.headers, content.body);
      if (!read.ok) return read;
      const check = compare(read.given, keyBytes);
      return check.ok
        ? check
        : { ...check, message: `${header} is not a token this receiver was given` };
    };
  const native = options.subtle ? undefined : nodeHmac();
  const subtle = native ? undefined : subtleCrypto(options.subtle);
  let keys: Promise<CryptoKey[]> | undefined;
  return (headerValue, content) => {
    const read = readSignature(scheme, header, headerValue, content.headers, content.body);
    if (!read.ok) return read;
    if (native)
      return compare(
        read.given,
        keyBytes.map((key) => {
          const hmac = native.createHmac("sha256", key);
          for (const piece of read.signed) hmac.update(piece);
          return hmac.digest();
        }),
      );
    keys ??= Promise.all(keyBytes.map((key) => importHmacKey(subtle!, key)));
    const data = joined(read.signed);
    return keys
      .then((imported) =>
        Promise.all(
          imported.map(async (key) => new Uint8Array(await subtle!.sign("HMAC", key, data))),
        ),
      )
      .then((expected) => compare(read.given, expected));
  };
}

/** Words for a failed check, safe to send back and to log. */
export function signatureMessage(
  reason: "missing" | "malformed" | "mismatch",
  header: string,
): string {
  switch (reason) {
    case "missing":
      return `missing ${header} header`;
    case "malformed":
      return `${header} is not a well-formed signature`;
    case "mismatch":
      return `${header} does not match the body`;
    default: {
      const unhandled: never = reason;
      throw new Error(`unhandled signature failure ${String(unhandled)}`);
    }
  }
}

/** Outcome of `verifyWebhook`: the parsed payload, or why it was refused. */
export type WebhookVerification =
  | { ok: true; payload: unknown }
  | {
      ok: false;
      reason: "missing" | "malformed" | "mismatch" | "invalid-json";
      message: string;
    };

/** Options of `verifyWebhook`. */
export interface WebhookVerifyOptions extends SignatureOptions {
  /** Header name for messages; default `signature header`. */
  header?: string;
  /**
   * The spec's scheme (the generated `webhookSignatureScheme`); default base64 HMAC-SHA256 of
   * the body. Standard Webhooks reads its id and timestamp from `request.headers`.
   */
  scheme?: SignatureScheme;
  /** The request line and headers: for a scheme that signs headers too, or a custom `compute`. */
  request?: Omit<SignedContent, "body">;
}

/** Bytes of a raw body given as bytes, a buffer or a string (strings are taken as UTF-8). */
export function bodyBytes(rawBody: Uint8Array | ArrayBuffer | string): Uint8Array<ArrayBuffer> {
  if (typeof rawBody === "string") return encoder.encode(rawBody);
  return rawBody instanceof ArrayBuffer ? new Uint8Array(rawBody) : new Uint8Array(rawBody);
}

/**
 * Checks a webhook delivery the way callbacks are checked, then parses its JSON. Pass the
 * body exactly as received (bytes; a string only if it is the exact UTF-8 text), the value of
 * the signature header, and every current secret. The payload's shape is not in the spec:
 * it is handed over as `unknown`.
 */
export async function verifyWebhook(
  rawBody: Uint8Array | ArrayBuffer | string,
  signatureHeader: string | null | undefined,
  secrets: readonly (string | null | undefined)[],
  options: WebhookVerifyOptions = {},
): Promise<WebhookVerification> {
  const usable = usableSecrets(secrets);
  if (usable.length === 0)
    throw new Error("verifyWebhook: no usable signing secret (every entry is empty or unset)");
  const body = bodyBytes(rawBody);
  const header = options.header ?? "signature header";
  const verify = createSignatureVerifier(usable, options, options.scheme, header);
  const check = await verify(signatureHeader, {
    method: "POST",
    target: "",
    headers: { get: () => null },
    ...options.request,
    body,
  });
  if (!check.ok)
    return {
      ok: false,
      reason: check.reason,
      message: check.message ?? signatureMessage(check.reason, header),
    };
  const parsed = parseJson(body);
  return parsed.ok
    ? { ok: true, payload: parsed.value }
    : { ok: false, reason: "invalid-json", message: "body is not valid JSON" };
}
