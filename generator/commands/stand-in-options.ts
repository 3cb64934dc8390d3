/**
 * Options of the two stand-in modes, which start with a word: `mock --spec DIR [--port N]
 * [--seed N] [--keys FILE] [--deliver-to URL --secret S [--webhook-url URL]]` and
 * `trigger <event> --spec DIR --url URL --secret S [--body FILE] [--api-key K]
 * [--expect success|failure] [--timeout-ms N] [--max-answer-bytes N]`: their flags (for the
 * command table) and the checks that turn the parsed values into a mode.
 */
import { cliIo, fromCwd } from "../cli-io.ts";
import type { Flags, FlagValues } from "./flags.ts";
import { UsageError } from "./options.ts";

/** `mock`'s own flags. */
export const mockFlags: Flags = {
  port: {
    type: "string",
    value: "N",
    help: "port on 127.0.0.1 (default: 4010; 0 picks a free one)",
  },
  seed: { type: "string", value: "N", help: "seed of the generated responses (default: 1)" },
  keys: {
    type: "string",
    value: "FILE",
    help: "JSON file of valid keys and other-environment keys",
  },
  "deliver-to": {
    type: "string",
    value: "URL",
    help: "your server's base address: POST /_stand-in/deliveries/EVENT sends it there, signed",
  },
  "webhook-url": {
    type: "string",
    value: "URL",
    help: "whole address of webhook deliveries (default: --deliver-to)",
  },
  secret: {
    type: "string",
    value: "S",
    help: "the secret deliveries are signed with (with --deliver-to; or APIGEN_SIGNING_SECRET)",
  },
  overlay: {
    type: "string",
    value: "FILE",
    multiple: true,
    help: "an OpenAPI Overlay 1.0 file applied to a --spec document first (instead of the config's overlays); repeatable",
  },
};

/** `trigger`'s own flags. */
export const triggerFlags: Flags = {
  url: { type: "string", value: "URL", help: "the receiving server's base address (required)" },
  secret: {
    type: "string",
    value: "S",
    help: "the signing secret (required for an event the spec signs)",
  },
  body: { type: "string", value: "FILE", help: "JSON body to send instead of a generated one" },
  "api-key": { type: "string", value: "K", help: "API key the delivery carries" },
  seed: { type: "string", value: "N", help: "seed of the generated body" },
  expect: {
    type: "string",
    value: "KIND",
    help: "success, failure, or refusal (any 4xx: a wrong secret refused): the answer that passes",
  },
  "signature-encoding": {
    type: "string",
    value: "ENC",
    help: "base64 or hex: signs the body alone, in place of the spec's scheme (default: the spec's)",
  },
  "signature-prefix": {
    type: "string",
    value: "P",
    help: "text before the signature, e.g. sha256= (with --signature-encoding)",
  },
  "timeout-ms": {
    type: "string",
    value: "N",
    help: "longest wait for the whole answer, in ms (default: 10000)",
  },
  "max-answer-bytes": {
    type: "string",
    value: "N",
    help: "largest answer body read, in bytes (default: 1048576)",
  },
  overlay: {
    type: "string",
    value: "FILE",
    multiple: true,
    help: "an OpenAPI Overlay 1.0 file applied to a --spec document first (instead of the config's overlays); repeatable",
  },
};

export interface MockMode {
  kind: "mock";
  port: number;
  seed: number;
  keysFile?: string;
  /** Where the stand-in sends the events it is asked to deliver, and the secret it signs with. */
  deliver?: { url: string; webhookUrl?: string; secret: string };
}

export interface TriggerMode {
  kind: "trigger";
  event: string;
  url: string;
  /** Absent: the event must be one the spec does not sign (checked once the spec is loaded). */
  secret?: string;
  bodyFile?: string;
  apiKey?: string;
  expect?: "success" | "failure" | "refusal";
  seed?: number;
  signature?: { encoding: "base64" | "hex"; prefix?: string };
  timeoutMs?: number;
  maxAnswerBytes?: number;
}

/** A whole number within bounds, or the error naming the option. */
function whole(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
  min = 0,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max || Number(text) < min)
    throw new Error(
      `--${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`,
    );
  return Number(text);
}

type Values = Partial<
  Record<
    | "port"
    | "seed"
    | "keys"
    | "url"
    | "secret"
    | "body"
    | "api-key"
    | "expect"
    | "signature-encoding"
    | "signature-prefix"
    | "timeout-ms"
    | "max-answer-bytes"
    | "deliver-to"
    | "webhook-url",
    string
  >
>;

/** The string flags of parsed values (the table gives these commands no boolean flag). */
const strings = (values: FlagValues): Values =>
  Object.fromEntries(
    Object.entries(values).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );

/** `mock`'s mode from its parsed flags and arguments; throws UsageError. */
export function mockModeOf(values: FlagValues, positionals: string[]): MockMode {
  return usage(() => mockMode(strings(values), positionals));
}

/** `trigger`'s mode from its parsed flags and arguments; throws UsageError. */
export function triggerModeOf(values: FlagValues, positionals: string[]): TriggerMode {
  return usage(() => triggerMode(strings(values), positionals));
}

function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `mock [--port N] [--seed N] [--keys FILE]`. */
function mockMode(values: Values, positionals: string[]): MockMode {
  if (positionals.length > 0) throw new Error(`mock does not take ${positionals.join(", ")}`);
  return {
    kind: "mock",
    port: whole("port", values.port, 4010, 65535),
    seed: whole("seed", values.seed, 1, 2 ** 32 - 1),
    ...(values.keys !== undefined ? { keysFile: fromCwd(values.keys) } : {}),
    ...deliverOf(values),
  };
}

/** An absolute http(s) address, or the error naming the flag (never the value: it may hold a password). */
function address(flag: string, text: string): string {
  if (!/^https?:\/\//.test(text) || !URL.canParse(text))
    throw new Error(`--${flag} must be an absolute http(s) address, such as http://127.0.0.1:3000`);
  return text;
}

/**
 * `--deliver-to URL [--webhook-url URL] --secret S`: the secret may come from
 * APIGEN_SIGNING_SECRET instead, so it need not sit in a shell's history.
 */
function deliverOf(values: Values): Pick<MockMode, "deliver"> {
  const url = values["deliver-to"];
  if (url === undefined) {
    if (values["webhook-url"] !== undefined || values.secret !== undefined)
      throw new Error("--webhook-url and --secret go with --deliver-to");
    return {};
  }
  const secret = values.secret ?? cliIo().env.APIGEN_SIGNING_SECRET;
  if (!secret) throw new Error("--deliver-to needs --secret S (or APIGEN_SIGNING_SECRET set)");
  const webhookUrl = values["webhook-url"];
  return {
    deliver: {
      url: address("deliver-to", url),
      ...(webhookUrl !== undefined ? { webhookUrl: address("webhook-url", webhookUrl) } : {}),
      secret,
    },
  };
}

/**
 * `trigger EVENT --url URL --secret S [--body FILE] [--api-key K] [--seed N] [--expect KIND]
 * [--timeout-ms N] [--max-answer-bytes N]`.
 */
function triggerMode(values: Values, positionals: string[]): TriggerMode {
  if (positionals.length !== 1)
    throw new Error("trigger takes one event name: trigger EVENT --url URL --secret S");
  if (values.url === undefined) throw new Error("trigger needs --url (the receiving server)");
  const expect = values.expect as TriggerMode["expect"];
  if (expect !== undefined && expect !== "success" && expect !== "failure" && expect !== "refusal")
    throw new Error(
      `--expect takes success, failure or refusal, not ${JSON.stringify(values.expect)}`,
    );
  // the value is not repeated: it may hold a password
  if (!/^https?:\/\//.test(values.url) || !URL.canParse(values.url))
    throw new Error(
      "--url must be an absolute http(s) address, such as http://127.0.0.1:3000/callbacks",
    );
  return {
    kind: "trigger",
    event: positionals[0]!,
    url: values.url,
    ...(values.secret !== undefined ? { secret: values.secret } : {}),
    ...(values.body !== undefined ? { bodyFile: fromCwd(values.body) } : {}),
    ...(values["api-key"] !== undefined ? { apiKey: values["api-key"] } : {}),
    ...(expect !== undefined ? { expect } : {}),
    ...(values.seed !== undefined ? { seed: whole("seed", values.seed, 1, 2 ** 32 - 1) } : {}),
    ...(values["timeout-ms"] !== undefined
      ? { timeoutMs: whole("timeout-ms", values["timeout-ms"], 0, 2 ** 31 - 1, 1) }
      : {}),
    ...(values["max-answer-bytes"] !== undefined
      ? { maxAnswerBytes: whole("max-answer-bytes", values["max-answer-bytes"], 0, 2 ** 53 - 1) }
      : {}),
    ...signatureFormat(values),
  };
}

/** `--signature-encoding base64|hex` and `--signature-prefix P`, when given. */
function signatureFormat(values: Values): Pick<TriggerMode, "signature"> {
  const encoding = values["signature-encoding"];
  const prefix = values["signature-prefix"];
  if (encoding === undefined && prefix === undefined) return {};
  if (encoding !== undefined && encoding !== "base64" && encoding !== "hex")
    throw new Error(`--signature-encoding takes base64 or hex, not ${JSON.stringify(encoding)}`);
  return {
    signature: { encoding: encoding ?? "base64", ...(prefix !== undefined ? { prefix } : {}) },
  };
}
