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
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
  }
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
 * The lengths of the strings `pattern` accepts, for a pattern of single characters (literals,
 * escapes, classes, `.`) each with its quantifier: a pattern not anchored at both ends accepts
 * any longer string around a match. Undefined for one with groups, alternatives or assertions,
 * which this does not work out. What the schema checks catch with it: `^[a-z0-9]$` beside
 * `minLength: 32` (PeerTube), a pattern that no string of the allowed lengths matches.
 */
export function patternLengths(pattern: string): PatternLengths | undefined {
  const start = pattern.startsWith("^") ? 1 : 0;
  const anchoredEnd = pattern.endsWith("$") && !pattern.endsWith("\\$");
  const end = anchoredEnd ? pattern.length - 1 : pattern.length;
  let min = 0;
  let max = 0;
  for (let i = start; i < end; ) {
    const c = pattern[i]!;
    let next: number;
    if (c === "(" || c === ")" || c === "|" || c === "^" || c === "$") return undefined;
    if (c === "[") {
      // as JavaScript reads a class: `[]` is an empty one, `]` right after `[` closes it
      const close = /^\[\^?(?:\\.|[^\]\\])*\]/s.exec(pattern.slice(i));
      if (!close) return undefined;
      next = i + close[0].length;
    } else if (c === "\\") {
      const escape = pattern[i + 1];
      if (escape === undefined || /[bBkp1-9]/i.test(escape)) return undefined;
      // as the validators read it, without the u flag: `\u{4}` is `u` four times
      const long = /^\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z])/.exec(pattern.slice(i));
      next = i + (long ? long[0].length : 2);
    } else next = i + 1;
    const times = quantifierAt(pattern, next);
    if (times.end > end) return undefined;
    min += times.min;
    max += times.max;
    i = times.end;
  }
  return start === 1 && anchoredEnd ? { min, max } : { min, max: Infinity };
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
