/**
 * Validators as data: for an IR type node, a named type's validator, or the JSON text of its
 * shape that `runtime/validator-data.ts` builds with the combinators of `runtime/validate.ts`
 * at first use: `fromData('[["object","string","validateLabel"],["object",{"id":"string",
 * "label":"validateLabel"},["id"]]]', object, string, validateLabel)`. Every combinator,
 * validator and format the text names is passed beside it and records its import, so a
 * bundle keeps only what its validators use. A type checker reads one string where nested
 * combinator calls cost it seconds on a large API.
 */
import type { NameScope } from "../../ir/names.ts";
import { shorthandOf } from "../../ir/generics.ts";
import type { Field, TypeNode } from "../../ir/model.ts";
import * as runtime from "../../runtime/validate.ts";
import { call, exprStatement, id, lit } from "../code/build.ts";
import type { Expr, FileStatement, Param, Statement } from "../code/nodes.ts";
import { obj as jsonObj, type Json, type JsonObject } from "./json.ts";
import { runtimeType, runtimeValue, validatorName, validatorRef } from "./symbols.ts";
import { jsonText } from "./escape.ts";

/** The symbols a shape's text names, by the name it uses. */
type Refs = Map<string, Expr>;

/** `uuidFormat`: the runtime export that checks a format; undefined for formats that are documentation only. */
function formatExport(format: string | undefined): keyof typeof runtime | undefined {
  const checked = format === undefined ? undefined : runtime.formats[format];
  return checked ? formatExports().get(checked) : undefined;
}

let exportsByChecker: Map<unknown, keyof typeof runtime> | undefined;

/**
 * Each format checker's export name (the first, in the module's order), listed once: looking
 * it up among every runtime export at each node with a format, a new list of them each time,
 * was 0.1 s of the validators of GitHub's API.
 */
function formatExports(): Map<unknown, keyof typeof runtime> {
  if (!exportsByChecker) {
    exportsByChecker = new Map();
    for (const [name, value] of Object.entries(runtime))
      if (name !== "formats" && !exportsByChecker.has(value))
        exportsByChecker.set(value, name as keyof typeof runtime);
  }
  return exportsByChecker;
}

/** The rules that are set, or none. */
function rules(entries: Record<string, Json | undefined>): JsonObject | undefined {
  const set = jsonObj(entries);
  return Object.keys(set).length > 0 ? set : undefined;
}

/**
 * The validator of a type node: a named type's own validator where the node is just that
 * type, else its shape as data.
 */
export function validatorExpr(node: TypeNode): Expr {
  if (node.kind === "ref" && !node.nullable) return validatorRef(node.name);
  return fromData((refs) => shapeData(node, refs));
}

/** The validator of an object with these fields (a parameters interface). */
export function objectValidatorExpr(
  fields: readonly Pick<Field, "name" | "type" | "required">[],
): Expr {
  return fromData((refs) => objectData(fields, refs));
}

/**
 * `fromData('[[<names>],<shape>]', <refs>)`: the names the shape uses, sorted, and what each
 * stands for as an argument in the same order (runtime/validator-data.ts says why arguments).
 */
function fromData(data: (refs: Refs) => Json): Expr {
  return dataCall(runtimeValue("validator-data.ts", "fromData"), data);
}

/** `callee('[[<names>],<data>]', <refs>)`: data holding shapes, and what the shapes name. */
function dataCall(callee: Expr, data: (refs: Refs) => Json): Expr & { kind: "call" } {
  const refs: Refs = new Map();
  const shape = data(refs);
  const named = [...refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = jsonText([named.map(([name]) => name), shape]);
  return call(callee, lit(text), ...named.map(([, expr]) => expr));
}

/**
 * `/* @__PURE__ *\/ callee('[[<names>],<data>]', <refs>)` for data that holds several
 * shapes (the client's response validators): `data` makes each with `shape`.
 */
export function shapesCall(callee: Expr, data: (shape: (node: TypeNode) => Json) => Json): Expr {
  return { ...dataCall(callee, (refs) => data((node) => shapeData(node, refs))), pure: true };
}

/** A symbol the text names: recorded once, named in the text by `name`. */
function named(refs: Refs, name: string, expr: Expr): string {
  if (!refs.has(name)) refs.set(name, expr);
  return name;
}

/** A combinator or basic validator of runtime/validate.ts the text names. */
const validateExport = (refs: Refs, name: keyof typeof runtime & string): string =>
  named(refs, name, runtimeValue("validate.ts", name));

/** `[combinator, ...arguments]`, the combinator passed beside the text. */
function applied(refs: Refs, kind: keyof typeof runtime & string, ...args: Json[]): Json {
  return [validateExport(refs, kind), ...args];
}

/** The shape data of a type node (validator-data.ts says what each form means). */
function shapeData(node: TypeNode, refs: Refs): Json {
  const inner = innerData(node, refs);
  return node.nullable ? applied(refs, "nullable", inner) : inner;
}

/** The data of a node's own shape, its nullability aside. */
function innerData(node: TypeNode, refs: Refs): Json {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive": {
      if (node.name === "boolean" || node.name === "binary") return validateExport(refs, node.name);
      if (node.name === "string") {
        const format = formatExport(c.format);
        const set = rules({
          format: format && validateExport(refs, format),
          pattern: c.pattern,
          prefix: c.prefix,
          minLength: c.minLength,
          maxLength: c.maxLength,
        });
        return set ? applied(refs, "string", set) : validateExport(refs, "string");
      }
      const set = rules({
        minimum: c.minimum,
        maximum: c.maximum,
        exclusiveMinimum: c.exclusiveMinimum,
        exclusiveMaximum: c.exclusiveMaximum,
        multipleOf: c.multipleOf,
      });
      validateExport(refs, "number");
      if (!set) return node.name === "integer" ? "integer" : "number";
      return applied(refs, "number", node.name === "integer" ? { integer: true, ...set } : set);
    }
    case "unknown":
      return validateExport(refs, "anything");
    case "ref":
      return named(refs, validatorName(node.name), validatorRef(node.name));
    case "param":
      // A generic type's body has no validator: each of its uses (a named type) has one.
      throw new Error(`type parameter ${node.name} outside its generic type`);
    case "array": {
      const counts = rules({
        minItems: c.minItems,
        maxItems: c.maxItems,
        uniqueItems: c.uniqueItems,
      });
      const items = shapeData(node.items, refs);
      return counts ? applied(refs, "array", items, counts) : applied(refs, "array", items);
    }
    case "map": {
      const values = shapeData(node.values, refs);
      const counts = entryRules(c);
      return counts ? applied(refs, "map", values, counts) : applied(refs, "map", values);
    }
    case "object":
      return objectData(node.fields, refs, entryRules(c));
    case "literal":
      return applied(refs, "literal", node.value);
    case "enum":
      return applied(refs, "oneOf", [...node.values], node.open);
    case "union":
      return unionData(node, refs);
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * `["tagged", "type", { "card": "validateCardPaymentMethod" }, false]` for a tagged union,
 * whose variants are named types; `["union", ["string", "validateCustomer"], ["string",
 * "Customer"]]` for an untagged one, the names for the issue when no member matches.
 */
function unionData(node: TypeNode & { kind: "union" }, refs: Refs): Json {
  const tag = node.discriminator;
  if (tag) {
    const variants = Object.fromEntries(
      tag.cases.map(({ value }, i) => [value, shapeData(node.variants[i]!, refs)]),
    );
    named(refs, "tagged", runtimeValue("unions.ts", "tagged"));
    return ["tagged", tag.field, variants, node.open];
  }
  const members = node.variants.map((v) => shapeData(v, refs));
  named(refs, "union", runtimeValue("unions.ts", "union"));
  return ["union", members, node.variants.map(typeText)];
}

/** `["object", { "a": "string" }, ["a"]]`: the fields, then the required names (left out when none). */
/** A map's or an object's count of entries, when the node has one. */
function entryRules(c: TypeNode["constraints"]): JsonObject | undefined {
  return rules({ minProperties: c.minProperties, maxProperties: c.maxProperties });
}

function objectData(
  fields: readonly Pick<Field, "name" | "type" | "required">[],
  refs: Refs,
  counts?: JsonObject,
): Json {
  const shape: Record<string, Json> = {};
  for (const f of fields) {
    const value = shapeData(f.type, refs);
    // Defined, not assigned: a field named `__proto__` stays a field of the text. Any other
    // name is assigned, which makes the same property (defining each was a slow path).
    if (f.name === "__proto__")
      Object.defineProperty(shape, f.name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else shape[f.name] = value;
  }
  const required = fields.filter((f) => f.required).map((f) => f.name);
  if (counts) return applied(refs, "object", shape, required, counts);
  return required.length > 0
    ? applied(refs, "object", shape, required)
    : applied(refs, "object", shape);
}

/** `(value: unknown, path: string, issues: ValidationIssue[])`: every validator's parameters. */
const validatorParams: readonly Param[] = [
  { name: "value", type: { kind: "keyword", name: "unknown" } },
  { name: "path", type: { kind: "keyword", name: "string" } },
  {
    name: "issues",
    type: { kind: "array", items: runtimeType("validate.ts", "ValidationIssue") },
  },
];

/**
 * A validator function and, right under it, the variable that holds its shape, built at the
 * first call rather than when the module loads: a bundle keeps only the validators its calls
 * use, and loading the package costs nothing for the others. `shapes` holds every validator
 * the file declares, so the variable's name is none of theirs: the validator of a type
 * `WorkflowRun` would hold its shape in `validateWorkflowRunShape`, which is the validator of
 * a type `WorkflowRunShape` (Hatchet's API has both); it takes the next free number then.
 */
export function validatorDeclaration(
  name: string,
  expression: Expr,
  docs: readonly string[],
  isExported: boolean,
  shapes: NameScope,
): FileStatement[] {
  const shapeName = shapes.claim(`${name}Shape`);
  const shape = id(shapeName);
  const build: Expr = {
    kind: "paren",
    expr: { kind: "assign", target: shape, operator: "??=", value: expression },
  };
  const validator: Statement = {
    kind: "function",
    name,
    isExported,
    docs,
    params: validatorParams,
    returnType: { kind: "keyword", name: "void" },
    body: [exprStatement(call(build, id("value"), id("path"), id("issues")))],
  };
  const shapeVariable: Statement = {
    kind: "variable",
    declarationKind: "let",
    name: shapeName,
    type: {
      kind: "union",
      types: [runtimeType("validate.ts", "Validator"), { kind: "keyword", name: "undefined" }],
    },
  };
  return [{ statement: validator }, { statement: shapeVariable, tight: true }];
}

/** How a member of an untagged union is named in an issue: `string`, `Customer`, `Label[]`. */
function typeText(node: TypeNode): string {
  const text = (() => {
    switch (node.kind) {
      case "primitive":
        return node.name;
      case "ref":
        return node.generic ? shorthandOf({ ...node, nullable: false }) : node.name;
      case "param":
        return node.name;
      case "array":
        return `${typeText(node.items)}[]`;
      case "map":
        return `map<${typeText(node.values)}>`;
      case "literal":
        return jsonText(node.value);
      case "enum":
        return node.values.map((v) => jsonText(v)).join(" | ");
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
