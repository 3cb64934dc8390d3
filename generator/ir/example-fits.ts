/**
 * Whether a spec's example is a value of its type, as the package's own validators judge it:
 * the runtime's combinators (runtime/validate.ts, runtime/unions.ts), built here from the
 * type node. The stand-in answers with an example only where the client's response
 * validation would accept it; real documents give date-time examples such as
 * "2019-03-04:17", a null in a list of strings, an enum value the enum lacks.
 */
import { tagged, union } from "../runtime/unions.ts";
import {
  anything,
  array,
  binary,
  boolean,
  formats,
  literal,
  map,
  nullable,
  number,
  object,
  oneOf,
  string,
  validate,
  type Validator,
} from "../runtime/validate.ts";
import { hasNestedQuantifier } from "./check-pattern.ts";
import type { NamedType, TypeNode } from "./model.ts";

/** Named types by name, as the model lists them. */
export type TypeLookup = ReadonlyMap<string, NamedType>;

/** One validator per named type of a lookup, made at its first use (types may be recursive). */
const named = new WeakMap<TypeLookup, Map<string, Validator>>();

function namedValidator(name: string, types: TypeLookup): Validator {
  let known = named.get(types);
  if (!known) named.set(types, (known = new Map()));
  const made = known.get(name);
  if (made) return made;
  let inner: Validator | undefined;
  // a reference is checked through the named type's validator, made when first needed
  const lazy: Validator = (value, path, issues) => {
    const target = types.get(name);
    inner ??= target ? validatorOf(target.type, types) : anything;
    inner(value, path, issues);
  };
  known.set(name, lazy);
  return lazy;
}

/** Refuses every value: a string whose pattern the generator does not run. */
const riskyPattern: Validator = (_value, path, issues) => {
  issues.push({ path, message: "has a pattern prone to catastrophic backtracking" });
};

/** The validator of a type node, the generated validators' rules. */
function validatorOf(node: TypeNode, types: TypeLookup): Validator {
  const check = baseValidator(node, types);
  return node.nullable ? nullable(check) : check;
}

function baseValidator(node: TypeNode, types: TypeLookup): Validator {
  const c = node.constraints;
  switch (node.kind) {
    case "primitive":
      switch (node.name) {
        case "string":
          // the spec's pattern runs on the spec's example here, while generating: one prone to
          // catastrophic backtracking (Beezup's `([\/\w \.-]*)*`) took generate down for
          // minutes on an example it did not match, so its examples are not used
          if (c.pattern !== undefined && hasNestedQuantifier(c.pattern)) return riskyPattern;
          return string({
            ...(c.format && formats[c.format] ? { format: formats[c.format] } : {}),
            ...(c.pattern !== undefined ? { pattern: c.pattern } : {}),
            ...(c.prefix !== undefined ? { prefix: c.prefix } : {}),
            ...(c.minLength !== undefined ? { minLength: c.minLength } : {}),
            ...(c.maxLength !== undefined ? { maxLength: c.maxLength } : {}),
          });
        case "integer":
        case "number":
          return number({
            integer: node.name === "integer",
            ...(c.minimum !== undefined ? { minimum: c.minimum } : {}),
            ...(c.maximum !== undefined ? { maximum: c.maximum } : {}),
          });
        case "boolean":
          return boolean;
        case "binary":
          return binary;
        default: {
          const unhandled: never = node;
          throw new Error(`unhandled primitive ${JSON.stringify(unhandled)}`);
        }
      }
    case "unknown":
    case "param":
      return anything;
    case "ref":
      return namedValidator(node.name, types);
    case "array":
      return array(validatorOf(node.items, types));
    case "map":
      return map(validatorOf(node.values, types));
    case "object":
      return object(
        Object.fromEntries(node.fields.map((f) => [f.name, validatorOf(f.type, types)])),
        node.fields.filter((f) => f.required).map((f) => f.name),
      );
    case "literal":
      return literal(node.value);
    case "enum":
      return oneOf(node.values, node.open);
    case "union": {
      const members = node.variants.map((v) => validatorOf(v, types));
      const d = node.discriminator;
      return d
        ? tagged(
            d.field,
            Object.fromEntries(d.cases.map((tagCase, i) => [tagCase.value, members[i]!])),
            node.open,
          )
        : union(
            members,
            node.variants.map((_, i) => `member ${i + 1}`),
          );
    }
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Whether `node`'s example passes the validators of its type; true where it has none. */
export function exampleFits(node: TypeNode, types: TypeLookup): boolean {
  const example = node.docs.example;
  if (example === undefined) return true;
  // a binary value's example shows its text: the stand-in makes bytes of its own
  if (node.kind === "primitive" && node.name === "binary") return false;
  return validate(validatorOf(node, types), example, "$").length === 0;
}
