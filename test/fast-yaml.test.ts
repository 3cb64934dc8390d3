/**
 * The fast reading of spec files (generator/load/fast-yaml.ts) must give what the careful
 * reading (the `yaml` package's document) gives, or decline: the same plain data, and the same
 * line and column for every key, every value and every point inside a scalar. Checked on every
 * spec file of the repository, and on damaged copies of them (the loader fuzz's mutations);
 * and the files it must decline are declined.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { fastParse, resolvePlain } from "../generator/load/fast-yaml.ts";
import { LineIndex } from "../generator/load/line-index.ts";
import { plainLineEnds } from "../generator/load/spec-text.ts";
import {
  DocumentLocator,
  PositionTreeLocator,
  type DataPath,
} from "../generator/load/spec-file.ts";
import { fuzzParameters, fuzzTimeout } from "./fuzz/settings.ts";
import { applyEdit, specDamage } from "./fuzz/spec-mutations.ts";
import { repoRoot } from "./helpers.ts";

/** Every *.yaml file of the repository's specs and fixtures. */
const specTexts = ["spec", "test/fixtures"].flatMap((dir) =>
  readdirSync(join(repoRoot, dir), { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".yaml"))
    .sort()
    .map((p) => ({ name: join(dir, p), text: readFileSync(join(repoRoot, dir, p), "utf8") })),
);

/** Every path into a value: the root, each key and item, recursively. */
function pathsOf(value: unknown, path: DataPath = []): DataPath[] {
  const out: DataPath[] = [path];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...path, i])));
  else if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, k]));
  return out;
}

/** The careful reading's data, or undefined when it has errors. */
function carefully(text: string) {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length) return undefined;
  return { data: doc.toJS(), locator: new DocumentLocator(doc) };
}

/** Checks the fast reading of `text` against the careful one; returns whether it read it. */
function agrees(text: string): boolean {
  const fast = fastParse(text);
  if (!fast) return false;
  const careful = carefully(text);
  expect(careful, "the fast reading took a file the careful one refuses").toBeDefined();
  // node's deep equality, prototypes and property descriptors included: vitest's
  // toStrictEqual reads a `constructor` key of the data as the object's constructor
  expect(
    isDeepStrictEqual(fast.data, careful!.data),
    `the same data: ${JSON.stringify(fast.data).slice(0, 300)}`,
  ).toBe(true);
  const lines = new LineIndex("x.yaml", text);
  const at = (offset: number) => lines.at(offset);
  const quick = new PositionTreeLocator(fast.root);
  for (const path of pathsOf(fast.data)) {
    for (const [where, inside] of [
      ["value", 0],
      ["key", 0],
      ["value", 1],
      ["value", 3],
    ] as const) {
      const want = at(careful!.locator.offset(path, where, inside));
      const got = at(quick.offset(path, where, inside));
      expect(got, `${where} of ${JSON.stringify(path)} (+${inside})`).toEqual(want);
    }
    // a path one step past the data stops where the careful one stops
    const past = [...path, "missing"];
    expect(at(quick.offset(past, "key", 0))).toEqual(at(careful!.locator.offset(past, "key", 0)));
  }
  return true;
}

describe("the fast reading of spec files", () => {
  it.each(specTexts.map((f) => [f.name, f.text]))(
    "%s: the same data and positions, or declined",
    (_name, text) => {
      agrees(text);
    },
  );

  it("reads the spec files of a real spec (every file of spec/)", () => {
    for (const f of specTexts.filter((f) => f.name.startsWith("spec/")))
      expect(fastParse(f.text), f.name).toBeDefined();
  });

  it("declines what only the careful reading reports: anchors, aliases, tags, duplicate keys, several documents, a root that is not a mapping, syntax errors", () => {
    for (const text of [
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "a: 1\na: 2\n",
      "1005: a\n'1005': b\n",
      "a: 1\n---\nb: 2\n",
      "- 1\n- 2\n",
      "",
      "a: [1, 2\n",
      "a:\n\tb: 1\n",
    ])
      expect(fastParse(text), JSON.stringify(text)).toBeUndefined();
  });

  it("puts an empty value where the careful reading does: after its colon and any spaces (found by the fuzz)", () => {
    for (const text of [
      "a:\nb: 1\n",
      "a:   \nb: 1\n",
      "a: # c\nb: 1\n",
      "a: ",
      "x: {a: , b: 1}\n",
      '"\\"": \n',
    ])
      expect(agrees(text), JSON.stringify(text)).toBe(true);
  });

  it("reads keys that name Object's own members (`constructor`, `__proto__`) as plain keys (found by the long fuzz)", () => {
    expect(agrees("a:\n  constructor:\n    b: 1\n  __proto__: x\n  -1: 2\n  1e309: 3\n")).toBe(
      true,
    );
    const data = fastParse("constructor: {b: 1}\n__proto__: x\n")!.data;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(["constructor", "__proto__"]);
  });

  it("resolves plain scalars as the YAML 1.2 core schema does", () => {
    const table: [string, unknown][] = [
      ["", null],
      ["~", null],
      ["Null", null],
      ["TRUE", true],
      ["false", false],
      ["yes", "yes"],
      ["0o17", 15],
      ["-12", -12],
      ["0x1F", 31],
      ["1.5", 1.5],
      ["1e3", 1000],
      [".inf", Infinity],
      ["-.Inf", -Infinity],
      ["1_000", "1_000"],
      ["2024-01-01", "2024-01-01"],
      ["0b101", "0b101"],
      [".5", 0.5],
      ["+1", 1],
      ["nullish", "nullish"],
      ["a word", "a word"],
      ["Yes", "Yes"],
      ["\u00e9", "\u00e9"],
    ];
    for (const [text, want] of table) expect(resolvePlain(text), text).toStrictEqual(want);
    expect(resolvePlain(".nan")).toBeNaN();
  });

  it(
    "agrees on damaged spec files, or declines them",
    () => {
      const bases = specTexts.filter(
        (f) => f.name.startsWith("spec/") || f.name.includes("/features/"),
      );
      let read = 0;
      fc.assert(
        fc.property(fc.nat(), specDamage, (pick, damage) => {
          const base = bases[pick % bases.length]!;
          let bytes: Uint8Array = Buffer.from(base.text);
          for (const edit of damage.edits) bytes = applyEdit(bytes, edit);
          // as the loader reads it: line ends made LF first (spec-text.ts), so neither
          // reading ever sees CR, on which the two disagreed
          const text = plainLineEnds(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
          if (agrees(text)) read++;
        }),
        fuzzParameters(300, 5_000),
      );
      expect(
        read,
        "the fast reading should take most damaged files that are still YAML",
      ).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
