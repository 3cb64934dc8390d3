/**
 * What the inbound importers share: the methods an inbound entry may use, the credentials an
 * inbound operation names, and the type of a body.
 */
import {
  credentialId,
  deref,
  isCredential,
  isObject,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { typeOf } from "./schemas.ts";

export const methods = ["get", "put", "post", "delete", "patch"] as const;

/** Whether an inbound entry may use `method`. */
export const inboundMethod = (method: string): boolean =>
  (methods as readonly string[]).includes(method);

/** One delivery of a `webhooks` entry: its label, its operation and where it is. */
export type Delivery = [string, JsonObject, Pointer];

/** The credentials an inbound operation names: its security, then its signature headers. */
export function inboundAuth(ctx: ImportContext, op: JsonObject, at: Pointer): string[] {
  const auth: string[] = [];
  const first = Array.isArray(op.security) ? op.security[0] : undefined;
  // a scheme the client cannot send, or none defines, is no credential (sections.ts): a
  // mutualTLS certificate is the server's to check
  if (isObject(first))
    for (const scheme of Object.keys(first))
      if (isCredential(ctx, scheme)) auth.push(credentialId(ctx, scheme));
  (Array.isArray(op.parameters) ? op.parameters : []).forEach((raw, i) => {
    const { value } = deref(ctx, raw, under(at, "parameters", i));
    if (isObject(value) && typeof value["x-apigen-signature"] === "string")
      auth.push(value["x-apigen-signature"]);
  });
  return auth;
}

/** The type of a media type's schema in a request body or response, if there is one. */
export function bodyType(ctx: ImportContext, holder: JsonValue | undefined, at: Pointer) {
  const { value, at: bodyAt } = deref(ctx, holder ?? null, at);
  if (!isObject(value) || !isObject(value.content)) return undefined;
  const [type, media] = Object.entries(value.content)[0] ?? [];
  if (type === undefined || !isObject(media) || media.schema === undefined) return undefined;
  return typeOf(ctx, media.schema, under(bodyAt, "content", type, "schema"));
}
