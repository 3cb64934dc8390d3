/**
 * Where the OpenAPI front end places a note in a YAML document (generator/import/
 * document-files.ts, `TextPositions`): from the fast reading's position tree (load/
 * fast-yaml.ts) wherever that reads the text, which must name the same line and column as
 * the `yaml` package's document, which it used before and still uses where the fast reading
 * declines. Checked at every pointer of the Merchant package's openapi.yaml and of a document
 * written to hold what YAML can spell differently.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";
import { childPointer, parseText, TextPositions } from "../generator/import/document-files.ts";
import { LineIndex } from "../generator/load/line-index.ts";
import { repoRoot } from "./helpers.ts";

/** Every pointer of a parsed value, the root's included. */
function pointersOf(value: unknown, pointer = "#"): string[] {
  if (value === null || typeof value !== "object") return [pointer];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [
    pointer,
    ...keys.flatMap((key) =>
      pointersOf((value as Record<string, unknown>)[key], childPointer(pointer, key)),
    ),
  ];
}

/** The `yaml` package's places for pointers into `text`, as the front end found them before. */
function carefulPositions(text: string): (pointer: string) => { line: number; col: number } {
  const root = parseDocument(text, { uniqueKeys: false }).contents as Node | null | undefined;
  const lines = new LineIndex("", text);
  return (pointer) => {
    let node = root;
    let found = node;
    const tokens = pointer === "#" ? [] : pointer.slice(2).split("/");
    for (const raw of tokens) {
      const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      if (isMap(node)) {
        const pair = node.items.findLast((p) => isScalar(p.key) && String(p.key.value) === token);
        node = (pair?.value as Node | null | undefined) ?? (pair?.key as Node | undefined);
      } else if (isSeq(node)) node = node.items[Number(token)] as Node | undefined;
      else node = undefined;
      if (!node) break;
      found = node;
    }
    const { line, col } = lines.at(found?.range?.[0] ?? 0);
    return { line, col };
  };
}

const spelled = [
  "openapi: 3.1.0",
  "info: { title: 'Spelled', version: \"1.0\" }",
  "paths:",
  "  /a/{id}:",
  "    get:",
  "      description: |",
  "        A block scalar",
  "        over two lines.",
  "      summary: >-",
  "        folded",
  "      parameters:",
  "        - { name: id, in: path, required: true, schema: { type: string } }",
  "        -   name: q",
  "            in: query",
  "            schema:",
  "              type: [string, 'null']",
  "      responses:",
  "        200:",
  "          description:",
  '        "404": { description: "quoted key" }',
  "        default:",
  "          description: ~",
  "components:",
  "  schemas:",
  "    a/b~c: { type: object, properties: { 'x y': { type: integer } } }",
  "    Empty: {}",
  "    List: []",
  "",
].join("\n");

describe("a note's place in a YAML document", () => {
  it.each([
    [
      "the Merchant package's openapi.yaml",
      readFileSync(join(repoRoot, "generated/openapi.yaml"), "utf8"),
    ],
    [
      "a document of block scalars, flow collections, quoted and numeric keys, empty values",
      spelled,
    ],
  ])("is the yaml package's at every pointer of %s", (_, text) => {
    const { value, json } = parseText("doc.yaml", "doc.yaml", text);
    expect(json).toBe(false);
    expect(value).toEqual(parseDocument(text).toJS());
    const positions = new TextPositions(text, false);
    const carefulPosition = carefulPositions(text);
    const pointers = pointersOf(value);
    expect(pointers.length).toBeGreaterThan(20);
    const differing = pointers.filter(
      (pointer) =>
        JSON.stringify(positions.of(pointer)) !== JSON.stringify(carefulPosition(pointer)),
    );
    expect(differing).toEqual([]);
  });
});
