/**
 * What every call returns: a promise of the body that can also give the response around it.
 * `await call` gives the body; `call.withResponse()` the body with the status, the response
 * and its declared headers, typed; `call.asResponse()` the raw Response, its body unread.
 *
 * The call starts at once. What it resolves to is read off `mode` when its response arrives,
 * which is never before the caller's own code has run on: `withResponse()` and
 * `asResponse()` called on the call's result in the same statement are always in time.
 * A plain `await` costs this object and one `then` more than a bare promise.
 */
import { readDeclared, type DecodeSpec, type Success } from "./decode.js";

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

/** What the request loop reads and leaves on a call's promise (core.ts, decode.ts). */
export interface ResultState {
  mode: ResultMode;
  /** The mode can no longer change: the call was awaited, or its response has arrived. */
  fixed: boolean;
  /** A success read for its body, kept so that `withResponse()` can still be answered. */
  kept?: Success;
  spec?: DecodeSpec;
  /**
   * Set for a streamed success (stream.ts): makes its Stream from the response, which is
   * handed over unread as soon as its headers arrive.
   */
  open?: (response: Response) => unknown;
}

const refuse = (what: string) =>
  Promise.reject(new Error(`${what} must be called on the call's result before it is awaited`));

/** The promise of one call: a thenable (not a Promise subclass) whose result has three forms. */
export class ApiPromise<T, H = Record<string, never>> implements PromiseLike<T>, ResultState {
  mode: ResultMode = 0;
  fixed = false;
  // Set by decode.ts `settle` when a success is kept; the result by the constructor.
  declare kept?: Success;
  declare spec?: DecodeSpec;
  declare private readonly result: Promise<unknown>;

  constructor(run: (state: ResultState) => Promise<unknown>) {
    this.result = run(this);
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.fixed = true;
    const { mode, result } = this;
    const data = !mode
      ? result
      : mode === 1
        ? result.then((r) => (r as WithResponse<T, H>).data)
        : refuse("await (after asResponse())");
    return (data as Promise<T>).then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  /** The body together with the status, the response and the declared headers. */
  withResponse(): Promise<WithResponse<T, H>> {
    if (!this.fixed) {
      this.fixed = true;
      this.mode = 1;
    }
    if (this.mode === 1) return this.result as Promise<WithResponse<T, H>>;
    if (this.mode === 2) return refuse("withResponse() (after asResponse())");
    // Awaited first: the success it kept, with its endpoint (`spec`), answers.
    return this.result.then((data) => {
      const { response, status, headers } = this.kept!;
      return { data, response, status, headers: readDeclared(this.spec!, headers) } as WithResponse<
        T,
        H
      >;
    });
  }

  /**
   * The raw Response of a success, its body unread (a download's stream, say). Call it on
   * the call's result at once; the size limit and the timeout do not cover reading its body.
   * An error status still throws the API's error.
   */
  asResponse(): Promise<Response> {
    if (!this.fixed) {
      this.fixed = true;
      this.mode = 2;
    }
    return this.mode === 2 ? (this.result as Promise<Response>) : refuse("asResponse()");
  }

  /** With it an ApiPromise is assignable to a `Promise` type, as code written before it expects. */
  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}
