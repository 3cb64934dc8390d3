/**
 * When and how long the client waits before trying a request again.
 */

/**
 * The statuses the spec marks in `errors.statuses`: `retry: true` ones are retried besides
 * the defaults (GitHub's 403 secondary rate limit), `retry: false` ones never are, and
 * `notProcessed: true` ones (`anyMethod`) are retried for every method: the server promises
 * it did none of the work of a request it answers so.
 */
export interface RetryPolicy {
  statuses?: readonly number[];
  never?: readonly number[];
  anyMethod?: readonly number[];
}

/**
 * Statuses worth another attempt: by default timeouts (408), rate limits (429) and server
 * errors (5xx); the policy adds and takes away statuses as the spec says.
 */
export function isRetryableStatus(status: number, policy: RetryPolicy = {}): boolean {
  if (policy.never?.includes(status)) return false;
  return (
    status === 408 ||
    status === 429 ||
    status >= 500 ||
    policy.statuses?.includes(status) === true ||
    policy.anyMethod?.includes(status) === true
  );
}

/**
 * Whether a status may be retried for a request that is not safe to send twice (a POST or
 * PATCH without an idempotency key): only one the spec marks `notProcessed`, whose requests
 * the server promises it did not process.
 */
export function isNotProcessedStatus(status: number, policy: RetryPolicy = {}): boolean {
  return policy.anyMethod?.includes(status) === true && !policy.never?.includes(status);
}

/**
 * The server's Retry-After in milliseconds (delta-seconds or an HTTP date), when it is
 * between 0 and `maxMs` (the `maxRetryAfterMs` option, 60 s by default); otherwise
 * undefined, and the usual back-off applies: a negative, huge or garbled value never sets
 * the wait.
 */
export function retryAfterMs(
  header: string | null,
  now: number = Date.now(),
  maxMs = 60_000,
): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) && ms >= 0 && ms <= maxMs ? ms : undefined;
}

/**
 * Back-off before retry number `retry` (0 for the first): min(`baseMs` * 2^retry, `capMs`)
 * (0.5 s and 8 s by default: the `retryBackoffMs` and `maxRetryBackoffMs` options), of
 * which a random half is taken off so that clients do not retry in step.
 */
export function backoffMs(
  retry: number,
  random: () => number = Math.random,
  baseMs = 500,
  capMs = 8000,
): number {
  const cap = Math.min(baseMs * 2 ** retry, capMs);
  return cap / 2 + (random() * cap) / 2;
}

/** Resolves after `ms`, or rejects at once with the signal's reason when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Whether a failed fetch certainly never reached the server (the connection was refused or
 * the name did not resolve), so that even a non-idempotent request may be sent again.
 */
export function neverReachedServer(error: unknown): boolean {
  const codes = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && codes.includes(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
