/**
 * The request loop of the browser build: what a bundler for browsers takes in place of
 * core.ts (the `browser` map of the generated package.json). The same endpoints, options,
 * results and error classes, on a loop of the client's core only: the URL, headers and
 * credentials, the body, one fetch, the answer decoded or the API's typed error, and the
 * caller's signal, and the credentials redacted from errors (always: secrets never appear in
 * errors or logs). Retries, timeouts and redirects as errors are features the client is given
 * (`features: [retries, timeouts]`, features.ts), middleware and response validation options
 * that bring their code: a page's bundle carries only those it switches on. docs/client.md,
 * "The browser build", lists every difference from core.ts.
 * Uses only fetch: it runs in Node too (its tests do).
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
  MissingCredentialError,
  ClientError,
  ClientOptionsError,
  ConnectionError,
  UserAbortError,
  type ApiErrorDetails,
} from "./errors.js";
import type { ClientFeature, Exchange, Step } from "./features.js";
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
import type { RetryPolicy } from "./retry.js";

export { ApiPromise, type WithResponse } from "./api-promise.js";
export { lenientApiRequests, type ApiRequests } from "./api-requests.js";
export type {
  BasicCredentialValue,
  ClientLogger,
  CoreOptions,
  CredentialValue,
  RequestOptions,
} from "./core.js";
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

/** A plug point no feature takes: the step runs as it is. */
const pass = (exchange: Exchange, next: Step) => next(exchange);

/** The plug points of the client's features, merged; those none takes pass through. */
type Plugs = Required<Pick<ClientFeature, "call" | "attempt">> & ClientFeature;

/** Text or headers, as an error may keep them. */
type Redact = <T extends string | Headers>(value: T) => T;

/**
 * What an error keeps of the server's text and headers, and a failed connection's message,
 * with the call's credentials redacted (a header whose name spells one is left out): each
 * credential of 4 characters or more, in any case, as it is spelled and as JSON escapes it (a
 * quote or backslash in it). Always on, as in the Node build, which also matches other escaped
 * and encoded spellings (redact.ts).
 */
function browserRedactor(secrets: readonly string[]): Redact {
  const spellings = secrets
    .filter((secret) => secret.length > 3)
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
  const clean = (text: string) =>
    spellings.reduce(
      (out, spelling) =>
        out.replace(new RegExp(spelling.replace(/\W/g, "\\$&"), "gi"), "[redacted]"),
      text,
    );
  return <T extends string | Headers>(value: T): T => {
    if (typeof value === "string") return clean(value) as T;
    const headers = new Headers();
    (value as Headers).forEach((text, name) => {
      if (clean(name) === name) headers.append(name, clean(text));
    });
    return headers as T;
  };
}

/** One call as the loop runs it: what the features see, and the request it sends. */
interface Call extends Exchange {
  readonly init: RequestInit & { headers: Record<string, string> };
  /** What an error keeps of the server's answer, the call's credentials redacted. */
  readonly clean: Redact;
}

export class ClientCore {
  /** The base address calls go to (no trailing slash), read by the paging runtime for next links. */
  declare readonly base: string;
  /** The base address's origin: next links are followed only within it. */
  declare readonly origin: string;
  /** The most pages a walk reads, read by the paging runtime. */
  declare readonly maxPages: number;
  declare private readonly options: CoreOptions;
  /** Credentials given as strings, redacted from errors. */
  declare private readonly secrets: readonly string[];
  declare private readonly apiHeaders: Readonly<Record<string, string>> | undefined;
  declare private readonly hosts: Readonly<Record<string, Address>> | undefined;
  /** The features given (`features`), merged. */
  declare private readonly plugs: Plugs;

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
    // What the spec has every request carry, worked out by the code the generated core
    // passes beside it (api-requests.ts `lenientApiRequests`): a spec without leaves it out.
    ({ headers: this.apiHeaders, hosts: this.hosts } =
      api.lenient?.(api, options as SpecOptions) ?? {});
    this.options = options;
    this.maxPages = options.maxPages ?? 10_000; // the defaults are core.ts's
    this.plugs = Object.assign({ call: pass, attempt: pass }, ...(options.features ?? []));
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

  /** The API's error of an error answer (or an error item of a stream), its credentials redacted. */
  private apiError(
    { op, clean }: Pick<Call, "op" | "clean">,
    status: number,
    text: string,
    headers: Headers,
    streamItem?: number,
  ): Error {
    const details = detailsOf(
      op.id,
      status,
      clean(text),
      false,
      clean(headers),
      this.requestIdHeader,
    );
    return new this.errorClass({ ...details, streamItem } as ApiErrorDetails);
  }

  /** Sends one call of `op` through the features it was given; resolves to its result in the mode of `state`. */
  private async send(
    op: Operation,
    params: PathParams | undefined,
    body: unknown,
    query: QueryParams | undefined,
    call: RequestOptions,
    state: ResultState,
  ): Promise<unknown> {
    const { id } = op;
    const { options, plugs } = this;
    // This build's endpoints bring no validators (request-validators.browser.ts): the caller's
    // `requestValidators` check the request, except the later pages of a walk, whose
    // operation has neither key (pagination.ts).
    const given = options.requestValidators?.[id];
    check(
      "validateParams" in op || "validateBody" in op
        ? {
            ...op,
            validateParams: op.validateParams ?? given?.params,
            validateBody: op.validateBody ?? given?.body,
          }
        : op,
      params,
      body,
      query,
    );
    let secrets = this.secrets;
    const inQuery: string[] = [];
    let headers: Record<string, string> = {
      ...op.fixedHeaders,
      ...this.apiHeaders,
      ...lowerKeys({ ...op.headers, ...options.headers, ...call.headers }),
    };
    for (const send of op.choose?.(op, this.credentials) ?? op.sends) {
      let value: unknown = this.credentials[send.option];
      if (!value) {
        if (send.optional) continue;
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
      headers[(options.idempotencyHeader ?? "idempotency-key").toLowerCase()] = call.idempotencyKey;
    const placed =
      op.place && (query || op.sendDefaults || inQuery.length)
        ? op.place(op, query, inQuery)
        : undefined;
    const clean = browserRedactor(secrets);
    headers = {
      ...headers,
      ...placed?.headers,
      ...op.conditional?.headers(id, call),
      ...op.stream?.(op, body, state, call.signal, Infinity, (status, text, h, item) =>
        this.apiError({ op, clean }, status, text, h, item),
      ),
    };
    const payload =
      body === undefined
        ? undefined
        : op.body && op.encode
          ? await op.encode(id, op.body, body)
          : serialize(op, body);
    // a call without a body (one it may leave out) describes none; `headers` is this call's own
    if (payload === undefined) delete headers["content-type"];
    // A stream is sent once (`duplex: "half"`): no retry after an attempt.
    const streamed = typeof (payload as ReadableStream | undefined)?.getReader === "function";
    const init: Call["init"] & { duplex?: "half" } = {
      method: op.method,
      headers,
      redirect: "error",
    };
    if (payload !== undefined) init.body = payload;
    if (streamed) init.duplex = "half";
    const exchange: Call = {
      op,
      call,
      options,
      retryPolicy: this.retryPolicy,
      streamed,
      secrets,
      state,
      signal: call.signal,
      url: this.addressOf(op).base + pathOf(op, params) + (placed?.search ?? ""),
      init,
      clean,
    };
    return plugs.call(exchange, (x) => plugs.attempt(x, (x) => this.attempt(x as Call)));
  }

  /** One attempt: its fetch (through the middleware and the features'), and its answer read. */
  private async attempt(x: Call): Promise<unknown> {
    const { op, call, state, signal, url, init } = x;
    const { id } = op;
    const { options, plugs } = this;
    const { nonce } = call;
    if (nonce)
      init.headers[(options.nonceHeader ?? "x-nonce").toLowerCase()] =
        typeof nonce === "function" ? nonce() : randomNonce();
    let response: Response;
    let text = "";
    try {
      if (call.signal?.aborted) throw 0;
      const own = options.fetch ?? fetch;
      // The hooks of `withMiddleware` (hooks.ts) see the attempt ended by the caller or the timeout.
      const ending = {
        get why() {
          return signal?.aborted ? (call.signal?.aborted ? "abort" : "timeout") : undefined;
        },
      } as const;
      const at = { endpointId: id, url, method: op.method, hops: 0 };
      const hooked = options.middleware?.attempt(at, ending, state, x.secrets, own) ?? own;
      response = await (plugs.fetch?.(x, hooked) ?? hooked)(
        url,
        signal ? { ...init, signal } : init,
      );
      const { status } = response;
      if (status < 300 || (status === 304 && op.conditional)) {
        // From here on the body is read, or handed over unread: the mode is what it is now.
        state.fixed = true;
        const unread = state.mode === 2 || state.open;
        const blob = !unread && op.response === "binary" ? await response.blob() : undefined;
        if (!unread && !blob) text = await response.text();
        const success = { status, headers: response.headers, text, response };
        const result = settle(op, blob ? { ...success, blob } : success, state);
        const checks = options.responseValidators; // response-validation.ts, as core.ts
        return checks ? checks.check(op, result, state, status, options, x.secrets) : result;
      }
      text = await response.text();
    } catch (error) {
      if (error instanceof ClientError) throw error;
      if (call.signal?.aborted)
        throw new UserAbortError(`${id} was aborted`, id, { cause: call.signal.reason });
      const why = error instanceof Error ? error.message : String(error);
      throw new ConnectionError(`${id} could not reach the API: ${x.clean(why)}`, id);
    }
    throw this.apiError(x, response.status, text, response.headers);
  }
}

/** An endpoint's function, made from its descriptor when the module loads (`endpointOf`). */
export function endpoint<F>(data: string, ...code: unknown[]): F {
  return endpointOf<F>(data, code, (core, op, call) =>
    core.request(op, call.params, call.body, call.query, call.options),
  );
}
