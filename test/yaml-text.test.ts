/**
 * generator/emit/openapi/yaml-text.ts writes `openapi.yaml`, and the spec folder `apigen import`
 * writes (with short collections on one line), without the yaml library's node tree and must
 * give the library's bytes: compared here on the Merchant document, on every awkward string we
 * could think of (quoting, block scalars, document markers, numbers that look like strings,
 * long keys, flow indicators) in every position, and on random documents built from them.
 */
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { DiagnosticBag } from "../generator/diagnostics/diagnostic.ts";
import { buildOpenApiDocument } from "../generator/emit/openapi/document.ts";
import type { Json } from "../generator/emit/openapi/json.ts";
import { flowYamlText, yamlOptions, yamlText } from "../generator/emit/openapi/yaml-text.ts";
import { libraryText, onOneLine, specFileText } from "../generator/import/write-spec.ts";
import { buildModel } from "../generator/ir/build-ir.ts";
import { loadSpec } from "../generator/load/load-spec.ts";

const library = (value: unknown) => YAML.stringify(value, yamlOptions);

const awkward = [
  "",
  " ",
  "a",
  "a b",
  "a: b",
  "a:b",
  "- x",
  "-",
  "?",
  "? x",
  "#x",
  "a #b",
  "a#b",
  "true",
  "True",
  "null",
  "~",
  "NULL",
  "1",
  "01",
  "0x1F",
  "0o7",
  "1.5",
  "1e3",
  ".inf",
  "-.Inf",
  ".nan",
  "%x",
  "---",
  "...",
  "--- x",
  "a\nb",
  "a\n\nb",
  "a\n",
  "a\n\n",
  "\na",
  " a",
  "a ",
  "a\n b",
  "a \nb",
  "a\t",
  "\t",
  "'",
  '"',
  `'"`,
  "it's",
  'say "hi"',
  "x\u0001y",
  "é",
  "\u2028",
  "[a]",
  "{a}",
  "a,b",
  "*a",
  "&a",
  "!t",
  "|",
  ">",
  "@",
  "`",
  "a\n  b\n",
  "x".repeat(1030),
  "a\n\n\n",
  "\n",
  "\n\n",
  "a\u00a0b",
  "%",
  "a\r\nb",
  "=",
  "<<",
  "$ref",
  "/v1/{id}",
  "application/json",
  "#/components/schemas/A",
  // a string that needs double quotes, long enough for the library's multi-line form, with a
  // line of one space: written `\\ `, it read back as a backslash (the texts fuzz run)
  `${"x".repeat(50)}\u0001\n \nb`,
  `\ud800${"x".repeat(50)}\n\n \n\nb`,
];

/** A deterministic pseudo-random generator, so a failure reproduces. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

/** A random JSON value from the awkward strings, numbers, booleans and nulls, nested up to 5 deep. */
function randomValue(pick: (n: number) => number, depth = 0): Json {
  const roll = pick(10);
  const word = () =>
    awkward[pick(awkward.length)]! + (pick(3) ? "" : awkward[pick(awkward.length)]!);
  if (depth > 4 || roll < 4) {
    const k = pick(6);
    return k === 0
      ? null
      : k === 1
        ? pick(2) === 0
        : k === 2
          ? [0, -1, 1.5, 1e21, -0, 1e-7, 42][pick(7)]!
          : word();
  }
  if (roll < 7) return Array.from({ length: pick(4) }, () => randomValue(pick, depth + 1));
  const object: Record<string, Json> = {};
  for (let i = pick(4); i > 0; i--) object[word()] = randomValue(pick, depth + 1);
  return object;
}

describe("yamlText", () => {
  it("writes the Merchant OpenAPI document as the yaml library does", () => {
    const model = buildModel(loadSpec("spec", new DiagnosticBag()).files, new DiagnosticBag());
    const document = buildOpenApiDocument(model);
    expect(yamlText(document)).toBe(library(document));
    expect(yamlText(document, "# a comment\n")).toBe(`# a comment\n${library(document)}`);
  });

  it("writes every awkward string as a key, a value and a list item at several depths", () => {
    for (const s of awkward) {
      for (const value of [
        { [s]: s },
        [s, [s], { a: [s] }],
        { x: { y: [{ [s]: { z: s } }] } },
        [[[s]]],
        { [s]: [] },
        { [s]: {} },
      ]) {
        expect(yamlText(value), JSON.stringify(value)).toBe(library(value));
      }
    }
  });

  it("writes every awkward string so that it reads back as it was", () => {
    for (const s of awkward) {
      const value = { [s]: [s, { a: s }] };
      expect(YAML.parse(yamlText(value)), JSON.stringify(value)).toEqual(value);
    }
  });

  it("writes a document of many thousand parts, gathered in chunks, as the yaml library does", () => {
    const pick = random(11);
    const value = {
      paths: Object.fromEntries(
        Array.from({ length: 3000 }, (_, i) => [`/p${i}`, [randomValue(pick), { [`k${i}`]: i }]]),
      ),
      list: Array.from({ length: 5000 }, (_, i) => awkward[i % awkward.length]!),
    };
    expect(yamlText(value)).toBe(library(value));
  });

  it("writes random documents as the yaml library does", () => {
    const pick = random(7);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(pick);
      expect(yamlText(value), JSON.stringify(value)).toBe(library(value));
    }
  });
});

describe("specFileText (collections on one line)", () => {
  const header = "# yaml-language-server: $schema=x.json\n\n";
  /** The library's text of a spec file: a Document of it, short collections marked flow. */
  const spec = (value: Json) => `${header}${libraryText(value)}`;
  /** `value` as a field of a type, where mappings may go on one line. */
  const asField = (value: Json) => ({ types: { Thing: { fields: { a: value } } } });

  it("writes every awkward string inside collections on one line, as keys and values", () => {
    for (const s of awkward) {
      for (const value of [
        asField({ type: s, description: s }),
        asField({ [s]: s, enum: [s, s] }),
        asField([s, 1, null, true]),
        asField({ type: "string", enum: [s], default: { [s]: [s] } }),
        { endpoints: { x: { auth: [s], response: { status: 200, body: s } } } },
        { endpoints: { x: { errors: [{ status: 404, description: s }] } } },
      ]) {
        expect(specFileText(value, "x.json"), JSON.stringify(value)).toBe(spec(value));
      }
    }
  });

  it("keeps sections, their entries and mappings of names on lines of their own", () => {
    const value = {
      api: { name: "a", version: "1" },
      types: { T: { fields: { id: { type: "string", required: true } } } },
      endpoints: { "t.get": { params: { id: "string" }, response: { status: 200, body: "T" } } },
    };
    const text = specFileText(value, "x.json");
    expect(text).toBe(spec(value));
    expect(text).toContain("\n      id: { type: string, required: true }\n");
    expect(text).toContain("\n    response: { status: 200, body: T }\n");
    expect(text).toContain("\n    params:\n      id: string\n");
    // written by the fast path, not the library it falls back to
    const refuse = () => {
      throw new Error("the library was asked");
    };
    expect(flowYamlText(value, header, onOneLine, refuse)).toBe(text);
  });

  it("writes random documents as the library does, at every depth a collection may go on one line", () => {
    const pick = random(5);
    for (let i = 0; i < 3000; i++) {
      const value = asField(randomValue(pick));
      expect(specFileText(value, "x.json"), JSON.stringify(value)).toBe(spec(value));
    }
  });

  it("leaves to the library what the fast path does not write: a list holding undefined", () => {
    const value = { a: [1, undefined, 2] } as unknown as Json;
    const library = (v: Json) => `library:${JSON.stringify(v)}`;
    expect(flowYamlText(value, "", () => false, library)).toBe('library:{"a":[1,null,2]}');
  });
});
