/**
 * json-position.ts: where the value at a JSON pointer starts in a JSON text, found by one scan
 * (the importer's diagnostics in JSON documents are located with it). Unit table, then a
 * document whose pointer runs 300 levels deep above 16 MB of text: a scan that skipped the
 * value it found at each level (to find a repeated key after it) read the 16 MB 300 times.
 */
import { describe, expect, it } from "vitest";
import { jsonOffset, JsonOffsets } from "../generator/import/json-position.ts";

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

describe("JsonOffsets", () => {
  it("finds what jsonOffset finds, for every pointer into a document", () => {
    const doc = {
      a: { b: [1, { c: '}]"', d: [[], {}] }, "x".repeat(3000)], e: { f: { g: null } } },
      "h/i": [{ j: [{ k: 1 }, { k: 2 }] }, "y".repeat(2000)],
      l: true,
    };
    const text = JSON.stringify(doc, null, 1);
    const pointers: string[][] = [];
    const walk = (value: unknown, tokens: string[]) => {
      pointers.push(tokens, [...tokens, "absent"]);
      if (value && typeof value === "object")
        for (const [key, child] of Object.entries(value)) walk(child, [...tokens, key]);
    };
    walk(doc, []);
    // deepest first, then shallowest first: the ends kept by one order serve the other
    const offsets = new JsonOffsets(text);
    for (const tokens of [...pointers].reverse().concat(pointers))
      expect(offsets.offset(tokens)).toBe(jsonOffset(text, tokens));
  });

  it("reads the text under a 300-level pointer once, not once a level", () => {
    // each level: {"p": <the level below>, "z": 1}; "z" is looked up at every level, which
    // skips the level below whole: 300 times 16 MB when each skip read it again
    const depth = 300;
    const big = `"${"x".repeat(16 * 1024 * 1024)}"`;
    const doc = `${'{"p": '.repeat(depth)}${big}${', "z": 1}'.repeat(depth)}`;
    const offsets = new JsonOffsets(doc);
    const started = performance.now();
    for (let level = 0; level < depth; level++) {
      const tokens = [...Array(level).fill("p"), "z"];
      expect(doc.slice(offsets.offset(tokens))).toMatch(/^1\}/);
    }
    // One scan is some 20 ms; one a level took about 300 times that. A bound, not a benchmark.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
