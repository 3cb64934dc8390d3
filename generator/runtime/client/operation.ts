/**
 * What an endpoint is to the runtime, and the request of one call made from its arguments:
 * path, query and headers, the spec's checks, and the body as JSON.
 */
import type { ValidationIssue, Validator } from "../validate.js";
import type { ResultState } from "./api-promise.js";
import type { ClientCore, RequestOptions } from "./core.js";
import type { declaredHeaders, HeaderParse, ResponseKind } from "./decode.js";
import type { BodyEncoding, encodeBody } from "./encode.js";
import { MissingCredentialError, placeText, RequestValidationError } from "./errors.js";
import {
  loneSurrogate,
  type credentialText,
  type ParamsSpec,
  type pathSegments,
  type placeParams,
  type QueryParams,
} from "./params.js";

/** How an endpoint's credential travels. */
export interface CredentialSpec {
  /** Client option name, e.g. `apiKey`. */
  option: string;
  /** Header that carries it; absent for a credential sent in the query string. */
  header?: string;
  /** e.g. `Bearer`. */
  scheme?: string;
  /** Query parameter that carries it, e.g. `api_key`. */
  query?: string;
  /** HTTP basic: the option is `{ username, password }`, sent as `Basic base64(username:password)`. */
  basic?: boolean;
  /** Sent when the client has it; the call works without it. */
  optional?: boolean;
  /** Of the endpoint's credentials of which any one will do: a call needs one, the first the client has is sent. */
  either?: boolean;
}

/** One credential as a call sends it (`operation()` works it out once). */
export interface CredentialSend extends Omit<CredentialSpec, "header"> {
  /** Lower-cased header name, or undefined for a query credential. */
  header: string | undefined;
  /** The scheme with its space, e.g. `Bearer `. */
  prefix: string;
}

/** What the generated layer says about one endpoint: data from the spec, no logic. */
export interface OperationSpec extends ParamsSpec {
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "QUERY";
  /** Path template, `{name}` for each path parameter. */
  path: string;
  credentials: readonly CredentialSpec[];
  /** Fixed headers of the endpoint, e.g. Content-Type. */
  headers: Readonly<Record<string, string>>;
  /** The spec's host the endpoint is served from (the client's `hosts` option); absent: `baseUrl`. */
  host?: string;
  /**
   * Names of the parameters that follow the path, in order. The spec format does not say
   * how they are separated; they are sent as further path segments.
   */
  trailing?: readonly string[];
  /**
   * The endpoint function's arguments after the core and before the request options, in
   * order: a path or trailing parameter by its name, `$body` for the body, `$query` for the
   * query and header parameters. Absent: the options alone. (A path parameter's name is a
   * word, so it never starts with `$`.)
   */
  args?: readonly string[];
  /** Whether the spec shows the success body: then an empty or non-JSON one is an error. */
  documentedResponse: boolean;
  /** A 2xx the spec says comes with no body instead (Spotify's 204): undefined then. */
  emptyStatus?: number;
  /** How the body is sent; absent: as JSON. */
  body?: BodyEncoding;
  /** The call may leave the body out: then nothing is sent, not even its Content-Type. */
  bodyOptional?: true;
  /** What the success body is; absent: JSON. */
  response?: ResponseKind;
  /** The response headers the spec declares, by name, and how each is read. */
  responseHeaders?: Readonly<Record<string, HeaderParse>>;
  /** How a paged endpoint finds its next page (pagination.ts reads it); absent: it does not page. */
  paging?: Paging;
  /** A streamed success (stream.ts): always, or when the body's flag asks for it. */
  streaming?: StreamSpec;
  /** The names of the code passed beside the descriptor (`OperationCode`), in its order. */
  code?: readonly (keyof OperationCode)[];
}

/** A dot path into a body or an item, one field name per step: `["links", "next"]`. */
export type FieldPath = readonly string[];

/**
 * How a paged endpoint's next page is asked for, and when there is none: data from the spec
 * (docs/client.md, "Pagination"). `items`: the body field of the page's items; absent, the
 * body is the list. `start`: the offset or page a walk starts at when the caller gives none.
 * `stopOnEmptyPage`: false when an empty page is not the last; absent, it is. `in`: "body" when
 * the value that moves the walk on is a field of the request body; absent, a query parameter.
 */
export type Paging = { items?: FieldPath; stopOnEmptyPage?: false; in?: "body" } & (
  | { style: "cursor"; param: string; cursor: FieldPath; hasMore?: FieldPath }
  | { style: "nextToken"; param: string; token: FieldPath; hasMore?: FieldPath }
  | { style: "offset"; offset: string; start: number; total?: FieldPath; hasMore?: FieldPath }
  | { style: "page"; page: string; start: number; total?: FieldPath; hasMore?: FieldPath }
  | { style: "link"; header?: string; field?: FieldPath }
);

/**
 * An endpoint ready to call: its spec and its code (validators, encoder, parameter writer,
 * stream reader: see `OperationCode`), plus what every call would otherwise work out again.
 */
export interface Operation extends OperationSpec, Readonly<OperationCode> {
  /** The path split at its parameters: text at even indexes, parameter names at odd ones. */
  readonly parts: readonly string[];
  /** Accept and the fixed headers, by lower-cased name (header names ignore case). */
  readonly fixedHeaders: Readonly<Record<string, string>>;
  /** Per credential: how it is sent. */
  readonly sends: readonly CredentialSend[];
}

/**
 * The code an endpoint needs beside its data: its validators, and the runtime beyond the
 * request loop, handed over by the endpoints that need it, so that a bundle of endpoints
 * without such bodies or parameters leaves it out.
 */
export interface OperationCode {
  /** The validator of the parameters (path, query and header, by spec name). */
  validateParams?: Validator;
  /** The validator of the body. */
  validateBody?: Validator;
  /** encode.ts's `encodeBody`: for a body that is not JSON. */
  encode?: typeof encodeBody;
  /** decode.ts's `declaredHeaders`: for an endpoint that declares response headers. */
  readHeaders?: typeof declaredHeaders;
  /**
   * params.ts's `pathSegments`: for an endpoint whose last path parameter keeps its slashes
   * (`slashes: true`), which it writes in place of `encodeURIComponent`.
   */
  segments?: typeof pathSegments;
  /** params.ts's `placeParams`: for query or header parameters, or a credential in the query. */
  place?: typeof placeParams;
  /**
   * params.ts's `credentialText`: for a credential sent as HTTP basic or in the query string,
   * which the browser build writes with it (core.ts does not read it).
   */
  credential?: typeof credentialText;
  /** `chooseCredential`: for an endpoint with credentials of which any one will do. */
  choose?: typeof chooseCredential;
  /**
   * conditional.ts's `conditional`: for an endpoint that answers 304 Not Modified, the
   * headers a call's `ifNoneMatch`/`ifModifiedSince` send, and the result a 304 gives.
   */
  conditional?: {
    headers(endpointId: string, call: RequestOptions): Record<string, string> | undefined;
    answer(headers: Headers): unknown;
  };
  /** stream.ts's `openStream`: for an endpoint whose success is (or can be) a stream. */
  stream?: (
    op: Operation,
    body: unknown,
    state: ResultState,
    signal: AbortSignal | undefined,
    limit: number,
    fail: StreamFailure,
  ) => Record<string, string> | undefined;
}

/**
 * The API's error (its error class, redacted as every error body is) of an error item a
 * stream sent after it began: the status to throw with, the item's data, the response's
 * headers, and the item's index in the stream.
 */
export type StreamFailure = (status: number, text: string, headers: Headers, item: number) => Error;

/** What the generated descriptor says about a streamed success (its `streaming` entry). */
export interface StreamSpec {
  format: "sse" | "jsonl";
  /** Every item's data is kept as text rather than parsed as JSON (a `string` payload). */
  text?: boolean;
  /** Named events, each with how its data is read; absent: every event's data is the item. */
  events?: Readonly<Record<string, "json" | "text">>;
  /** With `events`: a name not listed arrives as an unknown event instead of failing. */
  open?: boolean;
  /** A data value that ends the stream; not yielded, and required before the stream ends. */
  terminator?: string;
  /** The body field that asks for the stream: absent, every success is the stream. */
  flag?: string;
  /** The Accept header of a call whose flag asks for the stream. */
  accept?: string;
  /**
   * The item that is the API's error once the stream has begun, by a top-level key of its
   * JSON (`field`) or by its event name (`event`); `status`: the path of an integer field of
   * its data that carries the status to throw with.
   */
  error?: { field?: string; event?: string; status?: FieldPath };
}

/**
 * Works out an endpoint's per-call data once, when the generated module loads. `data` is
 * the endpoint's `OperationSpec` as JSON text; `code` is what it needs beside it, each in the
 * place the spec's `code` names it.
 */
export function operation(data: string, ...code: unknown[]): Operation {
  const spec = JSON.parse(data) as OperationSpec;
  const given: Record<string, unknown> = {};
  spec.code?.forEach((name, i) => (given[name] = code[i]));
  const parts = spec.path.split(/\{(\w+)\}/);
  for (const name of spec.trailing ?? []) {
    parts[parts.length - 1] += "/";
    parts.push(name, "");
  }
  const sends = spec.credentials.map((c) => ({
    ...c,
    header: c.query === undefined ? (c.header ?? "authorization").toLowerCase() : undefined,
    prefix: c.basic ? "Basic " : c.scheme ? `${c.scheme} ` : "",
  }));
  return {
    ...spec,
    parts,
    fixedHeaders: lowerKeys({ accept: "application/json", ...spec.headers }),
    sends,
    ...(given as OperationCode),
  };
}

/**
 * The validators of each endpoint's parameters and body, by endpoint id: the package's
 * `requestValidators` (its `./validators` entry). The browser build's endpoints have none of
 * their own and check a request only with these (the client's `requestValidators` option).
 */
export type RequestValidators = Readonly<
  Record<string, { readonly params?: Validator; readonly body?: Validator }>
>;

/** One call's parts, from the endpoint function's arguments. */
export interface CallArgs {
  params: PathParams | undefined;
  body: unknown;
  query: QueryParams | undefined;
  options: RequestOptions | undefined;
}

/**
 * Sorts an endpoint function's arguments (after the core) into the parts of the call, by
 * the descriptor's `args`; the argument after those is the request options.
 */
export function callArgs(op: Operation, args: readonly unknown[]): CallArgs {
  const names = op.args ?? [];
  const path: [string, unknown][] = [];
  let body: unknown;
  let query: QueryParams | undefined;
  names.forEach((name, i) => {
    if (name === "$body") body = args[i];
    else if (name === "$query") query = args[i] as QueryParams | undefined;
    else path.push([name, args[i]]);
  });
  // fromEntries makes own entries: a path parameter named `__proto__` is one, not the prototype.
  const params = path.length ? (Object.fromEntries(path) as PathParams) : undefined;
  return { params, body, query, options: args[names.length] as RequestOptions | undefined };
}

/**
 * An endpoint's function from its descriptor (`operation()`'s arguments): it takes the
 * client's core, the arguments the descriptor's `args` names and the request options, and
 * hands the sorted call to `send`. `F` is the type of the generated declaration it
 * initializes, inferred from it: that signature is what callers see and what a type-checker
 * checks, with no function body per endpoint to check (bench/github.ts).
 */
export function endpointOf<F>(
  data: string,
  code: readonly unknown[],
  send: (core: ClientCore, op: Operation, call: CallArgs) => unknown,
): F {
  const op = operation(data, ...code);
  const call = (core: ClientCore, ...args: unknown[]) => send(core, op, callArgs(op, args));
  return call as F;
}

/** Path and trailing parameters by name. */
export type PathParams = Readonly<Record<string, string | number | boolean>>;
export type { QueryParams };

/**
 * The endpoint's path with each parameter percent-encoded in its place, so that `/`, `\`,
 * `?`, `#` and `%` stay inside its segment. A segment a value leaves empty, `.` or `..` would
 * change which path is called (a URL drops a dot segment, `/repos/../r/issues` is `/r/issues`,
 * and servers merge `//`), and no encoding keeps it (WHATWG URL reads `%2e` as a dot too): it
 * is a RequestValidationError naming the parameter, as is a lone surrogate, which no URL can
 * carry. Nothing is sent.
 */
export function pathOf(op: Operation, params: PathParams | undefined): string {
  const { parts } = op;
  let path = parts[0]!;
  let suspect = false;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    let text: string;
    try {
      // the last parameter keeps its slashes when the endpoint passes `segments` (a catch-all)
      text = ((i + 2 === parts.length && op.segments) || encodeURIComponent)(
        String(own(params, name) ?? ""),
      );
    } catch {
      throw new RequestValidationError(op.id, [{ path: `params.${name}`, message: loneSurrogate }]);
    }
    // Only a value of at most two dots, or none, can make a segment empty or a dot segment.
    if (text.length < 3 && /^\.{0,2}$/.test(text)) suspect = true;
    path += text + parts[i + 1]!;
  }
  if (suspect) checkSegments(op, path);
  return path;
}

/**
 * Refuses a path whose parameters made one of its segments empty, `.` or `..`, naming each
 * parameter of that segment. Values are encoded, so the path has the template's segments (a
 * catch-all's value of such a part is written as that part alone: params.ts `pathSegments`).
 */
function checkSegments(op: Operation, path: string): void {
  const template = op.parts.map((part, i) => (i % 2 ? `{${part}}` : part)).join("");
  const given = template.split("/");
  const issues: ValidationIssue[] = [];
  path.split("/").forEach((segment, i) => {
    if (!/^\.{0,2}$/.test(segment)) return;
    const message = `makes its path segment ${segment ? `\`${segment}\`` : "empty"}: the call would reach another path`;
    for (const [, name] of given[i]!.matchAll(/\{(\w+)\}/g))
      issues.push({ path: `params.${name}`, message });
  });
  if (issues.length) throw new RequestValidationError(op.id, issues);
}

/** An own entry of `params`, or undefined: `params.__proto__` is not one unless it was set. */
function own(params: PathParams | undefined, name: string): string | number | boolean | undefined {
  return params !== undefined && Object.hasOwn(params, name) ? params[name] : undefined;
}

/** Header names lower-cased, so that a later source replaces an earlier one whatever its case. */
export function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** The headers but `content-type`: a call without its optional body describes no body. */
export function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { "content-type": _, ...rest } = headers;
  return rest;
}

/** Local checks before anything is sent: the spec's rules for the parameters and the body. */
export function check(
  op: Pick<Operation, "id"> & {
    validateParams?: Validator | undefined;
    validateBody?: Validator | undefined;
    bodyOptional?: true | undefined;
  },
  params: PathParams | undefined,
  body: unknown,
  query: QueryParams | undefined,
): void {
  const issues: ValidationIssue[] = [];
  op.validateParams?.(query ? { ...params, ...query } : (params ?? {}), "params", issues);
  if (body !== undefined || !op.bodyOptional) op.validateBody?.(body, "body", issues);
  if (issues.length) throw new RequestValidationError(op.id, issues);
}

/**
 * The body as JSON text. A value JSON cannot hold (a cycle, a BigInt, a function, a toJSON
 * that throws) is a RequestValidationError at `body`, not the bare TypeError of
 * JSON.stringify; nothing is sent.
 */
export function serialize(op: Operation, body: unknown): string {
  let text: string | undefined;
  let why = "it is not a JSON value";
  try {
    text = JSON.stringify(body);
  } catch (error) {
    if (error instanceof Error) why = error.message.replace(/\s+/g, " ");
  }
  if (text === undefined)
    throw new RequestValidationError(op.id, [
      { path: "body", message: `cannot be sent as JSON: ${why}` },
    ]);
  return text;
}

/** A random UUID v4; Node 18 has no global `crypto` unless started with a flag. */
export function randomNonce(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const random = () =>
    (webCrypto ? webCrypto.getRandomValues(new Uint8Array(1))[0]! : Math.random() * 256) & 15;
  // Each 0, 1 and 8 of the template becomes a random hex digit; 8 keeps the variant bits.
  return "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
    (+c ^ (random() >> (+c / 4))).toString(16),
  );
}

/**
 * The class of an endpoint group (`client.issues`), made when the module loads (both request
 * loops, core.ts and browser.ts, export it): each method of `names` (comma-separated) calls
 * the endpoint function in its place among `functions` with the instance's core. `C` is the
 * type of the generated declaration it initializes, the group's interface with every
 * method's signature: there is no method body per endpoint for a type checker to check
 * (bench/github.ts).
 */
export function group<C>(names: string, ...functions: unknown[]): C {
  class Group {
    constructor(readonly core: ClientCore) {}
  }
  names.split(",").forEach((name, i) => {
    const send = functions[i] as (core: ClientCore, ...args: unknown[]) => unknown;
    Object.defineProperty(Group.prototype, name, {
      value: function (this: Group, ...args: unknown[]) {
        return send(this.core, ...args);
      },
      writable: true,
      configurable: true,
    });
  });
  return Group as C;
}

/**
 * The credentials a call sends of an endpoint with some of which any one will do (`either`):
 * `sends` with the first of those the client has (`credentials`, its options) only, or a
 * MissingCredentialError naming them all when it has none. Endpoints with such credentials
 * pass it beside their descriptor (`choose`), so the others leave it out.
 */
export function chooseCredential(
  op: Operation,
  credentials: Readonly<Record<string, unknown>>,
): readonly CredentialSend[] {
  const either = op.sends.filter((send) => send.either);
  const chosen = either.find((send) => credentials[send.option]);
  if (!chosen)
    throw new MissingCredentialError(op.id, either.map((send) => send.option).join(" or "), {
      // where each travels as the spec says it (`sends` has header names lower-cased)
      header: [
        ...new Set(either.map((send) => placeText(op.credentials[op.sends.indexOf(send)]!))),
      ].join(" or "),
    });
  return op.sends.filter((send) => !send.either || send === chosen);
}
