/**
 * OAuth 2.0 and OpenID Connect credentials (`in: oauth2` with `flows`, `in: openIdConnect`
 * with `url`) and the scopes an endpoint's `auth` entry asks of them. Both are bearer tokens
 * in `Authorization`, so the rest of the model sees a header credential; what this adds is
 * where the token comes from (`tokenSource`), for the OpenAPI document, the client's docs and
 * its client-credentials helper, and `diff`. The schema checked the shapes; this checks what
 * it cannot: keys that belong to another kind of credential, URLs, and scopes no flow grants.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import type { SpecFile } from "../load/spec-file.ts";
import type { AuthEntry } from "./build-auth.ts";
import type { BuildContext } from "./build-context.ts";
import type { Decl } from "./merge.ts";
import {
  oauthFlowKinds,
  type ApiModel,
  type Credential,
  type Endpoint,
  type OAuthFlow,
  type TokenSource,
} from "./model.ts";

/** The kinds of credential whose token an OAuth or OpenID Connect provider issues. */
export const tokenCredentialKinds = ["oauth2", "openIdConnect"] as const;

/**
 * Keys a token credential does not take: its token always travels as `Authorization: Bearer`
 * (a signature's keys are reported by build-signing.ts, on every credential not `in: signature`).
 */
const bearerFixed = ["header", "scheme", "name"];

const urlKeys = ["authorizationUrl", "tokenUrl", "refreshUrl", "deviceAuthorizationUrl"] as const;

/** A `{name}` the user fills in (OpenAPI's server-variable form: Salesforce's `https://{shortCode}.api...`). */
const templateVariable = /\{[A-Za-z0-9_.-]+\}/g;

/** Whether a URL of the spec holds template variables, which the user must fill in. */
export const isTemplateUrl = (value: string): boolean => value.search(templateVariable) >= 0;

/** A variable first, standing for the server's whole root. */
const leadingVariable = new RegExp(`^${templateVariable.source}`);

/**
 * Whether `value` is an `https:` or `http:` URL, or a path relative to the API's base URL
 * (OpenAPI 3.1 lets a flow's URLs be relative references), with `{name}` template variables
 * allowed where a value can go.
 */
export function isOAuthUrl(value: string): boolean {
  // a variable first stands for the server's whole root (3GPP's `{nrfApiRoot}/oauth2/token`)
  const filled = value.replace(leadingVariable, "https://x").replace(templateVariable, "x");
  // a fragment never reaches a server; white space, backslashes and stray braces are no URL's
  if (/[\s\\#{}]/.test(filled)) return false;
  if (filled.startsWith("/")) return !filled.startsWith("//");
  try {
    const url = new URL(filled);
    return (
      (url.protocol === "https:" || url.protocol === "http:") &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

/**
 * The parts of a credential that `in: oauth2` or `in: openIdConnect` gives it: a bearer token
 * in Authorization, and its `tokenSource`. Empty for any other credential, after reporting
 * `flows` or `url` there.
 */
export function tokenCredentialOf(
  decl: Decl,
  ctx: BuildContext,
): Pick<Credential, "header" | "scheme" | "tokenSource"> {
  const v = decl.value;
  const kind = v.in;
  const misplaced = (key: string, why: string) =>
    ctx.bag.report(
      "credential-key-misplaced",
      { key, name: decl.name, placement: String(kind), why },
      decl.file.locate([...decl.path, key], "key"),
    );
  if (kind !== "oauth2" && kind !== "openIdConnect") {
    if (v.flows !== undefined) misplaced("flows", "flows belong to an `in: oauth2` credential");
    if (v.url !== undefined) misplaced("url", "url belongs to an `in: openIdConnect` credential");
    return {};
  }
  for (const key of bearerFixed)
    if (v[key] !== undefined)
      misplaced(key, "its token is always sent as `Authorization: Bearer <token>`");
  if (kind === "oauth2" && v.url !== undefined)
    misplaced("url", "url belongs to an `in: openIdConnect` credential");
  if (kind === "openIdConnect" && v.flows !== undefined)
    misplaced("flows", "an OpenID Connect provider's flows are in its discovery document (`url`)");
  const tokenSource = kind === "oauth2" ? oauth2Of(decl, ctx) : openIdConnectOf(decl, ctx);
  return { header: "Authorization", scheme: "Bearer", ...(tokenSource ? { tokenSource } : {}) };
}

function oauth2Of(decl: Decl, ctx: BuildContext): TokenSource | undefined {
  const flows = decl.value.flows;
  if (flows === null || typeof flows !== "object") {
    ctx.bag.report(
      "credential-flows-missing",
      { name: decl.name },
      decl.file.locate([...decl.path, "in"]),
    );
    return undefined;
  }
  const out: OAuthFlow[] = [];
  for (const kind of oauthFlowKinds) {
    const flow = (flows as Record<string, unknown>)[kind];
    if (flow === null || typeof flow !== "object") continue;
    const path = [...decl.path, "flows", kind];
    const given = flow as Record<string, unknown>;
    const urls: Partial<Record<(typeof urlKeys)[number], string>> = {};
    for (const key of urlKeys) {
      const url = given[key];
      if (typeof url !== "string") continue;
      if (isOAuthUrl(url)) urls[key] = url;
      else
        ctx.bag.report(
          "credential-url-invalid",
          { key, value: JSON.stringify(url) },
          decl.file.locate([...path, key]),
        );
    }
    const scopes = given.scopes !== null && typeof given.scopes === "object" ? given.scopes : {};
    out.push({
      kind,
      ...urls,
      scopes: Object.entries(scopes).map(([name, description]) => ({
        name,
        description: typeof description === "string" ? description : "",
      })),
    });
  }
  return { kind: "oauth2", flows: out };
}

function openIdConnectOf(decl: Decl, ctx: BuildContext): TokenSource | undefined {
  const url = decl.value.url;
  if (typeof url !== "string") {
    ctx.bag.report(
      "credential-url-missing",
      { name: decl.name },
      decl.file.locate([...decl.path, "in"]),
    );
    return undefined;
  }
  if (!isOAuthUrl(url)) {
    ctx.bag.report(
      "credential-url-invalid",
      { key: "url", value: JSON.stringify(url) },
      decl.file.locate([...decl.path, "url"]),
    );
    return undefined;
  }
  return { kind: "openIdConnect", url };
}

/** Every scope some flow of an oauth2 credential grants; undefined for OpenID Connect (any scope). */
function grantedScopes(credential: Credential): Set<string> | undefined {
  const source = credential.tokenSource;
  if (source?.kind !== "oauth2") return undefined;
  return new Set(source.flows.flatMap((flow) => flow.scopes.map((s) => s.name)));
}

/**
 * The scopes of an endpoint's `auth` entries (`{ credential, scopes }`, inside `anyOf` too), by
 * credential id, each checked against the credential: scopes belong to a token credential, and
 * an oauth2 credential's are those its flows grant. `inbound`: a callback's or webhook's auth,
 * where a call carries no token and scopes mean nothing.
 */
export function authScopesOf(
  ctx: BuildContext,
  credentials: ReadonlyMap<string, Credential>,
  file: SpecFile,
  entries: readonly AuthEntry[],
  inbound: boolean,
): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const entry of entries) {
    if (entry.scopes === undefined) continue;
    const id = entry.credential;
    const at = [...entry.path, "scopes"];
    const credential = credentials.get(id);
    if (!credential) continue; // unknown-credential says so
    if (inbound || !credential.tokenSource) {
      ctx.bag.report(
        "auth-scopes-misplaced",
        {
          name: id,
          why: inbound
            ? "a call to the user's server carries no token of theirs"
            : "it is no `in: oauth2` or `in: openIdConnect` credential",
        },
        file.locate(at, "key"),
      );
      continue;
    }
    const granted = grantedScopes(credential);
    entry.scopes.forEach((scope, j) => {
      if (granted && !granted.has(scope))
        ctx.bag.report(
          "auth-scope-unknown",
          { scope, name: id, hint: suggestion(scope, granted) },
          file.locate([...at, j]),
        );
    });
    if (entry.scopes.length) out[id] = [...entry.scopes];
  }
  return Object.keys(out).length ? out : undefined;
}

/** The clientCredentials flow of a credential, when it has one: the client can fetch its own token. */
export function clientCredentialsFlow(credential: Credential): OAuthFlow | undefined {
  const source = credential.tokenSource;
  return source?.kind === "oauth2"
    ? source.flows.find((flow) => flow.kind === "clientCredentials")
    : undefined;
}

/**
 * Where a token URL (not a template) is served: its path, as written when relative to the base
 * URL, else the absolute URL's path and its origin.
 */
export function tokenPlaceOf(tokenUrl: string): { path: string; origin?: string } {
  if (tokenUrl.startsWith("/")) return { path: tokenUrl };
  const url = new URL(tokenUrl);
  return { path: url.pathname, origin: url.origin };
}

/**
 * The credentials with each client-credentials flow's `tokenRequest` worked out: `"json"`
 * where the spec declares the token endpoint itself as an endpoint (a POST at the flow's
 * token URL, relative to the base URL or by its path) that takes a JSON body, as Sakari's
 * document does; the grant then sends its fields as that JSON, not RFC 6749's form, and the
 * stand-in's route of that endpoint answers it.
 */
export function withTokenRequests(
  credentials: readonly Credential[],
  endpoints: readonly Endpoint[],
): Credential[] {
  return credentials.map((credential) => {
    const flow = clientCredentialsFlow(credential);
    if (!flow?.tokenUrl || isTemplateUrl(flow.tokenUrl)) return credential;
    const { path } = tokenPlaceOf(flow.tokenUrl);
    const declared = endpoints.find((e) => e.method === "POST" && e.path === path);
    if (declared?.requestBody?.encoding !== "json") return credential;
    const source = credential.tokenSource as Extract<TokenSource, { kind: "oauth2" }>;
    const flows = source.flows.map((f) =>
      f === flow ? { ...f, tokenRequest: "json" as const } : f,
    );
    return { ...credential, tokenSource: { ...source, flows } };
  });
}

/** Whether the package has a client-credentials token getter (and so runtime/client/oauth.ts). */
export const hasClientCredentials = (model: ApiModel): boolean =>
  model.credentials.some((c) => clientCredentialsFlow(c) !== undefined);

/** The scopes an endpoint's `authScopes` ask of credential `id`'s token: own entries only (an id may be `constructor`). */
export const scopesAsked = (
  authScopes: Readonly<Record<string, readonly string[]>> | undefined,
  id: string,
): readonly string[] => (authScopes && Object.hasOwn(authScopes, id) ? authScopes[id]! : []);
