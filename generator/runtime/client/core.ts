/**
 * The request loop shared by every generated endpoint function: validation, credentials,
 * headers, timeout, retries with back-off, and turning responses into values or errors.
 * Uses only fetch, AbortController and timers: Node 18+, browsers, Deno, Bun and edge
 * runtimes alike.
 *
 * It runs on every call, so what depends only on the endpoint is worked out once by
 * `operation()` when the generated module loads, what depends only on the client once in
 * its constructor, and a call that needs no retry allocates little beyond its headers.
 */
import type { ValidationIssue, Validator } from "../validate.js";
import { deadline } from "./deadline.js";
import {
  ConnectionError,
  MissingCredentialError,
  RequestValidationError,
  ResponseParseError,
  TimeoutError,
  UserAbortError,
  redact,
} from "./errors.js";
import { errorDetails, type ApiErrorClass } from "./response.js";
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

/** What the generated layer says about one endpoint: data from the spec, no logic. */
export interface OperationSpec {
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

/** An endpoint ready to call: its spec, plus what every call would otherwise work out again. */
export interface Operation extends OperationSpec {
  /** The path split at its parameters: text at even indexes, parameter names at odd ones. */
  readonly parts: readonly string[];
  /** Accept and the fixed headers, by lower-cased name (header names ignore case). */
  readonly fixedHeaders: Readonly<Record<string, string>>;
  /** Per credential: option, lower-cased header name, and the scheme with its space. */
  readonly sends: readonly (readonly [string, string, string])[];
  /** POST and PATCH: not retried once they may have arrived, unless they carry an idempotency key. */
  readonly unsafe: boolean;
}

/** Works out an endpoint's per-call data once, when the generated module loads. */
export function operation(spec: OperationSpec): Operation {
  const parts = spec.path.split(/\{(\w+)\}/);
  for (const name of spec.trailing ?? []) {
    parts[parts.length - 1] += "/";
    parts.push(name, "");
  }
  const fixedHeaders: Record<string, string> = { accept: "application/json" };
  for (const [name, value] of Object.entries(spec.headers))
    fixedHeaders[name.toLowerCase()] = value;
  return {
    ...spec,
    parts,
    fixedHeaders,
    sends: spec.credentials.map((c) => [
      c.option,
      c.header.toLowerCase(),
      c.scheme ? `${c.scheme} ` : "",
    ]),
    unsafe: spec.method === "POST" || spec.method === "PATCH",
  };
}

type QueryValue = string | number | boolean;
/** Path and trailing parameters by name. */
export type PathParams = Readonly<Record<string, QueryValue>>;
/** Query parameters by name; undefined ones are left out, arrays repeat the name. */
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[] | undefined>>;

function queryString(query: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
      search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The endpoint's path with each parameter percent-encoded in its place. */
function pathOf(parts: readonly string[], params: PathParams | undefined): string {
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2)
    path += encodeURIComponent(String(params?.[parts[i]!] ?? "")) + parts[i + 1]!;
  return path;
}

/** Header names lower-cased, so that a later source replaces an earlier one whatever its case. */
function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

const noOptions: RequestOptions = {};

export class ClientCore {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly headers: Record<string, string> | undefined;
  private readonly idempotencyHeader: string;
  private readonly nonceHeader: string;
  private readonly logger: ClientLogger | undefined;
  /** Credentials given as strings, redacted from anything shown. */
  private readonly secrets: readonly string[];
  /** Per endpoint, the headers of its calls when they never change (see `request`). */
  private readonly fixedHeaders = new Map<Operation, Readonly<Record<string, string>>>();

  constructor(
    options: CoreOptions,
    private readonly credentials: Readonly<Record<string, CredentialValue | undefined>>,
    private readonly errorClass: ApiErrorClass,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.headers = options.headers && lowerKeys(options.headers);
    this.idempotencyHeader = (options.idempotencyHeader ?? "Idempotency-Key").toLowerCase();
    this.nonceHeader = (options.nonceHeader ?? "X-Nonce").toLowerCase();
    this.logger = options.logger;
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
    const payload = body === undefined ? undefined : JSON.stringify(body);
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

  /** One fetch with its own timeout, the whole body read inside it. */
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
      signal: timer ? timer.signal : (signal ?? null),
    };
    if (body !== undefined) init.body = body;
    let sent = false;
    try {
      const response = await this.fetch(url, init);
      sent = true;
      const text = await response.text();
      return { kind: "response", status: response.status, headers: response.headers, text };
    } catch (error) {
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
      const failure = new ConnectionError(`${op.id} could not reach the API: ${detail}`, op.id);
      return { kind: "failure", error: failure, retryable: !sent && neverReachedServer(error) };
    } finally {
      timer?.leave();
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
            errorDetails(op.id, response.status, response.text, response.headers, secrets),
          )
        : (outcome as FailureOutcome).error;
    const wait =
      (response && retryAfterMs(response.headers.get("retry-after"))) ?? backoffMs(attempt);
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

/** Local checks before anything is sent: the spec's rules for the parameters and the body. */
function check(
  op: Operation,
  params: PathParams | undefined,
  body: unknown,
  query: QueryParams | undefined,
): void {
  const issues: ValidationIssue[] = [];
  op.validateParams?.(query ? { ...params, ...query } : (params ?? {}), "params", issues);
  op.validateBody?.(body, "body", issues);
  if (issues.length) throw new RequestValidationError(op.id, issues);
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
  text: string;
}

interface FailureOutcome {
  kind: "failure";
  error: ConnectionError | TimeoutError;
  retryable: boolean;
}

type Outcome = ResponseOutcome | FailureOutcome;

/** A random UUID v4; Node 18 has no global `crypto` unless started with a flag. */
export function randomNonce(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const random = () =>
    (webCrypto ? webCrypto.getRandomValues(new Uint8Array(1))[0]! : Math.random() * 256) & 15;
  // Each 0, 1 and 8 of the template becomes a random hex digit; 8 keeps the variant bits.
  return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
    (+c ^ (random() >> (+c / 4))).toString(16),
  );
}
