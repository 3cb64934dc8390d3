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
import { arr, call, id, lit, ret, valueExpr } from "./code/build.ts";
import type { Expr, FileStatement, Param, Statement, TypeExpr } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import { pagingEntry } from "./client-pagination.ts";
import {
  argsObject,
  baseName,
  callParams,
  constArray,
  fresh,
  keyStatements,
  keyType,
  keyTypeOf,
  Names,
  path,
  prefix,
  runtime,
} from "./tanstack-query-parts.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { generatedRef, globalRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";
import { generic, keyword } from "./shared/type-expr.ts";

const requestOptions = runtimeType("client/core.ts", "RequestOptions");

/** The endpoints the entry serves: a stream is not a query's data, nor a mutation's. */
function served(model: ApiModel): Endpoint[] {
  return model.endpoints.filter(
    (e) => !e.streamResponse && e.response.kind !== "sse" && e.response.kind !== "jsonl",
  );
}

/** GET, HEAD and QUERY read: a query; every other method changes something: a mutation. */
const isQuery = (e: Endpoint) => e.method === "GET" || e.method === "HEAD" || e.method === "QUERY";

/**
 * A paged list whose moving value is a query parameter (a next link is not a page param, and
 * a field of the request body, `in: body`, would have to be part of the key).
 */
const isInfinite = (e: Endpoint) =>
  isQuery(e) &&
  e.pagination !== undefined &&
  e.pagination.style !== "link" &&
  e.pagination.in !== "body";

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
  const base = baseName(e);
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
  const base = baseName(e);
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
  const name = names.claim(`${baseName(e)}MutationOptions`);
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
