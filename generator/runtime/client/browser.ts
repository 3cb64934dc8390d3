/**
 * The request loop of the browser build: what a bundler for browsers takes in place of
 * core.ts (the `browser` map of the generated package.json). The same endpoints, options,
 * results and error classes, on a loop that leaves to the browser what it does itself and
 * leaves out what a page cannot use. docs/client.md, "The browser build", lists every
 * difference from core.ts: no redirect is followed, bodies are read whole (bounded by the
 * timeout, not by a size), credentials are redacted from errors as they are spelled, there
 * are no log lines, and a failed connection is retried only for a request safe to repeat.
 * Uses only fetch, AbortController and timers: it runs in Node too (its tests do).
 *
 * It exports every value core.ts exports (the generated code imports them from core.js, which
 * the map sends here: test/client-browser.test.ts holds the two lists equal), and imports only
 * types from core.js: a value imported from it would come back to this file.
 */
import { ApiPromise, type ResultState } from "./api-promise.js";
import type { Address, ApiRequests, SpecOptions } from "./api-requests.js";
import type { BasicCredentialValue, CoreOptions, CredentialValue, RequestOptions } from "./core.js";
import { settle } from "./decode.js";
import {
  ClientError,
  ClientOptionsError,
  ConnectionError,
  MissingCredentialError,
  RedirectError,
  TimeoutError,
  UserAbortError,
  type ApiErrorDetails,
} from "./errors.js";
import {
  check,
  endpointOf,
  lowerKeys,
  pathOf,
  randomNonce,
  serialize,
  type Operation,
  type PathParams,
  type QueryParams,
} from "./operation.js";
import { baseAddress } from "./redirect.js";
import { detailsOf, type ApiErrorClass } from "./response.js";
import {
  backoffMs,
  isNotProcessedStatus,
  isRetryableStatus,
  retryAfterMs,
  sleep,
  type RetryPolicy,
} from "./retry.js";

export { ApiPromise, type WithResponse } from "./api-promise.js";
export type { ApiRequests } from "./api-requests.js";
export type {
  BasicCredentialValue,
  ClientLogger,
  CoreOptions,
  CredentialValue,
  RequestOptions,
} from "./core.js";
export { declaredHeaders } from "./decode.js";
export { encodeBody } from "./encode.js";
export { group } from "./operation.js";
export { credentialText, placeParams } from "./params.js";
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

/** The defaults of the options this loop reads: core.ts's. */
const defaults = {
  timeoutMs: 60_000,
  maxRetries: 2,
  idempotencyHeader: "Idempotency-Key",
  nonceHeader: "X-Nonce",
  retryBackoffMs: 500,
  maxRetryBackoffMs: 8000,
  maxRetryAfterMs: 60_000,
  maxPages: 10_000,
};

type Settings = typeof defaults & CoreOptions;

export class ClientCore {
  /** The base address calls go to (no trailing slash), read by the paging runtime for next links. */
  declare readonly base: string;
  /** The base address's origin: next links are followed only within it. */
  declare readonly origin: string;
  /** The most pages a walk reads, read by the paging runtime. */
  declare readonly maxPages: number;
  declare private readonly options: Settings;
  /** Credentials given as strings, redacted from errors. */
  declare private readonly secrets: readonly string[];
  declare private readonly apiHeaders: Readonly<Record<string, string>> | undefined;
  declare private readonly hosts: Readonly<Record<string, Address>> | undefined;

  constructor(
    options: CoreOptions,
    private readonly credentials: Readonly<
      Record<string, CredentialValue | BasicCredentialValue | undefined>
    >,
    private readonly errorClass: ApiErrorClass,
    private readonly retryPolicy: RetryPolicy = {},
    private readonly requestIdHeader?: string,
    api: ApiRequests = {},
  ) {
    ({ base: this.base, origin: this.origin } = baseAddress(options.baseUrl));
    // What the spec has every request carry, as api-requests.ts works it out, without its
    // refusal of an `apiVersion` or a host name the spec does not list.
    const { headers, version, hosts } = api;
    const chosen = options as SpecOptions;
    this.apiHeaders = {
      ...(headers && lowerKeys(headers)),
      ...(version && { [version.header.toLowerCase()]: chosen.apiVersion ?? version.current }),
    };
    this.hosts =
      hosts &&
      Object.fromEntries(
        Object.entries(hosts).map(([name, url]) => [
          name,
          baseAddress(chosen.hosts?.[name] ?? url, `hosts.${name}`),
        ]),
      );
    const settings: Record<string, unknown> = { ...defaults };
    for (const [name, value] of Object.entries(options)) if (value != null) settings[name] = value;
    this.options = settings as unknown as Settings;
    this.maxPages = this.options.maxPages;
    // Keys given as strings; basic credentials' password and token join a call's when it sends them.
    this.secrets = Object.values(credentials).filter((v): v is string => typeof v === "string");
    // "warn" and "throw" check with the validators of the package's ./validators entry.
    const mode = options.validateResponses;
    if (mode && mode !== "off" && !options.responseValidators)
      throw new ClientOptionsError("validateResponses", "needs responseValidators");
  }

  /** One call of `op`, as core.ts's `request`. */
  request<T, H = Record<string, never>>(
    op: Operation,
    params?: PathParams,
    body?: unknown,
    query?: QueryParams,
    call: RequestOptions = {},
  ): ApiPromise<T, H> {
    return new ApiPromise((state) => this.send(op, params, body, query, call, state));
  }

  /** Where an endpoint's calls go: the base address, or its host's (`hosts:`). */
  addressOf(op: Operation): Address {
    return op.host === undefined ? this : this.hosts![op.host]!;
  }

  /** The API's error of an error answer (or an error item of a stream): its text and headers redacted first. */
  private apiError(
    op: Operation,
    secrets: readonly string[],
    status: number,
    text: string,
    headers: Headers,
    streamItem?: number,
  ): Error {
    const clean = redactor(secrets);
    const safeHeaders = new Headers();
    headers.forEach((value, name) => {
      if (clean(name) === name) safeHeaders.append(name, clean(value));
    });
    const details = detailsOf(op.id, status, clean(text), false, safeHeaders, this.requestIdHeader);
    return new this.errorClass({ ...details, streamItem } as ApiErrorDetails);
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
    const { id } = op;
    const { options, retryPolicy } = this;
    const { signal } = call;
    // This build's endpoints bring no validators (request-validators.browser.ts): the caller's
    // `requestValidators` check the request, except the later pages of a walk, whose
    // operation has neither key (pagination.ts).
    const own = options.requestValidators?.[id];
    if (op.validateParams || op.validateBody) check(op, params, body, query);
    else if (own && ("validateParams" in op || "validateBody" in op))
      check({ id, validateParams: own.params, validateBody: own.body }, params, body, query);
    let secrets = this.secrets;
    const inQuery: string[] = [];
    let headers: Record<string, string> = {
      ...op.fixedHeaders,
      ...this.apiHeaders,
      ...lowerKeys({ ...op.headers, ...options.headers, ...call.headers }),
    };
    for (const [i, send] of op.sends.entries()) {
      let value: unknown = this.credentials[send.option];
      if (!value) {
        if (op.credentials[i]!.optional) continue;
        throw new MissingCredentialError(id, send.option, send);
      }
      const given = typeof value === "function";
      if (given) value = await (value as () => unknown)();
      // HTTP basic and query credentials are written by the code their endpoints pass
      // (params.ts `credentialText`), which also names what to redact: others leave it out.
      const [text, ...more] =
        send.basic || send.query !== undefined
          ? op.credential!(id, send, value)
          : [String(value), ...(given && typeof value === "string" ? [value] : [])];
      secrets = [...secrets, ...more];
      if (send.query === undefined) headers[send.header!] = send.prefix + text;
      else inQuery.push(text!);
    }
    if (call.idempotencyKey !== undefined)
      headers[options.idempotencyHeader.toLowerCase()] = call.idempotencyKey;
    const placed =
      op.place && (query || op.sendDefaults || inQuery.length)
        ? op.place(op, query, inQuery)
        : undefined;
    headers = {
      ...headers,
      ...placed?.headers,
      ...op.conditional?.headers(id, call),
      ...op.stream?.(op, body, state, signal, Infinity, (status, text, h, item) =>
        this.apiError(op, secrets, status, text, h, item),
      ),
    };
    const url = this.addressOf(op).base + pathOf(op, params) + (placed?.search ?? "");
    const payload =
      body === undefined
        ? undefined
        : op.body && op.encode
          ? await op.encode(id, op.body, body)
          : serialize(op, body);
    // A stream is sent once: no retry after an attempt.
    const streamed = typeof (payload as ReadableStream | undefined)?.getReader === "function";
    const aborted = (what = "") =>
      new UserAbortError(`${id} was aborted${what}`, id, { cause: signal?.reason });
    const { timeoutMs = options.timeoutMs, nonce } = call;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted();
      if (nonce)
        headers[options.nonceHeader.toLowerCase()] =
          typeof nonce === "function" ? nonce() : randomNonce();
      // The caller's signal and the timeout both end the attempt, its body included.
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal?.addEventListener("abort", abort);
      const timer = timeoutMs > 0 && timeoutMs < 2 ** 31 ? setTimeout(abort, timeoutMs) : 0;
      const init: RequestInit & { duplex?: "half" } = {
        method: op.method,
        headers,
        redirect: "manual",
        signal: controller.signal,
      };
      if (payload !== undefined) init.body = payload;
      if (streamed) init.duplex = "half";
      let response: Response | undefined;
      let text = "";
      let failure: ClientError | undefined;
      try {
        const own = options.fetch ?? fetch;
        // The hooks of `withMiddleware` (hooks.ts) see the attempt ended by the caller or the timeout.
        const ending = {
          get why() {
            return controller.signal.aborted ? (signal?.aborted ? "abort" : "timeout") : undefined;
          },
        } as const;
        const at = { endpointId: id, url, method: op.method, hops: 0 };
        const send = options.middleware?.attempt(at, ending, state, secrets, own) ?? own;
        response = await send(url, init);
        const { status } = response;
        // A browser hides where a redirect goes (status 0): none is followed.
        if (!status || (/^30[12378]$/.test(`${status}`) && response.headers.has("location")))
          throw new RedirectError(`${id} was redirected (${status}): not followed`, id, status);
        if (status < 300 || (status === 304 && op.conditional)) {
          // From here on the body is read, or handed over unread: the mode is what it is now.
          state.fixed = true;
          const unread = state.mode === 2 || state.open;
          const blob = !unread && op.response === "binary" ? await response.blob() : undefined;
          if (!unread && !blob) text = await response.text();
          const success = { status, headers: response.headers, text, response };
          const result = settle(op, blob ? { ...success, blob } : success, state);
          const checks = options.responseValidators; // response-validation.ts, as core.ts
          return checks ? checks.check(op, result, state, status, options, secrets) : result;
        }
        text = await response.text();
      } catch (error) {
        if (error instanceof ClientError) throw error;
        if (signal?.aborted) throw aborted();
        const why = error instanceof Error ? error.message : String(error);
        failure = controller.signal.aborted
          ? new TimeoutError(id, timeoutMs)
          : new ConnectionError(`${id} could not reach the API: ${redactor(secrets)(why)}`, id);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
      }
      const status = response?.status ?? 0;
      const safe = !op.unsafe || call.idempotencyKey !== undefined;
      const retry =
        !streamed &&
        attempt < (call.maxRetries ?? options.maxRetries) &&
        (failure
          ? safe && !(failure instanceof TimeoutError)
          : (safe || isNotProcessedStatus(status, retryPolicy)) &&
            isRetryableStatus(status, retryPolicy));
      if (!retry) throw failure ?? this.apiError(op, secrets, status, text, response!.headers);
      const after =
        response &&
        retryAfterMs(response.headers.get("retry-after"), Date.now(), options.maxRetryAfterMs);
      await sleep(
        after ?? backoffMs(attempt, Math.random, options.retryBackoffMs, options.maxRetryBackoffMs),
        signal,
      ).catch(() => {
        throw aborted(" while waiting to retry");
      });
    }
  }
}

/**
 * Replaces each credential (of 4 characters or more), in any case, with `[redacted]`: as it is
 * spelled, and as JSON escapes it (a `"` or a backslash in it): an error body is parsed after
 * it is redacted. core.ts also matches its other escaped and encoded spellings (redact.ts).
 */
function redactor(secrets: readonly string[]): (text: string) => string {
  const spellings = secrets
    .filter((secret) => secret.length > 3)
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
  return (text) =>
    spellings.reduce(
      (out, spelling) =>
        out.replace(new RegExp(spelling.replace(/\W/g, "\\$&"), "gi"), "[redacted]"),
      text,
    );
}

/** An endpoint's function, made from its descriptor when the module loads (`endpointOf`). */
export function endpoint<F>(data: string, ...code: unknown[]): F {
  return endpointOf<F>(data, code, (core, op, call) =>
    core.request(op, call.params, call.body, call.query, call.options),
  );
}
