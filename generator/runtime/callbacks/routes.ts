/**
 * The routes of a callback router, as the generator describes them from the spec, and the
 * matching of a request path against them: `{name}` segments, and trailing parameters that
 * follow the path as segments or, when no segment follows, come from the query string.
 */
import type { FormFieldKind } from "./form.js";
import type { Validator } from "../validate.js";
import type { FailureShape } from "./failure.js";
import type { ReplaySpec } from "./replay.js";
import type { SignatureScheme } from "./schemes.js";

/** A parameter of a callback, as its URL carries it. */
export interface ParamSpec {
  /** The key of the parameters object the handler and the validator get. */
  name: string;
  /** The name a query parameter travels under, when it is not `name`. */
  wire?: string;
  /** `path`: a `{name}` segment; `query`: the query string; `trailing`: a segment after the path, or the query string. */
  placement: "path" | "query" | "trailing";
  /** The URL text is turned into this before validation; default: kept as a string. */
  as?: "number" | "boolean";
}

/** One callback route, generated from the spec. */
export interface RouteSpec {
  event: string;
  method: string;
  /** Path template relative to where the router is mounted, e.g. `/oauth/login`. */
  path: string;
  params: readonly ParamSpec[];
  /** Checks the parameters object (its paths start with `params`). */
  checkParams?: Validator;
  /** Checks the parsed JSON body (its paths start with `body`); absent: the callback has no body. */
  checkBody?: Validator;
  /** A body sent as a URL-encoded form: how each field's text is read (form.ts); absent: JSON. */
  form?: Readonly<Record<string, FormFieldKind>>;
  /** Header that carries the signature; absent: the route is not signed. */
  signatureHeader?: string;
  /** How the signature is written and what it covers (`schemes.ts`); absent: the default scheme. */
  signatureScheme?: SignatureScheme;
  /** Where signed calls carry their signing time and delivery id (replay protection); absent: neither. */
  replay?: ReplaySpec;
  /** Field the router fills with the event name in every handler answer, when the spec has one. */
  responseEvent?: string;
  /** Shape of the failure bodies the router answers with itself. */
  failure: FailureShape;
}

/** What a path and method lead to. */
export type RouteMatch =
  | { kind: "route"; route: RouteSpec; params: Record<string, unknown> | undefined }
  | { kind: "method"; route: RouteSpec; allowed: string[] }
  | { kind: "none" };

/** The segments of a path, without the leading slash and one trailing slash. */
function segmentsOf(path: string): string[] {
  const parts = path.split("/").slice(1);
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** A percent-decoded segment; a malformed escape leaves the segment as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** URL or header text as the value a validator expects; text that is not one stays text, and fails validation. */
export function convert(text: string, as: ParamSpec["as"]): unknown {
  if (as === "number") return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text;
  if (as === "boolean") return text === "true" ? true : text === "false" ? false : text;
  return text;
}

/**
 * The parameters of `route` if `segments` is its path, else `undefined`. Trailing
 * parameters take the segments after the path in order, or the query string when none follow.
 */
function matchOne(
  route: RouteSpec,
  segments: readonly string[],
  query: URLSearchParams,
): Record<string, unknown> | undefined {
  const template = segmentsOf(route.path);
  const trailing = route.params.filter((p) => p.placement === "trailing");
  const extra = segments.length - template.length;
  if (extra < 0 || extra > trailing.length) return undefined;
  const captured = new Map<string, string>();
  for (let i = 0; i < template.length; i++) {
    const part = template[i]!;
    const actual = decodeSegment(segments[i]!);
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    if (name !== undefined) captured.set(name, actual);
    else if (part !== actual) return undefined;
  }
  const params: Record<string, unknown> = {};
  let next = template.length;
  for (const param of route.params) {
    let text: string | null | undefined;
    if (param.placement === "path") text = captured.get(param.name);
    else if (param.placement === "query") text = query.get(param.wire ?? param.name);
    else
      text =
        extra > 0
          ? next < segments.length
            ? decodeSegment(segments[next++]!)
            : undefined
          : query.get(param.name);
    if (text === null || text === undefined) continue;
    // A parameter may be named `__proto__`: an own entry, not the prototype.
    if (param.name === "__proto__")
      Object.defineProperty(params, param.name, {
        value: convert(text, param.as),
        enumerable: true,
      });
    else params[param.name] = convert(text, param.as);
  }
  return params;
}

/** The route for a method and path: a match, a known path with another method (405), or none (404). */
export function matchRoute(
  routes: readonly RouteSpec[],
  method: string,
  pathname: string,
  query: URLSearchParams,
): RouteMatch {
  const segments = segmentsOf(pathname);
  let other: RouteSpec | undefined;
  const allowed: string[] = [];
  for (const route of routes) {
    const params = matchOne(route, segments, query);
    if (params === undefined) continue;
    if (route.method === method)
      return { kind: "route", route, params: route.params.length ? params : undefined };
    other ??= route;
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return other ? { kind: "method", route: other, allowed } : { kind: "none" };
}

/** The path below `basePath`, or `undefined` when the path is not under it. */
export function stripBasePath(pathname: string, basePath: string | undefined): string | undefined {
  if (basePath === undefined) return pathname;
  const base = basePath.replace(/\/+$/, "");
  if (base === "") return pathname;
  if (pathname === base) return "/";
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : undefined;
}

/** Routes found by one lookup: path, then method. */
export type ExactRoutes = ReadonlyMap<string, ReadonlyMap<string, RouteSpec>>;

/**
 * The routes without parameters, by their path exactly as the spec writes it and method,
 * each only where `matchRoute` picks that same route for that path (an earlier `{name}`
 * route may take it): a lookup there gives what the general matcher would.
 */
export function exactRoutes(routes: readonly RouteSpec[]): ExactRoutes {
  const exact = new Map<string, Map<string, RouteSpec>>();
  for (const route of routes) {
    if (route.params.length > 0 || route.path.includes("{")) continue;
    const match = matchRoute(routes, route.method.toUpperCase(), route.path, new URLSearchParams());
    if (match.kind !== "route" || match.route !== route) continue;
    const methods = exact.get(route.path) ?? new Map<string, RouteSpec>();
    methods.set(route.method, route);
    exact.set(route.path, methods);
  }
  return exact;
}
