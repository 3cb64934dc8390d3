/**
 * The callback router core: from a request (method, target, headers, a body reader) to a
 * response (status, headers, text), with Web APIs only, so any server can sit in front of
 * it (`node-adapter.ts`, `fetch-adapter.ts`). Per request, in this order: route (404/405),
 * size (413, without reading past the limit), signature over the raw bytes (422), JSON and
 * validation against the spec (400, naming the field), then the handler (500 if it throws).
 * The generated `callbacks.ts` passes the routes and the typed handlers.
 */
import { validate } from "../validate.js";
import { announcesTooMuch, defaultBodyLimit, parseJson } from "./body.js";
import { failureBody, genericFailureShape, type FailureShape } from "./failure.js";
import { matchRoute, stripBasePath, type RouteSpec } from "./routes.js";
import {
  createSignatureVerifier,
  signatureMessage,
  usableSecrets,
  type HeaderReader,
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

const jsonHeaders = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

/** A JSON response. */
function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): OutboundResponse {
  return { status, headers: { ...jsonHeaders, ...headers }, body: JSON.stringify(body) };
}

/** Runs a hook, so a hook that throws never changes the answer. */
function safely(run: () => void): void {
  try {
    run();
  } catch {
    // a broken hook must not turn a refusal into a crash
  }
}

/** An object that is not an array or null: an answer the router may add `event` to. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The core request handler of a router: routes, limits, signature, validation, handlers. */
export function createCore(
  spec: RouterSpec,
  options: BaseRouterOptions & { handlers: { readonly [event: string]: AnyHandler | undefined } },
): (request: InboundRequest) => Promise<OutboundResponse> {
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

  /** A refusal in `shape`, reported to `onReject`. */
  const refuse = (
    shape: FailureShape,
    event: string | undefined,
    path: string,
    status: number,
    code: number,
    reasons: string[],
    headers: Record<string, string> = {},
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

  /** Size limit, then signature: the verified raw body, or the refusal. */
  const readVerified = async (
    request: InboundRequest,
    shape: FailureShape,
    event: string | undefined,
    path: string,
    header: string | undefined,
  ): Promise<Uint8Array<ArrayBuffer> | OutboundResponse> => {
    const tooLarge = () =>
      refuse(shape, event, path, 413, codes.tooLarge, [`body is larger than ${limit} bytes`], {
        connection: "close",
      });
    if (announcesTooMuch(request.headers.get("content-length"), limit)) return tooLarge();
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      body = await request.readBody(limit);
    } catch (error) {
      return internal(shape, event, path, error);
    }
    if (body === undefined) return tooLarge();
    if (header === undefined) return body;
    const check = await verify(request.headers.get(header), {
      body,
      method: request.method,
      target: request.target,
      headers: request.headers,
    });
    return check.ok
      ? body
      : refuse(shape, event, path, 422, codes.signature, [signatureMessage(check.reason, header)]);
  };

  /** The webhook route: POST only, size, signature, JSON, then the user's handler; 200 with an empty body. */
  const handleWebhook = async (
    request: InboundRequest,
    webhook: WebhookRoute,
    path: string,
    query: URLSearchParams,
  ): Promise<OutboundResponse> => {
    const shape = genericFailureShape;
    if (request.method.toUpperCase() !== "POST")
      return refuse(
        shape,
        undefined,
        path,
        405,
        codes.method,
        [`${request.method} is not allowed here; use POST`],
        { allow: "POST" },
      );
    const body = await readVerified(request, shape, undefined, path, spec.webhookSignatureHeader);
    if (!(body instanceof Uint8Array)) return body;
    const parsed = parseJson(body);
    if (!parsed.ok)
      return refuse(shape, undefined, path, 400, codes.invalid, ["body is not valid JSON"]);
    try {
      await webhook.handler(parsed.value, {
        method: request.method,
        path,
        query,
        headers: request.headers,
        rawBody: body,
      });
    } catch (error) {
      return internal(shape, undefined, path, error);
    }
    return { status: 200, headers: { "cache-control": "no-store" }, body: "" };
  };

  /** One callback: size, signature, JSON and validation, then its handler; the answer gets `event` where the spec puts it. */
  const handleRoute = async (
    request: InboundRequest,
    route: RouteSpec,
    params: Record<string, unknown> | undefined,
    path: string,
    query: URLSearchParams,
  ): Promise<OutboundResponse> => {
    const { event, failure: shape } = route;
    const body = await readVerified(request, shape, event, path, route.signatureHeader);
    if (!(body instanceof Uint8Array)) return body;
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
    const handler = options.handlers[event];
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
      method: request.method,
      path,
      query,
      headers: request.headers,
      rawBody: body,
      params: params ?? {},
      setStatus,
    };
    try {
      const result = await (handler as (input: unknown, ctx: CallbackContext) => unknown)(
        input,
        ctx,
      );
      if (result === undefined)
        return {
          status: status === 200 ? 204 : status,
          headers: { "cache-control": "no-store" },
          body: "",
        };
      const answer =
        route.responseEvent !== undefined && isPlainObject(result)
          ? { [route.responseEvent]: event, ...result, [route.responseEvent]: event }
          : result;
      return json(status, answer);
    } catch (error) {
      return internal(shape, event, path, error);
    }
  };

  /** Routes one request: webhook path, callback path and method, or 404/405. */
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.target, "http://router.invalid");
    } catch {
      return {
        ...refuse(genericFailureShape, undefined, request.target, 404, codes.notFound, [
          "no callback at this path",
        ]),
        unmatched: true,
      };
    }
    const path = stripBasePath(url.pathname, options.basePath);
    const notFound = (): OutboundResponse => ({
      ...refuse(genericFailureShape, undefined, url.pathname, 404, codes.notFound, [
        "no callback at this path",
      ]),
      unmatched: true,
    });
    if (path === undefined) return notFound();
    if (options.webhook && stripBasePath(path, options.webhook.path) === "/")
      return handleWebhook(request, options.webhook, path, url.searchParams);
    const match = matchRoute(spec.routes, request.method.toUpperCase(), path, url.searchParams);
    switch (match.kind) {
      case "none":
        return notFound();
      case "method":
        return refuse(
          match.route.failure,
          match.route.event,
          path,
          405,
          codes.method,
          [`${request.method} is not allowed here; use ${match.allowed.join(" or ")}`],
          { allow: match.allowed.join(", ") },
        );
      case "route":
        return handleRoute(request, match.route, match.params, path, url.searchParams);
      default: {
        const unhandled: never = match;
        throw new Error(`unhandled route match ${JSON.stringify(unhandled)}`);
      }
    }
  };
}
