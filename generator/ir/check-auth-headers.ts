/**
 * An endpoint that requires two credentials travelling in one header (HTTP basic and a bearer
 * token, both `Authorization`; two API keys of one header name): a request sends the header
 * once, so no call could carry both, and the stand-in would refuse every one. Either is meant:
 * each `optional: true` sends whichever the client has.
 */
import type { BuildContext } from "./build-context.ts";
import type { Credential, Endpoint } from "./model.ts";

/** The header a credential travels in, as the spec spells it, or undefined (the query string, none). */
function credentialHeader(credential: Credential): string | undefined {
  switch (credential.placement) {
    case "header":
      return credential.header ?? "Authorization";
    case "basic":
      return "Authorization";
    case "query":
    case "signature":
    case "none":
      return undefined;
    default: {
      const unhandled: never = credential.placement;
      throw new Error(`unhandled credential placement ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Reports each endpoint whose required credentials share a header. */
export function checkAuthHeaders(
  ctx: BuildContext,
  credentials: readonly Credential[],
  endpoints: readonly Endpoint[],
): void {
  const byId = new Map(credentials.map((c) => [c.id, c] as const));
  for (const endpoint of endpoints) {
    const first = new Map<string, string>();
    for (const id of endpoint.auth) {
      const credential = byId.get(id);
      if (!credential || endpoint.optionalAuth.includes(id)) continue;
      const header = credentialHeader(credential);
      if (header === undefined) continue;
      // header names ignore case
      const other = first.get(header.toLowerCase());
      if (other === undefined) first.set(header.toLowerCase(), id);
      else
        ctx.bag.report(
          "auth-header-shared",
          { first: other, second: id, header },
          endpoint.location,
        );
    }
  }
}
