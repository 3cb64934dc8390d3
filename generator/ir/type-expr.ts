/**
 * The shorthand type grammar of the spec:
 *   Type   := Member (" | " Member)*        `null` may be one member, anywhere: it makes the type nullable
 *   Member := Base "[]"*
 *   Base   := string | integer | number | boolean | binary | unknown | object | unspecified | Name | map<Member>
 *           | Name<Type (", " Type)*>      a use of a generic type (`List<Customer>`)
 * Two or more members other than `null` make an untagged union.
 */
import { nearest } from "../diagnostics/diagnostic.ts";

export type TypeExpr =
  | { kind: "primitive"; name: "string" | "integer" | "number" | "boolean" | "binary" }
  | { kind: "unknown"; unspecified: boolean }
  | { kind: "openObject" }
  /** A named type, or a type parameter; `args`: a use of a generic type, `List<Customer>`. */
  | { kind: "ref"; name: string; offset: number; args?: ParsedTypeExpr[] }
  | { kind: "array"; items: TypeExpr }
  | { kind: "map"; values: TypeExpr }
  /** `array`/`map` written alone: the element type comes from `items`/`values`. */
  | { kind: "container"; container: "array" | "map" }
  /** `A | B`: two or more members, none of them `null`. */
  | { kind: "union"; members: TypeExpr[] };

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

  /**
   * The whole shorthand: members separated by `|`, then nothing. Without a `|` (most
   * fields) no list is made.
   */
  parse(): ParsedTypeExpr {
    const parsed = this.parseUnion();
    if (this.pos < this.text.length)
      throw new TypeExprError(`unexpected ${JSON.stringify(this.text.slice(this.pos))}`, this.pos);
    return parsed;
  }

  /** Members separated by `|`, up to what is not one (the end, or `,` or `>` of type arguments). */
  private parseUnion(): ParsedTypeExpr {
    const { text } = this;
    const start = this.pos;
    let nullable = false;
    let first: TypeExpr | undefined;
    let members: TypeExpr[] | undefined;
    for (;;) {
      this.skipSpace();
      if (this.atNull()) {
        nullable = true;
      } else {
        const member = this.parseType();
        if (first === undefined) first = member;
        else (members ??= [first]).push(member);
      }
      this.skipSpace();
      if (text[this.pos] !== "|") break;
      this.pos++;
    }
    if (first === undefined) throw new TypeExprError("null alone is not a type", start);
    if (members) this.checkDistinct(members, start);
    return { type: members ? { kind: "union", members } : first, nullable };
  }

  /** `null` as a whole member (not the start of a name such as `nullable`). */
  private atNull(): boolean {
    const { text, pos } = this;
    if (!text.startsWith("null", pos)) return false;
    const next = text[pos + 4];
    if (next !== undefined && /[A-Za-z0-9_[<]/.test(next)) return false;
    this.pos += 4;
    return true;
  }

  /** A union lists each member once: `string | string` is a slip, not a type. */
  private checkDistinct(members: readonly TypeExpr[], start: number): void {
    const seen = new Set<string>();
    for (const member of members) {
      const key = JSON.stringify(member, (k, v: unknown) => (k === "offset" ? undefined : v));
      if (seen.has(key))
        throw new TypeExprError(
          `a member of the union appears twice`,
          this.text.indexOf("|", start),
        );
      seen.add(key);
    }
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
    if (text[this.pos] === "(")
      throw new TypeExprError(
        "the shorthand has no parentheses; an array of a union is written in full: { type: array, items: { union: [A, B] } }",
        this.pos,
      );
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
      if (text[this.pos] === "|")
        throw new TypeExprError(
          "a union of map values is written in full: values: { union: [A, B] }",
          this.pos,
        );
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
      if (text[this.pos] === "<") type.args = this.parseTypeArgs(word);
    } else {
      throw new TypeExprError(
        `${word} is not a type${builtInHint(word)}; named types are PascalCase, built-ins are string, integer, number, boolean, binary, unknown, object, unspecified, map<T>, T[]`,
        start,
      );
    }
    if (text[this.pos] === "<")
      throw new TypeExprError(`${word} takes no type arguments`, this.pos);
    while (text.startsWith("[]", this.pos)) {
      this.pos += 2;
      type = { kind: "array", items: type };
    }
    return type;
  }

  /** `<A, B | null>` after a generic type's name: each argument a whole type. */
  private parseTypeArgs(name: string): ParsedTypeExpr[] {
    const { text } = this;
    const args: ParsedTypeExpr[] = [];
    this.pos++; // <
    for (;;) {
      args.push(this.parseUnion());
      this.skipSpace();
      if (text[this.pos] === ",") {
        this.pos++;
        continue;
      }
      if (text[this.pos] !== ">")
        throw new TypeExprError(`expected , or > in the type arguments of ${name}`, this.pos);
      this.pos++;
      return args;
    }
  }
}

/** Other languages' names of the built-in types (`bool`, `int`, `float`), as typed by habit. */
const builtInAliases: Record<string, string> = {
  bool: "boolean",
  int: "integer",
  long: "integer",
  float: "number",
  double: "number",
  decimal: "number",
  str: "string",
  text: "string",
  any: "unknown",
  bytes: "binary",
};

/** ` (did you mean boolean?)` for a word that is close to, or another language's name of, a built-in. */
function builtInHint(word: string): string {
  const alias = Object.hasOwn(builtInAliases, word) ? builtInAliases[word] : undefined;
  const near = alias ?? nearest(word, builtIns);
  return near ? ` (did you mean ${near}?)` : "";
}

const builtIns = ["string", "integer", "number", "boolean", "binary", "unknown", "object"];
