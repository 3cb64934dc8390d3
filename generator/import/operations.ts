/**
 * OpenAPI operations to spec endpoints: ids from operationId (or method and path), groups
 * from tags, parameters by where they travel, the request body by content type, the success
 * response with its headers, error statuses, and the credentials each operation sends.
 */
import { camelCase } from "../ir/casing.ts";
import {
  credentialId,
  deref,
  isObject,
  note,
  ownDocument,
  setEntry,
  stringOf,
  under,
  type ImportContext,
} from "./context.ts";
import { plainNotes } from "./extensions.ts";
import { linkPaginationOf } from "./pagination.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";
import { asMapping, carryNotes, typeOf, withFacets } from "./schemas.ts";

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

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
 * `issues/list-for-repo` -> [issues, listForRepo]; `listPets` with tag pets -> [pets,
 * listPets]. The group is the text it comes from (a tag, the operationId's first part, or
 * the path's first segment); `endpointsOf` names it.
 */
function idParts(op: JsonObject, method: string, path: string): [string, string] {
  const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : undefined;
  const segment = path.split("/").find((s) => s && !s.startsWith("{"));
  const operationId = stringOf(op, "operationId");
  if (operationId) {
    const parts = operationId.split(/[/.]/).filter(Boolean);
    if (parts.length >= 2) return [parts[0]!, groupName(parts.slice(1).join("-"))];
    return [tag ?? segment ?? "api", groupName(operationId)];
  }
  return [tag ?? segment ?? "api", groupName(`${method} ${path}`)];
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

/** Every operation of `paths`, in document order, with unique ids. */
export function endpointsOf(ctx: ImportContext): EndpointOut[] {
  const root = ctx.doc.root.value as JsonObject;
  const paths = isObject(root.paths) ? root.paths : {};
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  const out: EndpointOut[] = [];
  const taken = new Set<string>();
  const shapes = new Map<string, { path: string; names: string[] }>();
  const groupOf = groupNamer();
  for (const [path, item0] of Object.entries(paths)) {
    const { value: item, at: itemAt } = deref(ctx, item0, under(rootAt, "paths", path));
    if (!isObject(item)) continue;
    for (const method of methods) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = under(itemAt, method);
      const [text, name] = idParts(op, method, path);
      const group = groupOf(text);
      let id = `${group}.${name}`;
      for (let i = 2; taken.has(id); i++) id = `${group}.${name}${i}`;
      taken.add(id);
      ctx.area = group;
      const value = endpointOf(ctx, item, op, method, path, at, namesOfShape(shapes, path));
      out.push({ id, group, value });
    }
  }
  return out;
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

function endpointOf(
  ctx: ImportContext,
  item: JsonObject,
  op: JsonObject,
  method: string,
  path: string,
  at: Pointer,
  names: PathNames,
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
  out.path = path.replace(/\{([^}]*)\}/g, (_, name: string) => `{${pathName(name)}}`);
  if (names.differs) {
    const renamed = [...names.rename].map(([from, to]) => `${from} as ${to}`).join(", ");
    const why = `differs from ${names.first} only in parameter names, which OpenAPI forbids`;
    note(ctx, out, at, `path ${path} ${why}; written with ${renamed}`);
  } else if (out.path !== path)
    note(ctx, out, at, `path parameters renamed to word characters (${path})`);
  if (rules.length) out.rules = rules;
  if (testingOnly) out.testingOnly = true;
  const auth = authOf(ctx, op, at, out);
  if (auth.length) out.auth = auth;
  const params = paramsOf(ctx, item, op, at, out, pathName);
  if (Object.keys(params).length) out.params = params;
  if (isObject(op["x-apigen-headers"])) out.headers = op["x-apigen-headers"];
  bodyOf(ctx, op, at, out);
  responsesOf(ctx, op, at, out);
  const flagStream = flagStreamOf(ctx, op, at);
  if (flagStream) out.streamResponse = flagStream;
  // Paging apigen wrote comes back as the endpoint's pagination, its keys as the spec's.
  if (isObject(op["x-apigen-pagination"])) out.pagination = op["x-apigen-pagination"];
  else {
    const linked = linkPaginationOf(ctx, op, at);
    if (linked) out.pagination = linked;
  }
  carryNotes(op, out);
  if (op.deprecated === true)
    note(ctx, out, under(at, "deprecated"), "the operation is deprecated");
  for (const key of ["servers", "externalDocs"] as const)
    if (op[key] !== undefined)
      note(ctx, out, under(at, key), `${key} of the operation are not carried yet`);
  return out;
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

/** The credentials of the first security requirement (the operation's, else the document's). */
function authOf(ctx: ImportContext, op: JsonObject, at: Pointer, out: JsonObject): JsonValue[] {
  const root = ctx.doc.root.value as JsonObject;
  const own = Array.isArray(op.security);
  const list = own
    ? (op.security as JsonValue[])
    : Array.isArray(root.security)
      ? root.security
      : [];
  const listAt = own ? under(at, "security") : { file: ctx.doc.root.path, pointer: "#/security" };
  const requirements = list.filter(isObject);
  const optional = requirements.some((r) => Object.keys(r).length === 0);
  const first = requirements.find((r) => Object.keys(r).length > 0);
  if (!first) return [];
  if (requirements.filter((r) => Object.keys(r).length > 0).length > 1)
    note(ctx, out, listAt, "alternative security requirements; the first is kept");
  return Object.entries(first).map(([scheme, scopes]) => {
    if (Array.isArray(scopes) && scopes.length)
      note(ctx, out, listAt, `scopes of ${scheme}: ${scopes.join(", ")}`);
    const credential = credentialId(ctx, scheme);
    return optional ? { credential, optional: true } : credential;
  });
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
  item: JsonObject,
  op: JsonObject,
  at: Pointer,
  out: JsonObject,
  pathName: (name: string) => string,
): JsonObject {
  const all: [JsonValue, Pointer][] = [];
  const itemAt: Pointer = { file: at.file, pointer: at.pointer.replace(/\/[^/]+$/, "") };
  if (Array.isArray(item.parameters))
    item.parameters.forEach((p, i) => all.push([p, under(itemAt, "parameters", i)]));
  if (Array.isArray(op.parameters))
    op.parameters.forEach((p, i) => all.push([p, under(at, "parameters", i)]));
  const byPlace = new Map<string, { name: string; where: string; spec: JsonValue; key?: string }>();
  for (const [raw, rawAt] of all) {
    const { value: param, at: paramAt } = deref(ctx, raw, rawAt);
    // The API's shared headers are the spec's `headers` section, not this endpoint's parameters.
    // A signature header is the credential's (x-apigen-signature), named in `auth`.
    if (
      !isObject(param) ||
      param["x-apigen-shared-header"] === true ||
      param["x-apigen-signature"] !== undefined
    )
      continue;
    const name = stringOf(param, "name") ?? "";
    const where = stringOf(param, "in");
    if (where === "cookie") {
      note(ctx, out, paramAt, `cookie parameter ${name}`);
      continue;
    }
    const schema =
      param.schema ??
      (isObject(param.content) ? Object.values(param.content).find(isObject)?.schema : undefined);
    const type = asMapping(withFacets(typeOf(ctx, schema ?? {}, under(paramAt, "schema")), {}));
    const spec: JsonObject =
      where === "query" || where === "header" ? { in: where, ...type } : { ...type };
    if (param.required === true && where !== "path") spec.required = true;
    const description = stringOf(param, "description");
    if (description?.trim() && spec.description === undefined)
      spec.description = description.trim();
    if (param.deprecated === true) spec.deprecated = true;
    carryNotes(param, spec);
    if (where === "query") styleOf(ctx, param, paramAt, spec);
    const own = stringOf(param, "x-apigen-key");
    // A later definition of the same parameter (the operation's) replaces the path item's.
    byPlace.set(`${where === "path" ? "path" : (where ?? "")}\0${name}`, {
      name,
      where: where ?? "path",
      spec: Object.keys(spec).length === 1 && typeof spec.type === "string" ? spec.type : spec,
      ...(own !== undefined && where !== "path" ? { key: own } : {}),
    });
  }
  return paramKeys([...byPlace.values()], pathName);
}

/**
 * The parameters by key: path parameters under their (word-character) names, the others
 * under their own unless a parameter of another place holds it (then `<name>_<place>`,
 * then a number, with `name:` keeping the name on the wire).
 */
function paramKeys(
  list: { name: string; where: string; spec: JsonValue; key?: string }[],
  pathName: (name: string) => string,
): JsonObject {
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

/** A query parameter's style: repeat (form, exploded), comma (form, not exploded), deepObject. */
function styleOf(ctx: ImportContext, param: JsonObject, at: Pointer, spec: JsonObject): void {
  const style = stringOf(param, "style") ?? "form";
  const explode = param.explode ?? style === "form";
  if (style === "form" && explode === false) spec.style = "comma";
  else if (style === "deepObject") spec.style = "deepObject";
  else if (style !== "form") note(ctx, spec, under(at, "style"), `style ${style}`);
}

/** A path parameter's name as the format's path templates take it: word characters, not a digit first. */
function placeholder(name: string): string {
  const word = name.replace(/\W/g, "_");
  return word === "" ? "param" : /^[0-9]/.test(word) ? `_${word}` : word;
}

/** The request body: the first content type the format has (JSON first), others noted. */
function bodyOf(ctx: ImportContext, op: JsonObject, at: Pointer, out: JsonObject): void {
  if (op.requestBody === undefined) return;
  const { value: body, at: bodyAt } = deref(ctx, op.requestBody, under(at, "requestBody"));
  if (!isObject(body) || !isObject(body.content)) return;
  const types = Object.keys(body.content);
  const chosen = types.find(isJson) ?? types.find((t) => supported.has(t)) ?? types[0];
  if (chosen === undefined) return;
  for (const other of types)
    if (other !== chosen)
      note(ctx, out, under(bodyAt, "content", other), `request body as ${other} too`);
  const media = body.content[chosen];
  const schema = isObject(media) ? media.schema : undefined;
  const mediaAt = under(bodyAt, "content", chosen);
  if (!isJson(chosen)) {
    if (supported.has(chosen)) out.contentType = chosen;
    else note(ctx, out, mediaAt, `request body of media type ${chosen}: sent as bytes`);
  }
  const bytes =
    chosen === "application/octet-stream" || (!supported.has(chosen) && !isJson(chosen));
  out.body = bytes
    ? "binary"
    : schema === undefined
      ? "unknown"
      : typeOf(ctx, schema, under(mediaAt, "schema"));
  if (bytes && !supported.has(chosen)) out.contentType = "application/octet-stream";
  if (body.required !== true) note(ctx, out, bodyAt, "the request body is optional");
  if (isObject(media) && media.encoding !== undefined)
    note(ctx, out, under(mediaAt, "encoding"), "per-part encoding");
}

const supported = new Set([
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/octet-stream",
  "text/plain",
]);
const isJson = (type: string) => type === "application/json" || /\+json$/.test(type);

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
    else if (/^[45](\d\d|XX)$/i.test(status)) {
      const error: JsonObject = { status: /XX$/i.test(status) ? `${status[0]}xx` : Number(status) };
      const description = stringOf(response, "description");
      if (description?.trim()) error.description = description.trim();
      if (isObject(response.content) && Object.keys(response.content).length)
        note(
          ctx,
          error,
          under(responseAt, "content"),
          "the error body's schema (error bodies are API-wide in the format)",
        );
      errors.push(error);
    } else note(ctx, out, responseAt, `response ${status}`);
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
  const types = Object.keys(content).filter(
    (t) => !(isObject(content[t]) && content[t]["x-apigen-stream-flag"] !== undefined),
  );
  const streamed = types.find(
    (t) => isObject(content[t]) && isObject(content[t]["x-apigen-stream"]),
  );
  const chosen = streamed ?? types.find(isJson) ?? types[0];
  if (streamed !== undefined) {
    out.contentType = streamed;
    Object.assign(
      out,
      streamOf(ctx, content[streamed] as JsonObject, under(at, "content", streamed)),
    );
  } else if (chosen !== undefined && ![204, 205, 304].includes(out.status as number)) {
    const media = content[chosen];
    const mediaAt = under(at, "content", chosen);
    const schema = isObject(media) ? media.schema : undefined;
    if (!isJson(chosen)) out.contentType = chosen;
    out.body =
      isJson(chosen) || chosen.startsWith("text/")
        ? schema === undefined
          ? "unknown"
          : typeOf(ctx, schema, under(mediaAt, "schema"))
        : "binary";
    if (chosen.startsWith("text/") && out.body !== "string") out.body = "string";
    for (const other of types)
      if (other !== chosen)
        note(ctx, out, under(at, "content", other), `the response as ${other} too`);
  }
  const headers = isObject(response.headers) ? response.headers : {};
  const declared: JsonObject = {};
  for (const [name, raw] of Object.entries(headers)) {
    const { value: header, at: headerAt } = deref(ctx, raw, under(at, "headers", name));
    if (!isObject(header)) continue;
    const type = typeOf(ctx, header.schema ?? { type: "string" }, under(headerAt, "schema"));
    const base = typeof type === "string" ? type : stringOf(type, "type");
    if (base && ["string", "integer", "number", "boolean"].includes(base)) {
      const description = stringOf(header, "description");
      setEntry(
        declared,
        name,
        description?.trim() ? { ...asMapping(type), description: description.trim() } : type,
      );
    } else note(ctx, out, headerAt, `response header ${name} of a type the format cannot read`);
  }
  if (Object.keys(declared).length) out.headers = declared;
  return out;
}
