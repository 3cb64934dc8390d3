/**
 * Where a config file stops being JSON, and why, in words of our own. `JSON.parse` says only
 * "Unexpected token" and a position that is often past the mistake (after a trailing comma it
 * points at the `}`; after a `//` comment, at the second slash), and its wording changes
 * between Node versions. This reads the text once, as JSON's grammar does, and stops at the
 * first character that breaks it, naming the usual mistakes: comments, trailing commas,
 * single quotes, keys without quotes. A key given twice in one object is refused too: JSON
 * readers differ on which one counts.
 *
 * Comments and trailing commas are refused, not accepted as in tsconfig.json: the file is
 * named .json, and every other tool that reads it (editors by its $schema, jq, scripts that
 * `JSON.parse` it) reads plain JSON.
 */

/** The first place the text breaks JSON's grammar, with what is wrong there. */
export interface JsonProblem {
  offset: number;
  detail: string;
}

/** Deepest nesting read; a config file needs two levels. */
const maxDepth = 64;

class Stop extends Error {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const wordPattern = /[A-Za-z_$][\w$-]*/y;
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/** Undefined when `text` is JSON (a byte order mark before it is allowed), else its first problem. */
export function jsonProblem(text: string): JsonProblem | undefined {
  let at = text.startsWith("\uFEFF") ? 1 : 0;

  const space = (): void => {
    while (at < text.length) {
      const c = text[at]!;
      if (c === " " || c === "\t" || c === "\n" || c === "\r") at++;
      else if (c === "/" && (text[at + 1] === "/" || text[at + 1] === "*"))
        throw new Stop(at, "comments are not JSON; remove this one");
      else if (c === "#") throw new Stop(at, "comments are not JSON; remove this one");
      else return;
    }
  };

  const shown = (offset: number): string => {
    const c = text.codePointAt(offset);
    if (c === undefined) return "the end of the file";
    return c < 0x20 || c === 0x7f
      ? `U+${c.toString(16).toUpperCase().padStart(4, "0")}`
      : String.fromCodePoint(c);
  };

  const string = (): void => {
    const start = at;
    at++; // the opening quote
    for (;;) {
      if (at >= text.length)
        throw new Stop(start, "this string has no closing double quote before the end of the file");
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        at++;
        return;
      }
      if (c === 0x0a || c === 0x0d)
        throw new Stop(start, "this string has no closing double quote on its line");
      if (c < 0x20)
        throw new Stop(at, `${shown(at)} inside a string is not JSON; write it as an escape`);
      if (c === 0x5c) {
        const next = text[at + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6)))
            throw new Stop(at, "\\u is followed by four hexadecimal digits in JSON");
          at += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) at += 2;
        else throw new Stop(at, `\\${next ?? ""} is not an escape JSON knows`);
      } else at++;
    }
  };

  const word = (): string | undefined => {
    wordPattern.lastIndex = at;
    return wordPattern.exec(text)?.[0];
  };

  const value = (depth: number, closer: string): void => {
    space();
    const c = text[at];
    if (c === undefined) throw new Stop(at, "the file ends where a value is expected");
    if (c === "{" || c === "[") return container(depth + 1);
    if (c === '"') return string();
    if (c === "'") throw new Stop(at, "strings are written in double quotes in JSON, not single");
    if (c === "," || c === closer) throw new Stop(at, `a value is expected before this ${c}`);
    numberPattern.lastIndex = at;
    const number = numberPattern.exec(text)?.[0];
    if (number !== undefined) {
      at += number.length;
      return;
    }
    const name = word();
    if (name === "true" || name === "false" || name === "null") {
      at += name.length;
      return;
    }
    if (name !== undefined)
      throw new Stop(at, `${name} is not a JSON value; a string is written in double quotes`);
    throw new Stop(at, `${shown(at)} cannot start a JSON value`);
  };

  const container = (depth: number): void => {
    if (depth > maxDepth) throw new Stop(at, `nested more than ${maxDepth} levels deep`);
    const isObject = text[at] === "{";
    const close = isObject ? "}" : "]";
    const open = at;
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    const keys = new Set<string>();
    for (;;) {
      if (isObject) {
        const c = text[at];
        if (c === "'") throw new Stop(at, "keys are written in double quotes in JSON, not single");
        if (c !== '"') {
          const name = word();
          if (name !== undefined)
            throw new Stop(at, `keys are written in double quotes in JSON: "${name}"`);
          if (c === undefined) throw new Stop(open, `the file ends before this { is closed`);
          throw new Stop(at, `a key in double quotes is expected here, not ${shown(at)}`);
        }
        const keyStart = at;
        string();
        const key = JSON.parse(text.slice(keyStart, at)) as string;
        if (keys.has(key))
          throw new Stop(keyStart, `the key ${JSON.stringify(key)} is given twice in this object`);
        keys.add(key);
        space();
        if (text[at] !== ":") throw new Stop(at, `a : is expected after the key, not ${shown(at)}`);
        at++;
      }
      value(depth, close);
      space();
      const c = text[at];
      if (c === close) {
        at++;
        return;
      }
      if (c === undefined)
        throw new Stop(open, `the file ends before this ${text[open]} is closed`);
      if (c !== ",") throw new Stop(at, `a , or ${close} is expected here, not ${shown(at)}`);
      const comma = at;
      at++;
      space();
      if (text[at] === close)
        throw new Stop(comma, `a comma before ${close} is not JSON; remove it`);
    }
  };

  try {
    space();
    if (at >= text.length) throw new Stop(at, "the file is empty");
    value(0, "");
    space();
    if (at < text.length)
      throw new Stop(at, "the file goes on after its JSON value ends; only one value is allowed");
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { offset: error.offset, detail: error.detail };
    throw error;
  }
}
