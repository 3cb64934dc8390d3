/**
 * The stand-in's deliveries: a callback or webhook event sent to the integrator's server as
 * the service sends it (the spec's method, path, fixed headers, keys, event header, declared
 * delivery headers, signing time and delivery id), signed under the spec's scheme by the one
 * signer of the runtime (../callbacks/schemes.ts, which the router reads with and `trigger`
 * signs with). `deliveryRequest` builds the request (the trigger sends the same one with
 * node:http); `sendDelivery` sends it with fetch, with a deadline for the whole exchange and a
 * cap on the answer read. Web APIs only. No message here holds a secret or a key.
 */
import {
  defaultScheme,
  signatureHeaders,
  signingTimeText,
  type SignatureScheme,
} from "../callbacks/schemes.js";
import type { ReplaySpec } from "../callbacks/replay.js";
import { formText } from "../callbacks/form.js";
import { redactor } from "../client/redact.js";
import { sample, seeded, token } from "./sample.js";
import type { Shape, ShapeTable } from "./shape.js";

/** One event the service sends: a callback, or a webhook delivery (one event, or the one payload). */
export interface DeliveryEvent {
  /** The callback's event, the webhook event's name, or `webhook` for a webhook's one payload. */
  name: string;
  kind: "callback" | "webhook";
  method: string;
  /** Path after the receiver's base address; empty for a webhook (its URL is the whole address). */
  path: string;
  /** Parameters sent as path segments after the path, in order, with their shapes. */
  trailing: { name: string; shape: Shape }[];
  /** Fixed headers the spec gives (Content-Type ...). */
  headers: [string, string][];
  /** Header and credential of keys the service sends along (`X-API-Key`), not the signature. */
  keyHeaders: { header: string; credential: string; scheme?: string }[];
  signatureHeader?: string;
  /** How the signature is written (the credential's scheme); with `signatureHeader`. */
  signatureScheme?: SignatureScheme;
  /** Where the signed call carries its signing time and delivery id. */
  replay?: ReplaySpec;
  /** Headers of a webhook delivery the spec declares, with the shapes of their values. */
  deliveryHeaders?: { name: string; shape: Shape }[];
  /** Header naming the webhook event, when deliveries name it in a header. */
  eventHeader?: string;
  body?: Shape;
  /** The body goes as a URL-encoded form, each list item a repeated key (the callback's Content-Type). */
  form?: true;
  success?: Shape;
  /** The success answer is text (`text/plain`, a webhook event's string answer), not JSON. */
  successText?: true;
  /** A success answer has a 2xx status, a failure answer any other. */
  failure?: Shape;
}

/** What one delivery is sent with. */
export interface DeliveryInput {
  /** The receiver's base address for callbacks; the whole address for a webhook. */
  url: string;
  /** Every secret to sign with (one signature each where the scheme carries several); at least one. */
  secrets: readonly string[];
  /** Value of the key headers the service sends along (default `stand-in-key`). */
  apiKey?: string;
  /** Seed of the built body, parameters and declared headers (default 1). */
  seed?: number;
  /** The body's bytes or text, instead of one built from the event's type. */
  body?: Uint8Array<ArrayBuffer> | string;
  /** Values of parameters after the path, instead of built ones. */
  params?: Readonly<Record<string, string>>;
  /** The signing time sent, unix seconds (default: now). */
  signedAt?: number;
  /** The delivery id sent where the spec's calls carry one (default: a new `msg_` id). */
  deliveryId?: string;
  /** Signs as an HMAC scheme other than the spec's (the trigger's `--signature-encoding`). */
  scheme?: SignatureScheme;
}

/** A delivery ready to send. */
export interface DeliveryRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  /** The scheme it is signed with, when the event is signed. */
  scheme?: SignatureScheme;
}

const encoder = new TextEncoder();

/** A fresh delivery id: a UUID where the runtime makes them, else 32 random-looking characters. */
function newDeliveryId(seed: number): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return `msg_${uuid ?? token(seeded(seed + Date.now()), 32)}`;
}

/** The address of an event: the base plus the spec's path and any trailing parameters. */
function targetOf(event: DeliveryEvent, input: DeliveryInput, types: ShapeTable, seed: number) {
  const random = seeded(seed + 1);
  const trailing = event.trailing.map((p) =>
    encodeURIComponent(input.params?.[p.name] ?? String(sample(p.shape, types, random))),
  );
  const path = [event.path, ...trailing].filter((p) => p !== "").join("/");
  const base = input.url.replace(/\/+$/, "");
  return new URL(base + (path.startsWith("/") || !path ? path : `/${path}`));
}

/**
 * The request of one delivery: fixed headers, keys, the event header, the declared delivery
 * headers, the signing time and delivery id where the spec puts them in headers, and the
 * signature last (it covers the body exactly as sent, and with Standard Webhooks the id and
 * time). Throws when the secrets hold none the scheme can sign with (the message names no secret).
 */
export async function deliveryRequest(
  event: DeliveryEvent,
  types: ShapeTable,
  input: DeliveryInput,
): Promise<DeliveryRequest> {
  const seed = input.seed ?? 1;
  const headers: Record<string, string> = Object.fromEntries(event.headers);
  const made = () => {
    const value = event.body ? sample(event.body, types, seeded(seed)) : undefined;
    return value === undefined ? "" : event.form ? formText(value) : JSON.stringify(value);
  };
  const body =
    typeof input.body === "string"
      ? encoder.encode(input.body)
      : (input.body ?? encoder.encode(made()));
  for (const key of event.keyHeaders)
    headers[key.header] = `${key.scheme ? `${key.scheme} ` : ""}${input.apiKey ?? "stand-in-key"}`;
  if (event.eventHeader) headers[event.eventHeader] = event.name;
  const random = seeded(seed + 2);
  for (const declared of event.deliveryHeaders ?? [])
    headers[declared.name] = String(sample(declared.shape, types, random));
  const facts = {
    timestamp: input.signedAt ?? Math.floor(Date.now() / 1000),
    id: input.deliveryId ?? newDeliveryId(seed),
  };
  const { timestamp, deliveryId } = event.replay ?? {};
  if (timestamp?.in === "header")
    headers[timestamp.name] = signingTimeText(facts.timestamp, timestamp.format);
  if (deliveryId?.in === "header") headers[deliveryId.name] = facts.id;
  const scheme = event.signatureHeader
    ? (input.scheme ?? event.signatureScheme ?? defaultScheme)
    : undefined;
  if (event.signatureHeader && scheme)
    Object.assign(
      headers,
      await signatureHeaders(scheme, event.signatureHeader, input.secrets, body, facts),
    );
  headers["Content-Length"] = String(body.byteLength);
  const url = targetOf(event, input, types, seed);
  return { url, method: event.method, headers, body, ...(scheme ? { scheme } : {}) };
}

/** Where the stand-in sends its deliveries (`createStandIn({ deliver })`). */
export interface DeliverOptions {
  /** The receiver's base address for callbacks (their paths follow it); a webhook goes to `webhookUrl`, else here. */
  url: string;
  /** The whole address webhook deliveries go to (default `url`). */
  webhookUrl?: string;
  /** The signing secret; for a secret that rolls, `secrets` (one signature each where the scheme carries several). */
  secret?: string;
  secrets?: readonly string[];
  /** Value of the key headers the service sends along (default `stand-in-key`). */
  apiKey?: string;
  /** Longest wait for a whole answer, in ms from before sending to its last byte (default 10,000). */
  timeoutMs?: number;
  /** Largest answer body read, in bytes (default 1 MiB); a longer one ends the delivery. */
  maxAnswerBytes?: number;
}

/** What `standIn.deliver(event)` is asked for beyond the options. */
export interface DeliverCall {
  /** The body's text or bytes, instead of one built from the event's type (seeded). */
  body?: Uint8Array<ArrayBuffer> | string;
  /** Values of parameters after the path, instead of built ones. */
  params?: Readonly<Record<string, string>>;
  /** The signing time, unix seconds (default: now). */
  signedAt?: number;
  /** The delivery id where the spec's calls carry one (default: a new `msg_` id). */
  deliveryId?: string;
  /** Seed of what is built (default: the stand-in's seed). */
  seed?: number;
}

/** The receiver's answer to a delivery, or why there was none (`problem`, with no secret in it). */
export type DeliveryOutcome =
  | { event: string; answered: true; status: number; body: string }
  | { event: string; answered: false; problem: string };

/** Default longest wait for a delivery's whole answer: 10 s, as the trigger's. */
export const defaultDeliveryTimeoutMs: number = 10_000;
/** Default largest answer body: 1 MiB, the callback router's own body limit. */
export const defaultMaxAnswerBytes: number = 1024 * 1024;

/** The signing secrets of the options, or an error naming the option (never a value). */
function secretsOf(options: DeliverOptions): readonly string[] {
  const secrets = options.secrets ?? (options.secret !== undefined ? [options.secret] : []);
  if (secrets.length === 0 || secrets.some((s) => typeof s !== "string" || s === ""))
    throw new Error("createStandIn: deliver needs a signing secret (deliver.secret or .secrets)");
  return secrets;
}

/**
 * An address of the options: absolute http(s), without a user or password (fetch refuses
 * them, and its message would repeat them), or an error naming the option and never the value.
 */
function checkedAddress(option: string, text: string | undefined): void {
  if (text === undefined) return;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new Error(`createStandIn: deliver.${option} must be an absolute http(s) address`);
  if (url.username || url.password)
    throw new Error(
      `createStandIn: deliver.${option} must not hold a user or password (fetch sends none); use the spec's key headers`,
    );
}

/** The limits of the options: whole numbers, or an error naming the option. */
function limitsOf(options: DeliverOptions): { timeoutMs: number; maxAnswerBytes: number } {
  const timeoutMs = options.timeoutMs ?? defaultDeliveryTimeoutMs;
  const maxAnswerBytes = options.maxAnswerBytes ?? defaultMaxAnswerBytes;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 2 ** 31 - 1)
    throw new Error("createStandIn: deliver.timeoutMs must be a whole number of ms from 1");
  if (!Number.isInteger(maxAnswerBytes) || maxAnswerBytes < 0)
    throw new Error("createStandIn: deliver.maxAnswerBytes must be a whole number of bytes");
  return { timeoutMs, maxAnswerBytes };
}

/** The answer's body, read no further than `max` bytes (`undefined` past it). */
async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const announced = response.headers.get("content-length");
  if (announced !== null && Number(announced) > max) return undefined;
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * A deliverer over the stand-in's events: `deliver(name, call)` sends the event to the
 * options' address and resolves with the answer or the problem, within `timeoutMs`, never
 * rejecting for anything the receiver does. Unknown events and unusable secrets are thrown
 * (programming errors), their messages without a secret.
 */
export function deliverer(
  events: readonly DeliveryEvent[],
  types: ShapeTable,
  options: DeliverOptions,
  seed: number,
): (name: string, call?: DeliverCall) => Promise<DeliveryOutcome> {
  const secrets = secretsOf(options);
  const limits = limitsOf(options);
  checkedAddress("url", options.url);
  checkedAddress("webhookUrl", options.webhookUrl);
  const clean = redactor([...secrets, ...(options.apiKey ? [options.apiKey] : [])]);
  return async (name, call = {}) => {
    const event = events.find((e) => e.name === name);
    if (!event)
      throw new Error(
        `deliver: unknown event ${JSON.stringify(name)}; the spec has: ${events.map((e) => e.name).join(", ") || "none"}`,
      );
    const url = event.kind === "webhook" ? (options.webhookUrl ?? options.url) : options.url;
    let request: DeliveryRequest;
    try {
      request = await deliveryRequest(event, types, {
        url,
        secrets,
        seed: call.seed ?? seed,
        ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
        ...(call.body !== undefined ? { body: call.body } : {}),
        ...(call.params ? { params: call.params } : {}),
        ...(call.signedAt !== undefined ? { signedAt: call.signedAt } : {}),
        ...(call.deliveryId !== undefined ? { deliveryId: call.deliveryId } : {}),
      });
    } catch (error) {
      throw new Error(`deliver ${name}: ${clean((error as Error).message)}`);
    }
    return send(name, request, limits, clean);
  };
}

/** Sends a delivery with fetch under the limits; resolves with the answer or the problem. */
async function send(
  name: string,
  request: DeliveryRequest,
  limits: { timeoutMs: number; maxAnswerBytes: number },
  clean: (text: string) => string,
): Promise<DeliveryOutcome> {
  if (request.body.byteLength > 0 && (request.method === "GET" || request.method === "HEAD"))
    return {
      event: name,
      answered: false,
      problem: `${name} is a ${request.method} with a body, which fetch cannot send; \`trigger\` (node:http) sends it`,
    };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DeliveryOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({
        event: name,
        answered: false,
        problem: `no complete answer within ${limits.timeoutMs} ms`,
      });
    }, limits.timeoutMs);
  });
  const { ["Content-Length"]: _length, ...headers } = request.headers;
  const exchange = (async (): Promise<DeliveryOutcome> => {
    try {
      const response = await fetch(request.url, {
        method: request.method,
        headers,
        ...(request.body.byteLength > 0 ? { body: request.body } : {}),
        redirect: "manual",
        signal: controller.signal,
      });
      const body = await readCapped(response, limits.maxAnswerBytes);
      if (body === undefined)
        return {
          event: name,
          answered: false,
          problem: `answer over ${limits.maxAnswerBytes} bytes`,
        };
      return { event: name, answered: true, status: response.status, body };
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      const text = `${(error as Error).message}${cause ? `: ${cause}` : ""}`;
      return { event: name, answered: false, problem: clean(text) };
    }
  })();
  try {
    return await Promise.race([exchange, late]);
  } finally {
    clearTimeout(timer);
  }
}
