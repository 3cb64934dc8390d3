/**
 * The request loop shared by every generated endpoint method: validation, credentials,
 * headers, timeout, retries with back-off, and turning responses into values or errors.
 * Uses only fetch, AbortController, Headers and timers: Node 18+, browsers, Deno, Bun and
 * edge runtimes alike.
 */
import type { Validator } from "../validate.js";
import { validate } from "../validate.js";
import {
  ConnectionError,
  MissingCredentialError,
  RequestValidationError,
  ResponseParseError,
  TimeoutError,
  UserAbortError,
  redact,
} from "./errors.js";
import { errorDetails, tryParseJson, type ApiErrorClass } from "./response.js";
import { backoffMs, isRetryableStatus, neverReachedServer, retryAfterMs, sleep } from "./retry.js";

/** A credential value, or a function that returns one (called once per request). */
export type CredentialValue = string | (() => string | Promise<string>);

export interface ClientLogger {
  debug(message: string): void;
}

/** Options shared by every request of a client. */
export interface CoreOptions {
  /** Base address of the environment, e.g. the sandbox's. Required: the spec shows none. */
  baseUrl: string;
  /** fetch to use; default the global one. */
  fetch?: typeof fetch;
  /** Time for a whole attempt, response body included; default 60 000 ms. */
  timeoutMs?: number;
  /** Further attempts after the first; default 2. */
  maxRetries?: number;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Header that carries `idempotencyKey`; default `Idempotency-Key` (the spec does not name it). */
  idempotencyHeader?: string;
  /** Header that carries `nonce`; default `X-Nonce`. */
  nonceHeader?: string;
  /** Receives one line per attempt and retry; never a header or a credential. */
  logger?: ClientLogger;
}

/** Options of one call. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
  /** Sent in the idempotency header, the same on every attempt; makes a POST safe to retry. */
  idempotencyKey?: string;
  /** Sends a fresh nonce on every attempt: `true` for a random UUID, or a function making one. */
  nonce?: boolean | (() => string);
}

/** How an endpoint's credential travels. */
export interface CredentialSpec {
  /** Client option name, e.g. `apiKey`. */
  option: string;
  header: string;
  /** e.g. `Bearer`. */
  scheme?: string;
}

/** What the generated layer tells the core about one endpoint. */
export interface Operation {
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template, `{name}` for each path parameter. */
  path: string;
  credentials: readonly CredentialSpec[];
  /** Fixed headers of the endpoint, e.g. Content-Type. */
  headers: Readonly<Record<string, string>>;
  /**
   * Names of the parameters that follow the path, in order. The spec format does not say
   * how they are separated; they are sent as further path segments.
   */
  trailing?: readonly string[];
  validateParams?: Validator;
  validateBody?: Validator;
  /** Whether the spec shows the success body: then an empty or non-JSON one is an error. */
  documentedResponse: boolean;
}

export interface CallInput {
  /** Path and trailing parameters by name. */
  params?: Readonly<Record<string, QueryValue>>;
  /** Query parameters by name; undefined ones are left out, arrays repeat the name. */
  query?: Readonly<Record<string, QueryValue | readonly QueryValue[] | undefined>>;
  body?: unknown;
}

type QueryValue = string | number | boolean;

function queryString(query: CallInput["query"]): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

const unsafeMethods = new Set(["POST", "PATCH"]);

export class ClientCore {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly idempotencyHeader: string;
  private readonly nonceHeader: string;

  constructor(
    private readonly options: CoreOptions,
    private readonly credentials: Readonly<Record<string, CredentialValue | undefined>>,
    private readonly errorClass: ApiErrorClass,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.idempotencyHeader = options.idempotencyHeader ?? "Idempotency-Key";
    this.nonceHeader = options.nonceHeader ?? "X-Nonce";
  }

  /** Sends one call of `op`, retrying as allowed; resolves to the parsed body. */
  async request<T>(op: Operation, input: CallInput, call: RequestOptions = {}): Promise<T> {
    this.check(op, input);
    const { headers, secrets } = await this.headers(op, call);
    const segment = (name: string) => encodeURIComponent(String(input.params?.[name] ?? ""));
    const path =
      op.path.replace(/\{(\w+)\}/g, (_, name: string) => segment(name)) +
      (op.trailing ?? []).map((name) => `/${segment(name)}`).join("");
    const url = this.baseUrl + path + queryString(input.query);
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    const maxRetries = call.maxRetries ?? this.maxRetries;
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    const retrySafe = !unsafeMethods.has(op.method) || call.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted)
        throw new UserAbortError(`${op.id} was aborted`, op.id, { cause: call.signal.reason });
      if (call.nonce)
        headers.set(
          this.nonceHeader,
          typeof call.nonce === "function" ? call.nonce() : randomNonce(),
        );
      this.log(`${op.id} ${op.method} ${url} attempt ${attempt + 1}`, secrets);
      const outcome = await this.attempt(
        op,
        url,
        { method: op.method, headers, ...(body !== undefined ? { body } : {}) },
        timeoutMs,
        call.signal,
        secrets,
      );
      const canRetry =
        attempt < maxRetries &&
        (outcome.kind === "response"
          ? retrySafe && isRetryableStatus(outcome.status)
          : outcome.retryable || retrySafe);
      if (outcome.kind === "response" && outcome.status < 300)
        return this.parseSuccess<T>(op, outcome);
      if (!canRetry)
        throw outcome.kind === "response"
          ? new this.errorClass(
              errorDetails(op.id, outcome.status, outcome.text, outcome.headers, secrets),
            )
          : outcome.error;
      const wait =
        (outcome.kind === "response"
          ? retryAfterMs(outcome.headers.get("retry-after"))
          : undefined) ?? backoffMs(attempt);
      this.log(
        `${op.id} ${outcome.kind === "response" ? outcome.status : outcome.error.name}; retrying in ${Math.round(wait)} ms`,
        secrets,
      );
      try {
        await sleep(wait, call.signal);
      } catch (reason) {
        throw new UserAbortError(`${op.id} was aborted while waiting to retry`, op.id, {
          cause: reason,
        });
      }
    }
  }

  /** Local checks before anything is sent: the spec's rules and the needed credentials. */
  private check(op: Operation, input: CallInput): void {
    const params = { ...input.params, ...input.query };
    const issues = [
      ...(op.validateParams ? validate(op.validateParams, params, "params") : []),
      ...(op.validateBody ? validate(op.validateBody, input.body, "body") : []),
    ];
    if (issues.length) throw new RequestValidationError(op.id, issues);
    for (const c of op.credentials) {
      if (!this.credentials[c.option]) throw new MissingCredentialError(op.id, c.option, c.header);
    }
  }

  /**
   * The call's headers, and the secrets to redact from anything shown: every credential
   * given as a string, and the values this call resolved and sent.
   */
  private async headers(
    op: Operation,
    call: RequestOptions,
  ): Promise<{ headers: Headers; secrets: string[] }> {
    const headers = new Headers({
      Accept: "application/json",
      ...op.headers,
      ...this.options.headers,
      ...call.headers,
    });
    const secrets = Object.values(this.credentials).filter(
      (v): v is string => typeof v === "string",
    );
    for (const c of op.credentials) {
      const value = await resolve(this.credentials[c.option]!);
      secrets.push(value);
      headers.set(c.header, c.scheme ? `${c.scheme} ${value}` : value);
    }
    if (call.idempotencyKey !== undefined) headers.set(this.idempotencyHeader, call.idempotencyKey);
    return { headers, secrets };
  }

  /** One fetch with its own timeout, the whole body read inside it. */
  private async attempt(
    op: Operation,
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    secrets: string[],
  ): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let sent = false;
    try {
      const response = await this.fetch(url, { ...init, signal: controller.signal });
      sent = true;
      const text = await response.text();
      return { kind: "response", status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted)
        throw new UserAbortError(`${op.id} was aborted`, op.id, { cause: signal.reason });
      if (timedOut)
        return { kind: "failure", error: new TimeoutError(op.id, timeoutMs), retryable: false };
      const detail = redact(
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error),
        secrets,
      );
      const failure = new ConnectionError(`${op.id} could not reach the API: ${detail}`, op.id);
      return { kind: "failure", error: failure, retryable: !sent && neverReachedServer(error) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  private parseSuccess<T>(op: Operation, outcome: ResponseOutcome): T {
    if (outcome.text.trim() === "") {
      if (op.documentedResponse)
        throw new ResponseParseError(op.id, outcome.status, "an empty body");
      return undefined as T;
    }
    const parsed = tryParseJson(outcome.text);
    if (!parsed) throw new ResponseParseError(op.id, outcome.status, "a body that is not JSON");
    return parsed.value as T;
  }

  private log(message: string, secrets: string[]): void {
    this.options.logger?.debug(redact(message, secrets));
  }
}

interface ResponseOutcome {
  kind: "response";
  status: number;
  headers: Headers;
  text: string;
}

type Outcome =
  | ResponseOutcome
  | { kind: "failure"; error: ConnectionError | TimeoutError; retryable: boolean };

/** A random UUID v4; Node 18 has no global `crypto` unless started with a flag. */
export function randomNonce(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (webCrypto?.getRandomValues) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function resolve(value: CredentialValue): Promise<string> {
  return typeof value === "function" ? value() : value;
}
