/**
 * The client's options interface and its core class, read off the IR: one option per
 * credential the endpoints send, and the core that hands the options, the credentials, the
 * API's error class and the spec's retry statuses to the runtime's ClientCore.
 */
import type { ApiModel } from "../ir/model.ts";
import { arr, call, exprStatement, id, lit, member, obj, undef, valueExpr } from "./code/build.ts";
import type { ClassDeclaration, Expr, Member, Statement } from "./code/nodes.ts";
import { isSent, sentAs } from "./client-params.ts";
import {
  addressed,
  addressedOptionsType as optionsOf,
  environmentNames,
  withAddress,
} from "./client-environments.ts";
import { generatedRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";
import { keyword, literalType, union } from "./shared/type-expr.ts";

const coreModule = "client/core.ts";
const hooksModule = "client/hooks.ts";

/** The generated core class, referred to from the client module. */
export const coreRef = (model: ApiModel) =>
  generatedRef(modules.client, model.api.coreClassName, false);
/** The generated options type, which the client's and the core's constructors take. */
export const optionsRef = (model: ApiModel) =>
  generatedRef(modules.client, `${model.api.clientName}Options`, true);

/**
 * The generated interface of the options: the options themselves, or, where the spec gives
 * environments' addresses, `ShopClientSettings` (`baseUrl` and `environment` both optional),
 * of which `ShopClientOptions` is the type with one of the two given.
 */
const settingsRef = (model: ApiModel) =>
  addressed(model).length
    ? generatedRef(modules.client, `${model.api.clientName}Settings`, true)
    : optionsRef(model);

/** The credentials the endpoints send: one client option each. */
export function headerCredentials(model: ApiModel) {
  const used = new Set(model.endpoints.flatMap((e) => e.auth));
  return model.credentials.filter((c) => isSent(c) && used.has(c.id));
}

/** `ShopClientOptions`, the settings with the address given, where the spec gives addresses. */
export const addressedOptionsType = (model: ApiModel) =>
  optionsOf(model, settingsRef(model), optionsRef(model).name);

/** Options of the client: the runtime's, plus one per credential the endpoints send. */
export function optionsInterface(model: ApiModel): Statement {
  return {
    kind: "interface",
    name: settingsRef(model).name,
    isExported: true,
    extends: [
      addressed(model).length
        ? {
            kind: "generic",
            target: runtimeType("client/environments.ts", "EnvironmentOptions"),
            args: [environmentNames(model)],
          }
        : runtimeType(coreModule, "CoreOptions"),
    ],
    docs: [
      addressed(model).length
        ? `Settings of {@link ${model.api.clientName}}: its options but for the address (\`baseUrl\` or \`environment\`), which \`${optionsRef(model).name}\` requires.`
        : `Options of {@link ${model.api.clientName}}.`,
    ],
    members: [
      ...apiVersionOption(model),
      ...hostsOption(model),
      ...middlewareOption(model),
      ...headerCredentials(model).map(
        (c): Member => ({
          kind: "property-signature",
          name: c.optionName,
          hasQuestionToken: true,
          type: runtimeType(
            coreModule,
            c.placement === "basic" && !c.basicFixed ? "BasicCredentialValue" : "CredentialValue",
          ),
          docs: [
            ...(c.docs.description ? [c.docs.description] : []),
            `${sentAs(c)} by the endpoints that need it.`,
          ],
        }),
      ),
    ],
  };
}

/** The endpoint ids as a union, which middleware's hooks are given (runtime/client/hooks.ts). */
export const endpointIdRef = (model: ApiModel) =>
  generatedRef(modules.client, model.api.endpointIdTypeName, true);

/** `export type MerchantEndpointId = "transactions.authorize" | ...`; none without endpoints. */
export function endpointIdType(model: ApiModel): Statement | undefined {
  if (model.endpoints.length === 0) return undefined;
  return {
    kind: "type-alias",
    name: model.api.endpointIdTypeName,
    isExported: true,
    docs: [
      "The id of an endpoint of the client, as middleware's hooks are given it (`context.endpointId`): `switch` on it.",
    ],
    type: union(model.endpoints.map((e) => literalType(e.id))),
  };
}

/** `middleware`, typed with the endpoint ids, overriding the runtime's untyped one. */
function middlewareOption(model: ApiModel): Member[] {
  if (model.endpoints.length === 0) return [];
  return [
    {
      kind: "property-signature",
      name: "middleware",
      hasQuestionToken: true,
      type: {
        kind: "generic",
        target: runtimeType(hooksModule, "MiddlewareStack"),
        args: [endpointIdRef(model)],
      },
      docs: [
        "Hooks around each attempt of a call: `withMiddleware({ onRequest, onResponse, onError }, ...)`. `onRequest` runs in the order given, once per attempt (a retry runs it again; a redirect does not); `onResponse` and `onError` in reverse.",
      ],
    },
  ];
}

/** The core class: options, credentials and the API's error class, for the endpoint functions. */
export function coreClass(model: ApiModel): ClassDeclaration {
  const example = model.endpoints[0];
  const { clientName, title } = model.api;
  const credentials = obj(
    headerCredentials(model).map((c) => {
      const option = member(id("options"), c.optionName);
      // a basic credential of which the spec fixes a half: the option is the other half
      const value = c.basicFixed
        ? call(runtimeValue("client/basic.ts", "fixedBasic"), valueExpr(c.basicFixed), option)
        : option;
      return [c.id, value] as const;
    }),
  );
  const errorClass = generatedRef(modules.errors, model.api.errorClassName, false);
  const { statuses, never, anyMethod } = model.errors.retry;
  const { requestIdHeader } = model.errors;
  const api = apiRequestsExpr(model);
  const retry =
    statuses.length || never.length || anyMethod.length || requestIdHeader !== undefined || api
      ? [
          obj([
            ["statuses", statuses.length ? arr(statuses.map(lit)) : undefined],
            ["never", never.length ? arr(never.map(lit)) : undefined],
            ["anyMethod", anyMethod.length ? arr(anyMethod.map(lit)) : undefined],
          ]),
          ...(requestIdHeader !== undefined ? [lit(requestIdHeader)] : api ? [undef] : []),
          ...(api ? [api] : []),
        ]
      : [];
  return {
    kind: "class",
    name: model.api.coreClassName,
    isExported: true,
    extends: runtimeValue(coreModule, "ClientCore"),
    docs: [
      `Sends the calls of the ${title}'s endpoint functions${example ? ` (\`${example.functionName}(core, …)\`)` : ""}, with the options of {@link ${clientName}}.`,
      `Import only the functions you call, and a bundler leaves out every other endpoint; {@link ${clientName}} has the same calls as methods, and keeps them all.`,
    ],
    ctor: {
      params: [{ name: "options", type: optionsRef(model) }],
      body: [
        exprStatement(
          call(
            id("super"),
            withAddress(model, withDefaults(model)),
            credentials,
            errorClass,
            ...retry,
          ),
        ),
      ],
    },
  };
}

/**
 * What the spec has every request carry, for the runtime's `ApiRequests`: the API's fixed
 * headers, its version header and its other hosts; undefined when it has none of them.
 */
function apiRequestsExpr(model: ApiModel): Expr | undefined {
  const { fixedHeaders, versioning } = model;
  const { header, current } = versioning;
  const byHeader = versioning.scheme === "header" && header !== undefined && current !== undefined;
  if (!fixedHeaders.length && !byHeader && !model.hosts.length) return undefined;
  return obj([
    [
      "headers",
      fixedHeaders.length
        ? valueExpr(Object.fromEntries(fixedHeaders.map((h) => [h.name, h.value!])))
        : undefined,
    ],
    [
      "version",
      byHeader
        ? valueExpr({ header, versions: versioning.versions.map((v) => v.name), current })
        : undefined,
    ],
    [
      "hosts",
      model.hosts.length
        ? valueExpr(Object.fromEntries(model.hosts.map((h) => [h.name, h.baseUrl ?? null])))
        : undefined,
    ],
    // The browser build works them out with it; a spec without leaves it out of a bundle.
    ["lenient", runtimeValue(coreModule, "lenientApiRequests")],
  ]);
}

/**
 * The `hosts` option of an API with other addresses (`hosts:`): each host's address, optional
 * where the spec gives a default; the option is required when some host has none.
 */
export function hostsOption(model: ApiModel): Member[] {
  if (!model.hosts.length) return [];
  const members: Member[] = model.hosts.map((h) => ({
    kind: "property-signature",
    name: h.name,
    hasQuestionToken: h.baseUrl !== undefined,
    type: keyword("string"),
    docs: [
      ...(h.docs.description ? [h.docs.description] : []),
      h.baseUrl !== undefined
        ? `Default \`${h.baseUrl}\`, the spec's.`
        : "Required: the spec shows no address for it.",
    ],
  }));
  const served = (name: string) =>
    model.endpoints
      .filter((e) => e.host === name)
      .map((e) => `\`${e.id}\``)
      .join(", ");
  return [
    {
      kind: "property-signature",
      name: "hosts",
      hasQuestionToken: model.hosts.every((h) => h.baseUrl !== undefined),
      type: { kind: "object-type", members },
      docs: [
        `The addresses of the endpoints served from elsewhere than \`baseUrl\`: ${model.hosts.map((h) => `\`${h.name}\` (${served(h.name) || "no endpoint"})`).join(", ")}. Redirects are followed within each one's origin.`,
      ],
    },
  ];
}

/** The `apiVersion` option of an API versioned by a header: one of the versions the spec lists. */
export function apiVersionOption(model: ApiModel): Member[] {
  const { scheme, header, current, versions } = model.versioning;
  if (scheme !== "header" || header === undefined || current === undefined) return [];
  return [
    {
      kind: "property-signature",
      name: "apiVersion",
      hasQuestionToken: true,
      type: union(versions.map((v) => literalType(v.name))),
      docs: [
        `The API version sent in \`${header}\` on every request; default \`${current}\`, the version this package is written for.`,
      ],
    },
  ];
}

/**
 * `options`, or `{ timeoutMs: …, maxRetries: …, ...options }` when the spec sets client
 * defaults (`api.clientDefaults`): the caller's own options still win.
 */
function withDefaults(model: ApiModel): Expr {
  const defaults = model.api.clientDefaults;
  const set = defaults
    ? (["timeoutMs", "maxRetries"] as const).filter((name) => defaults[name] !== undefined)
    : [];
  // the spec's idempotency header (Stripe's Idempotency-Key is the runtime's default), under
  // the caller's own `idempotencyHeader`
  const header = model.idempotency.supported ? model.idempotency.header : undefined;
  const named =
    header !== undefined && header.toLowerCase() !== "idempotency-key"
      ? [{ kind: "property" as const, key: "idempotencyHeader", value: lit(header) }]
      : [];
  if (set.length === 0 && named.length === 0) return id("options");
  return {
    kind: "object",
    properties: [
      ...set.map((name) => ({
        kind: "property" as const,
        key: name,
        value: lit(defaults![name]!),
      })),
      ...named,
      { kind: "spread", expr: id("options") },
    ],
  };
}
