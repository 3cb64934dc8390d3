/**
 * Emits `src/types.ts`: an exported interface per object type and a type alias per
 * other named type, with JSDoc from descriptions, constraints and gap notes.
 */
import {
  Project,
  StructureKind,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type TypeAliasDeclarationStructure,
} from "ts-morph";
import type { NamedType, ParamsType } from "../ir/model.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { jsDocStructures, typeDocLines } from "./jsdoc.ts";
import { openObjectDoc, propertyName, writeAliasType, writeType } from "./type-text.ts";

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

/** The structure of one named type. */
function declarationOf(named: NamedType): Declaration {
  const node = named.type;
  const docs = jsDocStructures(typeDocLines(node));
  if (node.kind === "object" && !node.nullable) {
    return {
      kind: StructureKind.Interface,
      name: named.name,
      isExported: true,
      docs,
      properties: node.fields.map((field) => ({
        name: propertyName(field.name),
        hasQuestionToken: !field.required,
        type: (writer) => writeType(writer, field.type),
        docs: jsDocStructures(typeDocLines(field.type)),
      })),
      indexSignatures: node.open
        ? [{ keyName: "field", keyType: "string", returnType: "unknown", docs: jsDocStructures([openObjectDoc]) }]
        : [],
    };
  }
  return {
    kind: StructureKind.TypeAlias,
    name: named.name,
    isExported: true,
    docs,
    type: (writer) => writeAliasType(writer, named.name, node),
    leadingTrivia: "\n",
  };
}

const placementText: Record<ParamsType["params"][number]["placement"], string> = {
  path: "Travels in the path.",
  query: "Travels in the query string.",
  trailing: "Travels after the path, in the order of this interface.",
};

/** The interface of an operation's parameters; path and trailing parameters are required. */
function paramsDeclarationOf(paramsType: ParamsType): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name: paramsType.name,
    isExported: true,
    docs: jsDocStructures([`Parameters of ${paramsType.owner}.`]),
    properties: paramsType.params.map((param) => ({
      name: propertyName(param.name),
      hasQuestionToken: !param.required,
      type: (writer) => writeType(writer, param.type),
      docs: jsDocStructures(typeDocLines(param.type, [placementText[param.placement]])),
    })),
  };
}

/** `src/types.ts` of the generated package. */
export function emitTypesFile(ctx: EmitContext): EmittedFile {
  const project = new Project({ useInMemoryFileSystem: true });
  const statements: (string | Declaration)[] = [
    `// ${ctx.banner}`,
    ...ctx.model.types.map(declarationOf),
    ...ctx.model.paramsTypes.map(paramsDeclarationOf),
  ];
  const file = project.createSourceFile("types.ts", { statements });
  return { path: "src/types.ts", contents: file.getFullText(), parser: "typescript" };
}
