/**
 * The checks of a spec's `pattern`: syntax errors as the validators' `new RegExp` would see
 * them, the nested-repetition shape of catastrophic backtracking, and the lengths of the
 * strings a pattern accepts (to tell a pattern that no string of its type's lengths matches).
 */
import { describe, expect, it } from "vitest";
import {
  hasNestedQuantifier,
  patternLengthConflict,
  patternLengths,
  patternSyntaxError,
} from "../generator/ir/check-pattern.ts";

describe("patternSyntaxError", () => {
  it.each([
    ["^[^-]{4}-[^-]{4}-[^-]{4}$", undefined],
    ["^(a", "Unterminated group"],
    ["[z-a]", "Range out of order in character class"],
    ["a**", "Nothing to repeat"],
    // other dialects' constructs, which JavaScript would read as other characters
    ["^\\p{XDigit}+$", expect.stringContaining("\\p{XDigit} is a character class of Java's")],
    ["^[a-z&&[^aeiou]]$", expect.stringContaining("class intersection of Java's dialect")],
    ["\\A[a-z]+\\Z", expect.stringContaining("\\A is an anchor of Python, Ruby and PCRE")],
    ["^[\\w.@+-]+\\z", expect.stringContaining("reads as the letter z")],
    // as written: a letter after an escaped backslash, and JavaScript's own property classes
    ["^a\\\\z$", undefined],
    ["^\\p{L}+$", undefined],
    ["^\\_\\-$", undefined],
  ])("%s -> %s", (pattern, want) => {
    expect(patternSyntaxError(pattern)).toEqual(want);
  });
});

describe("hasNestedQuantifier", () => {
  it.each([
    ["^(a+)+$", true],
    ["^(\\w*,?)*$", true],
    ["^((ab)+c)*$", true],
    ["^(a{2,})+$", true],
    ["^([a-z0-9]+-?)+$", true],
    ["^(a+)?$", false],
    ["^(a+){1,3}$", false],
    ["^(ab)+$", false],
    ["^[(a+)+]$", false],
    ["^\\(a+\\)+$", false],
    ["^[^-]{4}-[^-]{4}-[^-]{4}$", false],
    ["^MockService", false],
  ])("%s -> %s", (pattern, want) => {
    expect(hasNestedQuantifier(pattern)).toBe(want);
  });
});

describe("patternLengths", () => {
  const any = Infinity;
  it.each([
    ["^[a-z0-9]$", { min: 1, max: 1 }],
    ["^[a-z0-9]+$", { min: 1, max: any }],
    ["^[A-Z]{2}[0-9]{2,4}$", { min: 4, max: 6 }],
    ["^\\d{3}-\\d{4}$", { min: 8, max: 8 }],
    ["^a?b*c{2,}$", { min: 2, max: any }],
    ["^[0-9]{3}?$", { min: 3, max: 3 }],
    ["^\\u00e9\\x41\\cA.$", { min: 4, max: 4 }],
    // without the u flag (the validators' reading) `\u{3}` is `u` three times
    ["^\\u{3}$", { min: 3, max: 3 }],
    ["^[\\]a-]{2}$", { min: 2, max: 2 }],
    // JavaScript's reading: an empty class `[]`, then `a` and `]`
    ["^[]a]$", { min: 3, max: 3 }],
    // not anchored at both ends: any longer string around a match
    ["[A-Z]{4}", { min: 4, max: any }],
    ["^[A-Z]{4}", { min: 4, max: any }],
    ["[A-Z]{4}$", { min: 4, max: any }],
    ["^$", { min: 0, max: 0 }],
    // groups with their quantifiers, the shortest and longest alternative
    ["^(ab)+$", { min: 2, max: any }],
    ["^0x([A-Fa-f0-9]{64})$", { min: 66, max: 66 }],
    ["^(?:a|bcd){2}$", { min: 2, max: 6 }],
    ["^(?<year>\\d{4})-(\\d{2}|W\\d{2})$", { min: 7, max: 8 }],
    ["^(a(b(c)?)?)$", { min: 1, max: 3 }],
    ["^(ab)*x$", { min: 1, max: any }],
    ["^()$", { min: 0, max: 0 }],
    // anchored at both ends only when every top-level alternative is
    ["^a$|^bc$", { min: 1, max: 2 }],
    ["^a|b$", { min: 1, max: any }],
    ["^(a|b)$", { min: 1, max: 1 }],
    // anchors, \b and lookarounds take no characters
    ["^\\bword\\b$", { min: 4, max: 4 }],
    ["^(?=a)a(?!b)(?<=a)(?<!c)$", { min: 1, max: 1 }],
    // backreferences, \p, and what does not parse: not worked out
    ["^(a)\\1$", undefined],
    ["^\\p{L}$", undefined],
    ["^(ab$", undefined],
    ["^ab)$", undefined],
    ["^(?x)$", undefined],
    ["^*a$", undefined],
  ])("%s -> %o", (pattern, want) => {
    expect(patternLengths(pattern)).toEqual(want);
  });
});

describe("patternLengthConflict", () => {
  it.each([
    [
      "^[a-z0-9]$",
      32,
      32,
      "pattern ^[a-z0-9]$ matches strings of exactly 1 character, and minLength is 32",
    ],
    ["^[a-z0-9]+$", 32, 32, undefined],
    [
      "[A-Z]{4}",
      undefined,
      3,
      "pattern [A-Z]{4} matches strings of at least 4 characters, and maxLength is 3",
    ],
    [
      "^[0-9]{2,3}$",
      4,
      undefined,
      "pattern ^[0-9]{2,3}$ matches strings of 2 to 3 characters, and minLength is 4",
    ],
    ["^[0-9]{2,3}$", 3, 3, undefined],
    [
      "^0x([A-Fa-f0-9]{64})$",
      64,
      64,
      "pattern ^0x([A-Fa-f0-9]{64})$ matches strings of exactly 66 characters, and maxLength is 64",
    ],
    ["^(ab){2,}$", 1, 4, undefined],
    ["^(a|b)\\1$", 9, 9, undefined],
    ["^[a-z]$", undefined, undefined, undefined],
  ])("%s, lengths %s to %s -> %s", (pattern, min, max, want) => {
    expect(patternLengthConflict(pattern, min, max)).toBe(want);
  });
});
