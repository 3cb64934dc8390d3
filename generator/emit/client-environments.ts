/**
 * The client's environments, read off the IR: the exported addresses (`ShopEnvironments`),
 * the options type that asks for `baseUrl` or an `environment` (with the values of its
 * address's variables, `serverVariables`, where it has some), and the constructor's base
 * address, worked out by runtime/client/environments.ts.
 */
import type { ApiModel, Environment } from "../ir/model.ts";
import { call, id, valueExpr } from "./code/build.ts";
import type { Expr, Member, Ref, Statement, TypeExpr } from "./code/nodes.ts";
import { generatedRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";
import { keyword, literalType, union } from "./shared/type-expr.ts";

const environmentsModule = "client/environments.ts";

/** The environments whose address the spec gives: the client's `environment` option names one. */
export const addressed = (model: ApiModel) =>
  model.environments.filter((e) => e.baseUrl !== undefined);

/** The addressed environments whose address has variables. */
const withVariables = (model: ApiModel) => addressed(model).filter((e) => e.variables.length);

/** The generated environments' addresses, referred to from the client module. */
const environmentsRef = (model: ApiModel) =>
  generatedRef(modules.client, model.api.environmentsName, false);

/**
 * `export const ShopEnvironments = { sandbox: "https://…", production: "https://…" } as const`:
 * the addresses of the environments the spec gives one for (templates where they have
 * variables); none when it gives none.
 */
export function environmentsConst(model: ApiModel): Statement | undefined {
  const environments = addressed(model);
  if (!environments.length) return undefined;
  return {
    kind: "variable",
    declarationKind: "const",
    name: model.api.environmentsName,
    isExported: true,
    docs: [
      `The base addresses of the ${model.api.title}'s environments: \`new ${model.api.clientName}({ environment: "${environments[0]!.name}" })\`.`,
      ...environments.map(
        (e) => `- \`${e.name}\`${e.docs.description ? `: ${e.docs.description}` : ""}`,
      ),
    ],
    init: {
      kind: "as-const",
      expr: valueExpr(Object.fromEntries(environments.map((e) => [e.name, e.baseUrl!]))),
    },
  };
}

/**
 * `export type ShopClientOptions = Addressed<ShopClientSettings, keyof typeof ShopEnvironments>`
 * where the spec gives environments' addresses: the settings with `baseUrl` or an
 * `environment` (one of the two required). Where an address has variables, `AddressedWith`
 * and one choice per environment, each with its `serverVariables` (required where a variable
 * has no default). None where the spec gives no address (the options are the interface).
 */
export function addressedOptionsType(
  model: ApiModel,
  settings: Ref,
  options: string,
): Statement | undefined {
  if (!addressed(model).length) return undefined;
  const choices = withVariables(model).length
    ? {
        target: runtimeType(environmentsModule, "AddressedWith"),
        args: [settings, union(addressed(model).map(environmentChoice))],
      }
    : {
        target: runtimeType(environmentsModule, "Addressed"),
        args: [settings, environmentNames(model)],
      };
  return {
    kind: "type-alias",
    name: options,
    isExported: true,
    docs: [
      `Options of {@link ${model.api.clientName}}: its settings, with \`baseUrl\` or an \`environment\` of {@link ${model.api.environmentsName}}.`,
    ],
    type: { kind: "generic", ...choices },
  };
}

/** `{ environment: "eu"; serverVariables?: { region?: "eu-1" | "eu-2" } }`. */
function environmentChoice(environment: Environment): TypeExpr {
  const members: Member[] = [
    { kind: "property-signature", name: "environment", type: literalType(environment.name) },
  ];
  if (environment.variables.length)
    members.push({
      kind: "property-signature",
      name: "serverVariables",
      hasQuestionToken: environment.variables.every((v) => v.default !== undefined),
      type: {
        kind: "object-type",
        members: environment.variables.map((v) => ({
          kind: "property-signature",
          name: v.name,
          hasQuestionToken: v.default !== undefined,
          type: v.enum ? union(v.enum.map(literalType)) : keyword("string"),
          docs: variableDocs(v),
        })),
      },
    });
  return { kind: "object-type", members, inline: true };
}

function variableDocs(variable: Environment["variables"][number]): string[] {
  const lines = variable.docs.description ? [variable.docs.description] : [];
  return variable.default !== undefined
    ? [...lines, `@default ${JSON.stringify(variable.default)}`]
    : lines;
}

/** `keyof typeof ShopEnvironments`. */
export const environmentNames = (model: ApiModel): TypeExpr => ({
  kind: "keyof",
  type: { kind: "typeof", target: environmentsRef(model) },
});

/**
 * The options with the base address the client sends to, where the spec gives environments'
 * addresses: `{ ...options, baseUrl: environmentUrl(options, ShopEnvironments) }`, and the
 * variables of each address that has some as a third argument.
 */
export function withAddress(model: ApiModel, options: Expr): Expr {
  if (!addressed(model).length) return options;
  const variables = withVariables(model).map((e) => [
    e.name,
    Object.fromEntries(
      e.variables.map((v) => [
        v.name,
        {
          ...(v.default !== undefined ? { default: v.default } : {}),
          ...(v.enum ? { enum: v.enum } : {}),
        },
      ]),
    ),
  ]);
  const baseUrl = {
    kind: "property" as const,
    key: "baseUrl",
    value: call(
      runtimeValue(environmentsModule, "environmentUrl"),
      id("options"),
      environmentsRef(model),
      ...(variables.length ? [valueExpr(Object.fromEntries(variables))] : []),
    ),
  };
  return options.kind === "object"
    ? { ...options, properties: [...options.properties, baseUrl] }
    : { kind: "object", properties: [{ kind: "spread", expr: options }, baseUrl] };
}
