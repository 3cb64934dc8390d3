/**
 * Bounds no value fits between: a lower bound past its upper one (`minimum: 5` beside
 * `maximum: 3`, GetStream's latitude), or one that leaves itself out at the other
 * (`exclusiveMinimum: 0` beside `maximum: 0`). The spec's check (`range-conflict`) and the
 * importer (which leaves such bounds out, noted) read them the same way.
 */

/** The facets that bound a value, a text's length, an array's count or a map's entries. */
export type BoundKey =
  | "minimum"
  | "maximum"
  | "exclusiveMinimum"
  | "exclusiveMaximum"
  | "minLength"
  | "maxLength"
  | "minItems"
  | "maxItems"
  | "minProperties"
  | "maxProperties";

/** Two bounds no value fits between, as a message says them. */
export interface BoundConflict {
  lowKey: BoundKey;
  low: number;
  relation: "more than" | "not less than";
  highKey: BoundKey;
  high: number;
}

/**
 * The pairs of each group of bounds: lower key, upper key, and whether either leaves itself
 * out (then equal bounds conflict too). A group's first conflict is its only one.
 */
const groups: readonly (readonly [BoundKey, BoundKey, boolean])[][] = [
  [
    ["minimum", "maximum", false],
    ["exclusiveMinimum", "maximum", true],
    ["minimum", "exclusiveMaximum", true],
    ["exclusiveMinimum", "exclusiveMaximum", true],
  ],
  [["minLength", "maxLength", false]],
  [["minItems", "maxItems", false]],
  [["minProperties", "maxProperties", false]],
];

/** The conflicts among `bounds`, at most one per group (a number's, a length's, ...). */
export function boundConflicts(bounds: { readonly [key in BoundKey]?: unknown }): BoundConflict[] {
  const conflicts: BoundConflict[] = [];
  for (const group of groups)
    for (const [lowKey, highKey, exclusive] of group) {
      const low = bounds[lowKey];
      const high = bounds[highKey];
      if (typeof low !== "number" || typeof high !== "number") continue;
      if (exclusive ? low < high : low <= high) continue;
      conflicts.push({
        lowKey,
        low,
        relation: exclusive ? "not less than" : "more than",
        highKey,
        high,
      });
      break;
    }
  return conflicts;
}
