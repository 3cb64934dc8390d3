/**
 * The delivery headers of webhooks in a document that is not apigen's (`webhooks.headers`):
 * the header parameters its webhook entries declare. GitHub's declare seven on every delivery
 * (`X-GitHub-Delivery`, `X-GitHub-Hook-ID`, ...), which the router then reads, validates and
 * hands to the handler typed. A header is carried when every delivery declares it alike (its
 * type and whether it is required); one that only some declare, or declare differently, one
 * of a type a header's text cannot be read as, and one named no header can be are noted.
 */
import { headerToken } from "../ir/http-headers.ts";
import {
  deref,
  isObject,
  isScalarTypeName,
  note,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";
import type { Delivery } from "./inbound-common.ts";
import { asMapping, carryNotes, typeOf } from "./schemas.ts";

/** One delivery's declaration of a header: its entry in `webhooks.headers` and where it is. */
interface Declared {
  name: string;
  at: Pointer;
  /** Its entry in `webhooks.headers` ... */
  entry: JsonObject;
  /** ... or why it cannot have one. */
  problem?: string;
  /** What must agree between deliveries: the type and `required`, not the prose. */
  shape: string;
}

/** Whether an imported type is one a header's text can be read as: a scalar or a string enum. */
function readable(type: JsonObject): boolean {
  if (isScalarTypeName(type.type)) return true;
  return (
    type.type === undefined &&
    Array.isArray(type.enum) &&
    type.enum.every((value) => typeof value === "string")
  );
}

/** The header parameters of one delivery, by lower-case name, less `skip` (the event's header). */
function declaredHeaders(
  ctx: ImportContext,
  [, op, at]: Delivery,
  skip: string | undefined,
): Map<string, Declared> {
  const found = new Map<string, Declared>();
  (Array.isArray(op.parameters) ? op.parameters : []).forEach((raw, i) => {
    const { value, at: paramAt } = deref(ctx, raw, under(at, "parameters", i));
    if (!isObject(value) || value.in !== "header" || typeof value.name !== "string") return;
    // a signature header is the credential's (inboundAuth), the event's header the selector's
    if (typeof value["x-apigen-signature"] === "string") return;
    const key = value.name.toLowerCase();
    if (key === skip?.toLowerCase() || found.has(key)) return;
    const { name } = value;
    const refused = (problem: string) =>
      found.set(key, { name, at: paramAt, entry: {}, problem, shape: problem });
    if (!headerToken.test(name))
      return void refused(`delivery header ${JSON.stringify(name)} is no header name`);
    const schema = isObject(value.schema) ? value.schema : { type: "string" };
    const type = asMapping(typeOf(ctx, schema, under(paramAt, "schema")));
    if (!readable(type))
      return void refused(`delivery header ${name} of a type a header cannot carry`);
    const required = value.required === true;
    const entry: JsonObject = { ...type, ...(required ? { required: true } : {}) };
    const description = stringOf(value, "description")?.trim();
    if (description) entry.description = description;
    carryNotes(value, entry);
    found.set(key, { name, at: paramAt, entry, shape: JSON.stringify([type, required]) });
  });
  return found;
}

/**
 * `webhooks.headers` from the deliveries' header parameters: those every delivery declares
 * alike, as the first declares them (a header of only the type is written as its type name);
 * the others noted on `out` once each, at their first declaration.
 */
export function foreignDeliveryHeaders(
  ctx: ImportContext,
  deliveries: readonly Delivery[],
  eventHeader: string | undefined,
  out: JsonObject,
): JsonObject {
  const each = deliveries.map((delivery) => declaredHeaders(ctx, delivery, eventHeader));
  const headers: JsonObject = {};
  const seen = new Set<string>();
  for (const found of each)
    for (const [key, first] of found) {
      if (seen.has(key)) continue;
      seen.add(key);
      const { entry, problem } = first;
      if (problem !== undefined) note(ctx, out, first.at, problem);
      else if (each.every((other) => other.get(key)?.shape === first.shape)) {
        const keys = Object.keys(entry);
        headers[first.name] = keys.length === 1 && keys[0] === "type" ? entry.type! : entry;
      } else
        note(
          ctx,
          out,
          first.at,
          `delivery header ${first.name}: not declared alike by every delivery, so not read as one of all`,
        );
    }
  return headers;
}
