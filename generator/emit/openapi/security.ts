/**
 * Credentials in OpenAPI terms: `components.securitySchemes` (an OAuth 2.0 or OpenID Connect
 * credential is `oauth2` with its flows or `openIdConnect`; another header credential with
 * the scheme Bearer on `Authorization` is `http`/`bearer`; any other header credential is
 * an `apiKey` in that header), the `security` requirement of an operation (all of its
 * credentials in one requirement object, with the scopes each token needs: they are sent
 * together), and the header
 * parameter that carries an inbound signature. Credentials sent nowhere (`in: none`) are
 * listed in the root extension `x-credentials`, so their notes survive too.
 */
import { scopesAsked } from "../../ir/build-oauth.ts";
import { isDefaultSignatureScheme } from "../../ir/build-signing.ts";
import type { ApiModel, Credential, SignatureScheme, TokenSource } from "../../ir/model.ts";
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

/**
 * `x-apigen-username` or `x-apigen-password`: the half of a basic credential the API fixes
 * (Mailgun's user name `api`, Stripe's empty password), which OpenAPI's basic scheme cannot say.
 */
function basicFixedExtension(credential: Credential): JsonObject {
  const fixed = credential.basicFixed;
  if (!fixed) return {};
  return "username" in fixed
    ? { "x-apigen-username": fixed.username }
    : { "x-apigen-password": fixed.password };
}

function schemeOf(credential: Credential): JsonObject {
  const common = { description: describe(credential) };
  const bearer =
    credential.header?.toLowerCase() === "authorization" && credential.scheme !== undefined;
  const shape = credential.tokenSource
    ? tokenScheme(credential.tokenSource)
    : credential.placement === "basic"
      ? { type: "http", scheme: "basic", ...basicFixedExtension(credential) }
      : credential.placement === "query"
        ? { type: "apiKey", in: "query", name: credential.name! }
        : bearer
          ? { type: "http", scheme: credential.scheme!.toLowerCase() }
          : { type: "apiKey", in: "header", name: credential.header! };
  return obj({ ...shape, ...common, "x-undocumented": notesOf(credential.docs) });
}

/** What the 3.1 document names OpenAPI 3.2's device flow: 3.1's Flows Object has no such key. */
export const deviceFlowExtension = "x-apigen-device-authorization";

/** An `oauth2` scheme with its flows (their URLs as the spec wrote them), or an `openIdConnect` one. */
function tokenScheme(source: TokenSource): JsonObject {
  if (source.kind === "openIdConnect")
    return { type: "openIdConnect", openIdConnectUrl: source.url };
  const flows: JsonObject = {};
  for (const { kind, scopes, ...urls } of source.flows)
    flows[kind === "deviceAuthorization" ? deviceFlowExtension : kind] = {
      ...urls,
      scopes: Object.fromEntries(scopes.map((s) => [s.name, s.description])),
    };
  return { type: "oauth2", flows };
}

/** `components.securitySchemes`, keyed by credential id. */
export function securitySchemes(model: ApiModel): JsonObject {
  return Object.fromEntries(model.credentials.filter(isScheme).map((c) => [c.id, schemeOf(c)]));
}

/**
 * The `security` of an operation with these credential ids: one requirement object naming
 * every scheme (all are required together), or `[]` (no credential) when there is none.
 * With optional credentials the operation works without them too: `{}` (no credential, or
 * only the required ones) comes first, then the requirement with all of them. Credentials of
 * which any one will do (`anyOf`) are one requirement each, with the required ones.
 */
export function securityOf(
  model: ApiModel,
  auth: readonly string[],
  optional: readonly string[] = [],
  scopes: Readonly<Record<string, readonly string[]>> = {},
  anyOf: readonly string[] = [],
): JsonObject[] {
  const schemes = auth.filter((id) => model.credentials.some((c) => c.id === id && isScheme(c)));
  const requirement = (ids: readonly string[]) =>
    Object.fromEntries(ids.map((id) => [id, [...scopesAsked(scopes, id)]]));
  const all = schemes.length ? [requirement(schemes)] : [];
  const required = schemes.filter((id) => !optional.includes(id));
  // credentials of which any one will do: one requirement each, beside the required ones
  const either = schemes.filter((id) => anyOf.includes(id));
  if (either.length) return either.map((id) => requirement([...required, id]));
  if (required.length === schemes.length) return all;
  return [requirement(required), ...all];
}

/** The signature credentials among `auth`. */
export function signatureCredentials(model: ApiModel, auth: readonly string[]): Credential[] {
  return model.credentials.filter((c) => auth.includes(c.id) && roleOf(c) === "signature");
}

/** Key of the header parameter component of a signature credential. */
export function signatureParameterKey(credential: Credential): string {
  return componentKey(credential.header!);
}

/** The scheme of a signature credential that names one other than the default, else nothing. */
function declaredScheme(credential: Credential): SignatureScheme | undefined {
  const scheme = credential.signing;
  return scheme && !isDefaultSignatureScheme(scheme) ? scheme : undefined;
}

/** Opening words of the paragraph that says how a signature is written (`--import` drops it). */
export const schemeParagraphStart = "Signature scheme `";

type HmacScheme = Extract<SignatureScheme, { name: "hmac-sha256-base64" | "hmac-sha256-hex" }>;

/** A `signs` template as a reader sees it: `v0:<X-Slack-Request-Timestamp>:<raw body>`. */
function signedText(scheme: HmacScheme): string {
  return (scheme.signs ?? "{body}")
    .replaceAll("{body}", "<raw body>")
    .replaceAll("{timestamp}", `<${scheme.timestamp ?? "timestamp"}>`)
    .replaceAll("{id}", `<${scheme.id ?? "id"}>`);
}

/** Which headers the signed content takes its values from, in words. */
function signedWords(scheme: HmacScheme): string {
  const headers = [scheme.timestamp, scheme.id].filter((h) => h !== undefined);
  if (headers.length === 0) return "the template's text and the raw body";
  const named = headers.map((h) => `<${h}>`).join(" and ");
  return headers.length === 1
    ? `${named} is the value of the ${headers[0]} header, which comes with it`
    : `${named} are the values of the ${headers.join(" and ")} headers, which come with it`;
}

/** What a header under `scheme` holds and what its signature covers, for readers of the document. */
function schemeText(scheme: SignatureScheme | undefined): string | undefined {
  if (!scheme) return undefined;
  const lead = `${schemeParagraphStart}${scheme.name}\`: `;
  switch (scheme.name) {
    case "hmac-sha256-base64":
    case "hmac-sha256-hex": {
      const encoding = scheme.name === "hmac-sha256-hex" ? "lower-case hex" : "base64";
      const after = scheme.prefix !== undefined ? `, after \`${scheme.prefix}\`` : "";
      const covered =
        scheme.signs === undefined
          ? "the raw body"
          : `\`${signedText(scheme)}\` (${signedWords(scheme)})`;
      return `${lead}the ${encoding} HMAC-SHA256 of ${covered}${after}.`;
    }
    case "timestamped":
      return `${lead}\`${scheme.timestamp}=<unix seconds>,v1=<hex>\`, each v1 the HMAC-SHA256 of \`<${scheme.timestamp}>.<raw body>\` (several while a secret rolls).`;
    case "standard-webhooks":
      return `${lead}space-separated \`v1,<base64>\` signatures, each the HMAC-SHA256 of \`<${scheme.id}>.<${scheme.timestamp}>.<raw body>\` keyed with the bytes of the \`whsec_<base64>\` secret; the ${scheme.id} and ${scheme.timestamp} headers come with it.`;
    case "token":
      return `${lead}the shared secret itself, compared as it is (nothing is signed: it shows who sent the call, not that the body is the one sent).`;
    default: {
      const unhandled: never = scheme;
      throw new Error(`unhandled signature scheme ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The required header parameter that carries a signature credential on inbound calls. */
export function signatureParameter(credential: Credential): JsonObject {
  const scheme = declaredScheme(credential);
  return obj({
    name: credential.header!,
    in: "header",
    required: true,
    description: text(
      describe(credential),
      schemeText(scheme),
      "The receiver verifies this header with the signing secret before trusting the body.",
    ),
    schema: { type: "string" },
    "x-undocumented": notesOf(credential.docs),
    // OpenAPI has no scheme for a signature: this names the credential, for --import.
    "x-apigen-signature": credential.id,
    // how the signature is written and what it covers; absent: the default scheme
    "x-apigen-signature-scheme": scheme && {
      name: scheme.name,
      ...(scheme.name.startsWith("hmac-") && "prefix" in scheme && scheme.prefix !== undefined
        ? { prefix: scheme.prefix }
        : {}),
      ...("signs" in scheme && scheme.signs !== undefined ? { signs: scheme.signs } : {}),
    },
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
