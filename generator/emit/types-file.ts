/**
 * Emits `src/types.ts`: an exported interface per object type and a type alias per
 * other named type, with JSDoc from descriptions, constraints and gap notes.
 */
import type { ApiModel, NamedType, ParamsType, TypeNode } from "../ir/model.ts";
import { referencedNames } from "../ir/walk.ts";
import type { FileStatement, Statement, TypeExpr } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { typeDocLines } from "./shared/jsdoc.ts";
import { modules, typeRef } from "./shared/symbols.ts";
import {
  aliasTypeExpr,
  fieldMembers,
  generic,
  literalType,
  openObjectMember,
  typeExpr,
  union,
} from "./shared/type-expr.ts";

/**
 * What a named object extends, when TypeScript can say it: `Base`, or `Omit<Base, ...>`
 * for the fields it drops or redeclares. Omit of an open base would drop every known
 * field (its keys are `string`), so such an object lists its fields itself.
 */
function heritageOf(
  node: TypeNode & { kind: "object" },
  types: ReadonlyMap<string, NamedType>,
): { type: TypeExpr; baseOpen: boolean } | undefined {
  const base = node.base;
  const baseType = base && types.get(base.name)?.type;
  // a base written as an alias (`Record<string, never>` for no fields, `X | null`) is no
  // interface to extend: its fields, if any, are written in the derived one
  if (!base || !baseType || baseType.kind !== "object" || !isInterface(baseType, types))
    return undefined;
  if (base.without.length === 0) return { type: typeRef(base.name), baseOpen: baseType.open };
  if (baseType.open) return undefined;
  const omitted = union(base.without.map(literalType));
  return { type: generic("Omit", typeRef(base.name), omitted), baseOpen: false };
}

/**
 * Whether a named type is written as an interface: a closed or open object with fields, own or
 * of a base written as one, not nullable. A closed object with no fields is `Record<string,
 * never>` (an alias): an empty interface would accept any non-null value.
 */
function isInterface(node: TypeNode, types: ReadonlyMap<string, NamedType>): boolean {
  if (node.kind !== "object" || node.nullable) return false;
  if (node.fields.length > 0 || node.open) return true;
  const base = node.base && types.get(node.base.name)?.type;
  // bases form no cycle (the IR refuses one), so the walk ends
  return base !== undefined && isInterface(base, types);
}

/**
 * Whether `values` reaches the alias `name` through aliases alone: a map there is written as an
 * index signature, since `Record<string, ...>` resolves its argument at once and TypeScript
 * refuses the loop (TalaoDAO's `JSONObject: map<JSONValue>` with `JSONValue: ... | JSONObject`).
 * An interface on the way defers it, so the walk stops there.
 */
function reachesAlias(name: string, values: TypeNode, types: ReadonlyMap<string, NamedType>) {
  const seen = new Set<string>();
  const pending = [...referencedNames(values)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next === name) return true;
    const type = types.get(next)?.type;
    if (seen.has(next) || !type || isInterface(type, types)) continue;
    seen.add(next);
    pending.push(...referencedNames(type));
  }
  return false;
}

/**
 * The declaration of one named type, or of a generic type with its parameters (`interface
 * List<T>`).
 */
function declarationOf(
  named: Pick<NamedType, "name" | "type">,
  types: ReadonlyMap<string, NamedType>,
  params: readonly string[] = [],
): Statement {
  const node = named.type;
  const typeParameters = params.map((name) => ({ name }));
  const docs = typeDocLines(node);
  if (node.kind === "object" && isInterface(node, types)) {
    const heritage = heritageOf(node, types);
    const fields = heritage
      ? node.fields.filter((f) => f.inheritedFrom === undefined)
      : node.fields;
    const members = fieldMembers(fields, false);
    return {
      kind: "interface",
      name: named.name,
      ...(params.length ? { typeParameters } : {}),
      isExported: true,
      docs,
      extends: heritage ? [heritage.type] : [],
      members: node.open && !heritage?.baseOpen ? [openObjectMember, ...members] : members,
    };
  }
  return {
    kind: "type-alias",
    name: named.name,
    ...(params.length ? { typeParameters } : {}),
    isExported: true,
    docs,
    type: aliasTypeExpr(named.name, node, (values) => reachesAlias(named.name, values, types)),
  };
}

const placementText: Record<ParamsType["params"][number]["placement"], string> = {
  path: "Travels in the path.",
  query: "Travels in the query string.",
  trailing: "Travels after the path, in the order of this interface.",
  header: "Travels as a request header of this exact name.",
};

/** The interface of an operation's parameters; path and trailing parameters are required. */
function paramsDeclarationOf(paramsType: ParamsType): Statement {
  return {
    kind: "interface",
    name: paramsType.name,
    isExported: true,
    docs: [`Parameters of ${paramsType.owner}.`],
    members: paramsType.params.map((param) => ({
      kind: "property-signature",
      name: param.name,
      hasQuestionToken: !param.required,
      type: typeExpr(param.type),
      docs: typeDocLines(param.type, [placementText[param.placement]]),
    })),
  };
}

/**
 * The declarations of the generic types, then of the named types, each in the order the spec
 * declares them (a reader meets `List<T>` before its uses). A use of a generic type
 * (`List<Customer>`) is written as that use: its named type (the instantiation, which the
 * validators and the OpenAPI document have) is not declared. The order follows the model's
 * lists, never source locations, which are texts of the spec's files.
 */
function typeDeclarations(model: ApiModel): Statement[] {
  const typesByName = new Map(model.types.map((t) => [t.name, t]));
  return [
    ...model.generics.map((g) => declarationOf(g, typesByName, g.params)),
    ...model.types.filter((t) => !t.instance).map((t) => declarationOf(t, typesByName)),
  ];
}

/** `src/types.ts` of the generated package. */
export function emitTypesFile(ctx: EmitContext): EmittedFile {
  const statements: FileStatement[] = [
    ...typeDeclarations(ctx.model).map((statement) => ({ statement })),
    ...ctx.model.paramsTypes.map((p) => ({ statement: paramsDeclarationOf(p) })),
  ];
  const contents = printSourceFile({ path: modules.types, banner: ctx.banner, statements });
  return { path: modules.types, contents };
}
