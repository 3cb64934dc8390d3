/**
 * Emits `src/validators.ts`: one validator function per named type and per parameters
 * interface, built from the model's types and constraints with the combinators of
 * `runtime/validate.ts`. The client checks requests with them and the router inbound
 * bodies, so every rule comes from the spec, none is written per field.
 */
import type { Field, ParamsType, TypeNode } from "../ir/model.ts";
import * as runtime from "../runtime/validate.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { validatorName } from "./names.ts";

/** A validator expression for a type node. */
export function validatorExpression(node: TypeNode): string {
  const inner = shapeExpression(node);
  return node.nullable ? `nullable(${inner})` : inner;
}

/** `uuidFormat`: the runtime export that checks a format; undefined for formats that are documentation only. */
function formatExport(format: string | undefined): string | undefined {
  const checked = format === undefined ? undefined : runtime.formats[format];
  return (
    checked &&
    Object.entries(runtime).find(([name, value]) => value === checked && name !== "formats")?.[0]
  );
}

/** The rules argument of a combinator; `code` entries are written as they are, the others as JSON. */
function rulesText(
  rules: Record<string, unknown>,
  code: Record<string, string | undefined> = {},
): string {
  const entries = [
    ...Object.entries(code).flatMap(([k, v]) => (v === undefined ? [] : [`${k}: ${v}`])),
    ...Object.entries(rules).flatMap(([k, v]) =>
      v === undefined ? [] : [`${k}: ${JSON.stringify(v)}`],
    ),
  ];
  return entries.length ? `{ ${entries.join(", ")} }` : "";
}

function shapeExpression(node: TypeNode): string {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive":
      if (node.name === "string") {
        return `string(${rulesText({ pattern: c.pattern, prefix: c.prefix, minLength: c.minLength, maxLength: c.maxLength }, { format: formatExport(c.format) })})`;
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

/**
 * `object({ a: string(), b: number() }, ["a"])`: bare validators and the required names apart,
 * not a `[validator, required]` tuple per field, which made this file most of the package's
 * type-check time (each tuple literal is typed and related to the tuple type of `Fields`).
 */
function objectExpression(fields: readonly Pick<Field, "name" | "type" | "required">[]): string {
  const members = fields.map((f) => `${JSON.stringify(f.name)}: ${validatorExpression(f.type)}`);
  const required = fields.filter((f) => f.required).map((f) => JSON.stringify(f.name));
  return `object({ ${members.join(", ")} }${required.length > 0 ? `, [${required.join(", ")}]` : ""})`;
}

/**
 * The function and its shape variable for one named validator. The shape is built at the
 * first call, not when the module loads: a bundle keeps only the validators its calls use,
 * and loading the package costs nothing for the others.
 */
function validatorDeclaration(name: string, expression: string): string {
  const shape = `${validatorName(name)}Shape`;
  return [
    `/** Checks a value against ${name}; appends one issue per problem. */`,
    `export function ${validatorName(name)}(value: unknown, path: string, issues: ValidationIssue[]): void {`,
    `  (${shape} ??= ${expression})(value, path, issues);`,
    `}`,
    `let ${shape}: Validator | undefined;`,
    "",
  ].join("\n");
}

function paramsExpression(paramsType: ParamsType): string {
  return objectExpression(paramsType.params);
}

/** The combinators and checked formats of runtime/validate.ts; only those a spec uses are imported. */
export const combinators = [
  ...[
    "anything",
    "array",
    "boolean",
    "literal",
    "map",
    "nullable",
    "number",
    "object",
    "oneOf",
    "string",
  ],
  ...Object.keys(runtime.formats).map((name) => formatExport(name)!),
];

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
