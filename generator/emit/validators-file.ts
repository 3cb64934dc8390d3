/**
 * Emits `src/validators.ts`: one validator function per named type and per parameters
 * interface, built from the model's types and constraints with the combinators of
 * `runtime/validate.ts`. The client checks requests with them and the router inbound
 * bodies, so every rule comes from the spec, none is written per field.
 */
import type { Field, ParamsType, TypeNode } from "../ir/model.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { validatorName } from "./names.ts";

/** A validator expression for a type node. */
export function validatorExpression(node: TypeNode): string {
  const inner = shapeExpression(node);
  return node.nullable ? `nullable(${inner})` : inner;
}

function rulesText(rules: Record<string, unknown>): string {
  const entries = Object.entries(rules).filter(([, v]) => v !== undefined);
  return entries.length ? `{ ${entries.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")} }` : "";
}

function shapeExpression(node: TypeNode): string {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive":
      if (node.name === "string") {
        return `string(${rulesText({ format: c.format, pattern: c.pattern, prefix: c.prefix, minLength: c.minLength, maxLength: c.maxLength })})`;
      }
      if (node.name === "boolean") return "boolean";
      return `number(${rulesText({ integer: node.name === "integer" || undefined, minimum: c.minimum, maximum: c.maximum })})`;
    case "unknown":
      return "anything";
    case "ref":
      return validatorName(node.name);
    case "array":
      return `array(${validatorExpression(node.items)})`;
    case "map":
      return `map(${validatorExpression(node.values)})`;
    case "object":
      return objectExpression(node.fields);
    case "literal":
      return `literal(${JSON.stringify(node.value)})`;
    case "enum":
      return `oneOf(${JSON.stringify(node.values)}, ${node.open})`;
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

function objectExpression(fields: readonly Pick<Field, "name" | "type" | "required">[]): string {
  const members = fields.map((f) => `${JSON.stringify(f.name)}: [${validatorExpression(f.type)}, ${f.required}]`);
  return `object({ ${members.join(", ")} })`;
}

/** The function and its shape constant for one named validator. */
function validatorDeclaration(name: string, expression: string): string {
  const shape = `${validatorName(name)}Shape`;
  return [
    `/** Checks a value against ${name}; appends one issue per problem. */`,
    `export function ${validatorName(name)}(value: unknown, path: string, issues: ValidationIssue[]): void {`,
    `  ${shape}(value, path, issues);`,
    `}`,
    `const ${shape}: Validator = /* @__PURE__ */ ${expression};`,
    "",
  ].join("\n");
}

function paramsExpression(paramsType: ParamsType): string {
  return objectExpression(paramsType.params);
}

/** The combinators of runtime/validate.ts; only those a spec uses are imported. */
export const combinators = ["anything", "array", "boolean", "literal", "map", "nullable", "number", "object", "oneOf", "string"];

/** `src/validators.ts` of the generated package. */
export function emitValidatorsFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const declarations = [
    ...model.types.map((t) => validatorDeclaration(t.name, validatorExpression(t.type))),
    ...model.paramsTypes.map((p) => validatorDeclaration(p.name, paramsExpression(p))),
  ];
  const body = declarations.join("\n");
  const used = combinators.filter((name) => new RegExp(`\\b${name}\\b`).test(body));
  const imports = [...used, "type ValidationIssue", "type Validator"].join(", ");
  const contents = [
    `// ${ctx.banner}`,
    `import { ${imports} } from "./runtime/validate.js";`,
    "",
    ...declarations,
  ].join("\n");
  return { path: "src/validators.ts", contents, parser: "typescript" };
}
