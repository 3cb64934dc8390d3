/**
 * The signature schemes a spec can name (`scheme:` of an `in: signature` credential), each
 * written once: how a header value is read into the content that was signed and the
 * signatures it carries (the router verifies with it), and how a delivery is signed (the
 * trigger sends with it). HMAC-SHA256 throughout, with Web APIs only.
 *
 * - `hmac-sha256-base64` (the default) and `hmac-sha256-hex`: the digest of the raw body, in
 *   base64 or lower-case hex, after an optional `prefix` (GitHub: `sha256=<hex>`); or of the
 *   content a `signs` template spells (Slack: `v0:{timestamp}:{body}`), whose `{timestamp}`
 *   and `{id}` are the values of the headers the scheme names.
 * - `timestamped` (Stripe): `t=<unix>,v1=<hex>[,v1=<hex>...]`, each `v1` the digest of
 *   `<t>.<raw body>`; several `v1` items while a secret rolls, other items ignored.
 * - `standard-webhooks`: `webhook-signature: v1,<base64> [v1,<base64> ...]` (space-separated),
 *   each the digest of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the bytes of a
 *   `whsec_<base64>` secret; entries of other versions (`v1a`) are ignored.
 *
 * - `token`: the header holds the shared secret as it is (GitLab's `X-Gitlab-Token`, Google
 *   Calendar's `X-Goog-Channel-Token`): compared, not computed; it proves who sent the call,
 *   not that the body is the one sent.
 *
 * Nothing here puts a secret or a digest in a message.
 */
import { decodeBase64, encodeBase64 } from "./base64.js";
import type { HeaderReader } from "../http/types.js";

/** A scheme as the generator writes it into the route table. */
export type SignatureScheme =
  | {
      name: "hmac-sha256-base64" | "hmac-sha256-hex";
      prefix?: string;
      /** What is signed, when not the raw body alone: text with `{body}` once, `{timestamp}`, `{id}`. */
      signs?: string;
      /** The headers whose values `{timestamp}` and `{id}` stand for. */
      timestamp?: string;
      id?: string;
      /** The signing time's header holds an RFC 3339 date-time (Twitch's), not unix seconds. */
      timestampFormat?: "date-time";
    }
  /** `timestamp`: the key of the item that carries the signing time (`t`). */
  | { name: "timestamped"; timestamp: string }
  /** `id` and `timestamp`: the headers of the delivery id and the signing time. */
  | { name: "standard-webhooks"; id: string; timestamp: string }
  /** The header holds the shared secret itself (GitLab's X-Gitlab-Token, Google's channel token): nothing is signed. */
  | { name: "token" };

/** The scheme of a signature credential that names none: base64(HMAC-SHA256(secret, raw body)). */
export const defaultScheme: SignatureScheme = { name: "hmac-sha256-base64" };

/** Most signatures one header may carry (rotation needs two or three); more is malformed. */
export const maxSignatures = 20;

/** Key of the items that carry the signatures of the timestamped scheme. */
const timestampedVersion = "v1";

/** Version of the signatures Standard Webhooks' symmetric scheme checks. */
const standardVersion = "v1";

/** Prefix of a Standard Webhooks secret. */
const standardSecretPrefix = "whsec_";

/** Digest length of HMAC-SHA256, in bytes. */
const digestLength = 32;

const encoder = new TextEncoder();

/** What a header value holds: the bytes that were signed (in pieces) and each signature given. */
export type SignatureReading =
  | { ok: true; signed: readonly Uint8Array<ArrayBuffer>[]; given: readonly Uint8Array[] }
  | { ok: false; reason: "missing" | "malformed"; message?: string };

/** Lower-case hex of bytes. */
export function encodeHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += (byte < 16 ? "0" : "") + byte.toString(16);
  return out;
}

/** Bytes of lower-case hex, `undefined` for anything else (upper case, odd length, other characters). */
export function decodeHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-f]*$/.test(text)) return undefined;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** The `key=value` items of a comma-separated header, keys and values trimmed. */
export function headerItems(header: string): [string, string][] {
  const items: [string, string][] = [];
  for (const item of header.split(",")) {
    const at = item.indexOf("=");
    if (at >= 0) items.push([item.slice(0, at).trim(), item.slice(at + 1).trim()]);
  }
  return items;
}

/** What a `signs` template's `{...}` may name: the signing time, the delivery id, the raw body. */
export const signedSlots = ["timestamp", "id", "body"] as const;

/** A slot of a `signs` template. */
export type SignedSlot = (typeof signedSlots)[number];

/** A piece of a `signs` template: text signed as written, or what a `{slot}` stands for. */
export type SignedPiece = { text: string } | { slot: SignedSlot };

/**
 * The pieces of a `signs` template (`v0:{timestamp}:{body}`), or what is wrong with it: a
 * `{` or `}` that opens or closes no known slot, or a body not named exactly once.
 */
export function signedPieces(template: string): SignedPiece[] | { problem: string } {
  const pieces: SignedPiece[] = [];
  let bodies = 0;
  for (const part of template.split(/(\{[^{}]*\})/)) {
    if (part === "") continue;
    const slot = /^\{(.*)\}$/.exec(part)?.[1];
    if (slot === undefined) {
      if (/[{}]/.test(part)) return { problem: `an unmatched brace in ${JSON.stringify(part)}` };
      pieces.push({ text: part });
    } else if ((signedSlots as readonly string[]).includes(slot)) {
      if (slot === "body") bodies++;
      pieces.push({ slot: slot as SignedSlot });
    } else return { problem: `{${slot}} is none of {timestamp}, {id}, {body}` };
  }
  return bodies === 1 ? pieces : { problem: "it must name the raw body, {body}, exactly once" };
}

/**
 * The HMAC key bytes of a secret under a scheme: its UTF-8 bytes, or for Standard Webhooks
 * the bytes its base64 holds after `whsec_` (`undefined` when it holds none).
 */
export function schemeKey(scheme: SignatureScheme, secret: string): Uint8Array | undefined {
  if (scheme.name !== "standard-webhooks") return encoder.encode(secret);
  const text = secret.startsWith(standardSecretPrefix)
    ? secret.slice(standardSecretPrefix.length)
    : secret;
  const key = decodeBase64(text);
  return key !== undefined && key.length > 0 ? key : undefined;
}

/**
 * The key bytes of each secret a scheme can use (Standard Webhooks: those that hold a key; a
 * router may serve routes of other schemes with other secrets), or an error that says why
 * there is none, never repeating a secret.
 */
export function schemeKeys(scheme: SignatureScheme, secrets: readonly string[]): Uint8Array[] {
  const keys = secrets.flatMap((secret) => schemeKey(scheme, secret) ?? []);
  if (keys.length === 0)
    throw new Error(
      "no signing secret is a Standard Webhooks secret: one must be whsec_ followed by the key in padded base64",
    );
  return keys;
}

/** A header value's text, or `undefined` when it is absent or blank. */
function present(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** `<text>.` as bytes: the part signed before the body. */
const dotted = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(`${text}.`);

type HmacScheme = Extract<SignatureScheme, { name: "hmac-sha256-base64" | "hmac-sha256-hex" }>;

/**
 * The digests of an HMAC scheme's header: one after the prefix, or several separated by commas
 * while a secret rotates (PagerDuty's `v1=<hex>,v1=<hex>`; neither base64 nor hex holds a
 * comma), items without the prefix (another version) ignored; `undefined` when none is
 * well-formed or there are more than `maxSignatures`.
 */
export function readHmac(scheme: HmacScheme, value: string): Uint8Array[] | undefined {
  const prefix = scheme.prefix ?? "";
  const items = value.split(",").map((item) => item.trim());
  if (items.length > maxSignatures) return undefined;
  const digests = items.flatMap((item) => {
    if (!item.startsWith(prefix)) return [];
    const text = item.slice(prefix.length);
    return (scheme.name === "hmac-sha256-hex" ? decodeHex(text) : decodeBase64(text)) ?? [];
  });
  return digests.length > 0 ? digests : undefined;
}

/**
 * What an HMAC scheme signs: the raw body, or the pieces its `signs` template spells, each
 * `{timestamp}` and `{id}` the value `valueOf` gives for it (the router: the call's header;
 * the signer: the delivery's facts); the slot whose value is missing when one is.
 */
function hmacSigned(
  scheme: HmacScheme,
  body: Uint8Array<ArrayBuffer>,
  valueOf: (slot: "timestamp" | "id") => string | undefined,
): Uint8Array<ArrayBuffer>[] | { missing: "timestamp" | "id" } {
  if (scheme.signs === undefined) return [body];
  const pieces = signedPieces(scheme.signs);
  if ("problem" in pieces) throw new Error(`the scheme's signs template: ${pieces.problem}`);
  const signed: Uint8Array<ArrayBuffer>[] = [];
  for (const piece of pieces) {
    if ("text" in piece) signed.push(encoder.encode(piece.text));
    else if (piece.slot === "body") signed.push(body);
    else {
      const value = valueOf(piece.slot);
      if (value === undefined) return { missing: piece.slot };
      signed.push(encoder.encode(value));
    }
  }
  return signed;
}

/** The `t=` time and the `v1=` signatures of a timestamped header. */
function readTimestamped(
  scheme: Extract<SignatureScheme, { name: "timestamped" }>,
  header: string,
  value: string,
  body: Uint8Array<ArrayBuffer>,
): SignatureReading {
  const items = headerItems(value);
  const times = items.filter(([key]) => key === scheme.timestamp);
  if (times.length === 0)
    return {
      ok: false,
      reason: "malformed",
      message: `${header} has no ${scheme.timestamp}= item; it carries the time the call was signed`,
    };
  if (times.length > 1)
    return {
      ok: false,
      reason: "malformed",
      message: `${header} has more than one ${scheme.timestamp}= item`,
    };
  const signatures = items.filter(([key]) => key === timestampedVersion);
  if (signatures.length === 0)
    return {
      ok: false,
      reason: "missing",
      message: `${header} has no ${timestampedVersion}= signature`,
    };
  if (signatures.length > maxSignatures)
    return {
      ok: false,
      reason: "malformed",
      message: `${header} has more than ${maxSignatures} signatures`,
    };
  const given = signatures.flatMap(([, text]) => decodeHex(text) ?? []);
  if (given.length === 0) return { ok: false, reason: "malformed" };
  return { ok: true, signed: [dotted(times[0]![1]), body], given };
}

/** The `v1,` signatures of a Standard Webhooks header, over its id and timestamp headers. */
function readStandard(
  scheme: Extract<SignatureScheme, { name: "standard-webhooks" }>,
  header: string,
  value: string,
  headers: HeaderReader,
  body: Uint8Array<ArrayBuffer>,
): SignatureReading {
  const id = present(headers.get(scheme.id));
  if (id === undefined)
    return {
      ok: false,
      reason: "malformed",
      message: `missing ${scheme.id} header; it is signed with the body`,
    };
  const timestamp = present(headers.get(scheme.timestamp));
  if (timestamp === undefined)
    return {
      ok: false,
      reason: "malformed",
      message: `missing ${scheme.timestamp} header; it carries the time the call was signed`,
    };
  const entries = value.split(" ").filter((entry) => entry !== "");
  if (entries.length > maxSignatures)
    return {
      ok: false,
      reason: "malformed",
      message: `${header} has more than ${maxSignatures} signatures`,
    };
  const versioned = entries.filter((entry) => entry.startsWith(`${standardVersion},`));
  if (versioned.length === 0)
    return {
      ok: false,
      reason: "missing",
      message: `${header} has no ${standardVersion}, signature`,
    };
  const given = versioned.flatMap((entry) => {
    const digest = decodeBase64(entry.slice(standardVersion.length + 1));
    return digest !== undefined && digest.length === digestLength ? [digest] : [];
  });
  if (given.length === 0) return { ok: false, reason: "malformed" };
  return { ok: true, signed: [dotted(`${id}.${timestamp}`), body], given };
}

/**
 * What a signature header holds under a scheme: the bytes that were signed and the
 * signatures, or why it holds none (`message` says more than the reason where it can).
 */
export function readSignature(
  scheme: SignatureScheme,
  header: string,
  headerValue: string | null | undefined,
  headers: HeaderReader,
  body: Uint8Array<ArrayBuffer>,
): SignatureReading {
  const value = present(headerValue);
  if (value === undefined) return { ok: false, reason: "missing" };
  switch (scheme.name) {
    case "hmac-sha256-base64":
    case "hmac-sha256-hex": {
      const given = readHmac(scheme, value);
      if (given === undefined) return { ok: false, reason: "malformed" };
      const signed = hmacSigned(scheme, body, (slot) => present(headers.get(scheme[slot] ?? "")));
      if (!("missing" in signed)) return { ok: true, signed, given };
      const missing = scheme[signed.missing] ?? `{${signed.missing}}`;
      return {
        ok: false,
        reason: "malformed",
        message: `missing ${missing} header; it is signed with the body`,
      };
    }
    case "timestamped":
      return readTimestamped(scheme, header, value, body);
    case "standard-webhooks":
      return readStandard(scheme, header, value, headers, body);
    case "token":
      // the secret itself: compared with each secret's bytes (signature.ts), nothing signed
      return { ok: true, signed: [], given: [encoder.encode(value)] };
    default: {
      const unhandled: never = scheme;
      throw new Error(`unhandled signature scheme ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The Web Crypto to use, or a clear error where the runtime has none. */
export function subtleCrypto(given: SubtleCrypto | undefined): SubtleCrypto {
  const subtle = given ?? (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle)
    throw new Error(
      'no Web Crypto in this runtime: pass signature.subtle (on Node 18, (await import("node:crypto")).webcrypto.subtle)',
    );
  return subtle;
}

/** The pieces as one array of bytes (the body alone is used as it is). */
export function joined(pieces: readonly Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Imports HMAC-SHA256 key bytes for signing. */
export function importHmacKey(subtle: SubtleCrypto, key: Uint8Array): Promise<CryptoKey> {
  return subtle.importKey("raw", new Uint8Array(key), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
}

/** The bytes a delivery's signature covers under a scheme, its signing time and id given. */
function deliverySigned(
  scheme: SignatureScheme,
  body: Uint8Array<ArrayBuffer>,
  time: string,
  id: string,
): Uint8Array<ArrayBuffer>[] {
  if (scheme.name === "timestamped") return [dotted(time), body];
  if (scheme.name === "standard-webhooks") return [dotted(`${id}.${time}`), body];
  if (scheme.name === "token") return []; // nothing is signed
  const signed = hmacSigned(scheme, body, (slot) => (slot === "id" ? id : time));
  // every slot has its value here: a delivery carries the time and id it is signed with
  return "missing" in signed ? [] : signed;
}

/** What a delivery signed under a scheme carries besides its body. */
export interface SigningFacts {
  /** The signing time, unix seconds (schemes that sign one; default: now). */
  timestamp?: number;
  /** The delivery id (Standard Webhooks signs it, and a `signs` template with `{id}`). */
  id?: string;
}

/**
 * A signing time as a delivery writes it: unix seconds, or an RFC 3339 date-time where the
 * API writes one (`2023-07-19T10:11:12.000Z`). The trigger, the stand-in and
 * `signatureHeaders` write it with this, so what they sign is what the header says.
 */
export function signingTimeText(seconds: number, format?: "date-time"): string {
  return format === "date-time" ? new Date(seconds * 1000).toISOString() : String(seconds);
}

/** Whether a scheme signs a delivery id, which a delivery must then be given. */
const signsId = (scheme: SignatureScheme): boolean =>
  scheme.name === "standard-webhooks" ||
  ("signs" in scheme && scheme.signs !== undefined && scheme.signs.includes("{id}"));

/**
 * The headers that sign a delivery under a scheme, one signature per secret where the scheme
 * carries several (rotation), else with the first: the signature header, and for Standard
 * Webhooks its id and timestamp headers. The one signing implementation, used by the trigger
 * and by tests; the router reads what it writes with `readSignature`.
 */
export async function signatureHeaders(
  scheme: SignatureScheme,
  header: string,
  secrets: readonly string[],
  body: Uint8Array<ArrayBuffer> | string,
  facts: SigningFacts = {},
  subtle?: SubtleCrypto,
): Promise<Record<string, string>> {
  if (secrets.length === 0) throw new Error("signatureHeaders: no secret to sign with");
  if (facts.id === undefined && signsId(scheme))
    throw new Error(`signatureHeaders: scheme ${scheme.name} signs a delivery id: pass facts.id`);
  // a token is the secret itself, one per header (the first, while a secret rolls)
  if (scheme.name === "token") return { [header]: secrets[0]! };
  const crypto = subtleCrypto(subtle);
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const time = signingTimeText(
    facts.timestamp ?? Math.floor(Date.now() / 1000),
    "timestampFormat" in scheme ? scheme.timestampFormat : undefined,
  );
  const id = facts.id ?? "";
  const data = joined(deliverySigned(scheme, bytes, time, id));
  const keys = schemeKeys(scheme, secrets);
  const digests = await Promise.all(
    keys.map(
      async (key) =>
        new Uint8Array(await crypto.sign("HMAC", await importHmacKey(crypto, key), data)),
    ),
  );
  switch (scheme.name) {
    case "hmac-sha256-base64":
    case "hmac-sha256-hex": {
      const encode = scheme.name === "hmac-sha256-hex" ? encodeHex : encodeBase64;
      return {
        ...(scheme.signs?.includes("{timestamp}") && scheme.timestamp
          ? { [scheme.timestamp]: time }
          : {}),
        ...(scheme.signs?.includes("{id}") && scheme.id ? { [scheme.id]: id } : {}),
        [header]: digests.map((d) => `${scheme.prefix ?? ""}${encode(d)}`).join(","),
      };
    }
    case "timestamped":
      return {
        [header]: [
          `${scheme.timestamp}=${time}`,
          ...digests.map((d) => `${timestampedVersion}=${encodeHex(d)}`),
        ].join(","),
      };
    case "standard-webhooks":
      return {
        [scheme.id]: id,
        [scheme.timestamp]: time,
        [header]: digests.map((d) => `${standardVersion},${encodeBase64(d)}`).join(" "),
      };
    default: {
      const unhandled: never = scheme;
      throw new Error(`unhandled signature scheme ${JSON.stringify(unhandled)}`);
    }
  }
}
