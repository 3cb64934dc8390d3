/**
 * What every request of the API carries, in OpenAPI: the headers sent on every request with a
 * fixed value, and the version header of an API versioned by a header. Each is a header
 * parameter in `components.parameters` (a `const`; the versions as an `enum` with the
 * package's own as `default`) that every operation refers to, unless it has a header of that
 * name itself; `Accept`, which OpenAPI does not take as a parameter, is only in the root's
 * `x-apigen-headers`, which lists every fixed header for `--import` to read back. An
 * endpoint's own fixed headers are written the same way, in its operation.
 */
import type { ApiModel, Endpoint, HeaderSpec, Host } from "../../ir/model.ts";
import { notesOf, obj, text, type JsonObject } from "./json.ts";
import {
  headerParameterOf,
  isHeaderParameter,
  parameterRef,
  sharedHeaderKey,
} from "./parameters.ts";

/**
 * A header an endpoint or the API sends with a fixed value, as the header parameter OpenAPI
 * tools read (a `const`), marked as one `x-apigen-headers` lists, so `--import` reads it back
 * from there as a fixed header, not as a parameter of the call. A header whose value the
 * caller gives (a `headers:` entry with no value) is a header parameter marked
 * `x-apigen-header`, so `--import` reads it back as a `headers:` entry, not a `params` one.
 */
export function fixedHeaderParameter(header: HeaderSpec): JsonObject {
  const parameter = headerParameterOf(header);
  return header.value === undefined
    ? { ...parameter, "x-apigen-header": true }
    : { ...parameter, "x-apigen-fixed-header": true };
}

/** An endpoint's `x-apigen-headers`: every header it sends with a fixed value, by name, in spec order. */
export function endpointFixedHeaders(headers: readonly HeaderSpec[]): JsonObject | undefined {
  const fixed = headers.filter((h) => h.value !== undefined);
  return fixed.length ? Object.fromEntries(fixed.map((h) => [h.name, h.value!])) : undefined;
}

/** The version header of an API versioned by a header, as a header's spec, when it is one. */
function versionHeader(model: ApiModel): HeaderSpec | undefined {
  const { scheme, header } = model.versioning;
  if (scheme !== "header" || header === undefined) return undefined;
  return { name: header, required: false, docs: { notes: [] } };
}

/** `components.parameters` entries: each fixed header OpenAPI takes as a parameter, then the version header. */
export function requestHeaderComponents(model: ApiModel): [string, JsonObject][] {
  const fixed = model.fixedHeaders
    .filter(isHeaderParameter)
    .map((h): [string, JsonObject] => [sharedHeaderKey(h), fixedHeaderParameter(h)]);
  const version = versionHeader(model);
  if (!version) return fixed;
  const { current, versions } = model.versioning;
  const parameter = obj({
    name: version.name,
    in: "header",
    required: false,
    description: `The API version the request is written for; the client sends \`${current}\` unless its \`apiVersion\` option names another.`,
    schema: obj({ type: "string", enum: versions.map((v) => v.name), default: current }),
    "x-apigen-versioning": true,
  });
  return [...fixed, [sharedHeaderKey(version), parameter]];
}

/** The references of one operation to the components above, less the headers it has itself. */
export function requestHeaderRefs(model: ApiModel, endpoint: Endpoint): JsonObject[] {
  const own = new Set(
    [...endpoint.headers, ...endpoint.params.filter((p) => p.placement === "header")].map((h) =>
      h.name.toLowerCase(),
    ),
  );
  const version = versionHeader(model);
  return [...model.fixedHeaders.filter(isHeaderParameter), ...(version ? [version] : [])]
    .filter((h) => !own.has(h.name.toLowerCase()))
    .map((h) => parameterRef(sharedHeaderKey(h)));
}

/**
 * The root's `x-apigen-headers`: every header sent on every request, by name, its value (or
 * `{ value, description, x-undocumented }` where the spec documents it).
 */
export function fixedHeadersRoot(model: ApiModel): JsonObject | undefined {
  if (!model.fixedHeaders.length) return undefined;
  return Object.fromEntries(
    model.fixedHeaders.map((h) => {
      const documented = h.docs.description !== undefined || h.docs.notes.length > 0;
      const entry = documented
        ? obj({
            value: h.value!,
            description: text(h.docs.description),
            "x-undocumented": notesOf(h.docs),
          })
        : h.value!;
      return [h.name, entry];
    }),
  );
}

/**
 * The conditional headers of an endpoint that answers 304 (`response.notModified`), as the
 * header parameters they are: `--import` reads a GET or HEAD with a 304 response and either
 * of them back as `notModified`.
 */
export function conditionalParameters(endpoint: Endpoint): JsonObject[] {
  if (!endpoint.response.notModified) return [];
  const header = (name: string, description: string) =>
    obj({ name, in: "header", required: false, description, schema: obj({ type: "string" }) });
  return [
    header(
      "If-None-Match",
      "The ETag of the copy the caller has (the call's `ifNoneMatch` option): 304 when it still matches.",
    ),
    header(
      "If-Modified-Since",
      "When the caller's copy was last modified, an HTTP date (the call's `ifModifiedSince` option): 304 when nothing changed since.",
    ),
  ];
}

/** The 304 answer of an endpoint that answers it, keyed by status; none otherwise. */
/** The second 2xx an endpoint answers with no body (`response.emptyStatus`, Spotify's 204). */
export function emptyResponse(endpoint: Endpoint): JsonObject {
  const status = endpoint.response.emptyStatus;
  if (status === undefined) return {};
  return {
    [String(status)]: obj({
      description: "No body, instead of the success body (the call resolves to undefined).",
    }),
  };
}

export function notModifiedResponse(endpoint: Endpoint): JsonObject {
  if (!endpoint.response.notModified) return {};
  const header = (description: string) => obj({ description, schema: obj({ type: "string" }) });
  return {
    "304": obj({
      description:
        "Not Modified: the caller's copy is current (the call resolves to a `NotModified`).",
      headers: obj({
        ETag: header("The validator of the current representation."),
        "Last-Modified": header("When the resource last changed."),
      }),
    }),
  };
}

/**
 * The `servers` of an endpoint served from another host: that host's address (a variable
 * named after the host, with a placeholder default in the reserved `.invalid` domain, where
 * the spec shows none), marked `x-apigen-host` with its name. None for the API's own address.
 */
export function hostServers(model: ApiModel, endpoint: Endpoint): JsonObject[] | undefined {
  const host = model.hosts.find((h) => h.name === endpoint.host);
  if (!host) return undefined;
  const about = `The \`${host.name}\` host (the client's \`hosts.${host.name}\` option).`;
  if (host.baseUrl !== undefined)
    return [
      obj({
        url: host.baseUrl,
        description: text(about, host.docs.description),
        "x-apigen-host": host.name,
      }),
    ];
  return [
    obj({
      url: `{${host.name}}`,
      description: text(
        about,
        host.docs.description,
        `Its address is not shown in the source: set the \`${host.name}\` variable. Its default is a placeholder in the reserved .invalid domain, which never resolves.`,
      ),
      variables: { [host.name]: { default: `https://${host.name.toLowerCase()}.invalid` } },
      "x-apigen-host": host.name,
    }),
  ];
}

/** The root's `x-apigen-hosts`: every host, as the spec has it, for `--import` to read back whole. */
export function hostsRoot(model: ApiModel): JsonObject | undefined {
  if (!model.hosts.length) return undefined;
  const entry = (h: Host) =>
    obj({
      baseUrl: h.baseUrl,
      description: text(h.docs.description),
      "x-undocumented": notesOf(h.docs),
    });
  return Object.fromEntries(model.hosts.map((h) => [h.name, entry(h)]));
}
