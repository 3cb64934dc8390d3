/**
 * apigen's generic types read back. Its document declares each generic type in
 * `components.x-apigen-generics` (parameters and a body where each parameter is
 * `{ "x-apigen-param": "T" }`) and gives each use a component schema of its own marked
 * `x-apigen-generic: { name, args }`. The import writes the declaration with `typeParams` again,
 * and every `$ref` to a use as the use (`List<Customer>`); the use's own schema is no type of
 * the spec. Other documents have none of these.
 */
import { isObject, type ImportContext, type TypeOut } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";

/** `components.x-apigen-generics`, empty when absent. */
function declarations(ctx: ImportContext): JsonObject {
  const { components } = ctx.doc.root.value as JsonObject;
  const section = isObject(components) ? components["x-apigen-generics"] : undefined;
  return isObject(section) ? section : {};
}

/**
 * The use a schema stands for (`List<Customer>`), when it is `{ "x-apigen-generic": ... }`
 * naming a declared generic type with text arguments; undefined otherwise.
 */
export function genericUseText(ctx: ImportContext, schema: JsonValue): string | undefined {
  if (!isObject(schema)) return undefined;
  const use = schema["x-apigen-generic"];
  if (!isObject(use) || typeof use.name !== "string" || !Array.isArray(use.args)) return undefined;
  if (!isObject(declarations(ctx)[use.name])) return undefined;
  if (!use.args.length || !use.args.every((a) => typeof a === "string" && a.trim() !== ""))
    return undefined;
  return `${use.name}<${(use.args as string[]).join(", ")}>`;
}

/** A type parameter in a generic type's body (`{ "x-apigen-param": "T" }`), or undefined. */
export function typeParamText(schema: JsonValue): string | undefined {
  if (!isObject(schema)) return undefined;
  const name = schema["x-apigen-param"];
  return typeof name === "string" && /^[A-Z][A-Za-z0-9]*$/.test(name) ? name : undefined;
}

/** Whether a component schema is a use of a generic type, which the import writes as the use. */
export const isGenericUse = (ctx: ImportContext, schema: JsonValue): boolean =>
  genericUseText(ctx, schema) !== undefined;

/**
 * Declares each generic type of `components.x-apigen-generics` as a named type with its
 * `typeParams`, its body converted by `convert`.
 */
export function declareGenerics(
  ctx: ImportContext,
  convert: (schema: JsonValue, at: Pointer) => TypeOut,
): void {
  for (const [name, entry] of Object.entries(declarations(ctx))) {
    if (!isObject(entry) || !Array.isArray(entry.typeParams) || ctx.takenNames.has(name)) continue;
    const params = entry.typeParams.filter((p): p is string => typeof p === "string");
    const at: Pointer = {
      file: ctx.doc.root.path,
      pointer: `#/components/x-apigen-generics/${name.replace(/~/g, "~0").replace(/\//g, "~1")}/schema`,
    };
    ctx.takenNames.add(name);
    const body = convert(entry.schema ?? {}, at);
    ctx.types.set(name, {
      ...(typeof body === "string" ? { type: body } : body),
      typeParams: params,
    });
    ctx.typeSources.set(name, at);
  }
}
