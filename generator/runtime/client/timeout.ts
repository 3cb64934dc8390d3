/**
 * An attempt's time limit and the caller's abort. An attempt ends at its timeout or at the
 * abort whatever fetch does, by racing it; what it waits on is then let go: the response's
 * body is cancelled, which closes its connection.
 *
 * fetch gets an AbortSignal of ours only where it is worth its cost. On Node 20 a signal
 * costs about 10-15 µs per request (undici follows it with a listener, a WeakRef and a
 * FinalizationRegistry entry; a signal shared between requests is worse, each request
 * walking the listeners the others left on it), 7-8% of a loopback call. Without one, a
 * timeout before the response arrives cannot close the connection: the late response is
 * cancelled when it comes (undici gives up by itself after its 300 s headersTimeout). So an
 * attempt gets its own controller when the caller passes a signal, and on every attempt of a
 * client after one such timeout: a server that stalled once may stall again, and then each
 * timeout closes its connection at once.
 */

/** How an attempt ended before its work did, and what it lets go of then. */
export interface Ending {
  /** Why the attempt ended early, once it has. */
  why?: "timeout" | "abort" | undefined;
  /** Lets go of what the attempt waits on (a response's body); unset while waiting for a response. */
  release?: (() => void) | undefined;
}

/** Longest timer delay: a longer one fires at once on every runtime, so it means no timeout. */
const maxDelay = 2 ** 31 - 1;

/**
 * Runs `work` until it settles, `timeoutMs` passes or `caller` aborts, whichever is first;
 * `ending.why` then says which ended it. `signal` gives work an AbortSignal of its own
 * (fired by either end), made only when asked for or when the caller passes one.
 */
export function bounded<T>(
  timeoutMs: number,
  caller: AbortSignal | undefined,
  signal: boolean,
  ending: Ending,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const controller = signal || caller ? new AbortController() : undefined;
  return new Promise<T>((resolve, reject) => {
    const end = (why: "timeout" | "abort") => {
      ending.why = why;
      controller?.abort();
      ending.release?.();
      done();
      reject(new Error(why));
    };
    const onAbort = () => end("abort");
    const timer =
      timeoutMs > 0 && timeoutMs <= maxDelay ? setTimeout(end, timeoutMs, "timeout") : undefined;
    // Where timers can be unref'd (Node, Bun) this one does not hold the process: an attempt
    // in flight holds it by its connection. A held timer costs ~2% of a loopback call on Node.
    (timer as { unref?: () => void } | undefined)?.unref?.();
    const done = () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
    };
    if (caller?.aborted) return end("abort");
    caller?.addEventListener("abort", onAbort);
    work(controller?.signal).then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
