/**
 * Emits `src/tanstack-query.ts` (the package's `/tanstack-query` entry): per endpoint the
 * options objects TanStack Query takes, framework-neutral (every adapter and `QueryClient`
 * take them as they are): a GET's `queryOptions` with its key, a paged GET's
 * `infiniteQueryOptions` (cursor, token, offset and page paging), and every other method's
 * `mutationOptions`. Each function takes the package's core, as the endpoint functions do,
 * and calls the endpoint function with TanStack's AbortSignal. Keys are hierarchical,
 * `[package, group, operation, arguments]`, so a prefix invalidates a group or an operation.
 * Only printing here: the calls' shapes are the IR's, the logic is runtime/tanstack/query.ts.
 */
import type { ApiModel, Endpoint } from "../ir/model.ts";
import { arr, call, id, lit, obj, ret, valueExpr } from "./code/build.ts";
import type { Expr, FileStatement, Param, Statement, TypeExpr } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import { pagingEntry } from "./client-pagination.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import {
  generatedRef,
  globalRef,
  modules,
  runtimeType,
  runtimeValue,
  typeRef,
} from "./shared/symbols.ts";
import { generic, keyword, literalType, typeExpr, union } from "./shared/type-expr.ts";

const path = "src/tanstack-query.ts";
const runtime = "tanstack/query.ts";
const requestOptions = runtimeType("client/core.ts", "RequestOptions");

/** Whether a parameter travels in the path (a positional argument of the call). */
const inPath = (p: Endpoint["params"][number]) =>
  p.placement === "path" || p.placement === "trailing";

/** The endpoints the entry serves: a stream is not a query's data, nor a mutation's. */
function served(model: ApiModel): Endpoint[] {
  return model.endpoints.filter(
    (e) => !e.streamResponse && e.response.kind !== "sse" && e.response.kind !== "jsonl",
  );
}

/** GET and HEAD read: a query; every other method changes something: a mutation. */
const isQuery = (e: Endpoint) => e.method === "GET" || e.method === "HEAD";

/** A paged list whose moving value is a query parameter (a next link is not a page param). */
const isInfinite = (e: Endpoint) =>
  isQuery(e) && e.pagination !== undefined && e.pagination.style !== "link";

/**
 * The endpoint function's arguments between the core and the request options, as
 * client.ts declares them: each path parameter, the body, then the query and header
 * parameters (`query`, or `params` when headers are among them).
 */
function callParams(endpoint: Endpoint): Param[] {
  const rest = endpoint.params.filter((p) => !inPath(p));
  const params: Param[] = [
    ...endpoint.params.filter(inPath).map((p) => ({ name: p.camelName, type: typeExpr(p.type) })),
    ...(endpoint.body ? [{ name: "body", type: typeExpr(endpoint.body) }] : []),
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
function fresh(name: string, params: readonly Param[]): string {
  let free = name;
  while (params.some((p) => p.name === free)) free += "_";
  return free;
}

/** The names this file declares for an endpoint, clear of the endpoint functions it imports. */
class Names {
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

const camel = (pascal: string) => pascal[0]!.toLowerCase() + pascal.slice(1);

/** `readonly [...] as const` of the key's parts. */
const constArray = (items: Expr[]): Expr => ({ kind: "as-const", expr: arr(items) });

/** The arguments as the key's last part: `{ reference, query }` (`{}` for none). */
const argsObject = (params: readonly Param[]): Expr =>
  obj(params.map((p) => [p.name, id(p.name)] as const));

const prefix = (model: ApiModel, e: Endpoint): Expr[] => [
  lit(model.api.packageName),
  lit(e.group),
  lit(e.name),
];

/** An exported function, its return type written out (declarations are made from each file alone). */
function exportedFunction(
  name: string,
  docs: string[],
  params: Param[],
  returnType: TypeExpr,
  body: Statement[],
): FileStatement {
  return {
    statement: { kind: "function", name, isExported: true, docs, params, returnType, body },
  };
}

/** `Awaited<ReturnType<typeof transactionsGet>>`: what the endpoint's call gives. */
const resultType = (e: Endpoint): TypeExpr =>
  generic(
    "Awaited",
    generic("ReturnType", {
      kind: "typeof",
      target: generatedRef(modules.client, e.functionName, false),
    }),
  );

/** `ReturnType<typeof transactionsGetQueryKey>`: the type of a key this file makes. */
const keyType = (keyName: string): TypeExpr =>
  generic("ReturnType", { kind: "typeof", target: generatedRef(path, keyName, false) });

/** `OperationKey<"package", "group", "operation", { reference: string }>`, or the infinite one. */
function keyTypeOf(
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

/** The doc lines every function of an endpoint starts with: its summary and its route. */
const lead = (e: Endpoint) => [
  ...(e.summary ? [/[.!?]$/.test(e.summary) ? e.summary : `${e.summary}.`] : []),
  `\`${e.method} ${e.path}\` (\`${e.id}\`).`,
];

/** The endpoint function called with the arguments and the request options. */
function sendCall(model: ApiModel, e: Endpoint, args: Expr[], options: Expr): Expr {
  const fn = generatedRef(modules.client, e.functionName, false);
  return call(fn, id("core"), ...args, options);
}

/** `{ ...options, signal }`: the caller's request options with TanStack's signal. */
const withSignal = (signal: string): Expr => ({
  kind: "object",
  properties: [
    { kind: "spread", expr: id("options") },
    signal === "signal"
      ? { kind: "shorthand", name: "signal" }
      : { kind: "property", key: "signal", value: id(signal) },
  ],
});

const abortSignal = globalRef("AbortSignal");

/** `function send(...) { return call; }`: what the options' function calls, inside the options' function. */
const sendFunction = (name: string, params: Param[], body: Statement[]): Statement => ({
  kind: "function",
  name,
  params,
  body,
});

const coreParam = (model: ApiModel): Param => ({
  name: "core",
  type: generatedRef(modules.client, model.api.coreClassName, true),
});
const optionsParam: Param = { name: "options", type: requestOptions, hasQuestionToken: true };

/** A GET's key and `queryOptions`. */
function queryStatements(model: ApiModel, e: Endpoint, names: Names): FileStatement[] {
  const params = callParams(e);
  const base = camel(e.pascalName);
  const keyName = names.claim(`${base}QueryKey`);
  const optionsName = names.claim(`${base}QueryOptions`);
  const signal = fresh("signal", params);
  const sendName = fresh("send", params);
  const send = sendFunction(
    sendName,
    [{ name: signal, type: abortSignal }],
    [
      ret(
        sendCall(
          model,
          e,
          params.map((p) => id(p.name)),
          withSignal(signal),
        ),
      ),
    ],
  );
  return [
    exportedFunction(
      keyName,
      [
        `The key of \`${e.id}\`'s query with these arguments: \`[package, group, operation, arguments]\`.`,
      ],
      params,
      keyTypeOf(model, e, params, false),
      [ret(arr([...prefix(model, e), argsObject(params)]))],
    ),
    exportedFunction(
      optionsName,
      [
        ...lead(e),
        "The query's key and function (`useQuery`, `fetchQuery`, ...); TanStack's signal aborts the call.",
      ],
      [coreParam(model), ...params, optionsParam],
      {
        kind: "generic",
        target: runtimeType(runtime, "EndpointQueryOptions"),
        args: [resultType(e), keyType(keyName)],
      },
      [
        send,
        ret(
          call(
            runtimeValue(runtime, "queryOptionsOf"),
            call(id(keyName), ...params.map((p) => id(p.name))),
            id(sendName),
          ),
        ),
      ],
    ),
  ];
}

/** A paged GET's key and `infiniteQueryOptions`: every page's body in `data.pages`. */
function infiniteStatements(model: ApiModel, e: Endpoint, names: Names): FileStatement[] {
  const params = callParams(e);
  const base = camel(e.pascalName);
  const keyName = names.claim(`${base}InfiniteQueryKey`);
  const optionsName = names.claim(`${base}InfiniteQueryOptions`);
  const query = params.at(-1)!;
  const signal = fresh("signal", params);
  const page = fresh("page", params);
  const sendName = fresh("send", params);
  const pageParam: Param = { name: page, type: query.type! };
  const send = sendFunction(
    sendName,
    [pageParam, { name: signal, type: abortSignal }],
    [
      ret(
        sendCall(
          model,
          e,
          params.map((p) => id(p === query ? page : p.name)),
          withSignal(signal),
        ),
      ),
    ],
  );
  return [
    exportedFunction(
      keyName,
      [`The key of \`${e.id}\`'s infinite query: its query's key with \`"infinite"\` after it.`],
      params,
      keyTypeOf(model, e, params, true),
      [ret(arr([...prefix(model, e), argsObject(params), lit("infinite")]))],
    ),
    exportedFunction(
      optionsName,
      [
        ...lead(e),
        "Every page of the list (`useInfiniteQuery`, `fetchInfiniteQuery`, ...): the next page is asked",
        "for as the client's own walk asks for it, and TanStack's signal aborts each page's call.",
      ],
      [coreParam(model), ...params, optionsParam],
      {
        kind: "generic",
        target: runtimeType(runtime, "EndpointInfiniteQueryOptions"),
        args: [resultType(e), keyType(keyName)],
      },
      [
        send,
        ret(
          call(
            runtimeValue(runtime, "infiniteQueryOptionsOf"),
            call(id(keyName), ...params.map((p) => id(p.name))),
            valueExpr(pagingEntry(e)!),
            id(query.name),
            id(sendName),
          ),
        ),
      ],
    ),
  ];
}

/** A non-GET's `mutationOptions`: the variables are the call's arguments by name. */
function mutationStatements(model: ApiModel, e: Endpoint, names: Names): FileStatement[] {
  const params = callParams(e);
  const name = names.claim(`${camel(e.pascalName)}MutationOptions`);
  const variables = fresh("variables", params);
  const typeName = params.length ? names.claim(`${e.pascalName}MutationVariables`) : undefined;
  const type: TypeExpr = typeName ? { kind: "ref", name: typeName, isType: true } : keyword("void");
  const sendName = fresh("send", params);
  const send = sendFunction(sendName, typeName ? [{ name: variables, type }] : [], [
    ret(
      sendCall(
        model,
        e,
        params.map((p) => ({ kind: "member", object: id(variables), name: p.name })),
        id("options"),
      ),
    ),
  ]);
  const variablesType: FileStatement[] = typeName
    ? [
        {
          statement: {
            kind: "interface",
            name: typeName,
            isExported: true,
            docs: [`The variables of \`${e.id}\`'s mutation: the call's arguments by name.`],
            members: params.map((p) => ({
              kind: "property-signature",
              name: p.name,
              type: p.type!,
              ...(p.hasQuestionToken ? { hasQuestionToken: true } : {}),
            })),
          },
        },
      ]
    : [];
  return [
    ...variablesType,
    exportedFunction(
      name,
      [
        ...lead(e),
        `The mutation's key (\`[package, group, operation]\`) and function (\`useMutation\`); its variables are ${params.length ? `the call's arguments by name: \`{ ${params.map((p) => p.name).join(", ")} }\`` : "none"}.`,
      ],
      [coreParam(model), optionsParam],
      {
        kind: "generic",
        target: runtimeType(runtime, "EndpointMutationOptions"),
        args: [resultType(e), type],
      },
      [
        send,
        ret(
          call(
            runtimeValue(runtime, "mutationOptionsOf"),
            constArray(prefix(model, e)),
            id(sendName),
          ),
        ),
      ],
    ),
  ];
}

/** `queryKeyRoot` and `queryKeys`: the prefixes of every key, a group's and an operation's. */
function keyStatements(model: ApiModel, names: Names): FileStatement[] {
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

/** `src/tanstack-query.ts` of the generated package; none without the client. */
export function emitTanstackQueryFile(ctx: EmitContext): EmittedFile[] {
  if (!ctx.outputs.client) return [];
  const { model } = ctx;
  const names = new Names(model);
  const statements: FileStatement[] = [...keyStatements(model, names)];
  for (const e of served(model)) {
    if (isQuery(e)) statements.push(...queryStatements(model, e, names));
    else statements.push(...mutationStatements(model, e, names));
    if (isInfinite(e)) statements.push(...infiniteStatements(model, e, names));
  }
  const header: Statement[] = [
    {
      kind: "doc-comment",
      lines: [
        `TanStack Query options for ${model.api.title}: per endpoint a query's, a paged list's or a`,
        "mutation's options, plain objects that every adapter (React, Vue, Solid, Svelte, Angular)",
        "and `QueryClient` take. Each takes the package's core, as the endpoint functions do.",
        "Types only from `@tanstack/query-core`, an optional peer dependency. See docs/client.md of apigen.",
      ],
    },
  ];
  return [{ path, contents: printSourceFile({ path, banner: ctx.banner, header, statements }) }];
}
