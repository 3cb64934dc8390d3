/**
 * A success response as the call's result: its body by the kind the spec declares (JSON, a
 * Blob, text, or nothing), and for `withResponse()` the declared headers, typed.
 */
import type { ResultState, WithResponse } from "./api-promise.js";
import { ResponseParseError } from "./errors.js";

/** What a success body is; absent in a descriptor: JSON. */
export type ResponseKind = "binary" | "text" | "none";

/** How a declared response header is read. */
export type HeaderParse = "string" | "integer" | "number" | "boolean";

/** What decoding needs of an endpoint. */
export interface DecodeSpec {
  id: string;
  response?: ResponseKind;
  documentedResponse: boolean;
  /** A 2xx that comes with no body instead of the documented one: undefined, not an error. */
  emptyStatus?: number;
  responseHeaders?: Readonly<Record<string, HeaderParse>>;
  /**
   * `declaredHeaders`, passed beside the descriptor by the endpoints that declare response
   * headers only, so that a bundle of others leaves it out; absent, there are none to read.
   */
  readHeaders?: typeof declaredHeaders;
  /** Of an endpoint that answers 304 Not Modified: makes its `NotModified` (conditional.ts). */
  conditional?: { answer(headers: Headers): unknown };
}

/** A success as read: its status, headers, body text (or bytes) and the response itself. */
export interface Success {
  status: number;
  headers: Headers;
  text: string;
  blob?: Blob;
  response: Response;
}

/** The value of a JSON 2xx: its JSON, or undefined for an empty body where the spec shows none. */
function parseJson(op: DecodeSpec, status: number, text: string): unknown {
  const fail = (what: string) => new ResponseParseError(op.id, status, what);
  if (!text.trim()) {
    if (op.documentedResponse && status !== op.emptyStatus) throw fail("an empty body");
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw fail("a body that is not JSON");
  }
}

/**
 * The declared headers present in the response, by spec name. A number or boolean that
 * does not read as one is left out, as an absent header is: the body still arrives.
 */
export function declaredHeaders(
  spec: Readonly<Record<string, HeaderParse>> | undefined,
  headers: Headers,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  if (!spec) return out;
  for (const [name, parse] of Object.entries(spec)) {
    const text = headers.get(name);
    if (text === null) continue;
    if (parse === "string") put(out, name, text);
    else if (parse === "boolean") {
      if (text === "true" || text === "false") put(out, name, text === "true");
    } else {
      const value = text.trim() === "" ? NaN : Number(text);
      if (Number.isFinite(value) && (parse === "number" || Number.isInteger(value)))
        put(out, name, value);
    }
  }
  return out;
}

/** `out[name] = value`, as an own entry also for a header named `__proto__` (not the prototype). */
function put(out: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__")
    Object.defineProperty(out, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[name] = value;
}

/**
 * The result of a success in the call's mode (api-promise.ts): its body by its declared
 * kind (or its Stream), or a 304's `NotModified`, or more. A body alone keeps the success, for a `withResponse()` asked later.
 */
export function settle(op: DecodeSpec, success: Success, state: ResultState): unknown {
  const { status, response, text } = success;
  const { mode, open } = state;
  if (mode === 2) return response;
  const kind = op.response;
  const data = open
    ? open(response)
    : status === 304 && op.conditional
      ? op.conditional.answer(success.headers)
      : kind === "binary"
        ? success.blob
        : kind === "text"
          ? text
          : kind === "none"
            ? undefined
            : parseJson(op, status, text);
  if (!mode) {
    state.kept = success;
    state.spec = op;
    return data;
  }
  const headers = readDeclared(op, success.headers);
  const result: WithResponse<unknown, unknown> = { data, response, status, headers };
  return result;
}

/** The declared headers of a success, by spec name: none when the endpoint declares none. */
export function readDeclared(op: DecodeSpec, headers: Headers): Record<string, unknown> {
  return op.readHeaders?.(op.responseHeaders, headers) ?? {};
}
