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
 * It also makes the generated layer's endpoint functions (`endpoint`) and group classes
 * (`group`) from their data.
 */
import { ApiPromise, type ResultState } from "./api-promise.js";
import {
  apiHeadersOf,
  hostAddressesOf,
  type Address,
  type ApiRequests,
  type SpecOptions,
} from "./api-requests.js";
import { discard, readBlob, readText } from "./body.js";
import { settle } from "./decode.js";
import {
  MissingCredentialError,
  ClientError,
  ClientOptionsError,
  ConnectionError,
  RedirectError,
  RequestValidationError,
  ResponseTooLargeError,
  TimeoutError,
  UserAbortError,
} from "./errors.js";
import {
  check,
  withoutContentType,
  endpointOf,
  lowerKeys,
  pathOf,
  randomNonce,
  serialize,
  type CredentialSend,
  type Operation,
  type PathParams,
  type QueryParams,
  type RequestValidators,
} from "./operation.js";
import {
  basicToken,
  checkHeaders,
  loneSurrogate,
  queryPair,
  secretsOf,
  type BasicCredentials,
} from "./params.js";
import type { ClientFeature } from "./features.js";
import type { MiddlewareStack } from "./hooks.js";
import { redact } from "./redact.js";
import type { ResponseValidationMode, ResponseValidators } from "./response-validation.js";
import { baseAddress, redirectHop, type HopContext } from "./redirect.js";
import { errorDetails, type ApiErrorClass } from "./response.js";
import {
  backoffMs,
  isNotProcessedStatus,
  isRetryableStatus,
  neverReachedServer,
  retryAfterMs,
  sleep,
  type RetryPolicy,
} from "./retry.js";
import { bounded, type Ending } from "./timeout.js";

export { ApiPromise, type WithResponse } from "./api-promise.js";
export { lenientApiRequests, type ApiRequests } from "./api-requests.js";
export { declaredHeaders } from "./decode.js";
export { encodeBody } from "./encode.js";
export { chooseCredential, group } from "./operation.js";
export { credentialText, pathSegments, placeParams } from "./params.js";
export type { BinaryInput } from "../validate.js";
export {
  operation,
  randomNonce,
  type CredentialSpec,
  type Operation,
  type OperationSpec,
  type PathParams,
  type QueryParams,
  type RequestValidators,
} from "./operation.js";
export type { BasicCredentials } from "./params.js";
export type { RetryPolicy } from "./retry.js";

/** A credential value, or a function that returns one (called once per request). */
export type CredentialValue = string | (() => string | Promise<string>);

/** HTTP basic credentials, or a function that returns them (called once per request). */
export type BasicCredentialValue =
  | BasicCredentials
  | (() => BasicCredentials | Promise<BasicCredentials>);

export interface ClientLogger {
  debug(message: string): void;
  /** Where present, gets what `validateResponses: "warn"` finds; else `debug` does. */
  warn?(message: string): void;
}

/**
 * The options with a default, and their defaults (docs/client.md, "Options"). Each has a type
 * a declaration can be written from without a type checker (`as number` on a computed one):
 * `diff` reads the package's declarations that way.
 */
const defaults = {
  /** Time for a whole attempt, response body included; 0, Infinity or over 2^31 - 1 for none. */
  timeoutMs: 60_000,
  /** Further attempts after the first. */
  maxRetries: 2,
  /** Header that carries `idempotencyKey` (the spec does not name it). */
  idempotencyHeader: "Idempotency-Key",
  /** Header that carries `nonce`. */
  nonceHeader: "X-Nonce",
  /** Redirects followed in a row within the base URL's origin. Others are refused. */
  maxRedirects: 5,
  /** Largest success body read, in bytes (16 MiB); `Infinity` for no limit. */
  maxResponseBytes: (2 ** 24) as number,
  /** Most of an error body an error keeps, in bytes (64 KiB). */
  maxErrorBodyBytes: (2 ** 16) as number,
  /** Upper bound of the first back-off, doubling with each retry. */
  retryBackoffMs: 500,
  /** Largest back-off. */
  maxRetryBackoffMs: 8000,
  /** Longest Retry-After honoured; a longer one falls back to the back-off. */
  maxRetryAfterMs: 60_000,
  /**
   * Most pages one walk of a paged list reads (`for await`, `pages()`); asking for the page
   * after the last is a PaginationError. `Infinity` for no limit.
   */
  maxPages: 10_000,
};

/** Options shared by every request of a client. */
export interface CoreOptions extends Partial<typeof defaults> {
  /**
   * Base address of the environment, e.g. the sandbox's. Required: the spec shows none. An
   * http: or https: URL without user name, password, query or fragment (relative to the
   * page in a browser); anything else is refused at construction (`ClientOptionsError`).
   */
  baseUrl: string;
  /** fetch to use; default the global one. */
  fetch?: typeof fetch;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Receives one line per attempt, redirect and retry; never a header or a credential. */
  logger?: ClientLogger;
  /** Hooks around each attempt, made by `withMiddleware(...)` (hooks.ts, which only they load). */
  middleware?: MiddlewareStack;
  /** Checks success bodies and stream items (docs/client.md, "Response validation"); with `responseValidators`. */
  validateResponses?: ResponseValidationMode;
  /** `responseValidators` of the package's `./validators` entry: what `validateResponses` checks with. */
  responseValidators?: ResponseValidators;
  /**
   * `requestValidators` of the package's `./validators` entry: the browser build checks
   * parameters and bodies only with them (docs/client.md, "The browser build"); this build
   * checks them always, and does not read the option.
   */
  requestValidators?: RequestValidators;
  /**
   * The features the browser build runs (`[retries, timeouts]`, features.ts; docs/client.md,
   * "The browser build"): it has none it is not given. This build has every one always, and
   * does not read the option.
   */
  features?: readonly ClientFeature[];
}

type Settings = typeof defaults & CoreOptions;

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
  /** Of a paged call: the most pages a walk of it reads, instead of the client's `maxPages`. */
  maxPages?: number;
}

const noOptions: RequestOptions = {};

/** What one attempt came to: a response (its body read), or a failure to get one. */
type Outcome =
  | {
      status: number;
      headers: Headers;
      /** The body, or of an error body its first `maxErrorBodyBytes` when `cut`. */
      text: string;
      cut: boolean;
      /** The body of a binary success. */
      blob?: Blob;
      response: Response;
    }
  | { error: ConnectionError | TimeoutError; retryable: boolean };

export class ClientCore {
  /** The base address calls go to (no trailing slash), read by the paging runtime for next links. */
  declare readonly base: string;
  /** The base address's origin: redirects and next links are followed only within it. */
  declare readonly origin: string;
  /** The most pages a walk reads, read by the paging runtime. */
  declare readonly maxPages: number;
  /** The options, each default filled in. */
  declare private readonly options: Settings;
  /** Credentials given as strings, redacted from anything shown. */
  declare private readonly secrets: readonly string[];
  /**
   * Per endpoint, the headers of its calls when they never change (see `request`), keyed by
   * the endpoint's own fixed headers: an operation a walk of pages derives from the endpoint
   * (pagination.ts) shares them, and so shares this entry instead of adding one per walk. (A
   * WeakMap keyed by the operation cost 1-2% of a loopback call.)
   */
  private readonly fixedHeaders = new Map<object, Record<string, string>>();
  /** Whether every attempt gets its own AbortSignal: after a timeout that could not close its connection (timeout.ts). */
  private ownSignals = false;
  /** The headers the spec has every request send (api-requests.ts), lower-cased; none when it names none. */
  declare private readonly apiHeaders: Readonly<Record<string, string>> | undefined;
  /** The address of each host of the spec (api-requests.ts); none when it names none. */
  declare private readonly hosts: Readonly<Record<string, Address>> | undefined;

  constructor(
    options: CoreOptions,
    private readonly credentials: Readonly<
      Record<string, CredentialValue | BasicCredentialValue | undefined>
    >,
    private readonly errorClass: ApiErrorClass,
    /** The statuses the spec says to retry, or not, besides the defaults (retry.ts). */
    private readonly retryPolicy: RetryPolicy = {},
    /** Response header of the request id an ApiError keeps (the spec's `errors.requestIdHeader`). */
    private readonly requestIdHeader?: string,
    /** What the spec has every request carry: fixed headers, the version header, other hosts (api-requests.ts). */
    api: ApiRequests = {},
  ) {
    ({ base: this.base, origin: this.origin } = baseAddress(options.baseUrl));
    this.apiHeaders = apiHeadersOf(api, options as SpecOptions);
    this.hosts = hostAddressesOf(api, options as SpecOptions);
    const settings = { ...options } as Settings & Record<string, unknown>;
    for (const [name, value] of Object.entries(defaults)) settings[name] ??= value;
    // Header names lower-cased, so that a later source replaces an earlier one whatever its case.
    settings.headers &&= lowerKeys(settings.headers);
    this.options = settings;
    this.maxPages = settings.maxPages;
    this.secrets = Object.values(credentials).flatMap(secretsOf);
    // "warn" and "throw" check with the validators of the package's ./validators entry.
    const mode = options.validateResponses;
    if (mode && mode !== "off" && !options.responseValidators)
      throw new ClientOptionsError("validateResponses", "needs responseValidators");
  }

  /**
   * One call of `op`: resolves to the body; `withResponse()` and `asResponse()` give the
   * response too (api-promise.ts).
   */
  request<T, H = Record<string, never>>(
    op: Operation,
    params?: PathParams,
    body?: unknown,
    query?: QueryParams,
    call: RequestOptions = noOptions,
  ): ApiPromise<T, H> {
    return new ApiPromise((state) => this.send(op, params, body, query, call, state));
  }

  /** Sends one call of `op`, retrying as allowed; resolves to its result in the mode of `state`. */
  private async send(
    op: Operation,
    params: PathParams | undefined,
    body: unknown,
    query: QueryParams | undefined,
    call: RequestOptions,
    state: ResultState,
  ): Promise<unknown> {
    const { id, method } = op;
    const { logger, idempotencyHeader, nonceHeader } = this.options;
    if (op.validateParams || op.validateBody) check(op, params, body, query);
    for (const c of op.credentials)
      if (!c.optional && !this.credentials[c.option])
        throw new MissingCredentialError(id, c.option, c);
    const sends = op.choose?.(op, this.credentials) ?? op.sends;
    // The headers of a call without headers, idempotency key or nonce of its own, and
    // without credential functions or credentials in the query string, are the same every
    // time: built once, then sent as they are (fetch only reads them; a redirect to GET makes
    // a copy; header parameters go on a copy).
    const plain =
      !call.headers &&
      call.idempotencyKey === undefined &&
      !call.nonce &&
      !op.sends.some((send) => send.query !== undefined);
    let headers = plain ? this.fixedHeaders.get(op.fixedHeaders) : undefined;
    let secrets = this.secrets;
    const inQuery: string[] = [];
    if (!headers) {
      const { apiHeaders } = this;
      headers = {
        // The API's headers between the runtime's Accept and the endpoint's own headers.
        ...(apiHeaders
          ? { ...op.fixedHeaders, ...apiHeaders, ...lowerKeys(op.headers) }
          : op.fixedHeaders),
        ...this.options.headers,
        ...(call.headers && lowerKeys(call.headers)),
      };
      let same = plain;
      for (const send of sends) {
        let value: unknown = this.credentials[send.option];
        if (!value) continue; // an optional credential the client does not have
        if (typeof value === "function") {
          value = await (value as () => unknown)();
          secrets = [...secrets, ...secretsOf(value)];
          same = false;
        }
        const text = send.basic ? basicToken(id, send.option, value) : String(value);
        if (send.query !== undefined) inQuery.push(queryCredential(id, send, text));
        else headers[send.header!] = send.prefix + text;
      }
      // (A call with an idempotency key is never plain: its headers are built here.)
      if (call.idempotencyKey !== undefined)
        headers[idempotencyHeader.toLowerCase()] = call.idempotencyKey;
      // Headers that never change are checked once, before they are cached.
      checkHeaders(id, headers, (name, badName) => this.headerSource(op, call, name, badName));
      if (same) this.fixedHeaders.set(op.fixedHeaders, headers);
    }
    // `place` comes with every endpoint that has such parameters or a query credential.
    const placed =
      op.place && (query || op.sendDefaults || inQuery.length)
        ? op.place(op, query, inQuery)
        : undefined;
    if (placed?.headers) headers = { ...headers, ...placed.headers };
    // If-None-Match, If-Modified-Since: from the call's options, of an endpoint that answers 304.
    const conditional = op.conditional?.headers(id, call);
    if (conditional) headers = { ...headers, ...conditional };
    // A streamed success is read by its Stream (stream.ts, passed in by streaming endpoints
    // only), after the timeout has covered the wait for its headers; an error item the API
    // sends in it is thrown as the API's error.
    const streams = op.stream?.(
      op,
      body,
      state,
      call.signal,
      this.options.maxResponseBytes,
      (...a) => this.streamError(op, secrets, ...a),
    );
    if (streams) headers = { ...headers, ...streams };
    const base = op.host === undefined ? this.base : this.addressOf(op).base;
    const url = base + pathOf(op, params) + (placed?.search ?? "");
    const payload =
      body === undefined
        ? undefined
        : op.body && op.encode
          ? await op.encode(id, op.body, body)
          : serialize(op, body);
    // a call that leaves an optional body out sends no Content-Type for it
    if (payload === undefined && op.bodyOptional) headers = withoutContentType(headers);
    // A stream is sent once: no retry after an attempt (docs/client.md, "Request bodies").
    const streamed = isStream(payload);
    const once = streamed ? { ...call, maxRetries: 0 } : call;
    const log = (line: string) => logger?.debug(redact(`${id} ${line}`, secrets));
    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted) throw aborted(op, call);
      const { nonce } = call;
      if (nonce) {
        const name = nonceHeader.toLowerCase();
        const value = typeof nonce === "function" ? nonce() : randomNonce();
        checkHeaders(id, { [name]: value }, (_, badName) =>
          badName ? "nonceHeader" : "options.nonce",
        );
        headers[name] = value;
      }
      if (logger) log(`${method} ${url} attempt ${attempt + 1}`);
      const init: RequestInit & { duplex?: "half" } = { method, headers, redirect: "manual" };
      if (payload !== undefined) init.body = payload;
      if (streamed) init.duplex = "half";
      const outcome = await this.attempt(op, url, init, call, secrets, log, state);
      if ("status" in outcome && (outcome.status < 300 || notModified(op, outcome.status))) {
        const result = settle(op, outcome, state);
        const checks = this.options.responseValidators; // response-validation.ts
        return checks
          ? checks.check(op, result, state, outcome.status, this.options, secrets)
          : result;
      }
      const wait = this.retryWait(op, outcome, attempt, once, secrets);
      if (logger) {
        const what = "status" in outcome ? outcome.status : outcome.error.name;
        log(`${what}; retrying in ${Math.round(wait)} ms`);
      }
      await sleep(wait, call.signal).catch(() => {
        throw aborted(op, call, " while waiting to retry");
      });
    }
  }

  /** The API's error of an error item in a stream that began: read and redacted as an error body is. */
  private streamError(
    op: Operation,
    secrets: readonly string[],
    status: number,
    text: string,
    headers: Headers,
    item: number,
  ): Error {
    const details = errorDetails(
      op.id,
      status,
      text,
      false,
      headers,
      secrets,
      this.requestIdHeader,
    );
    return new this.errorClass({ ...details, streamItem: item });
  }

  /**
   * Where an endpoint's calls go: the base address, or its host's (`hosts:`). Redirects and
   * next links are followed within that address's origin only.
   */
  addressOf(op: Operation): Address {
    return op.host === undefined ? this : this.hosts![op.host]!;
  }

  /**
   * Where a header of a call came from, for the error that refuses its name or value: the
   * idempotency key, the credential's option (never its value), the call's or the client's
   * `headers`, or the spec's own.
   */
  private headerSource(
    op: Operation,
    call: RequestOptions,
    name: string,
    badName: boolean,
  ): string {
    if (call.idempotencyKey !== undefined && name === this.options.idempotencyHeader.toLowerCase())
      return badName ? "idempotencyHeader" : "options.idempotencyKey";
    const credential = op.sends.find((s) => s.header === name && this.credentials[s.option]);
    if (credential) return credential.option;
    const own = call.headers && Object.hasOwn(lowerKeys(call.headers), name);
    const from = own ? "options.headers" : "headers";
    return `${from}[${JSON.stringify(name)}]`;
  }

  /**
   * One attempt: its fetch, redirects and body (`exchange`) within its timeout and the
   * caller's signal (timeout.ts). Throws what no retry can help: an abort, a redirect not
   * followed, a success body over the limit.
   */
  private async attempt(
    op: Operation,
    url: string,
    init: RequestInit,
    call: RequestOptions,
    secrets: readonly string[],
    log: (line: string) => void,
    state: ResultState,
  ): Promise<Outcome> {
    const { timeoutMs = this.options.timeoutMs } = call;
    const ending: Ending = {};
    const progress = { answered: false, reading: false };
    try {
      return await bounded(timeoutMs, call.signal, this.ownSignals, ending, (signal) => {
        if (signal) init.signal = signal;
        return this.exchange(op, url, init, secrets, ending, progress, log, state);
      });
    } catch (error) {
      if (error instanceof ClientError) throw error;
      if (ending.why === "abort") throw aborted(op, call);
      if (ending.why) {
        // Nothing to let go of: the request waits on a connection only its late answer or
        // its close frees. From now on every attempt can close its own.
        if (!ending.release && !call.signal) this.ownSignals = true;
        return { error: new TimeoutError(op.id, timeoutMs), retryable: false };
      }
      const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const detail = redact(inner instanceof Error ? inner.message : String(inner), secrets);
      const what = progress.reading ? "'s response broke off" : " could not reach the API";
      return {
        error: new ConnectionError(`${op.id}${what}: ${detail}`, op.id),
        retryable: !progress.answered && neverReachedServer(error),
      };
    }
  }

  /**
   * The fetch of an attempt, the redirects within the origin it follows, and the body of the
   * response it comes to, read up to its size limit. An answer that comes after the attempt
   * ended (`ending.why`) is let go of unread.
   */
  private async exchange(
    op: Operation,
    url: string,
    init: RequestInit,
    secrets: readonly string[],
    ending: Ending,
    progress: { answered: boolean; reading: boolean },
    log: (line: string) => void,
    state: ResultState,
  ): Promise<Outcome> {
    const { maxRedirects, maxResponseBytes, maxErrorBodyBytes, logger } = this.options;
    const at: HopContext = { endpointId: op.id, url, method: op.method, hops: 0 };
    const own = this.options.fetch ?? fetch;
    const send = this.options.middleware?.attempt(at, ending, state, secrets, own) ?? own;
    for (;;) {
      ending.release = undefined;
      // Called as a plain function: a browser's fetch refuses to run as a method of another object.
      const response = await send(at.url, init);
      progress.answered = true;
      ending.release = () => discard(response);
      if (ending.why) ending.release();
      const { status, headers } = response;
      let hop;
      try {
        // A status 0 is a browser's opaque redirect.
        if (status >= 300 || !status)
          hop = redirectHop(response, at, this.addressOf(op).origin, maxRedirects, secrets);
      } catch (error) {
        discard(response);
        throw error;
      }
      if (hop) {
        discard(response);
        if (!hop.toGet && isStream(init.body))
          throw new RedirectError(
            `${op.id} was redirected (${status}) after its streamed body was sent, which cannot be sent again`,
            op.id,
            status,
          );
        if (logger) log(`${status} redirect within the origin`);
        if (hop.toGet) {
          // As fetch does: the body and the headers describing it are dropped.
          const { "content-type": _, ...rest } = init.headers as Record<string, string>;
          init.headers = rest;
          init.method = at.method = "GET";
          delete init.body;
        }
        continue;
      }
      const success = status < 300 || notModified(op, status);
      // From here on the body is read, or handed over unread (`asResponse()` or a stream,
      // outside the limit and the timeout): the mode is what it is now.
      if (success) state.fixed = true;
      if (success && (state.mode === 2 || state.open))
        return { status, headers, text: "", cut: false, response };
      const limit = success ? maxResponseBytes : maxErrorBodyBytes;
      progress.reading = true;
      if (success && op.response === "binary") {
        const { blob, cut } = await readBlob(response, limit, ending);
        if (cut) throw new ResponseTooLargeError(op.id, status, limit);
        return { status, headers, text: "", cut, blob, response };
      }
      const { text, cut } = await readText(response, limit, ending);
      if (cut && success) throw new ResponseTooLargeError(op.id, status, limit);
      return { status, headers, text, cut, response };
    }
  }

  /**
   * The wait before trying a failed attempt again; throws its error when it may not be: no
   * tries left, a status or failure not worth one, or a POST or PATCH without an idempotency
   * key that may have arrived (a status the spec marks `notProcessed` says it did not).
   */
  private retryWait(
    op: Operation,
    outcome: Outcome,
    attempt: number,
    call: RequestOptions,
    secrets: readonly string[],
  ): number {
    const { maxRetries, retryBackoffMs, maxRetryBackoffMs, maxRetryAfterMs } = this.options;
    const response = "status" in outcome ? outcome : undefined;
    const retrySafe = !/^(POST|PATCH)$/.test(op.method) || call.idempotencyKey !== undefined;
    const retry =
      attempt < (call.maxRetries ?? maxRetries) &&
      (response
        ? (retrySafe || isNotProcessedStatus(response.status, this.retryPolicy)) &&
          isRetryableStatus(response.status, this.retryPolicy)
        : "retryable" in outcome && (outcome.retryable || retrySafe));
    if (!retry) {
      if (!response) throw (outcome as { error: Error }).error;
      const { status, text, cut, headers } = response;
      throw new this.errorClass(
        errorDetails(op.id, status, text, cut, headers, secrets, this.requestIdHeader),
      );
    }
    const after =
      response && retryAfterMs(response.headers.get("retry-after"), Date.now(), maxRetryAfterMs);
    return after ?? backoffMs(attempt, Math.random, retryBackoffMs, maxRetryBackoffMs);
  }
}

/** An endpoint's function, made from its descriptor when the module loads (`endpointOf`). */
export function endpoint<F>(data: string, ...code: unknown[]): F {
  return endpointOf<F>(data, code, (core, op, call) =>
    core.request(op, call.params, call.body, call.query, call.options),
  );
}

/** A query credential's `name=value` pair; a value no URL can carry is refused, naming the option. */
function queryCredential(id: string, send: CredentialSend, text: string): string {
  try {
    return queryPair(send.query!, text);
  } catch {
    throw new RequestValidationError(id, [{ path: send.option, message: loneSurrogate }]);
  }
}

/** The error of a call the caller's signal aborted. */
function aborted(op: Operation, call: RequestOptions, what = ""): UserAbortError {
  return new UserAbortError(`${op.id} was aborted${what}`, op.id, { cause: call.signal?.reason });
}

/** Whether a status is a 304 the endpoint takes as "not modified" (conditional.ts), not an error. */
function notModified(op: Operation, status: number): boolean {
  return status === 304 && op.conditional !== undefined;
}

/** Whether a body is a stream: sent once, with `duplex: "half"`, and never retried. */
function isStream(body: BodyInit | null | undefined): body is ReadableStream {
  return typeof (body as { getReader?: unknown } | null | undefined)?.getReader === "function";
}
