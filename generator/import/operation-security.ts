/**
 * The credentials an imported operation sends, from its security requirements (or the
 * document's): alternatives, the schemes each requires, the scopes each token needs, and the
 * forms the spec format says exactly (`anyOf`, a required set within a larger one); what it
 * cannot say is noted at the requirement.
 */
import {
  componentsOf,
  credentialId,
  isCredential,
  isObject,
  note,
  schemeHeader,
  under,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { askScope, isScopeToken, tokenSchemeNamed } from "./oauth.ts";

/** The credentials of the first security requirement (the operation's, else the document's). */
export function authOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
): JsonValue[] {
  const root = ctx.doc.root.value as JsonObject;
  const own = Array.isArray(op.security);
  const list = own
    ? (op.security as JsonValue[])
    : Array.isArray(root.security)
      ? root.security
      : [];
  const listAt = own ? under(at, "security") : { file: ctx.doc.root.path, pointer: "#/security" };
  // A scheme the client cannot send is no credential (its gap is at the scheme), and one no
  // security scheme defines is none either (a gap here): a requirement of only such schemes
  // needs none from the client, as an empty one.
  for (const scheme of new Set(list.filter(isObject).flatMap((r) => Object.keys(r))))
    if (!Object.hasOwn(componentsOf(ctx, "securitySchemes"), scheme))
      note(
        ctx,
        out,
        listAt,
        `security requirement ${scheme}, which no security scheme defines: no credential is sent for it`,
      );
  const requirements = list
    .filter(isObject)
    .map((r) => Object.fromEntries(Object.entries(r).filter(([s]) => isCredential(ctx, s))));
  const optional = requirements.some((r) => Object.keys(r).length === 0);
  const alternatives = withoutStronger(requirements.filter((r) => Object.keys(r).length > 0));
  if (alternatives.length === 0) return [];
  // Alternatives (basic or bearer): every scheme is kept, each sent when the client has it. So
  // is a requirement of two schemes in one header (springdoc's `{basicAuth: [], bearerAuth: []}`
  // means either; both at once no request can send, and a stand-in would refuse every call).
  const shared = alternatives.map((r) => sharedHeader(ctx, Object.keys(r)));
  for (const [i, header] of shared.entries())
    if (header !== undefined)
      note(
        ctx,
        out,
        listAt,
        `security requirement ${Object.keys(alternatives[i]!).join(" and ")}: both travel in the ${header} header, which a request sends once; read as alternatives`,
      );
  const sharing = shared.some((h) => h !== undefined);
  const choice = sharing || optional ? undefined : oneOfEach(alternatives);
  if (choice) {
    const entry = (scheme: string): JsonValue => {
      const credential = credentialId(ctx, scheme);
      const scopes = requiredScopes(ctx, out, listAt, scheme, alternatives);
      return scopes.length ? { credential, scopes } : credential;
    };
    return [...choice.required.map(entry), { anyOf: choice.either.map(entry) }];
  }
  return requiredOrHeld(ctx, out, listAt, alternatives, { optional, sharing });
}

/**
 * Each scheme of the alternatives once: required when every alternative names it
 * (`[{key}, {key, token}]`: the key, and the token when the client has it, as apigen's own
 * document writes an optional credential), else sent when the client has it (all of them
 * when an empty requirement makes them `optional`, or two share a header). Exact for those two
 * requirements, one within the other; other alternatives, and a shared header, are noted.
 */
function requiredOrHeld(
  ctx: ImportContext,
  out: JsonObject,
  listAt: Pointer,
  alternatives: readonly JsonObject[],
  { optional, sharing }: { optional: boolean; sharing: boolean },
): JsonValue[] {
  const inEvery = (scheme: string) =>
    !optional && !sharing && alternatives.every((r) => Object.hasOwn(r, scheme));
  const [first, second] = alternatives;
  const nested =
    alternatives.length === 1 ||
    (alternatives.length === 2 && Object.keys(first!).every((s) => Object.hasOwn(second!, s)));
  if (sharing || !nested)
    note(
      ctx,
      out,
      listAt,
      "alternative security requirements; each credential is sent when the client has it",
    );
  const seen = new Map<string, JsonValue>();
  for (const requirement of alternatives)
    for (const scheme of Object.keys(requirement)) {
      const credential = credentialId(ctx, scheme);
      if (seen.has(credential)) continue;
      const scopes = requiredScopes(ctx, out, listAt, scheme, alternatives);
      const sentWhenHeld = !inEvery(scheme);
      seen.set(
        credential,
        scopes.length || sentWhenHeld
          ? {
              credential,
              ...(sentWhenHeld ? { optional: true } : {}),
              ...(scopes.length ? { scopes } : {}),
            }
          : credential,
      );
    }
  return [...seen.values()];
}

/**
 * The scopes a scheme's token needs for an operation: those every requirement naming it asks
 * (requirements are alternatives, a requirement's scopes are all needed). Alternatives that
 * differ and scopes of a scheme that is no token are noted; a scope no flow grants is kept,
 * and declared in the flows after every operation is read (oauth.ts `declareAskedScopes`).
 */
function requiredScopes(
  ctx: ImportContext,
  out: JsonObject,
  listAt: Pointer,
  scheme: string,
  alternatives: readonly JsonObject[],
): string[] {
  const asked = alternatives
    .filter((r) => Object.hasOwn(r, scheme))
    .map((r) => (Array.isArray(r[scheme]) ? (r[scheme] as JsonValue[]) : []).map(String));
  const all = [...new Set(asked.flat())];
  if (all.length === 0) return [];
  const token = tokenSchemeNamed(ctx, scheme);
  if (!token?.credential) {
    note(ctx, out, listAt, `scopes of ${scheme}: ${all.join(", ")}`);
    return [];
  }
  if (asked.length > 1 && asked.some((list) => list.join(" ") !== asked[0]!.join(" ")))
    note(
      ctx,
      out,
      listAt,
      `alternative scopes of ${scheme}: ${asked.map((list) => list.join(" ") || "none").join(" | ")}; those all of them ask are kept`,
    );
  const kept: string[] = [];
  for (const scope of all.filter((scope) => asked.every((list) => list.includes(scope)))) {
    if (!isScopeToken(scope))
      note(ctx, out, listAt, `scope ${JSON.stringify(scope)} of ${scheme} is no scope token`);
    else {
      if (token.granted && !token.granted.has(scope)) askScope(ctx, scheme, scope);
      kept.push(scope);
    }
  }
  return kept;
}

/**
 * Requirements that are the same schemes plus one more each, a different one
 * (`[{key, a}, {key, b}]`, `[{basic}, {bearer}, {apiKey}]`: Okta's, Bitbucket's): the schemes
 * of all of them, and those of which any one will do (`anyOf`). Undefined for any other form.
 */
function oneOfEach(
  alternatives: readonly JsonObject[],
): { required: string[]; either: string[] } | undefined {
  if (alternatives.length < 2) return undefined;
  const required = Object.keys(alternatives[0]!).filter((scheme) =>
    alternatives.every((r) => Object.hasOwn(r, scheme)),
  );
  const either = alternatives.map((r) => Object.keys(r).filter((s) => !required.includes(s)));
  if (either.some((more) => more.length !== 1)) return undefined;
  const names = either.map((more) => more[0]!);
  return new Set(names).size === names.length ? { required, either: names } : undefined;
}

/** The header two of a requirement's schemes both travel in, if any (`authorization`). */
function sharedHeader(ctx: ImportContext, schemes: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const scheme of schemes) {
    const header = schemeHeader(ctx, scheme);
    if (header === undefined) continue;
    if (seen.has(header)) return header;
    seen.add(header);
  }
  return undefined;
}

/** The scopes a requirement asks of `scheme`. */
const scopesIn = (requirement: JsonObject, scheme: string): string[] =>
  Array.isArray(requirement[scheme]) ? (requirement[scheme] as JsonValue[]).map(String) : [];

/**
 * The requirements but those another of the same schemes makes needless: one asking every
 * scope the other asks and more (3GPP's `[{oauth: [nnrf-nfm]}, {oauth: [nnrf-nfm,
 * nnrf-nfm:nf-instance:write]}]` is `nnrf-nfm`), or the same again. A requirement of more
 * schemes stays: beside a smaller one it says which credential is optional.
 */
function withoutStronger(alternatives: readonly JsonObject[]): JsonObject[] {
  const schemesOf = (r: JsonObject) => Object.keys(r).sort().join(" ");
  const within = (weaker: JsonObject, stronger: JsonObject) =>
    schemesOf(weaker) === schemesOf(stronger) &&
    Object.keys(weaker).every((scheme) =>
      scopesIn(weaker, scheme).every((scope) => scopesIn(stronger, scheme).includes(scope)),
    );
  return alternatives.filter(
    (r, i) =>
      !alternatives.some((other, j) => j !== i && within(other, r) && (!within(r, other) || j < i)),
  );
}
