/**
 * A Swagger 2.0 document read as the OpenAPI 3.0 document it converts to, so that one reader
 * (and one set of rules about what is valid) takes both. What moves is recorded in a
 * PointerMap, so that every note and error still names the place in the user's own file.
 *
 * What becomes what: `host`, `basePath` and `schemes` the servers; `definitions`,
 * `parameters`, `responses` and `securityDefinitions` the components; a `body` parameter the
 * request body, in each media type of `consumes`; `formData` parameters an object body,
 * URL-encoded or, with a file among them or `multipart/form-data` consumed, multipart; a
 * response's `schema` its content in each media type of `produces`, with its `examples`;
 * `collectionFormat` the parameter's style. What has no OpenAPI 3.0 form (`tsv` arrays) is
 * returned as a loss for the importer to note.
 */
import { childPointer, pointerTokens } from "./document-files.ts";
import { isObject, setEntry } from "./context.ts";
import type { JsonObject, JsonValue } from "./document.ts";
import { movedRef, PointerMap } from "./pointer-map.ts";
import { schemaOf, simpleSchemaOf } from "./swagger2-schemas.ts";

/** Something the conversion could not carry, at its place in the Swagger document. */
export interface ConversionLoss {
  pointer: string;
  what: string;
}

export interface Converted {
  document: JsonObject;
  pointers: PointerMap;
  losses: ConversionLoss[];
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch"] as const;
const jsonType = "application/json";

/** The state of one conversion: the whole document, where things went, and what was lost. */
interface Conversion {
  root: JsonObject;
  pointers: PointerMap;
  losses: ConversionLoss[];
}

/** Converts a Swagger 2.0 document (its parsed root; not changed) to OpenAPI 3.0.3. */
export function fromSwagger2(root: JsonObject): Converted {
  const c: Conversion = { root, pointers: new PointerMap(), losses: [] };
  const document: JsonObject = { openapi: "3.0.3" };
  for (const [key, value] of Object.entries(root)) {
    if (key === "info" || key === "tags" || key === "externalDocs" || key === "security")
      document[key] = value;
    else if (key.startsWith("x-")) setEntry(document, key, value);
  }
  const servers = serversOf(root);
  if (servers.length) {
    document.servers = servers;
    c.pointers.record("#/servers", root.host !== undefined ? "#/host" : "#/basePath");
  }
  document.paths = pathsOf(c);
  // the sections as wholes, for the places and references a note or an error shows
  c.pointers.record("#/components/schemas", "#/definitions");
  c.pointers.record("#/components/parameters", "#/parameters");
  c.pointers.record("#/components/responses", "#/responses");
  c.pointers.record("#/components/securitySchemes", "#/securityDefinitions");
  const components = componentsOf(c);
  if (Object.keys(components).length) document.components = components;
  return { document, pointers: c.pointers, losses: c.losses };
}

/** `schemes`, `host` and `basePath` as server URLs (https first); a relative one without a host. */
function serversOf(root: JsonObject): JsonObject[] {
  const basePath = typeof root.basePath === "string" ? withoutTrailingSlashes(root.basePath) : "";
  if (typeof root.host !== "string" || root.host === "") return basePath ? [{ url: basePath }] : [];
  const schemes = Array.isArray(root.schemes)
    ? root.schemes.filter((s): s is string => typeof s === "string" && /^(https?|wss?)$/i.test(s))
    : [];
  const ordered = schemes.length ? [...schemes].sort((a, b) => order(a) - order(b)) : ["https"];
  return ordered.map((scheme) => ({ url: `${scheme.toLowerCase()}://${root.host}${basePath}` }));
}

/** The text without its trailing `/`s (a loop: `/\/+$/` is quadratic on a run of slashes). */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}

const order = (scheme: string) => ["https", "http", "wss", "ws"].indexOf(scheme.toLowerCase());

/** Every path item, its operations converted. */
function pathsOf(c: Conversion): JsonObject {
  const paths: JsonObject = {};
  if (!isObject(c.root.paths)) return paths;
  for (const [path, item] of Object.entries(c.root.paths)) {
    const at = childPointer("#/paths", path);
    if (!isObject(item)) {
      setEntry(paths, path, item);
      continue;
    }
    const out: JsonObject = {};
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const [key, value] of Object.entries(item)) {
      if ((methods as readonly string[]).includes(key) && isObject(value))
        out[key] = operationOf(c, value, shared, childPointer(at, key), at);
      else if (key === "parameters") {
        const kept = simpleParameters(c, shared, `${at}/parameters`);
        if (kept.length) out.parameters = kept;
      } else if (key === "$ref" && typeof value === "string") out.$ref = value;
      else setEntry(out, key, value);
    }
    setEntry(paths, path, out);
  }
  return paths;
}

/** One operation: its non-body parameters, its body (from the path's too) and responses. */
function operationOf(
  c: Conversion,
  op: JsonObject,
  shared: JsonValue[],
  at: string,
  pathAt: string,
): JsonObject {
  const out: JsonObject = {};
  const own = Array.isArray(op.parameters) ? op.parameters : [];
  for (const [key, value] of Object.entries(op)) {
    if (key === "parameters") {
      const kept = simpleParameters(c, own, `${at}/parameters`);
      if (kept.length) out.parameters = kept;
    } else if (key === "responses" && isObject(value))
      out.responses = responsesOf(c, value, producesOf(c, op), `${at}/responses`);
    else if (key !== "consumes" && key !== "produces" && key !== "schemes")
      setEntry(out, key, value);
  }
  const body = requestBodyOf(c, op, own, shared, at, pathAt);
  if (body) out.requestBody = body;
  return out;
}

const consumesOf = (c: Conversion, op: JsonObject): string[] =>
  mediaTypes(op.consumes) ?? mediaTypes(c.root.consumes) ?? [jsonType];
const producesOf = (c: Conversion, op: JsonObject): string[] =>
  mediaTypes(op.produces) ?? mediaTypes(c.root.produces) ?? [jsonType];

function mediaTypes(value: JsonValue | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const types = value.filter((t): t is string => typeof t === "string" && t !== "");
  return types.length ? types : undefined;
}

/** A parameter with its `$ref` to `#/parameters/X` followed, and where it is. */
function followed(c: Conversion, param: JsonValue, at: string): { value: JsonValue; at: string } {
  if (!isObject(param) || typeof param.$ref !== "string" || !param.$ref.startsWith("#/"))
    return { value: param, at };
  const [section, name, ...deeper] = pointerTokens(param.$ref);
  const globals = c.root.parameters;
  const target =
    section === "parameters" && name !== undefined && !deeper.length && isObject(globals)
      ? Object.hasOwn(globals, name)
        ? globals[name]
        : undefined
      : undefined;
  return target === undefined ? { value: param, at } : { value: target, at: param.$ref };
}

/** Whether a parameter (followed) goes into the request body. */
function inBody(c: Conversion, param: JsonValue, at: string): boolean {
  const { value } = followed(c, param, at);
  return isObject(value) && (value.in === "body" || value.in === "formData");
}

/**
 * The query, path, header and cookie parameters of a list, converted; a `$ref` to a global
 * one stays a reference (to its component). Records each one's new index.
 */
function simpleParameters(c: Conversion, params: JsonValue[], at: string): JsonValue[] {
  const kept: JsonValue[] = [];
  params.forEach((param, index) => {
    const here = `${at}/${index}`;
    if (inBody(c, param, here)) return;
    // the converted list sits where the original did, without the body's parameters
    const there = `${at}/${kept.length}`;
    c.pointers.record(there, here);
    if (isObject(param) && typeof param.$ref === "string")
      kept.push({ $ref: movedRef(param.$ref) });
    else kept.push(isObject(param) ? simpleParameterOf(c, param, here, there) : param);
  });
  return kept;
}

/** A query, path, header or cookie parameter: its value's keys become its schema. */
function simpleParameterOf(
  c: Conversion,
  param: JsonObject,
  at: string,
  convertedAt: string,
): JsonObject {
  const out: JsonObject = {};
  for (const key of ["name", "in", "description", "required", "deprecated", "allowEmptyValue"])
    if (Object.hasOwn(param, key)) out[key] = param[key]!;
  for (const [key, value] of Object.entries(param))
    if (key.startsWith("x-")) setEntry(out, key, value);
  out.schema = simpleSchemaOf(param);
  c.pointers.record(`${convertedAt}/schema`, at);
  const style = styleOf(param, at, c);
  if (style) Object.assign(out, style);
  return out;
}

/** `collectionFormat` as OpenAPI 3.0's `style` and `explode`, by where the parameter is. */
function styleOf(param: JsonObject, at: string, c: Conversion): JsonObject | undefined {
  if (param.type !== "array") return undefined;
  const format = typeof param.collectionFormat === "string" ? param.collectionFormat : "csv";
  const inQuery = param.in === "query" || param.in === "formData";
  switch (format) {
    case "multi":
      return inQuery ? { style: "form", explode: true } : undefined;
    case "ssv":
      return inQuery ? { style: "spaceDelimited", explode: false } : undefined;
    case "pipes":
      return inQuery ? { style: "pipeDelimited", explode: false } : undefined;
    case "csv":
      return inQuery ? { style: "form", explode: false } : { style: "simple", explode: false };
    default:
      c.losses.push({ pointer: `${at}/collectionFormat`, what: `collectionFormat ${format}` });
      return inQuery ? { style: "form", explode: false } : undefined;
  }
}

/**
 * The operation's body: its `body` parameter (or the path's), in each media type it consumes;
 * or its `formData` parameters as one object, multipart when a file is among them or the
 * operation consumes `multipart/form-data`, else URL-encoded.
 */
function requestBodyOf(
  c: Conversion,
  op: JsonObject,
  own: JsonValue[],
  shared: JsonValue[],
  at: string,
  pathAt: string,
): JsonObject | undefined {
  const located = [
    ...own.map((p, i) => followed(c, p, `${at}/parameters/${i}`)),
    ...shared
      .map((p, i) => followed(c, p, `${pathAt}/parameters/${i}`))
      // an operation's own parameter of the same name and place replaces the path's
      .filter((p) => !own.some((o) => sameParameter(c, o, p.value))),
  ].filter((p) => isObject(p.value) && (p.value.in === "body" || p.value.in === "formData"));
  const body = located.find((p) => (p.value as JsonObject).in === "body");
  const consumes = consumesOf(c, op);
  if (body) {
    const param = body.value as JsonObject;
    const content: JsonObject = {};
    const types = consumes.filter((t) => !isFormType(t));
    for (const type of types.length ? types : [jsonType]) {
      setEntry(content, type, { schema: schemaOf(param.schema ?? {}) });
      c.pointers.record(
        `${childPointer(`${at}/requestBody/content`, type)}/schema`,
        `${body.at}/schema`,
      );
    }
    c.pointers.record(`${at}/requestBody`, body.at);
    return withDescription(
      { content, ...(param.required === true ? { required: true } : {}) },
      param,
    );
  }
  const fields = located.filter((p) => (p.value as JsonObject).in === "formData");
  if (!fields.length) return undefined;
  const multipart =
    consumes.includes("multipart/form-data") ||
    fields.some((p) => (p.value as JsonObject).type === "file");
  const type = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded";
  const schemaAt = `${childPointer(`${at}/requestBody/content`, type)}/schema`;
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const field of fields) {
    const param = field.value as JsonObject;
    const name = String(param.name ?? "");
    const schema = simpleSchemaOf(param);
    if (typeof param.description === "string") schema.description = param.description;
    setEntry(properties, name, schema);
    c.pointers.record(childPointer(`${schemaAt}/properties`, name), field.at);
    if (param.required === true) required.push(name);
    styleOf(param, field.at, c);
  }
  c.pointers.record(`${at}/requestBody`, fields[0]!.at);
  c.pointers.record(schemaAt, fields[0]!.at);
  const schema: JsonObject = {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
  };
  return { content: { [type]: { schema } }, ...(required.length ? { required: true } : {}) };
}

const isFormType = (type: string) =>
  type === "multipart/form-data" || type === "application/x-www-form-urlencoded";

function sameParameter(c: Conversion, own: JsonValue, shared: JsonValue): boolean {
  const { value } = followed(c, own, "");
  return (
    isObject(value) && isObject(shared) && value.name === shared.name && value.in === shared.in
  );
}

function withDescription(body: JsonObject, param: JsonObject): JsonObject {
  return typeof param.description === "string" ? { description: param.description, ...body } : body;
}

/** Each response: its schema as content in each media type produced, its headers' schemas. */
function responsesOf(
  c: Conversion,
  responses: JsonObject,
  produces: string[],
  at: string,
): JsonObject {
  const out: JsonObject = {};
  for (const [status, response] of Object.entries(responses))
    setEntry(
      out,
      status,
      responseOf(c, response, produces, childPointer(at, status), childPointer(at, status)),
    );
  return out;
}

/** One response; `at` is its place in the Swagger document, `convertedAt` in the conversion. */
function responseOf(
  c: Conversion,
  response: JsonValue,
  produces: string[],
  at: string,
  convertedAt: string,
): JsonValue {
  if (!isObject(response)) return response;
  if (typeof response.$ref === "string") return { $ref: movedRef(response.$ref) };
  const out: JsonObject = {
    description: typeof response.description === "string" ? response.description : "",
  };
  const examples = isObject(response.examples) ? response.examples : {};
  if (response.schema !== undefined) {
    const content: JsonObject = {};
    for (const type of produces) {
      const media: JsonObject = { schema: schemaOf(response.schema) };
      if (Object.hasOwn(examples, type)) media.example = examples[type]!;
      setEntry(content, type, media);
      c.pointers.record(`${childPointer(`${convertedAt}/content`, type)}/schema`, `${at}/schema`);
    }
    out.content = content;
  }
  if (isObject(response.headers)) {
    const headers: JsonObject = {};
    for (const [name, header] of Object.entries(response.headers)) {
      if (!isObject(header)) continue;
      const converted: JsonObject = { schema: simpleSchemaOf(header) };
      if (typeof header.description === "string") converted.description = header.description;
      c.pointers.record(
        `${childPointer(`${convertedAt}/headers`, name)}/schema`,
        childPointer(`${at}/headers`, name),
      );
      setEntry(headers, name, converted);
    }
    out.headers = headers;
  }
  for (const [key, value] of Object.entries(response))
    if (key.startsWith("x-")) setEntry(out, key, value);
  return out;
}

/** `definitions`, the global non-body `parameters`, `responses` and `securityDefinitions`. */
function componentsOf(c: Conversion): JsonObject {
  const components: JsonObject = {};
  const { root } = c;
  if (isObject(root.definitions)) {
    const schemas: JsonObject = {};
    for (const [name, schema] of Object.entries(root.definitions))
      setEntry(schemas, name, schemaOf(schema));
    components.schemas = schemas;
  }
  if (isObject(root.parameters)) {
    const parameters: JsonObject = {};
    for (const [name, param] of Object.entries(root.parameters)) {
      const at = childPointer("#/parameters", name);
      const there = childPointer("#/components/parameters", name);
      // a body or form parameter has no component form: operations take it in as their body
      if (isObject(param) && typeof param.$ref === "string")
        setEntry(parameters, name, { $ref: movedRef(param.$ref) });
      else if (isObject(param) && param.in !== "body" && param.in !== "formData")
        setEntry(parameters, name, simpleParameterOf(c, param, at, there));
    }
    if (Object.keys(parameters).length) components.parameters = parameters;
  }
  if (isObject(root.responses)) {
    const responses: JsonObject = {};
    for (const [name, response] of Object.entries(root.responses)) {
      const at = childPointer("#/responses", name);
      const there = childPointer("#/components/responses", name);
      setEntry(responses, name, responseOf(c, response, producesOf(c, {}), at, there));
    }
    components.responses = responses;
  }
  if (isObject(root.securityDefinitions)) {
    const schemes: JsonObject = {};
    for (const [name, scheme] of Object.entries(root.securityDefinitions))
      setEntry(schemes, name, securitySchemeOf(scheme));
    components.securitySchemes = schemes;
  }
  return components;
}

/** `basic` as HTTP basic; an OAuth 2 flow under its OpenAPI 3 name; `apiKey` as it is. */
function securitySchemeOf(scheme: JsonValue): JsonValue {
  if (!isObject(scheme)) return scheme;
  const extensions = Object.fromEntries(Object.entries(scheme).filter(([k]) => k.startsWith("x-")));
  const described =
    typeof scheme.description === "string" ? { description: scheme.description } : {};
  if (scheme.type === "basic")
    return { type: "http", scheme: "basic", ...described, ...extensions };
  if (scheme.type !== "oauth2") return scheme;
  const flowNames: Record<string, string> = {
    implicit: "implicit",
    password: "password",
    application: "clientCredentials",
    accessCode: "authorizationCode",
  };
  const flow: JsonObject = { scopes: isObject(scheme.scopes) ? scheme.scopes : {} };
  if (typeof scheme.authorizationUrl === "string") flow.authorizationUrl = scheme.authorizationUrl;
  if (typeof scheme.tokenUrl === "string") flow.tokenUrl = scheme.tokenUrl;
  const name = flowNames[String(scheme.flow)] ?? "implicit";
  return { type: "oauth2", ...described, flows: { [name]: flow }, ...extensions };
}
