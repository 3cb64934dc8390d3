/**
 * What the spec says every request of an API carries, whatever the endpoint: headers with a
 * fixed value (`Accept: application/vnd.github+json`), and the version header of an API
 * versioned by a header, which the client fills with the version the package is written for
 * or the one its `apiVersion` option picks. Worked out once, when a client is constructed.
 */
import { ClientOptionsError } from "./errors.js";
import { lowerKeys } from "./operation.js";

/** What the generated core passes about the whole API (its spec's `headers:` and `versioning:`). */
export interface ApiRequests {
  /** Headers every request sends, by name; an endpoint's own header of the same name wins. */
  headers?: Readonly<Record<string, string>>;
  /** Versioning by header: the header, the versions the spec lists, and the package's own. */
  version?: { header: string; versions: readonly string[]; current: string };
}

/** The client options the spec gives meaning to; a generated options interface declares those its API has. */
export interface SpecOptions {
  /** Of an API versioned by a header: the version to send instead of the package's. */
  apiVersion?: string;
}

/**
 * The headers every request of the client sends, lower-cased, or undefined when the spec
 * names none. An `apiVersion` the spec does not list is refused, naming the versions.
 */
export function apiHeadersOf(
  api: ApiRequests,
  options: SpecOptions,
): Record<string, string> | undefined {
  const { headers, version } = api;
  const chosen = options.apiVersion;
  if (chosen !== undefined && !version?.versions.includes(chosen))
    throw new ClientOptionsError(
      "apiVersion",
      version
        ? `is not a version the spec lists (${version.versions.join(", ")})`
        : "is not an option of this API: it is not versioned by a header",
    );
  if (!headers && !version) return undefined;
  const out = lowerKeys(headers ?? {});
  if (version) out[version.header.toLowerCase()] = chosen ?? version.current;
  return out;
}
