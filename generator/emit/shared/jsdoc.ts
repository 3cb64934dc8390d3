/**
 * JSDoc lines for any documented IR node: description, constraints as tags, and every
 * gap note as an `@undocumented` tag so it shows in editors.
 */
import type { Constraints, Docs, TypeNode } from "../../ir/model.ts";
import { jsonText, textLines } from "./escape.ts";

const constraintTags: { key: keyof Constraints; tag: string; quote?: boolean }[] = [
  { key: "format", tag: "format" },
  { key: "pattern", tag: "pattern", quote: true },
  { key: "prefix", tag: "prefix", quote: true },
  { key: "minLength", tag: "minLength" },
  { key: "maxLength", tag: "maxLength" },
  { key: "minimum", tag: "minimum" },
  { key: "maximum", tag: "maximum" },
  { key: "exclusiveMinimum", tag: "exclusiveMinimum" },
  { key: "exclusiveMaximum", tag: "exclusiveMaximum" },
  { key: "multipleOf", tag: "multipleOf" },
  { key: "minItems", tag: "minItems" },
  { key: "maxItems", tag: "maxItems" },
  { key: "uniqueItems", tag: "uniqueItems" },
  { key: "minProperties", tag: "minProperties" },
  { key: "maxProperties", tag: "maxProperties" },
  { key: "unit", tag: "unit" },
];

/**
 * Lines of a doc comment (no comment markers); empty when there is nothing to say. The text
 * is the spec's as it is: the printer (`printDocComment`) keeps it inside the comment.
 */
export function docLines(
  docs: Docs,
  constraints: Constraints = {},
  extra: string[] = [],
): string[] {
  const lines: string[] = [];
  if (docs.description) lines.push(...textLines(docs.description.trim()));
  lines.push(...extra);
  for (const { key, tag, quote } of constraintTags) {
    const value = constraints[key];
    if (value !== undefined)
      lines.push(`@${tag} ${quote ? `\`${String(value)}\`` : String(value)}`);
  }
  if (docs.default !== undefined) lines.push(`@default ${jsonText(docs.default)}`);
  if (docs.example !== undefined) lines.push(`@example ${jsonText(docs.example)}`);
  for (const note of docs.notes) lines.push(`@undocumented ${note.text}`);
  if (docs.deprecated) lines.push("@deprecated");
  return lines;
}

/** Doc lines of a type node, with what its array items or map values say folded in. */
export function typeDocLines(node: TypeNode, lead: string[] = []): string[] {
  const extra: string[] = [...lead];
  if (node.kind === "enum" && node.open) extra.push("Known values; the full list is not shown.");
  if (node.kind === "union" && node.open) extra.push(openUnionDoc(node));
  const inner =
    node.kind === "array"
      ? { word: "Each item", node: node.items }
      : node.kind === "map"
        ? { word: "Each value", node: node.values }
        : undefined;
  const innerNotes: string[] = [];
  if (inner) {
    const { docs, constraints } = inner.node;
    if (docs.description) extra.push(`${inner.word}: ${docs.description.trim()}`);
    const facts = constraintTags
      .filter(({ key }) => constraints[key] !== undefined)
      .map(
        ({ key, tag, quote }) =>
          `${tag} ${quote ? `\`${String(constraints[key])}\`` : String(constraints[key])}`,
      );
    if (facts.length) extra.push(`${inner.word}: ${facts.join(", ")}.`);
    innerNotes.push(
      ...typeDocLines(inner.node).filter((line) => line.startsWith("@undocumented ")),
    );
  }
  return [...docLines(node.docs, node.constraints, extra), ...innerNotes];
}

/** What an open union's doc says of the variants the spec does not list. */
function openUnionDoc(node: TypeNode & { kind: "union" }): string {
  return `Known variants; a value with any other \`${node.discriminator?.field ?? "tag"}\` is accepted too (\`UnknownVariant\`).`;
}
