/**
 * Emits `src/client.ts`: the client class with one method per endpoint, grouped by the
 * first part of the endpoint id (`client.transactions.get(reference)`). Each endpoint is
 * a data descriptor handed to the runtime's ClientCore, which does the work.
 */
import { Project, Scope, StructureKind, VariableDeclarationKind, type ClassDeclarationStructure, type InterfaceDeclarationStructure, type StatementStructures } from "ts-morph";
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

/** The runtime validator of an endpoint's body: the named type's, or one built inline. */
function bodyValidator(body: TypeNode): string {
  return body.kind === "ref" && !body.nullable ? validatorName(body.name) : validatorExpression(body);
}

/** The descriptor constant the runtime reads for one endpoint. */
function operationStatement(model: ApiModel, endpoint: Endpoint): StatementStructures {
  const credentials = endpoint.auth.flatMap((id) => {
    const c = model.credentials.find((credential) => credential.id === id);
    if (!c?.header || c.placement !== "header") return [];
    return [`{ option: ${JSON.stringify(c.id)}, header: ${JSON.stringify(c.header)}${c.scheme ? `, scheme: ${JSON.stringify(c.scheme)}` : ""} }`];
  });
  const trailing = endpoint.params.filter((p) => p.placement === "trailing");
  const fixedHeaders = endpoint.headers.filter((h) => h.value !== undefined).map((h) => `${JSON.stringify(h.name)}: ${JSON.stringify(h.value)}`);
  const fields = [
    `id: ${JSON.stringify(endpoint.id)}`,
    `method: ${JSON.stringify(endpoint.method)}`,
    `path: ${JSON.stringify(endpoint.path)}`,
    `credentials: [${credentials.join(", ")}]`,
    `headers: { ${fixedHeaders.join(", ")} }`,
    ...(trailing.length ? [`trailing: [${trailing.map((p) => JSON.stringify(p.name)).join(", ")}]`] : []),
    ...(endpoint.paramsTypeName ? [`validateParams: ${validatorName(endpoint.paramsTypeName)}`] : []),
    ...(endpoint.body ? [`validateBody: ${bodyValidator(endpoint.body)}`] : []),
    `documentedResponse: ${endpoint.response.body !== undefined}`,
  ];
  return {
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name: operationName(endpoint), type: "Operation", initializer: `{ ${fields.join(", ")} }` }],
  };
}

/** The class of one endpoint group, with a method per endpoint. */
function groupClass(model: ApiModel, endpoints: readonly Endpoint[]): ClassDeclarationStructure {
  const first = endpoints[0]!;
  return {
    kind: StructureKind.Class,
    name: groupClassName(first),
    isExported: true,
    docs: jsDocStructures([`The \`${first.group}\` endpoints of the ${model.api.title}.`]),
    ctors: [{ parameters: [{ name: "core", type: "ClientCore", scope: Scope.Private, isReadonly: true }] }],
    methods: endpoints.map((endpoint) => {
      const pathParams = endpoint.params.filter((p) => p.placement !== "query");
      const queryParams = endpoint.params.filter((p) => p.placement === "query");
      const returnType = endpoint.response.body;
      const input = [
        ...(pathParams.length ? [`params: { ${pathParams.map((p) => (p.name === p.camelName ? p.name : `${JSON.stringify(p.name)}: ${p.camelName}`)).join(", ")} }`] : []),
        ...(queryParams.length ? ["query"] : []),
        ...(endpoint.body ? ["body"] : []),
      ];
      return {
        name: endpoint.name,
        docs: jsDocStructures(endpointDocLines(model, endpoint)),
        parameters: [
          ...pathParams.map((p) => ({ name: p.camelName, type: (w: Parameters<typeof writeType>[0]) => writeType(w, p.type) })),
          ...(endpoint.body ? [{ name: "body", type: (w: Parameters<typeof writeType>[0]) => writeType(w, endpoint.body!) }] : []),
          ...(queryParams.length
            ? [{ name: "query", hasQuestionToken: !queryParams.some((p) => p.required), type: `Pick<${endpoint.paramsTypeName}, ${queryParams.map((p) => JSON.stringify(p.name)).join(" | ")}>` }]
            : []),
          { name: "options", type: "RequestOptions", hasQuestionToken: true },
        ],
        returnType: (w) => {
          w.write("Promise<");
          if (returnType) writeType(w, returnType);
          else w.write("unknown");
          w.write(">");
        },
        statements: [`return this.core.request(${operationName(endpoint)}, { ${input.join(", ")} }, options);`],
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
      docs: jsDocStructures([...(c.docs.description ? [c.docs.description] : []), `Sent as \`${c.header}${c.scheme ? `: ${c.scheme} …` : ""}\` by the endpoints that need it.`]),
    })),
  };
}

function clientClass(model: ApiModel, groups: readonly (readonly Endpoint[])[]): ClassDeclarationStructure {
  const used = new Set(model.endpoints.flatMap((e) => e.auth));
  const credentialIds = model.credentials.filter((c) => c.placement === "header" && used.has(c.id)).map((c) => c.id);
  return {
    kind: StructureKind.Class,
    name: model.api.clientName,
    isExported: true,
    docs: jsDocStructures([`Client of the ${model.api.title}: one method per endpoint, grouped as in the endpoint ids.`]),
    properties: groups.map((g) => ({ name: g[0]!.group, type: groupClassName(g[0]!), isReadonly: true })),
    ctors: [
      {
        parameters: [{ name: "options", type: `${model.api.clientName}Options` }],
        statements: [
          `const core = new ClientCore(options, { ${credentialIds.map((id) => `${id}: options.${id}`).join(", ")} }, ${model.api.errorClassName});`,
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
  const operations = model.endpoints.map((e) => operationStatement(model, e));
  const inlineCombinators = combinators.filter((name) => operations.some((o) => new RegExp(`\\b${name}\\(`).test(JSON.stringify(o))));
  const typeRefs = new Set<string>();
  for (const e of model.endpoints) {
    referencedNames(e.body, e.response.body, ...e.params.map((p) => p.type)).forEach((n) => typeRefs.add(n));
    if (e.paramsTypeName && e.params.some((p) => p.placement === "query")) typeRefs.add(e.paramsTypeName);
  }
  const validators = new Set(model.endpoints.flatMap((e) => [
    ...(e.paramsTypeName ? [validatorName(e.paramsTypeName)] : []),
    ...(e.body?.kind === "ref" && !e.body.nullable ? [validatorName(e.body.name)] : []),
  ]));
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile("client.ts", {
    statements: [
      `// ${ctx.banner}`,
      `import { ClientCore, type CoreOptions, type CredentialValue, type Operation, type RequestOptions } from "./runtime/client/core.js";`,
      `import { ${model.api.errorClassName} } from "./errors.js";`,
      ...(typeRefs.size ? [`import type { ${[...typeRefs].sort().join(", ")} } from "./types.js";`] : []),
      ...(validators.size ? [`import { ${[...validators].sort().join(", ")} } from "./validators.js";`] : []),
      ...(inlineCombinators.length ? [`import { ${inlineCombinators.join(", ")} } from "./runtime/validate.js";`] : []),
      `export type { CoreOptions, CredentialValue, RequestOptions } from "./runtime/client/core.js";`,
      optionsInterface(model),
      ...operations,
      ...groups.map((g) => groupClass(model, g)),
      clientClass(model, groups),
    ],
  });
  return { path: "src/client.ts", contents: file.getFullText(), parser: "typescript" };
}
