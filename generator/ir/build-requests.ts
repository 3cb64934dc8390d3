/**
 * What every request of the API carries besides an endpoint's own parts: the headers sent on
 * every request with a fixed value (`headers:` entries with one), the optional headers
 * callers may add (entries without), and versioning, by path prefix or by a request header
 * the client fills with the version the package is written for.
 */
import { isRecord, stringList, type BuildContext } from "./build-context.ts";
import type { TypeBuilder } from "./build-types.ts";
import type { Decl } from "./merge.ts";
import type { ApiVersion, Credential, Endpoint, HeaderSpec, Host, Versioning } from "./model.ts";

/** The API's headers: those every request sends (a value given), and the optional ones. */
export function apiHeadersOf(
  ctx: BuildContext,
  types: TypeBuilder,
  decls: readonly Decl<unknown>[],
): { fixed: HeaderSpec[]; shared: HeaderSpec[] } {
  const fixed: HeaderSpec[] = [];
  const shared: HeaderSpec[] = [];
  for (const d of decls) {
    const v = d.value;
    if (typeof v === "string") {
      fixed.push({ name: d.name, value: v, required: true, docs: { notes: [] } });
      continue;
    }
    const data = isRecord(v) ? v : {};
    const docs = ctx.docs(d.file, d.path, data);
    if (typeof data.value === "string")
      fixed.push({ name: d.name, value: data.value, required: true, docs });
    else
      shared.push({
        name: d.name,
        ...(data.schema !== undefined
          ? { schema: types.node(d.file, [...d.path, "schema"], data.schema) }
          : {}),
        required: false,
        docs,
      });
  }
  return { fixed, shared };
}

/** Why a header cannot be one the API sends on every request, when it cannot. */
function reservedFor(name: string, credentials: readonly Credential[]): string | undefined {
  const lower = name.toLowerCase();
  if (lower === "content-type")
    return "each request body has its own Content-Type (an endpoint's `contentType`)";
  if (lower === "authorization") return "it carries a credential: declare it under `credentials`";
  const credential = credentials.find(
    (c) => c.placement !== "signature" && c.header?.toLowerCase() === lower,
  );
  return credential ? `credential ${credential.id} is sent in it` : undefined;
}

/**
 * The versioning section: its scheme (path prefixes when it names none), and the keys each
 * scheme needs and the other does not take, each problem at its key.
 */
export function versioningOf(
  ctx: BuildContext,
  decl: Decl | undefined,
  versions: readonly ApiVersion[],
  versionDecls: readonly Decl[],
): Versioning {
  const v = decl?.value ?? {};
  const scheme = v.scheme === "header" ? "header" : "path-prefix";
  const at = (key: string) => decl!.file.locate([...decl!.path, key], "key");
  const words = scheme === "header" ? "header" : "path prefix";
  const misplaced = (key: string, where: ReturnType<typeof at>) =>
    ctx.bag.report(
      "versioning-key-misplaced",
      { key, belongs: scheme === "header" ? "path prefix" : "header", scheme: words },
      where,
    );
  if (scheme === "header") {
    if (typeof v.header !== "string")
      ctx.bag.report(
        "versioning-key-missing",
        { key: "header", scheme: words, why: "the request header that names the version" },
        decl!.file.locate([...decl!.path, "scheme"]),
      );
    if (typeof v.current !== "string")
      ctx.bag.report(
        "versioning-key-missing",
        { key: "current", scheme: words, why: "the version the client sends unless told another" },
        decl!.file.locate([...decl!.path, "scheme"]),
      );
    else if (!versions.some((ver) => ver.name === v.current))
      ctx.bag.report(
        "versioning-current-unknown",
        { name: v.current, declared: versions.map((ver) => ver.name).join(", ") || "none" },
        decl!.file.locate([...decl!.path, "current"]),
      );
    for (const d of versionDecls)
      if (d.value.prefix !== undefined) misplaced("prefix", d.file.locate([...d.path, "prefix"]));
  } else {
    for (const key of ["header", "current"]) if (v[key] !== undefined) misplaced(key, at(key));
    for (const d of versionDecls)
      if (typeof d.value.prefix !== "string")
        ctx.bag.report(
          "versioning-key-missing",
          { key: "prefix", scheme: words, why: `the path prefix of version ${d.name}'s endpoints` },
          d.file.locate(d.path, "key"),
        );
  }
  return {
    scheme,
    ...(scheme === "header" && typeof v.header === "string" ? { header: v.header } : {}),
    ...(scheme === "header" && typeof v.current === "string" ? { current: v.current } : {}),
    versions: [...versions],
    rules: stringList(v.rules),
    docs: decl ? ctx.docs(decl.file, decl.path, decl.value) : { notes: [] },
  };
}

/**
 * Headers the API sends on every request, and the version header, must be neither the body's
 * Content-Type nor a credential's header, nor one another: each is reported at its key.
 */
export function checkApiHeaders(
  ctx: BuildContext,
  headerDecls: readonly Decl<unknown>[],
  fixed: readonly HeaderSpec[],
  versioning: Versioning,
  versioningDecl: Decl | undefined,
  credentials: readonly Credential[],
): void {
  const fixedNames = new Set(fixed.map((h) => h.name));
  for (const d of headerDecls) {
    if (!fixedNames.has(d.name)) continue;
    const why = reservedFor(d.name, credentials);
    if (why)
      ctx.bag.report("header-fixed-reserved", { name: d.name, why }, d.file.locate(d.path, "key"));
  }
  const header = versioning.header;
  if (header === undefined || !versioningDecl) return;
  const listed = headerDecls.some((d) => d.name.toLowerCase() === header.toLowerCase());
  const why =
    reservedFor(header, credentials) ??
    (listed ? "the API's `headers:` lists it too; the versioning fills it" : undefined);
  if (why)
    ctx.bag.report(
      "header-fixed-reserved",
      { name: header, why },
      versioningDecl.file.locate([...versioningDecl.path, "header"]),
    );
}

/** The conditional headers a call sends from its options, which no parameter may send too. */
const conditionalHeaders: Readonly<Record<string, string>> = {
  "if-none-match": "ifNoneMatch",
  "if-modified-since": "ifModifiedSince",
};

/**
 * `notModified` only where a 304 can be a call's answer: a GET or HEAD with a 2xx response that
 * neither pages nor streams; and no header parameter of the conditional headers beside it.
 */
export function checkNotModified(
  ctx: BuildContext,
  decls: readonly Decl[],
  endpoints: readonly Endpoint[],
): void {
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  for (const decl of decls) {
    const endpoint = byId.get(decl.name);
    if (!endpoint?.response.notModified) continue;
    const { method, response } = endpoint;
    const why =
      method !== "GET" && method !== "HEAD"
        ? `needs a GET or HEAD endpoint; ${endpoint.id} is a ${method}`
        : response.status < 200 || response.status > 299
          ? `needs a 2xx response; this one is ${response.status}`
          : endpoint.pagination
            ? "cannot go with pagination: a walk reads every page whole"
            : response.stream || endpoint.streamResponse
              ? "cannot go with a stream"
              : undefined;
    if (why)
      ctx.bag.report(
        "not-modified-misplaced",
        { why },
        decl.file.locate([...decl.path, "response", "notModified"]),
      );
    for (const param of endpoint.params) {
      const option = conditionalHeaders[param.name.toLowerCase()];
      if (param.placement === "header" && option)
        ctx.bag.report("param-header-conditional", { name: param.name, option }, param.location);
    }
  }
}

/** The API's other addresses (`hosts:`), in spec order. */
export function hostsOf(ctx: BuildContext, decls: readonly Decl[]): Host[] {
  return decls.map((d) => ({
    name: d.name,
    ...(typeof d.value.baseUrl === "string" ? { baseUrl: d.value.baseUrl } : {}),
    docs: ctx.docs(d.file, d.path, d.value),
    location: d.file.locate(d.path, "key"),
  }));
}

/** An endpoint's `host` names one of `hosts:` (`host-unknown` at the key, naming those there are). */
export function checkHosts(
  ctx: BuildContext,
  hosts: readonly Host[],
  decls: readonly Decl[],
  endpoints: readonly Endpoint[],
): void {
  const names = new Set(hosts.map((h) => h.name));
  const declared = hosts.length ? hosts.map((h) => h.name).join(", ") : "none";
  const byId = new Map(decls.map((d) => [d.name, d]));
  for (const endpoint of endpoints) {
    if (endpoint.host === undefined || names.has(endpoint.host)) continue;
    const decl = byId.get(endpoint.id)!;
    ctx.bag.report(
      "host-unknown",
      { name: endpoint.host, declared },
      decl.file.locate([...decl.path, "host"]),
    );
  }
}
