/**
 * Checks of a spec's `pattern`: the generated validators compile it (`patternRegExp`) and run
 * it on input from the network, so a pattern that does not compile is an error here (not a
 * SyntaxError in the user's process at the first request), and a pattern that can take
 * exponential time on a hostile string is a warning.
 */
import { patternRegExp } from "../runtime/validate.ts";

/**
 * A JavaScript regular expression's syntax error for `pattern`, or undefined when the
 * validators compile it (with the `u` flag, or else without: runtime/validate.ts).
 */
export function patternSyntaxError(pattern: string): string | undefined {
  try {
    patternRegExp(pattern);
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
  return foreignSyntax(pattern);
}

/**
 * A construct of another dialect that JavaScript would read as other characters: a POSIX
 * class of Java's (`\p{XDigit}`, `\p{Print}`, `\p{Alnum}`: no Unicode property of
 * JavaScript's) or a class intersection (`[a-z&&[^aeiou]]`), as AWS's documents write their ids
 * and names; or the start and end anchors of Python, Ruby and PCRE (`\A`, `\Z`, `\z`:
 * Django's usernames, `^[\w.@+-]+\z`, which drf-spectacular writes), read as the letters A,
 * Z and z, so that every value would have to end in a `z`. Such a pattern compiles only
 * without the `u` flag: every real value would be refused. Undefined for a pattern read as
 * written (a backslash escaped itself is no escape of what follows).
 */
function foreignSyntax(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch {
    // compiled without the flag (runtime/validate.ts): read below for what that changes
  }
  const property = /(?:^|[^\\])(?:\\\\)*(\\[pP]\{[^}]*\})/.exec(pattern)?.[1];
  if (property !== undefined)
    return `${property} is a character class of Java's dialect, which JavaScript reads as the text ${property.slice(1)}`;
  if (/\[(?:[^\]\\]|\\.)*&&\[/.test(pattern))
    return "[a&&[b]] is a class intersection of Java's dialect, which JavaScript reads as the characters & and [";
  const anchor = /(?:^|[^\\])(?:\\\\)*(\\[AZz])/.exec(pattern)?.[1];
  if (anchor !== undefined)
    return `${anchor} is an anchor of Python, Ruby and PCRE patterns, which JavaScript reads as the letter ${anchor.slice(1)}`;
  return undefined;
}

/** Whether the text at `i` is a quantifier that repeats without bound: `*`, `+`, `{n,}`. */
function unboundedQuantifierAt(pattern: string, i: number): boolean {
  const c = pattern[i];
  return c === "*" || c === "+" || (c === "{" && /^\{\d+,\}/.test(pattern.slice(i)));
}

/**
 * Whether `pattern` repeats without bound a group that itself repeats without bound, such as
 * `(a+)+` or `(\w*,?)*`: the classic shape of catastrophic backtracking. A heuristic (it
 * misses overlapping alternations such as `(a|a)*`), so it only warns.
 */
export function hasNestedQuantifier(pattern: string): boolean {
  /** Per open group: whether an unbounded quantifier was seen inside it. */
  const groups: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") groups.push(false);
    else if (c === ")") {
      const inner = groups.pop() ?? false;
      if (inner && unboundedQuantifierAt(pattern, i + 1)) return true;
      if (inner && groups.length > 0) groups[groups.length - 1] = true;
    } else if (unboundedQuantifierAt(pattern, i) && groups.length > 0)
      groups[groups.length - 1] = true;
  }
  return false;
}

/** The lengths of the strings a pattern accepts: at least `min`, at most `max` characters. */
export interface PatternLengths {
  min: number;
  max: number;
}

/** How many times a quantifier at `i` repeats its atom, and where the text after it starts. */
function quantifierAt(pattern: string, i: number): { min: number; max: number; end: number } {
  const c = pattern[i];
  const lazy = (end: number) => (pattern[end] === "?" ? end + 1 : end);
  if (c === "?") return { min: 0, max: 1, end: lazy(i + 1) };
  if (c === "*") return { min: 0, max: Infinity, end: lazy(i + 1) };
  if (c === "+") return { min: 1, max: Infinity, end: lazy(i + 1) };
  const braces = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
  if (!braces) return { min: 1, max: 1, end: i };
  const min = Number(braces[1]);
  const max = braces[2] === undefined ? min : braces[3] ? Number(braces[3]) : Infinity;
  return { min, max, end: lazy(i + braces[0].length) };
}

/**
 * The lengths of the strings `pattern` accepts: each atom (a literal, an escape, a class, `.`,
 * a group) with its quantifier, the longest and shortest of a group's alternatives; anchors,
 * `\b` and lookarounds take no characters (a lookaround only narrows what matches, so the
 * lengths stay true bounds). A pattern whose every top-level alternative is anchored at both
 * ends (`^...$`) accepts strings of those lengths, any other any longer string around a match.
 * Undefined for what this does not work out (a backreference, `\p`, a malformed pattern).
 * What the schema checks catch with it: `^[a-z0-9]$` beside `minLength: 32` (PeerTube),
 * `^0x([A-Fa-f0-9]{64})$` beside `maxLength: 64` (Hyperledger Cactus's transaction hash), a
 * pattern that no string of the allowed lengths matches.
 */
export function patternLengths(pattern: string): PatternLengths | undefined {
  const reader = new LengthReader(pattern);
  const whole = reader.alternatives(true);
  if (whole === undefined || reader.at !== pattern.length) return undefined;
  return whole.anchored ? { min: whole.min, max: whole.max } : { min: whole.min, max: Infinity };
}

/** Lengths of a sequence or a group, and (at the top level) whether it is anchored at both ends. */
interface Span extends PatternLengths {
  anchored: boolean;
}

const zeroWidth: Span = { min: 0, max: 0, anchored: false };
const oneCharacter: Span = { min: 1, max: 1, anchored: false };

/** A pattern read left to right, as JavaScript reads it without the `u` flag (the validators' reading). */
class LengthReader {
  at = 0;
  constructor(private readonly pattern: string) {}

  /** Alternatives up to a `)` or the end: the shortest and longest; anchored if each one is. */
  alternatives(top: boolean): Span | undefined {
    let out: Span | undefined;
    for (;;) {
      const one = this.sequence(top);
      if (one === undefined) return undefined;
      out = out
        ? {
            min: Math.min(out.min, one.min),
            max: Math.max(out.max, one.max),
            anchored: out.anchored && one.anchored,
          }
        : one;
      if (this.pattern[this.at] !== "|") return out;
      this.at++;
    }
  }

  /** Atoms with their quantifiers up to a `|`, a `)` or the end. */
  private sequence(top: boolean): Span | undefined {
    const startsAnchored = this.pattern[this.at] === "^";
    let min = 0;
    let max = 0;
    let endsAnchored = false;
    while (this.at < this.pattern.length && !"|)".includes(this.pattern[this.at]!)) {
      const dollar = this.pattern[this.at] === "$";
      const assertion = /^(?:[$^]|\\[bB])/.test(this.pattern.slice(this.at, this.at + 2));
      const atom = this.atom();
      if (atom === undefined) return undefined;
      const times = quantifierAt(this.pattern, this.at);
      // an anchor repeated is no JavaScript regular expression (`^*`: nothing to repeat)
      if (times.end > this.pattern.length || (assertion && times.end !== this.at)) return undefined;
      endsAnchored = dollar && times.end === this.at;
      this.at = times.end;
      min += atom.min * times.min;
      max += atom.max === 0 || times.max === 0 ? 0 : atom.max * times.max;
    }
    return { min, max, anchored: top && startsAnchored && endsAnchored };
  }

  /** One atom's lengths, the reader past it; undefined for what is not worked out. */
  private atom(): Span | undefined {
    const rest = this.pattern.slice(this.at);
    const c = rest[0]!;
    if (c === "^" || c === "$") {
      this.at++;
      return zeroWidth;
    }
    if (c === "(") return this.group(rest);
    if (c === "*" || c === "+" || c === "?") return undefined; // nothing to repeat
    if (c === "[") {
      // as JavaScript reads a class: `[]` is an empty one, `]` right after `[` closes it
      const close = /^\[\^?(?:\\.|[^\]\\])*\]/s.exec(rest);
      if (!close) return undefined;
      this.at += close[0].length;
      return oneCharacter;
    }
    if (c === "\\") {
      const escape = rest[1];
      if (escape === undefined || /[kp1-9]/i.test(escape)) return undefined;
      if (escape === "b" || escape === "B") {
        this.at += 2;
        return zeroWidth;
      }
      // without the u flag `\u{4}` is `u` four times
      const long = /^\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z])/.exec(rest);
      this.at += long ? long[0].length : 2;
      return oneCharacter;
    }
    this.at++;
    return oneCharacter;
  }

  /** A group: capturing, `(?:`, named, or a lookaround (which takes no characters). */
  private group(rest: string): Span | undefined {
    const head = /^\((\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>))?/.exec(rest)!;
    if (rest[1] === "?" && head[1] === undefined) return undefined;
    this.at += head[0].length;
    const inner = this.alternatives(false);
    if (inner === undefined || this.pattern[this.at] !== ")") return undefined;
    this.at++;
    const lookaround = head[1] !== undefined && /[=!]$/.test(head[1]);
    return lookaround ? zeroWidth : { ...inner, anchored: false };
  }
}

/**
 * Why no string of `minLength` to `maxLength` characters matches `pattern`, or undefined
 * when one may (or the pattern is one patternLengths does not work out).
 */
export function patternLengthConflict(
  pattern: string,
  minLength: number | undefined,
  maxLength: number | undefined,
): string | undefined {
  const lengths = patternLengths(pattern);
  if (lengths === undefined) return undefined;
  const counted = (n: number) => `${n} character${n === 1 ? "" : "s"}`;
  const matches =
    lengths.max === Infinity
      ? `at least ${counted(lengths.min)}`
      : lengths.min === lengths.max
        ? `exactly ${counted(lengths.min)}`
        : `${lengths.min} to ${counted(lengths.max)}`;
  if (minLength !== undefined && lengths.max < minLength)
    return `pattern ${pattern} matches strings of ${matches}, and minLength is ${minLength}`;
  if (maxLength !== undefined && lengths.min > maxLength)
    return `pattern ${pattern} matches strings of ${matches}, and maxLength is ${maxLength}`;
  return undefined;
}
