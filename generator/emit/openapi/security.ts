/**
 * Credentials in OpenAPI terms: `components.securitySchemes` (a header credential with
 * the scheme Bearer on `Authorization` is `http`/`bearer`; any other header credential is
 * an `apiKey` in that header), the `security` requirement of an operation (all of its
 * credentials in one requirement object: they are sent together), and the header
 * parameter that carries an inbound signature. Credentials sent nowhere (`in: none`) are
 * listed in the root extension `x-credentials`, so their notes survive too.
 */
import type { ApiModel, Credential } from "../../ir/model.ts";
import { componentKey, notesOf, obj, rulesText, text, type JsonObject } from "./json.ts";

/** What a credential becomes in the document. */
function roleOf(credential: Credential): "scheme" | "signature" | "other" {
  const placement = credential.placement;
  switch (placement) {
    case "header":
      return credential.header !== undefined ? "scheme" : "other";
    case "basic":
      return "scheme";
    case "query":
      return credential.name !== undefined ? "scheme" : "other";
    case "signature":
      return credential.header !== undefined ? "signature" : "other";
    case "none":
      return "other";
    default: {
      const unhandled: never = placement;
      throw new Error(`unhandled credential placement ${JSON.stringify(unhandled)}`);
    }
  }
}

const isScheme = (credential: Credential) => roleOf(credential) === "scheme";

function describe(credential: Credential): string | undefined {
  return text(
    credential.docs.description,
    credential.usedBy ? `Used by: ${credential.usedBy}.` : undefined,
    rulesText(credential.rules),
  );
}

function schemeOf(credential: Credential): JsonObject {
  const common = { description: describe(credential) };
  const bearer =
    credential.header?.toLowerCase() === "authorization" && credential.scheme !== undefined;
  const shape =
    credential.placement === "basic"
      ? { type: "http", scheme: "basic" }
      : credential.placement === "query"
        ? { type: "apiKey", in: "query", name: credential.name! }
        : bearer
          ? { type: "http", scheme: credential.scheme!.toLowerCase() }
          : { type: "apiKey", in: "header", name: credential.header! };
  return obj({ ...shape, ...common, "x-undocumented": notesOf(credential.docs) });
}

/** `components.securitySchemes`, keyed by credential id. */
export function securitySchemes(model: ApiModel): JsonObject {
  return Object.fromEntries(model.credentials.filter(isScheme).map((c) => [c.id, schemeOf(c)]));
}

/**
 * The `security` of an operation with these credential ids: one requirement object naming
 * every scheme (all are required together), or `[]` (no credential) when there is none.
 * With optional credentials the operation works without them too: `{}` (no credential, or
 * only the required ones) comes first, then the requirement with all of them.
 */
export function securityOf(
  model: ApiModel,
  auth: readonly string[],
  optional: readonly string[] = [],
): JsonObject[] {
  const schemes = auth.filter((id) => model.credentials.some((c) => c.id === id && isScheme(c)));
  const all = schemes.length ? [Object.fromEntries(schemes.map((id) => [id, []]))] : [];
  const required = schemes.filter((id) => !optional.includes(id));
  if (required.length === schemes.length) return all;
  return [Object.fromEntries(required.map((id) => [id, []])), ...all];
}

/** The signature credentials among `auth`. */
export function signatureCredentials(model: ApiModel, auth: readonly string[]): Credential[] {
  return model.credentials.filter((c) => auth.includes(c.id) && roleOf(c) === "signature");
}

/** Key of the header parameter component of a signature credential. */
export function signatureParameterKey(credential: Credential): string {
  return componentKey(credential.header!);
}

/** The required header parameter that carries a signature credential on inbound calls. */
export function signatureParameter(credential: Credential): JsonObject {
  return obj({
    name: credential.header!,
    in: "header",
    required: true,
    description: text(
      describe(credential),
      "The receiver verifies this header with the signing secret before trusting the body.",
    ),
    schema: { type: "string" },
    "x-undocumented": notesOf(credential.docs),
    // OpenAPI has no scheme for a signature: this names the credential, for --import.
    "x-apigen-signature": credential.id,
    // where signed calls carry their signing time and delivery id (replay protection)
    "x-apigen-timestamp": credential.timestamp && { ...credential.timestamp },
    "x-apigen-delivery-id": credential.deliveryId && { ...credential.deliveryId },
  });
}

/** The root `x-credentials`: credentials that are neither a scheme nor a signature header. */
export function otherCredentials(model: ApiModel): JsonObject[] | undefined {
  const others = model.credentials.filter((c) => roleOf(c) === "other");
  if (!others.length) return undefined;
  return others.map((c) =>
    obj({ id: c.id, in: c.placement, description: describe(c), "x-undocumented": notesOf(c.docs) }),
  );
}
