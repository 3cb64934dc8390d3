/**
 * The callback router core: from a request (method, target, headers, a body reader) to a
 * response (status, headers, text), with Web APIs only, so any server can sit in front of
 * it (`node-adapter.ts`, `fetch-adapter.ts`). Per request, in this order: route (404/405),
 * size (413, without reading past the limit), signature over the raw bytes (422), JSON and
 * validation against the spec (400, naming the field), then the handler (500 if it throws).
 * The generated `callbacks.ts` passes the routes and the typed handlers.
 *
 * Everything up to the handler is synchronous when the signature is (Node's HMAC): a request
 * costs one promise, the handler's, and none at all when the handler answers synchronously.
 */
import { validate } from "../validate.js";
import {
  announcesTooMuch,
  defaultBodyLimit,
  json,
  parseJson,
  runHandler,
  withEvent,
} from "./body.js";
import { failureBody, genericFailureShape, type FailureShape } from "./failure.js";
import { exactRoutes, matchRoute, splitTarget, stripBasePath, type RouteSpec } from "./routes.js";
import {
  createSignatureVerifier,
  signatureMessage,
  usableSecrets,
  type HeaderReader,
  type SignatureCheck,
  type SignatureOptions,
  type SignatureVerifier,
} from "./signature.js";

/** A request as the core sees it, whichever server received it. */
export interface InboundRequest {
  method: string;
  /** Path and query as received, e.g. `/oauth/login?state=...` (an absolute URL is accepted too). */
  target: string;
  headers: HeaderReader;
  /** The raw body, read no further than `limit` bytes: `undefined` once it is larger. */
  readBody(limit: number): Promise<Uint8Array<ArrayBuffer> | undefined>;
}

/** The core's answer; an adapter writes it out. */
export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** No route has this path: a framework adapter may hand the request on instead. */
  unmatched?: true;
}

/** What every handler learns about its request besides the validated input. */
export interface RequestContext {
  method: string;
  /** Path below where the router is mounted. */
  path: string;
  query: URLSearchParams;
  headers: HeaderReader;
  /** The body bytes exactly as received (already verified). */
  rawBody: Uint8Array;
}

/** Context of a callback handler. */
export interface CallbackContext extends RequestContext {
  event: string;
  /** The validated parameters by name (path, query, trailing); empty when the callback has none. The handler's input when it has no body. */
  params: Readonly<Record<string, unknown>>;
  /** Sets the HTTP status of the answer (200 to 599; default 200); the body stays what the handler returns. */
  setStatus(status: number): void;
}

/** Any callback handler; the generated `CallbackHandlers` type is the precise one. */
export type AnyHandler = (input: never, ctx: CallbackContext) => unknown;

/** The webhook route: mount it at the URL registered with the service. */
export interface WebhookRoute {
  /** Path below where the router is mounted, e.g. `/webhooks`. Deliveries are POST. */
  path: string;
  /** Receives the verified, parsed payload; its shape is not in the spec. Answer: 200, empty body. */
  handler: (payload: unknown, ctx: RequestContext) => void | Promise<void>;
}

/** Codes put in the failure bodies the router writes itself. */
export interface FailureCodes {
  signature: number;
  invalid: number;
  notFound: number;
  method: number;
  tooLarge: number;
  notImplemented: number;
  internal: number;
}

/** Options every generated router takes (the generated type adds `handlers`). */
export interface BaseRouterOptions {
  /** Current signing secrets; any may match (rotation). Unset and empty entries are skipped. */
  signingSecrets: readonly (string | null | undefined)[];
  /** Prefix the router is mounted under when the server does not strip it (node:http, Fetch), e.g. `/merchant`. */
  basePath?: string;
  /** Largest body read, in bytes; larger gets 413. Default 1 MiB. */
  bodyLimit?: number;
  /** How signatures are computed and read; default base64(HMAC-SHA256(secret, raw body)). */
  signature?: SignatureOptions;
  /** Sees every error a handler throws (and internal errors); the response says only "internal error". */
  onError?: (error: unknown, info: { event?: string; path: string }) => void;
  /** Sees every request the router refuses itself (bad signature, invalid input, ...); `reason` holds no secret. */
  onReject?: (info: { event?: string; path: string; status: number; reason: string }) => void;
  /** Codes in the router's own failure bodies, over the generated defaults. */
  codes?: Partial<FailureCodes>;
  webhook?: WebhookRoute;
}

/** The generated description of an API's callbacks. */
export interface RouterSpec {
  routes: readonly RouteSpec[];
  /** Signature header of webhook deliveries; absent: the API has no webhooks or does not sign them. */
  webhookSignatureHeader?: string;
  /** Code of a signature failure, from the spec. */
  signatureCode: number;
}

/** An answer, or the promise of one when the signature check or the handler is asynchronous. */
export type Answer = OutboundResponse | Promise<OutboundResponse>;

/** A request after the checks that need no body: an answer already, or what to do with the body. */
export type Begun =
  | { answer: OutboundResponse }
  | {
      answer?: undefined;
      /** Read no further than this many bytes; pass `undefined` to `complete` once it is larger. */
      limit: number;
      /** The rest, from the raw body: signature, JSON, validation, handler. */
      complete(body: Uint8Array<ArrayBuffer> | undefined): Answer;
      /** The body could not be read: the generic 500, after `onError`. */
      failed(error: unknown): OutboundResponse;
    };

/** The core of a router: `handle` for any adapter, `begin` for one that reads bodies itself. */
export interface RouterCore {
  handle(request: InboundRequest): Promise<OutboundResponse>;
  begin(method: string, target: string, headers: HeaderReader): Begun;
}

/** Runs a hook, so a hook that throws never changes the answer. */
function safely(run: () => void): void {
  try {
    run();
  } catch {
    // a broken hook must not turn a refusal into a crash
  }
}

/** The core request handler of a router: routes, limits, signature, validation, handlers. */
export function createCore(
  spec: RouterSpec,
  options: BaseRouterOptions & { handlers: { readonly [event: string]: AnyHandler | undefined } },
): RouterCore {
  const secrets = usableSecrets(options.signingSecrets);
  const signed =
    spec.routes.some((r) => r.signatureHeader !== undefined) ||
    (options.webhook !== undefined && spec.webhookSignatureHeader !== undefined);
  if (signed && secrets.length === 0)
    throw new Error(
      "createCallbackRouter: signingSecrets has no usable secret (every entry is empty or unset)",
    );
  const verify: SignatureVerifier = createSignatureVerifier(secrets, options.signature);
  const limit = options.bodyLimit ?? defaultBodyLimit;
  const codes: FailureCodes = {
    signature: spec.signatureCode,
    invalid: 400,
    notFound: 404,
    method: 405,
    tooLarge: 413,
    notImplemented: 501,
    internal: 500,
    ...options.codes,
  };
  const exact = exactRoutes(spec.routes);

  /** A refusal in `shape`, reported to `onReject`. */
  const refuse = (
    shape: FailureShape,
    event: string | undefined,
    path: string,
    status: number,
    code: number,
    reasons: string[],
    headers?: Record<string, string>,
  ): OutboundResponse => {
    safely(() =>
      options.onReject?.({
        ...(event !== undefined ? { event } : {}),
        path,
        status,
        reason: reasons.join("; "),
      }),
    );
    return json(status, failureBody(shape, event, code, reasons), headers);
  };
  /** The generic 500, after `onError` has seen the error. */
  const internal = (
    shape: FailureShape,
    event: string | undefined,
    path: string,
    error: unknown,
  ): OutboundResponse => {
    safely(() => options.onError?.(error, { ...(event !== undefined ? { event } : {}), path }));
    return json(500, failureBody(shape, event, codes.internal, ["internal error"]));
  };
  /** A 404 that a framework adapter may hand on instead. */
  const notFound = (path: string): Begun => ({
    answer: {
      ...refuse(genericFailureShape, undefined, path, 404, codes.notFound, [
        "no callback at this path",
      ]),
      unmatched: true,
    },
  });

  /** A 405 with `Allow`. */
  const wrongMethod = (
    shape: FailureShape,
    event: string | undefined,
    path: string,
    method: string,
    allowed: readonly string[],
  ): Begun => {
    const reason = `${method} is not allowed here; use ${allowed.join(" or ")}`;
    return {
      answer: refuse(shape, event, path, 405, codes.method, [reason], {
        allow: allowed.join(", "),
      }),
    };
  };

  /**
   * Size limit (announced, then read), then signature over the raw bytes; `then` gets the
   * verified body. `event` and `shape` say how refusals look.
   */
  const checked = (
    method: string,
    target: string,
    headers: HeaderReader,
    shape: FailureShape,
    event: string | undefined,
    path: string,
    header: string | undefined,
    then: (body: Uint8Array<ArrayBuffer>) => Answer,
  ): Begun => {
    const tooLarge = () =>
      refuse(shape, event, path, 413, codes.tooLarge, [`body is larger than ${limit} bytes`], {
        connection: "close",
      });
    if (announcesTooMuch(headers.get("content-length"), limit)) return { answer: tooLarge() };
    return {
      limit,
      failed: (error) => internal(shape, event, path, error),
      complete: (body) => {
        if (body === undefined) return tooLarge();
        if (header === undefined) return then(body);
        const check = verify(headers.get(header), { body, method, target, headers });
        const after = (c: SignatureCheck): Answer =>
          c.ok
            ? then(body)
            : refuse(shape, event, path, 422, codes.signature, [
                signatureMessage(c.reason, header),
              ]);
        return check instanceof Promise ? check.then(after) : after(check);
      },
    };
  };

  /** The webhook route: POST only, size, signature, JSON, then the user's handler; 200 with an empty body. */
  const beginWebhook = (
    method: string,
    target: string,
    headers: HeaderReader,
    webhook: WebhookRoute,
    path: string,
    query: URLSearchParams,
  ): Begun => {
    const shape = genericFailureShape;
    if (method.toUpperCase() !== "POST")
      return wrongMethod(shape, undefined, path, method, ["POST"]);
    const header = spec.webhookSignatureHeader;
    return checked(method, target, headers, shape, undefined, path, header, (body) => {
      const parsed = parseJson(body);
      if (!parsed.ok)
        return refuse(shape, undefined, path, 400, codes.invalid, ["body is not valid JSON"]);
      return runHandler(
        () => webhook.handler(parsed.value, { method, path, query, headers, rawBody: body }),
        () => ({ status: 200, headers: { "cache-control": "no-store" }, body: "" }),
        (error) => internal(shape, undefined, path, error),
      );
    });
  };

  /** One callback: size, signature, JSON and validation, then its handler; the answer gets `event` where the spec puts it. */
  const beginRoute = (
    method: string,
    target: string,
    headers: HeaderReader,
    route: RouteSpec,
    params: Record<string, unknown> | undefined,
    path: string,
    query: URLSearchParams,
  ): Begun => {
    const { event, failure: shape } = route;
    const header = route.signatureHeader;
    return checked(method, target, headers, shape, event, path, header, (body) => {
      let input: unknown = params;
      const issues = [];
      if (route.checkBody) {
        const parsed = parseJson(body);
        if (!parsed.ok)
          return refuse(shape, event, path, 400, codes.invalid, ["body is not valid JSON"]);
        issues.push(...validate(route.checkBody, parsed.value, "body"));
        input = parsed.value;
      }
      if (route.checkParams) issues.push(...validate(route.checkParams, params ?? {}, "params"));
      if (issues.length)
        return refuse(
          shape,
          event,
          path,
          400,
          codes.invalid,
          issues.map((i) => `${i.path} ${i.message}`),
        );
      const handler = options.handlers[event] as
        | ((input: unknown, ctx: CallbackContext) => unknown)
        | undefined;
      if (!handler)
        return refuse(shape, event, path, 501, codes.notImplemented, [`no handler for ${event}`]);
      let status = 200;
      const setStatus = (s: number): void => {
        if (!Number.isInteger(s) || s < 200 || s > 599)
          throw new RangeError(`setStatus: ${s} is not an HTTP status from 200 to 599`);
        status = s;
      };
      const ctx: CallbackContext = {
        event,
        method,
        path,
        query,
        headers,
        rawBody: body,
        params: params ?? {},
        setStatus,
      };
      const field = route.responseEvent;
      return runHandler(
        () => handler(input, ctx),
        (result) => {
          if (result === undefined)
            return {
              status: status === 200 ? 204 : status,
              headers: { "cache-control": "no-store" },
              body: "",
            };
          return json(status, field === undefined ? result : withEvent(result, field, event));
        },
        (error) => internal(shape, event, path, error),
      );
    });
  };

  /** Routes one request: webhook path, callback path and method, or 404/405; then the checks before the body. */
  const begin = (method: string, target: string, headers: HeaderReader): Begun => {
    const parts = splitTarget(target);
    if (parts === undefined) return notFound(target);
    const path = stripBasePath(parts.pathname, options.basePath);
    if (path === undefined) return notFound(parts.pathname);
    if (options.webhook && stripBasePath(path, options.webhook.path) === "/")
      return beginWebhook(method, target, headers, options.webhook, path, parts.query);
    const upper = method.toUpperCase();
    const { query } = parts;
    // the spec's own paths need no segment matching: one lookup, the same answer as matchRoute
    const route = exact.get(path)?.get(upper);
    if (route !== undefined)
      return beginRoute(method, target, headers, route, undefined, path, query);
    const match = matchRoute(spec.routes, upper, path, query);
    switch (match.kind) {
      case "none":
        return notFound(parts.pathname);
      case "method":
        return wrongMethod(match.route.failure, match.route.event, path, method, match.allowed);
      case "route":
        return beginRoute(method, target, headers, match.route, match.params, path, query);
      default: {
        const unhandled: never = match;
        throw new Error(`unhandled route match ${JSON.stringify(unhandled)}`);
      }
    }
  };

  /** The whole of a request for any adapter: `begin`, read the body, `complete`. */
  const handle = async (request: InboundRequest): Promise<OutboundResponse> => {
    const begun = begin(request.method, request.target, request.headers);
    if (begun.answer !== undefined) return begun.answer;
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      body = await request.readBody(begun.limit);
    } catch (error) {
      return begun.failed(error);
    }
    return begun.complete(body);
  };

  return { handle, begin };
}
