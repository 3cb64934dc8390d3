/**
 * The callback router core: from a request (method, target, headers, a body reader) to a
 * response (status, headers, text), with Web APIs only, so any server can sit in front of
 * it (`node-adapter.ts`, `fetch-adapter.ts`). Per request, in this order: route (404/405),
 * size (413, without reading past the limit), time (408 when the body is slower than
 * `bodyTimeoutMs`), signature over the raw bytes (422), the signing time where the spec
 * declares one (422 outside the window), JSON and validation against the spec (400, naming
 * the field), the delivery id where a seen-id store is given (409 for a repeat; `replay.ts`),
 * then the handler (500 if it throws). Nothing a request
 * brings makes the core throw or reject: anything unexpected, a signature scheme that throws
 * included, is the generic 500 after `onError`. The generated `callbacks.ts` passes the
 * routes and the typed handlers.
 *
 * Everything up to the handler is synchronous when the signature is (Node's HMAC): a request
 * costs one promise, the handler's, and none at all when the handler answers synchronously.
 */
import { announcesTooMuch, bodyTimeout, defaultBodyLimit, parseJson } from "../http/body.js";
import { formFields } from "./form.js";
import { handleRequest } from "../http/handle.js";
import { splitTarget } from "../http/target.js";
import type { ValidationIssue } from "../validate.js";
import { json, runHandler, withEvent } from "./body.js";
import { capped, failureBody, genericFailureShape, type FailureShape } from "./failure.js";
import { createReplayGuard, type ReplayGuard, type ReplaySpec } from "./replay.js";
import { exactRoutes, matchRoute, stripBasePath, type RouteSpec } from "./routes.js";
import { defaultScheme } from "./schemes.js";
import {
  createSignatureVerifier,
  signatureMessage,
  usableSecrets,
  type HeaderReader,
  type SignatureCheck,
  type SignatureVerifier,
} from "./signature.js";
import type {
  Answer,
  Begun,
  CallbackContext,
  CoreOptions,
  DeliveryContext,
  FailureCodes,
  InboundRequest,
  OutboundResponse,
  RouterCore,
  RouterSpec,
} from "./types.js";
import { deliverTyped, deliveryHeaders, payloadProblems, type DeliveryTools } from "./webhook.js";

export type {
  AnyHandler,
  DeliveryContext,
  DeliveryHeaders,
  DeliveryHeadersSpec,
  AnyWebhookHandler,
  AnyWebhookHandlers,
  Answer,
  BaseRouterOptions,
  Begun,
  CallbackContext,
  CoreOptions,
  FailureCodes,
  InboundRequest,
  OutboundResponse,
  RequestContext,
  RouterCore,
  RouterSpec,
  TypedWebhookRoute,
  WebhookContext,
  WebhookEventsSpec,
  WebhookRoute,
} from "./types.js";

/** How a route is signed: its signature header (absent: not signed), its scheme, and where its calls carry their signing time and delivery id. */
type Signing = Pick<RouteSpec, "signatureHeader" | "signatureScheme" | "replay">;

/** The steps after a good signature, given the verified body and its signing time (unix seconds) where the spec declares one. */
type Then = (body: Uint8Array<ArrayBuffer>, signedAt: number | undefined) => Answer;

/** Whether the value is a promise or any other thenable (a store may hand back either). */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/**
 * The steps after a good signature (`then`); what they throw (nothing should) is `failed`'s
 * answer instead of an exception. A plain function, so no closure per request.
 */
function guarded(
  then: Then,
  body: Uint8Array<ArrayBuffer>,
  signedAt: number | undefined,
  failed: (error: unknown) => OutboundResponse,
): Answer {
  try {
    return then(body, signedAt);
  } catch (error) {
    return failed(error);
  }
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
export function createCore(spec: RouterSpec, options: CoreOptions): RouterCore {
  const specSigns =
    spec.routes.some((r) => r.signatureHeader !== undefined) ||
    spec.webhookSignatureHeader !== undefined;
  // Secrets for a router that checks nothing would read as protection that is not there.
  if (!specSigns && options.signingSecrets !== undefined)
    throw new Error(
      "createCallbackRouter: signingSecrets is given, but no callback or webhook of this spec is signed (none names an `in: signature` credential), so no request would be checked; remove signingSecrets, or declare the signature in the spec (docs/callbacks.md)",
    );
  // the webhook route takes every request to its path first: a callback there would never run
  const hidden = options.webhook
    ? spec.routes.find((r) => stripBasePath(r.path, options.webhook!.path) === "/")
    : undefined;
  if (hidden)
    throw new Error(
      `createCallbackRouter: webhook.path ${JSON.stringify(options.webhook!.path)} is also the path of the callback ${JSON.stringify(hidden.event)}, which would never receive a request there; give the webhook route a path of its own`,
    );
  const secrets = usableSecrets(options.signingSecrets ?? []);
  const signed =
    spec.routes.some((r) => r.signatureHeader !== undefined) ||
    (options.webhook !== undefined && spec.webhookSignatureHeader !== undefined);
  if (signed && secrets.length === 0)
    throw new Error(
      "createCallbackRouter: signingSecrets has no usable secret (every entry is empty or unset)",
    );
  const webhookSigning: Signing = {
    ...(spec.webhookSignatureHeader !== undefined
      ? {
          signatureHeader: spec.webhookSignatureHeader,
          signatureScheme: spec.webhookSignatureScheme,
          replay: spec.webhookReplay,
        }
      : {}),
  };
  // One verifier per scheme, made now: a secret a scheme cannot use is an error at creation.
  const verifiers = new Map<Signing, SignatureVerifier>();
  const byScheme = new Map<string, SignatureVerifier>();
  for (const signing of [...spec.routes, webhookSigning]) {
    if (signing.signatureHeader === undefined || secrets.length === 0) continue;
    const scheme = signing.signatureScheme ?? defaultScheme;
    const key = `${JSON.stringify(scheme)}|${signing.signatureHeader}`;
    let verifier = byScheme.get(key);
    if (verifier === undefined) {
      try {
        verifier = createSignatureVerifier(
          secrets,
          options.signature,
          scheme,
          signing.signatureHeader,
        );
      } catch (error) {
        throw new Error(`createCallbackRouter: ${(error as Error).message}`);
      }
      byScheme.set(key, verifier);
    }
    verifiers.set(signing, verifier);
  }
  const signedReplay = [
    ...spec.routes.filter((r) => r.signatureHeader !== undefined).map((r) => r.replay),
    spec.webhookSignatureHeader !== undefined ? spec.webhookReplay : undefined,
  ];
  const replay: ReplayGuard = createReplayGuard(options.replay, {
    stamped: signedReplay.some((r) => r?.timestamp !== undefined),
    identified: signedReplay.some((r) => r?.deliveryId !== undefined),
  });
  const limit = options.bodyLimit ?? defaultBodyLimit;
  const timeoutMs = bodyTimeout(options.bodyTimeoutMs);
  const codes: FailureCodes = {
    signature: spec.signatureCode,
    invalid: 400,
    notFound: 404,
    method: 405,
    tooLarge: 413,
    timeout: 408,
    notImplemented: 501,
    internal: 500,
    replay: 409,
    ...options.codes,
  };
  const exact = exactRoutes(spec.routes);
  const eventChecks = new Map(Object.entries(spec.webhookEvents?.events ?? {}));

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
        // capped as in the answer: a body with thousands of problems makes no huge log line
        reason: capped(reasons).join("; "),
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
    signing: Signing,
    then: Then,
  ): Begun => {
    const header = signing.signatureHeader;
    const replaySpec = signing.replay;
    const tooLarge = () =>
      refuse(shape, event, path, 413, codes.tooLarge, [`body is larger than ${limit} bytes`], {
        connection: "close",
      });
    if (announcesTooMuch(headers.get("content-length"), limit)) return { answer: tooLarge() };
    const failed = (error: unknown) => internal(shape, event, path, error);
    return {
      limit,
      timeoutMs,
      failed,
      timedOut: () =>
        refuse(shape, event, path, 408, codes.timeout, [`body took longer than ${timeoutMs} ms`], {
          connection: "close",
        }),
      complete: (body) => {
        if (body === undefined) return tooLarge();
        if (header === undefined) return guarded(then, body, undefined, failed);
        // a custom `compute` or `decode` may throw or reject (a key service outage): the generic 500
        let check: SignatureCheck | Promise<SignatureCheck>;
        try {
          check = verifiers.get(signing)!(headers.get(header), { body, method, target, headers });
        } catch (error) {
          return failed(error);
        }
        const after = (c: SignatureCheck): Answer => {
          if (!c.ok)
            return refuse(shape, event, path, 422, codes.signature, [
              c.message ?? signatureMessage(c.reason, header),
            ]);
          // a signing time outside the window: a signature that no longer holds
          const stamp = replay.timestamp(replaySpec, headers, header);
          return stamp.ok
            ? guarded(then, body, stamp.value, failed)
            : refuse(shape, event, path, 422, codes.signature, [stamp.reason]);
        };
        return check instanceof Promise ? check.then(after, failed) : after(check);
      },
    };
  };

  /**
   * Runs `run` once per delivery id where the spec declares one and a seen-id store is
   * given: a missing id is 400, an id already claimed 409; an answer that is a 5xx releases
   * the id again, so the sender's retry is taken. A store that throws or rejects is the
   * generic 500 after `onError`.
   */
  const once = (
    shape: FailureShape,
    event: string | undefined,
    path: string,
    replaySpec: ReplaySpec | undefined,
    headers: HeaderReader,
    payload: unknown,
    signedAt: number | undefined,
    run: () => Answer,
  ): Answer => {
    const found = replay.deliveryId(replaySpec, headers, payload);
    if (!found.ok) return refuse(shape, event, path, 400, codes.invalid, [found.reason]);
    if (found.value === undefined) return run();
    const { id, where } = found.value;
    const failed = (error: unknown) => internal(shape, event, path, error);
    const releaseOnFailure = (answer: OutboundResponse): Answer => {
      if (answer.status < 500) return answer;
      const told = (error: unknown) => {
        safely(() => options.onError?.(error, { ...(event !== undefined ? { event } : {}), path }));
        return answer;
      };
      try {
        const released = replay.release(id);
        return isThenable(released) ? Promise.resolve(released).then(() => answer, told) : answer;
      } catch (error) {
        return told(error);
      }
    };
    const after = (isNew: boolean): Answer => {
      if (isNew !== true)
        return refuse(shape, event, path, 409, codes.replay, [
          `this delivery was already received (its ${where} was seen before)`,
        ]);
      const answer = run();
      return answer instanceof Promise ? answer.then(releaseOnFailure) : releaseOnFailure(answer);
    };
    let claimed: boolean | PromiseLike<boolean>;
    try {
      claimed = replay.claim(id, signedAt);
    } catch (error) {
      return failed(error);
    }
    return isThenable(claimed) ? Promise.resolve(claimed).then(after, failed) : after(claimed);
  };

  /**
   * The webhook route: POST only, size, signature, JSON, then the user's handler (typed
   * deliveries: the event's; one payload for all: the route's), after the payload is validated
   * where the spec gives its type; 200 with an empty body.
   */
  const beginWebhook = (
    method: string,
    target: string,
    headers: HeaderReader,
    webhook: NonNullable<CoreOptions["webhook"]>,
    signing: Signing,
    path: string,
    query: URLSearchParams,
  ): Begun => {
    const shape = genericFailureShape;
    if (method.toUpperCase() !== "POST")
      return wrongMethod(shape, undefined, path, method, ["POST"]);
    const refuseDelivery = (event: string | undefined, reasons: string[]) =>
      refuse(shape, event, path, 400, codes.invalid, reasons);
    return checked(method, target, headers, shape, undefined, path, signing, (body, signedAt) => {
      const parsed = parseJson(body);
      if (!parsed.ok) return refuseDelivery(undefined, ["body is not valid JSON"]);
      const tools: DeliveryTools = {
        refuse: refuseDelivery,
        run: (event, handler, answers) =>
          once(shape, event, path, signing.replay, headers, parsed.value, signedAt, () =>
            runHandler(
              handler,
              (result) =>
                answers === undefined || result === undefined
                  ? { status: 200, headers: { "cache-control": "no-store" }, body: "" }
                  : answers === "text"
                    ? {
                        status: 200,
                        headers: {
                          "content-type": "text/plain; charset=utf-8",
                          "cache-control": "no-store",
                        },
                        body: String(result),
                      }
                    : json(200, result),
              (error) => internal(shape, event, path, error),
            ),
          ),
      };
      const declared = deliveryHeaders(spec.webhookHeaders, headers);
      if (!declared.ok) return refuseDelivery(undefined, declared.reasons);
      const request: DeliveryContext = {
        method,
        path,
        query,
        headers,
        rawBody: body,
        deliveryHeaders: declared.value,
      };
      if (spec.webhookEvents && "handlers" in webhook)
        return deliverTyped(spec.webhookEvents, eventChecks, webhook, parsed.value, request, tools);
      if ("handler" in webhook) {
        const reasons = payloadProblems(spec.webhookPayload, parsed.value);
        if (reasons.length) return refuseDelivery(undefined, reasons);
        return tools.run(undefined, () =>
          (webhook.handler as (payload: unknown, ctx: DeliveryContext) => unknown)(
            parsed.value,
            request,
          ),
        );
      }
      return tools.run(undefined, () => undefined);
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
    return checked(method, target, headers, shape, event, path, route, (body, signedAt) => {
      let input: unknown = params;
      // The validators append to one list (never spread: a list can be long).
      const issues: ValidationIssue[] = [];
      if (route.checkBody) {
        const parsed = route.form
          ? { ok: true as const, value: formFields(body, route.form) }
          : parseJson(body);
        if (!parsed.ok || parsed.value === undefined)
          return refuse(shape, event, path, 400, codes.invalid, [
            route.form ? "body is not valid UTF-8" : "body is not valid JSON",
          ]);
        route.checkBody(parsed.value, "body", issues);
        input = parsed.value;
      }
      if (route.checkParams) route.checkParams(params ?? {}, "params", issues);
      if (issues.length)
        return refuse(
          shape,
          event,
          path,
          400,
          codes.invalid,
          issues.map((i) => `${i.path} ${i.message}`),
        );
      const handler = options.handlers?.[event] as
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
      const call = () => handler(input, ctx);
      const answer = (result: unknown): OutboundResponse => {
        if (result === undefined)
          return {
            status: status === 200 ? 204 : status,
            headers: { "cache-control": "no-store" },
            body: "",
          };
        return json(status, field === undefined ? result : withEvent(result, field, event));
      };
      const failed = (error: unknown) => internal(shape, event, path, error);
      if (!replay.identifies(route.replay)) return runHandler(call, answer, failed);
      const payload = route.checkBody ? input : undefined;
      return once(shape, event, path, route.replay, headers, payload, signedAt, () =>
        runHandler(call, answer, failed),
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
      return beginWebhook(
        method,
        target,
        headers,
        options.webhook,
        webhookSigning,
        path,
        parts.query,
      );
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

  /** The generic 500 for an error no step caught, in the generic shape (the event may be unknown). */
  const fail = (error: unknown, target: string): OutboundResponse =>
    internal(genericFailureShape, undefined, target.split("?", 1)[0]!, error);

  /**
   * The whole of a request for any adapter: `begin`, read the body (no longer than
   * `bodyTimeoutMs`), `complete`. Never rejects.
   */
  const steps = { begin, fail };
  const handle = (request: InboundRequest): Promise<OutboundResponse> =>
    handleRequest(steps, request);

  return { handle, begin, fail };
}
