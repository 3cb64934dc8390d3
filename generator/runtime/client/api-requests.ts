/**
 * What the spec says every request of an API carries, whatever the endpoint: headers with a
 * fixed value (`Accept: application/vnd.github+json`), and the version header of an API
 * versioned by a header, which the client fills with the version the package is written for
 * or the one its `apiVersion` option picks; and the other addresses some endpoints are served
 * from (`hosts:`), which its `hosts` option sets. Worked out once, when a client is constructed.
 */
import { ClientOptionsError } from "./errors.js";
import { lowerKeys } from "./operation.js";
import { baseAddress } from "./redirect.js";

/** What the generated core passes about the whole API (its spec's `headers:` and `versioning:`). */
export interface ApiRequests {
  /** Headers every request sends, by name; an endpoint's own header of the same name wins. */
  headers?: Readonly<Record<string, string>>;
  /** Versioning by header: the header, the versions the spec lists, and the package's own. */
  version?: { header: string; versions: readonly string[]; current: string };
  /** Other addresses endpoints are served from, by host name: the spec's default, or null for none. */
  hosts?: Readonly<Record<string, string | null>>;
  /**
   * `lenientApiRequests`, passed beside the data by the generated core of a spec that has
   * any of it, so that a browser bundle of another leaves that code out: the browser build
   * (browser.ts) works the requests out with it. The full loop (core.ts) does not read it.
   */
  lenient?: typeof lenientApiRequests;
}

/** The client options the spec gives meaning to; a generated options interface declares those its API has. */
export interface SpecOptions {
  /** Of an API versioned by a header: the version to send instead of the package's. */
  apiVersion?: string;
  /** Of an API with `hosts:`: the address of each, instead of the spec's. */
  hosts?: Readonly<Record<string, string | undefined>>;
}

/** A base address and its origin, as `baseAddress` gives them. */
export interface Address {
  base: string;
  origin: string;
}

/**
 * The address of each host the spec names: the `hosts` option's, else the spec's. A host
 * with neither, an address that is not one, or a name the spec does not list is a
 * ClientOptionsError naming `hosts.<name>`.
 */
export function hostAddressesOf(
  api: ApiRequests,
  options: SpecOptions,
): Record<string, Address> | undefined {
  const given = options.hosts ?? {};
  const hosts = api.hosts ?? {};
  for (const name of Object.keys(given))
    if (!Object.hasOwn(hosts, name))
      throw new ClientOptionsError(
        `hosts.${name}`,
        `is not a host of the spec (${Object.keys(hosts).join(", ") || "it has none"})`,
      );
  if (!api.hosts) return undefined;
  const out: Record<string, Address> = {};
  for (const [name, fallback] of Object.entries(hosts)) {
    const url = given[name] ?? fallback;
    if (url === null || url === undefined)
      throw new ClientOptionsError(
        `hosts.${name}`,
        "is required: the spec gives no address for it",
      );
    out[name] = baseAddress(url, `hosts.${name}`);
  }
  return out;
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

/**
 * The headers and hosts of `api` as the browser build (browser.ts) works them out: as
 * `apiHeadersOf` and `hostAddressesOf` do, without their refusal of an `apiVersion` or a
 * host name the spec does not list. A host with no address is still a ClientOptionsError.
 */
export function lenientApiRequests(
  api: ApiRequests,
  options: SpecOptions,
): { headers: Record<string, string>; hosts: Record<string, Address> | undefined } {
  const { headers, version, hosts } = api;
  return {
    headers: {
      ...(headers && lowerKeys(headers)),
      ...(version && { [version.header.toLowerCase()]: options.apiVersion ?? version.current }),
    },
    hosts:
      hosts &&
      Object.fromEntries(
        Object.entries(hosts).map(([name, url]) => [
          name,
          baseAddress(options.hosts?.[name] ?? url, `hosts.${name}`),
        ]),
      ),
  };
}
