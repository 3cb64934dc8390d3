/**
 * The stand-in's refusals: error bodies built from the spec's error body of the area (v1's
 * list of errors, v3's `.tag`, ...), as answers the adapters of ../http/ write out.
 */
import type { OutboundResponse } from "../http/types.js";
import type { Area, ErrorTemplate, Refusal, StandInTable } from "./table.js";

/** The header that says what the stand-in made up or left out, and why. */
export const noteHeader = "X-Apigen-Stand-In";

interface Parts {
  code: string | number | undefined;
  tag: string | undefined;
  messages: string[];
  status: number | undefined;
}

/** The part of a refusal a slot takes. */
function slotValue(slot: "code" | "tag" | "message" | "status", parts: Parts): unknown {
  if (slot === "message") return parts.messages.join("; ");
  return slot === "code" ? parts.code : slot === "tag" ? parts.tag : parts.status;
}

/** The value of a template for a refusal's parts; `undefined` for a slot the refusal leaves empty. */
function fill(template: ErrorTemplate, parts: Parts): unknown {
  if ("slot" in template)
    return (
      slotValue(template.slot, parts) ??
      (template.fromStatus ? slotValue(template.fromStatus, parts) : template.otherwise)
    );
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

/** The error body of a template with `code` (when given) and `message` in their slots. */
export function errorBodyOf(
  template: ErrorTemplate,
  code: string | number | undefined,
  message: string,
): unknown {
  return fill(template, { code, tag: undefined, messages: [message], status: undefined });
}

/** A JSON answer. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): OutboundResponse {
  return {
    status,
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
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
): OutboundResponse {
  const template = table.errorBodies[area.errorBody] ?? table.errorBodies["default"];
  const parts: Parts = {
    code: refusal.code,
    tag: refusal.tag ?? table.reasonTags[refusal.status] ?? "error",
    messages,
    status: refusal.status,
  };
  return json(refusal.status, template ? fill(template, parts) : { message: messages }, headers);
}

/**
 * When every resource the stand-in serves was last modified: it keeps no clock, so a
 * conditional GET's `Last-Modified` is this, and `If-Modified-Since` from it on answers 304.
 */
const lastModified = "Mon, 01 Jan 2024 00:00:00 GMT";

/**
 * A conditional GET's answer (`response.notModified`): the success given an `ETag` (a hash of
 * its body, so it changes when the body does) and `Last-Modified`, or a 304 with them, no
 * body, when the request's `If-None-Match` names that ETag (or `*`), or, without
 * `If-None-Match`, its `If-Modified-Since` is no earlier than `Last-Modified` (RFC 9110 13.2.2).
 */
export function conditionally(
  answer: OutboundResponse,
  ifNoneMatch: string | null | undefined,
  ifModifiedSince: string | null | undefined,
  hash: (text: string) => number,
): OutboundResponse {
  if (answer.status < 200 || answer.status > 299) return answer;
  const etag = `"${hash(answer.body).toString(16)}"`;
  const validators = { ETag: etag, "Last-Modified": lastModified };
  const headers = { ...answer.headers, ...validators };
  const tags = ifNoneMatch?.split(",").map((t) => t.trim().replace(/^W\//, ""));
  const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
  const unchanged = tags
    ? tags.includes(etag) || tags.includes("*")
    : since >= Date.parse(lastModified);
  return unchanged ? { status: 304, headers: validators, body: "" } : { ...answer, headers };
}

/** The area a path belongs to: the longest matching prefix, else the fallback. */
export function areaOf(table: StandInTable, path: string): Area {
  let best = table.fallback;
  for (const area of table.areas)
    if (path.startsWith(area.prefix) && area.prefix.length > best.prefix.length) best = area;
  return best;
}
