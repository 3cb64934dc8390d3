/**
 * Emits `src/types.ts`: an exported interface per object type and a type alias per
 * other named type, with JSDoc from descriptions, constraints and gap notes.
 */
import {
  printStructure,
  StructureKind,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type TypeAliasDeclarationStructure,
} from "ts-morph";
import type { NamedType, ParamsType, TypeNode } from "../ir/model.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { jsDocStructures, typeDocLines } from "./jsdoc.ts";
import { openObjectDoc, propertyName, writeAliasType, writeType } from "./type-text.ts";

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

/**
 * What a named object extends, when TypeScript can say it: `Base`, or `Omit<Base, ...>`
 * for the fields it drops or redeclares. Omit of an open base would drop every known
 * field (its keys are `string`), so such an object lists its fields itself.
 */
function heritageOf(
  node: TypeNode & { kind: "object" },
  types: ReadonlyMap<string, NamedType>,
): { text: string; baseOpen: boolean } | undefined {
  const base = node.base;
  const baseType = base && types.get(base.name)?.type;
  if (!base || !baseType || baseType.kind !== "object") return undefined;
  if (base.without.length === 0) return { text: base.name, baseOpen: baseType.open };
  if (baseType.open) return undefined;
  return {
    text: `Omit<${base.name}, ${base.without.map((name) => JSON.stringify(name)).join(" | ")}>`,
    baseOpen: false,
  };
}

/** The structure of one named type. */
function declarationOf(named: NamedType, types: ReadonlyMap<string, NamedType>): Declaration {
  const node = named.type;
  const docs = jsDocStructures(typeDocLines(node));
  // A closed object with no fields is `Record<string, never>` (an alias), as inline: an empty
  // interface would accept any non-null value.
  const emptyClosed =
    node.kind === "object" && node.fields.length === 0 && !node.open && !node.base;
  if (node.kind === "object" && !node.nullable && !emptyClosed) {
    const heritage = heritageOf(node, types);
    const fields = heritage
      ? node.fields.filter((f) => f.inheritedFrom === undefined)
      : node.fields;
    return {
      kind: StructureKind.Interface,
      name: named.name,
      isExported: true,
      docs,
      extends: heritage ? [heritage.text] : [],
      properties: fields.map((field) => ({
        name: propertyName(field.name),
        hasQuestionToken: !field.required,
        type: (writer) => writeType(writer, field.type),
        docs: jsDocStructures(typeDocLines(field.type)),
      })),
      indexSignatures:
        node.open && !heritage?.baseOpen
          ? [
              {
                keyName: "field",
                keyType: "string",
                returnType: "unknown",
                docs: jsDocStructures([openObjectDoc]),
              },
            ]
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
  const typesByName = new Map(ctx.model.types.map((t) => [t.name, t]));
  const statements: (string | Declaration)[] = [
    `// ${ctx.banner}`,
    ...ctx.model.types.map((named) => declarationOf(named, typesByName)),
    ...ctx.model.paramsTypes.map(paramsDeclarationOf),
  ];
  // Printed straight from the structures: a source file would also parse the printed text
  // into a syntax tree (half the time of this emitter) only for us to read the text back.
  const contents = printStructure({ kind: StructureKind.SourceFile, statements });
  return { path: "src/types.ts", contents, parser: "typescript" };
}
