/**
 * Reading a request as a route expects it: path matching against `{name}` templates,
 * parameters turned into the values the generated validators check, and the credential
 * checks with the keys the stand-in was given. (The body is read by ../http/, under the
 * stand-in's size and time limits.)
 */
import type { HeaderReader } from "../http/types.js";
import { put } from "./sample.js";
import type { CredentialCheck, Refusal, Route, RouteParam } from "./table.js";

/** Which values of a credential the stand-in takes, and which belong to the other environment. */
export interface KeySet {
  /** The accepted values; absent: any value not in `otherEnvironment` is accepted. */
  valid?: readonly string[];
  /** Values of the other environment (sandbox against production): refused as the spec says. */
  otherEnvironment?: readonly string[];
}

const segments = (path: string) => path.split("/").filter((s) => s !== "");

/**
 * The path parameters when `path` matches the route's template, else `undefined`. A catch-all
 * last parameter (`slashes`) takes every segment from its own on, each decoded, joined by `/`.
 */
export function matchPath(route: Route, path: string): Record<string, string> | undefined {
  const template = segments(route.path);
  let actual = segments(path);
  const trailing = route.params.filter((p) => p.in === "trailing").length;
  const catchAll = route.params.some((p) => p.slashes);
  if (actual.length < template.length) return undefined;
  if (catchAll && actual.length > template.length) {
    const rest = actual.slice(template.length - 1).map(safeDecode);
    if (rest.includes(undefined)) return undefined;
    actual = [...actual.slice(0, template.length - 1), encodeURIComponent(rest.join("/"))];
  }
  if (actual.length > template.length + trailing) return undefined;
  const found: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const part = template[i]!;
    const text = safeDecode(actual[i]!);
    if (text === undefined) return undefined;
    if (/^\{[^}]+\}$/.test(part)) put(found, part.slice(1, -1), text);
    else if (part.includes("{")) {
      if (!matchSegment(part, actual[i]!, found, route.params)) return undefined;
    } else if (part !== text) return undefined;
  }
  const rest = actual.slice(template.length);
  route.params
    .filter((p) => p.in === "trailing")
    .forEach((p, i) => {
      if (rest[i] !== undefined) put(found, p.name, safeDecode(rest[i]!) ?? rest[i]!);
    });
  return found;
}

/**
 * Of the routes whose templates match `pathname`, the one a router picks: the one whose trailing
 * slash agrees with the path's (useapi.net has both `/jobs` and `/jobs/`), and its doubled
 * slashes (TomTom has `/wms/` and `/wms//`, two operations told apart by that), then segment by
 * segment a fixed segment before one with a parameter among fixed text (the more fixed text,
 * the earlier: TomTom's `{Y}.pbf` before `{Y}.{format}`), before a whole parameter
 * (`/admin/platform/systems` before `/admin/platform/{systemKey}`, whichever the spec lists
 * first); then the longer template; then the first listed.
 */
export function mostSpecific<T extends { route: Route }>(
  matches: readonly T[],
  pathname: string,
): T | undefined {
  let best: T | undefined;
  let bestRank: number[] = [];
  const slash = pathname.endsWith("/");
  const doubled = emptySegments(pathname);
  for (const match of matches) {
    const path = match.route.path;
    const catchAll = match.route.params.some((p) => p.slashes);
    const rank = [
      path.endsWith("/") === slash ? 0 : 1,
      emptySegments(path) === doubled ? 0 : 1,
      ...segments(path).map((part, i, all) => segmentRank(part, catchAll && i === all.length - 1)),
    ];
    if (best === undefined || ranksBefore(rank, bestRank)) [best, bestRank] = [match, rank];
  }
  return best;
}

/** How many `//` a path has: the empty segments matching passes over. */
function emptySegments(path: string): number {
  return path.split("//").length - 1;
}

/**
 * 0 for fixed text, 2 for a whole parameter, between them the less the more fixed text it has;
 * a catch-all after every other (`/files/{id}/meta` before `/files/{path}` that could take it).
 */
function segmentRank(part: string, catchAll: boolean): number {
  if (catchAll) return 3;
  if (!part.includes("{")) return 0;
  const fixed = part.replace(/\{[^}]+\}/g, "").length;
  return fixed === 0 ? 2 : 1 + 1 / (fixed + 1);
}

function ranksBefore(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length > b.length;
}

/**
 * A segment of parameters among fixed text (`{Sid}.json`, `{from}..{to}`): each parameter takes
 * the shortest run of characters that lets the rest match; `false` when the segment does not.
 */
function matchSegment(
  part: string,
  raw: string,
  found: Record<string, string>,
  params: readonly RouteParam[],
): boolean {
  const names: string[] = [];
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const source = part
    .split(/(\{[^}]+\})/)
    .map((piece) => {
      if (!/^\{[^}]+\}$/.test(piece)) return literal(piece);
      const name = piece.slice(1, -1);
      names.push(name);
      // a parameter whose type lists its texts takes one of them, as the client encodes it
      const values = params.find((p) => p.name === name && p.in === "path")?.values;
      return values ? `(${values.map((v) => literal(encodeURIComponent(v))).join("|")})` : "(.+?)";
    })
    .join("");
  const match = new RegExp(`^${source}$`).exec(raw);
  if (!match) return false;
  const values = match.slice(1).map(safeDecode);
  if (values.some((v) => v === undefined)) return false;
  names.forEach((name, i) => put(found, name, values[i]!));
  return true;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A URL text as the value the validators expect. */
function urlValue(param: RouteParam, text: string): unknown {
  return textValue(param.urlValue, text);
}

/** A URL text as `as` says: a number, a boolean, either (`scalar`), or the text. */
function textValue(as: RouteParam["urlValue"], text: string): unknown {
  if ((as === "number" || as === "scalar") && text.trim() !== "" && !Number.isNaN(Number(text)))
    return Number(text);
  if ((as === "boolean" || as === "scalar") && (text === "true" || text === "false"))
    return text === "true";
  return text;
}

/**
 * An object sent in the deepObject style, as the client writes it: `wire[field]=value` for each
 * field, `wire[field][]=item` for each item of a list field; each text read as its field's
 * type says (a field the type does not list stays text, for the validator to judge).
 * `undefined` when the query carries none of it.
 */
function deepObjectOf(
  fields: NonNullable<RouteParam["fields"]>,
  wire: string,
  query: URLSearchParams,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let found = false;
  // forEach, not for...of: a URLSearchParams is iterable only where the DOM.Iterable lib is
  query.forEach((text, key) => {
    if (!key.startsWith(`${wire}[`) || !key.endsWith("]")) return;
    const listed = key.endsWith("][]");
    const field = key.slice(wire.length + 1, listed ? -3 : -1);
    if (field.includes("[") || field.includes("]")) return;
    const kind = Object.hasOwn(fields, field) ? fields[field] : undefined;
    const item = textValue(kind?.urlValue, text);
    found = true;
    if (kind?.list || listed) {
      const items = Object.hasOwn(out, field) && Array.isArray(out[field]) ? out[field] : [];
      put(out, field, [...(items as unknown[]), item]);
    } else put(out, field, item);
  });
  return found ? out : undefined;
}

/** The content codings fetch itself asks for (`Accept-Encoding: gzip, deflate, br`). */
const fetchCodings = new Set(["gzip", "deflate", "br", "zstd", "identity", "*"]);

/** The `User-Agent` runtimes' fetch sends of its own: Node's, undici's, Deno's, Bun's, a browser's. */
const runtimeAgent = /^(?:node|undici|Deno\/|Bun\/|Mozilla\/5\.0 )/;

/**
 * Whether a header's value is one fetch writes on its own where the call sets none, read as
 * no header: Node's fetch (undici) sends `Accept-Language: *` and `Accept-Encoding: gzip,
 * deflate` on every request, so a call that leaves out Zalando's `Accept-Language` or Conjur's
 * `Accept-Encoding` (enums of their own values) still sends them. A wildcard `Accept-*` is
 * any value, as no header is. So is the runtime's own `User-Agent` (`node`), where a spec
 * declares the header with a pattern of its SDKs' agents (Meta's `name/1.2.3`).
 */
function fetchDefault(name: string, value: string): boolean {
  if (name.toLowerCase() === "user-agent") return runtimeAgent.test(value);
  if (!/^accept-/i.test(name)) return false;
  if (value.trim() === "*") return true;
  return (
    name.toLowerCase() === "accept-encoding" &&
    value.split(",").every((item) => fetchCodings.has(item.split(";")[0]!.trim().toLowerCase()))
  );
}

/** The parameters of a request, by name, as the params validator checks them. */
export function readParams(
  route: Route,
  pathParams: Record<string, string>,
  query: URLSearchParams,
  headers: HeaderReader,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of route.params) {
    const wire = param.wire ?? param.name;
    // An array in a path segment or a header is its items joined by commas (style simple),
    // as the client writes it.
    const one = (text: string) =>
      param.list ? text.split(",").map((v) => urlValue(param, v)) : urlValue(param, text);
    if (param.in === "path" || param.in === "trailing") {
      const text = Object.hasOwn(pathParams, param.name)
        ? pathParams[param.name]
        : query.get(param.name);
      if (text !== undefined && text !== null) put(out, param.name, one(text));
    } else if (param.in === "header") {
      const text = headers.get(wire);
      if (text !== null && !fetchDefault(wire, text)) put(out, param.name, one(text));
    } else if (param.fields) {
      const value = deepObjectOf(param.fields, wire, query);
      if (value !== undefined) put(out, param.name, value);
    } else if (param.list) {
      const all = query
        .getAll(wire)
        .concat(query.getAll(`${wire}[]`))
        .flatMap((v) => v.split(param.delimiter ?? ","));
      if (all.length > 0)
        put(
          out,
          param.name,
          all.map((v) => urlValue(param, v)),
        );
    } else {
      const text = query.get(wire);
      if (text !== null) put(out, param.name, urlValue(param, text));
    }
  }
  return out;
}

/** The credential's value as sent, or `undefined` when it is absent. */
function presented(
  check: CredentialCheck,
  query: URLSearchParams,
  headers: HeaderReader,
): string | undefined {
  if (check.in === "query") return query.get(check.name) || undefined;
  const raw = headers.get(check.name)?.trim();
  if (!raw) return undefined;
  const scheme = check.in === "basic" ? "Basic" : check.scheme;
  if (scheme === undefined) return raw;
  const [given, ...rest] = raw.split(/\s+/);
  if (given?.toLowerCase() !== scheme.toLowerCase() || rest.length === 0) return undefined;
  const value = rest.join(" ");
  if (check.in !== "basic") return value;
  try {
    return atob(value);
  } catch {
    return value;
  }
}

/** The first credential refusal of a request, in the route's order, or `undefined` when all pass. */
export function checkCredentials(
  route: Route,
  query: URLSearchParams,
  headers: HeaderReader,
  keys: Readonly<Record<string, KeySet>>,
): Refusal | undefined {
  // of credentials any one of which will do (`either`), one is missing only when all are
  let firstMissing: Refusal | undefined;
  let onePresented = false;
  for (const check of route.credentials) {
    const value = presented(check, query, headers);
    if (value === undefined) {
      if (check.either) firstMissing ??= check.missing;
      if (check.optional) continue;
      return check.missing;
    }
    if (check.either) onePresented = true;
    const set = keys[check.credential];
    if (set?.otherEnvironment?.includes(value))
      return {
        ...check.rejected,
        message: `${check.rejected.message} (a key of the other environment)`,
      };
    if (set?.valid && !set.valid.includes(value)) return check.rejected;
  }
  return onePresented ? undefined : firstMissing;
}
