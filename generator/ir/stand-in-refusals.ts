/**
 * The stand-in's refusals, decided once from the model: which status and code a missing or
 * rejected credential gets on each endpoint, how each area's error body is built, and the
 * tag a `.tag`-style body carries. docs/testing.md states the rules in words.
 */
import { hashText, sample, seeded } from "../runtime/testing/sample.ts";
import type { CredentialCheck, ErrorTemplate, Refusal } from "../runtime/testing/table.ts";
import { firstEntry } from "./field-path.ts";
import { shapeOf, shapeTableOf } from "./stand-in-shapes.ts";
import type {
  ApiModel,
  Credential,
  Endpoint,
  ErrorCode,
  ErrorResponse,
  Field,
  NamedType,
  TypeNode,
} from "./model.ts";

/** Tags by status for refusals whose status the spec gives no tag for: the reason phrase in snake case. */
export const reasonTags: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  422: "unprocessable_entity",
  429: "too_many_requests",
  500: "internal_server_error",
};

/** The tag of a status when the spec gives none: its reason phrase in snake case. */
export const reasonTag = (status: number): string => reasonTags[status] ?? `status_${status}`;

const codeNames = new Set(["code", "error_code", "errorCode"]);
const statusNames = new Set(["status", "statusCode", "status_code", "httpStatus", "http_status"]);
const messageNames = new Set(["message", "msg", "detail", "error_description", "description"]);
const tagNames = new Set([".tag", "tag"]);

/**
 * How an error body of `type` is built: constant fields kept, the code, tag, message and
 * status fields found by name, lists of error objects repeated per message, and every other
 * field the body requires given a made-up value of its type (Shopify's `errors`, Twilio's
 * `more_info`), so that the body passes the package's own validation. `undefined` when the
 * type has no field either way.
 */
export function errorTemplateOf(
  type: TypeNode,
  types: ReadonlyMap<string, NamedType>,
  placed: PlacedFields = {},
  depth = 0,
  at: readonly string[] = [],
): ErrorTemplate | undefined {
  if (depth > 8) return undefined;
  if (type.kind === "ref") {
    const target = types.get(type.name);
    return target && errorTemplateOf(target.type, types, placed, depth + 1, at);
  }
  if (type.kind === "literal") return { fixed: type.value };
  if (type.kind === "array") {
    // the entries of a list are placed by name, not by the body's paths, unless the spec
    // places the code or message in its first entry (`errors[0].reason`): then by that path
    const entry = [...at, firstEntry];
    const slot = placedSlot(placed, entry);
    if (slot) return { list: { slot } };
    const byPath = placedWithin(placed, entry);
    const item = errorTemplateOf(type.items, types, byPath ? placed : {}, depth + 1, entry);
    return item && hasSlot(item) ? { list: item } : undefined;
  }
  if (type.kind !== "object") return undefined;
  const fields: [string, ErrorTemplate][] = [];
  for (const field of type.fields) {
    const path = [...at, field.name];
    // an optional field of a named object type is a resource the error may point at (Stripe's
    // `error.payment_intent`), not the error: left out, unless the spec places a part in it
    if (!field.required && field.type.kind === "ref" && !placedWithin(placed, path)) {
      if (resolved(field.type, types).kind === "object") continue;
    }
    const slot = placedSlot(placed, path) ?? slotOf(field.name, resolved(field.type, types));
    // a list of messages where the spec places the message (Jira's `errorMessages`): one each
    const listed = slot === "message" && resolved(field.type, types).kind === "array";
    const template: ErrorTemplate | undefined = listed
      ? { list: { slot: "message" } }
      : slot
        ? { slot, ...(field.required ? fallbackOf(slot, field, types) : {}) }
        : (errorTemplateOf(field.type, types, placed, depth + 1, path) ??
          (field.required ? { fixed: madeUp(field.type, types, field.name) } : undefined));
    if (template) fields.push([field.name, template]);
  }
  // Constant parts (`result: { success: false }`) are kept. A body no part of a refusal fills
  // (Slack's `{ ok: false, error }`) is still answered in its type, its required fields made up.
  return fields.length > 0 ? { fields } : undefined;
}

/**
 * What a required slot's field holds when a refusal has no value for it: for a code field of
 * any integer, the refusal's HTTP status, and of any text, its reason tag, so that a stand-in's
 * own refusal (a bad parameter, a missing key) never carries a catalogue code of another
 * meaning (Zoom's example code 3001, "meeting not found", on a bad page size); else a value
 * made up in the field's type.
 */
function fallbackOf(
  slot: "code" | "tag" | "message" | "status",
  field: Field,
  types: ReadonlyMap<string, NamedType>,
): { otherwise: unknown } | { fromStatus: "status" | "tag" } {
  const type = resolved(field.type, types);
  const plain = type.kind === "primitive" && Object.keys(type.constraints).length === 0;
  if (slot === "code" && plain && (type.name === "integer" || type.name === "number"))
    return { fromStatus: "status" };
  if (slot === "code" && plain && type.name === "string") return { fromStatus: "tag" };
  return { otherwise: madeUp(field.type, types, field.name) };
}

/** Where the spec places the code and message of the error body (`errors.codeField`, `messageField`). */
export interface PlacedFields {
  code?: readonly string[] | undefined;
  message?: readonly string[] | undefined;
}

/** The slot of the field at `path` of the body when the spec places the code or message there. */
function placedSlot(placed: PlacedFields, path: readonly string[]): "code" | "message" | undefined {
  const same = (p: readonly string[] | undefined) =>
    p !== undefined && p.length === path.length && p.every((k, i) => k === path[i]);
  return same(placed.code) ? "code" : same(placed.message) ? "message" : undefined;
}

/** Whether the spec places the code or message inside the field at `path`. */
function placedWithin(placed: PlacedFields, path: readonly string[]): boolean {
  const under = (p: readonly string[] | undefined) =>
    p !== undefined && p.length > path.length && path.every((k, i) => p[i] === k);
  return under(placed.code) || under(placed.message);
}

/** A type with its alias refs followed (a field typed by a named string or integer). */
function resolved(type: TypeNode, types: ReadonlyMap<string, NamedType>): TypeNode {
  for (let depth = 0; type.kind === "ref" && depth < 8; depth++) {
    const target = types.get(type.name);
    if (!target) break;
    type = target.type;
  }
  return type;
}

/** A value of `type` as the stand-in makes one up, the same at every generation. */
function madeUp(type: TypeNode, types: ReadonlyMap<string, NamedType>, name: string): unknown {
  const table = shapeTableOf([...types.values()], [type]);
  return sample(shapeOf(type, types), table, seeded(hashText(name)));
}

function slotOf(name: string, type: TypeNode): "code" | "tag" | "message" | "status" | undefined {
  if (codeNames.has(name)) return "code";
  if (tagNames.has(name)) return "tag";
  if (messageNames.has(name) && (type.kind === "primitive" || type.kind === "unknown"))
    return "message";
  if (
    statusNames.has(name) &&
    type.kind === "primitive" &&
    ["integer", "number"].includes(type.name)
  )
    return "status";
  return undefined;
}

/** Whether a template takes any part of a refusal (a body of constants alone says nothing). */
export function hasSlot(template: ErrorTemplate): boolean {
  if ("slot" in template) return true;
  if ("list" in template) return hasSlot(template.list);
  if ("fields" in template) return template.fields.some(([, t]) => hasSlot(t));
  return false;
}

/** The generic body where the spec names no error body: `{ code, message }`. */
export const genericErrorTemplate: ErrorTemplate = {
  fields: [
    ["code", { slot: "code" }],
    ["message", { slot: "message" }],
  ],
};

/** The numeric status of an error response (`4xx` and `5xx` as 400 and 500). */
export function numericStatus(status: ErrorResponse["status"]): number | undefined {
  if (status === undefined) return undefined;
  return typeof status === "number" ? status : status === "4xx" ? 400 : 500;
}

/** Whether an error code's name is the credential's: `apiKeyMissing` is `apiKey`'s. */
function namesCredential(code: ErrorCode | undefined, credential: string): boolean {
  const name = code?.name;
  return (
    name !== undefined &&
    name.startsWith(credential) &&
    (name.length === credential.length || /[A-Z]/.test(name[credential.length]!))
  );
}

type Kind = "missing" | "rejected";
const suffix: Record<Kind, string> = { missing: "Missing", rejected: "Rejected" };

/** What a refused credential gets on an endpoint, under the rules of docs/testing.md. */
function refusalFor(
  endpoint: Endpoint,
  credential: Credential,
  kind: Kind,
  model: ApiModel,
): Refusal {
  const codes = new Map(model.errors.codes.map((c) => [c.code, c]));
  const codeOf = (e: ErrorResponse) => (e.code === undefined ? undefined : codes.get(e.code));
  const others = model.credentials.filter((c) => c.id !== credential.id).map((c) => c.id);
  // the area's own credential errors, 401 first (a credential missing or not accepted is a
  // failed authentication, RFC 9110 15.5.2; 403 refuses one that was accepted); else the
  // API-wide 401 (Twilio's 20003), not an API-wide 403, which is about permissions
  const own = endpoint.errors
    .filter((e) => e.scope.kind !== "all" && (e.status === 401 || e.status === 403))
    .sort((a, b) => Number(a.status) - Number(b.status));
  const area = own.length
    ? own
    : endpoint.errors.filter((e) => e.scope.kind === "all" && e.status === 401);
  const ownKind = area.find((e) => codeOf(e)?.name === credential.id + suffix[kind]);
  const general = model.errors.codes.find(
    (c) =>
      namesCredential(c, credential.id) &&
      !Object.values(suffix).some((s) => c.name === credential.id + s),
  );
  const fitting = area.filter((e) => !others.some((o) => namesCredential(codeOf(e), o)));
  const areaOfKind =
    fitting.find((e) => !namesCredential(codeOf(e), credential.id)) ??
    fitting.find((e) => codeOf(e)?.name !== credential.id + suffix[other(kind)]) ??
    fitting[0];
  const where = credential.header ?? credential.name ?? credential.id;
  const message =
    kind === "missing" ? `${where} is required` : `${where} is not a valid ${credential.id}`;
  const refusal = (status: number, code: ErrorCode["code"] | undefined): Refusal => ({
    status,
    ...(code !== undefined ? { code } : {}),
    message: code !== undefined ? `${message}: ${codes.get(code)?.meaning ?? code}` : message,
  });
  if (ownKind) return refusal(numericStatus(ownKind.status)!, ownKind.code);
  if (general) return refusal(numericStatus(areaOfKind?.status) ?? 401, general.code);
  if (areaOfKind) return refusal(numericStatus(areaOfKind.status)!, areaOfKind.code);
  return refusal(401, undefined);
}

const other = (kind: Kind): Kind => (kind === "missing" ? "rejected" : "missing");

/** The credential checks of an endpoint, in its `auth` order; signature and documented-only ones are not checked. */
export function credentialChecks(endpoint: Endpoint, model: ApiModel): CredentialCheck[] {
  return endpoint.auth.flatMap((id): CredentialCheck[] => {
    const credential = model.credentials.find((c) => c.id === id);
    if (!credential) return [];
    const place = credential.placement;
    if (place !== "header" && place !== "basic" && place !== "query") return [];
    const name =
      place === "basic" ? "Authorization" : place === "query" ? credential.name : credential.header;
    if (name === undefined) return [];
    return [
      {
        credential: id,
        in: place,
        name,
        ...(credential.scheme ? { scheme: credential.scheme } : {}),
        ...(endpoint.optionalAuth.includes(id) ? { optional: true } : {}),
        ...(endpoint.authAnyOf?.includes(id) ? { either: true } : {}),
        missing: refusalFor(endpoint, credential, "missing", model),
        rejected: refusalFor(endpoint, credential, "rejected", model),
      },
    ];
  });
}

/** The refusals the spec lists for an endpoint that have a status, for `Prefer`. */
export function listedRefusals(endpoint: Endpoint, model: ApiModel): Refusal[] {
  return endpoint.errors.flatMap((e): Refusal[] => {
    const status = numericStatus(e.status);
    if (status === undefined) return [];
    const meaning =
      e.docs.description ??
      model.errors.statuses.find((s) => s.status === e.status)?.meaning ??
      `status ${status}`;
    return [{ status, ...(e.code !== undefined ? { code: e.code } : {}), message: meaning }];
  });
}

/**
 * The tag of refusals on an endpoint whose body has a tag: a listed error of that status with
 * a tag, else (for invalid input) the endpoint's tag whose status the spec does not show,
 * else the status's reason phrase.
 */
export function withTag(refusal: Refusal, endpoint: Endpoint, invalidInput: number): Refusal {
  const listed = endpoint.errors.find((e) => e.tag && numericStatus(e.status) === refusal.status);
  const unstatused = endpoint.errors.find((e) => e.tag && e.status === undefined);
  const tag =
    listed?.tag ??
    (refusal.status === invalidInput ? unstatused?.tag : undefined) ??
    reasonTag(refusal.status);
  return { ...refusal, tag };
}
