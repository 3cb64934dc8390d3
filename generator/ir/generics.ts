/**
 * Generic types: a type declared with parameters (`List<T>` with `typeParams: [T]`) and its
 * uses (`List<Customer>`). Each use becomes a named type of its own, its instantiation: the
 * body with the arguments in place of the parameters, so that every later stage (validators,
 * the stand-in, the OpenAPI schemas, the diff) reads an ordinary named type. This module
 * holds what needs no builder: the text of a type as the shorthand writes it, the
 * instantiation's name, and the substitution.
 */
import type { TypeNode } from "./model.ts";

/** A type as the spec's shorthand writes it (`List<Customer | null>`, `map<string>[]`). */
export function shorthandOf(node: TypeNode): string {
  const base = ((): string => {
    switch (node.kind) {
      case "primitive":
        return node.name;
      case "unknown":
        return node.unspecified ? "unspecified" : "unknown";
      case "param":
        return node.name;
      case "ref":
        return node.generic
          ? `${node.generic.name}<${node.generic.args.map(shorthandOf).join(", ")}>`
          : node.name;
      case "array": {
        const items = shorthandOf(node.items);
        // `(A | B)[]` has no shorthand; such an argument is not parsed from one either.
        return `${items}[]`;
      }
      case "map":
        return `map<${shorthandOf(node.values)}>`;
      case "object":
        return "object";
      case "literal":
        return JSON.stringify(node.value);
      case "enum":
        return node.values.map((v) => JSON.stringify(v)).join(" | ");
      case "union":
        return node.variants.map(shorthandOf).join(" | ");
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
      }
    }
  })();
  return node.nullable ? `${base} | null` : base;
}

/**
 * The name of an instantiation, PascalCase from the generic's name and its arguments'
 * (`List<Customer>` is `ListCustomer`, `Page<string[], Customer | null>` is
 * `PageStringArrayNullableCustomer`). A name already taken gets `_2`, `_3`, ... in the order
 * uses are met, which is the spec's order.
 */
export function instanceBaseName(generic: string, args: readonly TypeNode[]): string {
  return generic + args.map(argName).join("");
}

function argName(node: TypeNode): string {
  const base = ((): string => {
    switch (node.kind) {
      case "primitive":
      case "unknown":
      case "param":
        return node.kind === "unknown"
          ? "Unknown"
          : node.name.charAt(0).toUpperCase() + node.name.slice(1);
      case "ref":
        return node.generic ? instanceBaseName(node.generic.name, node.generic.args) : node.name;
      case "array":
        return `${argName(node.items)}Array`;
      case "map":
        return `${argName(node.values)}Map`;
      case "object":
        return "Object";
      case "literal":
      case "enum":
        return "Value";
      case "union":
        return node.variants.map(argName).join("Or");
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
      }
    }
  })();
  return node.nullable ? `Nullable${base}` : base;
}

/**
 * A deep copy of `node`, each node first offered to `replace`: what it returns takes the
 * node's place (and is not walked), undefined copies the node and walks on.
 */
export function mapType(
  node: TypeNode,
  replace: (node: TypeNode) => TypeNode | undefined,
): TypeNode {
  const replaced = replace(node);
  if (replaced) return replaced;
  const again = (child: TypeNode) => mapType(child, replace);
  const common = {
    nullable: node.nullable,
    constraints: { ...node.constraints },
    docs: node.docs,
    location: node.location,
  };
  switch (node.kind) {
    case "primitive":
    case "unknown":
    case "param":
    case "literal":
    case "enum":
      return { ...node, ...common };
    case "ref":
      return node.generic
        ? {
            ...node,
            ...common,
            generic: { name: node.generic.name, args: node.generic.args.map(again) },
          }
        : { ...node, ...common };
    case "array":
      return { kind: "array", items: again(node.items), ...common };
    case "map":
      return { kind: "map", values: again(node.values), ...common };
    case "object":
      return {
        kind: "object",
        fields: node.fields.map((f) => ({ ...f, type: again(f.type) })),
        open: node.open,
        ...(node.base ? { base: { name: node.base.name, without: [...node.base.without] } } : {}),
        ...common,
      };
    case "union":
      return {
        kind: "union",
        variants: node.variants.map(again),
        ...(node.discriminator ? { discriminator: node.discriminator } : {}),
        open: node.open,
        ...common,
      };
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** How documentation names a named type or a use of a generic type: `Customer`, `List<Customer>`. */
export function refText(node: TypeNode & { kind: "ref" }): string {
  return node.generic ? shorthandOf({ ...node, nullable: false }) : node.name;
}
