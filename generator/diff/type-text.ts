/**
 * How the model diff names and compares types: a short text of a type for its messages, and
 * whether two type nodes are of the same shape (a change of shape is a type change, not a
 * change inside one).
 */
import { shorthandOf } from "../ir/generics.ts";
import type { TypeNode } from "../ir/model.ts";

/** Short text of a type, for messages. */
export function typeText(node: TypeNode): string {
  const base = (() => {
    switch (node.kind) {
      case "primitive":
        return node.name;
      case "unknown":
        return node.unspecified ? "unspecified" : "unknown";
      case "ref":
        return node.generic ? shorthandOf({ ...node, nullable: false }) : node.name;
      case "param":
        return node.name;
      case "array":
        return `${typeText(node.items)}[]`;
      case "map":
        return `map<${typeText(node.values)}>`;
      case "object":
        return "object";
      case "literal":
        return JSON.stringify(node.value);
      case "enum":
        return node.open ? "open enum" : "enum";
      case "union":
        return node.discriminator
          ? `${node.open ? "open " : ""}union by ${node.discriminator.field}`
          : node.variants.map(typeText).join(" | ");
      default: {
        const unhandled: never = node;
        throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
      }
    }
  })();
  return node.nullable ? `${base} | null` : base;
}

/** Whether two nodes are of one shape: the same kind, and the same name, value or tag field. */
export function sameShape(a: TypeNode, b: TypeNode): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "primitive" && b.kind === "primitive") return a.name === b.name;
  if (a.kind === "ref" && b.kind === "ref") return a.name === b.name;
  if (a.kind === "param" && b.kind === "param") return a.name === b.name;
  if (a.kind === "literal" && b.kind === "literal") return a.value === b.value;
  // A tagged union and an untagged one, or two tag fields, are different types.
  if (a.kind === "union" && b.kind === "union")
    return a.discriminator?.field === b.discriminator?.field;
  return true;
}
