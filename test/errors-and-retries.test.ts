/**
 * The client of test/fixtures/features/errors-and-retries: error codes, string and numeric,
 * that narrow on `===` and `case` while codes the spec does not list still compile (checked
 * with TypeScript 6 and the native TypeScript 7), and statuses the spec marks
 * `notProcessed`, retried for every method against a server on 127.0.0.1, where a plain
 * retried status is not retried for a POST or PATCH without an idempotency key.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { TestServer, type Responder } from "./support/test-server.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

type Call = (...args: unknown[]) => Promise<unknown>;
interface Client {
  charges: Record<"create" | "get", Call>;
  ledger: Record<"update", Call>;
}
interface Generated {
  ErrorsClient: new (options: Record<string, unknown>) => Client;
  ErrorsApiError: new (...args: never[]) => Error;
  ErrorCode: Record<string, number | string>;
}

const fixture = "test/fixtures/features/errors-and-retries";
let out: string;
/** The same spec without any `notProcessed`: its 429 and 503 are plain retried statuses. */
let plainOut: string;
let mod: Generated;
let plain: Generated;
let server: TestServer;

beforeAll(async () => {
  out = tempDir("apigen-errors-");
  await writeGenerated(fixture, out);
  compileInPlace(out);
  mod = await importCompiled<Generated>(join(out, "src/index.ts"));
  const spec = tempDir("apigen-errors-plain-spec-");
  cpSync(join(repoRoot, fixture), spec, { recursive: true });
  const api = join(spec, "api.yaml");
  const text = readFileSync(api, "utf8");
  expect(text).toContain("notProcessed: true");
  writeFileSync(api, text.replace(/,? ?notProcessed: true/g, ""));
  plainOut = tempDir("apigen-errors-plain-");
  await writeGenerated(spec, plainOut);
  compileInPlace(plainOut);
  rmSync(spec, { recursive: true, force: true });
  plain = await importCompiled<Generated>(join(plainOut, "src/index.ts"));
  server = await TestServer.start();
});

afterAll(async () => {
  await server.stop();
  rmSync(out, { recursive: true, force: true });
  rmSync(plainOut, { recursive: true, force: true });
});

const consumer = `
import { ErrorCode, ErrorsApiError, type ApiErrorCode } from "./index.js";

/** The snippet of issue 32, item 1, word for word. */
export function issueSnippet(error: ErrorsApiError): void {
  if (error.code === ErrorCode.cardDeclined) { const c: "card_declined" = error.code; void c; }
}

export function byComparison(error: ErrorsApiError): string {
  if (error.code === ErrorCode.cardDeclined) {
    const c: "card_declined" = error.code;
    // @ts-expect-error narrowed to card_declined: not another known code
    const other: "expired_card" = error.code;
    return c + String(other);
  }
  if (error.code === ErrorCode.apiKeyRejected) {
    const n: 1005 = error.code;
    return String(n);
  }
  // @ts-expect-error without a comparison the code is any code
  const unnarrowed: "card_declined" = error.code;
  return String(unnarrowed);
}

export function bySwitch(error: ErrorsApiError): string {
  switch (error.code) {
    case ErrorCode.cardDeclined: {
      const c: "card_declined" = error.code;
      return c;
    }
    case ErrorCode.expiredCard: {
      const c: "expired_card" = error.code;
      return c;
    }
    case ErrorCode.code2001: {
      const n: 2001 = error.code;
      return String(n);
    }
    case "insufficient_funds": // a code the spec does not list compiles
      return error.code;
    case 7:
      return String(error.code);
    case undefined:
      return "no code";
    default:
      return String(error.code);
  }
}

/** Every entry of the body: its code narrows the same way. */
export function entries(error: ErrorsApiError): string[] {
  return error.errors.map((entry) => {
    if (entry.code === ErrorCode.rateLimited) {
      const c: "rate_limited" = entry.code;
      return c;
    }
    if (entry.code === ErrorCode.apiKeyRejected) {
      const n: 1005 = entry.code;
      return String(n);
    }
    return entry.code === "some_new_code" ? "new" : String(entry.code);
  });
}

/** The body is the API's error body (errors.body), or the text of one that is not JSON. */
export function bodyOf(error: ErrorsApiError): string {
  if (typeof error.body === "string") return error.body;
  const message: string = error.body.error.message;
  const code: string | number | undefined = error.body.error.code;
  // @ts-expect-error the body has the fields of ErrorBody only
  return message + String(code) + String(error.body.nonsense);
}

/** Codes the spec does not list are still codes: compared, assigned, passed on. */
export function unknownCodes(error: ErrorsApiError, fromLog: string): boolean {
  const given: ApiErrorCode = fromLog;
  const numeric: ApiErrorCode = 42;
  const known: ApiErrorCode = ErrorCode.cardDeclined;
  return error.code === "unlisted_code" || error.code === given || error.code === numeric || error.code === known;
}
`;

describe("error codes narrow where they are compared, and unknown codes still compile", () => {
  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])("type-checks strict with %s", (_name, tsc) => {
    writeFileSync(join(out, "src/consumer.ts"), consumer);
    // TypeScript 6 against the runtime's declarations; 7 checks the runtime's sources too
    const project = tsc === typescript6 ? withRuntimeDeclarations(out) : out;
    const run = runTypeScript(tsc, ["-p", join(project, "tsconfig.json")]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("types the alias with plain number and string beside the known codes", () => {
    const errors = readFileSync(join(out, "src/errors.ts"), "utf8");
    expect(errors).toContain("export type ApiErrorCode = ErrorCode | number | string;");
  });

  it("reads a string code and a numeric one off the answers", async () => {
    const client = new mod.ErrorsClient({ baseUrl: server.url, token: "t", maxRetries: 0 });
    server.json(402, { error: { code: "card_declined", message: "Your card was declined." } });
    const declined = (await rejection(client.charges.create({ amount: 1, currency: "usd" })))!;
    expect(declined).toBeInstanceOf(mod.ErrorsApiError);
    expect(declined.code).toBe(mod.ErrorCode.cardDeclined);
    server.json(404, { errors: [{ code: 2001, message: "No such entry." }] });
    const missing = (await rejection(client.ledger.update(7, { note: "x" })))!;
    expect(missing.code).toBe(2001);
  });
});

describe("the stand-in answers errors with the API's error body (errors.body)", () => {
  it("puts the refusal's message inside ErrorBody's error object", async () => {
    const testing = (await importCompiled(join(out, "src/testing.ts"))) as {
      createStandIn(o: unknown): { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn({ keys: { token: { valid: ["t"] } } });
    const res = await standIn.fetch(new Request("http://stand-in.test/v1/charges/ch_1"));
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { message: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.message).toMatch(/Authorization/);
  });
});

async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown> | undefined> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  return undefined;
}

/** Answers `status` (with Retry-After) to the first request, then 200 with `body`. */
function failThenOk(status: number, body: unknown, retryAfter = "0"): void {
  const failure: Responder = (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", "retry-after": retryAfter });
    res.end(JSON.stringify({ error: { code: "rate_limited", message: "Slow down." } }));
  };
  const ok: Responder = (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  server.sequence(failure, ok);
}

const charge = { id: "ch_1", amount: 100, status: "succeeded" };
const entry = { id: 7, note: "checked" };
const clientOf = (generated: Generated, options: Record<string, unknown> = {}) =>
  new generated.ErrorsClient({
    baseUrl: server.url,
    token: "sk_test",
    timeoutMs: 5000,
    retryBackoffMs: 1,
    ...options,
  });

describe("statuses marked notProcessed are retried for every method", () => {
  it("a POST without an idempotency key is retried on the marked 429, after its Retry-After", async () => {
    failThenOk(429, charge, "0.2");
    const started = Date.now();
    const created = await clientOf(mod, { maxRetries: 2 }).charges.create({
      amount: 100,
      currency: "usd",
    });
    expect(created).toEqual(charge);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(server.requests.every((r) => r.headers["idempotency-key"] === undefined)).toBe(true);
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
  });

  it("a PATCH without an idempotency key is retried on the marked 503", async () => {
    failThenOk(503, entry);
    await expect(
      clientOf(mod, { maxRetries: 1 }).ledger.update(7, { note: "checked" }),
    ).resolves.toEqual(entry);
    expect(server.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
  });

  it("no more than maxRetries times", async () => {
    server.json(429, { error: { code: "rate_limited" } }, { "retry-after": "0" });
    const error = await rejection(
      clientOf(mod, { maxRetries: 2 }).charges.create({ amount: 1, currency: "usd" }),
    );
    expect(error).toBeInstanceOf(mod.ErrorsApiError);
    expect(error!.status).toBe(429);
    expect(error!.code).toBe("rate_limited");
    expect(server.requests).toHaveLength(3);
  });

  it("a status marked only retry: true (409) is not retried for a POST without a key, and is with one", async () => {
    failThenOk(409, charge);
    const client = clientOf(mod, { maxRetries: 2 });
    const error = await rejection(client.charges.create({ amount: 1, currency: "usd" }));
    expect(error!.status).toBe(409);
    expect(server.requests).toHaveLength(1);
    failThenOk(409, charge);
    await expect(
      client.charges.create({ amount: 1, currency: "usd" }, { idempotencyKey: "order-1" }),
    ).resolves.toEqual(charge);
    expect(server.requests).toHaveLength(2);
  });
});

describe("the same spec without notProcessed: a plain 429", () => {
  it("is not retried for a POST without an idempotency key", async () => {
    failThenOk(429, charge);
    const error = await rejection(
      clientOf(plain, { maxRetries: 2 }).charges.create({ amount: 1, currency: "usd" }),
    );
    expect(error).toBeInstanceOf(plain.ErrorsApiError);
    expect(error!.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("nor a PATCH on a plain 503", async () => {
    failThenOk(503, entry);
    const error = await rejection(
      clientOf(plain, { maxRetries: 2 }).ledger.update(7, { note: "x" }),
    );
    expect(error!.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it("is retried for a GET, as before", async () => {
    failThenOk(429, charge);
    await expect(clientOf(plain, { maxRetries: 2 }).charges.get("ch_1")).resolves.toEqual(charge);
    expect(server.requests).toHaveLength(2);
  });
});
