/**
 * Walking type nodes: the one place that knows which node kinds hold other nodes.
 */
import type { TypeNode } from "./model.ts";

/** The type nodes directly inside `node`. */
export function childTypes(node: TypeNode): TypeNode[] {
  switch (node.kind) {
    case "array":
      return [node.items];
    case "map":
      return [node.values];
    case "object":
      return node.fields.map((f) => f.type);
    case "union":
      return node.variants;
    case "ref":
    case "param":
    case "primitive":
    case "unknown":
    case "literal":
    case "enum":
      return [];
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Names of the named types that `nodes` mention, not looking inside those types. */
export function referencedNames(...nodes: (TypeNode | undefined)[]): Set<string> {
  const names = new Set<string>();
  const visit = (node: TypeNode): void => {
    if (node.kind === "ref") names.add(node.name);
    childTypes(node).forEach(visit);
  };
  nodes.forEach((n) => n && visit(n));
  return names;
}
