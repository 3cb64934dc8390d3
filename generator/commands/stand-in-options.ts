/**
 * Options of the two stand-in modes, which start with a word: `mock --spec DIR [--port N]
 * [--seed N] [--keys FILE]` and `trigger <event> --spec DIR --url URL --secret S [--body FILE]
 * [--api-key K] [--expect success|failure]`. Parsed here so options.ts only hands them on.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export const standInUsage = `
  mock [--spec DIR] [--port N] [--seed N] [--keys FILE]
                            serve a stand-in of the spec's service on 127.0.0.1 (docs/testing.md)
  trigger EVENT --url URL --secret S [--spec DIR] [--body FILE] [--api-key K] [--seed N]
          [--expect success|failure] [--signature-encoding base64|hex] [--signature-prefix P]
                            send one signed callback or webhook delivery and judge the answer`;

export interface MockMode {
  kind: "mock";
  port: number;
  seed: number;
  keysFile?: string;
}

export interface TriggerMode {
  kind: "trigger";
  event: string;
  url: string;
  secret: string;
  bodyFile?: string;
  apiKey?: string;
  expect?: "success" | "failure";
  seed?: number;
  signature?: { encoding: "base64" | "hex"; prefix?: string };
}

/** A whole number within bounds, or the error naming the option. */
function whole(name: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new Error(`--${name} takes a whole number from 0 to ${max}, not ${JSON.stringify(text)}`);
  return Number(text);
}

type Values = {
  spec: string;
  port?: string | undefined;
  seed?: string | undefined;
  keys?: string | undefined;
  url?: string | undefined;
  secret?: string | undefined;
  body?: string | undefined;
  "api-key"?: string | undefined;
  expect?: string | undefined;
  "signature-encoding"?: string | undefined;
  "signature-prefix"?: string | undefined;
};

/** The flags among `names` that were given, as `--name`. */
const given = (values: Values, names: (keyof Values)[]) =>
  names.filter((n) => values[n] !== undefined).map((n) => `--${n}`);

/** The spec folder and mode of `mock ...` or `trigger ...`; throws with a message on bad flags. */
export function parseStandInArgs(argv: string[]): {
  specDir: string;
  mode: MockMode | TriggerMode;
} {
  const [word, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      spec: { type: "string", default: "spec" },
      port: { type: "string" },
      seed: { type: "string" },
      keys: { type: "string" },
      url: { type: "string" },
      secret: { type: "string" },
      body: { type: "string" },
      "api-key": { type: "string" },
      expect: { type: "string" },
      "signature-encoding": { type: "string" },
      "signature-prefix": { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  const mode = word === "mock" ? mockMode(values, positionals) : triggerMode(values, positionals);
  return { specDir: resolve(values.spec), mode };
}

/** `mock [--port N] [--seed N] [--keys FILE]`. */
function mockMode(values: Values, positionals: string[]): MockMode {
  const triggerOnly = ["url", "secret", "body", "api-key", "expect"] as const;
  const signing = ["signature-encoding", "signature-prefix"] as const;
  const wrong = [...given(values, [...triggerOnly, ...signing]), ...positionals];
  if (wrong.length > 0) throw new Error(`mock does not take ${wrong.join(", ")}`);
  return {
    kind: "mock",
    port: whole("port", values.port, 4010, 65535),
    seed: whole("seed", values.seed, 1, 2 ** 32 - 1),
    ...(values.keys !== undefined ? { keysFile: resolve(values.keys) } : {}),
  };
}

/** `trigger EVENT --url URL --secret S [--body FILE] [--api-key K] [--seed N] [--expect KIND]`. */
function triggerMode(values: Values, positionals: string[]): TriggerMode {
  const wrong = given(values, ["port", "keys"]);
  if (wrong.length > 0) throw new Error(`trigger does not take ${wrong.join(", ")}`);
  if (positionals.length !== 1)
    throw new Error("trigger takes one event name: trigger EVENT --url URL --secret S");
  if (values.url === undefined || values.secret === undefined)
    throw new Error("trigger needs --url (the merchant server) and --secret (the signing secret)");
  if (values.expect !== undefined && values.expect !== "success" && values.expect !== "failure")
    throw new Error(`--expect takes success or failure, not ${JSON.stringify(values.expect)}`);
  if (!/^https?:\/\//.test(values.url) || !URL.canParse(values.url))
    throw new Error(`--url must be an absolute http(s) address, not ${JSON.stringify(values.url)}`);
  return {
    kind: "trigger",
    event: positionals[0]!,
    url: values.url,
    secret: values.secret,
    ...(values.body !== undefined ? { bodyFile: resolve(values.body) } : {}),
    ...(values["api-key"] !== undefined ? { apiKey: values["api-key"] } : {}),
    ...(values.expect !== undefined ? { expect: values.expect } : {}),
    ...(values.seed !== undefined ? { seed: whole("seed", values.seed, 1, 2 ** 32 - 1) } : {}),
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
