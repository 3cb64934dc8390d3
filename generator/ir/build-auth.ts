/**
 * An operation's `auth:` read into the model's terms: the credentials it sends (`auth`), those
 * sent when the client has them (`optionalAuth`), the credentials of which any one will do
 * (`authAnyOf`, from `{ anyOf: [...] }`: each also optional, since no one of them is needed),
 * and the scopes each token needs (`authScopes`, build-oauth.ts). Entries are plain ids,
 * `{ credential, optional, scopes }`, or `{ anyOf: [id or { credential, scopes }] }`.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import { authScopesOf } from "./build-oauth.ts";
import type { Credential, Endpoint } from "./model.ts";

/** One credential of an operation's auth, where it was written. */
export interface AuthEntry {
  credential: string;
  optional: boolean;
  /** A member of the `anyOf` group. */
  either: boolean;
  scopes?: string[];
  /** The entry's place in the spec file. */
  path: DataPath;
  /** Written as `{ credential, ... }` rather than the id alone. */
  mapping: boolean;
}

const stringsOf = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((s): s is string => typeof s === "string") : undefined;

/** The entries of `auth:` at `path` (the operation's), the members of an `anyOf` among them. */
export function authEntries(path: DataPath, value: unknown): AuthEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry, i): AuthEntry[] => {
    const at = [...path, "auth", i];
    if (isRecord(entry) && Array.isArray(entry.anyOf))
      return entry.anyOf.map((member, j): AuthEntry => {
        const scopes = isRecord(member) ? stringsOf(member.scopes) : undefined;
        return {
          credential: String(isRecord(member) ? member.credential : member),
          optional: true,
          either: true,
          ...(scopes ? { scopes } : {}),
          path: [...at, "anyOf", j],
          mapping: isRecord(member),
        };
      });
    if (!isRecord(entry))
      return [
        { credential: String(entry), optional: false, either: false, path: at, mapping: false },
      ];
    const scopes = stringsOf(entry.scopes);
    return [
      {
        credential: String(entry.credential),
        optional: entry.optional === true,
        either: false,
        ...(scopes ? { scopes } : {}),
        path: at,
        mapping: true,
      },
    ];
  });
}

/** What an operation's auth gives the model. */
export type AuthFields = Pick<Endpoint, "auth" | "optionalAuth" | "authScopes" | "authAnyOf">;

/**
 * The auth of an operation, checked: every credential declared, one `anyOf` at most and none
 * beside a credential marked optional (OpenAPI's requirements could not say both), none on a
 * call to the user's server (`inbound`: the API signs those), and the scopes.
 */
export function buildAuth(
  ctx: BuildContext,
  credentials: ReadonlyMap<string, Credential>,
  file: SpecFile,
  path: DataPath,
  value: unknown,
  inbound: boolean,
): AuthFields {
  const entries = authEntries(path, value);
  for (const entry of entries)
    if (!credentials.has(entry.credential))
      ctx.bag.report(
        "unknown-credential",
        { name: entry.credential, hint: suggestion(entry.credential, credentials.keys()) },
        file.locate(entry.path),
      );
  // one entry per credential: a second (another scope list in `anyOf`, Google's "any of these
  // scopes") would be one credential sent once, its scopes silently the last list's
  // (the same id twice as it is, the schema's uniqueItems has reported already)
  const seen = new Map<string, AuthEntry>();
  for (const entry of entries) {
    const earlier = seen.get(entry.credential);
    const plain = (e: AuthEntry) => !e.mapping && !e.either;
    if (earlier && !(plain(earlier) && plain(entry)))
      ctx.bag.report(
        "auth-credential-twice",
        { name: entry.credential },
        file.locate(entry.mapping ? [...entry.path, "credential"] : entry.path),
      );
    seen.set(entry.credential, entry);
  }
  const groups = Array.isArray(value) ? value.filter((e) => isRecord(e) && "anyOf" in e) : [];
  const either = entries.filter((e) => e.either);
  const misplaced = (why: string) => {
    const at = (value as unknown[]).findIndex((e) => isRecord(e) && "anyOf" in e);
    ctx.bag.report("auth-any-of-misplaced", { why }, file.locate([...path, "auth", at], "key"));
  };
  if (groups.length > 1) misplaced("an operation has one group of alternatives");
  else if (either.length && inbound)
    misplaced("a call to the user's server carries the API's own signature, not one of several");
  else if (either.length && entries.some((e) => e.optional && !e.either))
    misplaced("beside it, a credential marked optional; list it in the group, or make it required");
  const scopes = authScopesOf(ctx, credentials, file, entries, inbound);
  return {
    auth: entries.map((e) => e.credential),
    optionalAuth: entries.filter((e) => e.optional).map((e) => e.credential),
    ...(scopes ? { authScopes: scopes } : {}),
    ...(either.length && !inbound ? { authAnyOf: either.map((e) => e.credential) } : {}),
  };
}
