/**
 * The stand-in's request handling, as a request core that the adapters of ../http/ drive
 * (the node:http listener behind `listen`, the Fetch handler behind `standIn.fetch`): the
 * callback router's path, with its body limit and deadline. Per request, in this order: the
 * target (a path whatever it looks like; else 404), the route (404; 405 with `Allow`; HEAD
 * as GET), `Prefer` (400 for what the spec does not list), credentials, the size (413, at
 * once when `Content-Length` says so), the time (408 past `bodyTimeoutMs`), parameters, the
 * JSON body (strict UTF-8), validation, state, the answer. Nothing a request brings makes
 * it throw: a 500 is the stand-in's own failure, or a `prefer` option that threw.
 */
import { announcesTooMuch, parseJsonText, strictText } from "../http/body.js";
import { splitTarget } from "../http/target.js";
import type { Begun, HeaderReader, OutboundResponse, RequestCore } from "../http/types.js";
import { validate, type ValidationIssue } from "../validate.js";
import { areaOf, conditionally, errorBodyOf, json, noteHeader, refuse } from "./answers.js";
import type { Memory } from "./memory.js";
import { appliedPreference, preferenceOf, preferredRefusal } from "./prefer.js";
import { checkCredentials, matchPath, mostSpecific, readParams } from "./request.js";
import { applyExpansion, askedPaths } from "./expand.js";
import { paged } from "./paging.js";
import { hashText, sample, seeded, token, type Random } from "./sample.js";
import type { Shape } from "./shape.js";
import type { StandInOptions } from "./stand-in.js";
import type { Route, RouteResponse, StandInTable, TokenEndpoint } from "./table.js";
import { tokenAnswer } from "./token.js";

/** Everything one request is served with. */
export interface Context {
  table: StandInTable;
  options: StandInOptions;
  seed: number;
  memory: Memory;
  /** Largest body read, in bytes. */
  limit: number;
  /** Longest wait for a whole body, in ms (`Infinity`: none). */
  timeoutMs: number;
}

/**
 * The stand-in as a core: `begin` takes, besides the request line and headers, the request
 * as a Fetch `Request`, made only when the `prefer` option asks to see it.
 */
export interface StandInCore {
  begin(method: string, target: string, headers: HeaderReader, request: () => Request): Begun;
  fail(error: unknown, target: string): OutboundResponse;
}

/** The core of one request, as the adapters of ../http/ take it. */
export function coreFor(core: StandInCore, request: () => Request): RequestCore {
  return {
    begin: (method, target, headers) => core.begin(method, target, headers, request),
    fail: core.fail,
  };
}

const issueText = (i: ValidationIssue) => `${i.path}: ${i.message}`;
const encoder = new TextEncoder();
/** Longest request target a log line repeats. */
const maxLoggedTarget = 200;

/** The success answer of a route: a body built from its type, or none with a note saying why. */
function respond(
  ctx: Context,
  route: Route,
  random: Random,
  made?: Record<string, unknown>,
  body?: unknown,
  streamError?: string,
  params: Record<string, unknown> = {},
  query: URLSearchParams = new URLSearchParams(),
): OutboundResponse {
  const streamed = route.streamResponse;
  const asked = streamed && (body as Record<string, unknown> | undefined)?.[streamed.flag] === true;
  const r = asked ? streamed : route.response;
  if (streamError !== undefined && !r.error)
    return refuse(ctx.table, route, {
      status: 400,
      message: `Prefer: stream-error asks for the error item of a stream; the answer to this call (${r.kind}) declares none`,
    });
  const headers: Record<string, string> = r.note ? { [noteHeader]: r.note } : {};
  for (const h of r.headers ?? []) {
    const value = sample(h.shape, ctx.table.types, random);
    headers[h.name] = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
  if (r.kind === "sse" || r.kind === "jsonl") return stream(ctx, r, random, headers, streamError);
  if (r.kind === "binary") {
    // Bytes of the media type (one a range covers: table.ts), whether or not the spec shows a body.
    const bytes = r.body ? sample(r.body, ctx.table.types, random) : token(random, 16);
    const type = r.contentType ?? "application/octet-stream";
    return { status: r.status, headers: { "Content-Type": type, ...headers }, body: String(bytes) };
  }
  if (r.kind === "none" || !r.body) return { status: r.status, headers, body: "" };
  let value = sample(r.body, ctx.table.types, random);
  if (made && value !== null && typeof value === "object") value = { ...value, ...made };
  if (route.expand) {
    const asked = askedPaths(route.expand, params, body);
    applyExpansion(value, route.expand.paths, asked, ctx.table.types, random);
  }
  if (route.paging && !asked) value = paged(route.paging, value, headers, query, body);
  const type = r.contentType ?? "application/json";
  if (r.kind === "json") return json(r.status, value, { "Content-Type": type, ...headers });
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return { status: r.status, headers: { "Content-Type": type, ...headers }, body: text };
}

/**
 * A streamed answer: each named event once (or one item of the body), then the terminator.
 * With `Prefer: stream-error` (`streamError`: the code asked for, or `""`), the first item,
 * then the stream's error item, and nothing after it.
 */
function stream(
  ctx: Context,
  r: RouteResponse,
  random: Random,
  headers: Record<string, string>,
  streamError: string | undefined,
): OutboundResponse {
  const data = (shape: Shape | undefined) =>
    JSON.stringify(shape ? sample(shape, ctx.table.types, random) : {});
  let items: { event: string | undefined; data: string }[] = r.events?.length
    ? r.events.map((e) => ({ event: e.name, data: data(e.shape) }))
    : [{ event: undefined, data: data(r.body) }];
  let end = r.terminator !== undefined ? `data: ${r.terminator}\n\n` : "";
  if (streamError !== undefined && r.error) {
    const message = "the stand-in's stream error (Prefer: stream-error)";
    const failure = errorBodyOf(r.error.template, streamError || undefined, message);
    items = [...items.slice(0, 1), { event: r.error.event, data: JSON.stringify(failure) }];
    end = "";
    headers = { ...headers, "Preference-Applied": appliedPreference({ streamError }) };
  }
  const text =
    r.kind === "jsonl"
      ? items.map((i) => `${i.data}\n`).join("")
      : items.map((i) => `${i.event ? `event: ${i.event}\n` : ""}data: ${i.data}\n\n`).join("") +
        end;
  const type = r.contentType ?? (r.kind === "sse" ? "text/event-stream" : "application/jsonl");
  return { status: r.status, headers: { "Content-Type": type, ...headers }, body: text };
}

/**
 * The answer a `Prefer` header (or the `prefer` option) asks for, if any: the listed
 * refusal, or 400 naming what the spec lists when it lists no such answer.
 */
function preferred(
  ctx: Context,
  route: Route,
  headers: HeaderReader,
  request: () => Request,
): OutboundResponse | { streamError: string } | undefined {
  let asked = headers.get("prefer");
  if (asked === null && ctx.options.prefer) {
    try {
      asked = ctx.options.prefer(request()) ?? null;
    } catch (error) {
      return refuse(ctx.table, route, {
        status: 500,
        message: `the prefer option threw: ${messageOf(error)}`,
      });
    }
  }
  const pref = preferenceOf(asked);
  if (pref === undefined) return undefined;
  const problem = (text: string) => refuse(ctx.table, route, { status: 400, message: text });
  if ("problem" in pref) return problem(pref.problem);
  if (pref.code === undefined && pref.error === undefined) {
    // Only `stream-error`: the stream answers with its error item, if the spec declares one.
    if (route.response.error || route.streamResponse?.error)
      return { streamError: pref.streamError ?? "" };
    return problem(
      `Prefer: stream-error asks for the error item of a stream; ${route.method} ${route.path} declares none`,
    );
  }
  const refusal = preferredRefusal(ctx.table, route, pref);
  if (refusal === undefined) return undefined;
  if ("problem" in refusal) return problem(refusal.problem);
  // typed as a record: under strict without exactOptionalPropertyTypes the union of the two
  // literals has an optional `Retry-After` that may be undefined (a trial of Jira's API)
  const retry: Record<string, string> =
    refusal.status === 429 ? { "Retry-After": pref.retryAfter ?? "1" } : {};
  return refuse(ctx.table, route, refusal, [refusal.message], {
    "Preference-Applied": appliedPreference(pref),
    ...retry,
  });
}

/** The refusal of invalid input on a route, one entry per problem. */
function invalid(ctx: Context, route: Route, messages: string[]): OutboundResponse {
  const tag = route.invalidInputTag ? { tag: route.invalidInputTag } : {};
  const code = route.invalidInputCode !== undefined ? { code: route.invalidInputCode } : {};
  const refusal = { status: route.invalidInput, ...code, ...tag, message: messages[0] ?? "" };
  return refuse(ctx.table, route, refusal, messages);
}

/** The JSON body of a request: the value and its text, or the refusal of bytes that are not JSON. */
function jsonBody(
  bytes: Uint8Array,
): { value: unknown; text: string | undefined } | { problem: string } {
  const text = strictText(bytes);
  if (text === undefined) return { problem: "body: is not valid UTF-8" };
  if (text.trim() === "") return { value: undefined, text: undefined };
  const parsed = parseJsonText(text);
  return parsed.ok ? { value: parsed.value, text } : { problem: "body: is not valid JSON" };
}

/** Serves a request on its route once its body is in: validation, state, answer. */
function serve(
  ctx: Context,
  route: Route,
  request: {
    pathname: string;
    query: URLSearchParams;
    found: Record<string, string>;
    /** `Prefer: stream-error`: the code asked for, or `""`. */
    streamError: string | undefined;
  },
  headers: HeaderReader,
  bytes: Uint8Array,
): OutboundResponse {
  const { pathname, query, found, streamError } = request;
  const search = query.toString();
  const random = seeded(hashText(`${route.method} ${pathname}${search && `?${search}`}`, ctx.seed));
  const params = readParams(route, found, query, headers);
  let issues = route.validateParams ? validate(route.validateParams, params, "params") : [];
  let body: unknown;
  let text: string | undefined;
  if (route.body === "json") {
    const read = jsonBody(bytes);
    if ("problem" in read) return invalid(ctx, route, [read.problem]);
    ({ value: body, text } = read);
    // a call may leave an optional body out (no text at all)
    const absent = text === undefined && route.bodyOptional;
    if (route.validateBody && !absent)
      issues = issues.concat(validate(route.validateBody, body, "body"));
  }
  if (issues.length > 0) return invalid(ctx, route, issues.map(issueText));
  const step = route.state ? ctx.memory.apply(route.state, params, body, text) : {};
  if ("refusal" in step) return refuse(ctx.table, route, step.refusal);
  const answer = respond(ctx, route, random, step.made, body, streamError, params, query);
  if (!route.response.notModified) return answer;
  const tags = headers.get("if-none-match");
  return conditionally(answer, tags, headers.get("if-modified-since"), hashText);
}

/**
 * The route of a method and path with its path parameters and the spec's path of the request
 * (what follows a server address's path it came under), or the refusal: 404, or 405 with
 * `Allow`. The msw handlers (../msw/handlers.ts) route an override with it too.
 */
export function findRoute(
  table: StandInTable,
  method: string,
  requested: string,
):
  | { route: Route; found: Record<string, string>; pathname: string }
  | { answer: OutboundResponse } {
  let pathname = requested;
  let matches = routesOf(table, pathname);
  // under a server address's path (`/api/v2/flags`), what follows it, when that is a route
  for (const base of matches.length ? [] : (table.basePaths ?? [])) {
    if (!requested.startsWith(`${base}/`)) continue;
    const rest = requested.slice(base.length);
    const under = routesOf(table, rest);
    if (under.length === 0) continue;
    [pathname, matches] = [rest, under];
    break;
  }
  const hit =
    mostSpecific(
      matches.filter((m) => m.route.method === method),
      pathname,
    ) ??
    (method === "HEAD"
      ? mostSpecific(
          matches.filter((m) => m.route.method === "GET"),
          pathname,
        )
      : undefined);
  if (hit) return { ...hit, pathname };
  const area = areaOf(table, pathname);
  if (matches.length === 0) return { answer: refuse(table, area, table.notFound) };
  const methods = new Set(matches.map((m) => m.route.method));
  if (methods.has("GET")) methods.add("HEAD");
  const refusal = { status: 405, message: `${method} is not a method of ${pathname}` };
  return { answer: refuse(table, area, refusal, undefined, { Allow: [...methods].join(", ") }) };
}

/** Every route whose path `pathname` matches, with its path parameters. */
function routesOf(
  table: StandInTable,
  pathname: string,
): { route: Route; found: Record<string, string> }[] {
  const matches: { route: Route; found: Record<string, string> }[] = [];
  for (const route of table.routes) {
    const found = matchPath(route, pathname);
    if (found !== undefined) matches.push({ route, found });
  }
  return matches;
}

/**
 * The route as the request's version serves it, for an API versioned by a header: the
 * current version without the header, a listed one by name, else a 400 naming the versions.
 */
function versioned(
  table: StandInTable,
  route: Route,
  headers: HeaderReader,
): { route: Route } | { answer: OutboundResponse } {
  const versions = table.versionHeader;
  const asked = versions && headers.get(versions.name.toLowerCase());
  if (!versions || asked === null || asked === undefined || asked === versions.current)
    return { route };
  const area = versions.versions.includes(asked) ? route.byVersion?.[asked] : undefined;
  if (area) return { route: { ...route, ...area } };
  if (versions.versions.includes(asked)) return { route };
  const shown = JSON.stringify(asked.slice(0, 100));
  const message = `${versions.name}: ${shown} is not a version of the API; it has ${versions.versions.join(", ")}`;
  return { answer: refuse(table, route, { status: 400, message }) };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length <= 300 ? text : `${text.slice(0, 297)}...`;
}

/** The stand-in's core over its context. */
export function createCore(ctx: Context): StandInCore {
  const { table, limit, timeoutMs } = ctx;
  /** Logs the answer and, for HEAD, gives it the length of the body it leaves out. */
  const done = (method: string, path: string, answer: OutboundResponse): OutboundResponse => {
    const note = answer.headers[noteHeader];
    try {
      ctx.options.log?.(`${method} ${path} -> ${answer.status}${note ? ` (${note})` : ""}`);
    } catch {
      // a log function that throws changes no answer
    }
    if (method !== "HEAD") return answer;
    const length = String(encoder.encode(answer.body).byteLength);
    return { ...answer, headers: { ...answer.headers, "Content-Length": length }, body: "" };
  };

  const begin = (
    rawMethod: string,
    target: string,
    headers: HeaderReader,
    request: () => Request,
  ): Begun => {
    const method = rawMethod.toUpperCase();
    const parts = splitTarget(target);
    if (parts === undefined) {
      const shown = target.slice(0, maxLoggedTarget);
      return { answer: done(method, shown, refuse(table, table.fallback, table.notFound)) };
    }
    const { pathname, query } = parts;
    const answer = (a: OutboundResponse): Begun => ({ answer: done(method, pathname, a) });
    const routed = findRoute(table, method, pathname);
    // where no route is, or before the spec's own route of a token endpoint that takes JSON
    const tokenEndpoint =
      method === "POST"
        ? table.tokenEndpoints?.find((t) => t.path === pathname && ("answer" in routed || t.json))
        : undefined;
    if (tokenEndpoint) return tokenRequest(tokenEndpoint, pathname, headers);
    if ("answer" in routed) return answer(routed.answer);
    // the spec's path: one answer for a resource whether or not the server's path came before it
    const { found, pathname: specPath } = routed;
    const inVersion = versioned(table, routed.route, headers);
    if ("answer" in inVersion) return answer(inVersion.answer);
    const { route } = inVersion;
    const asked = preferred(ctx, route, headers, request);
    if (asked && !("streamError" in asked)) return answer(asked);
    const streamError = asked?.streamError;
    const denied = checkCredentials(route, query, headers, ctx.options.keys ?? {});
    if (denied) return answer(refuse(table, route, denied));
    const refusal = (status: number, message: string, close: boolean) =>
      done(
        method,
        pathname,
        refuse(table, route, { status, message }, undefined, close ? { Connection: "close" } : {}),
      );
    return reading(headers, refusal, (bytes) =>
      done(
        method,
        pathname,
        serve(ctx, route, { pathname: specPath, query, found, streamError }, headers, bytes),
      ),
    );
  };

  /** A body read within the limits, then `answer`ed; what stops the read is a `refusal`. */
  const reading = (
    headers: HeaderReader,
    refusal: (status: number, message: string, close: boolean) => OutboundResponse,
    answer: (bytes: Uint8Array) => OutboundResponse,
  ): Begun => {
    const tooLarge = () => refusal(413, `body: is larger than ${limit} bytes`, true);
    if (announcesTooMuch(headers.get("content-length"), limit)) return { answer: tooLarge() };
    return {
      limit,
      timeoutMs,
      complete: (bytes) => (bytes === undefined ? tooLarge() : answer(bytes)),
      // the sender went away or its body broke off: there is no body to serve
      failed: () => refusal(400, "body: the request ended before its body did", false),
      timedOut: () => refusal(408, `body: took longer than ${timeoutMs} ms`, true),
    };
  };

  /** A request to an OAuth token endpoint (token.ts), where no route of the spec is. */
  const tokenRequest = (
    endpoint: TokenEndpoint,
    pathname: string,
    headers: HeaderReader,
  ): Begun => {
    const refusal = (status: number, message: string, close: boolean) => {
      const body = { error: "invalid_request", error_description: message };
      return done("POST", pathname, json(status, body, close ? { Connection: "close" } : {}));
    };
    const made = `standin_${token(seeded(hashText(endpoint.credential, ctx.seed)), 24)}`;
    const keys = ctx.options.keys ?? {};
    return reading(headers, refusal, (bytes) =>
      done("POST", pathname, tokenAnswer(endpoint, headers, bytes, keys, made)),
    );
  };

  /** The stand-in's own failure (a bug): 500, never a crash. */
  const fail = (error: unknown, target: string): OutboundResponse =>
    done(
      "?",
      target.slice(0, maxLoggedTarget),
      refuse(table, table.fallback, {
        status: 500,
        message: `the stand-in failed: ${messageOf(error)}`,
      }),
    );

  return { begin, fail };
}
