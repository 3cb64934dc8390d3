/**
 * What the importer carries through one run: the document, the names given to its schemas,
 * the spec sections being built, and the gaps noted on the way. Every loss becomes an
 * `undocumented` note on the nearest element of the output, naming the JSON pointer it came
 * from, so `--gaps` lists it.
 */
import { camelCase } from "../ir/casing.ts";
import { headerToken } from "../ir/http-headers.ts";
import {
  child,
  type JsonObject,
  type JsonValue,
  type OpenApiDocument,
  type Pointer,
} from "./document.ts";

/** A type as the spec writes it: a shorthand string or a mapping. */
export type TypeOut = string | JsonObject;

export interface ImportContext {
  doc: OpenApiDocument;
  /** `3.0`, `3.1` or `3.2` (whose schemas are 3.1's): how nullability is spelled. */
  version: "3.0" | "3.1" | "3.2";
  /** Spec type name of each component schema, by `file#pointer`. */
  schemaNames: Map<string, string>;
  /** The names in `schemaNames`, to find a free one without listing them all again. */
  takenNames: Set<string>;
  /** Named types, in the order they were named. */
  types: Map<string, TypeOut>;
  /** Where each named type came from, for its notes and the file it goes to. */
  typeSources: Map<string, Pointer>;
  /** The file (group) of each named type: the group of the endpoint that first used it. */
  typeAreas: Map<string, string>;
  /** The group being converted, given to the types it names first. */
  area: string;
  /** The API's name in PascalCase, put before a schema name the runtime already exports. */
  namePrefix: string;
  /** Names the generated package declares itself (its client, ...): a schema of one is prefixed too. */
  generatedNames: ReadonlySet<string>;
  /** Every note written, for the count `import` prints. */
  gaps: number;
  /** How many schema conversions (`typeOf`) are under way, one inside the other. */
  depth: number;
  /**
   * Named types to convert once the conversions under way are done: a type met deeper than
   * `maxEagerDepth` waits here, so a long chain of `$ref`s cannot overflow the stack.
   */
  deferred: { name: string; schema: JsonValue; at: Pointer }[];
  /** Schemas whose fields are being copied in (allOf members after the first), by location. */
  copying: Set<string>;
  /**
   * Where produced spec nodes came from in the document (an endpoint's operation, ...): the
   * live route locates a problem the loader finds in a node at the nearest recorded one.
   */
  sources: WeakMap<object, Pointer>;
}

/** Records that `node` of the spec data was made from the document at `at`. */
export function recordSource(ctx: ImportContext, node: JsonValue, at: Pointer): void {
  if (typeof node === "object" && node !== null && !ctx.sources.has(node))
    ctx.sources.set(node, at);
}

/** The key of a schema location in `schemaNames`. */
export const locationKey = (at: Pointer) => `${at.file}${at.pointer}`;

/** Adds an `undocumented` note to `target`, naming the pointer the loss came from. */
export function note(ctx: ImportContext, target: JsonObject, at: Pointer, text: string): void {
  const pointer = ctx.doc.shownPointer(at);
  noteShown(ctx, target, at.file === ctx.doc.root.path ? pointer : `${at.file}${pointer}`, text);
}

/** `note` at a place given as the user's file has it (`#/paths/...`, or `file#/...`). */
export function noteShown(
  ctx: ImportContext,
  target: JsonObject,
  where: string,
  text: string,
): void {
  const line = `${text} (import: ${where})`;
  const existing = target.undocumented;
  target.undocumented =
    existing === undefined ? line : [...(Array.isArray(existing) ? existing : [existing]), line];
  ctx.gaps++;
}

/**
 * `target[key] = value` for a key the document gives (a field, a parameter, a header, an
 * event): an own entry also for `__proto__`, which an assignment would take as the prototype.
 */
export function setEntry(target: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}

/** `Object.assign(target, source)` through `setEntry`, so a `__proto__` field is copied as one. */
export function copyEntries(target: JsonObject, source: JsonObject): void {
  for (const [key, value] of Object.entries(source)) setEntry(target, key, value);
}

/** `source[key]` when it is the object's own entry (never `Object.prototype` for `__proto__`). */
export const ownEntry = (source: JsonObject, key: string): JsonValue | undefined =>
  Object.hasOwn(source, key) ? source[key] : undefined;

/** `at`, one key deeper (a loop, not a reduce with a closure: it runs for every schema and property). */
export const under = (at: Pointer, ...keys: (string | number)[]): Pointer => {
  let pointer = at.pointer;
  for (let i = 0; i < keys.length; i++) pointer = child(pointer, keys[i]!);
  return { file: at.file, pointer };
};

/** Whether a value is a JSON object (not an array, not null). */
export const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const scalarTypeNames = new Set(["string", "integer", "number", "boolean"]);

/** Whether `type` is one of the spec format's scalar type names (`string`, `integer`, `number`, `boolean`). */
export const isScalarTypeName = (type: unknown): boolean =>
  typeof type === "string" && scalarTypeNames.has(type);

/** A string member of an object, or undefined. */
export const stringOf = (o: JsonObject, key: string): string | undefined =>
  typeof o[key] === "string" ? o[key] : undefined;

/** The document's `components.<kind>` (schemas, parameters, securitySchemes), empty when absent. */
export function componentsOf(ctx: ImportContext, kind: string): JsonObject {
  const { components } = ctx.doc.root.value as JsonObject;
  const section = isObject(components) ? components[kind] : undefined;
  return isObject(section) ? section : {};
}

/** A parameter, a request body or a response: the object itself, or what its `$ref` names. */
export function deref(
  ctx: ImportContext,
  value: JsonValue,
  at: Pointer,
): { value: JsonValue; at: Pointer } {
  let current = { value, at };
  for (let hops = 0; isObject(current.value) && typeof current.value.$ref === "string"; hops++) {
    if (hops > 32) break;
    current = ctx.doc.resolveRef(current.value.$ref, current.at);
  }
  return current;
}

/** The names apigen's own document gives (`info.x-apigen-api`), or undefined in another's. */
export function ownNames(ctx: ImportContext): JsonObject | undefined {
  const info = (ctx.doc.root.value as JsonObject).info;
  return isObject(info) && isObject(info["x-apigen-api"]) ? info["x-apigen-api"] : undefined;
}

/** A security scheme, its `$ref` (to another scheme) followed. */
export function securityScheme(ctx: ImportContext, raw: JsonValue, at: Pointer): JsonValue {
  return isObject(raw) && typeof raw.$ref === "string"
    ? ctx.doc.resolveRef(raw.$ref, at).value
    : raw;
}

/**
 * Why a security scheme is no credential of the client, as its note says it; undefined when
 * it is one. A `mutualTLS` scheme: fetch cannot present a client certificate, so a token for it
 * would be made up. An API key whose header (or cookie) name is no HTTP header name: no
 * request can send it (RapidAPI's documents put a title there, `RapidAPI.com API Key`), and a
 * credential of that name is one generate refuses.
 */
export function noCredentialReason(name: string, scheme: JsonValue): string | undefined {
  if (!isObject(scheme)) return undefined;
  if (scheme.type === "mutualTLS")
    return `security scheme ${name} is mutualTLS: the client cannot present a client certificate through fetch, so it is no credential of the client; a Node caller passes a fetch whose dispatcher (undici's Agent) carries the certificate`;
  const header = stringOf(scheme, "name");
  if (
    scheme.type === "apiKey" &&
    scheme.in !== "query" &&
    header !== undefined &&
    !headerToken.test(header)
  )
    return `security scheme ${name} sends its key in ${JSON.stringify(header)}, which is no HTTP header name (a token: letters, digits and !#$%&'*+-.^_\`|~): no request can send it, so it is no credential of the client (an overlay that names the header makes it one)`;
  return undefined;
}

/**
 * Whether a security requirement's `name` is a credential of the client: a security scheme
 * the document defines, which the client can send (`noCredentialReason`).
 */
export function isCredential(ctx: ImportContext, name: string): boolean {
  if (!Object.hasOwn(componentsOf(ctx, "securitySchemes"), name)) return false;
  const raw = componentsOf(ctx, "securitySchemes")[name]!;
  const at = { file: ctx.doc.root.path, pointer: "#/components/securitySchemes" };
  return noCredentialReason(name, securityScheme(ctx, raw, under(at, name))) === undefined;
}

/**
 * The header (lower case) a security scheme's credential travels in: `authorization` for HTTP
 * schemes, OAuth 2 and OpenID Connect, an API key's header name; undefined for a key in the
 * query or a cookie, or a scheme the document does not define.
 */
export function schemeHeader(ctx: ImportContext, name: string): string | undefined {
  if (!Object.hasOwn(componentsOf(ctx, "securitySchemes"), name)) return undefined;
  const at = { file: ctx.doc.root.path, pointer: "#/components/securitySchemes" };
  const scheme = securityScheme(ctx, componentsOf(ctx, "securitySchemes")[name]!, under(at, name));
  if (!isObject(scheme)) return undefined;
  if (scheme.type === "apiKey")
    return scheme.in === "header" && typeof scheme.name === "string"
      ? scheme.name.toLowerCase()
      : undefined;
  return ["http", "oauth2", "openIdConnect"].includes(String(scheme.type))
    ? "authorization"
    : undefined;
}

/** The methods a path item holds operations of, in the order endpoints are read. */
export const operationMethods = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
  "query",
] as const;

/**
 * The key of a path item's operation of `method`: OpenAPI 3.2's `query` (HTTP QUERY) is
 * apigen's own `x-apigen-query` in the 3.1 document it writes.
 */
export function operationKey(item: JsonObject, method: (typeof operationMethods)[number]): string {
  return method === "query" && item.query === undefined ? "x-apigen-query" : method;
}

/** Whether the document is apigen's own, whose extensions say more. */
export const ownDocument = (ctx: ImportContext): boolean => ownNames(ctx) !== undefined;

const credentialIdsOf = new WeakMap<ImportContext, Map<string, string>>();

/**
 * The spec's credential id of a security scheme: its camelCase, distinct from every other
 * scheme's and signature credential's (`a-b` and `a*b` are `aB` and `aB2`, never one).
 */
export function credentialId(ctx: ImportContext, scheme: string): string {
  let ids = credentialIdsOf.get(ctx);
  if (!ids) {
    ids = new Map();
    const used = new Set<string>();
    for (const parameter of Object.values(componentsOf(ctx, "parameters")))
      if (isObject(parameter) && typeof parameter["x-apigen-signature"] === "string")
        used.add(parameter["x-apigen-signature"]);
    for (const name of Object.keys(componentsOf(ctx, "securitySchemes"))) {
      const base = credentialName(name);
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}${n}`;
      used.add(id);
      ids.set(name, id);
    }
    credentialIdsOf.set(ctx, ids);
  }
  return ids.get(scheme) ?? credentialName(scheme);
}

/** A scheme's name as a credential id: camelCase, starting with a letter (`0-key` is `credential0Key`). */
function credentialName(scheme: string): string {
  // A scheme named with a leading acronym (FastAPI's `HTTPBasic`) is the option `httpBasic`.
  const camel = camelCase(
    scheme.replace(/^[A-Z]+(?=[A-Z][a-z]|[0-9_-]|$)/, (a) => a.toLowerCase()),
  );
  return /^[a-z]/.test(camel)
    ? camel
    : `credential${camel[0]?.toUpperCase() ?? ""}${camel.slice(1)}`;
}

/** `object` without its member `key`. */
export function withoutKey(object: JsonObject, key: string): JsonObject {
  const { [key]: _left, ...rest } = object;
  return rest;
}
