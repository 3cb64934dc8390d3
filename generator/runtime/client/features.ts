/**
 * The client's switchable features: what the browser build (browser.ts) runs only when the
 * client is given them (`new MerchantCore({ baseUrl, features: [retries, timeouts] })`), so
 * that a page's bundle carries the bytes of none it does not switch on. The Node build
 * (core.ts) has every one on always and does not read the option. docs/client.md, "The
 * browser build", has the table of what each build does with and without them.
 *
 * A feature is an object with one of the request loop's plug points (`ClientFeature`); the
 * loop merges the features it is given and runs each point where it belongs: `call` around
 * the attempts of a call, `attempt` around one attempt, `fetch` around the attempt's fetch.
 * Redaction of credentials from errors is no feature: the loop always does it (secrets never
 * appear in errors or logs). The loop imports only this file's types; the
 * package's `./client-features` entry (src/client-features.ts) exports the features, so the
 * main entry, and every bundle of it, stays as it was.
 */
import type { ResultState } from "./api-promise.js";
import type { CoreOptions, RequestOptions } from "./core.js";
import {
  ApiError,
  ConnectionError,
  RedirectError,
  TimeoutError,
  UserAbortError,
} from "./errors.js";
import type { Operation } from "./operation.js";
import {
  backoffMs,
  isNotProcessedStatus,
  isRetryableStatus,
  retryAfterMs,
  sleep,
  type RetryPolicy,
} from "./retry.js";

/** One call as the features see it (the browser build's request loop makes it). */
export interface Exchange {
  readonly op: Operation;
  /** The URL the call is sent to. */
  readonly url: string;
  /** The call's options. */
  readonly call: RequestOptions;
  /** The client's options. */
  readonly options: CoreOptions;
  /** The statuses the spec says to retry, or not, besides the defaults (retry.ts). */
  readonly retryPolicy: RetryPolicy;
  /** Whether the body is a stream: sent once, never retried. */
  readonly streamed: boolean;
  /** The credentials the call sends (redacted from errors, also the middleware's). */
  readonly secrets: readonly string[];
  /** The call's promise state (api-promise.ts). */
  readonly state: ResultState;
  /** What ends the attempt early: the caller's signal, or one a feature made (`timeouts`). */
  readonly signal?: AbortSignal | undefined;
}

/** One step of a call: its attempts, or one attempt; resolves to the call's result. */
export type Step = (exchange: Exchange) => Promise<unknown>;

/** A fetch as the request loop calls it: a plain function of a URL and an init. */
export type Send = (url: string, init: RequestInit) => Promise<Response>;

/** What a feature plugs into the request loop: any of these points. */
export interface ClientFeature {
  /** Runs the call's attempts (`retries`). */
  readonly call?: (exchange: Exchange, attempts: Step) => Promise<unknown>;
  /** Runs one attempt (`timeouts`). */
  readonly attempt?: (exchange: Exchange, attempt: Step) => Promise<unknown>;
  /** The fetch of an attempt, around the middleware's (`redirectErrors`). */
  readonly fetch?: (exchange: Exchange, send: Send) => Send;
}

/**
 * Retries, as the Node build's: a connection failure, a timeout and the statuses 408, 429
 * and 5xx (and those the spec marks) are tried again up to `maxRetries` times (2), after the
 * server's `Retry-After` or a back-off (`retryBackoffMs`, `maxRetryBackoffMs`,
 * `maxRetryAfterMs`); a POST or PATCH without an idempotency key only after a status the spec
 * marks `notProcessed`; a streamed body never (docs/client.md, "Retries"). A browser's failed
 * fetch never says why, so a refused connection is retried only for a request safe to repeat.
 */
export const retries: ClientFeature = {
  async call(exchange, attempts) {
    const { op, call, options, retryPolicy } = exchange;
    const safe = !/^(POST|PATCH)$/.test(op.method) || call.idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        return await attempts(exchange);
      } catch (error) {
        const status = error instanceof ApiError ? error.status : undefined;
        const retry =
          !exchange.streamed &&
          attempt < (call.maxRetries ?? options.maxRetries ?? 2) &&
          (status === undefined
            ? safe && (error instanceof ConnectionError || error instanceof TimeoutError)
            : (safe || isNotProcessedStatus(status, retryPolicy)) &&
              isRetryableStatus(status, retryPolicy));
        if (!retry) throw error;
        const after =
          status === undefined
            ? undefined
            : retryAfterMs(
                (error as ApiError).headers.get("retry-after"),
                Date.now(),
                options.maxRetryAfterMs,
              );
        const { signal } = call;
        await sleep(
          after ??
            backoffMs(attempt, Math.random, options.retryBackoffMs, options.maxRetryBackoffMs),
          signal,
        ).catch(() => {
          throw new UserAbortError(`${op.id} was aborted while waiting to retry`, op.id, {
            cause: signal?.reason,
          });
        });
      }
    }
  },
};

/**
 * The attempt's time limit, as the Node build's: `timeoutMs` (60 s; 0, Infinity or over
 * 2^31 - 1 ms for none), the body's reading included; an attempt past it is a `TimeoutError`
 * (retried as a connection failure is, with `retries`). Every attempt's fetch gets the signal
 * of its own controller, which the timeout and the caller's signal abort.
 */
export const timeouts: ClientFeature = {
  async attempt(exchange, attempt) {
    const { op, call, signal } = exchange;
    const { timeoutMs = exchange.options.timeoutMs ?? 60_000 } = call;
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener("abort", abort);
    const timer = timeoutMs > 0 && timeoutMs < 2 ** 31 ? setTimeout(abort, timeoutMs) : 0;
    try {
      return await attempt({ ...exchange, signal: controller.signal });
    } catch (error) {
      // The loop words a fetch the signal ended as a failed connection, unless the caller's it was.
      throw controller.signal.aborted && error instanceof ConnectionError
        ? new TimeoutError(op.id, timeoutMs)
        : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  },
};

/**
 * A redirect as a `RedirectError` (its status; 0 for a browser's `opaqueredirect`, which
 * hides where it goes), with nothing sent on: the request asks fetch for `redirect:
 * "manual"`. Without it the browser build asks for `redirect: "error"`: fetch refuses every
 * redirect itself, and the call fails as a failed connection (`ConnectionError`). Either way
 * no credential reaches another origin, and no redirect is followed.
 */
export const redirectErrors: ClientFeature = {
  fetch:
    ({ op }, send) =>
    async (url, init) => {
      const response = await send(url, { ...init, redirect: "manual" });
      const { status } = response;
      if (!status || (/^30[12378]$/.test(`${status}`) && response.headers.has("location")))
        throw new RedirectError(`${op.id} was redirected (${status}): not followed`, op.id, status);
      return response;
    },
};

/** Every feature at once: `features: allFeatures`. */
export const allFeatures: readonly ClientFeature[] = [retries, timeouts, redirectErrors];
