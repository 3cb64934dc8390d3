/**
 * Hostile answers for the trigger fuzzer (test/fuzz/trigger.fuzz.test.ts): what a merchant
 * server on 127.0.0.1 writes back to one delivery, as raw bytes (test/raw-server.ts): the
 * status line (any status, HTTP/1.0, an interim 100 first, garbage, none), the framing (an
 * honest or lying Content-Length, chunked or broken chunks, a body to the close, one that
 * never ends, a trickle, a stall, a huge announced length), extra headers (a huge one), the
 * body (an answer of the spec's success or failure type, random or deep JSON, bytes that are
 * not UTF-8, terminal escapes, the credentials echoed in every spelling the trigger promises
 * to redact) and how the connection ends. The credentials of a case (secret, API key, the
 * user and password of the URL) are part of it, so the server can echo them.
 */
import type { Socket } from "node:net";
import fc from "fast-check";
import { writeEvery } from "../raw-server.ts";

/** The credentials of one delivery. */
export interface Credentials {
  secret: string;
  apiKey: string | undefined;
  /** The user and password put in `--url`, as written (unescaped). */
  user: string | undefined;
  password: string | undefined;
}

export type Head = "ok" | "status" | "http10" | "interim" | "garbage" | "none";
export type Framing =
  | "length"
  | "lengthLong"
  | "lengthShort"
  | "chunked"
  | "chunkedBroken"
  | "toClose"
  | "endless"
  | "trickle"
  | "stall"
  | "hugeAnnounced";
export type BodyKind =
  | "success"
  | "failure"
  | "json"
  | "deep"
  | "bytes"
  | "notUtf8"
  | "escapes"
  | "echo"
  | "empty"
  | "big";
export type Ending = "keep" | "close" | "reset";

export interface AnswerScript {
  head: Head;
  status: number;
  framing: Framing;
  extraHeaders: [string, string][];
  body: BodyKind;
  /** Random JSON or bytes for the `json` and `bytes` bodies; a seed for the others. */
  json: unknown;
  bytes: Uint8Array;
  ending: Ending;
}

export interface TriggerCase {
  event: "product.info" | "order.shipping" | "cart.update" | "account.login" | "webhook";
  credentials: Credentials;
  timeoutMs: number;
  maxAnswerBytes: number;
  script: AnswerScript;
}

/**
 * Characters of credentials: letters, digits and those a URL or JSON must escape. ASCII
 * only: the redactor does not know the percent-encoding of other characters (docs/security.md).
 */
const credentialChars = [...'abcdefghijkXYZ0123456789-_./+:@ %"\\&'];
const credential = (min: number) =>
  fc
    .string({ unit: fc.constantFrom(...credentialChars), minLength: min, maxLength: 20 })
    // a credential is never only spaces: redacting those would blank the whole output
    .filter((s) => s.trim().length >= min);

const script: fc.Arbitrary<AnswerScript> = fc.record({
  head: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Head>("ok") },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Head>("status", "http10", "interim", "garbage", "none"),
    },
  ),
  status: fc.oneof(
    fc.constantFrom(200, 201, 204, 301, 400, 401, 404, 422, 500, 503),
    fc.integer({ min: 100, max: 999 }),
  ),
  framing: fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom<Framing>("length", "chunked", "toClose") },
    {
      weight: 4,
      arbitrary: fc.constantFrom<Framing>(
        "lengthLong",
        "lengthShort",
        "chunkedBroken",
        "endless",
        "hugeAnnounced",
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom<Framing>("trickle", "stall") },
  ),
  extraHeaders: fc.array(
    fc.oneof(
      fc.tuple(fc.stringMatching(/^x-[a-z]{1,8}$/), fc.stringMatching(/^[!-~]{0,30}$/)),
      fc.constant<[string, string]>(["content-type", "application/json"]),
      fc.constant<[string, string]>(["x-huge", "h".repeat(20_000)]),
      fc.constant<[string, string]>(["content-encoding", "gzip"]),
    ),
    { maxLength: 2 },
  ),
  body: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<BodyKind>("success", "failure", "echo") },
    {
      weight: 5,
      arbitrary: fc.constantFrom<BodyKind>(
        "json",
        "deep",
        "bytes",
        "notUtf8",
        "escapes",
        "empty",
        "big",
      ),
    },
  ),
  json: fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text) as unknown),
  bytes: fc.uint8Array({ maxLength: 300 }),
  ending: fc.constantFrom<Ending>("keep", "close", "close", "reset"),
});

export const triggerCase: fc.Arbitrary<TriggerCase> = fc.record({
  event: fc.constantFrom(
    "product.info",
    "order.shipping",
    "cart.update",
    "account.login",
    "webhook",
  ),
  credentials: fc.record({
    secret: credential(8),
    apiKey: fc.option(credential(8), { nil: undefined }),
    user: fc.option(credential(4), { nil: undefined }),
    password: fc.option(credential(8), { nil: undefined }),
  }),
  timeoutMs: fc.integer({ min: 150, max: 300 }),
  maxAnswerBytes: fc.constantFrom(0, 1000, 4096, 64 * 1024),
  script,
});

/** Every spelling of `value` the trigger promises to redact (docs/security.md, "The trigger"). */
export function spellings(value: string): string[] {
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(4, "0");
  return [
    value,
    value.toUpperCase(),
    JSON.stringify(value).slice(1, -1),
    [...value].map((c) => `\\u${hex(c)}`).join(""),
    encodeURIComponent(value),
    [...value].map((c) => `&#${c.charCodeAt(0)};`).join(""),
  ];
}

/** The Basic token node sends for the user and password of a URL, when it has either. */
export function basicToken(c: Credentials): string | undefined {
  if (c.user === undefined && c.password === undefined) return undefined;
  return Buffer.from(`${c.user ?? ""}:${c.password ?? ""}`).toString("base64");
}

/** The credentials of a case that are long enough to redact (at least 4 characters). */
export function secretsOf(c: Credentials): string[] {
  const token = basicToken(c);
  return [c.secret, c.apiKey, c.user, c.password, token].filter(
    (s): s is string => s !== undefined && s.length >= 4,
  );
}

/** The body bytes of a script; `success` and `failure` come from `answers`, made from the spec's types. */
export function bodyOf(
  s: AnswerScript,
  c: Credentials,
  request: string,
  answers: { success: string; failure: string },
  maxAnswerBytes: number,
): Buffer {
  switch (s.body) {
    case "success":
      return Buffer.from(answers.success);
    case "failure":
      return Buffer.from(answers.failure);
    case "json":
      return Buffer.from(JSON.stringify(s.json) ?? "null");
    case "deep":
      return Buffer.from(`${"[".repeat(20_000)}${"]".repeat(20_000)}`);
    case "bytes":
      return Buffer.from(s.bytes);
    case "notUtf8":
      return Buffer.concat([
        Buffer.from('{"status":"'),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('"}'),
      ]);
    case "escapes":
      return Buffer.from("\u001b[2J\u001b]0;owned\u0007\r\u009b31m\u0000text");
    case "echo": {
      // the request as received (its Authorization and key headers) and every credential spelled out
      const spelled = secretsOf(c).flatMap(spellings);
      return Buffer.from(
        JSON.stringify({ request, spelled, tail: `${"x".repeat(390)}${c.secret}` }),
      );
    }
    case "empty":
      return Buffer.alloc(0);
    case "big":
      return Buffer.alloc(maxAnswerBytes + 1 + (s.bytes.length % 100), "a");
    default: {
      const unhandled: never = s.body;
      throw new Error(`unknown body ${String(unhandled)}`);
    }
  }
}

/** The status line and headers of a script (framing headers included), before the body. */
function headOf(s: AnswerScript, body: Buffer): string {
  const lines: string[] = [];
  const framingHeaders: string[] = [];
  switch (s.framing) {
    case "length":
      framingHeaders.push(`Content-Length: ${body.byteLength}`);
      break;
    case "lengthLong":
    case "trickle":
    case "stall":
      // more than comes in time: a trickle sends a byte every 30 ms
      framingHeaders.push(`Content-Length: ${body.byteLength + 1000}`);
      break;
    case "lengthShort":
      framingHeaders.push(`Content-Length: ${Math.max(0, body.byteLength - 5)}`);
      break;
    case "chunked":
    case "chunkedBroken":
      framingHeaders.push("Transfer-Encoding: chunked");
      break;
    case "hugeAnnounced":
      framingHeaders.push("Content-Length: 10000000000");
      break;
    case "toClose":
    case "endless":
      break;
  }
  const status = `${s.status} Whatever`;
  switch (s.head) {
    case "ok":
    case "status":
      lines.push(`HTTP/1.1 ${s.head === "ok" ? "200 OK" : status}`);
      break;
    case "http10":
      lines.push(`HTTP/1.0 ${status}`);
      break;
    case "interim":
      lines.push(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 ${status}`);
      break;
    case "garbage":
      lines.push("HTTP/1.1 2x0 Maybe\r\nnot a header");
      break;
    case "none":
      break;
  }
  lines.push(...framingHeaders, ...s.extraHeaders.map(([n, v]) => `${n}: ${v}`));
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Plays a script on a connection: the head, the body as framed, then the ending. */
export async function play(socket: Socket, s: AnswerScript, body: Buffer): Promise<void> {
  const write = (data: string | Buffer) => {
    if (!socket.destroyed) socket.write(data);
  };
  const end = () => {
    if (s.ending === "close") socket.end();
    else if (s.ending === "reset") socket.resetAndDestroy();
  };
  // no answer at all: silence, a close or a reset
  if (s.head === "none") return end();
  write(headOf(s, body));
  switch (s.framing) {
    case "length":
    case "lengthLong":
    case "lengthShort":
    case "toClose":
      write(body);
      break;
    case "chunked":
      if (body.byteLength > 0)
        (write(`${body.byteLength.toString(16)}\r\n`), write(body), write("\r\n"));
      write("0\r\n\r\n");
      break;
    case "chunkedBroken":
      write(`zz\r\n${body.toString("latin1")}\r\n`);
      break;
    case "endless":
      // a kilobyte every 2 ms until the trigger hangs up (5 s at most)
      await writeEvery(socket, Buffer.alloc(1024, "1"), 2, 5_000);
      return;
    case "trickle":
      await writeEvery(socket, " ", 30, 5_000);
      return;
    case "stall":
      // the head, then nothing: the deadline must end it
      return;
    case "hugeAnnounced":
      write(body.subarray(0, 100));
      return;
  }
  end();
}
