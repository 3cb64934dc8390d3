/**
 * What every call returns: a promise of the body that can also give the response around it.
 * `await call` gives the body; `call.withResponse()` the body with the status, the response
 * and its declared headers, typed; `call.asResponse()` the raw Response, its body unread.
 *
 * The call starts when one of them is asked for, or at the end of the current task when none
 * is (so a call nobody awaits is still sent): `asResponse()` must know before the body is
 * read. A plain `await` costs this object and one closure, nothing more. A call started at
 * the end of the task keeps its response, so that it can still be awaited or asked
 * `withResponse()` later.
 */

/** What `withResponse()` gives. */
export interface WithResponse<T, H> {
  /** The body, as `await` gives it. */
  data: T;
  /** The response; its body has been read (use `asResponse()` for the stream). */
  response: Response;
  status: number;
  /** The headers the spec declares, by their spec name, parsed by their type; absent ones left out. */
  headers: H;
}

/** 0: the body; 1: the body with the response (`withResponse`); 2: the response, body unread. */
export type ResultMode = 0 | 1 | 2;

/** The promise of one call; a thenable, so that it starts only once its caller says what it wants. */
export class ApiPromise<T, H = Record<string, never>> implements PromiseLike<T> {
  private started: Promise<unknown> | undefined;
  private mode: ResultMode = 0;

  constructor(private readonly run: (mode: ResultMode) => Promise<unknown>) {
    // Its failure is reported where the call is awaited; unawaited, it is dropped.
    queueMicrotask(() => void this.start(1).catch(() => {}));
  }

  /** Starts the call in `mode` unless it has started; the promise of its result. */
  private start(mode: ResultMode): Promise<unknown> {
    if (!this.started) {
      this.mode = mode;
      this.started = this.run(mode);
    }
    return this.started;
  }

  /** The result in `mode`: what the call gave, or its body taken out of a `withResponse`. */
  private as(mode: 0 | 1): Promise<unknown> {
    const result = this.start(mode);
    if (this.mode === mode) return result;
    // Started for another purpose: a call awaited and then asked for its response (or the
    // reverse) gets the same result, never a second request.
    if (this.mode === 1) return result.then((r) => (r as WithResponse<T, H>).data);
    return Promise.reject(
      new Error(
        this.mode === 2
          ? "asResponse() was called first: read the Response instead"
          : "withResponse() must be called before the call is awaited",
      ),
    );
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return (this.as(0) as Promise<T>).then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return (this.as(0) as Promise<T>).finally(onFinally);
  }

  /** The body together with the status, the response and the declared headers. */
  withResponse(): Promise<WithResponse<T, H>> {
    return this.as(1) as Promise<WithResponse<T, H>>;
  }

  /**
   * The raw Response of a success, its body unread (a download's stream, say). Call it on
   * the call's result at once; the size limit and the timeout do not cover reading its body.
   * An error status still throws the API's error.
   */
  asResponse(): Promise<Response> {
    if (this.started && this.mode !== 2)
      return Promise.reject(new Error("asResponse() must be called before the call is awaited"));
    return this.start(2) as Promise<Response>;
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}
