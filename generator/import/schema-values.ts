/**
 * Values a schema carries (defaults, examples, descriptions, enum values) that a spec could
 * not hold as they are: a default or example that is not a value of its type, and control characters,
 * which no spec file may hold. Each is left out or cleaned, with a note at its pointer.
 */
import { controlCharacter } from "../load/spec-text.ts";
import { isObject, note, under, type ImportContext, type TypeOut } from "./context.ts";
import type { JsonObject, JsonValue, Pointer } from "./document.ts";

/**
 * Whether `value` is a value of `base`, as far as the spec's own check looks (a primitive, an
 * enum that is not open, a const, an array or an object; named types and an object's fields
 * are not followed there either).
 */
export function fitsType(base: TypeOut, value: JsonValue): boolean {
  if (typeof base === "string") {
    if (base.endsWith("[]")) return Array.isArray(value);
    if (base.startsWith("map<")) return isObject(value);
    switch (base) {
      case "object":
        return isObject(value);
      case "integer":
        return Number.isInteger(value);
      case "number":
        return typeof value === "number";
      case "string":
      case "boolean":
        return typeof value === base;
      default:
        return true;
    }
  }
  if (Array.isArray(base.enum)) return base.open === true || base.enum.includes(value as never);
  if (base.const !== undefined) return base.const === value;
  if (base.fields !== undefined || base.extends !== undefined) return isObject(value);
  if (base.type === "array") return Array.isArray(value);
  if (base.type === "map") return isObject(value);
  if (typeof base.type === "string") return fitsType(base.type, value);
  return true;
}

/**
 * Leaves out a `default` or `example` that is not a value of the type, with a note (Vercel's
 * `default: []` on a string, Weatherbit's `example: "1551718800"` on a number).
 */
export function dropUnfitValues(
  ctx: ImportContext,
  base: TypeOut,
  facets: JsonObject,
  at: Pointer,
): void {
  for (const key of ["default", "example"] as const) {
    const value = facets[key];
    if (value === undefined || value === null || fitsType(base, value)) continue;
    note(
      ctx,
      facets,
      under(at, key),
      `${key} ${JSON.stringify(value).slice(0, 80)} is not a value of the type: left out`,
    );
    delete facets[key];
  }
}

const controlCharacters = new RegExp(controlCharacter.source, "g");

/** Whether a value holds a control character a spec file may not hold, in any string or key. */
export function hasControlCharacter(value: JsonValue, depth = 0): boolean {
  if (typeof value === "string") return controlCharacter.test(value);
  if (depth > 64) return false;
  if (Array.isArray(value)) return value.some((item) => hasControlCharacter(item, depth + 1));
  if (isObject(value))
    return Object.entries(value).some(
      ([key, item]) => controlCharacter.test(key) || hasControlCharacter(item, depth + 1),
    );
  return false;
}

/** `value` with every control character a spec file may not hold taken out of its strings. */
export function withoutControlCharacters(value: JsonValue, depth = 0): JsonValue {
  if (typeof value === "string") return value.replace(controlCharacters, "");
  if (depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => withoutControlCharacters(item, depth + 1));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value))
      out[key.replace(controlCharacters, "")] = withoutControlCharacters(item, depth + 1);
    return out;
  }
  return value;
}

/**
 * A description or example without control characters (SendGrid's examples hold U+009C and
 * vertical tabs), noted at `at` when there were any.
 */
export function cleanText<T extends JsonValue>(
  ctx: ImportContext,
  value: T,
  facets: JsonObject,
  at: Pointer,
  what: string,
): T {
  if (!hasControlCharacter(value)) return value;
  note(ctx, facets, at, `control characters left out of the ${what}`);
  return withoutControlCharacters(value) as T;
}
