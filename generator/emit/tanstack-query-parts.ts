/**
 * The parts of `src/tanstack-query.ts` (tanstack-query-file.ts) that are about names and keys:
 * the endpoint function's arguments as the file repeats them, the names it declares, and the
 * keys, `[package, group, operation, arguments]`, with their types and prefixes.
 */
import type { ApiModel, Endpoint } from "../ir/model.ts";
import { arr, id, lit, obj } from "./code/build.ts";
import type { Expr, FileStatement, Param, TypeExpr } from "./code/nodes.ts";
import { bodyParams } from "./shared/body-param.ts";
import { generatedRef, modules, runtimeType, typeRef } from "./shared/symbols.ts";
import { generic, keyword, literalType, typeExpr, union } from "./shared/type-expr.ts";

export const path = "src/tanstack-query.ts";
export const runtime = "tanstack/query.ts";

/** Whether a parameter travels in the path (a positional argument of the call). */
const inPath = (p: Endpoint["params"][number]) =>
  p.placement === "path" || p.placement === "trailing";

/**
 * The endpoint function's arguments between the core and the request options, as
 * client.ts declares them: each path parameter, the body, then the query and header
 * parameters (`query`, or `params` when headers are among them).
 */
export function callParams(endpoint: Endpoint): Param[] {
  const rest = endpoint.params.filter((p) => !inPath(p));
  const params: Param[] = [
    ...endpoint.params.filter(inPath).map((p) => ({ name: p.camelName, type: typeExpr(p.type) })),
    ...bodyParams(
      endpoint,
      rest.some((p) => p.required),
    ),
    ...(rest.length
      ? [
          {
            name: rest.some((p) => p.placement === "header") ? "params" : "query",
            hasQuestionToken: !rest.some((p) => p.required),
            type: generic(
              "Pick",
              typeRef(endpoint.paramsTypeName!),
              union(rest.map((p) => literalType(p.name))),
            ),
          },
        ]
      : []),
  ];
  if (!endpoint.expand) return params;
  // The argument that carries `expand` is typed by the call (its paths); the widest answer follows.
  const at = endpoint.expand.in === "body" ? params.findIndex((p) => p.name === "body") : -1;
  const index = at >= 0 ? at : params.length - 1;
  const fn = generatedRef(modules.client, endpoint.functionName, false);
  const type: TypeExpr = {
    kind: "indexed",
    object: generic("Parameters", { kind: "typeof", target: fn }),
    index: literalType(index + 1),
  };
  return params.map((p, i) => (i === index ? { ...p, type } : p));
}

/** `name`, or `name_` (and so on) when the endpoint's parameters already use it. */
export function fresh(name: string, params: readonly Param[]): string {
  let free = name;
  while (params.some((p) => p.name === free)) free += "_";
  return free;
}

/** The names this file declares for an endpoint, clear of the endpoint functions it imports. */
export class Names {
  private readonly taken: Set<string>;
  constructor(model: ApiModel) {
    // what the file imports: the endpoint functions, the core, the spec's and the parameters' types
    this.taken = new Set([
      ...model.endpoints.flatMap((e) => [e.functionName, e.paramsTypeName ?? ""]),
      ...model.types.map((t) => t.name),
      model.api.coreClassName,
      "RequestOptions",
    ]);
  }
  claim(name: string): string {
    let free = name;
    while (this.taken.has(free)) free += "_";
    this.taken.add(free);
    return free;
  }
}

/** `readonly [...] as const` of the key's parts. */
export const constArray = (items: Expr[]): Expr => ({ kind: "as-const", expr: arr(items) });

/** The arguments as the key's last part: `{ reference, query }` (`{}` for none). */
export const argsObject = (params: readonly Param[]): Expr =>
  obj(params.map((p) => [p.name, id(p.name)] as const));

export const prefix = (model: ApiModel, e: Endpoint): Expr[] => [
  lit(model.api.packageName),
  lit(e.group),
  lit(e.name),
];

/** The start of the names of an endpoint's functions: its function's name (`transactionsGet`). */
export const baseName = (e: Endpoint): string => e.functionName.replace(/_$/, "");

/** `ReturnType<typeof transactionsGetQueryKey>`: the type of a key this file makes. */
export const keyType = (keyName: string): TypeExpr =>
  generic("ReturnType", { kind: "typeof", target: generatedRef(path, keyName, false) });

/** `OperationKey<"package", "group", "operation", { reference: string }>`, or the infinite one. */
export function keyTypeOf(
  model: ApiModel,
  e: Endpoint,
  params: readonly Param[],
  infinite: boolean,
): TypeExpr {
  const args: TypeExpr = {
    kind: "object-type",
    inline: true,
    members: params.map((p) => ({
      kind: "property-signature",
      name: p.name,
      // given as it is: an argument left out is there, undefined
      type: p.hasQuestionToken ? union([p.type!, keyword("undefined")]) : p.type!,
    })),
  };
  return {
    kind: "generic",
    target: runtimeType(runtime, infinite ? "InfiniteOperationKey" : "OperationKey"),
    args: [literalType(model.api.packageName), literalType(e.group), literalType(e.name), args],
  };
}

/** `queryKeyRoot` and `queryKeys`: the prefixes of every key, a group's and an operation's. */
export function keyStatements(model: ApiModel, names: Names): FileStatement[] {
  const root = lit(model.api.packageName);
  const groups = [...new Set(model.endpoints.map((e) => e.group))];
  const entries: (readonly [string, Expr])[] = [];
  for (const group of groups) {
    entries.push([group, arr([root, lit(group)])]);
    for (const e of model.endpoints.filter((x) => x.group === group))
      entries.push([e.id, arr([root, lit(group), lit(e.name)])]);
  }
  return [
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: names.claim("queryKeyRoot"),
        isExported: true,
        docs: [
          "The first part of every key of this package's queries and mutations: invalidating it",
          "invalidates them all (`queryClient.invalidateQueries({ queryKey: queryKeyRoot })`).",
        ],
        init: constArray([root]),
      },
    },
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: names.claim("queryKeys"),
        isExported: true,
        docs: [
          "The key prefix of each group's and each operation's queries, by group and by endpoint id:",
          '`invalidateQueries({ queryKey: queryKeys.transactions })` or `queryKeys["transactions.get"]`.',
        ],
        init: { kind: "as-const", expr: obj(entries, { expanded: entries.length > 0 }) },
      },
    },
  ];
}
