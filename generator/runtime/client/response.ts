/**
 * Reading error responses: the code, tag and message of an error body in any of the API's
 * error shapes, kept in a form that is safe to show, log and serialize.
 */
import { ApiError, type ApiErrorDetails, type ApiErrorEntry } from "./errors.js";
import { redactHeaders, redactor } from "./redact.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses JSON text, or returns `undefined` when it is not JSON. */
export function tryParseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** Longest message an error takes from a body. */
const maxMessage = 500;

/**
 * Deepest nesting of an error body kept as parsed JSON. `JSON.stringify` and `util.inspect`
 * recurse, and a body nested some thousand levels deep would make `JSON.stringify(error)`
 * throw; a deeper body is kept as its text.
 */
const maxDepth = 64;

/** Whether a parsed JSON value nests deeper than `levels` (recursing at most that deep). */
function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  for (const item of Object.values(value)) if (deeperThan(item, levels - 1)) return true;
  return false;
}

/**
 * A message fit for one log line: each tag, control character and run of space made one
 * space, cut short. (A tag stops at the next `<`: `[^>]*` would scan to the end of the text
 * from every `<`, quadratic in a body of many.)
 */
function oneLine(text: string): string {
  return text
    .replace(/<[^<>]*>|[\s\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, maxMessage);
}

/** A code as the body gives it: a number, or a non-empty string (`card_declined`). */
function codeOf(value: unknown): number | string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim()) return oneLine(value);
  return undefined;
}

/**
 * The details of an error response. Reads v1 bodies (`{errors: [{code, message}]}`),
 * `.tag` bodies (`{".tag", message}`), `{error: {type, code, message, param}}` (Stripe's),
 * `{code, message}` and `{message, documentation_url}` (GitHub's); a code may be a number
 * or a string. Any other body,
 * JSON or not, still gives an error carrying its text. Text and headers are redacted
 * against `secrets` first; a body cut at the size limit, or nested too deep, is kept as
 * its text.
 */
export function errorDetails(
  endpointId: string,
  status: number,
  text: string,
  cut: boolean,
  headers: Headers,
  secrets: readonly string[],
  requestIdHeader?: string,
): ApiErrorDetails {
  return detailsOf(
    endpointId,
    status,
    redactor(secrets, cut)(text),
    cut,
    redactHeaders(headers, secrets),
    requestIdHeader,
  );
}

/**
 * The details of an error response whose text and headers are already redacted (as
 * `errorDetails` does): the browser's request loop (browser.ts) redacts its own way, and so
 * leaves redact.ts out of its bundle.
 */
export function detailsOf(
  endpointId: string,
  status: number,
  safeText: string,
  cut: boolean,
  safeHeaders: Headers,
  requestIdHeader?: string,
): ApiErrorDetails {
  const parsed = cut ? undefined : tryParseJson(safeText);
  const json = parsed && !deeperThan(parsed.value, maxDepth) ? parsed : undefined;
  const body = json ? json.value : safeText;
  const record = isRecord(body) ? body : undefined;
  const errors = (
    Array.isArray(record?.errors) ? record.errors.filter(isRecord) : []
  ) as ApiErrorEntry[];
  // Stripe's `{ error: { type, code, message, param } }` is a body of one entry.
  if (errors.length === 0 && isRecord(record?.error)) errors.push(record.error as ApiErrorEntry);
  // The server's own message: the first entry's or the body's, or a text that is not JSON.
  const said = record ? (errors[0]?.message ?? record.message) : json ? undefined : safeText;
  const serverMessage = typeof said === "string" ? oneLine(said) : "";
  const details: ApiErrorDetails = {
    status,
    endpointId,
    message: serverMessage || `HTTP ${status}`,
    errors,
    body,
    headers: safeHeaders,
  };
  const requestId = requestIdOf(safeHeaders, requestIdHeader);
  if (requestId !== undefined) details.requestId = requestId;
  const code = codeOf(errors[0]?.code) ?? codeOf(record?.code);
  if (code !== undefined) details.code = code;
  if (typeof record?.[".tag"] === "string") details.tag = oneLine(record[".tag"]);
  if (serverMessage) details.serverMessage = serverMessage;
  return details;
}

/**
 * The value at a dot path of a parsed body, through own properties only; a step `[0]` is a
 * list's first entry (Google's `error.errors[0].reason`).
 */
function dig(body: unknown, path: readonly string[]): unknown {
  let at = body;
  for (const key of path) {
    if (key === "[0]" && Array.isArray(at)) at = at[0];
    else if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    else at = at[key];
  }
  return at;
}

/**
 * The details of an error response whose code and message the spec places elsewhere than the
 * usual fields (`errors.codeField`, `errors.messageField`: Anthropic's `error.type`, Slack's
 * `error`, Jira's list `errorMessages`): taken from there when the body gives them, else left
 * as `detailsOf` read them.
 * The generated error class calls it, so a package without those fields leaves it out.
 */
export function withErrorFields(
  details: ApiErrorDetails,
  codeField: readonly string[] | undefined,
  messageField?: readonly string[],
): ApiErrorDetails {
  const code = codeField && codeOf(dig(details.body, codeField));
  const said = messageField && dig(details.body, messageField);
  // a list of messages (Jira's `errorMessages`) is said as one, its texts joined
  const texts = Array.isArray(said) ? said.filter((m) => typeof m === "string") : [said];
  const message = texts.every((m) => typeof m === "string") ? oneLine(texts.join("; ")) : "";
  return {
    ...details,
    ...(code !== undefined ? { code } : {}),
    ...(message ? { message, serverMessage: message } : {}),
  };
}

/** Headers that carry a request id, in the order looked at, when the spec names none. */
const requestIdHeaders = ["x-request-id", "request-id", "x-github-request-id"];

/** The request id of a response: the spec's header, else the first of the usual ones present. */
function requestIdOf(headers: Headers, header: string | undefined): string | undefined {
  for (const name of header ? [header] : requestIdHeaders) {
    const value = headers.get(name);
    if (value !== null) return oneLine(value);
  }
  return undefined;
}

/** The error class the generated client throws for API errors. */
export type ApiErrorClass = new (details: ApiErrorDetails) => ApiError;
