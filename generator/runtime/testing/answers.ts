/**
 * The stand-in's answers: error bodies built from the spec's error body of the area (v1's
 * list of errors, v3's `.tag`, ...), and `Prefer` requests for a given status or error.
 */
import type { Area, ErrorTemplate, Refusal, StandInTable } from "./table.js";

/** The header that says what the stand-in made up or left out, and why. */
export const noteHeader = "X-Apigen-Stand-In";

interface Parts {
  code: string | number | undefined;
  tag: string | undefined;
  messages: string[];
}

/** The value of a template for a refusal's parts; `undefined` for a slot the refusal leaves empty. */
function fill(template: ErrorTemplate, parts: Parts): unknown {
  if ("slot" in template) {
    if (template.slot === "message") return parts.messages.join("; ");
    return template.slot === "code" ? parts.code : parts.tag;
  }
  if ("fixed" in template) return template.fixed;
  if ("list" in template) {
    const item = template.list;
    return parts.messages.map((m) => fill(item, { ...parts, messages: [m] }));
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of template.fields) {
    const value = fill(field, parts);
    // A field may be named `__proto__`: an own entry, not the prototype.
    if (value !== undefined)
      Object.defineProperty(out, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

/**
 * The error response of a refusal in an area: `messages` (one per problem, e.g. one per
 * validation issue) replace the refusal's own words when given.
 */
export function refuse(
  table: StandInTable,
  area: Pick<Area, "errorBody">,
  refusal: Refusal,
  messages: string[] = [refusal.message],
  headers: Record<string, string> = {},
): Response {
  const template = table.errorBodies[area.errorBody] ?? table.errorBodies["default"];
  const parts: Parts = {
    code: refusal.code,
    tag: refusal.tag ?? table.reasonTags[refusal.status] ?? "error",
    messages,
  };
  return json(refusal.status, template ? fill(template, parts) : { message: messages }, headers);
}

/** The area a path belongs to: the longest matching prefix, else the fallback. */
export function areaOf(table: StandInTable, path: string): Area {
  let best = table.fallback;
  for (const area of table.areas)
    if (path.startsWith(area.prefix) && area.prefix.length > best.prefix.length) best = area;
  return best;
}

/** What a `Prefer` header asks for: `code=429`, `error=1005`, `retry-after=2` (RFC 7240 style). */
export interface Preference {
  code?: number;
  error?: string;
  retryAfter?: string;
}

/** The preferences of a request, or `undefined` when it states none the stand-in knows. */
export function preferenceOf(header: string | null): Preference | undefined {
  if (!header) return undefined;
  const pref: Preference = {};
  for (const part of header.split(/[,;]/)) {
    const [rawKey, ...rest] = part.split("=");
    const key = rawKey?.trim().toLowerCase();
    const value = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (!value) continue;
    if (key === "code" && /^\d{3}$/.test(value)) pref.code = Number(value);
    else if (key === "error") pref.error = value;
    else if (key === "retry-after" && /^\d+$/.test(value)) pref.retryAfter = value;
  }
  return pref.code !== undefined || pref.error !== undefined ? pref : undefined;
}

/**
 * The refusal a preference asks for on a route: a listed error of that code or tag, else of
 * that status, else the status with words saying the spec lists no such answer.
 */
export function preferredRefusal(
  table: StandInTable,
  listed: readonly Refusal[],
  pref: Preference,
  invalidInput: number,
): Refusal | undefined {
  if (pref.error !== undefined) {
    const found = listed.find((r) => String(r.code) === pref.error || r.tag === pref.error);
    if (found) return pref.code !== undefined ? { ...found, status: pref.code } : found;
    const code = /^\d+$/.test(pref.error) ? Number(pref.error) : pref.error;
    return {
      status: pref.code ?? invalidInput,
      ...(typeof code === "number" ? { code } : { tag: code }),
      message: `error ${pref.error}, asked for with Prefer`,
    };
  }
  const status = pref.code!;
  if (status < 400) return undefined;
  if (status === 429) return listed.find((r) => r.status === 429) ?? table.rateLimited;
  return (
    listed.find((r) => r.status === status && r.code !== undefined) ??
    listed.find((r) => r.status === status) ?? {
      status,
      message: `status ${status}, asked for with Prefer (the spec lists no such answer here)`,
    }
  );
}
