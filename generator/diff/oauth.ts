/**
 * `--diff` of OAuth 2.0 and OpenID Connect credentials, and of credentials any one of which
 * will do (`anyOf`): the scopes each endpoint asks of a
 * token (one more breaks callers, whose tokens were granted without it and are now refused;
 * one fewer breaks nobody), and where a token comes from (flows, their URLs and scopes, the
 * provider): the package's token getter asks the new place, so callers change nothing. The
 * change list comes from compare.ts, passed in, so neither file imports the other.
 */
import { scopesAsked } from "../ir/build-oauth.ts";
import type { ApiModel, Credential } from "../ir/model.ts";
import type { WebhookChanges } from "./webhooks.ts";

/** Where a credential's token comes from, as text: `oauth2 clientCredentials(/oauth/token; a b)`. */
function sourceText(credential: Credential): string {
  const source = credential.tokenSource;
  if (!source) return "none";
  if (source.kind === "openIdConnect") return `openIdConnect ${source.url}`;
  const flows = source.flows.map((flow) => {
    const urls = [
      flow.authorizationUrl,
      flow.tokenUrl,
      flow.refreshUrl,
      flow.deviceAuthorizationUrl,
    ];
    const scopes = flow.scopes.map((s) => s.name).join(" ");
    return `${flow.kind}(${urls.filter((u) => u !== undefined).join(" ")}; ${scopes})`;
  });
  return `oauth2 ${flows.join(", ")}`;
}

/** Every change of the scopes endpoints ask and of where tokens come from, `before` to `after`. */
export function diffOAuth(out: WebhookChanges, before: ApiModel, after: ApiModel): void {
  for (const old of before.credentials) {
    const next = after.credentials.find((c) => c.id === old.id);
    if (!next || (!old.tokenSource && !next.tokenSource)) continue;
    const [from, to] = [sourceText(old), sourceText(next)];
    if (from !== to) out.add(`credentials.${old.id}`, `token source ${from} -> ${to}`, "minor");
  }
  for (const old of before.endpoints) {
    const next = after.endpoints.find((e) => e.id === old.id);
    if (!next) continue; // endpoints' own diff says so
    diffAnyOf(out, `endpoints.${old.id}`, old.authAnyOf ?? [], next.authAnyOf ?? []);
    const ids = new Set([
      ...Object.keys(old.authScopes ?? {}),
      ...Object.keys(next.authScopes ?? {}),
    ]);
    for (const id of [...ids].sort()) {
      const [was, now] = [scopesAsked(old.authScopes, id), scopesAsked(next.authScopes, id)];
      const subject = `endpoints.${old.id}`;
      for (const scope of now.filter((s) => !was.includes(s)))
        out.add(subject, `now needs scope ${scope} of credential ${id}`, "minor", ["callers"]);
      for (const scope of was.filter((s) => !now.includes(s)))
        out.add(subject, `no longer needs scope ${scope} of credential ${id}`, "minor");
    }
  }
}

/**
 * The credentials of which any one will do: one fewer breaks the callers who had only it (the
 * call now needs another), one more breaks nobody. Their optional flags are compare.ts's.
 */
function diffAnyOf(out: WebhookChanges, subject: string, was: string[], now: string[]): void {
  if (was.length && now.length)
    for (const id of was.filter((id) => !now.includes(id)))
      out.add(
        subject,
        `credential ${id} no longer one of those any one of which will do`,
        "minor",
        ["callers"],
      );
  if (!was.length && now.length)
    out.add(subject, `any one of ${now.join(", ")} will do (one is needed)`, "minor");
  else if (was.length && !now.length)
    out.add(subject, `no longer any one of ${was.join(", ")}`, "minor");
}
