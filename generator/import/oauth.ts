/**
 * OAuth 2.0 and OpenID Connect security schemes as the spec format's token credentials
 * (`in: oauth2` with `flows`, `in: openIdConnect` with `url`), and the scopes an operation's
 * requirement asks of them. What the spec format would refuse is left out with a note, never
 * written: a flow without the URL it needs or with one that is no URL, a scope that is no
 * scope token (RFC 6749 section 3.3), a scope an operation asks that no flow grants. A scheme
 * with no flow left is a plain bearer credential, noted, as every such scheme was before.
 */
import { deviceFlowExtension } from "../emit/openapi/security.ts";
import { isOAuthUrl } from "../ir/build-oauth.ts";
import { oauthFlowKinds, type OAuthFlowKind } from "../ir/model.ts";
import {
  componentsOf,
  credentialId,
  isObject,
  note,
  securityScheme,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";

/** A place in the document and what is said there. */
export interface PlacedNote {
  at: Pointer;
  text: string;
}

/** What a token scheme becomes: the credential's keys, the notes on it, and the scopes its flows grant. */
export interface TokenScheme {
  /** `in`, and `flows` or `url`; none when no flow or provider is usable (the notes say why). */
  credential?: JsonObject;
  notes: PlacedNote[];
  /** Scopes some flow grants; undefined for OpenID Connect, whose provider may grant any. */
  granted?: ReadonlySet<string>;
}

/** The URLs each flow must have (OpenAPI's OAuth Flow Object; `deviceAuthorization` is 3.2's). */
const requiredUrls: Record<OAuthFlowKind, readonly string[]> = {
  clientCredentials: ["tokenUrl"],
  authorizationCode: ["authorizationUrl", "tokenUrl"],
  implicit: ["authorizationUrl"],
  password: ["tokenUrl"],
  deviceAuthorization: ["deviceAuthorizationUrl", "tokenUrl"],
};

const urlKeys = ["authorizationUrl", "tokenUrl", "refreshUrl", "deviceAuthorizationUrl"];

/** A scope as a token's `scope` parameter can carry it. */
export const isScopeToken = (scope: string): boolean => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope);

/**
 * A URL as the spec format takes it: absolute, a path under the base URL, or a template the
 * caller fills in (`{nrfApiRoot}/oauth2/token`). A relative reference without its leading
 * slash (`oauth/token`) gets one, as a path key does.
 */
function urlOf(value: string): string | undefined {
  const url = /^([a-z][a-z0-9+.-]*:|\/|\{)/i.test(value) ? value : `/${value}`;
  return isOAuthUrl(url) ? url : undefined;
}

function flowOf(
  kind: OAuthFlowKind,
  raw: JsonObject,
  at: Pointer,
  notes: PlacedNote[],
): JsonObject | undefined {
  const flow: JsonObject = {};
  for (const key of urlKeys) {
    const value = stringOf(raw, key);
    if (value === undefined) continue;
    const url = urlOf(value);
    if (url === undefined)
      notes.push({
        at: under(at, key),
        text: `${key} ${JSON.stringify(value)} is no URL; left out`,
      });
    else flow[key] = url;
  }
  const missing = requiredUrls[kind].filter((key) => flow[key] === undefined);
  if (missing.length) {
    notes.push({
      at,
      text: `OAuth flow ${kind} without ${missing.join(" and ")}; left out`,
    });
    return undefined;
  }
  const scopes: JsonObject = {};
  const declared = isObject(raw.scopes) ? raw.scopes : {};
  for (const [scope, description] of Object.entries(declared)) {
    if (isScopeToken(scope)) scopes[scope] = typeof description === "string" ? description : "";
    else
      notes.push({
        at: under(at, "scopes", scope),
        text: `scope ${JSON.stringify(scope)} is no scope token (RFC 6749 section 3.3); left out`,
      });
  }
  flow.scopes = scopes;
  return flow;
}

function oauth2Of(scheme: JsonObject, at: Pointer): TokenScheme {
  const notes: PlacedNote[] = [];
  const raw = isObject(scheme.flows) ? scheme.flows : {};
  const flows: JsonObject = {};
  const granted = new Set<string>();
  for (const kind of oauthFlowKinds) {
    const key = kind === "deviceAuthorization" && !raw[kind] ? deviceFlowExtension : kind;
    const given = raw[key];
    if (!isObject(given)) continue;
    const flow = flowOf(kind, given, under(at, "flows", key), notes);
    if (!flow) continue;
    flows[kind] = flow;
    for (const scope of Object.keys(flow.scopes as JsonObject)) granted.add(scope);
  }
  if (Object.keys(flows).length === 0) return { notes };
  return { credential: { in: "oauth2", flows }, notes, granted };
}

function openIdConnectOf(scheme: JsonObject, at: Pointer): TokenScheme {
  const given = stringOf(scheme, "openIdConnectUrl");
  const url = given === undefined ? undefined : urlOf(given);
  if (url !== undefined) return { credential: { in: "openIdConnect", url }, notes: [] };
  const text =
    given === undefined
      ? "no openIdConnectUrl"
      : `openIdConnectUrl ${JSON.stringify(given)} is no URL`;
  return { notes: [{ at: under(at, "openIdConnectUrl"), text }] };
}

/**
 * The token credential an OAuth or OpenID Connect security scheme is (without a credential
 * when it names no usable flow or provider: a bearer token, then); undefined for another kind.
 */
export function tokenSchemeOf(scheme: JsonObject, at: Pointer): TokenScheme | undefined {
  if (scheme.type === "oauth2") return oauth2Of(scheme, at);
  if (scheme.type === "openIdConnect") return openIdConnectOf(scheme, at);
  return undefined;
}

const tokenSchemes = new WeakMap<ImportContext, Map<string, TokenScheme | undefined>>();

/** `tokenSchemeOf` the document's security scheme `name`, worked out once per import. */
export function tokenSchemeNamed(ctx: ImportContext, name: string): TokenScheme | undefined {
  let known = tokenSchemes.get(ctx);
  if (!known) tokenSchemes.set(ctx, (known = new Map()));
  if (known.has(name)) return known.get(name);
  const schemes = componentsOf(ctx, "securitySchemes");
  let found: TokenScheme | undefined;
  if (Object.hasOwn(schemes, name)) {
    const at = under(
      { file: ctx.doc.root.path, pointer: "#" },
      "components",
      "securitySchemes",
      name,
    );
    const scheme = securityScheme(ctx, schemes[name]!, at);
    if (isObject(scheme)) found = tokenSchemeOf(scheme, at);
  }
  known.set(name, found);
  return found;
}

const askedScopes = new WeakMap<ImportContext, Map<string, Set<string>>>();

/**
 * Records that an operation asks a scope of scheme `name` that none of its flows grants (a
 * common defect: SailPoint's, Okta's documents declare few of the scopes they ask). The
 * endpoint keeps the scope; `declareAskedScopes` adds it to the scheme's flows.
 */
export function askScope(ctx: ImportContext, name: string, scope: string): void {
  let schemes = askedScopes.get(ctx);
  if (!schemes) askedScopes.set(ctx, (schemes = new Map()));
  let scopes = schemes.get(name);
  if (!scopes) schemes.set(name, (scopes = new Set()));
  scopes.add(scope);
}

/**
 * Adds to each credential's flows the scopes its operations ask and no flow granted (without
 * a description), noted once on the credential: an endpoint keeps every scope it asks, and
 * the spec says they are granted, as the document meant.
 */
export function declareAskedScopes(ctx: ImportContext, credentials: JsonObject | undefined): void {
  for (const [scheme, scopes] of askedScopes.get(ctx) ?? []) {
    const credential = credentials?.[credentialId(ctx, scheme)];
    if (!isObject(credential) || !isObject(credential.flows)) continue;
    for (const flow of Object.values(credential.flows))
      if (isObject(flow) && isObject(flow.scopes))
        for (const scope of scopes) if (!Object.hasOwn(flow.scopes, scope)) flow.scopes[scope] = "";
    const at = under(
      { file: ctx.doc.root.path, pointer: "#" },
      "components",
      "securitySchemes",
      scheme,
    );
    note(
      ctx,
      credential,
      at,
      `scopes operations ask that no flow granted, added to its flows: ${[...scopes].join(", ")}`,
    );
  }
}
