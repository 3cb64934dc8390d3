/**
 * Validators as code: for an IR type node, the expression that builds its validator from the
 * combinators of `runtime/validate.ts`, and the declaration of a named validator.
 */
import type { Field, TypeNode } from "../../ir/model.ts";
import * as runtime from "../../runtime/validate.ts";
import { arr, call, exprStatement, id, lit, obj } from "../code/build.ts";
import type { Expr, Param, Statement } from "../code/nodes.ts";
import { runtimeType, runtimeValue, validatorRef } from "./symbols.ts";

type ValidateExport = keyof typeof runtime & string;
const combinator = (name: ValidateExport): Expr => runtimeValue("validate.ts", name);

/** `uuidFormat`: the runtime export that checks a format; undefined for formats that are documentation only. */
function formatExport(format: string | undefined): ValidateExport | undefined {
  const checked = format === undefined ? undefined : runtime.formats[format];
  if (!checked) return undefined;
  const found = Object.entries(runtime).find(
    ([name, value]) => value === checked && name !== "formats",
  );
  return found?.[0] as ValidateExport | undefined;
}

/** The rules argument of a combinator, or none when every rule is unset. */
function rules(entries: readonly (readonly [string, Expr | undefined])[]): Expr[] {
  const rule = obj(entries);
  return rule.kind === "object" && rule.properties.length > 0 ? [rule] : [];
}

const optionalLit = (value: string | number | boolean | undefined) =>
  value === undefined ? undefined : lit(value);

/** The validator expression of a type node. */
export function validatorExpr(node: TypeNode): Expr {
  const inner = shapeExpr(node);
  return node.nullable ? call(combinator("nullable"), inner) : inner;
}

function shapeExpr(node: TypeNode): Expr {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive": {
      if (node.name === "boolean") return combinator("boolean");
      if (node.name === "binary") return combinator("binary");
      if (node.name === "string") {
        const format = formatExport(c.format);
        return call(
          combinator("string"),
          ...rules([
            ["format", format && combinator(format)],
            ["pattern", optionalLit(c.pattern)],
            ["prefix", optionalLit(c.prefix)],
            ["minLength", optionalLit(c.minLength)],
            ["maxLength", optionalLit(c.maxLength)],
          ]),
        );
      }
      return call(
        combinator("number"),
        ...rules([
          ["integer", node.name === "integer" ? lit(true) : undefined],
          ["minimum", optionalLit(c.minimum)],
          ["maximum", optionalLit(c.maximum)],
        ]),
      );
    }
    case "unknown":
      return combinator("anything");
    case "ref":
      return validatorRef(node.name);
    case "array":
      return call(combinator("array"), validatorExpr(node.items));
    case "map":
      return call(combinator("map"), validatorExpr(node.values));
    case "object":
      return objectValidatorExpr(node.fields);
    case "literal":
      return call(combinator("literal"), lit(node.value));
    case "enum":
      return call(combinator("oneOf"), arr(node.values.map(lit)), lit(node.open));
    case "union":
      return unionValidatorExpr(node);
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * `tagged("type", { card: validateCardPaymentMethod }, false)` for a tagged union, whose
 * variants are named types; `union([string(), validateCustomer], ["string", "Customer"])`
 * for an untagged one, the names for the issue when no member matches.
 */
function unionValidatorExpr(node: TypeNode & { kind: "union" }): Expr {
  const tag = node.discriminator;
  if (tag)
    return call(
      runtimeValue("unions.ts", "tagged"),
      lit(tag.field),
      obj(tag.cases.map(({ value }, i) => [value, validatorExpr(node.variants[i]!)] as const)),
      lit(node.open),
    );
  return call(
    runtimeValue("unions.ts", "union"),
    arr(node.variants.map(validatorExpr)),
    arr(node.variants.map((v) => lit(typeText(v)))),
  );
}

/**
 * `object({ a: string(), b: number() }, ["a"])`: bare validators and the required names apart,
 * not a `[validator, required]` tuple per field, which made the validators most of the
 * package's type-check time (each tuple literal is typed and related to the tuple type).
 */
export function objectValidatorExpr(
  fields: readonly Pick<Field, "name" | "type" | "required">[],
): Expr {
  const shape = obj(fields.map((f) => [f.name, validatorExpr(f.type)] as const));
  const required = fields.filter((f) => f.required).map((f) => lit(f.name));
  return call(combinator("object"), shape, ...(required.length > 0 ? [arr(required)] : []));
}

/** `(value: unknown, path: string, issues: ValidationIssue[])`: every validator's parameters. */
export const validatorParams: readonly Param[] = [
  { name: "value", type: { kind: "keyword", name: "unknown" } },
  { name: "path", type: { kind: "keyword", name: "string" } },
  {
    name: "issues",
    type: { kind: "array", items: runtimeType("validate.ts", "ValidationIssue") },
  },
];

/**
 * A validator function and the variable that holds its shape, built at the first call rather
 * than when the module loads: a bundle keeps only the validators its calls use, and loading
 * the package costs nothing for the others.
 */
export function validatorDeclaration(
  name: string,
  expression: Expr,
  docs: readonly string[],
  isExported: boolean,
): [Statement, Statement] {
  const shape = id(`${name}Shape`);
  const build: Expr = {
    kind: "paren",
    expr: { kind: "assign", target: shape, operator: "??=", value: expression },
  };
  return [
    {
      kind: "function",
      name,
      isExported,
      docs,
      params: validatorParams,
      returnType: { kind: "keyword", name: "void" },
      body: [exprStatement(call(build, id("value"), id("path"), id("issues")))],
    },
    {
      kind: "variable",
      declarationKind: "let",
      name: `${name}Shape`,
      type: {
        kind: "union",
        types: [runtimeType("validate.ts", "Validator"), { kind: "keyword", name: "undefined" }],
      },
    },
  ];
}

/** How a member of an untagged union is named in an issue: `string`, `Customer`, `Label[]`. */
function typeText(node: TypeNode): string {
  const text = (() => {
    switch (node.kind) {
      case "primitive":
        return node.name;
      case "ref":
        return node.name;
      case "array":
        return `${typeText(node.items)}[]`;
      case "map":
        return `map<${typeText(node.values)}>`;
      case "literal":
        return JSON.stringify(node.value);
      case "enum":
        return node.values.map((v) => JSON.stringify(v)).join(" | ");
      case "unknown":
      case "object":
      case "union":
        return node.kind;
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
      }
    }
  })();
  return node.nullable ? `${text} | null` : text;
}
