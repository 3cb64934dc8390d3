/**
 * The compact type descriptor the stand-in and the trigger build sample values from: plain
 * JSON data, printed into the generated `src/testing.ts` by the generator (which works it
 * out from the model once), so the runtime needs no knowledge of the spec's format.
 */

/** A JSON literal of the spec: a `const` or one value of an enum. */
export type ShapeLiteral = string | number | boolean;

/** One field of an object shape, by its wire name. */
export interface ShapeField {
  name: string;
  shape: Shape;
  required?: boolean;
}

/** What a value looks like; `example` is the spec's own example, used as it is. */
export type Shape = ShapeBody & { nullable?: boolean; example?: unknown };

export type ShapeBody =
  | {
      t: "string";
      format?: string;
      pattern?: string;
      prefix?: string;
      minLength?: number;
      maxLength?: number;
    }
  | {
      t: "integer" | "number";
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      multipleOf?: number;
    }
  | { t: "boolean" }
  | { t: "binary" }
  | { t: "any" }
  | { t: "ref"; name: string }
  | { t: "array"; items: Shape; minItems?: number; maxItems?: number; uniqueItems?: boolean }
  | { t: "map"; values: Shape; minProperties?: number; maxProperties?: number }
  | { t: "object"; fields: ShapeField[]; minProperties?: number; maxProperties?: number }
  | { t: "literal"; value: ShapeLiteral }
  /** `open`: further values than the listed ones are accepted. */
  | { t: "enum"; values: ShapeLiteral[]; open?: boolean }
  /**
   * A union; `tag`: the field naming the variant and each variant's value, in order; `open`:
   * tags it does not list are accepted too.
   */
  | { t: "union"; variants: Shape[]; tag?: { field: string; values: string[] }; open?: boolean };

/** Named shapes by type name, which `ref` shapes point into. */
export type ShapeTable = Readonly<Record<string, Shape>>;
