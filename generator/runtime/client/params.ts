/**
 * Where the values of a call go besides the path: query parameters in their declared style,
 * header parameters under their exact names, defaults the spec says to send, and credentials
 * that travel in the query string or as HTTP basic. Problems with a value are a
 * RequestValidationError naming the parameter; nothing is sent.
 */
import type { ValidationIssue } from "../validate.js";
import { RequestValidationError } from "./errors.js";

/**
 * How a query array or object is written; absent: `repeat` (`a=1&a=2`). `comma`: `a=1,2`;
 * `space`: `a=1%202` (OpenAPI's spaceDelimited); `pipe`: `a=1|2` (pipeDelimited);
 * `brackets`: `a[]=1&a[]=2`; `deepObject`: `a[gte]=1&a[lte]=2`.
 */
export type QueryStyle = "comma" | "space" | "pipe" | "brackets" | "deepObject";

/** What the delimited styles put between the items of one value (an item's own is escaped). */
const delimiters: Readonly<Record<string, string>> = { comma: ",", space: "%20", pipe: "|" };

/**
 * A catch-all path parameter's value (`slashes: true`) as the path's last segments: each part
 * between its slashes percent-encoded, the slashes kept (`docs/a b.md` is `docs/a%20b.md`).
 * A part that is empty, `.` or `..` would change which path is called: it is returned alone,
 * for pathOf to refuse as it refuses such a whole value, naming the parameter and the part.
 */
export function pathSegments(value: string): string {
  const parts = value.split("/");
  return parts.find((part) => /^\.{0,2}$/.test(part)) ?? parts.map(encodeURIComponent).join("/");
}

/** The parameters of a call other than path ones, by their spec name. */
export type QueryParams = Readonly<Record<string, unknown>>;

/** HTTP basic credentials: sent as `Authorization: Basic base64(username:password)`. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** What the endpoint says about its non-path parameters (part of its descriptor). */
export interface ParamsSpec {
  id: string;
  /** Query parameters written in a style other than `repeat`. */
  styles?: Readonly<Record<string, QueryStyle>>;
  /** Parameters sent as request headers, by their exact header name. */
  headerParams?: readonly string[];
  /** Values sent when the caller leaves the parameter out (`sendDefault: true`). */
  sendDefaults?: Readonly<Record<string, unknown>>;
  /** The name a parameter travels under, by its key, when the two differ (`id_query` -> `id`). */
  wireNames?: Readonly<Record<string, string>>;
}

/** An own entry of a descriptor's map: `__proto__` or `toString` is no entry unless listed. */
function entry<T>(map: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return map !== undefined && Object.hasOwn(map, name) ? map[name] : undefined;
}

/** Why a value cannot go into a URL: encodeURIComponent throws a URIError on it. */
export const loneSurrogate =
  "holds a lone surrogate (half of a UTF-16 pair), which a URL cannot carry";

/**
 * One value as application/x-www-form-urlencoded writes it (as URLSearchParams does: a
 * space is `+`), so that a `,` or `[]` the style adds stays apart from the value's own.
 * Throws a URIError on a lone surrogate.
 */
function encode(text: string): string {
  // Most names and values (`limit`, `100`, `cus_123`) need no escaping: skip the three passes.
  if (/^[\w.-]*$/.test(text)) return text;
  return encodeURIComponent(text)
    .replace(/%20/g, "+")
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The path of a field as the validators write it (validate.ts): `.name`, or `["any key"]`. */
function child(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** The `name=value` pairs of one query parameter, already encoded; pushes an issue when it cannot be written. */
function queryPairs(
  name: string,
  wire: string,
  value: unknown,
  style: QueryStyle | undefined,
  issues: ValidationIssue[],
): string[] {
  const key = encode(wire);
  if (isScalar(value)) return [`${key}=${encode(String(value))}`];
  const at = child("params", name);
  if (Array.isArray(value)) {
    if (!value.every(isScalar)) {
      issues.push({
        path: at,
        message: "holds an item a query string cannot write (an object or array)",
      });
      return [];
    }
    const items = value.map((item) => encode(String(item)));
    const delimiter = style === undefined ? undefined : entry(delimiters, style);
    if (delimiter !== undefined) return items.length ? [`${key}=${items.join(delimiter)}`] : [];
    const itemKey = style === "brackets" ? `${key}[]` : key;
    return items.map((item) => `${itemKey}=${item}`);
  }
  if (isRecord(value) && style === "deepObject") {
    const pairs: string[] = [];
    for (const [field, inner] of Object.entries(value)) {
      if (inner === undefined || inner === null) continue;
      const fieldKey = `${key}[${encode(field)}]`;
      if (isScalar(inner)) pairs.push(`${fieldKey}=${encode(String(inner))}`);
      else if (Array.isArray(inner) && inner.every(isScalar))
        for (const item of inner) pairs.push(`${fieldKey}[]=${encode(String(item))}`);
      else
        issues.push({
          path: child(at, field),
          message: "nests deeper than style deepObject writes (one level of fields)",
        });
    }
    return pairs;
  }
  issues.push({
    path: at,
    message: isRecord(value)
      ? "is an object: only a parameter of style deepObject can send one"
      : "is not a value a query string can write",
  });
  return [];
}

/**
 * What fetch sends as a header value: tab, space and visible ASCII, and U+0080-U+00FF, each
 * as one byte. Browsers take other control characters too; Node's fetch (undici) refuses
 * them, and the Headers class refuses a character above U+00FF everywhere.
 */
const headerText = /^[\t\x20-\x7e\x80-\xff]*$/;

/** An HTTP header name (RFC 9110's token). */
const headerToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why fetch would refuse a header value, or undefined when it would send it. Never quotes the value. */
export function headerProblem(text: string): string | undefined {
  if (headerText.test(text)) return undefined;
  const what = /[\r\n\0]/.test(text)
    ? "a line break or NUL"
    : /[\0-\x1f\x7f]/.test(text)
      ? "a control character"
      : "a character above U+00FF";
  return `holds ${what}, which a header cannot carry`;
}

/**
 * Checks every header of a request as fetch would, before anything is sent: a name that is
 * no token or a value fetch refuses is a RequestValidationError, at the place `where` names
 * for the header's name or value (an option, a credential: never its value). Otherwise fetch
 * would throw a TypeError that reads as a connection failure, and the call would be retried.
 */
export function checkHeaders(
  endpointId: string,
  headers: Readonly<Record<string, string>>,
  where: (name: string, badName: boolean) => string,
): void {
  let issues: ValidationIssue[] | undefined;
  for (const name in headers) {
    const value = headers[name]!;
    if (headerToken.test(name) && headerText.test(value)) continue;
    const badName = !headerToken.test(name);
    const message = badName
      ? "is not a header name (a token: letters, digits and !#$%&'*+-.^_`|~)"
      : headerProblem(String(value))!;
    (issues ??= []).push({ path: where(name, badName), message });
  }
  if (issues) throw new RequestValidationError(endpointId, issues);
}

/** A header value as it may be sent: one fetch refuses would end the header or fail the call. */
function headerValue(name: string, value: unknown, issues: ValidationIssue[]): string | undefined {
  const text = Array.isArray(value) && value.every(isScalar) ? value.join(",") : value;
  if (!isScalar(text)) {
    issues.push({ path: child("params", name), message: "is not a value a header can carry" });
    return undefined;
  }
  const out = String(text);
  const problem = headerProblem(out);
  if (problem) {
    issues.push({ path: child("params", name), message: problem });
    return undefined;
  }
  return out;
}

/**
 * The query string (with its `?`, or empty) and the header parameters (lower-cased names) of
 * one call. Undefined and null values are left out, unless the spec says to send a default.
 * `extra` are further encoded `name=value` pairs: query credentials.
 */
export function placeParams(
  spec: ParamsSpec,
  query: QueryParams | undefined,
  extra: readonly string[] = [],
): { search: string; headers: Record<string, string> | undefined } {
  const pairs: string[] = [];
  const issues: ValidationIssue[] = [];
  let headers: Record<string, string> | undefined;
  const names = spec.sendDefaults
    ? new Set([...Object.keys(query ?? {}), ...Object.keys(spec.sendDefaults)])
    : Object.keys(query ?? {});
  for (const name of names) {
    const value =
      (query && Object.hasOwn(query, name) ? query[name] : undefined) ??
      entry(spec.sendDefaults, name);
    if (value === undefined || value === null) continue;
    const wire = entry(spec.wireNames, name) ?? name;
    if (spec.headerParams?.includes(name)) {
      const text = headerValue(name, value, issues);
      if (text !== undefined) (headers ??= {})[wire.toLowerCase()] = text;
    } else
      try {
        pairs.push(...queryPairs(name, wire, value, entry(spec.styles, name), issues));
      } catch (error) {
        if (!(error instanceof URIError)) throw error;
        issues.push({ path: child("params", name), message: loneSurrogate });
      }
  }
  if (issues.length) throw new RequestValidationError(spec.id, issues);
  pairs.push(...extra);
  return { search: pairs.length ? `?${pairs.join("&")}` : "", headers };
}

/**
 * One encoded `name=value` pair of a query string: a query credential, or the value a walk of
 * pages moves on. Throws a URIError on a lone surrogate (the caller names the value).
 */
export function queryPair(name: string, value: string): string {
  return `${encode(name)}=${encode(value)}`;
}

/** `base64(username:password)` of the UTF-8 bytes, as RFC 7617 sends it (btoa takes bytes as Latin-1 text). */
export function basicToken(endpointId: string, option: string, value: unknown): string {
  const { username, password } = (value ?? {}) as Partial<BasicCredentials>;
  const problem =
    typeof username !== "string" || typeof password !== "string"
      ? "is not { username, password }"
      : username.includes(":")
        ? "has a ':' in its username, which basic credentials cannot carry"
        : "";
  if (problem) throw new RequestValidationError(endpointId, [{ path: option, message: problem }]);
  let binary = "";
  for (const byte of new TextEncoder().encode(`${username}:${password}`))
    binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A credential that travels as HTTP basic or in the query string, as the browser build
 * writes it: the header value after its prefix (`Basic `) or the encoded `name=value` pair,
 * then the texts to redact (secretsOf). Passed beside the descriptor only by the endpoints
 * that send such a credential (`OperationCode.credential`), so other bundles leave it out;
 * core.ts writes them itself.
 */
export function credentialText(
  endpointId: string,
  send: { option: string; query?: string | undefined; basic?: boolean | undefined },
  value: unknown,
): string[] {
  if (send.basic) return [basicToken(endpointId, send.option, value), ...secretsOf(value)];
  const text = String(value);
  try {
    return [queryPair(send.query!, text), text];
  } catch {
    throw new RequestValidationError(endpointId, [{ path: send.option, message: loneSurrogate }]);
  }
}

/**
 * The texts of a credential value to redact wherever the client shows something: a key
 * as it is; of basic credentials the password and the token sent (which spells both).
 */
export function secretsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (isRecord(value) && typeof value.password === "string") {
    const texts = [value.password];
    try {
      texts.push(basicToken("", "", value));
    } catch {
      // a username with ':' is refused when sent; its password is still redacted
    }
    return texts;
  }
  return [];
}
