/**
 * The stand-in's OAuth token endpoint: for a credential with a clientCredentials flow, a POST
 * to its token URL's path (where no route of the spec is, or where the spec declares the token
 * endpoint as an endpoint taking JSON: its fields then come as a JSON object) answers as RFC
 * 6749 section 4.4 has a server answer: a bearer token for a client that authenticates (HTTP
 * basic, or `client_id` and `client_secret` in the form), or the OAuth error response (section 5.2) that
 * says what is wrong. The token is the credential's first key when `keys` lists some (so the
 * calls that present it pass the stand-in's check), else one made from the seed.
 */
import { strictText } from "../http/body.js";
import type { HeaderReader, OutboundResponse } from "../http/types.js";
import { json } from "./answers.js";
import type { KeySet } from "./request.js";
import type { TokenEndpoint } from "./table.js";

/** An OAuth error response: `error` and what it means. */
function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): OutboundResponse {
  const body = { error, error_description: description };
  return json(status, body, { "Cache-Control": "no-store", ...headers });
}

/** The client id of a request, from its basic credentials or its form, or undefined. */
function clientOf(headers: HeaderReader, form: URLSearchParams): string | undefined {
  const auth = headers.get("authorization");
  const basic = auth && /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth);
  if (basic) {
    let pair: string;
    try {
      pair = atob(basic[1]!);
    } catch {
      return undefined;
    }
    const colon = pair.indexOf(":");
    return colon > 0 && colon < pair.length - 1 ? pair.slice(0, colon) : undefined;
  }
  const [id, secret] = [form.get("client_id"), form.get("client_secret")];
  return id && secret ? id : undefined;
}

/** The fields of a form body; undefined for another media type or bytes that are no text. */
function formFields(type: string, text: string | undefined): URLSearchParams | undefined {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type) || text === undefined)
    return undefined;
  return new URLSearchParams(text);
}

/** The text fields of a JSON object body, as a form's; undefined for anything else. */
function jsonFields(type: string, text: string | undefined): URLSearchParams | undefined {
  if (!/^application\/json\s*(;|$)/i.test(type) || text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const fields = Object.entries(value).filter(([, v]) => typeof v === "string");
  return new URLSearchParams(fields as [string, string][]);
}

/** The answer of the token endpoint to a request with this body. */
export function tokenAnswer(
  endpoint: TokenEndpoint,
  headers: HeaderReader,
  bytes: Uint8Array,
  keys: Readonly<Record<string, KeySet>>,
  made: string,
): OutboundResponse {
  const type = headers.get("content-type") ?? "";
  const text = strictText(bytes);
  const form = endpoint.json ? jsonFields(type, text) : formFields(type, text);
  if (form === undefined)
    return oauthError(
      400,
      "invalid_request",
      endpoint.json
        ? "the body is not a JSON object (the spec's token endpoint takes JSON)"
        : "the body is not an application/x-www-form-urlencoded form",
    );
  const grant = form.get("grant_type");
  if (grant !== "client_credentials")
    return oauthError(
      400,
      grant === null ? "invalid_request" : "unsupported_grant_type",
      grant === null ? "grant_type is missing" : "this endpoint grants client_credentials only",
    );
  if (clientOf(headers, form) === undefined)
    return oauthError(
      401,
      "invalid_client",
      "no client authentication: basic credentials, or client_id and client_secret",
      { "WWW-Authenticate": 'Basic realm="token"' },
    );
  const asked = (form.get("scope") ?? "").split(" ").filter(Boolean);
  const unknown = endpoint.scopes.length
    ? asked.filter((scope) => !endpoint.scopes.includes(scope))
    : [];
  if (unknown.length)
    return oauthError(400, "invalid_scope", `not a scope of the flow: ${unknown.join(" ")}`);
  return json(
    200,
    {
      access_token: keys[endpoint.credential]?.valid?.[0] ?? made,
      token_type: "Bearer",
      expires_in: 3600,
      ...(asked.length ? { scope: asked.join(" ") } : {}),
    },
    { "Cache-Control": "no-store" },
  );
}
