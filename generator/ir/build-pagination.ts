/**
 * `pagination:` of an endpoint: how its list call walks every page. Every name is checked
 * against the endpoint's query parameters and its resolved response type (so it runs once the
 * types are resolved), each problem reported at the key that names it; the item type is read
 * off the `items` array for the client's `for await`.
 */
import { suggestion } from "../diagnostics/diagnostic.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, type BuildContext } from "./build-context.ts";
import { firstEntry } from "./field-path.ts";
import { referencedNames } from "./walk.ts";
import { objectFieldsOf, resolveType, type TypeLookup } from "./callback-routing.ts";
import type { Decl } from "./merge.ts";
import type {
  Endpoint,
  Field,
  FieldPath,
  NamedType,
  Pagination,
  PaginationStyle,
  PagingRule,
  TypeNode,
} from "./model.ts";

type Data = Record<string, unknown>;

/** The keys each style takes besides `style` and `items`. */
const styleKeys: Readonly<Record<PaginationStyle, readonly string[]>> = {
  cursor: ["in", "param", "cursor", "hasMore"],
  nextToken: ["in", "param", "token", "hasMore", "stopOnEmptyPage"],
  offset: ["in", "offset", "limit", "total", "hasMore"],
  page: ["in", "page", "perPage", "total", "hasMore", "stopOnEmptyPage"],
  link: ["header", "field", "stopOnEmptyPage"],
};

/** Where the checks of one endpoint's pagination report, and what they read. */
interface Scope {
  ctx: BuildContext;
  types: TypeLookup;
  file: SpecFile;
  /** Data path of the `pagination` mapping. */
  at: DataPath;
  endpoint: Endpoint;
  spec: Data;
  /** With `in: body`: the request body's fields, which the moving value's names are checked against. */
  bodyFields?: readonly Field[];
}

/** The endpoints, each with its checked `pagination` where the spec declares one. */
export function withPagination(
  ctx: BuildContext,
  decls: readonly Decl[],
  endpoints: readonly Endpoint[],
  namedTypes: readonly NamedType[],
): Endpoint[] {
  const types = new Map(namedTypes.map((t) => [t.name, t] as const));
  return endpoints.map((endpoint, i) => {
    const decl = decls[i]!;
    if (!isRecord(decl.value.pagination)) return endpoint;
    const scope: Scope = {
      ctx,
      types,
      file: decl.file,
      at: [...decl.path, "pagination"],
      endpoint,
      spec: decl.value.pagination,
    };
    const pagination = paginationOf(scope);
    return pagination ? { ...endpoint, pagination } : endpoint;
  });
}

/** The checked pagination, or undefined when a problem was reported. */
function paginationOf(scope: Scope): Pagination | undefined {
  const { ctx, file, at, endpoint, spec } = scope;
  const style = spec.style as PaginationStyle;
  const reported = ctx.bag.items.length;
  for (const key of Object.keys(spec)) {
    if (key === "style" || key === "items" || styleKeys[style].includes(key)) continue;
    ctx.bag.report(
      "pagination-key-style",
      { key, style, allowed: ["items", ...styleKeys[style]].join(", ") },
      file.locate([...at, key], "key"),
    );
  }
  const { response } = endpoint;
  if (response.kind !== "json" || !response.body) {
    const problem = !response.body
      ? `${endpoint.id} declares no response body`
      : `${endpoint.id} answers ${response.contentType}`;
    ctx.bag.report("pagination-response", { problem }, file.locate(at, "key"));
    return undefined;
  }
  // a body that names a type the spec does not have is reported as that (unresolved-ref):
  // its fields cannot be told, so no field of it is said to be missing (a trial of Spotify's
  // API saw "items tracks.items is not a field of Paging" printed before "unknown type Paging")
  if (namesUnknownType(response.body, scope.types)) return undefined;
  const itemType = itemTypeOf(scope, response.body);
  // (`in` on the link style is reported above as a key of another style)
  const fields = spec.in === "body" && style !== "link" ? bodyFieldsOf(scope) : undefined;
  if (spec.in === "body" && style !== "link" && !fields) return undefined;
  const rule = ruleOf(fields ? { ...scope, bodyFields: fields } : scope, style, itemType);
  if (!itemType || ctx.bag.items.length > reported) return undefined;
  // An empty page ends the walk unless the spec says it need not (cursor and offset cannot
  // move on from one, so only the other styles take the key).
  const goesOn = spec.stopOnEmptyPage === false ? { stopOnEmptyPage: false as const } : {};
  return {
    items: pathOf(spec.items),
    itemType,
    location: file.locate(at, "key"),
    ...goesOn,
    ...(spec.in === "body" ? { in: "body" as const } : {}),
    ...rule,
  };
}

/**
 * The fields of the request body, which `in: body` paging moves the walk on through; reports
 * (at `in`) when the endpoint has no body, or one that is not an object.
 */
function bodyFieldsOf(scope: Scope): Field[] | undefined {
  const { ctx, file, at, endpoint, types } = scope;
  const fields = objectFieldsOf(endpoint.body, types);
  if (fields) return fields;
  const problem = endpoint.body
    ? `sends ${describe(endpoint.body)}, not an object with fields`
    : "declares no request body";
  ctx.bag.report("pagination-body", { endpoint: endpoint.id, problem }, file.locate([...at, "in"]));
  return undefined;
}

/** What the style reads to find the next page, each name checked. */
function ruleOf(scope: Scope, style: PaginationStyle, itemType: TypeNode | undefined): PagingRule {
  const { ctx, file, at, endpoint, spec } = scope;
  const hasMore = () => optional("hasMore", bodyField(scope, "hasMore", isBoolean, "a boolean"));
  switch (style) {
    case "cursor":
      return {
        style,
        param: queryParam(scope, "param", undefined),
        cursor: itemField(scope, itemType),
        ...hasMore(),
      };
    case "nextToken":
      return {
        style,
        param: queryParam(scope, "param", undefined),
        token: bodyField(scope, "token", isString, "a string") ?? [],
        ...hasMore(),
      };
    case "offset":
    case "page": {
      const offset = style === "offset";
      const name = queryParam(scope, style, style);
      const size = queryParam(
        scope,
        offset ? "limit" : "perPage",
        offset ? "limit" : "per_page",
        true,
      );
      // The first offset or page of a walk whose caller gives none: what the server assumes.
      const fallback = (
        scope.bodyFields
          ? scope.bodyFields.find((f) => f.name === name)
          : endpoint.params.find((p) => p.name === name)
      )?.type.docs.default;
      const start = typeof fallback === "number" ? fallback : offset ? 0 : 1;
      const rest = {
        start,
        ...optional("total", bodyField(scope, "total", isNumber, "a number")),
        ...hasMore(),
      };
      return offset
        ? { style, offset: name, limit: size, ...rest }
        : { style, page: name, perPage: size, ...rest };
    }
    case "link": {
      const field = bodyField(scope, "field", isString, "a string");
      if (field && spec.header !== undefined)
        ctx.bag.report("pagination-link-twice", {}, file.locate([...at, "header"], "key"));
      return field
        ? { style, field }
        : { style, header: typeof spec.header === "string" ? spec.header : "Link" };
    }
    default: {
      const unhandled: never = style;
      throw new Error(`unhandled pagination style ${String(unhandled)}`);
    }
  }
}

/** `{ [key]: value }`, or nothing when the value is absent (optional keys stay absent). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A dot path as its field names; `[]` for an absent one. */
function pathOf(value: unknown): FieldPath {
  return typeof value === "string" ? value.split(".") : [];
}

const isBoolean = (node: TypeNode) => node.kind === "primitive" && node.name === "boolean";
const isString = (node: TypeNode) =>
  (node.kind === "primitive" && node.name === "string") ||
  (node.kind === "enum" && node.values.every((v) => typeof v === "string"));
const isNumber = (node: TypeNode) =>
  node.kind === "primitive" && (node.name === "integer" || node.name === "number");

/** How a type reads in a message: its name, or its kind with an article. */
function describe(node: TypeNode): string {
  if (node.kind === "ref") return node.name;
  const word = node.kind === "primitive" ? node.name : node.kind;
  return `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;
}

/**
 * The type at `path` inside `node`, through references and nullable objects; a string saying
 * which step is missing when there is none.
 */
export function typeAt(node: TypeNode, path: FieldPath, types: TypeLookup): TypeNode | string {
  let current = node;
  let label = describe(node);
  for (const name of path) {
    const resolved = resolveType(current, types);
    // `[0]`: the first entry of a list (error fields only: ir/field-path.ts)
    if (name === firstEntry) {
      if (resolved.kind !== "array")
        return `reads [0] of ${label}, which is ${describe(resolved)}, not a list`;
      current = resolved.items;
      label = current.kind === "ref" ? current.name : `an entry of ${label}`;
      continue;
    }
    const fields = resolved.kind === "object" ? resolved.fields : [];
    const field = fields.find((f) => f.name === name);
    if (!field)
      return `is not a field of ${label}${suggestion(
        name,
        fields.map((f) => f.name),
      )}`;
    current = field.type;
    label = current.kind === "ref" ? current.name : name;
  }
  return current;
}

/** Whether `node` reaches a named type that does not exist, through fields, items and members. */
function namesUnknownType(node: TypeNode, types: TypeLookup): boolean {
  const seen = new Set<string>();
  const pending = [...referencedNames(node)];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const named = types.get(name);
    if (!named) return true;
    pending.push(...referencedNames(named.type));
  }
  return false;
}

/** The element type of the `items` array (or of the body when `items` is absent); reports when there is none. */
function itemTypeOf(scope: Scope, body: TypeNode): TypeNode | undefined {
  const { ctx, file, at, spec, types } = scope;
  const path = pathOf(spec.items);
  const found = typeAt(body, path, types);
  const where = file.locate(
    [...at, path.length ? "items" : "style"],
    path.length ? "value" : "key",
  );
  const target = typeof found === "string" ? undefined : resolveType(found, types);
  if (target?.kind === "array") return target.items;
  const problem = !path.length
    ? `the response body ${describe(body)} is not an array: name the field that holds the items with items:`
    : typeof found === "string"
      ? `items ${spec.items} ${found}`
      : `items ${spec.items} is ${describe(found)}, not an array of the page's items`;
  ctx.bag.report("pagination-items", { problem }, where);
  return undefined;
}

/** The dot path of `key`, a field of the response body of the kind `accepts` checks. */
function bodyField(
  scope: Scope,
  key: string,
  accepts: (node: TypeNode) => boolean,
  kind: string,
): FieldPath | undefined {
  const { spec, endpoint } = scope;
  if (typeof spec[key] !== "string") return undefined;
  return fieldOf(
    scope,
    key,
    endpoint.response.body!,
    accepts,
    `${kind} field of the response body`,
  );
}

/** The dot path of `cursor`, a field of the item type that gives a string or number. */
function itemField(scope: Scope, itemType: TypeNode | undefined): FieldPath {
  const { spec } = scope;
  if (typeof spec.cursor !== "string") {
    scope.ctx.bag.report(
      "schema-missing-key",
      { key: "cursor" },
      scope.file.locate(scope.at, "key"),
    );
    return [];
  }
  if (!itemType) return pathOf(spec.cursor);
  const scalar = (node: TypeNode) => isString(node) || isNumber(node);
  return (
    fieldOf(
      scope,
      "cursor",
      itemType,
      scalar,
      `a string or number field of the item type ${describe(itemType)}`,
    ) ?? []
  );
}

/** Checks the field `spec[key]` inside `node`; reports at its value when it is missing or of another kind. */
function fieldOf(
  scope: Scope,
  key: string,
  node: TypeNode,
  accepts: (node: TypeNode) => boolean,
  wanted: string,
): FieldPath | undefined {
  const { ctx, file, at, spec, types } = scope;
  const text = String(spec[key]);
  const found = typeAt(node, pathOf(text), types);
  // a field of any value (`unknown`, or a type written that could not be read, already
  // reported there) is read as the walk finds it: no second error for the first
  const resolved = typeof found === "string" ? undefined : resolveType(found, types);
  const problem =
    typeof found === "string"
      ? `${found}; it must be ${wanted}`
      : resolved!.kind === "unknown" || accepts(resolved!)
        ? undefined
        : `is ${describe(found)}; it must be ${wanted}`;
  if (problem)
    ctx.bag.report("pagination-field", { key, path: text, problem }, file.locate([...at, key]));
  return problem ? undefined : pathOf(text);
}

/**
 * The query parameter `spec[key]` (else `fallback`, the style's default name), which must be
 * one of the endpoint's; `implicit`: a default name the endpoint need not declare (a page
 * size the caller may leave to the server).
 */
function queryParam(
  scope: Scope,
  key: string,
  fallback: string | undefined,
  implicit = false,
): string {
  const { ctx, file, at, spec, endpoint } = scope;
  const given = typeof spec[key] === "string" ? (spec[key] as string) : undefined;
  const name = given ?? fallback;
  if (name === undefined) {
    ctx.bag.report("schema-missing-key", { key }, file.locate(at, "key"));
    return "";
  }
  const { bodyFields } = scope;
  const queries = bodyFields
    ? bodyFields.map((f) => f.name)
    : endpoint.params.filter((p) => p.placement === "query").map((p) => p.name);
  if (queries.includes(name) || (implicit && given === undefined)) return name;
  ctx.bag.report(
    "pagination-param",
    {
      key,
      name,
      place: bodyFields ? "a field of the request body" : "a query parameter",
      endpoint: endpoint.id,
      hint:
        given === undefined
          ? ` (the default name; declare it, or name the endpoint's own with ${key}:)`
          : suggestion(name, queries),
    },
    given !== undefined ? file.locate([...at, key]) : file.locate([...at, "style"]),
  );
  return name;
}
