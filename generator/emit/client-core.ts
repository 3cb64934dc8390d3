/**
 * The client's options interface and its core class, read off the IR: one option per
 * credential the endpoints send, and the core that hands the options, the credentials, the
 * API's error class and the spec's retry statuses to the runtime's ClientCore.
 */
import type { ApiModel } from "../ir/model.ts";
import { arr, call, exprStatement, id, lit, member, obj } from "./code/build.ts";
import type { ClassDeclaration, Expr, Statement } from "./code/nodes.ts";
import { isSent, sentAs } from "./client-params.ts";
import { generatedRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";

const coreModule = "client/core.ts";

/** The generated core class, referred to from the client module. */
export const coreRef = (model: ApiModel) =>
  generatedRef(modules.client, model.api.coreClassName, false);
/** The generated options interface. */
export const optionsRef = (model: ApiModel) =>
  generatedRef(modules.client, `${model.api.clientName}Options`, true);

/** The credentials the endpoints send: one client option each. */
export function headerCredentials(model: ApiModel) {
  const used = new Set(model.endpoints.flatMap((e) => e.auth));
  return model.credentials.filter((c) => isSent(c) && used.has(c.id));
}

/** Options of the client: the runtime's, plus one per credential the endpoints send. */
export function optionsInterface(model: ApiModel): Statement {
  return {
    kind: "interface",
    name: optionsRef(model).name,
    isExported: true,
    extends: [runtimeType(coreModule, "CoreOptions")],
    docs: [`Options of {@link ${model.api.clientName}}.`],
    members: headerCredentials(model).map((c) => ({
      kind: "property-signature",
      name: c.optionName,
      hasQuestionToken: true,
      type: runtimeType(
        coreModule,
        c.placement === "basic" ? "BasicCredentialValue" : "CredentialValue",
      ),
      docs: [
        ...(c.docs.description ? [c.docs.description] : []),
        `${sentAs(c)} by the endpoints that need it.`,
      ],
    })),
  };
}

/** The core class: options, credentials and the API's error class, for the endpoint functions. */
export function coreClass(model: ApiModel): ClassDeclaration {
  const example = model.endpoints[0];
  const { clientName, title } = model.api;
  const credentials = obj(
    headerCredentials(model).map((c) => [c.id, member(id("options"), c.optionName)] as const),
  );
  const errorClass = generatedRef(modules.errors, model.api.errorClassName, false);
  const { statuses, never, anyMethod } = model.errors.retry;
  const { requestIdHeader } = model.errors;
  const retry =
    statuses.length || never.length || anyMethod.length || requestIdHeader !== undefined
      ? [
          obj([
            ["statuses", statuses.length ? arr(statuses.map(lit)) : undefined],
            ["never", never.length ? arr(never.map(lit)) : undefined],
            ["anyMethod", anyMethod.length ? arr(anyMethod.map(lit)) : undefined],
          ]),
          ...(requestIdHeader !== undefined ? [lit(requestIdHeader)] : []),
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
        exprStatement(call(id("super"), withDefaults(model), credentials, errorClass, ...retry)),
      ],
    },
  };
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
  if (!defaults || set.length === 0) return id("options");
  return {
    kind: "object",
    properties: [
      ...set.map((name) => ({ kind: "property" as const, key: name, value: lit(defaults[name]!) })),
      { kind: "spread", expr: id("options") },
    ],
  };
}
