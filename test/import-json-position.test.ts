/**
 * json-position.ts: where the value at a JSON pointer starts in a JSON text, found by one scan
 * (the importer's diagnostics in JSON documents are located with it). Unit table, then a
 * document whose pointer runs 300 levels deep above 16 MB of text: a scan that skipped the
 * value it found at each level (to find a repeated key after it) read the 16 MB 300 times.
 */
import { describe, expect, it } from "vitest";
import { jsonOffset } from "../generator/import/json-position.ts";

describe("jsonOffset", () => {
  const text =
    '{ "a": { "b~c": [10, { "x": "}]\\"" , "y" : [ ] }, 3 ], "d/e": 1 }, "\\u0066": true }';
  const cases: [string[], string][] = [
    [[], '{ "a"'],
    [["a"], '{ "b~c"'],
    [["a", "b~c"], "[10,"],
    [["a", "b~c", "0"], "10,"],
    [["a", "b~c", "1", "x"], '"}]\\""'],
    [["a", "b~c", "1", "y"], "[ ] }"],
    [["a", "b~c", "2"], "3 ]"],
    [["a", "d/e"], "1 }"],
    [["f"], "true"],
    // Not there: the nearest value on the way.
    [["a", "b~c", "3"], "[10,"],
    [["a", "b~c", "01"], "[10,"],
    [["a", "zz"], '{ "b~c"'],
    [["a", "d/e", "deeper"], "1 }"],
  ];
  for (const [tokens, startsWith] of cases)
    it(`finds /${tokens.join("/")}`, () => {
      expect(text.slice(jsonOffset(text, tokens)).startsWith(startsWith)).toBe(true);
    });

  it("takes the first of a repeated key", () => {
    const repeated = '{"a": 1, "a": 2}';
    expect(repeated.slice(jsonOffset(repeated, ["a"]))).toBe('1, "a": 2}');
  });

  it("scans 16 MB below a 300-level pointer once, not once a level", () => {
    const depth = 300;
    const big = `"${"x".repeat(16 * 1024 * 1024)}"`;
    const doc = `${'{"p": '.repeat(depth)}{"q": ${big}, "end": 1}${"}".repeat(depth)}`;
    const tokens = [...Array(depth).fill("p"), "end"];
    const started = performance.now();
    expect(doc.slice(jsonOffset(doc, tokens))).toMatch(/^1\}/);
    // One scan is some 20 ms; one a level took about 300 times that. A bound, not a benchmark.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
