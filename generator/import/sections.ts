/**
 * The document-wide sections of an imported spec: `api` from `info`, `environments` from
 * `servers`, `credentials` from `components.securitySchemes`.
 */
import { tokenSchemeNamed } from "./oauth.ts";
import { pascalCase } from "../ir/casing.ts";
import {
  componentsOf,
  credentialId,
  isObject,
  noCredentialReason,
  note,
  ownDocument,
  ownNames,
  securityScheme,
  setEntry,
  stringOf,
  under,
  withoutKey,
  type ImportContext,
} from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { gapConvention } from "../emit/openapi/document.ts";
import { schemeParagraphStart } from "../emit/openapi/security.ts";
import { carryNotes, typeOf } from "./schemas.ts";
import { splitDescription } from "./operations.ts";
import { serverAddress } from "./server-variables.ts";
import { addressProblem } from "../runtime/client/environments.ts";

const rootAt = (ctx: ImportContext): Pointer => ({ file: ctx.doc.root.path, pointer: "#" });

/** `api`: the package name, title, version, client name and description. */
export function apiSection(ctx: ImportContext, packageName?: string): JsonObject {
  const root = ctx.doc.root.value as JsonObject;
  const info = isObject(root.info) ? root.info : {};
  const title = stringOf(info, "title")?.trim() || "API";
  const name = titleName(title);
  const words = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const api: JsonObject = {
    name:
      packageName ?? (words ? (words.endsWith("api") ? words : `${words}-api`) : "imported-api"),
    title,
    version: "0.0.0",
    clientName: clientNameOf(name),
    baseUrl: "api_base_url",
  };
  // apigen's own document names them (x-apigen-api), and ends the description with its gap convention.
  const own = ownNames(ctx) ?? {};
  for (const key of ["name", "clientName", "baseUrl", "callbackBaseUrl"] as const)
    if (typeof own[key] === "string" && !(key === "name" && packageName)) api[key] = own[key];
  const description = stringOf(info, "description")?.split(gapConvention).join("").trim();
  if (description) api.description = description;
  carryNotes(root, api);
  carryNotes(info, api);
  api.version = packageVersion(ctx, info, api);
  // OpenAPI requires both; a document without them (a comment that took `info` with it, a
  // hand-written draft) still imports, and says what it was given instead
  const infoAt = isObject(root.info) ? under(rootAt(ctx), "info") : rootAt(ctx);
  if (!stringOf(info, "title")?.trim())
    note(ctx, api, infoAt, `no info.title: the API is titled ${title}`);
  if (stringOf(info, "version") === undefined)
    note(ctx, api, infoAt, `no info.version: the package version is ${api.version}`);
  for (const key of ["termsOfService", "contact", "license", "summary"] as const)
    if (info[key] !== undefined) note(ctx, api, under(rootAt(ctx), "info", key), `info.${key}`);
  return api;
}

/**
 * The client class's name from the title's name: PascalCase, and a type name must begin with a
 * letter, so a title that begins with a digit (`1Forge`, `1,000,000+ Recipe…`) is prefixed `Api`.
 * A name that ends in `Client` already (AutoRest's `DnsManagementClient`) is not given another.
 */
export function clientNameOf(name: string): string {
  const stem = pascalCase(name).replace(/(?<=.)Client$/, "");
  return /^[A-Z]/.test(stem) ? `${stem}Client` : `Api${stem}Client`;
}

/** Words of a title that say what the document is, not whose API it is. */
const documentWords =
  /\b(?:official|open ?api|swagger(?: ui)?|spec(?:ification)?|rest|http|api|documentation|docs|v\d+(?:\.\d+)*|\d+(?:\.\d+)+)\b/gi;

/**
 * The API's own name in a document's title, for the package and client names: the words
 * before a ` - `, `+`, `(` or `:` aside, or a phrase after "API" that begins `with`, `from`,
 * `by` or `using` (Spotify's "Spotify Web API with fixes and improvements from sonallux" is
 * Spotify Web), without a possessive or words such as "official OpenAPI spec" or
 * "documentation" (GitHub's "GitHub's official OpenAPI spec + Octokit extension" is GitHub,
 * "Swagger Petstore - OpenAPI 3.0" is Swagger Petstore, "Twitch API Swagger UI (Unofficial)"
 * is Twitch). The whole title when nothing is left.
 */
export function titleName(title: string): string {
  // "<name> API with …": what follows the API's name is about the document
  const named = /^(.*?\bapi)\s+(?:with|from|by|using)\s/i.exec(title)?.[1] ?? title;
  const head = named
    .split(/\s[-–—]\s|[+(:|]/)[0]!
    .replace(/[’']s\b/g, "")
    // grpc-gateway titles a document by its file (`lightning.proto`)
    .replace(/\.(?:proto|json|ya?ml)\s*$/i, "");
  const kept = head.replace(documentWords, " ").replace(/\s+/g, " ").trim();
  if (kept) return kept;
  return (
    head
      .replace(/\bapi\b/gi, " ")
      .replace(/\s+/g, " ")
      .trim() || title
  );
}

/** What the format's `api.version` takes: semver without build metadata (npm drops it). */
const semver = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * The package version from `info.version`, which OpenAPI leaves free-form: `10` or `1.2` is
 * padded to semver, anything else becomes 0.0.0; either change is noted.
 */
function packageVersion(ctx: ImportContext, info: JsonObject, api: JsonObject): string {
  const given = stringOf(info, "version")?.trim();
  if (given === undefined || semver.test(given)) return given ?? "0.0.0";
  const short = /^(\d+)(?:\.(\d+))?$/.exec(given);
  const build = /^(.+)\+[0-9A-Za-z.-]+$/.exec(given)?.[1];
  const version = short
    ? `${short[1]}.${short[2] ?? 0}.0`
    : build !== undefined && semver.test(build)
      ? build
      : "0.0.0";
  note(
    ctx,
    api,
    under(rootAt(ctx), "info", "version"),
    `info.version ${given}, written as ${version}`,
  );
  return version;
}

const verifiesSentence =
  "The receiver verifies this header with the signing secret before trusting the body.";

/** `timestamp` or `deliveryId` of a signature credential from apigen's extension, when it is one `{ in, name }`. */
function replayPlace(
  value: JsonValue | undefined,
  key: string,
  places: readonly string[],
): JsonObject {
  if (!isObject(value)) return {};
  const place = stringOf(value, "in");
  const name = stringOf(value, "name");
  const format = key === "timestamp" ? stringOf(value, "format") : undefined;
  return place !== undefined && places.includes(place) && name
    ? { [key]: { in: place, name, ...(format === "date-time" ? { format } : {}) } }
    : {};
}

/**
 * `scheme`, `prefix`, `signs`, `timestamp` and `deliveryId` of a signature credential from apigen's
 * extensions (`x-apigen-signature-scheme`, `x-apigen-timestamp`, `x-apigen-delivery-id`); the
 * places a scheme implies come back declared, which the scheme allows.
 */
function signingOf(parameter: JsonObject): JsonObject {
  const declared = parameter["x-apigen-signature-scheme"];
  const scheme = isObject(declared) ? stringOf(declared, "name") : undefined;
  const prefix = isObject(declared) ? stringOf(declared, "prefix") : undefined;
  const signs = isObject(declared) ? stringOf(declared, "signs") : undefined;
  return {
    ...(scheme !== undefined ? { scheme } : {}),
    ...(prefix !== undefined ? { prefix } : {}),
    ...(signs !== undefined ? { signs } : {}),
    ...replayPlace(parameter["x-apigen-timestamp"], "timestamp", ["header", "signature"]),
    ...replayPlace(parameter["x-apigen-delivery-id"], "deliveryId", ["header", "body"]),
  };
}

/**
 * apigen's signature credentials: OpenAPI has no scheme for them, so its document describes
 * each as the header parameter inbound calls carry, named by `x-apigen-signature`.
 */
function signatureCredentials(ctx: ImportContext): JsonObject {
  const out: JsonObject = {};
  for (const [key, parameter] of Object.entries(componentsOf(ctx, "parameters"))) {
    if (!isObject(parameter) || typeof parameter["x-apigen-signature"] !== "string") continue;
    const text = stringOf(parameter, "description") ?? "";
    const paragraphs = text
      .split("\n\n")
      .filter((p) => p !== verifiesSentence && !p.startsWith(schemeParagraphStart));
    const docs = credentialDocs(paragraphs.join("\n\n"));
    const credential: JsonObject = {
      ...(docs.description !== undefined ? { description: docs.description } : {}),
      in: "signature",
      header: stringOf(parameter, "name") ?? key,
      ...signingOf(parameter),
      ...withoutKey(docs, "description"),
    };
    carryNotes(parameter, credential);
    out[parameter["x-apigen-signature"]] = credential;
  }
  return out;
}

/**
 * A credential's description, and the `Used by: …` and `Rules:` paragraphs apigen folds into
 * it, as `description`, `usedBy` and `rules`.
 */
function credentialDocs(text: string | undefined): JsonObject {
  const { description, rules } = splitDescription(text, false);
  const paragraphs = (description ?? "").split("\n\n");
  const last = paragraphs.at(-1) ?? "";
  const usedBy = /^Used by: (.+)\.$/s.exec(last)?.[1];
  if (usedBy !== undefined) paragraphs.pop();
  const rest = paragraphs.join("\n\n").trim();
  return {
    ...(rest ? { description: rest } : {}),
    ...(usedBy !== undefined ? { usedBy } : {}),
    ...(rules.length ? { rules } : {}),
  };
}

/** Whether a server's address (its variables at their defaults) is an http(s) URL with a host. */
function isAddress(url: string): boolean {
  if (!/^https?:\/\/\S+$/.test(url)) return false;
  try {
    return new URL(url).hostname !== "";
  } catch {
    return false;
  }
}

/** `environments`: one per server, named from its name (OpenAPI 3.2) or its description. */
export function environmentsSection(ctx: ImportContext): JsonObject | undefined {
  const root = ctx.doc.root.value as JsonObject;
  if (!Array.isArray(root.servers) || root.servers.length === 0) return undefined;
  const out: JsonObject = {};
  root.servers.forEach((server, i) => {
    if (!isObject(server)) return;
    const at = under(rootAt(ctx), "servers", i);
    let url = stringOf(server, "url") ?? "";
    const environment: JsonObject = {};
    // apigen writes an environment whose address the spec does not show as its placeholder.
    const baseUrl = ownNames(ctx)?.baseUrl;
    const unshown = typeof baseUrl === "string" && url === `{${baseUrl}}`;
    const address = unshown
      ? { url }
      : serverAddress(ctx, url, server.variables, under(at, "variables"), environment);
    url = address.url;
    const written = stringOf(server, "description");
    // …and says so in a paragraph of its own.
    const description = unshown
      ? written
          ?.split("\n\n")
          .filter((p) => !/^The base address of .* is not shown in the source: set the /.test(p))
          .join("\n\n")
      : written;
    if (description?.trim()) environment.description = description.trim();
    carryNotes(server, environment);
    const sample = address.variables ? url.replace(/\{[^{}]*\}/g, "1") : url;
    const refused = isAddress(sample) ? addressProblem(sample) : undefined;
    if (unshown) {
      // the spec's own note says so
    } else if (refused) {
      // a query or a user name in it: the client would refuse the environment when made
      note(ctx, environment, under(at, "url"), `server URL ${url} ${refused}: left out`);
    } else if (isAddress(sample)) {
      environment.baseUrl = url.replace(/\/+$/, "");
      if (address.variables) environment.variables = address.variables;
    } else if (/^https?:/.test(url))
      // Shlink's `{scheme}://{host}`, whose host defaults to "": no address to call
      note(ctx, environment, under(at, "url"), `server URL ${url} names no host`);
    else note(ctx, environment, under(at, "url"), `relative server URL ${url}`);
    const snake = (text: string) =>
      text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "");
    const given = stringOf(server, "x-environment");
    // OpenAPI 3.2 names a server (`name: Production`); earlier documents describe it
    let name =
      given ??
      (snake(stringOf(server, "name") ?? description ?? "")
        .slice(0, 40)
        .replace(/_+$/, "") ||
        (i === 0 ? "production" : `server_${i + 1}`));
    if (!/^[a-z]/.test(name)) name = `server_${name}`;
    for (let n = 2; out[name] !== undefined; n++) name = `${name.replace(/_\d+$/, "")}_${n}`;
    out[name] = environment;
  });
  return out;
}

/**
 * `credentials`: API keys in a header or the query, HTTP bearer and basic; OAuth2 and OpenID
 * Connect as token credentials with their flows or provider (oauth.ts). A scheme the client
 * cannot send (`noCredentialReason`: mutualTLS, a header name no request can send) is none;
 * it is a gap on `api`, at the scheme.
 */
export function credentialsSection(ctx: ImportContext, api: JsonObject): JsonObject | undefined {
  const schemes = componentsOf(ctx, "securitySchemes");
  const out: JsonObject = {};
  for (const [name, raw] of Object.entries(schemes)) {
    const at = under(rootAt(ctx), "components", "securitySchemes", name);
    const scheme = securityScheme(ctx, raw, at);
    if (!isObject(scheme)) continue;
    const noCredential = noCredentialReason(name, scheme);
    if (noCredential) {
      note(ctx, api, scheme.type === "apiKey" ? under(at, "name") : at, noCredential);
      continue;
    }
    const credential: JsonObject = {};
    Object.assign(credential, credentialDocs(stringOf(scheme, "description")));
    carryNotes(scheme, credential);
    const type = stringOf(scheme, "type");
    if (type === "apiKey") {
      const where = stringOf(scheme, "in");
      if (where === "query")
        Object.assign(credential, { in: "query", name: stringOf(scheme, "name") ?? name });
      else {
        Object.assign(credential, {
          in: "header",
          header: stringOf(scheme, "name") ?? "Authorization",
        });
        if (where === "cookie")
          note(ctx, credential, at, "an API key in a cookie; written as a header");
      }
    } else if (type === "http" && stringOf(scheme, "scheme")?.toLowerCase() === "basic") {
      credential.in = "basic";
      // the half the API fixes, as apigen's own document writes it (either, never both)
      const username = stringOf(scheme, "x-apigen-username");
      const password = stringOf(scheme, "x-apigen-password");
      if (username !== undefined) credential.username = username;
      else if (password !== undefined) credential.password = password;
    } else if (type === "http") {
      const httpScheme = stringOf(scheme, "scheme") ?? "bearer";
      Object.assign(credential, {
        in: "header",
        header: "Authorization",
        scheme: httpScheme.toLowerCase() === "bearer" ? "Bearer" : httpScheme,
      });
    } else {
      const token = tokenSchemeNamed(ctx, name);
      for (const { at: where, text } of token?.notes ?? []) note(ctx, credential, where, text);
      if (token?.credential) Object.assign(credential, token.credential);
      else {
        Object.assign(credential, { in: "header", header: "Authorization", scheme: "Bearer" });
        note(
          ctx,
          credential,
          at,
          `${type ?? "unknown"} security scheme${token ? " without a usable flow or provider" : ""}; its token is sent as a bearer token, how it is obtained is not carried`,
        );
      }
    }
    out[credentialId(ctx, name)] = credential;
  }
  Object.assign(out, signatureCredentials(ctx));
  Object.assign(out, otherCredentials(ctx));
  return Object.keys(out).length ? out : undefined;
}

/**
 * The credentials apigen's own document lists in the root's `x-credentials` (neither a
 * security scheme nor a signature header: `in: none`), by their ids.
 */
function otherCredentials(ctx: ImportContext): JsonObject {
  const list = (ctx.doc.root.value as JsonObject)["x-credentials"];
  const out: JsonObject = {};
  // another document's is another tool's (extensions.ts notes it)
  if (!Array.isArray(list) || !ownDocument(ctx)) return out;
  for (const item of list) {
    if (!isObject(item) || typeof item.id !== "string" || typeof item.in !== "string") continue;
    const credential: JsonObject = {
      in: item.in,
      ...credentialDocs(stringOf(item, "description")),
    };
    carryNotes(item, credential);
    out[item.id] = credential;
  }
  return out;
}

/**
 * `headers`: the optional request headers of the whole API, as apigen writes them
 * (`components.parameters` marked `x-apigen-shared-header`).
 */
export function sharedHeadersSection(ctx: ImportContext): JsonObject | undefined {
  const parameters = componentsOf(ctx, "parameters");
  const out: JsonObject = {};
  for (const [key, parameter] of Object.entries(parameters)) {
    if (!isObject(parameter) || parameter["x-apigen-shared-header"] !== true) continue;
    const at = under(rootAt(ctx), "components", "parameters", key);
    const header: JsonObject = {};
    const description = stringOf(parameter, "description");
    if (description?.trim()) header.description = description.trim();
    header.schema = typeOf(ctx, parameter.schema ?? { type: "string" }, under(at, "schema"));
    carryNotes(parameter, header);
    setEntry(out, stringOf(parameter, "name") ?? key, header);
  }
  return Object.keys(out).length ? out : undefined;
}
