/**
 * A stand-in for the service, from the generated route table: `fetch(request)` answers as
 * the spec says the service does (credentials, validation, responses built from the types,
 * the state the spec implies), on Web APIs only, so it runs in a test process, a worker or
 * behind `listen` (node.ts). Deterministic: the same seed and the same requests give the
 * same answers.
 */
import { validate, type ValidationIssue } from "../validate.js";
import { areaOf, json, noteHeader, preferenceOf, preferredRefusal, refuse } from "./answers.js";
import { checkCredentials, matchPath, readBody, readParams, type KeySet } from "./request.js";
import { hashText, sample, seeded, token, type Random } from "./sample.js";
import type { Route, StandInTable } from "./table.js";

export type { KeySet } from "./request.js";

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

/** What the stand-in remembers: records of collections by id, and lifecycle states by resource. */
export interface StandInState {
  collections: Record<string, { id: string; body: unknown }[]>;
  lifecycles: Record<string, Record<string, string>>;
}

export interface StandIn {
  /** Answers one request as the service would. */
  fetch(request: Request): Promise<Response>;
  /** A copy of what it remembers. */
  state(): StandInState;
  /** Forgets every record and state (the seed's sequence starts again). */
  reset(): void;
}

/** JSON text with object keys sorted, so equal configurations compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const issueText = (i: ValidationIssue) => `${i.path}: ${i.message}`;

/** The stand-in of a route table (the generated `createStandIn` passes its own). */
export function createStandInFrom(table: StandInTable, options: StandInOptions = {}): StandIn {
  const seed = options.seed ?? 1;
  const keys = options.keys ?? {};
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  let memory: StandInState;
  let ids: Random;
  const reset = () => {
    memory = { collections: {}, lifecycles: {} };
    for (const c of table.collections) memory.collections[c.name] = [];
    ids = seeded(hashText("ids", seed));
  };
  reset();

  /** The route's success answer, with its state applied; a refusal when the state says no. */
  const succeed = (
    route: Route,
    params: Record<string, unknown>,
    body: unknown,
    random: Random,
  ): Response => {
    const state = route.state;
    const collection =
      state && state.kind !== "transition"
        ? table.collections.find((c) => c.name === state.collection)
        : undefined;
    const records = collection ? memory.collections[collection.name]! : [];
    let made: Record<string, unknown> | undefined;
    if (state?.kind === "create" && collection) {
      const config = canonical(body);
      if (collection.duplicate && records.some((r) => canonical(r.body) === config))
        return refuse(table, route, collection.duplicate);
      const id = `${collection.idPrefix}${token(ids, 16)}`;
      records.push({ id, body });
      made = { [collection.idField]: id };
    } else if (state?.kind === "delete" && collection) {
      const at = records.findIndex((r) => r.id === params[state.param]);
      if (at < 0) return refuse(table, route, collection.notFound);
      records.splice(at, 1);
    } else if (state?.kind === "transition") {
      (memory.lifecycles[state.lifecycle] ??= {})[String(params[state.param])] = state.to;
    }
    return respond(route, random, made);
  };

  const respond = (route: Route, random: Random, made?: Record<string, unknown>): Response => {
    const r = route.response;
    const note: Record<string, string> = r.note ? { [noteHeader]: r.note } : {};
    if (r.kind === "none" || !r.body)
      return new Response(null, { status: r.status, headers: note });
    let value = sample(r.body, table.types, random);
    if (made && value !== null && typeof value === "object") value = { ...value, ...made };
    const type = r.contentType ?? "application/json";
    if (r.kind === "json") return json(r.status, value, { "Content-Type": type, ...note });
    const text =
      r.kind === "sse"
        ? `data: ${JSON.stringify(value)}\n\n`
        : r.kind === "jsonl"
          ? `${JSON.stringify(value)}\n`
          : typeof value === "string"
            ? value
            : JSON.stringify(value);
    return new Response(text, { status: r.status, headers: { "Content-Type": type, ...note } });
  };

  /** Everything after the route is found. */
  const serve = async (route: Route, request: Request, url: URL, found: Record<string, string>) => {
    const random = seeded(hashText(`${route.method} ${url.pathname}${url.search}`, seed));
    const asked = request.headers.get("prefer") ?? options.prefer?.(request) ?? null;
    const pref = preferenceOf(asked);
    if (pref) {
      const refusal = preferredRefusal(table, route.errors, pref, route.invalidInput);
      const applied = { "Preference-Applied": asked! };
      if (refusal) {
        const retry =
          refusal.status === 429 ? { "Retry-After": pref.retryAfter ?? "1" } : undefined;
        return refuse(table, route, refusal, [refusal.message], { ...applied, ...retry });
      }
    }
    const denied = checkCredentials(route, url, request.headers, keys);
    if (denied) return refuse(table, route, denied);
    const invalid = (messages: string[]) =>
      refuse(
        table,
        route,
        {
          status: route.invalidInput,
          ...(route.invalidInputTag ? { tag: route.invalidInputTag } : {}),
          message: messages[0] ?? "",
        },
        messages,
      );
    const bytes = await readBody(request, limit);
    if (bytes === undefined)
      return refuse(table, route, {
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
        return invalid(["body: is not valid JSON"]);
      }
      if (route.validateBody) issues.push(...validate(route.validateBody, body, "body"));
    }
    if (issues.length > 0) return invalid(issues.map(issueText));
    return succeed(route, params, body, random);
  };

  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const matches = table.routes
      .map((route) => ({ route, found: matchPath(route, url.pathname) }))
      .filter((m) => m.found !== undefined);
    const hit = matches.find((m) => m.route.method === method);
    let response: Response;
    if (hit) response = await serve(hit.route, request, url, hit.found!);
    else if (matches.length > 0)
      response = refuse(
        table,
        areaOf(table, url.pathname),
        { status: 405, message: `${method} is not a method of ${url.pathname}` },
        undefined,
        { Allow: [...new Set(matches.map((m) => m.route.method))].join(", ") },
      );
    else response = refuse(table, areaOf(table, url.pathname), table.notFound);
    const note = response.headers.get(noteHeader);
    options.log?.(`${method} ${url.pathname} -> ${response.status}${note ? ` (${note})` : ""}`);
    return response;
  };

  return {
    fetch: (request) =>
      fetch(request).catch((error: unknown) =>
        refuse(table, areaOf(table, new URL(request.url).pathname), {
          status: 500,
          message: `the stand-in failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    state: () => JSON.parse(JSON.stringify(memory)) as StandInState,
    reset,
  };
}
