/**
 * Example error bodies built from an error body type, so each example validates against
 * the schema it sits under: the code goes into a field named `code` that takes a number,
 * the tag into a field named `tag` or `.tag` that takes that string, the path to that
 * field gets one array item per array, fixed values (`const`) are kept (`success: false`),
 * required fields get the simplest value of their type, and nothing else is invented.
 * When the body has no place for the code or tag, there is no example.
 */
import type { ErrorResponse, Field, NamedType, TypeNode } from "../../ir/model.ts";
import { typesByName } from "../lookup.ts";
import type { Json, JsonObject } from "./json.ts";

interface Slot {
  code?: number | string;
  tag?: string;
}

interface Built {
  value: Json;
  /** The code or tag was placed. */
  filled: boolean;
  /** Holds the code, the tag or a fixed value: worth showing even when optional. */
  meaningful: boolean;
}

/** The example body of one error entry, or nothing when the body has no place for its code or tag. */
export function errorExample(
  body: NamedType,
  types: readonly NamedType[],
  entry: Pick<ErrorResponse, "code" | "tag">,
): Json | undefined {
  const slot: Slot = {
    ...(entry.code !== undefined ? { code: entry.code } : {}),
    ...(entry.tag !== undefined ? { tag: entry.tag } : {}),
  };
  const built = build(body.type, slot, typesByName(types), new Set([body.name]));
  return built?.filled ? built.value : undefined;
}

function takesCode(field: Field, slot: Slot): boolean {
  const t = field.type;
  return (
    slot.code !== undefined &&
    field.name === "code" &&
    ((t.kind === "primitive" &&
      t.name !== "boolean" &&
      (typeof slot.code === "string") === (t.name === "string")) ||
      t.kind === "unknown")
  );
}

function takesTag(field: Field, slot: Slot): boolean {
  const t = field.type;
  if (slot.tag === undefined || (field.name !== "tag" && field.name !== ".tag")) return false;
  switch (t.kind) {
    case "primitive":
      return t.name === "string";
    case "unknown":
      return true;
    case "enum":
      return t.values.includes(slot.tag) || (t.open && typeof t.values[0] === "string");
    case "literal":
      return t.value === slot.tag;
    case "ref":
    case "param":
    case "array":
    case "map":
    case "object":
    case "union":
      return false;
    default: {
      const unhandled: never = t;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A value that neither holds the code or tag nor a fixed value. */
function plain(value: Json): Built {
  return { value, filled: false, meaningful: false };
}

function build(
  node: TypeNode,
  slot: Slot,
  types: ReadonlyMap<string, NamedType>,
  seen: ReadonlySet<string>,
): Built | undefined {
  switch (node.kind) {
    case "primitive":
      return plain(
        node.name === "string" || node.name === "binary" ? "" : node.name === "boolean" ? false : 0,
      );
    case "unknown":
    case "param":
      return plain(null);
    case "literal":
      return { value: node.value, filled: false, meaningful: true };
    case "enum":
      return plain(node.values[0] ?? null);
    case "map":
      return plain({});
    case "ref": {
      const target = types.get(node.name);
      if (!target || seen.has(node.name)) return undefined;
      return build(target.type, slot, types, new Set([...seen, node.name]));
    }
    case "array": {
      const item = build(node.items, slot, types, seen);
      return item?.filled ? { value: [item.value], filled: true, meaningful: true } : plain([]);
    }
    case "object":
      return buildObject(node.fields, slot, types, seen);
    // An error body that is a union gets no example: which variant carries the code is not said.
    case "union":
      return undefined;
    default: {
      const unhandled: never = node;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}

function buildObject(
  fields: readonly Field[],
  slot: Slot,
  types: ReadonlyMap<string, NamedType>,
  seen: ReadonlySet<string>,
): Built {
  const value: JsonObject = {};
  let filled = false;
  let meaningful = false;
  for (const field of fields) {
    if (takesCode(field, slot) || takesTag(field, slot)) {
      value[field.name] = takesCode(field, slot) ? slot.code! : slot.tag!;
      filled = meaningful = true;
      continue;
    }
    const inner = build(field.type, slot, types, seen);
    if (!inner || !(inner.meaningful || field.required)) continue;
    value[field.name] = inner.value;
    filled ||= inner.filled;
    meaningful ||= inner.meaningful;
  }
  return { value, filled, meaningful };
}
