/**
 * The request loop shared by every generated endpoint function: validation, credentials,
 * headers, timeout, redirects within the origin, retries with bounded back-off, bodies read
 * up to their limits, and turning responses into values or typed errors.
 * Uses only fetch, AbortController and timers: Node 18+, browsers, Deno, Bun and edge
 * runtimes alike.
 *
 * It runs on every call, so what depends only on the endpoint is worked out once by
 * `operation()` when the generated module loads, what depends only on the client once in
 * its constructor, and a call that needs no retry allocates little beyond its headers.
 */
import { discard, readText } from "./body.js";
import { deadline } from "./deadline.js";
import {
  ClientError,
  ConnectionError,
  MissingCredentialError,
  ResponseParseError,
  ResponseTooLargeError,
  TimeoutError,
  UserAbortError,
} from "./errors.js";
import {
  check,
  lowerKeys,
  pathOf,
  queryString,
  randomNonce,
  serialize,
  type Operation,
  type PathParams,
  type QueryParams,
} from "./operation.js";
import { redact } from "./redact.js";
import { baseAddress, redirectHop, type Hop, type HopContext } from "./redirect.js";
import { errorDetails, type ApiErrorClass } from "./response.js";
import { backoffMs, isRetryableStatus, neverReachedServer, retryAfterMs, sleep } from "./retry.js";

export {
  operation,
  randomNonce,
  type CredentialSpec,
  type Operation,
  type OperationSpec,
  type PathParams,
  type QueryParams,
} from "./operation.js";

/** A credential value, or a function that returns one (called once per request). */
export type CredentialValue = string | (() => string | Promise<string>);

export interface ClientLogger {
  debug(message: string): void;
}

/** Options shared by every request of a client. */
export interface CoreOptions {
  /**
   * Base address of the environment, e.g. the sandbox's. Required: the spec shows none. An
   * http: or https: URL without user name, password, query or fragment (relative to the
   * page in a browser); anything else is refused at construction (`ClientOptionsError`).
   */
  baseUrl: string;
  /** fetch to use; default the global one. */
  fetch?: typeof fetch;
  /** Time for a whole attempt, response body included; default 60 000 ms; 0 or Infinity for none. */
  timeoutMs?: number;
  /** Further attempts after the first; default 2. */
  maxRetries?: number;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Header that carries `idempotencyKey`; default `Idempotency-Key` (the spec does not name it). */
  idempotencyHeader?: string;
  /** Header that carries `nonce`; default `X-Nonce`. */
  nonceHeader?: string;
  /** Receives one line per attempt, redirect and retry; never a header or a credential. */
  logger?: ClientLogger;
  /** Redirects followed in a row within the base URL's origin; default 5. Others are refused. */
  maxRedirects?: number;
  /** Largest success body read, in bytes; default 16 MiB (16 777 216); `Infinity` for no limit. */
  maxResponseBytes?: number;
  /** Most of an error body an error keeps, in bytes; default 64 KiB (65 536). */
  maxErrorBodyBytes?: number;
  /** Upper bound of the first back-off, doubling with each retry; default 500 ms. */
  retryBackoffMs?: number;
  /** Largest back-off; default 8000 ms. */
  maxRetryBackoffMs?: number;
  /** Longest Retry-After honoured; a longer one falls back to the back-off. Default 60 000 ms. */
  maxRetryAfterMs?: number;
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

const noOptions: RequestOptions = {};

export class ClientCore {
  private readonly baseUrl: string;
  private readonly origin: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly headers: Record<string, string> | undefined;
  private readonly idempotencyHeader: string;
  private readonly nonceHeader: string;
  private readonly logger: ClientLogger | undefined;
  private readonly maxRedirects: number;
  private readonly maxResponseBytes: number;
  private readonly maxErrorBodyBytes: number;
  private readonly retryBackoffMs: number;
  private readonly maxRetryBackoffMs: number;
  private readonly maxRetryAfterMs: number;
  /** Credentials given as strings, redacted from anything shown. */
  private readonly secrets: readonly string[];
  /** Per endpoint, the headers of its calls when they never change (see `request`). */
  private readonly fixedHeaders = new Map<Operation, Readonly<Record<string, string>>>();

  constructor(
    options: CoreOptions,
    private readonly credentials: Readonly<Record<string, CredentialValue | undefined>>,
    private readonly errorClass: ApiErrorClass,
  ) {
    ({ base: this.baseUrl, origin: this.origin } = baseAddress(options.baseUrl));
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.headers = options.headers && lowerKeys(options.headers);
    this.idempotencyHeader = (options.idempotencyHeader ?? "Idempotency-Key").toLowerCase();
    this.nonceHeader = (options.nonceHeader ?? "X-Nonce").toLowerCase();
    this.logger = options.logger;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.maxErrorBodyBytes = options.maxErrorBodyBytes ?? 64 * 1024;
    this.retryBackoffMs = options.retryBackoffMs ?? 500;
    this.maxRetryBackoffMs = options.maxRetryBackoffMs ?? 8000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.secrets = Object.values(credentials).filter((v): v is string => typeof v === "string");
  }

  /** Sends one call of `op`, retrying as allowed; resolves to the parsed body. */
  async request<T>(
    op: Operation,
    params?: PathParams,
    body?: unknown,
    query?: QueryParams,
    call: RequestOptions = noOptions,
  ): Promise<T> {
    if (op.validateParams || op.validateBody) check(op, params, body, query);
    for (const c of op.credentials) {
      if (!this.credentials[c.option]) throw new MissingCredentialError(op.id, c.option, c.header);
    }
    // The headers of a call without headers of its own or credential functions are the same
    // every time: built at the first such call, then copied.
    const fixed = call.headers ? undefined : this.fixedHeaders.get(op);
    let headers: Record<string, string>;
    let secrets = this.secrets;
    if (fixed) headers = { ...fixed };
    else {
      headers = {
        ...op.fixedHeaders,
        ...this.headers,
        ...(call.headers && lowerKeys(call.headers)),
      };
      let same = !call.headers;
      for (const [option, name, scheme] of op.sends) {
        let value = this.credentials[option]!;
        if (typeof value === "function") {
          value = await value();
          secrets = [...secrets, value];
          same = false;
        }
        headers[name] = scheme + value;
      }
      if (same) this.fixedHeaders.set(op, { ...headers });
    }
    if (call.idempotencyKey !== undefined) headers[this.idempotencyHeader] = call.idempotencyKey;
    const url = this.baseUrl + pathOf(op.parts, params) + (query ? queryString(query) : "");
    const payload = body === undefined ? undefined : serialize(op, body);
    const maxRetries = call.maxRetries ?? this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted)
        throw new UserAbortError(`${op.id} was aborted`, op.id, { cause: call.signal.reason });
      const sent = call.nonce
        ? {
            ...headers,
            [this.nonceHeader]: typeof call.nonce === "function" ? call.nonce() : randomNonce(),
          }
        : headers;
      if (this.logger) this.log(`${op.id} ${op.method} ${url} attempt ${attempt + 1}`, secrets);
      const outcome = await this.attempt(op, url, sent, payload, call, secrets);
      if (outcome.kind === "response" && outcome.status < 300) return parseSuccess<T>(op, outcome);
      await this.beforeRetry(op, outcome, attempt < maxRetries, call, secrets, attempt);
    }
  }

  /**
   * One fetch with its own timeout, its redirects within the origin followed and its body
   * read (up to the size limit) inside it. Throws what no retry can help: an abort, a
   * redirect not followed, a success body over the limit.
   */
  private async attempt(
    op: Operation,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    call: RequestOptions,
    secrets: readonly string[],
  ): Promise<Outcome> {
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    const signal = call.signal;
    const timer = timeoutMs > 0 && timeoutMs < Infinity ? deadline(timeoutMs, signal) : undefined;
    const init: RequestInit = {
      method: op.method,
      headers,
      redirect: "manual",
      signal: timer ? timer.signal : (signal ?? null),
    };
    if (body !== undefined) init.body = body;
    let sent = false;
    let reading = false;
    try {
      let response = await this.fetch(url, init);
      sent = true;
      if (response.status >= 300 || response.status === 0)
        response = await this.followRedirects(op, response, init, url, secrets);
      const status = response.status;
      const limit = status < 300 ? this.maxResponseBytes : this.maxErrorBodyBytes;
      reading = true;
      const { text, cut } = await readText(response, limit);
      if (cut && status < 300) throw new ResponseTooLargeError(op.id, status, limit);
      return { kind: "response", status, headers: response.headers, text, cut };
    } catch (error) {
      if (error instanceof ClientError) throw error;
      if (signal?.aborted)
        throw new UserAbortError(`${op.id} was aborted`, op.id, { cause: signal.reason });
      if (timer?.fired)
        return { kind: "failure", error: new TimeoutError(op.id, timeoutMs), retryable: false };
      const detail = redact(
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error),
        secrets,
      );
      const what = reading ? "'s response broke off" : " could not reach the API";
      const failure = new ConnectionError(`${op.id}${what}: ${detail}`, op.id);
      return { kind: "failure", error: failure, retryable: !sent && neverReachedServer(error) };
    } finally {
      timer?.leave();
    }
  }

  /** Follows the redirects of an attempt within the origin; resolves to the first other response. */
  private async followRedirects(
    op: Operation,
    first: Response,
    init: RequestInit,
    url: string,
    secrets: readonly string[],
  ): Promise<Response> {
    let response = first;
    const at: HopContext = { endpointId: op.id, url, method: op.method, hops: 0 };
    for (;;) {
      let hop: Hop | undefined;
      try {
        hop = redirectHop(response, at, this.origin, this.maxRedirects, secrets);
      } catch (error) {
        discard(response);
        throw error;
      }
      if (!hop) return response;
      discard(response);
      if (this.logger) this.log(`${op.id} ${response.status} redirect within the origin`, secrets);
      if (hop.toGet) {
        // As fetch does: the body and the headers describing it are dropped.
        const { "content-type": _type, ...rest } = init.headers as Record<string, string>;
        init.headers = rest;
        init.method = at.method = "GET";
        delete init.body;
      }
      at.url = hop.url;
      at.hops++;
      response = await this.fetch(hop.url, init);
    }
  }

  /** Throws the outcome's error unless the call may be tried again; else waits the back-off. */
  private async beforeRetry(
    op: Operation,
    outcome: Outcome,
    triesLeft: boolean,
    call: RequestOptions,
    secrets: readonly string[],
    attempt: number,
  ): Promise<void> {
    const retrySafe = !op.unsafe || call.idempotencyKey !== undefined;
    const response = outcome.kind === "response" ? outcome : undefined;
    const canRetry =
      triesLeft &&
      (response
        ? retrySafe && isRetryableStatus(response.status)
        : outcome.kind === "failure" && (outcome.retryable || retrySafe));
    if (!canRetry)
      throw response
        ? new this.errorClass(
            errorDetails(
              op.id,
              response.status,
              response.text,
              response.cut,
              response.headers,
              secrets,
            ),
          )
        : (outcome as FailureOutcome).error;
    const wait =
      (response &&
        retryAfterMs(response.headers.get("retry-after"), Date.now(), this.maxRetryAfterMs)) ??
      backoffMs(attempt, Math.random, this.retryBackoffMs, this.maxRetryBackoffMs);
    if (this.logger) {
      const what = response ? response.status : (outcome as FailureOutcome).error.name;
      this.log(`${op.id} ${what}; retrying in ${Math.round(wait)} ms`, secrets);
    }
    try {
      await sleep(wait, call.signal);
    } catch (reason) {
      throw new UserAbortError(`${op.id} was aborted while waiting to retry`, op.id, {
        cause: reason,
      });
    }
  }

  private log(message: string, secrets: readonly string[]): void {
    this.logger?.debug(redact(message, secrets));
  }
}

/** The value of a 2xx: its JSON, or undefined for an empty body where the spec shows none. */
function parseSuccess<T>(op: Operation, outcome: ResponseOutcome): T {
  if (outcome.text.trim() === "") {
    if (op.documentedResponse) throw new ResponseParseError(op.id, outcome.status, "an empty body");
    return undefined as T;
  }
  try {
    return JSON.parse(outcome.text) as T;
  } catch {
    throw new ResponseParseError(op.id, outcome.status, "a body that is not JSON");
  }
}

interface ResponseOutcome {
  kind: "response";
  status: number;
  headers: Headers;
  /** The body, or of an error body its first `maxErrorBodyBytes` when `cut`. */
  text: string;
  cut: boolean;
}

interface FailureOutcome {
  kind: "failure";
  error: ConnectionError | TimeoutError;
  retryable: boolean;
}

type Outcome = ResponseOutcome | FailureOutcome;
