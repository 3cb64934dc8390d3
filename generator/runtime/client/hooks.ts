/**
 * Middleware: ordered, async `onRequest` / `onResponse` / `onError` hooks around each attempt
 * of a call (docs/client.md, "Middleware"), in openapi-fetch's shape. `onRequest` runs in the
 * order given, `onResponse` and `onError` in reverse (each wraps the ones after it). They run
 * once per attempt, within its timeout: not per redirect the client follows, not once per
 * call.
 *
 * The request loop never imports this module: a client that takes middleware is given a
 * stack made here (`withMiddleware`), whose `attempt` the loop calls. So a bundle without
 * middleware keeps none of this code.
 */
import { ClientError, ConnectionError } from "./errors.js";
import type { ResultState } from "./api-promise.js";
import { redact } from "./redact.js";
import type { HopContext } from "./redirect.js";
import type { Ending } from "./timeout.js";

/** What every hook of an attempt is given. */
export interface MiddlewareContext<Id extends string = string> {
  /** The endpoint's id (`transactions.get`): the package's ids as a union, to `switch` on. */
  readonly endpointId: Id;
  /**
   * The attempt's request as the hooks before left it. It carries what is sent: the
   * credentials in their headers or the query string included; never log it whole.
   */
  readonly request: Request;
  /** 1 for a call's first attempt, 2 for its first retry, ... */
  readonly attempt: number;
  /**
   * The client's `fetch` (its option, or the global one), without the middleware: to send a
   * request again from `onResponse` (a token refreshed, say). It sends exactly what it is
   * given: the client's redirect rules, limits and redaction apply only to what a hook returns.
   */
  readonly fetch: typeof fetch;
}

/** What a hook may return: nothing (go on as it is), or what takes the place of what it got. */
type Returns<T> = T | undefined | void | Promise<T | undefined | void>;

/**
 * One middleware: any of three hooks, each possibly async. Whatever a hook throws fails the
 * call with a `MiddlewareError` (never retried) whose `cause` is what it threw.
 */
export interface Middleware<Id extends string = string> {
  /**
   * Before each attempt is sent (once per attempt, not per redirect). Change
   * `context.request` in place (its headers), return a new `Request` to send instead, or a
   * `Response` to answer the attempt without sending anything (the later middleware's hooks
   * then do not run).
   */
  onRequest?(context: MiddlewareContext<Id>): Returns<Request | Response>;
  /**
   * With the attempt's response (after the redirects the client followed, its body unread),
   * whatever its status. Return a new `Response` to use instead (cancel the body of the one
   * you drop); the client then reads it, and retries on its status, as it would the server's.
   */
  onResponse?(context: MiddlewareContext<Id> & { readonly response: Response }): Returns<Response>;
  /**
   * When the attempt's fetch failed with no response: a refused or reset connection, a name
   * that did not resolve. `error` is the `ConnectionError` the call fails with (redacted) if
   * no retry helps. Return a `Response` to answer the attempt with it instead. Not called for
   * a timeout or an abort (the attempt is over), nor an error status (`onResponse` has it).
   */
  onError?(context: MiddlewareContext<Id> & { readonly error: ConnectionError }): Returns<Response>;
}

/** Which hook a `MiddlewareError` came from. */
export type HookName = "onRequest" | "onResponse" | "onError";

/**
 * A hook threw, or returned what it may not. The message (redacted against the call's
 * credentials, one line) names the endpoint, the middleware by its place and the hook;
 * `cause` is what it threw, as it threw it.
 */
export class MiddlewareError extends ClientError {
  override name = "MiddlewareError";
  constructor(
    message: string,
    endpointId: string,
    /** The hook that failed. */
    readonly hook: HookName,
    /** The middleware's place in `withMiddleware(...)`, from 0. */
    readonly index: number,
    options?: { cause?: unknown },
  ) {
    super(message, endpointId, options);
  }
}

/** A client's middleware, ready for the request loop: made by `withMiddleware`. */
export interface MiddlewareStack<Id extends string = string> {
  readonly middleware: readonly Middleware<Id>[];
  /**
   * The fetch of one attempt, running the hooks around it: `at` is where the attempt is (its
   * endpoint, URL and method, moved on by each redirect), `state` its call's (attempts are
   * counted per call), `secrets` the call's credentials, `send` the client's fetch.
   */
  attempt(
    at: HopContext,
    ending: Ending,
    state: ResultState,
    secrets: readonly string[],
    send: typeof fetch,
  ): (url: string, init: RequestInit) => Promise<Response>;
}

/**
 * The client option `middleware`: `new MerchantClient({ baseUrl, middleware:
 * withMiddleware(tracing, refreshToken) })`. The hooks run in the order given here. The ids
 * are the client's (read off where the stack goes, never off the middleware given), so hooks
 * written in place get the client's union of ids, and a middleware typed with others fails.
 */
export function withMiddleware<Id extends string = string>(
  ...middleware: NoInfer<Middleware<Id>>[]
): MiddlewareStack<Id> {
  return { middleware, attempt: (...args) => hookedFetch(middleware, ...args) };
}

/** Attempts so far, per call. */
const attempts = /* @__PURE__ */ new WeakMap<object, number>();

/** Runs one hook: what it returns when `ok` takes it, else a MiddlewareError. */
type Run = <T>(
  hook: HookName,
  index: number,
  call: () => unknown,
  ok: (value: unknown) => value is T,
) => Promise<T | undefined>;

function hookedFetch(
  list: readonly Middleware[],
  at: HopContext,
  ending: Ending,
  state: ResultState,
  secrets: readonly string[],
  send: typeof fetch,
): (url: string, init: RequestInit) => Promise<Response> {
  const { endpointId } = at;
  const attempt = (attempts.get(state) ?? 0) + 1;
  attempts.set(state, attempt);
  let request: Request;
  const context = (): MiddlewareContext => ({ endpointId, request, attempt, fetch: send });
  const run: Run = async (hook, index, call, ok) => {
    let value: unknown;
    try {
      value = await call();
    } catch (error) {
      throw failure(endpointId, hook, index, error, secrets, "threw");
    }
    // The attempt ended (its timeout, an abort) while the hook ran: nothing more is done.
    if (ending.why) throw new Error(ending.why);
    if (value === undefined || ok(value)) return value;
    throw failure(endpointId, hook, index, value, secrets, "returned");
  };
  return async (url, init) => {
    let response: Response | undefined;
    let after = list.length; // onResponse runs for the middleware before this one
    if (at.hops === 0) {
      // Only the first request of an attempt: a redirect goes on with what the hooks made.
      const built = new Request(url, init);
      request = built;
      // A content type the Request derived from the body (FormData's boundary): left for
      // fetch to derive again while the body sent is still the client's own.
      const derived = hasHeader(init, "content-type") ? null : built.headers.get("content-type");
      for (let i = 0; i < list.length && !response; i++) {
        const m = list[i]!;
        if (!m.onRequest) continue;
        const next = await run("onRequest", i, () => m.onRequest!(context()), isRequestOrResponse);
        if (isResponse(next)) [response, after] = [next, i];
        else if (next) request = next;
      }
      if (!response) await adopt(request, built, derived, at, init);
    }
    response ??= await sent(init);
    // A redirect is followed or refused by the client: the hooks see where it ends.
    if (isRedirect(response)) return response;
    for (let i = after - 1; i >= 0; i--) {
      const m = list[i]!;
      const got: Response = response;
      if (m.onResponse)
        response =
          (await run(
            "onResponse",
            i,
            () => m.onResponse!({ ...context(), response: got }),
            isResponse,
          )) ?? got;
    }
    return response;
  };

  /** The response of fetch, or of an onError hook when fetch failed. */
  async function sent(init: RequestInit): Promise<Response> {
    if (ending.why) throw new Error(ending.why); // ended while a hook ran: nothing is sent
    try {
      return await send(at.url, init);
    } catch (error) {
      if (ending.why) throw error;
      // Worded as the request loop words it (core.ts, `attempt`).
      const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const detail = redact(inner instanceof Error ? inner.message : String(inner), secrets);
      const failed = new ConnectionError(
        `${endpointId} could not reach the API: ${detail}`,
        endpointId,
      );
      for (let i = list.length - 1; i >= 0; i--) {
        const m = list[i]!;
        const answer =
          m.onError &&
          (await run("onError", i, () => m.onError!({ ...context(), error: failed }), isResponse));
        if (answer) return answer;
      }
      throw error; // the request loop makes it the call's ConnectionError, retried as ever
    }
  }
}

/**
 * Makes `init` send what `request` holds: its URL, method and headers, and its body when a
 * hook gave a Request of its own (read whole, so a redirect can send it again; a stream the
 * client sends stays a stream).
 */
async function adopt(
  request: Request,
  built: Request,
  derived: string | null,
  at: HopContext,
  init: RequestInit,
): Promise<void> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const own = request === built;
  if (own && derived !== null && headers["content-type"] === derived)
    delete headers["content-type"];
  init.headers = headers;
  init.method = at.method = request.method;
  at.url = request.url;
  if (own) return;
  const streamed = typeof (init.body as ReadableStream | undefined)?.getReader === "function";
  if (!request.body) delete init.body;
  else init.body = streamed ? request.body : await request.clone().arrayBuffer();
}

/** Whether the client's headers (a record) name `name` (lower-case), in any case. */
function hasHeader(init: RequestInit, name: string): boolean {
  return Object.keys(init.headers as Record<string, string>).some((k) => k.toLowerCase() === name);
}

/** A redirect the client follows or refuses itself (redirect.ts): no hook sees it. */
function isRedirect(response: Response): boolean {
  return (
    response.type === "opaqueredirect" ||
    (response.headers.has("location") && [301, 302, 303, 307, 308].includes(response.status))
  );
}

/**
 * By their tag, not `instanceof`: a `fetch` passed in (undici's own package, another realm's)
 * makes Responses of a class other than the global one.
 */
const tagOf = (value: unknown): string => Object.prototype.toString.call(value);
const isResponse = (value: unknown): value is Response => tagOf(value) === "[object Response]";
const isRequestOrResponse = (value: unknown): value is Request | Response =>
  isResponse(value) || tagOf(value) === "[object Request]";

/** The MiddlewareError of a hook that threw `value` or returned it. */
function failure(
  endpointId: string,
  hook: HookName,
  index: number,
  value: unknown,
  secrets: readonly string[],
  what: "threw" | "returned",
): MiddlewareError {
  let text = `${tagOf(value)}, which is not a ${hook === "onRequest" ? "Request or " : ""}Response`;
  try {
    if (what === "threw")
      text = value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  } catch {
    text = tagOf(value); // a value with no text (`Object.create(null)`)
  }
  // One line, as every error message of the client (response.ts).
  const line = redact(text, secrets)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, " ")
    .slice(0, 300);
  return new MiddlewareError(
    `${endpointId}: middleware[${index}].${hook} ${what} ${line}`,
    endpointId,
    hook,
    index,
    what === "threw" ? { cause: value } : undefined,
  );
}
