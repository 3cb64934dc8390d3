/**
 * TypeScript type text for an IR type node, written through a ts-morph writer so
 * inline object members keep their doc comments.
 */
import type { CodeBlockWriter } from "ts-morph";
import type { Field, TypeNode } from "../ir/model.ts";
import { referencedNames } from "../ir/walk.ts";
import { typeDocLines, writeDocComment } from "./jsdoc.ts";

/** Writes the type of `node`, with `| null` where it is nullable. */
export function writeType(writer: CodeBlockWriter, node: TypeNode): void {
  writeShape(writer, node);
  if (node.nullable) writer.write(" | null");
}

function writeShape(writer: CodeBlockWriter, node: TypeNode): void {
  switch (node.kind) {
    case "primitive":
      writer.write(node.name === "integer" ? "number" : node.name);
      return;
    case "unknown":
      writer.write("unknown");
      return;
    case "ref":
      writer.write(node.name);
      return;
    case "array":
      writeArray(writer, node.items);
      return;
    case "map":
      writer.write("Record<string, ");
      writeType(writer, node.values);
      writer.write(">");
      return;
    case "object":
      writeObjectLiteral(writer, node.fields, node.open);
      return;
    case "literal":
      writer.write(JSON.stringify(node.value));
      return;
    case "enum":
      writer.write(enumText(node.values, node.open));
      return;
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** `T[]` for simple element types, `Array<...>` where `[]` would bind wrongly. */
function writeArray(writer: CodeBlockWriter, items: TypeNode): void {
  const simple =
    !items.nullable &&
    (items.kind === "primitive" ||
      items.kind === "ref" ||
      items.kind === "unknown" ||
      items.kind === "literal");
  if (simple) {
    writeShape(writer, items);
    writer.write("[]");
  } else {
    writer.write("Array<");
    writeType(writer, items);
    writer.write(">");
  }
}

/** A union of literals; an open enum also admits any other value of its kind. */
export function enumText(values: readonly (string | number | boolean)[], open: boolean): string {
  const parts = values.map((v) => JSON.stringify(v));
  const kind = typeof values[0];
  if (open && kind !== "boolean") parts.push(kind === "string" ? "(string & {})" : "(number & {})");
  return parts.join(" | ");
}

/**
 * The type of the named alias `name`. A map of itself is written as an index signature,
 * since `type X = Record<string, X>` is a circular alias that TypeScript rejects.
 */
export function writeAliasType(writer: CodeBlockWriter, name: string, node: TypeNode): void {
  if (node.kind !== "map" || !referencedNames(node.values).has(name))
    return writeType(writer, node);
  writer.write("{ [key: string]: ");
  writeType(writer, node.values);
  writer.write(" }");
  if (node.nullable) writer.write(" | null");
}

/** An inline object type; open objects get an index signature. */
function writeObjectLiteral(
  writer: CodeBlockWriter,
  fields: readonly Field[],
  open: boolean,
): void {
  if (fields.length === 0) {
    writer.write(open ? "Record<string, unknown>" : "Record<string, never>");
    return;
  }
  writer.inlineBlock(() => {
    writeMembers(writer, fields, open);
  });
}

/** Doc of the index signature of an open object. */
export const openObjectDoc = "Further fields that the source does not show.";

/** Members of an object type: the index signature if open (first, as in interfaces), then a property per field. */
export function writeMembers(
  writer: CodeBlockWriter,
  fields: readonly Field[],
  open: boolean,
): void {
  if (open) {
    writeDocComment(writer, [openObjectDoc]);
    writer.writeLine("[field: string]: unknown;");
  }
  for (const field of fields) {
    writeDocComment(writer, typeDocLines(field.type));
    writer.write(`${propertyName(field.name)}${field.required ? "" : "?"}: `);
    writeType(writer, field.type);
    writer.write(";").newLine();
  }
}

/** A property name as written on the wire, quoted when it is not an identifier. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}
