/**
 * Reading responses: the JSON of a success, and the code, tag and message of an error
 * body in any of the API's error shapes.
 */
import { ApiError, redact, type ApiErrorDetails, type ApiErrorEntry } from "./errors.js";

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

/** Longest message taken from a non-JSON body (an HTML error page, say). */
const maxTextMessage = 500;

/**
 * The details of an error response. Reads v1 bodies (`{errors: [{code, message}]}`),
 * `.tag` bodies (`{".tag", message}`) and `{error: {code, message}}`; any other body,
 * JSON or not, still gives an error carrying its text.
 */
export function errorDetails(
  endpointId: string,
  status: number,
  text: string,
  headers: Headers,
  secrets: readonly string[],
): ApiErrorDetails {
  const safeText = redact(text, secrets);
  const parsed = tryParseJson(safeText);
  const body = parsed ? parsed.value : safeText;
  const details: ApiErrorDetails = { status, endpointId, message: "", errors: [], body, headers };
  if (isRecord(body)) {
    if (Array.isArray(body.errors))
      details.errors = body.errors.filter(isRecord) as ApiErrorEntry[];
    const first =
      details.errors[0] ?? (isRecord(body.error) ? (body.error as ApiErrorEntry) : undefined);
    if (typeof first?.code === "number") details.code = first.code;
    if (typeof body[".tag"] === "string") details.tag = body[".tag"];
    const message = first?.message ?? body.message;
    if (typeof message === "string") details.message = message;
  } else if (!parsed) {
    details.message = safeText
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, maxTextMessage);
  }
  details.message ||= `HTTP ${status}`;
  return details;
}

/** The error class the generated client throws for API errors. */
export type ApiErrorClass = new (details: ApiErrorDetails) => ApiError;
