/**
 * The checks of a spec's `pattern`: syntax errors as the validators' `new RegExp` would see
 * them, and the nested-repetition shape of catastrophic backtracking.
 */
import { describe, expect, it } from "vitest";
import { hasNestedQuantifier, patternSyntaxError } from "../generator/ir/check-pattern.ts";

describe("patternSyntaxError", () => {
  it.each([
    ["^[^-]{4}-[^-]{4}-[^-]{4}$", undefined],
    ["^(a", "Unterminated group"],
    ["[z-a]", "Range out of order in character class"],
    ["a**", "Nothing to repeat"],
  ])("%s -> %s", (pattern, want) => {
    expect(patternSyntaxError(pattern)).toBe(want);
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
