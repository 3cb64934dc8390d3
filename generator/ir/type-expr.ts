/**
 * The shorthand type grammar of the spec:
 *   Type := Base "[]"* (" | null")?
 *   Base := string | integer | number | boolean | binary | unknown | object | unspecified | Name | map<Type>
 */
export type TypeExpr =
  | { kind: "primitive"; name: "string" | "integer" | "number" | "boolean" | "binary" }
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

const primitives = new Set(["string", "integer", "number", "boolean", "binary"]);

/** Parses a shorthand; throws TypeExprError with the offset of the problem. */
export function parseTypeExpr(text: string): ParsedTypeExpr {
  return new ExprParser(text).parse();
}

/**
 * The parser's state and steps as a class: closures made per call cost a property
 * definition each under tsx (keepNames), and the IR parses a shorthand per field.
 */
class ExprParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  /** The whole shorthand: a type, then an optional `| null`, then nothing. */
  parse(): ParsedTypeExpr {
    const { text } = this;
    const type = this.parseType();
    this.skipSpace();
    let nullable = false;
    if (text[this.pos] === "|") {
      this.pos++;
      this.skipSpace();
      if (!text.startsWith("null", this.pos))
        throw new TypeExprError(
          "only `| null` may follow a type; use enum for unions of values",
          this.pos,
        );
      this.pos += 4;
      nullable = true;
      this.skipSpace();
    }
    if (this.pos < text.length)
      throw new TypeExprError(`unexpected ${JSON.stringify(text.slice(this.pos))}`, this.pos);
    return { type, nullable };
  }

  /** Moves past spaces, which the grammar allows between tokens. */
  private skipSpace(): void {
    while (this.text[this.pos] === " ") this.pos++;
  }

  /** A base type and its `[]` suffixes. */
  private parseType(): TypeExpr {
    const { text } = this;
    this.skipSpace();
    const start = this.pos;
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(this.pos))?.[0];
    if (!word)
      throw new TypeExprError(
        `expected a type name at ${JSON.stringify(text.slice(this.pos) || "the end")}`,
        this.pos,
      );
    this.pos += word.length;
    let type: TypeExpr;
    if (word === "map" && text[this.pos] === "<") {
      this.pos++;
      const values = this.parseType();
      this.skipSpace();
      if (text[this.pos] !== ">") throw new TypeExprError("expected > to close map<", this.pos);
      this.pos++;
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
      throw new TypeExprError(
        `${word} is not a type; named types are PascalCase, built-ins are string, integer, number, boolean, binary, unknown, object, unspecified, map<T>, T[]`,
        start,
      );
    }
    while (text.startsWith("[]", this.pos)) {
      this.pos += 2;
      type = { kind: "array", items: type };
    }
    return type;
  }
}
