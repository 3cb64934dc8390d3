/**
 * Emits `src/client.ts`: per endpoint a standalone function (`transactionsGet(core,
 * reference)`), typed with the endpoint's signature and made by the runtime from the
 * endpoint's data descriptor, handing each call to ClientCore, which does the work; and the
 * client class, whose groups (`client.transactions.get(reference)`, grouped by the first
 * part of the endpoint id) call those functions. The functions are what makes one endpoint
 * tree-shakable: the class refers to them all.
 */
import type { ApiModel, Endpoint } from "../ir/model.ts";
import { exprStatement, id, lit, member, newExpr, pureCall } from "./code/build.ts";
import type {
  ClassDeclaration,
  Expr,
  FileStatement,
  Member,
  Param,
  Statement,
  TypeExpr,
} from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import {
  descriptorBodyEntries,
  encodesBody,
  descriptorHeaders,
  flagReturnTypes,
  responseHeadersInterface,
  returnTypeOf,
} from "./client-bodies.ts";
import {
  eventUnionStatement,
  flagOverloads,
  streamedResponse,
  streamExports,
} from "./client-streams.ts";
import { environmentsConst } from "./client-environments.ts";
import { bodyParams } from "./shared/body-param.ts";
import {
  addressedOptionsType,
  coreClass,
  coreRef,
  endpointIdType,
  headerCredentials,
  optionsInterface,
  optionsRef,
} from "./client-core.ts";
import { endpointDocLines } from "./client-docs.ts";
import { clientCredentialsStatements } from "./client-oauth.ts";
import { expandSignature, type Signature } from "./client-expand.ts";
import { pagedEndpointMaker, pagedReturnType, pagingEntry } from "./client-pagination.ts";
import { credentialSpec, inPath, paramsArgName, paramsSpec } from "./client-params.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { obj } from "./shared/json.ts";
import {
  generatedRef,
  modules,
  requestValidatorRef,
  runtimeType,
  runtimeValue,
  typeRef,
} from "./shared/symbols.ts";
import { endpointValidators } from "./shared/request-validators.ts";
import { generic, literalType, typeExpr, union } from "./shared/type-expr.ts";
import { jsonText } from "./shared/escape.ts";

const coreModule = "client/core.ts";
const requestOptions = runtimeType(coreModule, "RequestOptions");
const conditionalModule = "client/conditional.ts";
/** The options of a call to an endpoint that answers 304: `ifNoneMatch`, `ifModifiedSince`. */
const conditionalOptions = runtimeType(conditionalModule, "ConditionalRequestOptions");

/**
 * The arguments of `endpoint()` for one endpoint: its data as JSON text, then the code it
 * needs (`operationCode`), which the data's `code` names in order. As text, 1,223
 * descriptors of GitHub's API are 1,223 string literals to a type-checker rather than as
 * many object literals to type and compare with `OperationSpec` (about 0.4 s of tsc 6); the
 * code as plain arguments likewise (an object literal compared with `OperationCode` was
 * about 0.1 s more).
 */
function descriptorArgs(model: ApiModel, endpoint: Endpoint): Expr[] {
  const credentials = endpoint.auth.flatMap((credentialId) =>
    credentialSpec(
      endpoint,
      model.credentials.find((credential) => credential.id === credentialId),
    ),
  );
  const trailing = endpoint.params.filter((p) => p.placement === "trailing");
  const code = operationCode(model, endpoint);
  const descriptor = obj({
    id: endpoint.id,
    method: endpoint.method,
    path: endpoint.path,
    credentials,
    headers: descriptorHeaders(endpoint),
    host: endpoint.host,
    trailing: trailing.length ? trailing.map((p) => p.name) : undefined,
    args: argNames(endpoint),
    documentedResponse: endpoint.response.body !== undefined,
    emptyStatus: endpoint.response.emptyStatus,
    ...paramsSpec(endpoint),
    ...descriptorBodyEntries(endpoint),
    paging: pagingEntry(endpoint),
    code: code.length ? code.map(([name]) => name) : undefined,
  });
  return [lit(jsonText(descriptor)), ...code.map(([, expr]) => expr)];
}

/**
 * What the endpoint function's arguments after the core are, in order, as the runtime's
 * `callArgs` sorts them: each path parameter by name, `$body`, `$query` (see `signature`).
 */
function argNames(endpoint: Endpoint): string[] | undefined {
  const names = [
    ...endpoint.params.filter(inPath).map((p) => p.name),
    ...(endpoint.body ? ["$body"] : []),
    ...(endpoint.params.some((p) => !inPath(p)) ? ["$query"] : []),
  ];
  return names.length ? names : undefined;
}

/**
 * The code an endpoint hands to `endpoint()` beside its data, by the name the runtime knows it
 * by (`OperationCode`): the validators of its parameters and body, and the runtime beyond the
 * request loop (the body encoder of a body that is not JSON, the writer of query and header
 * parameters and query credentials, the stream reader). Only endpoints that need them refer
 * to them, so a bundle of other endpoints leaves them out.
 */
function operationCode(model: ApiModel, endpoint: Endpoint): [string, Expr][] {
  const placements = endpoint.auth.map(
    (credentialId) => model.credentials.find((c) => c.id === credentialId)?.placement,
  );
  const queryCredential = placements.includes("query");
  const places = queryCredential || endpoint.params.some((p) => !inPath(p));
  // Through src/request-validators.ts: the browser build has none (docs/client.md).
  const validators = endpointValidators(endpoint);
  const code: [string, Expr | undefined][] = [
    ["validateParams", validators.params ? requestValidatorRef(validators.params) : undefined],
    ["validateBody", validators.body ? requestValidatorRef(validators.body) : undefined],
    ["encode", encodesBody(endpoint) ? runtimeValue(coreModule, "encodeBody") : undefined],
    [
      "segments",
      endpoint.params.some((p) => p.slashes) ? runtimeValue(coreModule, "pathSegments") : undefined,
    ],
    ["place", places ? runtimeValue(coreModule, "placeParams") : undefined],
    [
      "credential",
      queryCredential || placements.includes("basic")
        ? runtimeValue(coreModule, "credentialText")
        : undefined,
    ],
    ["choose", endpoint.authAnyOf ? runtimeValue(coreModule, "chooseCredential") : undefined],
    [
      "readHeaders",
      endpoint.response.headers.length ? runtimeValue(coreModule, "declaredHeaders") : undefined,
    ],
    [
      "conditional",
      endpoint.response.notModified ? runtimeValue(conditionalModule, "conditional") : undefined,
    ],
    [
      "stream",
      streamedResponse(endpoint) ? runtimeValue("client/stream.ts", "openStream") : undefined,
    ],
  ];
  return code.filter((entry): entry is [string, Expr] => entry[1] !== undefined);
}

/** Parameters and return type of an endpoint's function and method, after the core. */
function signature(model: ApiModel, endpoint: Endpoint): Signature {
  const pathParams = endpoint.params.filter(inPath);
  const queryParams = endpoint.params.filter((p) => !inPath(p));
  const params: Param[] = [
    ...pathParams.map((p) => ({ name: p.camelName, type: typeExpr(p.type) })),
    ...bodyParams(
      endpoint,
      queryParams.some((p) => p.required),
    ),
  ];
  if (queryParams.length)
    params.push({
      name: paramsArgName(endpoint),
      hasQuestionToken: !queryParams.some((p) => p.required),
      type: generic(
        "Pick",
        typeRef(endpoint.paramsTypeName!),
        union(queryParams.map((p) => literalType(p.name))),
      ),
    });
  const options = endpoint.response.notModified ? conditionalOptions : requestOptions;
  params.push({ name: "options", type: options, hasQuestionToken: true });
  const { pagination } = endpoint;
  return expandSignature(model, endpoint, {
    params,
    returnType: pagination ? pagedReturnType(endpoint, pagination) : returnTypeOf(endpoint),
  });
}

/**
 * What an endpoint's function and its method share: the signature, the doc lines and a body
 * flag's return types, worked out once for both (on GitHub's API, twice was about 0.1 s of
 * the client emitter). Neither caller changes them.
 */
interface EndpointParts {
  endpoint: Endpoint;
  signature: Signature;
  docs: readonly string[];
  flagReturns: ReturnType<typeof flagReturnTypes>;
}

function endpointParts(model: ApiModel, endpoint: Endpoint): EndpointParts {
  return {
    endpoint,
    signature: signature(model, endpoint),
    docs: endpointDocLines(model, endpoint),
    flagReturns: flagReturnTypes(endpoint),
  };
}

/**
 * The standalone function of one endpoint, `transactionsGet(core, reference, options)`: a
 * constant the runtime makes from the descriptor (`endpoint()`, or `pagedEndpoint()` for a
 * paged one, which brings the paging runtime only into bundles that use it), typed with the
 * endpoint's signature. There is no body to type-check: on GitHub's API, 1,223 function
 * bodies calling the runtime cost about 0.1 of tsc 6's ratio to openapi-typescript.
 * The annotation lets a bundler drop an unused one with its descriptor.
 */
function endpointStatement(model: ApiModel, parts: EndpointParts): Statement {
  const { endpoint, flagReturns } = parts;
  const { typeParameters, params, returnType } = parts.signature;
  const docs = [...parts.docs];
  const firstTag = docs.findIndex((l) => l.startsWith("@"));
  // Plain code, not `{@link}`: tsc parses a doc comment of a .ts file only when it holds
  // `@link` or `@see`, and this line on every endpoint function made it parse and check
  // 1,223 of them for GitHub's API (0.1-0.7 s of tsc 6 across runs; bench/github.ts).
  docs.splice(
    firstTag < 0 ? docs.length : firstTag,
    0,
    `@param core The \`${model.api.coreClassName}\` that sends the call.`,
  );
  const lead: Param[] = [{ name: "core", type: coreRef(model) }];
  const overloads = flagOverloads(endpoint, lead, params, flagReturns, docs);
  const type: TypeExpr = overloads
    ? {
        kind: "object-type",
        members: overloads.map((o) => ({ kind: "call-signature", ...o })),
      }
    : {
        kind: "function-type",
        ...(typeParameters ? { typeParameters } : {}),
        params: [...lead, ...params],
        returns: returnType,
      };
  const make = endpoint.pagination ? pagedEndpointMaker() : runtimeValue(coreModule, "endpoint");
  return {
    kind: "variable",
    declarationKind: "const",
    name: endpoint.functionName,
    isExported: true,
    docs,
    type,
    init: pureCall(make, ...descriptorArgs(model, endpoint)),
  };
}

/**
 * One endpoint group: its interface, a method signature per endpoint (a body flag's overloads
 * as several), and its class, made by the runtime's `group()` from the endpoint functions.
 * Written out as a class, GitHub's 1,223 method bodies calling their functions took tsc 6
 * from 0.950 to 0.967 of openapi-typescript's time on the same API (interleaved rounds).
 */
function groupStatements(
  model: ApiModel,
  endpoints: readonly Endpoint[],
  partsOf: (endpoint: Endpoint) => EndpointParts,
): FileStatement[] {
  const first = endpoints[0]!;
  const name = first.groupClassName;
  const members: Member[] = endpoints.flatMap((endpoint) => {
    const { signature, docs, flagReturns } = partsOf(endpoint);
    const { typeParameters, params, returnType } = signature;
    const overloads = flagOverloads(endpoint, [], params, flagReturns, docs) ?? [
      { docs, ...(typeParameters ? { typeParameters } : {}), params, returnType },
    ];
    return overloads.map((o) => ({ kind: "call-signature", name: endpoint.methodName, ...o }));
  });
  const classType: TypeExpr = {
    kind: "function-type",
    isConstructor: true,
    params: [{ name: "core", type: coreRef(model) }],
    returns: generatedRef(modules.client, name, true),
  };
  return [
    {
      statement: {
        kind: "interface",
        name,
        isExported: true,
        docs: [`The \`${first.group}\` endpoints of the ${model.api.title}.`],
        members,
      },
    },
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name,
        isExported: true,
        docs: [
          `The class of the \`${first.group}\` endpoints: each method calls its endpoint function with the core.`,
        ],
        type: classType,
        init: pureCall(
          runtimeValue(coreModule, "group"),
          lit(endpoints.map((e) => e.methodName).join(",")),
          ...endpoints.map((e) => id(e.functionName)),
        ),
      },
    },
  ];
}

function clientClass(model: ApiModel, groups: readonly (readonly Endpoint[])[]): ClassDeclaration {
  const groupType = (g: readonly Endpoint[]) =>
    generatedRef(modules.client, g[0]!.groupClassName, false);
  return {
    kind: "class",
    name: model.api.clientName,
    isExported: true,
    docs: [
      `Client of the ${model.api.title}: one method per endpoint, grouped as in the endpoint ids.`,
    ],
    properties: groups.map((g) => ({
      name: g[0]!.groupProperty,
      type: groupType(g),
      isReadonly: true,
    })),
    ctor: {
      params: [{ name: "options", type: optionsRef(model) }],
      body: [
        {
          kind: "variable",
          declarationKind: "const",
          name: "core",
          init: newExpr(coreRef(model), id("options")),
        },
        ...groups.map((g) =>
          exprStatement({
            kind: "assign",
            target: member(id("this"), g[0]!.groupProperty),
            operator: "=",
            value: newExpr(groupType(g), id("core")),
          }),
        ),
      ],
    },
  };
}

/**
 * The runtime's ApiPromise (what every call returns) and, where a body has binary fields,
 * BinaryInput, re-exported for the package's users; with a paged endpoint, PagePromise and
 * Page too.
 */
function exportedRuntime(model: ApiModel): FileStatement[] {
  if (model.endpoints.length === 0) return [];
  const paging: FileStatement[] = model.endpoints.some((e) => e.pagination)
    ? [
        {
          statement: {
            kind: "export-from",
            module: `src/runtime/client/pagination.ts`,
            isTypeOnly: true,
            names: ["Page", "PagePromise"].map((name) => ({ name, isType: true })),
          },
          tight: true,
        },
      ]
    : [];
  const statement: FileStatement = {
    statement: {
      kind: "export-from",
      module: `src/runtime/${coreModule}`,
      names: [
        { name: "ApiPromise", isType: false },
        { name: "BinaryInput", isType: true },
        { name: "WithResponse", isType: true },
      ],
    },
    tight: true,
  };
  const middleware: FileStatement = {
    statement: {
      kind: "export-from",
      module: "src/runtime/client/hooks.ts",
      names: [
        { name: "withMiddleware", isType: false },
        ...["Middleware", "MiddlewareContext", "MiddlewareStack"].map((name) => ({
          name,
          isType: true,
        })),
      ],
    },
    tight: true,
  };
  return [statement, middleware, ...paging, ...conditionalExports(model), ...streamExports(model)];
}

/** With an endpoint that answers 304: `NotModified` and `ConditionalRequestOptions`, re-exported. */
function conditionalExports(model: ApiModel): FileStatement[] {
  if (!model.endpoints.some((e) => e.response.notModified)) return [];
  const names = [
    { name: "NotModified", isType: false },
    { name: "ConditionalRequestOptions", isType: true },
  ];
  return [
    {
      statement: { kind: "export-from", module: `src/runtime/${conditionalModule}`, names },
      tight: true,
    },
  ];
}

/** `src/client.ts` of the generated package. */
export function emitClientFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const byGroup = new Map<string, Endpoint[]>();
  for (const e of model.endpoints) {
    const group = byGroup.get(e.group);
    if (group) group.push(e);
    else byGroup.set(e.group, [e]);
  }
  const groups = [...byGroup.values()];
  const parts = new Map(model.endpoints.map((e) => [e, endpointParts(model, e)]));
  const partsOf = (e: Endpoint) => parts.get(e)!;
  const statements: FileStatement[] = [
    {
      statement: {
        kind: "export-from",
        module: `src/runtime/${coreModule}`,
        isTypeOnly: true,
        names: [
          ...(headerCredentials(model).some((c) => c.placement === "basic" && !c.basicFixed)
            ? ["BasicCredentialValue"]
            : []),
          ...["CoreOptions", "CredentialValue", "RequestOptions"],
        ].map((name) => ({
          name,
          isType: true,
        })),
      },
    },
    ...exportedRuntime(model),
    ...clientCredentialsStatements(model),
    ...[endpointIdType(model)].flatMap((statement) => (statement ? [{ statement }] : [])),
    ...[environmentsConst(model)].flatMap((statement) => (statement ? [{ statement }] : [])),
    { statement: optionsInterface(model) },
    ...[addressedOptionsType(model)].flatMap((statement) => (statement ? [{ statement }] : [])),
    { statement: coreClass(model) },
    ...model.endpoints.flatMap((e) =>
      [responseHeadersInterface(e), eventUnionStatement(e)].flatMap((statement) =>
        statement ? [{ statement }] : [],
      ),
    ),
    ...model.endpoints.map((e) => ({ statement: endpointStatement(model, partsOf(e)) })),
    ...groups.flatMap((g) => groupStatements(model, g, partsOf)),
    { statement: clientClass(model, groups) },
  ];
  const contents = printSourceFile({ path: modules.client, banner: ctx.banner, statements });
  return { path: modules.client, contents };
}
