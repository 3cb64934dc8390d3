/**
 * `trigger <event>`: sends one callback or webhook delivery to a merchant server as the
 * service would (the spec's method, path, headers and keys, a body built from the event's
 * request type or read from a file, signed with the given secret under the default scheme
 * of runtime/callbacks/signature.ts), then checks the answer against the event's success or
 * failure type and prints a verdict. Exit status 1 on a wrong answer, 2 on a usage problem.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import type { TriggerEvent } from "../ir/stand-in-model.ts";
import { encodeBase64 } from "../runtime/callbacks/base64.ts";
import { hmacSha256, signBody } from "../runtime/callbacks/signature.ts";
import { sample, seeded } from "../runtime/testing/sample.ts";
import type { ShapeTable } from "../runtime/testing/shape.ts";
import { validate } from "../runtime/validate.ts";
import { shapeValidator } from "./shape-check.ts";

export interface TriggerOptions {
  /** The callback's event name (`product.info`), a webhook event, or `webhook`. */
  event: string;
  specDir: string;
  /** The merchant server's base address for callbacks; the whole address for a webhook. */
  url: string;
  secret: string;
  /** A file whose bytes are sent as the body instead of a built one. */
  bodyFile?: string;
  /** The body's text, instead of a built one (for tests that call the trigger in-process). */
  body?: string;
  /** Values of parameters after the path (`account.login`'s `code`), instead of built ones. */
  params?: Readonly<Record<string, string>>;
  /**
   * How the signature header is written when the service does not use the default
   * (base64 of the HMAC-SHA256): `hex` digits, after a `prefix` such as GitHub's `sha256=`.
   */
  signature?: { encoding: "base64" | "hex"; prefix?: string };
  /** Value of the key headers the service sends along (default `stand-in-key`). */
  apiKey?: string;
  seed?: number;
  /** Also fail when the answer is of the other kind. */
  expect?: "success" | "failure";
  /** Longest wait for the answer, in ms (default 10 s). */
  timeoutMs?: number;
}

/** What one delivery got back. */
export interface Answer {
  status: number;
  text: string;
}

/** Sends bytes with node:http(s): a GET may carry a body, as the spec's callbacks do. */
function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array,
  timeoutMs: number,
): Promise<Answer> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** The address of an event: the base plus the spec's path and any trailing parameters. */
function targetOf(
  event: TriggerEvent,
  options: TriggerOptions,
  types: ShapeTable,
  seed: number,
): URL {
  const random = seeded(seed + 1);
  const base = options.url;
  const trailing = event.trailing.map((p) =>
    encodeURIComponent(options.params?.[p.name] ?? String(sample(p.shape, types, random))),
  );
  const path = [event.path, ...trailing].filter((p) => p !== "").join("/");
  return new URL(base.replace(/\/+$/, "") + (path.startsWith("/") || !path ? path : `/${path}`));
}

/** The signature header's value: the default scheme, or the encoding and prefix asked for. */
async function signature(body: Uint8Array<ArrayBuffer>, options: TriggerOptions): Promise<string> {
  const format = options.signature;
  if (!format || (format.encoding === "base64" && !format.prefix))
    return signBody(options.secret, body);
  const digest = await hmacSha256(options.secret, body);
  const text =
    format.encoding === "hex"
      ? [...digest].map((b) => b.toString(16).padStart(2, "0")).join("")
      : encodeBase64(digest);
  return `${format.prefix ?? ""}${text}`;
}

/** The headers of a delivery, signature last (it covers the body exactly as sent). */
async function headersOf(
  event: TriggerEvent,
  body: Uint8Array<ArrayBuffer>,
  options: TriggerOptions,
) {
  const headers: Record<string, string> = Object.fromEntries(event.headers);
  for (const key of event.keyHeaders)
    headers[key.header] =
      `${key.scheme ? `${key.scheme} ` : ""}${options.apiKey ?? "stand-in-key"}`;
  if (event.eventHeader) headers[event.eventHeader] = event.name;
  if (event.signatureHeader) headers[event.signatureHeader] = await signature(body, options);
  headers["Content-Length"] = String(body.byteLength);
  return headers;
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
    value = answer.text === "" ? undefined : JSON.parse(answer.text);
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
  print: (line: string) => void = console.log,
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

/** Sends one delivery; the model comes from the spec folder (its diagnostics are thrown). */
export async function trigger(
  options: TriggerOptions,
  print: (line: string) => void = () => undefined,
): Promise<TriggerResult> {
  const { runPipeline } = await import("../pipeline.ts");
  // Nothing is written: the output folder is only named, and names no existing folder.
  const outDir = join(options.specDir, ".apigen-trigger-no-output");
  const { model } = runPipeline({ specDir: options.specDir, outDir });
  const { events, eventTypes: types } = model.standIn;
  const event = events.find((e) => e.name === options.event);
  if (!event) {
    print(
      `unknown event ${JSON.stringify(options.event)}; the spec has: ${events.map((e) => e.name).join(", ")}`,
    );
    return { code: 2 };
  }
  const seed = options.seed ?? 1;
  const body: Uint8Array<ArrayBuffer> = options.bodyFile
    ? readBodyFile(options.bodyFile)
    : new TextEncoder().encode(
        options.body ?? (event.body ? JSON.stringify(sample(event.body, types, seeded(seed))) : ""),
      );
  const url = targetOf(event, options, types, seed);
  const headers = await headersOf(event, body, options);
  const signed = event.signatureHeader ? `, signed in ${event.signatureHeader}` : "";
  print(
    `${event.kind} ${event.name}: ${event.method} ${url.href} (${body.byteLength} bytes${signed})`,
  );
  let answer: Answer;
  try {
    answer = await send(url, event.method, headers, body, options.timeoutMs ?? 10_000);
  } catch (error) {
    print(`verdict: no answer: ${(error as Error).message}`);
    return { code: 1 };
  }
  print(
    `answer: ${answer.status} ${answer.text.length > 400 ? `${answer.text.slice(0, 400)}…` : answer.text}`,
  );
  const verdict = judge(event, types, answer, options.expect);
  const result = { answer, json: parsed(answer.text) };
  if (verdict.problem) {
    print(`verdict: wrong ${verdict.kind} answer: ${verdict.problem}`);
    return { code: 1, ...result };
  }
  print(`verdict: ok, a ${verdict.kind} answer of the spec's ${verdict.kind} type`);
  return { code: 0, ...result };
}
