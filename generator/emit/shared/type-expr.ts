/**
 * IR type nodes as code-model types: `T[]` or `Array<T>`, `Record<string, T>`, object types
 * with their members' doc comments, literal unions for enums, and `| null` where nullable.
 */
import type { Field, TypeNode } from "../../ir/model.ts";
import { referencedNames } from "../../ir/walk.ts";
import type { Member, TypeExpr } from "../code/nodes.ts";
import { typeDocLines } from "./jsdoc.ts";
import { globalRef, runtimeType, typeRef } from "./symbols.ts";

export const keyword = (name: string): TypeExpr => ({ kind: "keyword", name });
export const generic = (name: string, ...args: TypeExpr[]): TypeExpr => ({
  kind: "generic",
  target: globalRef(name),
  args,
});
export const union = (types: readonly TypeExpr[]): TypeExpr =>
  types.length === 1 ? types[0]! : { kind: "union", types };
export const literalType = (value: string | number | boolean): TypeExpr => ({
  kind: "literal-type",
  value,
});

/** The type of `node`, with `| null` where it is nullable. */
export function typeExpr(node: TypeNode): TypeExpr {
  const shape = shapeExpr(node);
  if (!node.nullable) return shape;
  const members = shape.kind === "union" ? shape.types : [shape];
  return union([...members, keyword("null")]);
}

function shapeExpr(node: TypeNode): TypeExpr {
  switch (node.kind) {
    case "primitive":
      // What a caller may send; a binary response is a Blob, typed by the client emitter.
      if (node.name === "binary") return runtimeType("validate.ts", "BinaryInput");
      return keyword(node.name === "integer" ? "number" : node.name);
    case "unknown":
      return keyword("unknown");
    case "ref":
      return node.generic
        ? {
            kind: "generic",
            target: typeRef(node.generic.name),
            args: node.generic.args.map(typeExpr),
          }
        : typeRef(node.name);
    // Printed in a generic type's own declaration only: `data: T[]`.
    case "param":
      return keyword(node.name);
    case "array":
      return arrayExpr(node.items);
    case "map":
      return generic("Record", keyword("string"), typeExpr(node.values));
    case "object":
      return objectExpr(node.fields, node.open);
    case "literal":
      return literalType(node.value);
    case "enum":
      return enumExpr(node.values, node.open);
    case "union":
      return unionExpr(node);
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * A union is its members (a nullable member's `null` among them). The variants of a tagged
 * union carry their tag as a required literal (the IR makes it so), so a check of the tag
 * narrows to the variant; an open union adds `UnknownVariant<"type">`, whose tag is no
 * string type, so that narrowing on a known tag still drops it.
 */
function unionExpr(node: TypeNode & { kind: "union" }): TypeExpr {
  const members = node.variants.flatMap((variant) => {
    const member = typeExpr(variant);
    return member.kind === "union" ? member.types : [member];
  });
  if (node.open && node.discriminator)
    members.push({
      kind: "generic",
      target: runtimeType("unions.ts", "UnknownVariant"),
      args: [literalType(node.discriminator.field)],
    });
  return union(members);
}

/** `T[]` for simple element types, `Array<...>` where `[]` would bind wrongly. */
function arrayExpr(items: TypeNode): TypeExpr {
  const simple =
    !items.nullable &&
    (items.kind === "primitive" ||
      items.kind === "ref" ||
      items.kind === "param" ||
      items.kind === "unknown" ||
      items.kind === "literal");
  return simple ? { kind: "array", items: shapeExpr(items) } : generic("Array", typeExpr(items));
}

/** A union of literals; an open enum also admits any other value of its kind. */
export function enumExpr(values: readonly (string | number | boolean)[], open: boolean): TypeExpr {
  const parts = values.map(literalType);
  const kind = typeof values[0];
  if (open && kind !== "boolean")
    parts.push({
      kind: "paren-type",
      type: {
        kind: "intersection",
        types: [
          keyword(kind === "string" ? "string" : "number"),
          { kind: "object-type", members: [], inline: true },
        ],
      },
    });
  return union(parts);
}

/** Doc of the index signature of an open object. */
export const openObjectDoc = "Further fields that the source does not show.";

/** The index signature of an open object. */
export const openObjectMember: Member = {
  kind: "index-signature",
  keyName: "field",
  keyType: keyword("string"),
  returnType: keyword("unknown"),
  docs: [openObjectDoc],
};

/** Members of an object type: the index signature if open (first, as in interfaces), then a property per field. */
export function fieldMembers(fields: readonly Field[], open: boolean): Member[] {
  return [
    ...(open ? [openObjectMember] : []),
    ...fields.map(
      (field): Member => ({
        kind: "property-signature",
        name: field.name,
        hasQuestionToken: !field.required,
        type: typeExpr(field.type),
        docs: typeDocLines(field.type),
      }),
    ),
  ];
}

/** An inline object type; one without fields is `Record<string, unknown>` (open) or `Record<string, never>`. */
function objectExpr(fields: readonly Field[], open: boolean): TypeExpr {
  if (fields.length === 0)
    return generic("Record", keyword("string"), keyword(open ? "unknown" : "never"));
  return { kind: "object-type", members: fieldMembers(fields, open) };
}

/** `{ [key: string]: T }` (optionally `readonly`) on one line where it fits. */
export function indexSignatureType(values: TypeExpr, isReadonly = false): TypeExpr {
  return {
    kind: "object-type",
    inline: true,
    members: [
      {
        kind: "index-signature",
        ...(isReadonly ? { isReadonly: true } : {}),
        keyName: "key",
        keyType: keyword("string"),
        returnType: values,
      },
    ],
  };
}

/**
 * The type of the named alias `name`. A map of itself is written as an index signature,
 * since `type X = Record<string, X>` is a circular alias that TypeScript rejects; so is such
 * a map among the members of a union (`Json: string | Json[] | map<Json>`). `loops` says
 * whether a map's values reach the alias (by default: name it; the caller may follow other
 * aliases too).
 */
export function aliasTypeExpr(
  name: string,
  node: TypeNode,
  loops: (values: TypeNode) => boolean = (values) => referencedNames(values).has(name),
): TypeExpr {
  const selfMap = (n: TypeNode) => n.kind === "map" && loops(n.values);
  if (node.kind === "union" && node.variants.some(selfMap)) {
    const members = node.variants.flatMap((variant) => {
      const member = selfMap(variant) ? aliasTypeExpr(name, variant, loops) : typeExpr(variant);
      return member.kind === "union" ? member.types : [member];
    });
    return union(node.nullable ? [...members, keyword("null")] : members);
  }
  if (node.kind !== "map" || !selfMap(node)) return typeExpr(node);
  const signature = indexSignatureType(typeExpr(node.values));
  return node.nullable ? union([signature, keyword("null")]) : signature;
}
