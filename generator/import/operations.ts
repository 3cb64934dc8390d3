/**
 * OpenAPI operations to spec endpoints: ids from operationId (or method and path), groups
 * from tags, parameters by where they travel, the request body by content type, the success
 * response with its headers, error statuses, and the credentials each operation sends.
 */
import { authOf } from "./operation-security.ts";
import { fetchWrittenHeaders, headerToken } from "../ir/http-headers.ts";
import { responseSchemaOf, streamTypes } from "./stream-items.ts";
import { sendsDefaultText } from "../emit/openapi/parameters.ts";
import { placementText } from "../emit/openapi/schemas.ts";
import { camelCase } from "../ir/casing.ts";
import {
  componentsOf,
  credentialId,
  deref,
  isObject,
  note,
  operationKey,
  operationMethods,
  recordSource,
  ownDocument,
  ownEntry,
  setEntry,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import { isApiErrorBody } from "./error-body.ts";
import { plainNotes } from "./extensions.ts";
import { isBinary, isJsonMedia } from "./schema-bytes.ts";
import { linkPaginationOf } from "./pagination.ts";
import {
  carriedQueryStyles,
  propertiesOf,
  queryParamsOf,
  shapeOf,
  type DelimitedStyle,
} from "./query-params.ts";
import { answersNotModified, hostOf, isFixedOrVersionHeader, notModifiedOf } from "./requests.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { asMapping, carryNotes, typeOf, withFacets } from "./schemas.ts";
import { withHeaders } from "./response-headers.ts";

/**
 * The operations of a path item, each with where it is: an operation may be a `$ref` into
 * another file of a multi-file document (DigitalOcean's 659 are), and the `$ref`s inside it
 * resolve from that file. A `$ref` that cannot be resolved is an error at it (resolveRef).
 */
export function operationsOf(
  ctx: ImportContext,
  item: JsonObject,
  itemAt: Pointer,
): { method: (typeof operationMethods)[number]; op: JsonObject; at: Pointer }[] {
  const out: { method: (typeof operationMethods)[number]; op: JsonObject; at: Pointer }[] = [];
  for (const method of operationMethods) {
    const key = operationKey(item, method);
    if (item[key] === undefined) continue;
    const { value: op, at } = deref(ctx, item[key], under(itemAt, key));
    if (isObject(op)) out.push({ method, op, at });
  }
  return out;
}

/** One endpoint with the group (file) it belongs to. */
export interface EndpointOut {
  id: string;
  group: string;
  value: JsonObject;
}

/** A group name for the spec: camelCase, starting with a letter. */
function groupName(text: string): string {
  const camel = camelCase(text);
  return /^[a-z]/.test(camel) ? camel : `api${camel[0]?.toUpperCase() ?? ""}${camel.slice(1)}`;
}

/**
 * `issues/list-for-repo` -> [issues, listForRepo]; `listPets` with tag pets -> [pets, listPets]
 * (shortened below). The group is the text it comes from; `endpointsOf` names it (`groupNamer`). Without a tag, the group is the path's first segment after the part
 * every path shares (`/v1`, `/2010-04-01/Accounts/{AccountSid}`), so a document without tags
 * is grouped by resource, not into one group of every operation.
 */
function idParts(
  op: JsonObject,
  method: string,
  path: string,
  shared: number,
): [group: string, name: string, shortName?: string] {
  const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : undefined;
  const segment = path
    .split("/")
    .filter(Boolean)
    .slice(shared)
    .find((s) => !s.startsWith("{"))
    ?.replace(/\.(json|xml)$/i, "");
  const group = tag ?? segment ?? "api";
  const operationId = withoutFastApiSuffix(stringOf(op, "operationId"), method, path);
  if (operationId) {
    const parts = operationId.split(/[/.]/).filter(Boolean);
    if (parts.length >= 2) return [parts[0]!, groupName(parts.slice(1).join("-"))];
    return [group, groupName(operationId)];
  }
  return [group, groupName(`${method} ${path}`), pathMethodName(method, path, shared, group)];
}

/**
 * The lower-case words of a name: `Server Actions`, `serverActions` and `server_actions` are
 * server and actions; an acronym stays one word (`Floating IPs`, `floating_ips`: floating, ips).
 */
const wordsOf = (text: string): string[] =>
  text
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.split(/(?<=[a-z0-9])(?=[A-Z])/))
    .map((word) => word.toLowerCase())
    .filter(Boolean);

/**
 * A method name for an operation without an operationId, from its method and path: the
 * path's words after the part every path shares, less the segments that name its group
 * (`servers`, `server`), a parameter before another segment left out (that segment says what
 * is reached) and a last one as `by` and its name. `GET /servers/{id}` in `servers` is
 * `getById`, `POST /servers/{id}/actions/reboot` in `Server Actions` is `postReboot`, rather
 * than `getServersId` and `postServersIdActionsReboot`, which repeat the group.
 */
function pathMethodName(method: string, path: string, shared: number, group: string): string {
  const groupWords = new Set(wordsOf(group).flatMap((w) => [w, w.replace(/s$/, ""), `${w}s`]));
  const segments = path
    .split("/")
    .filter(Boolean)
    .slice(shared)
    .map((s) => s.replace(/\.(json|xml)$/i, ""));
  const kept = segments.flatMap((segment, i) => {
    const param = /^\{([^{}]+)\}$/.exec(segment)?.[1];
    if (param !== undefined) return i === segments.length - 1 ? [`by ${param}`] : [];
    const words = wordsOf(segment);
    return words.length > 0 && words.every((w) => groupWords.has(w)) ? [] : [segment];
  });
  return groupName(`${method} ${kept.join(" ")}`);
}

/**
 * FastAPI's operationIds end with the path and the method (`list_courses_v1_courses_get` for
 * GET /v1/courses: the route's name, then the path with every non-word character as `_`,
 * then `_` and the method), which would repeat in every method name; the route's name is kept.
 */
function withoutFastApiSuffix(
  operationId: string | undefined,
  method: string,
  path: string,
): string | undefined {
  const suffix = `${path.replace(/\W/g, "_")}_${method.toLowerCase()}`;
  return operationId?.endsWith(suffix) && operationId.length > suffix.length
    ? operationId.slice(0, -suffix.length)
    : operationId;
}

/**
 * Group names by the text they come from: two texts of one camelCase (`a-b` and `a*b`, or
 * `users` and `Users`) are two groups (`aB` and `aB2`), never one.
 */
function groupNamer(): (text: string) => string {
  const byText = new Map<string, string>();
  const used = new Set<string>();
  return (text) => {
    const known = byText.get(text);
    if (known !== undefined) return known;
    const base = groupName(text);
    let group = base;
    for (let n = 2; used.has(group); n++) group = `${base}${n}`;
    used.add(group);
    byText.set(text, group);
    return group;
  };
}

/** How many leading literal segments every path shares (`/v1/...` everywhere: 1). */
function sharedSegments(paths: readonly string[]): number {
  const split = paths.map((p) => p.split("/").filter(Boolean));
  let n = 0;
  for (; split.length > 1 && split.every((s) => s.length > n + 1); n++) {
    const first = split[0]![n]!;
    if (first.startsWith("{") || !split.every((s) => s[n] === first)) break;
  }
  return n;
}

/** Names a client method must not take: they are the class's own. */
const reservedMethodNames = new Set(["constructor", "prototype", "toString", "valueOf"]);

/**
 * A method name without its group's word (`pets.listPets` -> `pets.list`, `things.thingsGet`
 * -> `things.get`; for a name made from the path, the one pathMethodName made), when what is
 * left is a name and no other endpoint of the group has it; else the whole name.
 */
function shortNames(
  parts: readonly [group: string, name: string, shortName?: string | undefined][],
): string[] {
  const strip = ([group, name, shortName]: readonly [
    string,
    string,
    (string | undefined)?,
  ]): string => {
    if (shortName !== undefined) return shortName;
    const words = [group, group.replace(/s$/, "")].filter((w) => w.length > 0);
    for (const word of words) {
      const pascal = word[0]!.toUpperCase() + word.slice(1);
      if (name.startsWith(word) && /^[A-Z]/.test(name.slice(word.length)))
        return name[word.length]!.toLowerCase() + name.slice(word.length + 1);
      // Only a verb is left (`listPets` -> `list`), not part of a phrase (`getMyUser`).
      const rest = name.slice(0, -pascal.length);
      if (name.endsWith(pascal) && /^[a-z]+$/.test(rest)) return rest;
    }
    return name;
  };
  const short = parts.map(strip);
  const count = new Map<string, number>();
  parts.forEach(([group, name], i) => {
    for (const id of new Set([`${group}.${name}`, `${group}.${short[i]}`]))
      count.set(id, (count.get(id) ?? 0) + 1);
  });
  return parts.map(([group, name], i) => {
    const s = short[i]!;
    const ok = s !== name && /^[a-z][A-Za-z0-9]*$/.test(s) && !reservedMethodNames.has(s);
    return ok && count.get(`${group}.${s}`) === 1 ? s : name;
  });
}

/** Every operation of `paths`, in document order, with unique ids. */
export function endpointsOf(ctx: ImportContext, hosts?: JsonObject): EndpointOut[] {
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const found: { path: string; item: PathItem; method: string; op: JsonObject; at: Pointer }[] = [];
  for (const [path, item0] of Object.entries(paths)) {
    const { value: item, at: itemAt } = deref(ctx, item0, under(rootAt, "paths", path));
    if (!isObject(item)) continue;
    for (const { method, op, at } of operationsOf(ctx, item, itemAt))
      found.push({ path, item: { item, at: itemAt }, method, op, at });
  }
  const shared = sharedSegments(Object.keys(paths));
  const groupOf = groupNamer();
  const parts = found.map((f): [string, string, (string | undefined)?] => {
    const [text, name, shortName] = idParts(f.op, f.method, f.path, shared);
    return [groupOf(text), name, shortName];
  });
  const names = ownDocument(ctx) ? parts.map(([, name]) => name) : shortNames(parts);
  const out: EndpointOut[] = [];
  const taken = new Set<string>();
  const shapes = new Map<string, { path: string; names: string[] }>();
  const routes = new Map<string, JsonObject>();
  found.forEach(({ path, item, method, op, at }, i) => {
    const group = parts[i]![0];
    const name = names[i]!;
    // Box and OpenAI tell operations of one route apart by a `#fragment` or `?query` in the path
    // key; a request sends neither, and one route is one endpoint: the first is kept.
    // TRACE is written as GET (fetch cannot send it): beside a GET (httpbin's), it is that route.
    const sent = method === "trace" ? "get" : method;
    const route = `${sent} /${path
      .replace(/[#?].*$/, "")
      .replace(/^\//, "")
      .replace(/\{[^}]*\}/g, "{}")}`;
    const first = routes.get(route);
    if (first) {
      note(ctx, first, at, `${method.toUpperCase()} ${path} has this endpoint's route; left out`);
      return;
    }
    let id = `${group}.${name}`;
    for (let n = 2; taken.has(id); n++) id = `${group}.${name}${n}`;
    taken.add(id);
    ctx.area = group;
    // the path a request sends: Box's and Mistral's fragments (`/v1/connectors/{id}#id` beside
    // `{id_or_name}#idOrName`) tell path items apart, but one route has one set of names
    const pathNames = namesOfShape(shapes, withoutWildcards(path).replace(/[#?].*$/, ""));
    const value = endpointOf(ctx, item, op, method, path, at, pathNames, hosts);
    routes.set(route, value);
    recordSource(ctx, value, at);
    out.push({ id, group, value });
  });
  return out;
}

/**
 * A path with its wildcard segments as plain ones: `{*path}` (Goa's and ASP.NET's catch-all),
 * `{path*}` and `{+path}` (URI templates' explode and reserved forms) each name the parameter
 * `path`, which the operation declares under that name.
 */
function withoutWildcards(path: string): string {
  return path.replace(/\{[*+]?(\w[^}*]*)\*?\}/g, "{$1}");
}

/**
 * A path with a wildcard segment: the parameter of a last one, a string, is a catch-all
 * (`slashes: true`: its value's slashes sent as they are, as the server's router takes the
 * rest of the path); any other wildcard is sent as one segment, noted.
 */
function catchAll(
  ctx: ImportContext,
  path: string,
  params: JsonObject,
  pathName: (name: string) => string,
  at: Pointer,
  out: JsonObject,
): void {
  const last = /\/\{[*+]?(\w[^}*]*)\*?\}$/.exec(path.replace(/[#?].*$/, ""));
  const key = last && withoutWildcards(last[0]) !== last[0] ? pathName(last[1]!) : undefined;
  const spec = key === undefined ? undefined : params[key];
  if (spec === "string" || (isObject(spec) && spec.type === "string" && spec.in === undefined)) {
    params[key!] = { ...asMapping(spec), slashes: true };
    note(ctx, out, at, `path ${path}: its last parameter takes the rest of the path, slashes kept`);
  } else
    note(
      ctx,
      out,
      at,
      `path ${path}: a wildcard segment is the parameter it names, sent as one segment (its slashes percent-encoded)`,
    );
}

/** How a path's parameters are renamed (below) and the first path of its shape. */
interface PathNames {
  first: string;
  /** The placeholder of each parameter name of the path, where it is not the name itself. */
  rename: Map<string, string>;
  /** Whether the path differs from the first of its shape in its parameters' names. */
  differs: boolean;
}

/**
 * The placeholders of a path: each name in word characters (as the format's path templates
 * take them), distinct (`{a-b}` and `{a*b}` are `a_b` and `a_b2`, never one parameter).
 * OpenAPI forbids two paths that differ only in their parameters' names (GitHub's document
 * has `/orgs/{org}/attestations/{attestation_id}` and `.../{subject_digest}`), and so does the
 * format: a later path of the same shape takes the first one's names.
 */
function namesOfShape(
  shapes: Map<string, { path: string; names: string[] }>,
  path: string,
): PathNames {
  const given = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
  const taken = new Set<string>();
  const own = new Map<string, string>();
  for (const name of given) {
    if (own.has(name)) continue;
    const base = placeholder(name);
    let word = base;
    for (let n = 2; taken.has(word); n++) word = `${base}${n}`;
    taken.add(word);
    own.set(name, word);
  }
  const names = given.map((name) => own.get(name)!);
  const shape = path.replace(/\{[^}]*\}/g, "{}");
  const first = shapes.get(shape) ?? { path, names };
  shapes.set(shape, first);
  const rename = new Map<string, string>();
  let differs = false;
  given.forEach((name, i) => {
    const word = first.names[i] ?? names[i]!;
    if (word !== names[i]) differs = true;
    if (word !== name) rename.set(name, word);
  });
  return { first: first.path, rename, differs };
}

/** A path item and where it is (its parameters' `$ref`s resolve from there). */
export interface PathItem {
  item: JsonObject;
  at: Pointer;
}

function endpointOf(
  ctx: ImportContext,
  item: PathItem,
  op: JsonObject,
  method: string,
  path: string,
  at: Pointer,
  names: PathNames,
  hosts: JsonObject | undefined,
): JsonObject {
  const out: JsonObject = {};
  const summary = stringOf(op, "summary");
  // apigen writes the endpoint id where the spec has no summary.
  if (summary && summary !== stringOf(op, "operationId")) out.summary = summary.trim();
  const testingOnly = op["x-testing-only"] === true;
  const { description, rules } = splitDescription(stringOf(op, "description"), testingOnly);
  if (description) out.description = description;
  if (method === "trace") note(ctx, out, at, "method TRACE; written as GET");
  out.method = method === "trace" ? "GET" : method.toUpperCase();
  const pathName = (name: string) => names.rename.get(name) ?? placeholder(name);
  // Box tells operations of one path apart by a fragment (`/files/{id}#add_shared_link`), which no request sends.
  const stripped = withoutWildcards(path).replace(/[#?].*$/, "");
  // OpenAPI's paths begin with `/`; phpMyFAQ's `v4.0/faqs/latest` is the route under the server
  const sent = stripped.startsWith("/") ? stripped : `/${stripped}`;
  if (/[#?]/.test(path) || sent !== stripped)
    note(ctx, out, at, `path ${path}: written as ${sent}`);
  out.path = sent.replace(/\{([^}]*)\}/g, (_, name: string) => `{${pathName(name)}}`);
  if (names.differs) {
    const renamed = [...names.rename].map(([from, to]) => `${from} as ${to}`).join(", ");
    const why = `differs from ${names.first} only in parameter names, which OpenAPI forbids`;
    note(ctx, out, at, `path ${path} ${why}; written with ${renamed}`);
  } else if (out.path !== sent)
    note(ctx, out, at, `path parameters renamed to word characters (${path})`);
  if (rules.length) out.rules = rules;
  if (testingOnly) out.testingOnly = true;
  const auth = authOf(ctx, op, at, out);
  if (auth.length) out.auth = auth;
  const inPath = new Set([...sent.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!));
  const params = paramsOf(ctx, item, op, at, out, pathName, inPath);
  if (stripped !== path.replace(/[#?].*$/, "")) catchAll(ctx, path, params, pathName, at, out);
  withoutTrailingSegments(out, params);
  fixedQuery(path, params);
  if (isObject(op["x-apigen-headers"]))
    out.headers = mergedHeaders(op, op["x-apigen-headers"], out);
  if (op.requestBody !== undefined && bodyIsQuery(ctx, op, at, method))
    bodyAsQuery(ctx, op, at, out, params);
  else bodyOf(ctx, op, at, out);
  if (Object.keys(params).length) out.params = params;
  responsesOf(ctx, op, at, out);
  const flagStream = flagStreamOf(ctx, op, at) ?? eventStreamOf(ctx, op, at, out);
  if (flagStream) out.streamResponse = flagStream;
  // Paging apigen wrote comes back as the endpoint's pagination, its keys as the spec's.
  // In apigen's own document an operation without it does not page, whatever headers it declares.
  if (isObject(op["x-apigen-pagination"])) out.pagination = op["x-apigen-pagination"];
  else if (!ownDocument(ctx)) {
    const linked = linkPaginationOf(ctx, op, at);
    if (linked) out.pagination = linked;
  }
  // apigen's own: where a call lists the fields to expand.
  if (typeof op["x-apigen-expand"] === "string") out.expand = op["x-apigen-expand"];
  notModifiedOf(ctx, op, at, out);
  carryNotes(op, out);
  if (op.deprecated === true) out.deprecated = true;
  hostOf(ctx, op, at, out, hosts);
  externalDocsOf(ctx, op, at, out);
  return out;
}

/** The operation's `externalDocs`: its URL (http or https) and description; another is noted. */
function externalDocsOf(ctx: ImportContext, op: JsonObject, at: Pointer, out: JsonObject): void {
  const docs = op.externalDocs;
  if (docs === undefined) return;
  const url = isObject(docs) ? stringOf(docs, "url") : undefined;
  if (url === undefined || !/^https?:\/\/\S+$/.test(url)) {
    note(ctx, out, under(at, "externalDocs"), "externalDocs without an http(s) URL");
    return;
  }
  const description = stringOf(docs as JsonObject, "description")?.trim();
  out.externalDocs = { url, ...(description ? { description } : {}) };
}

/**
 * An operation's description with what apigen adds to it taken back apart: the paragraph
 * `Rules:` and its `- rule` lines become `rules`; `Testing only.` goes with `x-testing-only`.
 */
export function splitDescription(
  text: string | undefined,
  testingOnly: boolean,
): { description?: string; rules: string[] } {
  const paragraphs = (text ?? "").trim().split("\n\n");
  const rules: string[] = [];
  const last = paragraphs.at(-1) ?? "";
  const lines = last.split("\n");
  if (
    lines[0] === "Rules:" &&
    lines.length > 1 &&
    lines.slice(1).every((l) => l.startsWith("- "))
  ) {
    rules.push(...lines.slice(1).map((l) => l.slice(2)));
    paragraphs.pop();
  }
  if (testingOnly && paragraphs.at(-1) === "Testing only.") paragraphs.pop();
  const description = paragraphs.join("\n\n").trim();
  return description ? { description, rules } : { rules };
}

/**
 * Path, query and header parameters, the path item's and the operation's (the latter win for
 * the same name and place). Each is keyed by its name, except where two places share one: a
 * path parameter keeps it, and a query or header parameter of the same name is keyed
 * `<name>_query` or `<name>_header` with `name:` its name on the wire (apigen's own document
 * names the key in `x-apigen-key`).
 */
export function paramsOf(
  ctx: ImportContext,
  { item, at: itemAt }: PathItem,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
  pathName: (name: string) => string,
  /** The names the path template has; a path parameter it lacks travels in the query. */
  inPath?: ReadonlySet<string>,
): JsonObject {
  const all: [JsonValue, Pointer, Pointer][] = [];
  const itemList = under(itemAt, "parameters");
  const opList = under(at, "parameters");
  if (Array.isArray(item.parameters))
    item.parameters.forEach((p, i) => all.push([p, under(itemList, i), itemList]));
  if (Array.isArray(op.parameters))
    op.parameters.forEach((p, i) => all.push([p, under(opList, i), opList]));
  const byPlace = new Map<string, PlacedParam & { list: Pointer }>();
  let list = itemList;
  let current = itemList;
  // A later definition of the same parameter (the operation's) replaces the path item's. A
  // header is one whatever the case of its name: Mollie's transfers list `Idempotency-Key`
  // (required) and then its shared `idempotency-key` (optional), one header on the wire; the
  // first of one list is kept.
  const place = (p: PlacedParam) => {
    const key = `${p.where}\0${p.where === "header" ? p.name.toLowerCase() : p.name}`;
    const before = byPlace.get(key);
    if (before && before.list === list && before.name !== p.name) {
      note(
        ctx,
        out,
        current,
        `header parameter ${p.name} is the header ${before.name} again (header names are case-insensitive): the first is kept`,
      );
      return;
    }
    byPlace.set(key, { ...p, list });
  };
  for (const [raw, rawAt, rawList] of all) {
    [list, current] = [rawList, rawAt];
    const { value: param, at: paramAt } = deref(ctx, raw, rawAt);
    // The API's shared headers are the spec's `headers` section, not this endpoint's parameters.
    // A signature header is the credential's (x-apigen-signature), named in `auth`.
    if (
      !isObject(param) ||
      param["x-apigen-shared-header"] === true ||
      param["x-apigen-signature"] !== undefined ||
      isFixedOrVersionHeader(param)
    )
      continue;
    const name = stringOf(param, "name") ?? "";
    let where = stringOf(param, "in");
    if (where === "path" && inPath && !inPath.has(name) && param["x-apigen-trailing"] !== true) {
      // Weatherbit declares query parameters `in: path`; the path cannot carry them.
      note(
        ctx,
        out,
        paramAt,
        `parameter ${name} is declared in: path but the path has no {${name}}: sent in the query`,
      );
      where = "query";
    }
    if (where === "header" && param["x-apigen-header"] === true) {
      ownHeader(out, name, param);
      continue;
    }
    if (where === "cookie") {
      note(ctx, out, paramAt, `cookie parameter ${name}`);
      continue;
    }
    // an `in` OpenAPI has no place for (a fuzzed `in: nowhere`, none at all) was taken for the
    // path, whose template then had no such segment and generate refused the folder
    if (where === "querystring") {
      // OpenAPI 3.2: the whole query string as one value (its `content` says how it is encoded)
      note(
        ctx,
        out,
        paramAt,
        `parameter ${name} in: querystring, the whole query string as one value; left out`,
      );
      continue;
    }
    if (where !== "path" && where !== "query" && where !== "header") {
      const place = where === undefined ? "no `in`" : `in: ${where}`;
      note(ctx, out, paramAt, `parameter ${name} with ${place}, a place no request has; left out`);
      continue;
    }
    // Notion declares a header parameter named "": no request can send a header without a name
    if (where === "header" && !headerToken.test(name)) {
      note(
        ctx,
        out,
        paramAt,
        `header parameter ${JSON.stringify(name)}: not a name a request can send; left out`,
      );
      continue;
    }
    const declared =
      param.schema ??
      (isObject(param.content) ? Object.values(param.content).find(isObject)?.schema : undefined);
    // Goa writes a path parameter without a schema: what a URL carries is text
    if (declared === undefined && param.content === undefined)
      note(ctx, out, paramAt, `parameter ${name} has no schema: read as a string`);
    const schema = declared ?? (param.content === undefined ? { type: "string" } : undefined);
    const schemaAt = under(paramAt, param.schema !== undefined ? "schema" : "content");
    if (where === "header" && mediaHeader(ctx, name, schema ?? {}, paramAt, out)) continue;
    // Vercel's artifact upload declares Content-Length: fetch writes it from the body, and a
    // value the caller gives that disagrees fails the request
    if (where === "header" && fetchWrittenHeaders.has(name.toLowerCase())) {
      note(
        ctx,
        out,
        paramAt,
        `header parameter ${name} is written by fetch from the request itself; left out`,
      );
      continue;
    }
    if (where === "header" && authorizationHeader(ctx, name, param, paramAt, out)) continue;
    const meta = paramMeta(ctx, param);
    const own = stringOf(param, "x-apigen-key");
    if (where !== "query") {
      const carried = segmentValue(ctx, param, paramAt, schema ?? {}, schemaAt, out);
      const spec = paramSpec(
        ctx,
        carried ?? schema ?? {},
        schemaAt,
        meta,
        where === "header" ? "header" : "path",
      );
      if (where === "header")
        place({ name, where, spec, ...(own !== undefined ? { key: own } : {}) });
      // apigen writes a trailing parameter as a path segment of its own, marked x-apigen-trailing.
      else if (param["x-apigen-trailing"] === true)
        place({ name, where: "path", spec: trailingSpec(spec) });
      // apigen's own mark of a catch-all (an overlay can add it to any document's parameter)
      else if (param["x-apigen-slashes"] === true)
        place({
          name,
          where: "path",
          spec: { ...asMapping(spec as string | JsonObject), slashes: true },
        });
      else place({ name, where: "path", spec });
      continue;
    }
    const style = stringOf(param, "style") ?? "form";
    if (!carriedQueryStyles.has(style))
      note(ctx, out, under(paramAt, "style"), `style ${style} of query parameter ${name}`);
    const explode = typeof param.explode === "boolean" ? param.explode : style === "form";
    const carried = queryParamsOf(
      ctx,
      { name, schema: schema ?? {}, at: schemaAt, required: param.required === true },
      style,
      explode,
      out,
    );
    // `brackets` (`name[]=a&name[]=b`) has no OpenAPI style: apigen writes it as form plus x-apigen-style.
    const brackets = param["x-apigen-style"] === "brackets" && style === "form" && explode;
    for (const q of carried) {
      const spec = paramSpec(
        ctx,
        q.schema,
        q.at,
        q.name === name ? meta : { required: q.required },
        "query",
        brackets && q.name === name && q.style === undefined ? "brackets" : q.style,
      );
      const key = q.name === name && own !== undefined ? { key: own } : {};
      place({ name: q.name, where: "query", spec, ...key });
    }
  }
  // A placeholder no path parameter declares (DigitalOcean's; or one only a query parameter
  // of its name declares, which then keeps that as `<name>_query`) is a string, noted.
  for (const name of inPath ?? [])
    if (!byPlace.has(`path\0${name}`)) {
      place({ name, where: "path", spec: "string" });
      const why = `path parameter ${name} is not declared; written as a string`;
      note(ctx, out, under(at, "parameters"), why);
    }
  return paramKeys([...byPlace.values()], pathName);
}

/**
 * What a path or header parameter carries when its schema cannot be sent as it is: a path
 * segment or a header holds a scalar or a list of scalars (comma-separated, OpenAPI's simple
 * style). An object (ReadMe's `R,100,G,200`), a list of objects or a union holding them is a
 * string the caller writes as the server reads it, noted with the style the document gives;
 * a `label` or `matrix` style is sent in the simple one, noted. Undefined: the schema as it is.
 */
function segmentValue(
  ctx: ImportContext,
  param: JsonObject,
  paramAt: Pointer,
  schema: JsonValue,
  schemaAt: Pointer,
  out: JsonObject,
): JsonValue | undefined {
  const name = stringOf(param, "name")!;
  const where = stringOf(param, "in")!;
  const style = stringOf(param, "style") ?? "simple";
  const exploded = param.explode === true ? ", exploded" : "";
  const shape = shapeOf(ctx, schema, schemaAt);
  if (shape !== "scalar" && shape !== "scalars") {
    note(
      ctx,
      out,
      schemaAt,
      `${where} parameter ${name} is ${shape === "objects" || shape === "arrays" ? "a list of objects or lists" : "an object"} (style ${style}${exploded}), which a ${where} parameter does not carry: it is a string the caller writes as the server reads it`,
    );
    const { value } = deref(ctx, schema, schemaAt);
    const description = isObject(value) ? stringOf(value, "description") : undefined;
    return { type: "string", ...(description ? { description } : {}) };
  }
  if (style !== "simple")
    note(
      ctx,
      out,
      under(paramAt, "style"),
      `style ${style}${exploded} of ${where} parameter ${name}: sent in the simple style (the value as it is, a list comma-separated)`,
    );
  return undefined;
}

/** A parameter, where it travels and, from apigen's own document, the key it had. */
interface PlacedParam {
  name: string;
  where: string;
  spec: JsonValue;
  key?: string;
}

/**
 * The parameters by key: path parameters under their (word-character) names, the others
 * under their own unless a parameter of another place holds it (then `<name>_<place>`,
 * then a number, with `name:` keeping the name on the wire).
 */
function paramKeys(list: PlacedParam[], pathName: (name: string) => string): JsonObject {
  const taken = new Set<string>();
  const keys = list.map((p) => {
    if (p.where !== "path") return undefined;
    const key = pathName(p.name);
    taken.add(key);
    return key;
  });
  list.forEach((p, i) => {
    if (p.where === "path") return;
    let key = p.key ?? p.name;
    if (taken.has(key)) key = `${p.name}_${p.where}`;
    for (let n = 2; taken.has(key); n++) key = `${p.name}_${p.where}${n}`;
    taken.add(key);
    keys[i] = key;
  });
  const params: JsonObject = {};
  list.forEach((p, i) => {
    const key = keys[i]!;
    const spec =
      key === p.name || p.where === "path" ? p.spec : withWireName(p.spec, p.name, p.where);
    setEntry(params, key, spec);
  });
  return params;
}

/** A query or header parameter's type with `name:`, its name on the wire, after its `in`. */
function withWireName(spec: JsonValue, name: string, where: string): JsonObject {
  const { in: _in, ...rest } = asMapping(spec as string | JsonObject);
  return { in: where, name, ...rest };
}

/** What a parameter says besides its schema. */
interface ParamMeta {
  required: boolean;
  description?: string;
  /** apigen's own document says so in the description: the client sends the default. */
  sendDefault?: boolean;
  deprecated?: boolean;
  notes?: JsonObject;
}

function paramMeta(ctx: ImportContext, param: JsonObject): ParamMeta {
  const text = stringOf(param, "description")?.trim();
  const paragraphs = text?.split("\n\n") ?? [];
  const sends = ownDocument(ctx) && paragraphs.at(-1) === sendsDefaultText;
  const description = sends ? paragraphs.slice(0, -1).join("\n\n") : text;
  return {
    required: param.required === true,
    ...(description ? { description } : {}),
    ...(sends ? { sendDefault: true } : {}),
    ...(param.deprecated === true ? { deprecated: true } : {}),
    notes: param,
  };
}

/**
 * An endpoint's `headers:` from apigen's own document: its fixed headers (`x-apigen-headers`)
 * and its own (`x-apigen-header` parameters, already on `out`), in the order its header
 * parameters have them (the spec's order); a fixed header that is no parameter (`Accept`) first.
 */
function mergedHeaders(op: JsonObject, fixed: JsonObject, out: JsonObject): JsonObject {
  const own = isObject(out.headers) ? out.headers : {};
  const all: JsonObject = { ...fixed, ...own };
  const order = (Array.isArray(op.parameters) ? op.parameters : [])
    .filter(isObject)
    .filter((p) => p.in === "header" && typeof p.name === "string" && p.name in all)
    .map((p) => p.name as string);
  const merged: JsonObject = {};
  for (const name of Object.keys(all)) if (!order.includes(name)) merged[name] = all[name]!;
  for (const name of order) merged[name] = all[name]!;
  return merged;
}

/**
 * A header parameter apigen's own document marks `x-apigen-header`: an endpoint's own request
 * header whose value the caller gives, read back as its `headers:` entry (not a parameter).
 */
function ownHeader(out: JsonObject, name: string, param: JsonObject): void {
  const entry: JsonObject = { required: param.required === true };
  const description = stringOf(param, "description")?.trim();
  if (description) entry.description = description;
  carryNotes(param, entry);
  const headers = isObject(out.headers) ? out.headers : {};
  headers[name] = entry;
  out.headers = headers;
}

/** One parameter as the spec writes it: a type, or a mapping with `in`, `style` and the rest. */
function paramSpec(
  ctx: ImportContext,
  schema: JsonValue,
  at: Pointer,
  meta: ParamMeta,
  where: "path" | "query" | "header",
  style?: DelimitedStyle | "deepObject" | "brackets",
): JsonValue {
  const type = asMapping(withFacets(typeOf(ctx, schema, at), {}));
  const spec: JsonObject = where === "path" ? { ...type } : { in: where, ...type };
  if (meta.required && where !== "path") spec.required = true;
  if (meta.description && spec.description === undefined) spec.description = meta.description;
  if (meta.deprecated) spec.deprecated = true;
  if (meta.sendDefault) spec.sendDefault = true;
  if (meta.notes) carryNotes(meta.notes, spec);
  if (style) spec.style = style;
  return Object.keys(spec).length === 1 && typeof spec.type === "string" ? spec.type : spec;
}

/**
 * `Accept` and `Content-Type` declared as header parameters say which media types the call
 * asks for and sends; the client sets both itself, so they are not parameters. One value
 * (a default, or an enum of one) is the endpoint's fixed header; more are noted.
 */
function mediaHeader(
  ctx: ImportContext,
  name: string,
  raw: JsonValue,
  at: Pointer,
  out: JsonObject,
): boolean {
  const lower = name.toLowerCase();
  if (lower !== "accept" && lower !== "content-type") return false;
  const { value: schema } = deref(ctx, raw, at);
  const values = isObject(schema)
    ? Array.isArray(schema.enum)
      ? schema.enum.filter((v): v is string => typeof v === "string")
      : typeof schema.default === "string"
        ? [schema.default]
        : []
    : [];
  const what = lower === "accept" ? "the response's media type" : "the request body's media type";
  if (lower === "accept" && values.length === 1 && /^[\w.+-]+\/[\w.+-]+$/.test(values[0]!)) {
    const headers = isObject(out.headers) ? out.headers : {};
    headers.Accept = values[0]!;
    out.headers = headers;
    note(
      ctx,
      out,
      at,
      `header parameter ${name} is ${what}: sent as the fixed header Accept: ${values[0]}`,
    );
  } else
    note(
      ctx,
      out,
      at,
      `header parameter ${name} is ${what}${values.length ? ` (${values.join(", ")})` : ""}, which the client sets from the endpoint`,
    );
  return true;
}

/**
 * An `Authorization` header parameter (SendGrid declares one on every operation) is a
 * credential, which the client sends itself: the operation sends the document's scheme that
 * travels in that header (its own first), required when the parameter is. Without such a
 * scheme the parameter is noted, and a caller sets the header through the client's headers.
 */
function authorizationHeader(
  ctx: ImportContext,
  name: string,
  param: JsonObject,
  at: Pointer,
  out: JsonObject,
): boolean {
  if (name.toLowerCase() !== "authorization") return false;
  const auth = Array.isArray(out.auth) ? out.auth : [];
  const sent = (entry: JsonValue) =>
    typeof entry === "string" ? entry : isObject(entry) ? stringOf(entry, "credential") : undefined;
  const carriers = authorizationSchemes(ctx);
  const own = auth.map(sent).find((id) => id !== undefined && carriers.includes(id));
  const credential = own ?? carriers[0];
  if (credential === undefined) {
    note(
      ctx,
      out,
      at,
      `header parameter ${name} is a credential, and no security scheme sends it: a caller sets it in the client's headers`,
    );
    return true;
  }
  if (own === undefined) {
    auth.push(param.required === true ? credential : { credential, optional: true });
    out.auth = auth;
  }
  note(
    ctx,
    out,
    at,
    `header parameter ${name} is the credential ${credential}, which the client sends`,
  );
  return true;
}

/** The credentials (by spec id) of the security schemes that travel in the Authorization header. */
function authorizationSchemes(ctx: ImportContext): string[] {
  const ids: string[] = [];
  const schemesAt: Pointer = { file: ctx.doc.root.path, pointer: "#/components/securitySchemes" };
  for (const [scheme, raw] of Object.entries(componentsOf(ctx, "securitySchemes"))) {
    const { value } = deref(ctx, raw, under(schemesAt, scheme));
    if (!isObject(value)) continue;
    const type = stringOf(value, "type");
    // HTTP schemes (bearer, basic), OAuth2 and OpenID tokens all travel in Authorization.
    const inHeader =
      type === "apiKey"
        ? stringOf(value, "in") === "header" &&
          stringOf(value, "name")?.toLowerCase() === "authorization"
        : type === "http" || type === "oauth2" || type === "openIdConnect";
    if (inHeader) ids.push(credentialId(ctx, scheme));
  }
  return ids;
}

/** The `?name=value` pairs of a path key (OpenAI's `/responses?beta=true`): query parameters the client sends. */
function fixedQuery(path: string, params: JsonObject): void {
  const query = /\?([^#]*)/.exec(path)?.[1];
  if (!query) return;
  for (const [name, value] of new URLSearchParams(query))
    if (name && ownEntry(params, name) === undefined)
      setEntry(params, name, { in: "query", type: "string", default: value, sendDefault: true });
}

/** A trailing parameter's spec: `in: trailing`, without the sentence apigen adds to its description. */
function trailingSpec(spec: JsonValue): JsonObject {
  const { description, ...rest } = asMapping(spec as string | JsonObject);
  const own =
    typeof description === "string"
      ? description.split("\n\n").filter((p) => p !== placementText.trailing)
      : [];
  return { in: "trailing", ...rest, ...(own.length ? { description: own.join("\n\n") } : {}) };
}

/**
 * Whether a form body's `encoding` is the one apigen's own document writes (each object field
 * deepObject, each array field brackets): what the spec's form body means, so nothing is lost.
 */
function ownFormEncoding(ctx: ImportContext, encoding: JsonValue): boolean {
  if (!ownDocument(ctx) || !isObject(encoding)) return false;
  return Object.values(encoding).every(
    (e) =>
      isObject(e) &&
      e.explode === true &&
      ((e.style === "deepObject" && Object.keys(e).length === 2) ||
        (e.style === "form" && e["x-apigen-style"] === "brackets" && Object.keys(e).length === 3)),
  );
}

/** The path without the `/{name}` segments apigen appended for its trailing parameters. */
function withoutTrailingSegments(out: JsonObject, params: JsonObject): void {
  let path = out.path as string;
  const trailing = Object.entries(params).filter(([, p]) => isObject(p) && p.in === "trailing");
  for (const [name] of trailing.reverse())
    if (path.endsWith(`/{${name}}`)) path = path.slice(0, -`/{${name}}`.length);
  out.path = path === "" ? "/" : path;
}

/** A path parameter's name as the format's path templates take it: word characters, not a digit first. */
function placeholder(name: string): string {
  const word = name.replace(/\W/g, "_");
  return word === "" ? "param" : /^[0-9]/.test(word) ? `_${word}` : word;
}

/**
 * Whether an operation's request body is its query: always on a GET or HEAD (fetch sends no
 * body with them); on a DELETE or OPTIONS when it is a form (a JSON body there is a body:
 * DigitalOcean's DELETEs read one).
 */
function bodyIsQuery(ctx: ImportContext, op: JsonObject, at: Pointer, method: string): boolean {
  if (method === "get" || method === "head") return true;
  if (method !== "delete" && method !== "options") return false;
  const { value: body } = deref(ctx, op.requestBody!, under(at, "requestBody"));
  const types = isObject(body) && isObject(body.content) ? Object.keys(body.content) : [];
  return types.length > 0 && types.every((t) => t === "application/x-www-form-urlencoded");
}

/**
 * A GET or DELETE with a `requestBody` (some APIs document their query as a form body): its
 * properties are query parameters, typed, sent in the query string (objects in bracket form,
 * as the form body would have had them: style deepObject). A body that is no object with
 * properties is left out, noted (Stripe's GETs declare an empty one).
 */
function bodyAsQuery(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
  params: JsonObject,
): void {
  const { value: body, at: bodyAt } = deref(ctx, op.requestBody!, under(at, "requestBody"));
  if (!isObject(body) || !isObject(body.content)) return;
  const [type, media] = Object.entries(body.content)[0] ?? [];
  if (type === undefined || !isObject(media)) return;
  const schemaAt = under(bodyAt, "content", type, "schema");
  const properties = propertiesOf(ctx, media.schema ?? {}, schemaAt);
  if (properties.length === 0) {
    const { value: schema } = deref(ctx, media.schema ?? {}, schemaAt);
    const empty = isObject(schema) && isObject(schema.properties);
    if (!empty)
      note(
        ctx,
        out,
        bodyAt,
        `the request body of a ${String(out.method)} (${type}) is not an object of fields; it is left out`,
      );
    return;
  }
  note(
    ctx,
    out,
    bodyAt,
    `the request body of a ${String(out.method)} (${type}) is sent as the query string`,
  );
  const required = body.required === true;
  for (const p of properties) {
    if (ownEntry(params, p.name) !== undefined) {
      note(
        ctx,
        out,
        p.at,
        `field ${p.name} of the request body has the name of a parameter; it is left out`,
      );
      continue;
    }
    // a file field of a GET's multipart body: bytes have no form in a query string
    if (isBinary(ctx, p.schema, p.at)) {
      const why = `field ${p.name} of the request body is bytes, which a query string cannot carry; it is left out`;
      note(ctx, out, p.at, why);
      continue;
    }
    const { value: schema } = deref(ctx, p.schema, p.at);
    const description = isObject(schema) ? stringOf(schema, "description")?.trim() : undefined;
    const shape = shapeOf(ctx, p.schema, p.at);
    const style = shape === "object" || shape === "map" ? "deepObject" : "form";
    const carried = queryParamsOf(
      ctx,
      { ...p, required: required && p.required },
      style,
      true,
      out,
    );
    for (const q of carried)
      setEntry(
        params,
        q.name,
        paramSpec(
          ctx,
          q.schema,
          q.at,
          { required: q.required, ...(q.name === p.name && description ? { description } : {}) },
          "query",
          q.style,
        ),
      );
  }
}

/** The request body: the first content type the format has (JSON first), others noted. */
function bodyOf(ctx: ImportContext, op: JsonObject, at: Pointer, out: JsonObject): void {
  if (op.requestBody === undefined) return;
  const { value: body, at: bodyAt } = deref(ctx, op.requestBody, under(at, "requestBody"));
  if (!isObject(body) || !isObject(body.content)) return;
  const content = body.content;
  const types = mediaTypesOf(ctx, content, under(bodyAt, "content"), out);
  const json = types.find(isJsonMedia);
  // Files travel only in a multipart body: offered beside JSON, the multipart one is kept.
  const multipart = types.find(
    (t) =>
      t === "multipart/form-data" &&
      isObject(content[t]) &&
      carriesFiles(
        ctx,
        (content[t] as JsonObject).schema ?? {},
        under(bodyAt, "content", t, "schema"),
      ),
  );
  const chosen = multipart ?? json ?? types.find((t) => supported.has(t)) ?? types[0];
  if (chosen === undefined) return;
  for (const other of types)
    if (other !== chosen)
      note(
        ctx,
        out,
        under(bodyAt, "content", other),
        chosen === multipart
          ? `request body as ${other} too; ${chosen} is kept, as the one that carries files`
          : `request body as ${other} too`,
      );
  const media = body.content[chosen];
  const mediaAt = under(bodyAt, "content", chosen);
  let schema = isObject(media) ? media.schema : undefined;
  if (
    chosen === "multipart/form-data" &&
    schema !== undefined &&
    isBinary(ctx, schema, under(mediaAt, "schema"))
  ) {
    // Jira's attachments: the multipart body is given as one binary; the server reads the part `file`.
    note(
      ctx,
      out,
      under(mediaAt, "schema"),
      "a multipart body given as one binary: written as one file part named file",
    );
    schema = { type: "object", required: ["file"], properties: { file: schema } };
  } else if (
    (chosen === "multipart/form-data" || chosen === "application/x-www-form-urlencoded") &&
    schema !== undefined
  ) {
    // LibreTranslate's /translate_file gives its multipart body as one string, Jira's
    // /filter/{id}/columns as an array of the values of its `columns` parts, PeerTube's studio
    // edit its form as an array of tasks: the fields are not shown, and a form is fields, so
    // any fields (a scalar or an array could never be sent). A form's string is its text.
    const partless = partlessTypeOf(ctx, schema, under(mediaAt, "schema"));
    const form = chosen === "application/x-www-form-urlencoded";
    if (form && isBinary(ctx, schema, under(mediaAt, "schema"))) {
      // hey-api's /upload: a form given as bytes, which a form cannot be; its text, encoded
      note(
        ctx,
        out,
        under(mediaAt, "schema"),
        "a form body whose schema is binary: written as the form's text, already encoded",
      );
      schema = { type: "string" };
    } else if (partless !== undefined && !(form && partless === "a string")) {
      note(
        ctx,
        out,
        under(mediaAt, "schema"),
        `a ${form ? "form" : "multipart"} body whose schema is ${partless}, not its fields: an object of any fields`,
      );
      schema = { type: "object" };
    }
  }
  // text/plain is the format's text encoding: a body of it is a string, whatever its schema says
  const typed =
    isJsonMedia(chosen) ||
    (supported.has(chosen) &&
      (chosen !== "text/plain" || isTextSchema(ctx, schema, under(mediaAt, "schema"))));
  const other = typed ? undefined : otherMediaBody(ctx, chosen, schema, mediaAt, out);
  if (other) Object.assign(out, other);
  else if (
    isJsonMedia(chosen) &&
    schema !== undefined &&
    isBinary(ctx, schema, under(mediaAt, "schema"))
  ) {
    // A JSON body whose schema is bytes (Noosh's profile image): bytes, as the schema says.
    note(
      ctx,
      out,
      mediaAt,
      `a request body as ${chosen} whose schema is binary: sent as application/octet-stream`,
    );
    out.contentType = "application/octet-stream";
    out.body = "binary";
  } else {
    if (!isJsonMedia(chosen)) out.contentType = chosen;
    out.body =
      chosen === "application/octet-stream"
        ? "binary"
        : schema === undefined
          ? "unknown"
          : typeOf(ctx, schema, under(mediaAt, "schema"));
    // a text/plain body is the text itself: a named alias of a plain string stays (Conjur's
    // ApiKey); an enum or a format is not what generate sends as text, so such a body is a
    // string and the rest a note
    if (
      chosen === "text/plain" &&
      out.body !== "string" &&
      !plainStringAlias(ctx, schema, out.body, mediaAt)
    ) {
      const what = `a text/plain request body is sent as a string; its schema's type is not carried`;
      note(ctx, out, under(mediaAt, "schema"), what);
      out.body = "string";
    }
  }
  // OpenAPI's default: a request body the call may leave out
  if (body.required !== true && out.body !== undefined) out.bodyOptional = true;
  if (isObject(media) && media.encoding !== undefined && !ownFormEncoding(ctx, media.encoding))
    note(ctx, out, under(mediaAt, "encoding"), "per-part encoding");
}

/**
 * A request body of a media type with no encoding of its own (`application/xml`, `text/csv`,
 * `application/pdf`), or of text/plain with a schema that is no text: sent as that type (its
 * bare name, lower case), a `string` for text (text/plain always, another `text/*` or XML type,
 * or a plain string schema) and `binary` otherwise. A multipart type
 * other than form-data needs a boundary the caller cannot give: bytes, noted.
 */
function otherMediaBody(
  ctx: ImportContext,
  chosen: string,
  schema: JsonValue | undefined,
  mediaAt: Pointer,
  out: JsonObject,
): JsonObject {
  const media = chosen.split(";")[0]!.trim().toLowerCase();
  if (!/^[a-z]+\/[a-z0-9.+-]+$/.test(media) || media.startsWith("multipart/")) {
    note(ctx, out, mediaAt, `request body of media type ${chosen}: sent as bytes`);
    return { contentType: "application/octet-stream", body: "binary" };
  }
  const binary = schema !== undefined && isBinary(ctx, schema, under(mediaAt, "schema"));
  const plain = isPlainString(ctx, schema, mediaAt);
  const text = media === "text/plain" || (!binary && (isTextMedia(media) || plain));
  // an XML body's schema describes the document the caller writes: the text is sent as it is
  if (text && schema !== undefined && !plain)
    note(
      ctx,
      out,
      under(mediaAt, "schema"),
      `request body of media type ${media} is text the caller writes; its schema is not carried`,
    );
  return { contentType: media, body: text ? "string" : "binary" };
}

/** A media type whose bytes are text: `text/*`, XML (`application/xml`, `application/atom+xml`). */
const isTextMedia = (media: string) =>
  media.startsWith("text/") || /^application\/(?:[\w.-]+\+)?xml$/.test(media);

/** Whether a body schema is a string that is no bytes (`type: string` without a binary format). */
function isPlainString(ctx: ImportContext, raw: JsonValue | undefined, mediaAt: Pointer): boolean {
  if (raw === undefined) return false;
  const { value: schema } = deref(ctx, raw, under(mediaAt, "schema"));
  return isObject(schema) && schema.type === "string" && schema.format === undefined;
}

/**
 * What a body schema without parts is (`a string`, `an array`: a scalar but bytes, or an
 * array), else undefined.
 */
function partlessTypeOf(ctx: ImportContext, raw: JsonValue, at: Pointer): string | undefined {
  const { value: schema } = deref(ctx, raw, at);
  if (!isObject(schema) || isBinary(ctx, raw, at)) return undefined;
  const type = schema.type;
  if (type === "array" || type === "integer") return `an ${type}`;
  return type === "string" || type === "number" || type === "boolean" ? `a ${type}` : undefined;
}

/** Whether a body schema is a string of text: `type: string`, with any format but bytes. */
function isTextSchema(ctx: ImportContext, raw: JsonValue | undefined, at: Pointer): boolean {
  if (raw === undefined) return false;
  const { value: schema } = deref(ctx, raw, at);
  return isObject(schema) && schema.type === "string" && !isBinary(ctx, raw, at);
}

/** Whether `written` names a type whose schema is a string without an enum or a format. */
function plainStringAlias(
  ctx: ImportContext,
  schema: JsonValue | undefined,
  written: JsonValue | undefined,
  mediaAt: Pointer,
): boolean {
  if (typeof written !== "string" || schema === undefined) return false;
  const { value } = deref(ctx, schema, under(mediaAt, "schema"));
  return (
    isObject(value) &&
    value.type === "string" &&
    value.enum === undefined &&
    value.format === undefined
  );
}

/** Whether a body schema is bytes or has a field (or an array field) of bytes. */
function carriesFiles(ctx: ImportContext, raw: JsonValue, at: Pointer): boolean {
  if (isBinary(ctx, raw, at)) return true;
  return propertiesOf(ctx, raw, at).some((p) => {
    if (isBinary(ctx, p.schema, p.at)) return true;
    const { value, at: valueAt } = deref(ctx, p.schema, p.at);
    return (
      isObject(value) &&
      value.items !== undefined &&
      isBinary(ctx, value.items, under(valueAt, "items"))
    );
  });
}

/**
 * A media type (RFC 6838's `type/subtype`, its names restricted-name tokens) or a range, with
 * optional parameters: `application/json`, `Application/PDF; charset=binary`, `image/*`; and
 * a lone `*`, which some documents write for any type (read as bytes, noted, as before).
 */
const mediaTypeKey =
  /^(?:\*(?:\/\*)?|[A-Za-z0-9][\w!#$&^.+-]*\/(?:\*|[A-Za-z0-9][\w!#$&^.+-]*))\s*(?:;.*)?$/;

/**
 * The keys of a `content` map that are media types. Any other key (Akeneo puts a page's
 * `_links`, `_embedded` and `current_page` there, beside `application/json`) is no way the
 * body travels: it is noted at its pointer as ignored, never taken for a second media type.
 */
function mediaTypesOf(
  ctx: ImportContext,
  content: JsonObject,
  contentAt: Pointer,
  out: JsonObject,
): string[] {
  const types: string[] = [];
  for (const key of Object.keys(content))
    if (mediaTypeKey.test(key)) types.push(key);
    else
      note(
        ctx,
        out,
        under(contentAt, key),
        `${key} is not a media type (type/subtype), so it was ignored`,
      );
  return types;
}

const supported = new Set([
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/octet-stream",
  "text/plain",
]);

/**
 * The stream of a media type apigen wrote (`x-apigen-stream`): its item type (`body`) or named
 * events, `open` and `terminator`, as the spec writes them.
 */
function streamOf(ctx: ImportContext, media: JsonObject, at: Pointer): JsonObject {
  const stream = media["x-apigen-stream"] as JsonObject;
  const streamAt = under(at, "x-apigen-stream");
  const out: JsonObject = {};
  if (stream.itemSchema !== undefined)
    out.body = typeOf(ctx, stream.itemSchema, under(streamAt, "itemSchema"));
  if (isObject(stream.events)) {
    const events: JsonObject = {};
    for (const [name, schema] of Object.entries(stream.events))
      setEntry(events, name, typeOf(ctx, schema, under(streamAt, "events", name)));
    out.events = events;
  }
  if (stream.open === false) out.open = false;
  if (typeof stream.terminator === "string") out.terminator = stream.terminator;
  if (isObject(stream.error))
    out.error = streamErrorOf(ctx, stream.error, under(streamAt, "error"));
  return out;
}

/** The error item of a stream apigen wrote (`x-apigen-stream`'s `error`), as the spec writes it. */
function streamErrorOf(ctx: ImportContext, error: JsonObject, at: Pointer): JsonObject {
  const out: JsonObject = {};
  for (const key of ["field", "event", "status", "description"] as const)
    if (typeof error[key] === "string") out[key] = error[key];
  if (error.schema !== undefined) out.body = typeOf(ctx, error.schema, under(at, "schema"));
  return out;
}

/** The stream a body flag switches to (`x-apigen-stream-flag`), as the endpoint's streamResponse. */
function flagStreamOf(ctx: ImportContext, op: JsonObject, at: Pointer): JsonObject | undefined {
  const responses = isObject(op.responses) ? op.responses : {};
  for (const [status, raw] of Object.entries(responses)) {
    const { value: response, at: responseAt } = deref(ctx, raw, under(at, "responses", status));
    if (!isObject(response) || !isObject(response.content)) continue;
    for (const [type, media] of Object.entries(response.content)) {
      if (!isObject(media) || typeof media["x-apigen-stream-flag"] !== "string") continue;
      return {
        flag: media["x-apigen-stream-flag"],
        status: Number(status),
        contentType: type,
        ...streamOf(ctx, media, under(responseAt, "content", type)),
      };
    }
  }
  return undefined;
}

/** Whether a text response's type is a stream whose items are JSON of `body`. */
const eventData = (body: JsonValue | undefined, type: string): boolean =>
  streamTypes.has(type) && body !== undefined && body !== "unknown";

/**
 * A success response offered as JSON and as server-sent events, from an operation whose JSON
 * body has a boolean `stream` field (OpenAI's chat completions): the events are the stream
 * that flag switches to.
 */
function eventStreamOf(
  ctx: ImportContext,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
): JsonObject | undefined {
  const response = out.response;
  if (!isObject(response) || response.contentType !== undefined || response.body === undefined)
    return undefined;
  const status = String(response.status);
  const responses = isObject(op.responses) ? op.responses : {};
  if (responses[status] === undefined) return undefined;
  const { value: raw, at: responseAt } = deref(
    ctx,
    responses[status],
    under(at, "responses", status),
  );
  if (!isObject(raw) || !isObject(raw.content)) return undefined;
  const type = Object.keys(raw.content).find((t) => streamTypes.has(t));
  const media = type === undefined ? undefined : raw.content[type];
  if (type === undefined || !isObject(media) || media.schema === undefined) return undefined;
  if (!isObject(out.body) && typeof out.body !== "string") return undefined;
  const { value: body, at: bodyAt } = deref(ctx, op.requestBody ?? {}, under(at, "requestBody"));
  const jsonType =
    isObject(body) && isObject(body.content)
      ? Object.keys(body.content).find(isJsonMedia)
      : undefined;
  if (jsonType === undefined) return undefined;
  const schemaAt = under(bodyAt, "content", jsonType, "schema");
  const media0 = (body as { content: JsonObject }).content[jsonType];
  const fields = isObject(media0) ? propertiesOf(ctx, media0.schema ?? {}, schemaAt) : [];
  const stream = fields.find((f) => {
    const { value } = deref(ctx, f.schema, f.at);
    return f.name === "stream" && isObject(value) && value.type === "boolean";
  });
  if (!stream) return undefined;
  const mediaAt = under(responseAt, "content", type);
  note(
    ctx,
    out,
    mediaAt,
    `the response as ${type} when stream is true; a terminator data value is not stated by the document`,
  );
  return {
    flag: "stream",
    status: Number(status),
    contentType: type,
    body: typeOf(ctx, media.schema, under(mediaAt, "schema")),
  };
}

/**
 * Whether a 2xx `status` after the success one answers without a body where the success has
 * one: the success's `emptyStatus` then (set on `out.response`, the first such only).
 */
function emptyAlternative(out: JsonObject, status: string, response: JsonObject): boolean {
  const success = out.response;
  if (!/^2\d\d$/.test(status) || !isObject(success) || success.body === undefined) return false;
  if (success.emptyStatus !== undefined || success.streamResponse !== undefined) return false;
  const content = response.content;
  if (isObject(content) && Object.keys(content).length > 0) return false;
  success.emptyStatus = Number(status);
  return true;
}

/** The first success response with its body and headers; error statuses as the endpoint's errors. */
function responsesOf(ctx: ImportContext, op: JsonObject, at: Pointer, out: JsonObject): void {
  const responses = isObject(op.responses) ? op.responses : {};
  const statuses = Object.keys(responses);
  const success = statuses.filter((s) => /^2\d\d$|^2XX$/i.test(s)).sort()[0];
  const errors: JsonValue[] = [];
  for (const status of statuses) {
    const { value: response, at: responseAt } = deref(
      ctx,
      responses[status]!,
      under(at, "responses", status),
    );
    if (!isObject(response)) continue;
    if (status === success) out.response = successOf(ctx, response, status, responseAt);
    else if (/^[45](\d\d|XX)$/i.test(status) || (status === "default" && success)) {
      // `default` beside a success: every other status, an error (an entry of any status)
      const error: JsonObject =
        status === "default"
          ? {}
          : { status: /XX$/i.test(status) ? `${status[0]}xx` : Number(status) };
      const description = stringOf(response, "description");
      if (description?.trim()) error.description = description.trim();
      const contentAt = under(responseAt, "content");
      if (
        isObject(response.content) &&
        Object.keys(response.content).length &&
        !isApiErrorBody(ctx, response.content, contentAt)
      )
        note(
          ctx,
          error,
          contentAt,
          "the error body's schema: not the API's error body (errors.body), and the format has one",
        );
      errors.push(error);
    } else if (emptyAlternative(out, status, response)) {
      // Spotify's 204 when nothing plays, GitHub's 204 beside a 201: the call's undefined
    } else if (status !== "304" || !answersNotModified(op, out))
      note(ctx, out, responseAt, `response ${status}`);
  }
  const head = out.response;
  if (out.method === "HEAD" && isObject(head) && head.body !== undefined) {
    // A HEAD answer has no body: its status and headers are the answer.
    delete head.body;
    delete head.contentType;
    note(
      ctx,
      out,
      under(at, "responses", success!),
      "a HEAD response declares a body, which a HEAD answer never has; left out",
    );
  }
  if (!out.response) {
    out.response = { status: 204 };
    note(ctx, out, under(at, "responses"), "no success response is documented; written as 204");
  }
  // apigen's own document keeps the endpoint's own entries apart from the API-wide ones.
  if (ownDocument(ctx)) {
    const own = op["x-apigen-errors"];
    if (Array.isArray(own)) out.errors = plainNotes(own);
  } else if (errors.length) out.errors = errors;
}

/** A media type or range as the format writes one: `image/png`, `image/*`, or any type. */
const formatMediaType = /^(\*\/\*|[a-z]+\/(\*|[A-Za-z0-9.+-]+))$/;

/**
 * A success response's media type as the format takes it: without parameters (`;
 * charset=...`) and lower-cased; one it still cannot hold is written as bytes, with a note.
 * A range (`image/*`, or any type) stays one: the client takes any type it covers as a Blob.
 */
function responseMediaType(
  ctx: ImportContext,
  mediaType: string,
  at: Pointer,
  out: JsonObject,
): string {
  const bare = mediaType.split(";")[0]!.trim().toLowerCase();
  if (formatMediaType.test(bare)) return bare;
  note(ctx, out, at, `response media type ${mediaType}: written as application/octet-stream`);
  return "application/octet-stream";
}

const unshownSentence = "The body is not shown in the source.";

/**
 * A success response's description. In apigen's own document, the status meaning it wrote
 * where the spec gave none is left out, and its sentence for a body the spec does not show
 * says there is none to read back.
 */
function successDescription(
  ctx: ImportContext,
  response: JsonObject,
  status: number,
): { description?: string; unshown: boolean } {
  const text = stringOf(response, "description")?.trim();
  if (!ownDocument(ctx) || text === undefined)
    return text ? { description: text, unshown: false } : { unshown: false };
  const paragraphs = text.split("\n\n");
  const unshown = paragraphs.at(-1) === unshownSentence;
  if (unshown) paragraphs.pop();
  const rest = paragraphs.join("\n\n").trim();
  const errors = (ctx.doc.root.value as JsonObject)["x-errors"];
  const statuses = isObject(errors) && Array.isArray(errors.statuses) ? errors.statuses : [];
  const meaning = statuses.find((s) => isObject(s) && s.status === status);
  const written =
    isObject(meaning) && typeof meaning.meaning === "string" ? meaning.meaning : "Success.";
  return rest && rest !== written ? { description: rest, unshown } : { unshown };
}

function successOf(
  ctx: ImportContext,
  response: JsonObject,
  status: string,
  at: Pointer,
): JsonObject {
  const out: JsonObject = { status: /XX$/i.test(status) ? 200 : Number(status) };
  const { description, unshown } = successDescription(ctx, response, out.status as number);
  if (description) out.description = description;
  carryNotes(response, out);
  if (unshown) return out;
  const content = isObject(response.content) ? response.content : {};
  // A stream apigen wrote (x-apigen-stream) comes back as one; a flag's stream is the endpoint's streamResponse.
  const types = mediaTypesOf(ctx, content, under(at, "content"), out).filter(
    (t) => !(isObject(content[t]) && content[t]["x-apigen-stream-flag"] !== undefined),
  );
  const streamed = types.find(
    (t) => isObject(content[t]) && isObject(content[t]["x-apigen-stream"]),
  );
  const chosen = streamed ?? types.find(isJsonMedia) ?? types[0];
  if (streamed !== undefined) {
    out.contentType = streamed;
    Object.assign(
      out,
      streamOf(ctx, content[streamed] as JsonObject, under(at, "content", streamed)),
    );
  } else if (chosen !== undefined && ![204, 205, 304].includes(out.status as number)) {
    const media = content[chosen];
    const mediaAt = under(at, "content", chosen);
    const { schema, schemaAt } = responseSchemaOf(ctx, media, mediaAt, chosen, out);
    if (!isJsonMedia(chosen)) out.contentType = responseMediaType(ctx, chosen, mediaAt, out);
    // a JSON Lines stream's schema is its items' (Docker's /events): typed as JSON is
    out.body =
      isJsonMedia(chosen) || chosen.startsWith("text/") || streamTypes.has(chosen)
        ? schema === undefined
          ? "unknown"
          : typeOf(ctx, schema, schemaAt)
        : "binary";
    if (
      (isJsonMedia(chosen) || streamTypes.has(chosen)) &&
      schema !== undefined &&
      isBinary(ctx, schema, schemaAt)
    ) {
      // A JSON response whose schema is bytes, given there or by a $ref (Mastercard's,
      // MarketCheck's cached image): bytes, as the schema says.
      out.body = "binary";
      out.contentType = "application/octet-stream";
      note(ctx, out, mediaAt, `a response as ${chosen} whose schema is binary: read as bytes`);
    }
    // Server-sent events: each event's data is the schema's (JSON); other text is a string.
    if (chosen.startsWith("text/") && out.body !== "string" && !eventData(out.body, chosen))
      out.body = "string";
    for (const other of types)
      if (other !== chosen)
        note(ctx, out, under(at, "content", other), `the response as ${other} too`);
  }
  return withHeaders(ctx, response, at, out);
}
