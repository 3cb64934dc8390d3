/**
 * Failure bodies the router answers with itself (bad signature, invalid input, too large,
 * handler error), each in the failure shape the spec gives the callback. The generator reads
 * the shape off the model's failure type and passes it here as data, so no event's shape is
 * written by hand.
 */

/** Where a failure body puts its parts; every name comes from the spec's failure type. */
export interface FailureShape {
  /** Fields with one fixed value, copied as they are, e.g. `{ status: "failure" }`. */
  fixed: Readonly<Record<string, string | number | boolean>>;
  /** Field that carries the callback's event name, when the body has one (`event`). */
  event?: string;
  /** Field that holds the error (`error`), or a list of errors (`errors`, `list: true`). Absent: its parts sit at the top level. */
  container?: { field: string; list: boolean };
  /** Field of the numeric code, e.g. `code`. Absent: the shape carries no code. */
  code?: string;
  /** Field of the explanation: a string (`message`), or a list of objects with one text field (`data: [{ reason }]`). */
  text?: { field: string; item?: string };
}

/** The shape used where the spec gives none (and for unknown paths): `{ error: { code, message } }`. */
export const genericFailureShape: FailureShape = {
  fixed: {},
  container: { field: "error", list: false },
  code: "code",
  text: { field: "message" },
};

/** Most reasons one failure body lists; the rest are summed up in one line. */
const maxReasons = 20;
/** Longest reason kept whole; a field path can carry a key of the body, of any length. */
const maxReasonLength = 300;

/** One reason, cut to `maxReasonLength` characters. */
function shortened(reason: string): string {
  return reason.length <= maxReasonLength ? reason : `${reason.slice(0, maxReasonLength - 3)}...`;
}

/**
 * Caps a list of reasons so a hostile body cannot make a huge answer or log line: at most
 * `maxReasons`, each at most `maxReasonLength` characters, and a line counting the rest.
 */
export function capped(reasons: readonly string[]): string[] {
  const kept = reasons.slice(0, maxReasons).map(shortened);
  if (reasons.length > maxReasons)
    kept.push(`... and ${reasons.length - maxReasons} more problems`);
  return kept;
}

/**
 * A failure body in `shape`: the event name where the shape has one, its fixed fields, and
 * the code and reasons where the shape puts them (one string joined with `; `, or one list
 * entry per reason).
 */
export function failureBody(
  shape: FailureShape,
  event: string | undefined,
  code: number,
  reasons: readonly string[],
): Record<string, unknown> {
  const lines = capped(reasons);
  const error: Record<string, unknown> = {};
  if (shape.code !== undefined) error[shape.code] = code;
  if (shape.text !== undefined) {
    const { field, item } = shape.text;
    error[field] = item === undefined ? lines.join("; ") : lines.map((line) => ({ [item]: line }));
  }
  const body: Record<string, unknown> = {};
  if (shape.event !== undefined && event !== undefined) body[shape.event] = event;
  Object.assign(body, shape.fixed);
  if (shape.container === undefined) return Object.assign(body, error);
  body[shape.container.field] = shape.container.list ? [error] : error;
  return body;
}
