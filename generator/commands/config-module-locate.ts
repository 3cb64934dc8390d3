/**
 * Where a key or a value of a config module's value is in its text, without a JavaScript
 * parser: the text (JavaScript, or TypeScript with its types blanked out, which keeps every
 * position) is read as tokens, the exported expression found (`export default`,
 * `module.exports =`, `exports.default =`), and the object and array literals it is made of
 * are read into a tree of positions, through `defineConfig(...)`, parentheses, `await` and
 * the top-level `const`s it names. A value the text does not spell out (made by a call,
 * spread from elsewhere) is an opaque node: a path into it stops there, at the deepest
 * literal it reaches. test/fuzz/config-locate.fuzz.test.ts holds it to TypeScript's own parser.
 */
import type { SourceLocation } from "../ir/model.ts";
import type { ConfigPath } from "./config-shape.ts";

/** The line and column of a character offset. */
export function locationAt(file: string, text: string, offset: number): SourceLocation {
  const before = text.slice(0, Math.min(offset, text.length)).split("\n");
  return { file, line: before.length, col: before.at(-1)!.length + 1 };
}

/**
 * Whether JavaScript `text` is written as an ES module: an `import` or `export` statement, or
 * `import.meta`, outside any string, comment or bracket.
 */
export function hasModuleSyntax(text: string): boolean {
  const scanner = new Scanner(text);
  for (let before = ""; ; ) {
    const token = scanner.next();
    if (token === "") return false;
    // `obj.export`, `{ import: ... }` and `import(...)` are not module syntax
    const statement = before !== "." && scanner.peek() !== ":";
    if (statement && token === "export") return true;
    if (statement && token === "import" && scanner.peek() !== "(") return true;
    before = token;
  }
}

/** A value in the text: where it starts, and its keys or items when it is a literal. */
interface LiteralNode {
  start: number;
  entries?: Map<string, { keyStart: number; value: LiteralNode }>;
  items?: (LiteralNode | undefined)[];
}

const identifier = /[A-Za-z_$][\w$]*/y;
const number =
  /(?:0[xob][\da-f_]+|\d[\d_]*(?:\.[\d_]*)?(?:e[-+]?\d+)?|\.\d[\d_]*(?:e[-+]?\d+)?)n?/iy;
/** After one of these, a `/` starts a regular expression, not a division. */
const beforeRegExp = new Set([
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
  "",
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "await",
  "yield",
]);

/** Reads `text` one token at a time; comments and white space are skipped. */
class Scanner {
  at = 0;
  /** The token read last: whether a `/` after it divides or starts a regular expression. */
  last = "";

  constructor(readonly text: string) {}

  /** Skips white space and comments; the offset of the next token. */
  space(): number {
    const { text } = this;
    while (this.at < text.length) {
      const c = text[this.at]!;
      if (/\s/.test(c)) this.at++;
      else if (text.startsWith("//", this.at)) {
        const end = text.indexOf("\n", this.at);
        this.at = end < 0 ? text.length : end;
      } else if (text.startsWith("/*", this.at)) {
        const end = text.indexOf("*/", this.at + 2);
        this.at = end < 0 ? text.length : end + 2;
      } else break;
    }
    return this.at;
  }

  /** The next token without reading it. */
  peek(): string {
    const at = this.at;
    const last = this.last;
    const token = this.next();
    this.at = at;
    this.last = last;
    return token;
  }

  /** Reads one token: a word, a number, a string or template (whole), a regular expression, or one punctuation character ("" at the end). */
  next(): string {
    this.space();
    const { text } = this;
    const start = this.at;
    const c = text[start];
    if (c === undefined) return (this.last = "");
    for (const pattern of [identifier, number]) {
      pattern.lastIndex = start;
      const found = pattern.exec(text);
      if (found) {
        this.at = start + found[0].length;
        return (this.last = found[0]);
      }
    }
    if (c === '"' || c === "'") this.string(c);
    else if (c === "`") this.template();
    else if (c === "/" && beforeRegExp.has(this.last)) this.regExp();
    else if (text.startsWith("...", start)) this.at += 3;
    else this.at++;
    return (this.last = text.slice(start, this.at));
  }

  private string(quote: string): void {
    const { text } = this;
    for (this.at++; this.at < text.length && text[this.at] !== quote; this.at++)
      if (text[this.at] === "\\") this.at++;
    this.at++;
  }

  private template(): void {
    const { text } = this;
    for (this.at++; this.at < text.length && text[this.at] !== "`"; this.at++) {
      if (text[this.at] === "\\") this.at++;
      else if (text.startsWith("${", this.at)) {
        this.at += 2;
        this.skipTo("}");
        this.at--; // the loop steps over the closing brace
      }
    }
    this.at++;
  }

  private regExp(): void {
    const { text } = this;
    let inClass = false;
    for (this.at++; this.at < text.length && text[this.at] !== "\n"; this.at++) {
      const c = text[this.at];
      if (c === "\\") this.at++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
    }
    this.at++;
    identifier.lastIndex = this.at;
    this.at += identifier.exec(text)?.[0].length ?? 0; // flags
  }

  /** Reads tokens until one of `closers` at this depth (left unread); brackets nest. */
  skipTo(...closers: string[]): void {
    const open: string[] = [];
    for (;;) {
      const token = this.peek();
      if (token === "") return;
      if (open.length === 0 && closers.includes(token)) return;
      this.next();
      if (token === "(" || token === "[" || token === "{") open.push(token);
      else if (token === ")" || token === "]" || token === "}") open.pop();
    }
  }
}

const escapes: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  0: "\0",
};

/** The value of a string literal's token. */
function stringValue(token: string): string {
  return token
    .slice(1, -1)
    .replace(
      /\\(?:u\{([\da-fA-F]+)\}|u([\da-fA-F]{4})|x([\da-fA-F]{2})|\r?\n|(.))/g,
      (_, cp, u, x, c) =>
        (cp ?? u ?? x)
          ? String.fromCodePoint(parseInt(cp ?? u ?? x, 16))
          : c === undefined
            ? "" // a line continuation
            : (escapes[c as string] ?? (c as string)),
    );
}

/**
 * The offset of the key or value at `path` in the module `text`; undefined when the text has
 * no export this can find.
 */
export function moduleLocator(
  text: string,
): (path: ConfigPath, at: "key" | "value") => number | undefined {
  const scanner = new Scanner(text);
  const consts = new Map<string, number>();
  let exported: number | undefined;
  // the top level: declarations and the export, everything else skipped whole
  for (;;) {
    const token = scanner.next();
    if (token === "") break;
    if (token === "const" || token === "let" || token === "var") {
      const name = scanner.next();
      if (scanner.peek() === "=") {
        scanner.next();
        consts.set(name, scanner.space());
      }
    } else if (token === "export" && scanner.peek() === "default") {
      scanner.next();
      exported = scanner.space();
    } else if (token === "module" || token === "exports") {
      const chain = token === "module" ? ["exports"] : ["default"];
      const at = scanner.at;
      if (scanner.next() === "." && scanner.next() === chain[0] && scanner.peek() === "=") {
        scanner.next();
        exported = scanner.space();
      } else scanner.at = at;
    }
    if (token === "(" || token === "[" || token === "{")
      scanner.skipTo({ "(": ")", "[": "]", "{": "}" }[token]);
  }

  /** The value that starts at `start`, read into a tree of literals. */
  /** Whether the expression starting at `(` (after `defineConfig`, when `called`) ends with its `)`. */
  const wholeInParentheses = (called: boolean): boolean => {
    const resume = scanner.at;
    const last = scanner.last;
    if (called) scanner.next(); // defineConfig
    scanner.next(); // (
    scanner.skipTo(")");
    scanner.next(); // )
    const whole = [",", "}", "]", ")", ";", ""].includes(scanner.peek());
    scanner.at = resume;
    scanner.last = last;
    return whole;
  };

  /** The value that starts at `start`, read into a tree of literals. */
  const value = (start: number, seen: readonly string[] = []): LiteralNode => {
    scanner.at = start;
    let token = scanner.peek();
    for (;;) {
      const called = token === "defineConfig";
      if (token === "await") scanner.next();
      else if ((token === "(" || called) && wholeInParentheses(called)) {
        if (called) scanner.next();
        if (called && scanner.peek() !== "(") return { start: scanner.space() };
        scanner.next();
      } else break;
      token = scanner.peek();
    }
    const at = scanner.space();
    if (token === "{") return object(at, seen);
    if (token === "[") return array(at, seen);
    if (consts.has(token) && !seen.includes(token)) {
      scanner.next();
      const resume = scanner.at;
      if ([",", "}", "]", ")", ";", ""].includes(scanner.peek())) {
        const named = value(consts.get(token)!, [...seen, token]);
        scanner.at = resume;
        scanner.last = token;
        return named;
      }
      scanner.at = at;
    }
    return { start: at };
  };

  const object = (start: number, seen: readonly string[]): LiteralNode => {
    const entries = new Map<string, { keyStart: number; value: LiteralNode }>();
    scanner.next(); // {
    for (;;) {
      const keyStart = scanner.space();
      const token = scanner.next();
      if (token === "}" || token === "") break;
      if (token === ",") continue;
      let key: string | undefined;
      if (token === "...") scanner.skipTo(",", "}");
      else if (token === "[") scanner.skipTo("]");
      else if (/^["']/.test(token)) key = stringValue(token);
      else if (/^\d/.test(token)) key = String(Number(token));
      else key = token;
      if (token === "[") scanner.next();
      const after = scanner.peek();
      if (after === ":") {
        scanner.next();
        const node = value(scanner.space(), seen);
        if (key !== undefined) entries.set(key, { keyStart, value: node });
      } else if ((after === "," || after === "}") && key !== undefined)
        entries.set(key, { keyStart, value: { start: keyStart } }); // shorthand
      scanner.skipTo(",", "}");
    }
    return { start, entries };
  };

  const array = (start: number, seen: readonly string[]): LiteralNode => {
    const items: (LiteralNode | undefined)[] = [];
    scanner.next(); // [
    for (;;) {
      const at = scanner.space();
      const token = scanner.peek();
      if (token === "]" || token === "") {
        scanner.next();
        break;
      }
      if (token === ",") {
        scanner.next();
        items.push(undefined); // a hole
        continue;
      }
      items.push(token === "..." ? undefined : value(at, seen));
      scanner.skipTo(",", "]");
      if (scanner.peek() === ",") scanner.next();
    }
    return { start, items };
  };

  let root: LiteralNode | undefined;
  return (path, at) => {
    if (exported === undefined) return undefined;
    root ??= value(exported);
    let node = root;
    let keyStart: number | undefined;
    for (const segment of path) {
      const entry = typeof segment === "string" ? node.entries?.get(segment) : undefined;
      const item = typeof segment === "number" ? node.items?.[segment] : undefined;
      if (entry) {
        keyStart = entry.keyStart;
        node = entry.value;
      } else if (item) {
        keyStart = undefined;
        node = item;
      } else break;
    }
    return at === "key" && keyStart !== undefined ? keyStart : node.start;
  };
}
