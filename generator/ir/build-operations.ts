/**
 * Endpoints (outbound) and callbacks (inbound): parameters checked against the path
 * template, credentials checked against the declared ones, error responses resolved.
 */
import { fetchWrittenHeaders, headerToken } from "./http-headers.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import { isRecord, stringList, type BuildContext } from "./build-context.ts";
import { requestBodyOf, responseOf } from "./build-bodies.ts";
import { buildAuth } from "./build-auth.ts";
import { checkStreamResponse } from "./build-streams.ts";
import { appliesTo, buildErrorResponse, compareErrorResponses } from "./build-errors.ts";
import type { TypeBuilder } from "./build-types.ts";
import { identifierFor } from "./casing.ts";
import type { UnnamedCallback, UnnamedEndpoint } from "./names.ts";
import type { Decl } from "./merge.ts";
import type {
  ApiVersion,
  Credential,
  Endpoint,
  ErrorResponse,
  ExternalDocs,
  HeaderSpec,
  HttpMethod,
  ErrorCodeValue,
  Param,
  ParamPlacement,
  QueryStyle,
  Versioning,
} from "./model.ts";

type Data = Record<string, unknown>;

/** What operations are checked against. */
export interface OperationScope {
  credentials: ReadonlyMap<string, Credential>;
  versions: readonly ApiVersion[];
  /** By header, every endpoint is in every version: no path prefix to match, each version's errors apply. */
  versioning: Versioning["scheme"];
  errorResponses: readonly ErrorResponse[];
  errorCodes: ReadonlySet<ErrorCodeValue>;
}

export class OperationBuilder {
  constructor(
    private readonly ctx: BuildContext,
    private readonly types: TypeBuilder,
    private readonly scope: OperationScope,
  ) {}

  endpoint(decl: Decl): UnnamedEndpoint {
    const { file, path, value: v } = decl;
    const [group, name] = decl.name.split(".") as [string, string];
    const version = this.versionOf(file, path, String(v.path));
    const own = ((v.errors ?? []) as Data[]).map((e, i) =>
      buildErrorResponse(
        { name: String(i), value: e, file, path: [...path, "errors", i] },
        this.ctx,
        this.scope.errorCodes,
        true,
      ),
    );
    const byHeader = this.scope.versioning === "header";
    const scoped = this.scope.errorResponses.filter(
      (r) => appliesTo(r, String(v.path), version) || (byHeader && r.scope.kind === "version"),
    );
    const response = isRecord(v.response) ? v.response : {};
    const params = this.params(file, path, v, true);
    const listed = headers(this.ctx, file, path, v.headers);
    if (v.method === "HEAD" && isRecord(v.response) && v.response.body !== undefined)
      this.ctx.bag.report("head-response-body", {}, file.locate([...path, "response", "body"]));
    for (const p of params) {
      if (p.placement !== "header") continue;
      const wire = (p.wireName ?? p.name).toLowerCase();
      const same = listed.find((h) => h.name.toLowerCase() === wire);
      if (same) this.ctx.bag.report("param-header-duplicate", { name: p.name }, p.location);
    }
    const body =
      v.body !== undefined ? this.types.node(file, [...path, "body"], v.body) : undefined;
    if (v.bodyOptional !== undefined && body === undefined)
      this.ctx.bag.report("body-optional-alone", {}, file.locate([...path, "bodyOptional"], "key"));
    const result = responseOf(
      this.ctx,
      this.types,
      file,
      [...path, "response"],
      response,
      v.method === "HEAD",
    );
    const streamResponse = this.streamResponse(decl, result);
    return {
      id: decl.name,
      group,
      name,
      ...(typeof v.summary === "string" ? { summary: v.summary } : {}),
      method: v.method as HttpMethod,
      path: String(v.path),
      ...(version ? { version } : {}),
      ...buildAuth(this.ctx, this.scope.credentials, file, path, v.auth, false),
      headers: listed,
      params,
      ...(body
        ? {
            body,
            requestBody: requestBodyOf(this.ctx, this.types, file, path, v, body, listed),
            ...(v.bodyOptional === true ? { bodyOptional: true as const } : {}),
          }
        : {}),
      response: result,
      ...(streamResponse ? { streamResponse } : {}),
      ...(typeof v.host === "string" ? { host: v.host } : {}),
      errors: dedupeErrors([...own, ...scoped]).sort(compareErrorResponses),
      rules: stringList(v.rules),
      testingOnly: v.testingOnly === true,
      ...externalDocsOf(v.externalDocs),
      docs: this.ctx.docs(file, path, v),
      location: file.locate(path, "key"),
    };
  }

  /** The endpoint's `streamResponse`: the stream its body's flag switches to (build-streams.ts). */
  private streamResponse(decl: Decl, response: Endpoint["response"]): Endpoint["streamResponse"] {
    const { file, path, value: v } = decl;
    if (!isRecord(v.streamResponse)) return undefined;
    const at = [...path, "streamResponse"];
    const { flag, ...data } = v.streamResponse;
    const stream = responseOf(this.ctx, this.types, file, at, data);
    checkStreamResponse(this.ctx, file, path, decl.name, response, stream);
    return { ...stream, flag: String(flag), location: file.locate([...at, "flag"]) };
  }

  callback(decl: Decl): UnnamedCallback {
    const { file, path, value: v } = decl;
    const typeAt = (key: string) =>
      v[key] !== undefined ? { [key]: this.types.node(file, [...path, key], v[key]) } : {};
    const params = this.params(file, path, v, false);
    return {
      event: decl.name,
      ...(typeof v.summary === "string" ? { summary: v.summary } : {}),
      method: v.method as HttpMethod,
      path: String(v.path),
      auth: this.auth(file, path, v.auth),
      headers: headers(this.ctx, file, path, v.headers),
      params,
      ...typeAt("body"),
      ...typeAt("success"),
      ...typeAt("failure"),
      // read off the resolved types by withCallbackRouting, once every type is known
      routing: {},
      rules: stringList(v.rules),
      docs: this.ctx.docs(file, path, v),
      location: file.locate(path, "key"),
    };
  }

  /** The credential ids of a callback's or webhook's `auth`, checked (build-auth.ts). */
  auth(file: SpecFile, path: DataPath, value: unknown): string[] {
    return buildAuth(this.ctx, this.scope.credentials, file, path, value, true).auth;
  }

  /** One parameter, its placement, style and default checked against each other. */
  private param(
    file: SpecFile,
    paramPath: DataPath,
    name: string,
    value: unknown,
    endpoint: boolean,
  ): Param {
    const v = isRecord(value) ? value : {};
    const placement = (v.in || "path") as ParamPlacement;
    const style = typeof v.style === "string" ? (v.style as QueryStyle) : undefined;
    const wire = typeof v.name === "string" ? v.name : undefined;
    if (wire !== undefined && placement !== "query" && placement !== "header")
      this.ctx.bag.report(
        "param-name-misplaced",
        { name, placement },
        file.locate([...paramPath, "name"]),
      );
    if (placement === "header" && !endpoint)
      this.ctx.bag.report(
        "param-placement-callback",
        { name, placement },
        file.locate([...paramPath, "in"]),
      );
    if (placement === "header" && wire === undefined && !headerToken.test(name))
      this.ctx.bag.report(
        "param-header-name",
        { name: JSON.stringify(name) },
        file.locate(paramPath, "key"),
      );
    else if (placement === "header" && reservedHeaders.has((wire ?? name).toLowerCase()))
      this.ctx.bag.report("param-header-reserved", { name }, file.locate(paramPath, "key"));
    if (style && (placement !== "query" || !endpoint))
      this.ctx.bag.report(
        "param-style-misplaced",
        { name, style },
        file.locate([...paramPath, "style"]),
      );
    if (wire !== undefined && placement === "header" && !headerToken.test(wire))
      this.ctx.bag.report(
        "param-wire-name",
        { name, wire: JSON.stringify(wire) },
        file.locate([...paramPath, "name"]),
      );
    if (v.sendDefault === true && v.default === undefined)
      this.ctx.bag.report(
        "param-default-missing",
        { name },
        file.locate([...paramPath, "sendDefault"]),
      );
    return {
      name,
      ...(wire !== undefined && wire !== name && (placement === "query" || placement === "header")
        ? { wireName: wire }
        : {}),
      camelName: identifierFor(name),
      placement,
      required: (placement !== "query" && placement !== "header") || v.required === true,
      type: this.types.node(file, paramPath, value),
      ...(style && style !== "repeat" ? { style } : {}),
      ...(v.sendDefault === true ? { sendDefault: true } : {}),
      ...(v.slashes === true ? { slashes: true as const } : {}),
      location: file.locate(paramPath, "key"),
    };
  }

  /**
   * Two query parameters, or two header parameters (whose names ignore case), that would
   * travel under one name: a parameter's `name:` (or key) is said once per place.
   */
  private checkWireNames(params: readonly Param[]): void {
    const seen = new Map<string, Param>();
    for (const param of params) {
      if (param.placement !== "query" && param.placement !== "header") continue;
      const wire = param.wireName ?? param.name;
      const key = `${param.placement} ${param.placement === "header" ? wire.toLowerCase() : wire}`;
      const first = seen.get(key);
      if (first)
        this.ctx.bag.report(
          "param-wire-duplicate",
          { name: param.name, placement: param.placement, wire, first: first.name },
          param.location,
        );
      else seen.set(key, param);
    }
  }

  private versionOf(file: SpecFile, path: DataPath, urlPath: string): string | undefined {
    if (this.scope.versions.length === 0 || this.scope.versioning === "header") return undefined;
    const match = this.scope.versions.find(
      (ver) => ver.prefix !== undefined && urlPath.startsWith(ver.prefix),
    );
    if (!match) {
      const prefixes = this.scope.versions.map((ver) => ver.prefix).join(", ");
      this.ctx.bag.report(
        "unknown-version",
        { path: urlPath, prefixes },
        file.locate([...path, "path"]),
      );
    }
    return match?.name;
  }

  /** Parameters in declaration order; path parameters checked against the template both ways. */
  private params(file: SpecFile, path: DataPath, v: Data, endpoint: boolean): Param[] {
    const urlPath = String(v.path);
    const declared = (isRecord(v.params) ? v.params : {}) as Data;
    const params = distinctIdentifiers(
      Object.entries(declared).map(([name, value]) =>
        this.param(file, [...path, "params", name], name, value, endpoint),
      ),
    );
    this.checkWireNames(params);
    const placeholders = [...urlPath.matchAll(/\{([^{}]*)\}/g)];
    if (/[{}]/.test(urlPath.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, ""))) {
      this.ctx.bag.report(
        "path-template-syntax",
        { path: urlPath },
        file.locate([...path, "path"]),
      );
    }
    for (const match of placeholders) {
      const name = match[1]!;
      if (!params.some((p) => p.name === name && p.placement === "path")) {
        this.ctx.bag.report(
          "path-param-undeclared",
          { name },
          file.locate([...path, "path"], "value", match.index),
        );
      }
    }
    for (const param of params) {
      if (param.placement === "path" && !placeholders.some((m) => m[1] === param.name)) {
        this.ctx.bag.report(
          "path-param-unused",
          { name: param.name, path: urlPath },
          param.location,
        );
      }
      const slashes = param.slashes && slashesProblem(param, urlPath, params, endpoint);
      if (slashes)
        this.ctx.bag.report(
          "param-slashes",
          { name: param.name, problem: slashes },
          file.locate([...path, "params", param.name, "slashes"]),
        );
    }
    return inPathOrder(
      params,
      placeholders.map((m) => m[1]!),
    );
  }
}

/**
 * Why a parameter cannot take `slashes: true`, or `undefined`: it must be an endpoint's path
 * parameter filling the path's last segment, with no trailing parameter after it, so that
 * whatever segments follow the fixed part of the path are its value.
 */
function slashesProblem(
  param: Param,
  urlPath: string,
  params: readonly Param[],
  endpoint: boolean,
): string | undefined {
  if (!endpoint || param.placement !== "path") return "only an endpoint's path parameter takes it";
  if (!urlPath.endsWith(`/{${param.name}}`))
    return `{${param.name}} is not the whole last segment of ${urlPath}`;
  if (params.some((p) => p.placement === "trailing"))
    return "the endpoint has trailing parameters, which would follow it";
  return undefined;
}

/**
 * `params` with the path's own in the order the path names them, each in a slot a path
 * parameter had: the call's positional arguments read as the URL does
 * (`addFeedToGroup(username, groupKey)` for `/{username}/groups/{group_key}/add`), whatever
 * order the source declares them in (OpenAPI documents often list a path item's parameters
 * after the operation's: 1,511 operations of the sweep's 665 documents).
 */
export function inPathOrder(params: Param[], names: readonly string[]): Param[] {
  const inPath = (p: Param) => p.placement === "path" && names.includes(p.name);
  const sorted = params
    .filter(inPath)
    .sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
  return params.map((p) => (inPath(p) ? sorted.shift()! : p));
}

/**
 * Headers a parameter may not be: the body's media type and the credentials say them
 * (and OpenAPI ignores header parameters of these names).
 */
const reservedHeaders = new Set([
  "accept",
  "content-type",
  "authorization",
  ...fetchWrittenHeaders,
]);

/** One response per status, code and tag: the endpoint's own (listed first) wins over a scoped one. */
function dedupeErrors(list: readonly ErrorResponse[]): ErrorResponse[] {
  const seen = new Set<string>();
  return list.filter((r) => {
    const key = `${r.status}|${r.code}|${r.tag}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Fixed and described request headers. */
export function headers(
  ctx: BuildContext,
  file: SpecFile,
  path: DataPath,
  value: unknown,
): HeaderSpec[] {
  return Object.entries((isRecord(value) ? value : {}) as Data).map(([name, h]) =>
    typeof h === "string"
      ? { name, value: h, required: true, docs: { notes: [] } }
      : {
          name,
          ...(isRecord(h) && typeof h.value === "string" ? { value: h.value } : {}),
          required: !(isRecord(h) && h.required === false),
          docs: ctx.docs(file, [...path, "headers", name], h),
        },
  );
}

/** Names the generated endpoint function gives its other parameters. */
const takenNames = ["core", "body", "query", "params", "options"];

/**
 * Parameters whose function parameter names differ from each other and from the function's
 * other parameters: a later one that would repeat a name (`a-b` after `a_b`, a path
 * parameter named `options`) gets `_` after it.
 */
function distinctIdentifiers(params: Param[]): Param[] {
  const used = new Set(takenNames);
  return params.map((param) => {
    let name = param.camelName;
    while (used.has(name)) name += "_";
    used.add(name);
    return name === param.camelName ? param : { ...param, camelName: name };
  });
}

/** `externalDocs:` as the schema checked it: a URL and what it is. */
function externalDocsOf(value: unknown): { externalDocs?: ExternalDocs } {
  if (!isRecord(value) || typeof value.url !== "string") return {};
  const description = typeof value.description === "string" ? value.description : undefined;
  return { externalDocs: { url: value.url, ...(description ? { description } : {}) } };
}
