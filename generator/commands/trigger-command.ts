/**
 * `trigger <event>`: sends one callback or webhook delivery to a merchant server as the
 * service would (the spec's method, path, headers and keys, a body built from the event's
 * request type or read from a file, signed with the given secret under the spec's scheme by
 * the runtime's own signer, runtime/callbacks/schemes.ts, with the signing time and delivery
 * id where the spec says the calls carry them: the request runtime/testing/deliver.ts builds,
 * which the stand-in's deliveries send too), then checks the answer against the event's
 * success or failure type and prints a verdict. Exit status 1 on a wrong answer or none, 2
 * on a usage problem.
 *
 * The server may be anyone's: the whole exchange (connect, headers, body) has a deadline and
 * the answer a size cap, so every run ends with a verdict in bounded time and memory, and no
 * printed line holds the secret, the API key, or the user and password of `--url`, in any
 * spelling the server might echo them in.
 */
import { printOut } from "../cli-io.ts";
import { readFileSync } from "node:fs";
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { TriggerEvent } from "../ir/stand-in-model.ts";
import type { SignatureScheme } from "../runtime/callbacks/schemes.ts";
import { redactor } from "../runtime/client/redact.ts";
import { deliveryRequest, type DeliveryRequest } from "../runtime/testing/deliver.ts";
import type { ShapeTable } from "../runtime/testing/shape.ts";
import { validate } from "../runtime/validate.ts";
import { shapeValidator } from "../ir/shape-validator.ts";
import { reachOf, type RefMap } from "../load/spec-source.ts";

export interface TriggerOptions {
  /** The callback's event name (`product.info`), a webhook event, or `webhook`. */
  event: string;
  specDir: string;
  /** For a document: the folder its `$ref`s may reach (the config's `refRoot`). */
  refRoot?: string;
  /** For a document: local copies of what its remote `$ref`s name (the config's `refMap`). */
  refMap?: RefMap;
  /** For a document: the overlays applied to it first (`--overlay`, else the config's `overlays`). */
  overlays?: readonly string[];
  /** The receiving server's base address for callbacks; the whole address for a webhook. */
  url: string;
  /** The signing secret; absent, the event must be one the spec does not sign. */
  secret?: string;
  /**
   * Every secret to sign with, for a scheme that carries one signature per secret while a
   * secret rolls (timestamped, Standard Webhooks); default `[secret]`. Others sign with the first.
   */
  secrets?: readonly string[];
  /** The signing time sent, unix seconds (default: now), where the spec's calls carry one. */
  signedAt?: number;
  /** The delivery id sent where the spec's calls carry one in a header (default: a new UUID each run). */
  deliveryId?: string;
  /** A file whose bytes are sent as the body instead of a built one. */
  bodyFile?: string;
  /** The body's text, instead of a built one (for tests that call the trigger in-process). */
  body?: string;
  /** Values of parameters after the path (`account.login`'s `code`), instead of built ones. */
  params?: Readonly<Record<string, string>>;
  /**
   * An HMAC-SHA256 of the body written otherwise than the spec's scheme says: `hex` digits,
   * after a `prefix` such as GitHub's `sha256=` (for a spec that names no scheme).
   */
  signature?: { encoding: "base64" | "hex"; prefix?: string };
  /** Value of the key headers the service sends along (default `stand-in-key`). */
  apiKey?: string;
  seed?: number;
  /** Also fail when the answer is of the other kind. */
  expect?: "success" | "failure" | "refusal";
  /** Longest wait for the whole answer, in ms from before connecting to its last byte (default 10 s). */
  timeoutMs?: number;
  /** Largest answer body read, in bytes (default 1 MiB); a longer one ends the exchange. */
  maxAnswerBytes?: number;
}

/** Default longest wait for the whole exchange: 10 s. */
export const defaultTriggerTimeoutMs = 10_000;
/** Default largest answer body: 1 MiB, the callback router's own body limit. */
export const defaultMaxAnswerBytes = 1024 * 1024;
/** Longest delay a timer takes; a longer one would fire at once. */
const maxTimerMs = 2 ** 31 - 1;

/** What one delivery got back. */
export interface Answer {
  status: number;
  text: string;
}

/** What one delivery got back, or why no whole answer came. */
type Exchange = { answer: Answer } | { problem: string };

/** The limits of one exchange. */
interface Limits {
  timeoutMs: number;
  maxAnswerBytes: number;
}

/**
 * Sends bytes with node:http(s) (a GET may carry a body, as the spec's callbacks do) and
 * reads the answer under the limits: one timer for the whole exchange, and no more than
 * `maxAnswerBytes` of body kept, whatever `Content-Length` says. Never rejects.
 */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array,
  limits: Limits,
): Promise<Exchange> {
  const { timeoutMs, maxAnswerBytes } = limits;
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let req: ClientRequest | undefined;
    let settled = false;
    const finish = (outcome: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ problem: `no complete answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const tooLarge = { problem: `answer over ${maxAnswerBytes} bytes` };
    try {
      // no agent: nothing is kept open after the verdict
      req = request(url, { method, headers, agent: false }, (res) => {
        const announced = res.headers["content-length"];
        if (announced !== undefined && Number(announced) > maxAnswerBytes) return finish(tooLarge);
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxAnswerBytes) finish(tooLarge);
          else chunks.push(chunk);
        });
        res.on("end", () =>
          finish({
            answer: { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") },
          }),
        );
        res.on("error", (error) => finish({ problem: error.message }));
        // after "end" this changes nothing; before it, the server cut the answer off
        res.on("close", () => finish({ problem: "the connection closed before the answer ended" }));
      });
      req.on("error", (error) => finish({ problem: error.message }));
      req.end(body);
    } catch (error) {
      // a header node refuses to send (a key with a line break, say)
      finish({ problem: `the request could not be sent: ${(error as Error).message}` });
    }
  });
}

/** The scheme asked for instead of the spec's: the encoding and prefix given, if any. */
function schemeOf(options: TriggerOptions): SignatureScheme | undefined {
  const format = options.signature;
  if (!format) return undefined;
  return {
    name: format.encoding === "hex" ? "hmac-sha256-hex" : "hmac-sha256-base64",
    ...(format.prefix !== undefined ? { prefix: format.prefix } : {}),
  };
}

/**
 * The verdict on an answer: a success answer is a 2xx whose body is of the success type; a
 * failure answer has a body of the failure type, with any status (some servers answer
 * failures with 200). Anything else is wrong, with the problems against the type its
 * status suggests.
 */
function judge(
  event: TriggerEvent,
  types: ShapeTable,
  answer: Answer,
  expected: TriggerOptions["expect"],
): { kind: "success" | "failure"; problem?: string } {
  const ok = answer.status >= 200 && answer.status < 300;
  let value: unknown;
  try {
    // a text answer (a webhook event's string, Twitch's challenge) is judged as the text itself
    value =
      ok && event.successText
        ? answer.text
        : answer.text === ""
          ? undefined
          : JSON.parse(answer.text);
  } catch {
    if (event.success || event.failure || !ok)
      return { kind: ok ? "success" : "failure", problem: "the body is not JSON" };
  }
  const problems = (shape: TriggerEvent["success"]) =>
    shape ? validate(shapeValidator(shape, types), value, "body") : undefined;
  const success = ok ? problems(event.success) : undefined;
  const failure = problems(event.failure);
  const kind =
    ok && (!event.success || success?.length === 0)
      ? "success"
      : failure?.length === 0
        ? "failure"
        : undefined;
  if (kind === undefined) {
    const issues = ok ? success : failure;
    const problem = issues
      ? issues.map((i) => `${i.path}: ${i.message}`).join("; ")
      : "the spec gives no failure answer for this event";
    return { kind: ok ? "success" : "failure", problem };
  }
  if (expected && expected !== kind) return { kind, problem: `expected a ${expected} answer` };
  return { kind };
}

/** The bytes of `--body FILE`, or an error naming the option and the file. */
function readBodyFile(file: string): Uint8Array<ArrayBuffer> {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (error) {
    throw new Error(`--body ${file}: ${(error as Error).message}`);
  }
}

/** The outcome of one delivery: the exit status, and the answer when one came. */
export interface TriggerResult {
  code: number;
  answer?: Answer;
  /** Parsed JSON of the answer, when it is JSON. */
  json?: unknown;
}

/** Runs `trigger`; prints its lines and returns its exit status. */
export async function triggerCommand(
  options: TriggerOptions,
  print: (line: string) => void = printOut,
): Promise<number> {
  return (await trigger(options, print)).code;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the trigger reads off a spec: its events and the types of their bodies and answers. */
export interface TriggerModel {
  events: readonly TriggerEvent[];
  types: ShapeTable;
}

/** The events of the spec folder or document, overlays applied (its diagnostics are thrown). */
export async function loadTriggerModel(
  specDir: string,
  source: Pick<TriggerOptions, "refRoot" | "refMap" | "overlays"> = {},
): Promise<TriggerModel> {
  const { loadApiModel } = await import("../pipeline.ts");
  const { model } = loadApiModel({
    specDir,
    ...reachOf(source),
    ...(source.overlays?.length ? { overlays: source.overlays } : {}),
  });
  return { events: model.standIn.events, types: model.standIn.eventTypes };
}

/** Sends one delivery; the model comes from the spec folder (its diagnostics are thrown). */
export async function trigger(
  options: TriggerOptions,
  print: (line: string) => void = () => undefined,
): Promise<TriggerResult> {
  return deliver(await loadTriggerModel(options.specDir, options), options, print);
}

/** The limits of the options, or an error naming the one that is not a limit. */
function limitsOf(options: TriggerOptions): Limits {
  const timeoutMs = options.timeoutMs ?? defaultTriggerTimeoutMs;
  const maxAnswerBytes = options.maxAnswerBytes ?? defaultMaxAnswerBytes;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > maxTimerMs)
    throw new Error(`trigger: timeoutMs must be a whole number from 1 to ${maxTimerMs}`);
  if (!Number.isInteger(maxAnswerBytes) || maxAnswerBytes < 0)
    throw new Error("trigger: maxAnswerBytes must be a whole number of bytes");
  return { timeoutMs, maxAnswerBytes };
}

/**
 * Every spelling of a credential the options hold, for the redactor: the secret, an API key
 * given, and the user and password of the URL (as written and decoded, and the Basic token
 * node sends from them).
 */
function secretsOf(options: TriggerOptions): string[] {
  const secrets = [
    ...(options.secret !== undefined ? [options.secret] : []),
    ...(options.secrets ?? []),
  ];
  if (options.apiKey !== undefined) secrets.push(options.apiKey);
  const { username, password } = new URL(options.url);
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  for (const part of [username, password]) if (part !== "") secrets.push(part, decoded(part));
  if (username || password)
    secrets.push(Buffer.from(`${decoded(username)}:${decoded(password)}`).toString("base64"));
  return secrets;
}

/** The address as printed: a user and password in it are never shown. */
function shownUrl(url: URL): string {
  const hidden = url.username || url.password ? "[redacted]@" : "";
  return `${url.protocol}//${hidden}${url.host}${url.pathname}${url.search}`;
}

/** Control characters (a terminal's escape sequences) as `\u` escapes, so an answer prints as text. */
const escapeControls = (text: string) =>
  text.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** Longest part of an answer's body printed. */
const shownAnswerLength = 400;

/**
 * Sends one delivery of a loaded model and prints what happened: the request, the answer
 * (its start), the verdict. Every line goes out with control characters escaped and every
 * credential of the options redacted.
 */
export async function deliver(
  model: TriggerModel,
  options: TriggerOptions,
  print: (line: string) => void = () => undefined,
): Promise<TriggerResult> {
  const { events, types } = model;
  const limits = limitsOf(options);
  const secrets = secretsOf(options);
  const clean = redactor(secrets);
  const show = (line: string) => print(clean(escapeControls(line)));
  const event = events.find((e) => e.name === options.event);
  if (!event) {
    show(
      `unknown event ${JSON.stringify(options.event)}; the spec has: ${events.map((e) => e.name).join(", ")}`,
    );
    return { code: 2 };
  }
  if (event.signatureHeader !== undefined && options.secret === undefined && !options.secrets) {
    show(`${event.name} is signed (${event.signatureHeader}): trigger needs --secret S to sign it`);
    return { code: 2 };
  }
  const scheme = schemeOf(options);
  const body = options.bodyFile ? readBodyFile(options.bodyFile) : options.body;
  let request: DeliveryRequest;
  try {
    // the request the stand-in's deliveries send too (runtime/testing/deliver.ts), signed by
    // the runtime's one signer
    request = await deliveryRequest(event, types, {
      url: options.url,
      secrets: options.secrets ?? (options.secret === undefined ? [] : [options.secret]),
      seed: options.seed ?? 1,
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(options.params ? { params: options.params } : {}),
      ...(options.signedAt !== undefined ? { signedAt: options.signedAt } : {}),
      ...(options.deliveryId !== undefined ? { deliveryId: options.deliveryId } : {}),
      ...(scheme ? { scheme } : {}),
    });
  } catch (error) {
    // a secret the scheme cannot sign with (Standard Webhooks wants whsec_<base64>)
    show(`--secret: ${(error as Error).message}`);
    return { code: 2 };
  }
  const { url, headers } = request;
  // a scheme the flags chose says so: the router of the spec's scheme would refuse it
  const specScheme = event.signatureScheme?.name ?? "hmac-sha256-base64";
  const overridden =
    scheme && scheme.name !== specScheme
      ? ` (by --signature-encoding, not the spec's ${specScheme})`
      : "";
  const signed = request.scheme
    ? `, signed ${request.scheme.name} in ${event.signatureHeader}${overridden}`
    : "";
  show(
    `${event.kind} ${event.name}: ${event.method} ${shownUrl(url)} (${request.body.byteLength} bytes${signed})`,
  );
  const exchange = await send(url, event.method, headers, request.body, limits);
  if ("problem" in exchange) {
    show(`verdict: no answer: ${exchange.problem}`);
    return { code: 1 };
  }
  const { answer } = exchange;
  const cut = answer.text.length > shownAnswerLength;
  // the start of a credential cut off at the end is redacted too
  const start = cut
    ? `${redactor(secrets, true)(escapeControls(answer.text.slice(0, shownAnswerLength)))}…`
    : answer.text;
  show(`answer: ${answer.status} ${start}`);
  const result = { answer, json: parsed(answer.text) };
  // a receiver's refusal (a wrong secret, a replay) is what a security test expects
  if (options.expect === "refusal") {
    const refused = answer.status >= 400 && answer.status < 500;
    show(
      refused
        ? `verdict: ok, refused with ${answer.status}`
        : `verdict: wrong answer: expected a refusal (4xx), not ${answer.status}`,
    );
    return { code: refused ? 0 : 1, ...result };
  }
  let verdict: ReturnType<typeof judge>;
  try {
    verdict = judge(event, types, answer, options.expect);
  } catch (error) {
    // the checks never throw on any JSON value; should one, the run still ends in a verdict
    verdict = {
      kind: "failure",
      problem: `the answer could not be checked: ${(error as Error).message}`,
    };
  }
  if (verdict.problem) {
    show(`verdict: wrong ${verdict.kind} answer: ${verdict.problem}`);
    return { code: 1, ...result };
  }
  show(`verdict: ok, a ${verdict.kind} answer of the spec's ${verdict.kind} type`);
  return { code: 0, ...result };
}
