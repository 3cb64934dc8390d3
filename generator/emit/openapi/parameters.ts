/**
 * OpenAPI parameters of an operation: its path, query and trailing parameters, its
 * request headers, and the API's shared optional headers (`components.parameters`).
 * Headers OpenAPI describes elsewhere are left out: `Content-Type` and `Accept` (the media
 * types of the bodies) and `Authorization` (the security schemes). A trailing parameter
 * (one the source puts after the path without saying how) is a path parameter appended to
 * the path template as `/{name}`: see `pathTemplate`.
 */
import type { HeaderSpec, Param } from "../../ir/model.ts";
import { componentKey, notesOf, obj, text, type JsonObject } from "./json.ts";
import { placementText, schemaOf } from "./schemas.ts";

/** Headers a parameter may not describe (OpenAPI 3.1, Parameter Object: `name`). */
const describedElsewhere = new Set(["accept", "content-type", "authorization"]);

/** Whether a request header becomes a header parameter. */
export function isHeaderParameter(header: HeaderSpec): boolean {
  return !describedElsewhere.has(header.name.toLowerCase());
}

/** The path of an operation with its trailing parameters appended as `/{name}` segments. */
export function pathTemplate(path: string, params: readonly Param[]): string {
  const trailing = params.filter((p) => p.placement === "trailing").map((p) => `/{${p.name}}`);
  return trailing.length ? `${path.replace(/\/$/, "")}${trailing.join("")}` : path;
}

/** OpenAPI `in` of a parameter placement. */
function placementIn(param: Param): "path" | "query" | "header" {
  const placement = param.placement;
  switch (placement) {
    case "path":
    case "trailing":
      return "path";
    case "query":
      return "query";
    case "header":
      return "header";
    default: {
      const unhandled: never = placement;
      throw new Error(`unhandled parameter placement ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * How a query array or object is serialized. `brackets` has no OpenAPI style: it is
 * `form`/`explode` (the nearest, which tools read as `a=1&a=2`) plus `x-apigen-style`.
 */
function styleOf(param: Param): JsonObject {
  if (param.placement !== "query") return {};
  const t = param.type;
  const structured = t.kind === "array" || t.kind === "object" || t.kind === "ref";
  const style = param.style ?? "repeat";
  switch (style) {
    case "repeat":
      return t.kind === "array" ? { style: "form", explode: true } : {};
    case "comma":
      return { style: "form", explode: false };
    case "space":
      return { style: "spaceDelimited", explode: false };
    case "pipe":
      return { style: "pipeDelimited", explode: false };
    case "brackets":
      return { style: "form", explode: true, "x-apigen-style": "brackets" };
    case "deepObject":
      return structured ? { style: "deepObject", explode: true } : {};
    default: {
      const unhandled: never = style;
      throw new Error(`unhandled query style ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The sentence a parameter whose default the client sends ends with (`--import` reads it back). */
export const sendsDefaultText = "The client sends the default when the parameter is left out.";

/** A path, query, header or trailing parameter: docs on the parameter, the type's shape in `schema`. */
export function parameterOf(param: Param): JsonObject {
  const docs = param.type.docs;
  const trailing = param.placement === "trailing" ? placementText.trailing : undefined;
  const sends = param.sendDefault ? sendsDefaultText : undefined;
  return obj({
    name: param.wireName ?? param.name,
    in: placementIn(param),
    required: param.required || placementIn(param) === "path",
    description: text(docs.description, trailing, sends),
    deprecated: docs.deprecated ? true : undefined,
    ...styleOf(param),
    schema: schemaOf(param.type, { bare: true }),
    "x-undocumented": notesOf(docs),
    "x-apigen-trailing": param.placement === "trailing" ? true : undefined,
    // A catch-all: the value's slashes are sent as they are (OpenAPI has no word for it).
    "x-apigen-slashes": param.slashes,
    // The key of the spec's params, when the parameter travels under another name: --import reads it back.
    "x-apigen-key": param.wireName !== undefined ? param.name : undefined,
  });
}

/** A request header: a fixed value is a `const`; a variable one takes its declared type (a string by default). */
export function headerParameterOf(header: HeaderSpec): JsonObject {
  const schema =
    header.value !== undefined
      ? { type: "string", const: header.value }
      : header.schema
        ? schemaOf(header.schema, { bare: true })
        : { type: "string" };
  return obj({
    name: header.name,
    in: "header",
    required: header.required,
    description: text(header.docs.description, header.schema?.docs.description),
    schema,
    "x-undocumented": notesOf(header.docs, header.schema?.docs),
  });
}

/** Key of a shared header in `components.parameters`. */
export function sharedHeaderKey(header: HeaderSpec): string {
  return componentKey(header.name);
}

/** `$ref` to a parameter component. */
export function parameterRef(key: string): JsonObject {
  return { $ref: `#/components/parameters/${key}` };
}

/**
 * A shared header (e.g. X-Nonce) as a component: optional, since the source does not say
 * which endpoints take it (that gap travels with it as `x-undocumented`).
 */
export function sharedHeaderParameter(header: HeaderSpec): JsonObject {
  // Marked as the spec's `headers` section, not a parameter of each endpoint: --import reads it back so.
  return { ...headerParameterOf({ ...header, required: false }), "x-apigen-shared-header": true };
}
