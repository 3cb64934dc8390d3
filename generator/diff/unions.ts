/**
 * What changed between two unions at one position: variants added and removed, by tag
 * (tagged) or by type (untagged), and openness. The variants' own fields are compared under
 * their named types.
 */
import type { TypeNode } from "../ir/model.ts";

type UnionNode = TypeNode & { kind: "union" };

/** Whether the change breaks a reader and a writer of the position. */
interface Effect {
  reads: boolean;
  writes: boolean;
}

export interface UnionChange {
  description: string;
  effect: Effect;
  /** The level when it breaks no one. */
  level: "breaking" | "minor";
}

/** A reader's exhaustive switch meets a variant it does not know; a writer is not affected. */
const variantAdded: Effect = { reads: true, writes: false };
/** A writer may send a variant the API no longer takes. */
const variantRemoved: Effect = { reads: false, writes: true };
const none: Effect = { reads: false, writes: false };
const typeChanged: Effect = { reads: true, writes: true };

/** Variants of a union by their key: the tag (quoted) or the member's type text. */
function variantsOf(node: UnionNode, typeText: (n: TypeNode) => string): Map<string, string> {
  return new Map(
    node.variants.map((v, i) => {
      const tag = node.discriminator?.cases[i];
      return [tag ? JSON.stringify(tag.value) : typeText(v), typeText(v)] as const;
    }),
  );
}

/**
 * The changes from `before` to `after`. A variant added to an open union breaks no one:
 * its readers already handle variants they do not know.
 */
export function unionChanges(
  before: UnionNode,
  after: UnionNode,
  typeText: (n: TypeNode) => string,
): UnionChange[] {
  const was = variantsOf(before, typeText);
  const now = variantsOf(after, typeText);
  const name = (key: string, type: string) => (before.discriminator ? `${key} (${type})` : key);
  const changes: UnionChange[] = [];
  for (const [key, type] of now) {
    const old = was.get(key);
    if (old === undefined)
      changes.push({
        description: `variant ${name(key, type)} added`,
        effect: after.open ? none : variantAdded,
        level: "minor",
      });
    else if (old !== type)
      changes.push({
        description: `variant ${key} ${old} -> ${type}`,
        effect: typeChanged,
        level: "breaking",
      });
  }
  for (const [key, type] of was)
    if (!now.has(key))
      changes.push({
        description: `variant ${name(key, type)} removed`,
        effect: variantRemoved,
        level: "minor",
      });
  if (!before.open && after.open)
    changes.push({ description: "union became open", effect: variantAdded, level: "minor" });
  if (before.open && !after.open)
    changes.push({ description: "union became closed", effect: none, level: "minor" });
  return changes;
}
