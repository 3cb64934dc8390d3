/**
 * The shorthand type grammar of the spec:
 *   Type := Base "[]"* (" | null")?
 *   Base := string | integer | number | boolean | unknown | object | unspecified | Name | map<Type>
 */
export type TypeExpr =
  | { kind: "primitive"; name: "string" | "integer" | "number" | "boolean" }
  | { kind: "unknown"; unspecified: boolean }
  | { kind: "openObject" }
  | { kind: "ref"; name: string; offset: number }
  | { kind: "array"; items: TypeExpr }
  | { kind: "map"; values: TypeExpr }
  /** `array`/`map` written alone: the element type comes from `items`/`values`. */
  | { kind: "container"; container: "array" | "map" };

export interface ParsedTypeExpr {
  type: TypeExpr;
  nullable: boolean;
}

export class TypeExprError extends Error {
  constructor(
    readonly detail: string,
    readonly offset: number,
  ) {
    super(detail);
  }
}

const primitives = new Set(["string", "integer", "number", "boolean"]);

/** Parses a shorthand; throws TypeExprError with the offset of the problem. */
export function parseTypeExpr(text: string): ParsedTypeExpr {
  let pos = 0;
  const skipSpace = () => {
    while (text[pos] === " ") pos++;
  };
  const parseType = (): TypeExpr => {
    skipSpace();
    const start = pos;
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(pos))?.[0];
    if (!word) throw new TypeExprError(`expected a type name at ${JSON.stringify(text.slice(pos) || "the end")}`, pos);
    pos += word.length;
    let type: TypeExpr;
    if (word === "map" && text[pos] === "<") {
      pos++;
      const values = parseType();
      skipSpace();
      if (text[pos] !== ">") throw new TypeExprError("expected > to close map<", pos);
      pos++;
      type = { kind: "map", values };
    } else if (primitives.has(word)) {
      type = { kind: "primitive", name: word as "string" };
    } else if (word === "unknown" || word === "unspecified") {
      type = { kind: "unknown", unspecified: word === "unspecified" };
    } else if (word === "object") {
      type = { kind: "openObject" };
    } else if (word === "array" || word === "map") {
      type = { kind: "container", container: word };
    } else if (/^[A-Z]/.test(word)) {
      type = { kind: "ref", name: word, offset: start };
    } else {
      throw new TypeExprError(`${word} is not a type; named types are PascalCase, built-ins are string, integer, number, boolean, unknown, object, unspecified, map<T>, T[]`, start);
    }
    while (text.startsWith("[]", pos)) {
      pos += 2;
      type = { kind: "array", items: type };
    }
    return type;
  };
  const type = parseType();
  skipSpace();
  let nullable = false;
  if (text[pos] === "|") {
    pos++;
    skipSpace();
    if (!text.startsWith("null", pos)) throw new TypeExprError("only `| null` may follow a type; use enum for unions of values", pos);
    pos += 4;
    nullable = true;
    skipSpace();
  }
  if (pos < text.length) throw new TypeExprError(`unexpected ${JSON.stringify(text.slice(pos))}`, pos);
  return { type, nullable };
}
