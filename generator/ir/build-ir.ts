/**
 * Stages 2 and 3, validate and resolve: merges the loaded files and builds the IR,
 * reporting every meaning problem (references, duplicates, path parameters,
 * credentials, infinite types) at its location.
 */
import { DiagnosticBag, suggestion } from "../diagnostics/diagnostic.ts";
import type { SpecFile } from "../load/spec-file.ts";
import { BuildContext, stringList } from "./build-context.ts";
import { checkErrorCodeType, errorFieldsOf } from "./build-error-fields.ts";
import { checkDeliveryIdPlaces, warnUnsigned, withCallbackRouting } from "./callback-routing.ts";
import { checkBinaryPlaces } from "./check-binary.ts";
import { tokenCredentialOf, withTokenRequests } from "./build-oauth.ts";
import { warnIdempotencyParams } from "./check-idempotency.ts";
import { signingOf } from "./build-signing.ts";
import { checkAuthHeaders } from "./check-auth-headers.ts";
import { checkParamShapes } from "./check-param-shapes.ts";
import { buildErrorCodes, buildErrorResponse, buildStatuses, retryOf } from "./build-errors.ts";
import { apiResponseHeadersOf, withApiResponseHeaders } from "./build-bodies.ts";
import { OperationBuilder } from "./build-operations.ts";
import { checkExpandableFields, withExpand } from "./build-expand.ts";
import { withPagination } from "./build-pagination.ts";
import { checkStreams } from "./build-streams.ts";
import { TypeBuilder } from "./build-types.ts";
import { withAccessViews } from "./access-views.ts";
import { environmentsOf } from "./build-environments.ts";
import { buildWebhooks, checkWebhookEvents, withAnswerMedia } from "./build-webhooks.ts";
import { pascalCase } from "./casing.ts";
import { headerToken } from "./http-headers.ts";
import { checkAliasCycles, checkInfiniteTypes } from "./check-infinite.ts";
import { mergeSpec, type Decl, type MergedSpec } from "./merge.ts";
import {
  apiHeadersOf,
  checkApiHeaders,
  checkHosts,
  checkNotModified,
  hostsOf,
  versioningOf,
} from "./build-requests.ts";
import {
  checkTypeNames,
  clientCompanions,
  credentialOptionNames,
  withNames,
  type UnnamedEndpoint,
} from "./names.ts";
import { pendingStandIn, withStandIn } from "./build-stand-in.ts";
import type {
  ApiInfo,
  ClientDefaults,
  ApiModel,
  ApiVersion,
  Callback,
  Credential,
  CredentialPlacement,
  Endpoint,
  Lifecycle,
  ParamsType,
} from "./model.ts";
import { validatedNames, type ValidatorSet } from "./validated.ts";

type Data = Record<string, unknown>;

/** What the generator's caller decides about the model, beyond the spec. */
export interface ModelOptions {
  /** Which types get a validator (ir/validated.ts); default `used`. */
  validators?: ValidatorSet;
}

/** Builds the IR from loaded files; throws DiagnosticsError listing every problem. */
export function buildModel(
  files: readonly SpecFile[],
  bag: DiagnosticBag,
  options: ModelOptions = {},
): ApiModel {
  const merged = mergeSpec(files, bag);
  const ctx = new BuildContext(bag);
  if (!merged.api) bag.report("api-missing", {});
  bag.throwIfErrors();

  const api = buildApiInfo(merged.api!, ctx);
  const types = new TypeBuilder(ctx);
  const namedTypes = types.buildNamed(merged.types);
  checkTypeNames(ctx, merged.types, api.clientName);
  const optionNames = credentialOptionNames(merged.credentials.map((d) => d.name));
  const credentials = merged.credentials.map((d) => buildCredential(d, ctx, optionNames));
  const typeNames = namedTypes.map((t) => t.name);
  const versions = merged.versions.map((d) => buildVersion(d, ctx, typeNames));
  const errorBody = errorBodyOf(ctx, merged.errors, typeNames);
  const codes = buildErrorCodes(merged.errorCodes, ctx);
  const codeSet = new Set(codes.map((c) => c.code));
  const responses = merged.errorResponses.map((d) => buildErrorResponse(d, ctx, codeSet, false));
  checkVersionScopes(merged, versions, ctx);
  const versioning = versioningOf(ctx, merged.versioning, versions, merged.versions);
  const operations = new OperationBuilder(ctx, types, {
    credentials: new Map(credentials.map((c) => [c.id, c])),
    versions,
    versioning: versioning.scheme,
    errorResponses: responses,
    errorCodes: codeSet,
  });
  const apiResponseHeaders = apiResponseHeadersOf(ctx, types, merged.responseHeaders);
  const unnamedEndpoints = merged.endpoints.map((d) =>
    withApiResponseHeaders(operations.endpoint(d), apiResponseHeaders),
  );
  const unnamedCallbacks = merged.callbacks.map((d) => operations.callback(d));
  checkRoutes(unnamedEndpoints, ctx, "duplicate-endpoint-route", (e) => e.id);
  checkPathNames(unnamedEndpoints, ctx);
  checkRoutes(unnamedCallbacks, ctx, "duplicate-callback-route", (c) => c.event);
  const endpointIds = unnamedEndpoints.map((e) => e.id);
  const { endpoints, callbacks, webhooks, errorCodes } = withNames(ctx, {
    api,
    types: namedTypes,
    endpoints: unnamedEndpoints,
    callbacks: unnamedCallbacks,
    webhooks: merged.webhooks
      ? buildWebhooks(merged.webhooks, ctx, types, operations, endpointIds)
      : undefined,
    errorCodes: codes,
  });
  const paramsTypes = paramsTypesOf(endpoints, callbacks);
  const lifecycles = merged.lifecycles.map((d) => buildLifecycle(d, ctx, endpointIds));
  const limits = merged.limits.map((d) => ({
    name: d.name,
    ...(typeof d.value.status === "number" ? { status: d.value.status } : {}),
    docs: ctx.docs(d.file, d.path, d.value),
    location: d.file.locate(d.path, "key"),
  }));
  const environments = environmentsOf(ctx, merged.environments);
  const hosts = hostsOf(ctx, merged.hosts);
  checkHosts(ctx, hosts, merged.endpoints, endpoints);
  const { fixed: fixedHeaders, shared: sharedHeaders } = apiHeadersOf(ctx, types, merged.headers);
  const idem = merged.idempotency;
  const idempotency = {
    supported: idem?.value.supported === true,
    ...(typeof idem?.value.header === "string" ? { header: idem.value.header } : {}),
    docs: idem ? ctx.docs(idem.file, idem.path, idem.value) : { notes: [] },
  };
  const errorsSection = merged.errors;
  const errorStatuses = buildStatuses(merged.errorStatuses, ctx);

  types.reserveNames(paramsTypes.map((p) => p.name));
  checkApiHeaders(ctx, merged.headers, fixedHeaders, versioning, merged.versioning, credentials);
  types.resolve();
  // after resolve: an object's fields are its own and those it extends
  const byName = new Map(namedTypes.map((t) => [t.name, t]));
  const errorFields = errorFieldsOf(ctx, merged.errors, namedTypes);
  checkErrorCodeType(ctx, merged.errors, namedTypes, codes, errorFields.codeField);
  checkDeliveryIdPlaces(callbacks, webhooks, credentials, byName, bag);
  checkWebhookEvents(webhooks, callbacks, byName, ctx);
  checkInfiniteTypes(namedTypes, ctx);
  checkAliasCycles(namedTypes, ctx);
  checkBinaryPlaces(ctx, namedTypes, endpoints, callbacks);
  checkParamShapes(ctx, namedTypes, endpoints);
  checkAuthHeaders(ctx, credentials, endpoints);
  warnIdempotencyParams(ctx, idempotency, endpoints);
  checkExpandableFields(ctx, namedTypes, endpoints);
  const pagedEndpoints = withExpand(
    ctx,
    merged.endpoints,
    withPagination(ctx, merged.endpoints, endpoints, namedTypes),
    namedTypes,
  );
  checkNotModified(ctx, merged.endpoints, pagedEndpoints);
  checkStreams(ctx, namedTypes, endpoints);
  bag.throwIfErrors();
  warnUnsigned(callbacks, webhooks, credentials, bag);
  const viewedEndpoints = types.accessMarked
    ? withAccessViews(namedTypes, pagedEndpoints, [
        ...paramsTypes.map((p) => p.name),
        ...types.generics.keys(),
        ...pagedEndpoints.flatMap((e) =>
          e.response.headersTypeName ? [e.response.headersTypeName] : [],
        ),
      ])
    : pagedEndpoints;

  const model = withCallbackRouting({
    api,
    sourceFiles: files.map((f) => f.path),
    environments,
    hosts,
    credentials: withTokenRequests(credentials, viewedEndpoints),
    sharedHeaders,
    fixedHeaders,
    responseHeaders: apiResponseHeaders,
    idempotency,
    versioning,
    errors: {
      codes: errorCodes,
      statuses: errorStatuses,
      responses,
      retry: retryOf(merged.errorStatuses),
      ...(typeof errorsSection?.value.requestIdHeader === "string"
        ? { requestIdHeader: errorsSection.value.requestIdHeader }
        : {}),
      ...errorBody,
      ...errorFields,
      docs: errorsSection
        ? ctx.docs(errorsSection.file, errorsSection.path, errorsSection.value)
        : { notes: [] },
    },
    types: namedTypes,
    generics: [...types.generics.values()],
    paramsTypes,
    validated: [], // worked out from the finished model below
    endpoints: viewedEndpoints,
    callbacks,
    callbackSignatureCode: 422, // the catalogue's own, set by withCallbackRouting
    ...(webhooks ? { webhooks: withAnswerMedia(webhooks, byName) } : {}),
    lifecycles,
    limits,
    // in the order they were noted: sorting them by place here asked the live route for the
    // line of every one (a scan of GitHub's 13 MB, a second parse of a YAML document), which
    // only `--gaps` shows (pipeline-commands.ts, gapsByPlace)
    gaps: [...ctx.gaps],
    standIn: pendingStandIn, // worked out from the finished model by withStandIn
  });
  const built = withStandIn({
    ...model,
    validated: validatedNames(model, options.validators ?? "used"),
  });
  // an error found past the checks above still stops the run (the rest of the bag is warnings)
  bag.throwIfErrors();
  return built;
}

/** The parameter interfaces of operations, named by ir/names.ts. */
function paramsTypesOf(
  endpoints: readonly Endpoint[],
  callbacks: readonly Callback[],
): ParamsType[] {
  const owners = [
    ...endpoints.map((e) => ({
      owner: `endpoint ${e.id}`,
      name: e.paramsTypeName,
      params: e.params,
    })),
    ...callbacks.map((c) => ({
      owner: `callback ${c.event}`,
      name: c.paramsTypeName,
      params: c.params,
    })),
  ];
  return owners.flatMap(({ owner, name, params }) => (name ? [{ name, owner, params }] : []));
}

function buildApiInfo(decl: Decl, ctx: BuildContext): ApiInfo {
  const v = decl.value;
  const title = String(v.title);
  const clientName = typeof v.clientName === "string" ? v.clientName : `${pascalCase(title)}Client`;
  return {
    packageName: String(v.name),
    title,
    version: String(v.version),
    clientName,
    ...clientCompanions(clientName),
    baseUrlName: typeof v.baseUrl === "string" ? v.baseUrl : "base_url",
    callbackBaseUrlName: typeof v.callbackBaseUrl === "string" ? v.callbackBaseUrl : "server_url",
    ...clientDefaults(v.clientDefaults),
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path, "key"),
  };
}

/** `api.clientDefaults`, as the schema checked it: whole numbers, each optional. */
function clientDefaults(value: unknown): { clientDefaults?: ClientDefaults } {
  if (typeof value !== "object" || value === null) return {};
  const { timeoutMs, maxRetries } = value as Record<string, unknown>;
  return {
    clientDefaults: {
      ...(typeof timeoutMs === "number" ? { timeoutMs } : {}),
      ...(typeof maxRetries === "number" ? { maxRetries } : {}),
    },
  };
}

function buildCredential(
  decl: Decl,
  ctx: BuildContext,
  optionNames: ReadonlyMap<string, string>,
): Credential {
  const v = decl.value;
  // an OAuth 2.0 or OpenID Connect token is a bearer token in Authorization (build-oauth.ts)
  const placement = (
    v.in === "oauth2" || v.in === "openIdConnect" ? "header" : v.in
  ) as CredentialPlacement;
  if (placement === "query" && typeof v.name !== "string") {
    ctx.bag.report(
      "credential-name-missing",
      { name: decl.name },
      decl.file.locate([...decl.path, "in"]),
    );
  }
  const token = tokenCredentialOf(decl, ctx);
  const headerless = placement === "none" || placement === "basic" || placement === "query";
  if (!headerless && !token.header && typeof v.header !== "string") {
    ctx.bag.report(
      "credential-header-missing",
      { name: decl.name, placement },
      decl.file.locate([...decl.path, "in"]),
    );
  }
  const signed = signingOf(decl, ctx, placement, replayPlacesOf(decl, ctx, placement));
  const basicFixed = basicFixedOf(decl, ctx, placement);
  return {
    id: decl.name,
    optionName: optionNames.get(decl.name)!,
    pascalName: pascalCase(decl.name),
    placement,
    ...(typeof v.header === "string" ? { header: v.header } : {}),
    ...(typeof v.scheme === "string" && placement !== "signature" ? { scheme: v.scheme } : {}),
    ...token,
    ...(placement === "query" && typeof v.name === "string" ? { name: v.name } : {}),
    ...signed,
    ...(basicFixed ? { basicFixed } : {}),
    ...(typeof v.usedBy === "string" ? { usedBy: v.usedBy } : {}),
    rules: stringList(v.rules),
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path, "key"),
  };
}

/**
 * `username` or `password` of an `in: basic` credential: the half the API fixes. Elsewhere,
 * or both at once (nothing left for the caller to give), `credential-key-misplaced`.
 */
function basicFixedOf(
  decl: Decl,
  ctx: BuildContext,
  placement: CredentialPlacement,
): Credential["basicFixed"] {
  const { username, password } = decl.value;
  const misplaced = (key: string, why: string) =>
    ctx.bag.report(
      "credential-key-misplaced",
      { key, name: decl.name, placement: String(decl.value.in), why },
      decl.file.locate([...decl.path, key], "key"),
    );
  const given = (["username", "password"] as const).filter((k) => decl.value[k] !== undefined);
  if (!given.length) return undefined;
  if (placement !== "basic") {
    for (const key of given)
      misplaced(key, `a fixed ${key} belongs to an \`in: basic\` credential`);
    return undefined;
  }
  if (given.length === 2) {
    misplaced(
      "password",
      "with username fixed too, the caller would give nothing; fix one of them",
    );
    return undefined;
  }
  return typeof username === "string"
    ? { username }
    : typeof password === "string"
      ? { password }
      : undefined;
}

/** What each place's `name` must be: a header name, an item key of the signature header, a field. */
const replayNames: Record<string, { pattern: RegExp; expected: string }> = {
  header: {
    pattern: headerToken,
    expected: "an HTTP header name (a token: letters, digits and !#$%&'*+-.^_`|~)",
  },
  signature: {
    pattern: /^[A-Za-z0-9_-]+$/,
    expected: "the key of a `key=value` item of the signature header (letters, digits, _ and -)",
  },
  body: { pattern: /^.+$/s, expected: "a field name" },
};

/**
 * `timestamp` and `deliveryId` of a credential (replay protection), each only on an
 * `in: signature` credential and with a name its place can hold; the schema checked the shape.
 */
function replayPlacesOf(
  decl: Decl,
  ctx: BuildContext,
  placement: CredentialPlacement,
): Pick<Credential, "timestamp" | "deliveryId"> {
  const out: Pick<Credential, "timestamp" | "deliveryId"> = {};
  for (const key of ["timestamp", "deliveryId"] as const) {
    const value = decl.value[key] as { in?: unknown; name?: unknown } | undefined;
    if (value === undefined || typeof value.in !== "string" || typeof value.name !== "string")
      continue;
    if (placement !== "signature") {
      ctx.bag.report(
        "credential-replay-misplaced",
        { key, name: decl.name, placement },
        decl.file.locate([...decl.path, key], "key"),
      );
      continue;
    }
    const rule = replayNames[value.in]!;
    if (!rule.pattern.test(value.name)) {
      ctx.bag.report(
        "credential-replay-name",
        { key: `${key}.name`, value: JSON.stringify(value.name), expected: rule.expected },
        decl.file.locate([...decl.path, key, "name"]),
      );
      continue;
    }
    if (key === "timestamp")
      out.timestamp = {
        in: value.in as "header" | "signature",
        name: value.name,
        ...((value as { format?: unknown }).format === "date-time"
          ? { format: "date-time" as const }
          : {}),
      };
    else out.deliveryId = { in: value.in as "header" | "body", name: value.name };
  }
  return out;
}

/** `errors.body`: the API's error body type, which must name a declared type. */
function errorBodyOf(
  ctx: BuildContext,
  section: Decl | undefined,
  typeNames: readonly string[],
): { body?: string } {
  const body = section?.value.body;
  if (typeof body !== "string") return {};
  if (!typeNames.includes(body)) {
    ctx.bag.report(
      "unresolved-ref",
      { name: body, hint: suggestion(body, typeNames) },
      section!.file.locate([...section!.path, "body"]),
    );
  }
  return { body };
}

function buildVersion(decl: Decl, ctx: BuildContext, typeNames: readonly string[]): ApiVersion {
  const v = decl.value;
  if (typeof v.errorBody === "string" && !typeNames.includes(v.errorBody)) {
    ctx.bag.report(
      "unresolved-ref",
      { name: v.errorBody, hint: suggestion(v.errorBody, typeNames) },
      decl.file.locate([...decl.path, "errorBody"]),
    );
  }
  return {
    name: decl.name,
    ...(typeof v.prefix === "string" ? { prefix: v.prefix } : {}),
    ...(typeof v.errorBody === "string" ? { errorBody: v.errorBody } : {}),
    ...(typeof v.invalidInputStatus === "number"
      ? { invalidInputStatus: v.invalidInputStatus }
      : {}),
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path, "key"),
  };
}

function checkVersionScopes(
  merged: MergedSpec,
  versions: readonly ApiVersion[],
  ctx: BuildContext,
): void {
  const names = versions.map((v) => v.name);
  for (const d of merged.errorResponses) {
    const version = d.value.version;
    if (typeof version === "string" && !names.includes(version)) {
      ctx.bag.report(
        "unknown-version-name",
        { name: version, declared: names.join(", ") || "none" },
        d.file.locate([...d.path, "version"]),
      );
    }
  }
}

function checkRoutes<T extends { method: string; path: string; location: Endpoint["location"] }>(
  items: readonly T[],
  ctx: BuildContext,
  code: "duplicate-endpoint-route" | "duplicate-callback-route",
  id: (item: T) => string,
): void {
  const seen = new Map<string, T>();
  for (const item of items) {
    const key = `${item.method} ${item.path.replace(/\{[^}]*\}/g, "{}")}`;
    const other = seen.get(key);
    if (other)
      ctx.bag.report(
        code,
        { method: item.method, path: item.path, other: id(other) },
        item.location,
      );
    else seen.set(key, item);
  }
}

/**
 * Two paths that differ only in their parameters' names are one path to OpenAPI, which has a
 * single path item (and so a single set of names) for both.
 */
function checkPathNames(endpoints: readonly UnnamedEndpoint[], ctx: BuildContext): void {
  const firstOfShape = new Map<string, UnnamedEndpoint>();
  for (const endpoint of endpoints) {
    const shape = endpoint.path.replace(/\{[^}]*\}/g, "{}");
    const first = firstOfShape.get(shape);
    if (!first) firstOfShape.set(shape, endpoint);
    // The same method on the same shape is already a duplicate route.
    else if (first.path !== endpoint.path && first.method !== endpoint.method)
      ctx.bag.report(
        "endpoint-path-names-differ",
        { path: endpoint.path, other: first.id, otherPath: first.path },
        endpoint.location,
      );
  }
}

function buildLifecycle(decl: Decl, ctx: BuildContext, endpointIds: readonly string[]): Lifecycle {
  const v = decl.value;
  const transitions = ((v.transitions ?? []) as Data[]).map((t, i) => {
    const path = [...decl.path, "transitions", i];
    if (typeof t.trigger === "string" && !endpointIds.includes(t.trigger)) {
      ctx.bag.report(
        "unknown-endpoint",
        { name: t.trigger, hint: suggestion(t.trigger, endpointIds) },
        decl.file.locate([...path, "trigger"]),
      );
    }
    return {
      from: stringList(t.from),
      ...(typeof t.to === "string" ? { to: t.to } : {}),
      ...(typeof t.trigger === "string" ? { trigger: t.trigger } : {}),
      ...(typeof t.condition === "string" ? { condition: t.condition } : {}),
      ...(typeof t.effect === "string" ? { effect: t.effect } : {}),
      docs: ctx.docs(decl.file, path, t),
    };
  });
  return {
    name: decl.name,
    states: stringList(v.states),
    transitions,
    docs: ctx.docs(decl.file, decl.path, v),
    location: decl.file.locate(decl.path, "key"),
  };
}
