/**
 * Emits `src/client.ts`: per endpoint a data descriptor and a standalone function
 * (`transactionsGet(core, reference)`) handing it to the runtime's ClientCore, which does
 * the work; and the client class with one method per endpoint calling those functions,
 * grouped by the first part of the endpoint id (`client.transactions.get(reference)`).
 * The functions are what makes one endpoint tree-shakable: the class refers to them all.
 */
import {
  Project,
  Scope,
  StructureKind,
  type ClassDeclarationStructure,
  type FunctionDeclarationStructure,
  type InterfaceDeclarationStructure,
} from "ts-morph";
import type { ApiModel, Endpoint, TypeNode } from "../ir/model.ts";
import { referencedNames } from "../ir/walk.ts";
import { endpointDocLines } from "./client-docs.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { jsDocStructures } from "./jsdoc.ts";
import { validatorName } from "./names.ts";
import { writeType } from "./type-text.ts";
import { combinators, validatorExpression } from "./validators-file.ts";

const operationName = (endpoint: Endpoint) => `op${endpoint.pascalName}`;
const groupClassName = (endpoint: Endpoint) => `${endpoint.groupPascalName}Api`;

/** `transactionsGet`: the standalone function of an endpoint, which a bundler keeps only when it is used. */
export function endpointFunctionName(endpoint: Endpoint): string {
  return endpoint.pascalName.charAt(0).toLowerCase() + endpoint.pascalName.slice(1);
}

/** `MerchantCore` for `MerchantClient`: what the standalone endpoint functions take. */
export function coreClassName(model: ApiModel): string {
  return `${model.api.clientName.replace(/Client$/, "")}Core`;
}

/** `validateTransactionsAuthorizeBody`: the local validator of a body whose type is written inline. */
const inlineBodyValidatorName = (endpoint: Endpoint) => `validate${endpoint.pascalName}Body`;

/** The runtime validator of an endpoint's body: the named type's, or a local one built inline. */
function bodyValidator(endpoint: Endpoint, body: TypeNode): string {
  return body.kind === "ref" && !body.nullable
    ? validatorName(body.name)
    : inlineBodyValidatorName(endpoint);
}

/**
 * The local validator of an inline body type. It builds its combinators at its first call,
 * not when the module loads, so that a bundler drops it with the endpoint.
 */
function inlineBodyValidator(endpoint: Endpoint, body: TypeNode): string {
  const name = inlineBodyValidatorName(endpoint);
  return [
    `/** Checks the body of \`${endpoint.id}\`; appends one issue per problem. */`,
    `function ${name}(value: unknown, path: string, issues: ValidationIssue[]): void {`,
    `  (${name}Shape ??= ${validatorExpression(body)})(value, path, issues);`,
    `}`,
    `let ${name}Shape: Validator | undefined;`,
  ].join("\n");
}

/**
 * The descriptor the runtime reads for one endpoint. `operation()` works out its per-call
 * data once; the annotation lets a bundler drop the descriptor with its unused function.
 */
function operationStatement(model: ApiModel, endpoint: Endpoint): string {
  const credentials = endpoint.auth.flatMap((id) => {
    const c = model.credentials.find((credential) => credential.id === id);
    if (!c?.header || c.placement !== "header") return [];
    return [
      `{ option: ${JSON.stringify(c.id)}, header: ${JSON.stringify(c.header)}${c.scheme ? `, scheme: ${JSON.stringify(c.scheme)}` : ""} }`,
    ];
  });
  const trailing = endpoint.params.filter((p) => p.placement === "trailing");
  const fixedHeaders = endpoint.headers
    .filter((h) => h.value !== undefined)
    .map((h) => `${JSON.stringify(h.name)}: ${JSON.stringify(h.value)}`);
  const fields = [
    `id: ${JSON.stringify(endpoint.id)}`,
    `method: ${JSON.stringify(endpoint.method)}`,
    `path: ${JSON.stringify(endpoint.path)}`,
    `credentials: [${credentials.join(", ")}]`,
    `headers: { ${fixedHeaders.join(", ")} }`,
    ...(trailing.length
      ? [`trailing: [${trailing.map((p) => JSON.stringify(p.name)).join(", ")}]`]
      : []),
    ...(endpoint.paramsTypeName
      ? [`validateParams: ${validatorName(endpoint.paramsTypeName)}`]
      : []),
    ...(endpoint.body ? [`validateBody: ${bodyValidator(endpoint, endpoint.body)}`] : []),
    `documentedResponse: ${endpoint.response.body !== undefined}`,
  ];
  return `const ${operationName(endpoint)} = /* @__PURE__ */ operation({ ${fields.join(", ")} });`;
}

type Writer = Parameters<typeof writeType>[0];

/** Parameters and return type of an endpoint's function and method, after the core. */
function signature(endpoint: Endpoint) {
  const pathParams = endpoint.params.filter((p) => p.placement !== "query");
  const queryParams = endpoint.params.filter((p) => p.placement === "query");
  const returnType = endpoint.response.body;
  return {
    parameters: [
      ...pathParams.map((p) => ({ name: p.camelName, type: (w: Writer) => writeType(w, p.type) })),
      ...(endpoint.body
        ? [{ name: "body", type: (w: Writer) => writeType(w, endpoint.body!) }]
        : []),
      ...(queryParams.length
        ? [
            {
              name: "query",
              hasQuestionToken: !queryParams.some((p) => p.required),
              type: `Pick<${endpoint.paramsTypeName}, ${queryParams.map((p) => JSON.stringify(p.name)).join(" | ")}>`,
            },
          ]
        : []),
      { name: "options", type: "RequestOptions", hasQuestionToken: true },
    ],
    returnType: (w: Writer) => {
      w.write("Promise<");
      if (returnType) writeType(w, returnType);
      else w.write("unknown");
      w.write(">");
    },
  };
}

/** The standalone function of one endpoint: `transactionsGet(core, reference, options)`. */
function endpointFunction(model: ApiModel, endpoint: Endpoint): FunctionDeclarationStructure {
  const { parameters, returnType } = signature(endpoint);
  const pathParams = endpoint.params.filter((p) => p.placement !== "query");
  const params = pathParams.length
    ? `{ ${pathParams.map((p) => (p.name === p.camelName ? p.name : `${JSON.stringify(p.name)}: ${p.camelName}`)).join(", ")} }`
    : "undefined";
  const body = endpoint.body ? "body" : "undefined";
  const query = endpoint.params.some((p) => p.placement === "query") ? "query" : "undefined";
  const docs = endpointDocLines(model, endpoint);
  const firstTag = docs.findIndex((l) => l.startsWith("@"));
  docs.splice(
    firstTag < 0 ? docs.length : firstTag,
    0,
    `@param core The {@link ${coreClassName(model)}} that sends the call.`,
  );
  return {
    kind: StructureKind.Function,
    name: endpointFunctionName(endpoint),
    isExported: true,
    docs: jsDocStructures(docs),
    parameters: [{ name: "core", type: coreClassName(model) }, ...parameters],
    returnType,
    statements: [
      `return core.request(${operationName(endpoint)}, ${params}, ${body}, ${query}, options);`,
    ],
  };
}

/** The class of one endpoint group, with a method per endpoint that calls its function. */
function groupClass(model: ApiModel, endpoints: readonly Endpoint[]): ClassDeclarationStructure {
  const first = endpoints[0]!;
  return {
    kind: StructureKind.Class,
    name: groupClassName(first),
    isExported: true,
    docs: jsDocStructures([`The \`${first.group}\` endpoints of the ${model.api.title}.`]),
    ctors: [
      {
        parameters: [
          { name: "core", type: coreClassName(model), scope: Scope.Private, isReadonly: true },
        ],
      },
    ],
    methods: endpoints.map((endpoint) => {
      const { parameters, returnType } = signature(endpoint);
      const args = ["this.core", ...parameters.map((p) => p.name)];
      return {
        name: endpoint.name,
        docs: jsDocStructures(endpointDocLines(model, endpoint)),
        parameters,
        returnType,
        statements: [`return ${endpointFunctionName(endpoint)}(${args.join(", ")});`],
      };
    }),
  };
}

/** Options of the client: the runtime's, plus one per credential the endpoints send. */
function optionsInterface(model: ApiModel): InterfaceDeclarationStructure {
  const used = new Set(model.endpoints.flatMap((e) => e.auth));
  const credentials = model.credentials.filter((c) => c.placement === "header" && used.has(c.id));
  return {
    kind: StructureKind.Interface,
    name: `${model.api.clientName}Options`,
    isExported: true,
    extends: ["CoreOptions"],
    docs: jsDocStructures([`Options of {@link ${model.api.clientName}}.`]),
    properties: credentials.map((c) => ({
      name: c.id,
      hasQuestionToken: true,
      type: "CredentialValue",
      docs: jsDocStructures([
        ...(c.docs.description ? [c.docs.description] : []),
        `Sent as \`${c.header}${c.scheme ? `: ${c.scheme} …` : ""}\` by the endpoints that need it.`,
      ]),
    })),
  };
}

/** Ids of the credentials the endpoints send in headers: one client option each. */
function credentialIds(model: ApiModel): string[] {
  const used = new Set(model.endpoints.flatMap((e) => e.auth));
  return model.credentials
    .filter((c) => c.placement === "header" && used.has(c.id))
    .map((c) => c.id);
}

/** The core class: options, credentials and the API's error class, for the endpoint functions. */
function coreClass(model: ApiModel): ClassDeclarationStructure {
  const example = model.endpoints[0];
  return {
    kind: StructureKind.Class,
    name: coreClassName(model),
    isExported: true,
    extends: "ClientCore",
    docs: jsDocStructures([
      `Sends the calls of the ${model.api.title}'s endpoint functions${example ? ` (\`${endpointFunctionName(example)}(core, …)\`)` : ""}, with the options of {@link ${model.api.clientName}}.`,
      `Import only the functions you call, and a bundler leaves out every other endpoint; {@link ${model.api.clientName}} has the same calls as methods, and keeps them all.`,
    ]),
    ctors: [
      {
        parameters: [{ name: "options", type: `${model.api.clientName}Options` }],
        statements: [
          `super(options, { ${credentialIds(model)
            .map((id) => `${id}: options.${id}`)
            .join(", ")} }, ${model.api.errorClassName});`,
        ],
      },
    ],
  };
}

function clientClass(
  model: ApiModel,
  groups: readonly (readonly Endpoint[])[],
): ClassDeclarationStructure {
  return {
    kind: StructureKind.Class,
    name: model.api.clientName,
    isExported: true,
    docs: jsDocStructures([
      `Client of the ${model.api.title}: one method per endpoint, grouped as in the endpoint ids.`,
    ]),
    properties: groups.map((g) => ({
      name: g[0]!.group,
      type: groupClassName(g[0]!),
      isReadonly: true,
    })),
    ctors: [
      {
        parameters: [{ name: "options", type: `${model.api.clientName}Options` }],
        statements: [
          `const core = new ${coreClassName(model)}(options);`,
          ...groups.map((g) => `this.${g[0]!.group} = new ${groupClassName(g[0]!)}(core);`),
        ],
      },
    ],
  };
}

/** `src/client.ts` of the generated package. */
export function emitClientFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const byGroup = new Map<string, Endpoint[]>();
  for (const e of model.endpoints) byGroup.set(e.group, [...(byGroup.get(e.group) ?? []), e]);
  const groups = [...byGroup.values()];
  const inlineBodies = model.endpoints.flatMap((e) =>
    e.body && !(e.body.kind === "ref" && !e.body.nullable) ? [inlineBodyValidator(e, e.body)] : [],
  );
  const inlineCombinators = combinators.filter((name) =>
    inlineBodies.some((text) => new RegExp(`\\b${name}\\b`).test(text)),
  );
  const typeRefs = new Set<string>();
  for (const e of model.endpoints) {
    referencedNames(e.body, e.response.body, ...e.params.map((p) => p.type)).forEach((n) =>
      typeRefs.add(n),
    );
    if (e.paramsTypeName && e.params.some((p) => p.placement === "query"))
      typeRefs.add(e.paramsTypeName);
  }
  const validators = new Set(
    model.endpoints.flatMap((e) => [
      ...(e.paramsTypeName ? [validatorName(e.paramsTypeName)] : []),
      ...(e.body?.kind === "ref" && !e.body.nullable ? [validatorName(e.body.name)] : []),
    ]),
  );
  const validateImports = [
    ...inlineCombinators,
    ...(inlineBodies.length ? ["type ValidationIssue", "type Validator"] : []),
  ];
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("client.ts", {
    statements: [
      `// ${ctx.banner}`,
      `import { ClientCore, operation, type CoreOptions, type CredentialValue, type RequestOptions } from "./runtime/client/core.js";`,
      `import { ${model.api.errorClassName} } from "./errors.js";`,
      ...(typeRefs.size
        ? [`import type { ${[...typeRefs].sort().join(", ")} } from "./types.js";`]
        : []),
      ...(validators.size
        ? [`import { ${[...validators].sort().join(", ")} } from "./validators.js";`]
        : []),
      ...(validateImports.length
        ? [`import { ${validateImports.join(", ")} } from "./runtime/validate.js";`]
        : []),
      `export type { CoreOptions, CredentialValue, RequestOptions } from "./runtime/client/core.js";`,
      optionsInterface(model),
      coreClass(model),
      ...inlineBodies,
      ...model.endpoints.flatMap((e) => [operationStatement(model, e), endpointFunction(model, e)]),
      ...groups.map((g) => groupClass(model, g)),
      clientClass(model, groups),
    ],
  });
  return { path: "src/client.ts", contents: file.getFullText(), parser: "typescript" };
}
