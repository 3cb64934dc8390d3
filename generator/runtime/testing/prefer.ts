/**
 * `Prefer` requests for a given status or error, as Prism takes them (`code=429`,
 * `error=1005`, `retry-after=2`, RFC 7240 style): what a header asks for, and which of the
 * refusals the spec lists for the endpoint answers it. What the spec does not list, or what
 * is no status at all, is a problem to tell the caller (400), never an answer made up.
 */
import type { Refusal, Route, StandInTable } from "./table.js";

/** What a `Prefer` header asks for. */
export interface Preference {
  code?: number;
  error?: string;
  retryAfter?: string;
  /** `stream-error` (`""`) or `stream-error=<code>`: a stream that sends its error item. */
  streamError?: string;
}

/** A preference the stand-in cannot follow, in words for the caller. */
export interface PreferenceProblem {
  problem: string;
}

/** Longest part of a header value a problem repeats. */
const maxQuoted = 40;

/** `value` as a problem repeats it: cut short, so a long header makes no long answer. */
const quoted = (value: string) =>
  value.length <= maxQuoted ? value : `${value.slice(0, maxQuoted - 3)}...`;

/** An error's code or tag as the spec writes them: letters, digits, `_`, `.`, `:` and `-`. */
const errorName = /^[\w.:-]{1,100}$/;

/**
 * The preferences of a header: `undefined` when it states none the stand-in knows, a
 * problem when it asks for something that is no status or no error name.
 */
export function preferenceOf(header: string | null): Preference | PreferenceProblem | undefined {
  if (!header) return undefined;
  const pref: Preference = {};
  for (const part of header.split(/[,;]/)) {
    const [rawKey, ...rest] = part.split("=");
    const key = rawKey?.trim().toLowerCase();
    const value = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (key === "stream-error") {
      if (value && !errorName.test(value))
        return { problem: `Prefer: stream-error=${quoted(value)} is not an error code` };
      pref.streamError = value;
      continue;
    }
    if (!value) continue;
    if (key === "code") {
      const status = /^\d{3}$/.test(value) ? Number(value) : NaN;
      if (!(status >= 100 && status <= 599))
        return { problem: `Prefer: code=${quoted(value)} is not an HTTP status from 100 to 599` };
      pref.code = status;
    } else if (key === "error") {
      if (!errorName.test(value))
        return { problem: `Prefer: error=${quoted(value)} is not an error code or tag` };
      pref.error = value;
    } else if (key === "retry-after" && /^\d{1,10}$/.test(value)) pref.retryAfter = value;
  }
  const asks = pref.code !== undefined || pref.error !== undefined;
  return asks || pref.streamError !== undefined ? pref : undefined;
}

/** The `Preference-Applied` value of what was followed, rebuilt from the parts understood. */
export function appliedPreference(pref: Preference): string {
  const parts: string[] = [];
  if (pref.code !== undefined) parts.push(`code=${pref.code}`);
  if (pref.error !== undefined) parts.push(`error=${pref.error}`);
  if (pref.retryAfter !== undefined) parts.push(`retry-after=${pref.retryAfter}`);
  if (pref.streamError !== undefined)
    parts.push(pref.streamError ? `stream-error=${pref.streamError}` : "stream-error");
  return parts.join(", ");
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/**
 * The refusal a preference asks for on a route: a listed error of that code or tag (with the
 * status asked for, if it is one of 400 and above), else a listed refusal of that status;
 * 429 is always the spec's rate limit. A status below 400 asks for nothing (`undefined`); an
 * error or status the spec does not list for the endpoint is a problem naming what it does
 * list.
 */
export function preferredRefusal(
  table: StandInTable,
  route: Route,
  pref: Preference,
): Refusal | PreferenceProblem | undefined {
  const listed = route.errors;
  const endpoint = `${route.method} ${route.path}`;
  if (pref.error !== undefined) {
    const found = listed.find((r) => String(r.code) === pref.error || r.tag === pref.error);
    if (found)
      return pref.code !== undefined && pref.code >= 400 ? { ...found, status: pref.code } : found;
    const names = unique(listed.map((r) => r.code ?? r.tag).filter((n) => n !== undefined));
    const known = names.length > 0 ? `it can ask for ${names.join(", ")}` : "it lists no error";
    return {
      problem: `Prefer: error=${pref.error} asks for an error the spec does not list for ${endpoint}; ${known}`,
    };
  }
  const status = pref.code!;
  if (status < 400) return undefined;
  if (status === 429) return listed.find((r) => r.status === 429) ?? table.rateLimited;
  const found =
    listed.find((r) => r.status === status && r.code !== undefined) ??
    listed.find((r) => r.status === status);
  if (found) return found;
  const statuses = unique([...listed.map((r) => r.status), 429]).sort((a, b) => a - b);
  return {
    problem: `Prefer: code=${status} asks for an answer the spec does not list for ${endpoint}; it can ask for ${statuses.join(", ")}`,
  };
}
