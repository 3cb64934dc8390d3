/**
 * The stand-in and trigger part of the model (`model.standIn`), worked out once from the
 * rest of it: each endpoint's route (credentials and their refusals, validation status and
 * error body, response), the state the spec implies (webhook registration with its id
 * prefix and uniqueness rule, lifecycle transitions), and the events the trigger sends.
 */
import type {
  Collection,
  ErrorTemplate,
  Refusal,
  RouteArea,
  RouteData,
  RouteParam,
  RouteResponse,
  RouteState,
  TokenEndpoint,
  VersionHeader,
} from "../runtime/testing/table.ts";
import { expandableFieldAt, expandablePaths } from "./build-expand.ts";
import { routePagingOf } from "./stand-in-paging.ts";
import {
  objectFieldsOf,
  resolveType,
  urlValueOf as urlValueOfType,
  type TypeLookup,
} from "./callback-routing.ts";
import type { ExpandablePath, RouteExpand } from "../runtime/testing/expand.ts";
import type { RoutePaging } from "../runtime/testing/paging.ts";
import type {
  ApiModel,
  Endpoint,
  EndpointResponse,
  NamedType,
  Param,
  StreamError,
  TypeNode,
} from "./model.ts";
import { buildTriggerEvents } from "./stand-in-events.ts";
import { clientCredentialsFlow, isTemplateUrl, tokenPlaceOf } from "./build-oauth.ts";
import type { StandInModel } from "./stand-in-model.ts";
import {
  credentialChecks,
  errorTemplateOf,
  genericErrorTemplate,
  hasSlot,
  listedRefusals,
  numericStatus,
  reasonTags,
  withTag,
} from "./stand-in-refusals.ts";
import { shapeOf, shapeTableOf } from "./stand-in-shapes.ts";
import { answeredMediaType, madeUpHeaders } from "./stand-in-http.ts";

/** The area (version) of an endpoint, or the fallback. */
function areaOf(endpoint: Endpoint, model: ApiModel): { errorBody: string; invalidInput: number } {
  const version = model.versioning.versions.find((v) => v.name === endpoint.version);
  if (version) return { errorBody: version.name, invalidInput: version.invalidInputStatus ?? 400 };
  // Without a version, invalid input gets the status the endpoint lists for it: 422, else 400.
  const listed = endpoint.errors.some((e) => e.status === 422);
  return { errorBody: "default", invalidInput: listed ? 422 : 400 };
}

/** Whether the spec states that records are unique: a rule that says so, word for word. */
function uniquenessRule(rules: readonly string[]): string | undefined {
  return rules.find((r) => /\bunique\b/i.test(r));
}

/**
 * The webhooks' registration as a collection: the create endpoint's response field with an
 * id prefix, the delete endpoint's path parameter of the same prefix.
 */
function webhookCollection(
  model: ApiModel,
  types: ReadonlyMap<string, NamedType>,
): { collection: Collection; state: Map<string, RouteState> } | undefined {
  const registration = (model.webhooks?.registration ?? [])
    .map((id) => model.endpoints.find((e) => e.id === id))
    .filter((e): e is Endpoint => e !== undefined);
  const create = registration.find((e) => e.method === "POST");
  const remove = registration.find((e) => e.method === "DELETE");
  const body = create?.response.body;
  const resolved = body?.kind === "ref" ? types.get(body.name)?.type : body;
  const idField =
    resolved?.kind === "object"
      ? resolved.fields.find((f) => f.type.constraints.prefix)
      : undefined;
  const param = remove?.params.find((p) => p.placement === "path");
  if (!create || !remove || !idField || !param) return undefined;
  const area = areaOf(create, model);
  const rule = uniquenessRule([...create.rules, ...(model.webhooks?.rules ?? [])]);
  const name = create.group;
  const collection: Collection = {
    name,
    idField: idField.name,
    idPrefix: idField.type.constraints.prefix!,
    ...(rule ? { duplicate: { status: area.invalidInput, message: rule } } : {}),
    notFound: { status: 404, message: `no ${name} record with this ${param.name}` },
  };
  const state = new Map<string, RouteState>([
    [create.id, { kind: "create", collection: name }],
    [remove.id, { kind: "delete", collection: name, param: param.name }],
  ]);
  return { collection, state };
}

/** Lifecycle steps an endpoint triggers, on the resource its first path parameter names. */
function transitions(model: ApiModel): Map<string, RouteState> {
  const out = new Map<string, RouteState>();
  for (const lifecycle of model.lifecycles)
    for (const t of lifecycle.transitions) {
      const endpoint = model.endpoints.find((e) => e.id === t.trigger);
      const param = endpoint?.params.find((p) => p.placement === "path");
      if (!endpoint || !param) continue;
      // The spec may not name the state after the step; it is then named by the step itself.
      const to = t.to ?? `after ${endpoint.id}`;
      out.set(endpoint.id, {
        kind: "transition",
        lifecycle: lifecycle.name,
        to,
        param: param.name,
      });
    }
  return out;
}

/**
 * What a parameter's URL text (each item's, for a list) becomes: the model's own rule, else a
 * number or a boolean by its type, named types resolved and enums and literals by their values
 * (callback-routing.ts, as a callback's parameters are read); of a union of scalars
 * (`boolean | integer`), whichever of them the text reads as.
 */
function urlValueOf(p: Param, types: TypeLookup): { urlValue?: "number" | "boolean" | "scalar" } {
  if (p.urlValue) return { urlValue: p.urlValue };
  const resolved = resolveType(p.type, types);
  const type = resolved.kind === "array" ? resolveType(resolved.items, types) : resolved;
  if (type.kind === "union") {
    const kinds = type.variants.map((v) => urlValueOfType(v, types));
    return kinds.some((k) => k !== undefined) ? { urlValue: "scalar" } : {};
  }
  const urlValue = urlValueOfType(type, types);
  return urlValue ? { urlValue } : {};
}

/**
 * The fields of an object parameter of style deepObject, each with what its text becomes and
 * whether it is a list, so the stand-in reads `filter[status]=open` back as the client wrote it.
 */
function deepFieldsOf(p: Param, types: TypeLookup): Pick<RouteParam, "fields"> {
  if (p.style !== "deepObject") return {};
  const fields = objectFieldsOf(p.type, types);
  if (!fields) return {};
  const { urlValue: _own, ...param } = p;
  return {
    fields: Object.fromEntries(
      fields.map((f) => {
        const list = resolveType(f.type, types).kind === "array";
        const read = urlValueOf({ ...param, type: f.type }, types);
        return [f.name, { ...read, ...(list ? { list: true as const } : {}) }];
      }),
    ),
  };
}

/**
 * A stream's error item as the stand-in sends it: its body's error template (code and message
 * filled in), else `{ code, message }`, under the item's key for an item told by its key.
 */
function streamErrorOf(
  error: StreamError,
  types: ReadonlyMap<string, NamedType>,
): NonNullable<RouteResponse["error"]> {
  const own = error.body && errorTemplateOf(error.body, types);
  const keyed =
    error.field === undefined ||
    (own && "fields" in own && own.fields.some(([name, t]) => name === error.field && hasSlot(t)));
  const template =
    own && keyed
      ? own
      : error.field !== undefined
        ? { fields: [[error.field, genericErrorTemplate]] as [string, ErrorTemplate][] }
        : genericErrorTemplate;
  return {
    ...(error.field !== undefined ? { field: error.field } : { event: error.event! }),
    template,
  };
}

/** A success response as the stand-in answers it; a JSON response without a body says so. */
function responseOf(r: EndpointResponse, types: ReadonlyMap<string, NamedType>): RouteResponse {
  const headers = madeUpHeaders(r);
  const noBody = r.kind === "none" || (!r.body && r.kind === "json");
  return {
    status: r.status,
    kind: noBody ? "none" : r.kind,
    ...(r.contentType && !noBody ? { contentType: answeredMediaType(r.contentType) } : {}),
    ...(r.body && !noBody ? { body: shapeOf(r.body, types) } : {}),
    ...(r.stream?.events.length
      ? { events: r.stream.events.map((e) => ({ name: e.name, shape: shapeOf(e.type, types) })) }
      : {}),
    ...(r.stream?.terminator !== undefined ? { terminator: r.stream.terminator } : {}),
    ...(r.stream?.error ? { error: streamErrorOf(r.stream.error, types) } : {}),
    ...(headers.length > 0
      ? { headers: headers.map((h) => ({ name: h.name, shape: shapeOf(h.type, types) })) }
      : {}),
    ...(noBody ? { note: "no response body in the spec" } : {}),
    ...(r.notModified ? { notModified: true as const } : {}),
  };
}

/**
 * The texts a path parameter can be, where it shares its segment with other text and its type
 * lists them (a closed enum or a literal): Bufferapp's `/profiles/{id}{mediaTypeExtension}`
 * is told apart only by knowing that the extension is `.json`.
 */
function segmentValuesOf(p: Param, path: string, types: TypeLookup): { values?: string[] } {
  if (p.placement !== "path" || path.includes(`/{${p.name}}/`) || path.endsWith(`/{${p.name}}`))
    return {};
  const type = resolveType(p.type, types);
  const listed =
    type.kind === "enum" && !type.open
      ? type.values
      : type.kind === "literal"
        ? [type.value]
        : undefined;
  return listed ? { values: listed.map(String) } : {};
}

/** One endpoint as the stand-in serves it. */
function routeOf(
  endpoint: Endpoint,
  model: ApiModel,
  state: RouteState | undefined,
  tagged: ReadonlySet<string>,
  types: ReadonlyMap<string, NamedType>,
): RouteData {
  const area = areaOf(endpoint, model);
  const tag = tagged.has(area.errorBody)
    ? (r: Refusal) => withTag(r, endpoint, area.invalidInput)
    : (r: Refusal) => r;
  const invalidTag = tag({ status: area.invalidInput, message: "" }).tag;
  const streamed = endpoint.streamResponse;
  return {
    endpoint: endpoint.id,
    method: endpoint.method,
    path: endpoint.path,
    ...area,
    ...(invalidTag !== undefined ? { invalidInputTag: invalidTag } : {}),
    ...invalidInputCodeOf(endpoint, area.invalidInput),
    credentials: credentialChecks(endpoint, model).map((c) => ({
      ...c,
      missing: tag(c.missing),
      rejected: tag(c.rejected),
    })),
    params: endpoint.params.map((p) => ({
      name: p.name,
      ...(p.wireName !== undefined ? { wire: p.wireName } : {}),
      in: p.placement,
      ...urlValueOf(p, types),
      // an array's items, its type named or not (`ids: IdList`)
      ...(resolveType(p.type, types).kind === "array" ? { list: true } : {}),
      ...(p.style === "space" ? { delimiter: " " } : p.style === "pipe" ? { delimiter: "|" } : {}),
      ...segmentValuesOf(p, endpoint.path, types),
      ...(p.slashes ? { slashes: true as const } : {}),
      ...deepFieldsOf(p, types),
    })),
    ...(endpoint.requestBody ? { body: endpoint.requestBody.encoding } : {}),
    ...(endpoint.bodyOptional ? { bodyOptional: true as const } : {}),
    response: responseOf(endpoint.response, types),
    ...(streamed
      ? { streamResponse: { flag: streamed.flag, ...responseOf(streamed, types) } }
      : {}),
    errors: listedRefusals(endpoint, model).map(tag),
    ...(state ? { state } : {}),
    ...expandOf(endpoint, model),
    ...pagingOf(endpoint, types),
  };
}

/**
 * The code of the endpoint's invalid-input refusal: that of a listed error of its status
 * (Notion's 400 `validation_error`), so a consumer branching on it sees it from the stand-in.
 */
function invalidInputCodeOf(
  endpoint: Endpoint,
  status: number,
): { invalidInputCode?: string | number } {
  const listed = endpoint.errors.find(
    (e) => e.code !== undefined && numericStatus(e.status) === status,
  );
  return listed ? { invalidInputCode: listed.code! } : {};
}

/** The route's paging (runtime/testing/paging.ts), for an endpoint that pages. */
function pagingOf(endpoint: Endpoint, types: TypeLookup): { paging?: RoutePaging } {
  const paging = routePagingOf(endpoint, types);
  return paging ? { paging } : {};
}

/** The route's expand list and, per path, the shapes of the id and of the object. */
function expandOf(endpoint: Endpoint, model: ApiModel): { expand?: RouteExpand } {
  const { expand, response } = endpoint;
  if (!expand || !response.body) return {};
  const types = new Map(model.types.map((t) => [t.name, t] as const));
  const entry = (root: TypeNode, path: string, depth: number): ExpandablePath[] => {
    const field = expandableFieldAt(root, path, types);
    if (field?.kind !== "union") return [];
    const id = field.variants.find((v) => v.kind === "primitive")!;
    const object = field.variants.find((v) => v !== id)!;
    const inner =
      depth > 0 ? [] : expandablePaths(object, types).flatMap((p) => entry(object, p, 1));
    return [
      {
        path,
        id: shapeOf(id, types),
        object: shapeOf(object, types),
        ...(inner.length ? { inner } : {}),
      },
    ];
  };
  const paths = expand.paths.flatMap((path) => entry(response.body!, path, 0));
  return { expand: { in: expand.in, name: expand.name, paths } };
}

/** An endpoint as it is under one version of an API versioned by a header: that version's errors. */
function inVersion(endpoint: Endpoint, version: string): Endpoint {
  const errors = endpoint.errors.filter(
    (e) => e.scope.kind !== "version" || e.scope.version === version,
  );
  return { ...endpoint, version, errors };
}

/**
 * An endpoint's route; of an API versioned by a header, as the current version serves it,
 * with what each other version answers otherwise (`byVersion`).
 */
function versionedRouteOf(
  endpoint: Endpoint,
  model: ApiModel,
  state: RouteState | undefined,
  tagged: ReadonlySet<string>,
  types: ReadonlyMap<string, NamedType>,
): RouteData {
  const { scheme, current, versions } = model.versioning;
  if (scheme !== "header" || current === undefined)
    return routeOf(endpoint, model, state, tagged, types);
  const route = routeOf(inVersion(endpoint, current), model, state, tagged, types);
  const others = versions.filter((v) => v.name !== current);
  if (!others.length) return route;
  const byVersion: Record<string, RouteArea> = {};
  for (const v of others) {
    const r = routeOf(inVersion(endpoint, v.name), model, state, tagged, types);
    byVersion[v.name] = {
      errorBody: r.errorBody,
      invalidInput: r.invalidInput,
      ...(r.invalidInputTag !== undefined ? { invalidInputTag: r.invalidInputTag } : {}),
      ...(r.invalidInputCode !== undefined ? { invalidInputCode: r.invalidInputCode } : {}),
      credentials: r.credentials,
      errors: r.errors,
    };
  }
  return { ...route, byVersion };
}

/** The stand-in and trigger facts of a model. */
export function buildStandIn(model: ApiModel): StandInModel {
  const types = new Map(model.types.map((t) => [t.name, t]));
  // The API's error body (`errors.body`) answers outside every version and for a version
  // that names none of its own.
  const placed = { code: model.errors.codeField, message: model.errors.messageField };
  const templateOf = (name: string | undefined) => {
    const named = name !== undefined ? types.get(name) : undefined;
    return named && errorTemplateOf(named.type, types, placed);
  };
  const apiWide = templateOf(model.errors.body) ?? genericErrorTemplate;
  const errorBodies: StandInModel["table"]["errorBodies"] = { default: apiWide };
  for (const v of model.versioning.versions)
    errorBodies[v.name] = templateOf(v.errorBody) ?? apiWide;
  const tagged = new Set(
    Object.entries(errorBodies)
      .filter(([, t]) => JSON.stringify(t).includes('"slot":"tag"'))
      .map(([name]) => name),
  );
  const webhooks = webhookCollection(model, types);
  const steps = transitions(model);
  const routes = model.endpoints.map((e) =>
    versionedRouteOf(e, model, webhooks?.state.get(e.id) ?? steps.get(e.id), tagged, types),
  );
  const rateLimit = model.errors.responses.find((e) => e.status === 429);
  const events = buildTriggerEvents(model);
  return {
    table: {
      title: model.api.title,
      routes,
      // the events' shapes too, for `standIn.deliver` (the same name is the same shape)
      types: withEventTypes(
        events,
        shapeTableOf(model.types, [
          ...model.endpoints.map((e) => e.response.body),
          ...model.endpoints.flatMap((e) =>
            [e.response, e.streamResponse].flatMap((r) => [
              r?.body,
              ...(r?.stream?.events.map((s) => s.type) ?? []),
              ...(r?.headers.map((h) => h.type) ?? []),
            ]),
          ),
        ]),
      ),
      errorBodies,
      areas: model.versioning.versions.flatMap((v) =>
        v.prefix === undefined
          ? []
          : [{ prefix: v.prefix, errorBody: v.name, invalidInput: v.invalidInputStatus ?? 400 }],
      ),
      fallback: fallbackArea(model),
      collections: webhooks ? [webhooks.collection] : [],
      notFound: { status: 404, message: "no endpoint of the spec has this path" },
      ...basePathsOf(model),
      rateLimited: {
        status: 429,
        message: rateLimit?.docs.description ?? "rate limited",
      },
      reasonTags,
      ...versionHeaderOf(model),
      // copies: the table is data of its own, never an alias of the trigger's events
      ...(events.events.length > 0 ? { events: structuredClone(events.events) } : {}),
      ...tokenEndpointsOf(model),
    },
    events: events.events,
    eventTypes: events.types,
  };
}

/**
 * The paths of the spec's environments and hosts (`/api/v2`), longest first, when any has one:
 * the stand-in also answers under them (runtime/testing/core.ts, findRoute).
 */
function basePathsOf(model: ApiModel): { basePaths?: string[] } {
  const paths = new Set<string>();
  for (const { baseUrl } of [...model.environments, ...model.hosts]) {
    if (baseUrl === undefined || !URL.canParse(baseUrl)) continue;
    const path = new URL(baseUrl).pathname.replace(/\/+$/, "");
    if (path) paths.add(path);
  }
  const sorted = [...paths].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return sorted.length ? { basePaths: sorted } : {};
}

/** The token endpoints of the credentials whose clientCredentials flow the stand-in serves. */
function tokenEndpointsOf(model: ApiModel): { tokenEndpoints?: TokenEndpoint[] } {
  const endpoints = model.credentials.flatMap((credential): TokenEndpoint[] => {
    const flow = clientCredentialsFlow(credential);
    // a URL with template variables is the caller's to fill in: no path to serve
    if (!flow?.tokenUrl || isTemplateUrl(flow.tokenUrl)) return [];
    const json = flow.tokenRequest === "json" ? { json: true as const } : {};
    return [
      {
        ...tokenPlaceOf(flow.tokenUrl),
        credential: credential.id,
        scopes: flow.scopes.map((s) => s.name),
        ...json,
      },
    ];
  });
  return endpoints.length ? { tokenEndpoints: endpoints } : {};
}

/** The route table's shapes, with those the events reach when there are events. */
function withEventTypes(
  events: ReturnType<typeof buildTriggerEvents>,
  types: StandInModel["eventTypes"],
): StandInModel["eventTypes"] {
  return events.events.length > 0 ? { ...types, ...events.types } : types;
}

/** The area outside every path prefix: the generic one, or the current version's of an API versioned by a header. */
function fallbackArea(model: ApiModel): StandInModel["table"]["fallback"] {
  const { scheme, current, versions } = model.versioning;
  const version = scheme === "header" ? versions.find((v) => v.name === current) : undefined;
  return version
    ? { prefix: "/", errorBody: version.name, invalidInput: version.invalidInputStatus ?? 400 }
    : { prefix: "/", errorBody: "default", invalidInput: 400 };
}

/** The table's `versionHeader`, for an API versioned by a header. */
function versionHeaderOf(model: ApiModel): { versionHeader?: VersionHeader } {
  const { scheme, header, current, versions } = model.versioning;
  if (scheme !== "header" || header === undefined || current === undefined) return {};
  return { versionHeader: { name: header, versions: versions.map((v) => v.name), current } };
}

/** Placeholder of a model under construction, replaced by `withStandIn`. */
export const pendingStandIn: StandInModel = {
  table: {
    title: "",
    routes: [],
    types: {},
    errorBodies: {},
    areas: [],
    fallback: { prefix: "/", errorBody: "default", invalidInput: 400 },
    collections: [],
    notFound: { status: 404, message: "" },
    rateLimited: { status: 429, message: "" },
    reasonTags: {},
  },
  events: [],
  eventTypes: {},
};

/** The model with its stand-in facts. */
export function withStandIn(model: ApiModel): ApiModel {
  return { ...model, standIn: buildStandIn(model) };
}
