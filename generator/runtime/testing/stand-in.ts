/**
 * A stand-in for the service, from the generated route table: `fetch(request)` answers as
 * the spec says the service does (credentials, validation, responses built from the types,
 * the state the spec implies), on Web APIs only, so it runs in a test process, a worker or
 * behind `listen` (node.ts). Deterministic: the same seed and the same requests give the
 * same answers.
 */
import { validate, type ValidationIssue } from "../validate.js";
import { areaOf, json, noteHeader, preferenceOf, preferredRefusal, refuse } from "./answers.js";
import { Memory, type StandInState } from "./memory.js";
import { checkCredentials, matchPath, readBody, readParams, type KeySet } from "./request.js";
import { hashText, sample, seeded, type Random } from "./sample.js";
import type { Shape } from "./shape.js";
import type { Route, RouteResponse, StandInTable } from "./table.js";

export type { KeySet } from "./request.js";
export type { StandInState } from "./memory.js";

export interface StandInOptions {
  /** Seed of every made-up value (default 1). */
  seed?: number;
  /** Keys by credential id (`apiKey`); a credential not listed takes any non-empty value. */
  keys?: Readonly<Record<string, KeySet>>;
  /** Largest request body read, in bytes (default 1 MiB); a longer one is refused with 413. */
  maxBodyBytes?: number;
  /** Gets one line per request: method, path, status and any note. */
  log?: (line: string) => void;
  /**
   * A `Prefer` value for requests that carry none, e.g. to script an answer for a server
   * whose own client you do not control: `(r) => r.url.endsWith("/NONE") ? "code=404" : undefined`.
   */
  prefer?: (request: Request) => string | undefined;
}

export interface StandIn {
  /** Answers one request as the service would. */
  fetch(request: Request): Promise<Response>;
  /** A copy of what it remembers. */
  state(): StandInState;
  /** Forgets every record and state (the seed's sequence starts again). */
  reset(): void;
}

/** Everything one request is served with. */
interface Context {
  table: StandInTable;
  options: StandInOptions;
  seed: number;
  memory: Memory;
}

const issueText = (i: ValidationIssue) => `${i.path}: ${i.message}`;

/** The success answer of a route: a body built from its type, or none with a note saying why. */
function respond(
  ctx: Context,
  route: Route,
  random: Random,
  made?: Record<string, unknown>,
  body?: unknown,
): Response {
  const streamed = route.streamResponse;
  const asked = streamed && (body as Record<string, unknown> | undefined)?.[streamed.flag] === true;
  const r = asked ? streamed : route.response;
  const headers: Record<string, string> = r.note ? { [noteHeader]: r.note } : {};
  for (const h of r.headers ?? []) {
    const value = sample(h.shape, ctx.table.types, random);
    headers[h.name] = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
  if (r.kind === "sse" || r.kind === "jsonl") return stream(ctx, r, random, headers);
  if (r.kind === "none" || !r.body) return new Response(null, { status: r.status, headers });
  let value = sample(r.body, ctx.table.types, random);
  if (made && value !== null && typeof value === "object") value = { ...value, ...made };
  const type = r.contentType ?? "application/json";
  if (r.kind === "json") return json(r.status, value, { "Content-Type": type, ...headers });
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return new Response(text, { status: r.status, headers: { "Content-Type": type, ...headers } });
}

/** A streamed answer: each named event once (or one item of the body), then the terminator. */
function stream(
  ctx: Context,
  r: RouteResponse,
  random: Random,
  headers: Record<string, string>,
): Response {
  const data = (shape: Shape | undefined) =>
    JSON.stringify(shape ? sample(shape, ctx.table.types, random) : {});
  const items = r.events?.length
    ? r.events.map((e) => ({ event: e.name, data: data(e.shape) }))
    : [{ event: undefined, data: data(r.body) }];
  const text =
    r.kind === "jsonl"
      ? items.map((i) => `${i.data}\n`).join("")
      : items.map((i) => `${i.event ? `event: ${i.event}\n` : ""}data: ${i.data}\n\n`).join("") +
        (r.terminator !== undefined ? `data: ${r.terminator}\n\n` : "");
  const type = r.contentType ?? (r.kind === "sse" ? "text/event-stream" : "application/jsonl");
  return new Response(text, { status: r.status, headers: { "Content-Type": type, ...headers } });
}

/** The answer a `Prefer` header (or the `prefer` option) asks for, if any. */
function preferred(ctx: Context, route: Route, request: Request): Response | undefined {
  const asked = request.headers.get("prefer") ?? ctx.options.prefer?.(request) ?? null;
  const pref = preferenceOf(asked);
  const refusal = pref && preferredRefusal(ctx.table, route.errors, pref, route.invalidInput);
  if (!pref || !refusal) return undefined;
  const retry = refusal.status === 429 ? { "Retry-After": pref.retryAfter ?? "1" } : {};
  return refuse(ctx.table, route, refusal, [refusal.message], {
    "Preference-Applied": asked!,
    ...retry,
  });
}

/** The refusal of invalid input on a route, one entry per problem. */
function invalid(ctx: Context, route: Route, messages: string[]): Response {
  const tag = route.invalidInputTag ? { tag: route.invalidInputTag } : {};
  const refusal = { status: route.invalidInput, ...tag, message: messages[0] ?? "" };
  return refuse(ctx.table, route, refusal, messages);
}

/** Serves a request on its route: Prefer, credentials, body, validation, state, answer. */
async function serve(
  ctx: Context,
  route: Route,
  request: Request,
  url: URL,
  found: Record<string, string>,
): Promise<Response> {
  const random = seeded(hashText(`${route.method} ${url.pathname}${url.search}`, ctx.seed));
  const asked = preferred(ctx, route, request);
  if (asked) return asked;
  const denied = checkCredentials(route, url, request.headers, ctx.options.keys ?? {});
  if (denied) return refuse(ctx.table, route, denied);
  const limit = ctx.options.maxBodyBytes ?? 1024 * 1024;
  const bytes = await readBody(request, limit);
  if (bytes === undefined)
    return refuse(ctx.table, route, {
      status: 413,
      message: `body: is larger than ${limit} bytes`,
    });
  const params = readParams(route, found, url, request.headers);
  const issues = route.validateParams ? validate(route.validateParams, params, "params") : [];
  let body: unknown;
  if (route.body === "json") {
    const text = new TextDecoder().decode(bytes);
    try {
      body = text.trim() === "" ? undefined : JSON.parse(text);
    } catch {
      return invalid(ctx, route, ["body: is not valid JSON"]);
    }
    if (route.validateBody) issues.push(...validate(route.validateBody, body, "body"));
  }
  if (issues.length > 0) return invalid(ctx, route, issues.map(issueText));
  const step = route.state ? ctx.memory.apply(route.state, params, body) : {};
  if ("refusal" in step) return refuse(ctx.table, route, step.refusal);
  return respond(ctx, route, random, step.made, body);
}

/** Finds the route of a request and serves it; 405 for a path of another method, else 404. */
async function route(ctx: Context, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const matches = ctx.table.routes
    .map((r) => ({ route: r, found: matchPath(r, url.pathname) }))
    .filter((m) => m.found !== undefined);
  const hit = matches.find((m) => m.route.method === method);
  if (hit) return serve(ctx, hit.route, request, url, hit.found!);
  const area = areaOf(ctx.table, url.pathname);
  if (matches.length === 0) return refuse(ctx.table, area, ctx.table.notFound);
  const allow = [...new Set(matches.map((m) => m.route.method))].join(", ");
  const refusal = { status: 405, message: `${method} is not a method of ${url.pathname}` };
  return refuse(ctx.table, area, refusal, undefined, { Allow: allow });
}

/** The stand-in of a route table (the generated `createStandIn` passes its own). */
export function createStandInFrom(table: StandInTable, options: StandInOptions = {}): StandIn {
  const seed = options.seed ?? 1;
  const ctx: Context = { table, options, seed, memory: new Memory(table, seed) };
  const fetch = async (request: Request): Promise<Response> => {
    const response = await route(ctx, request).catch((error: unknown) =>
      refuse(table, table.fallback, {
        status: 500,
        message: `the stand-in failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    );
    const note = response.headers.get(noteHeader);
    const path = request.url.replace(/^[a-z]+:\/\/[^/]*/i, "").replace(/\?.*$/, "");
    options.log?.(`${request.method} ${path} -> ${response.status}${note ? ` (${note})` : ""}`);
    return response;
  };
  return { fetch, state: () => ctx.memory.snapshot(), reset: () => ctx.memory.reset() };
}
