/**
 * The config file's JSON (generator/commands/config-json.ts, through loadConfig): every way it
 * is not JSON is reported at its own line and column in words of our own, never Node's parser
 * text (issue 30 item 14: a trailing comma was put at the `}` after it, a `//` comment at its
 * second slash). A property holds the reader to JSON.parse: it finds a problem exactly when
 * JSON.parse throws (or a key is given twice), and the problem is inside the text.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { jsonProblem } from "../generator/commands/config-json.ts";
import { loadConfig } from "../generator/commands/config.ts";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { displayPath } from "../generator/diagnostics/display-path.ts";
import { formatDiagnostics } from "../generator/diagnostics/format.ts";
import { fuzzParameters } from "./fuzz/settings.ts";
import { tempDir } from "./helpers.ts";

const dir = tempDir("apigen-config-json-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** loadConfig's diagnostics for a config file holding `text`, printed with their code frames. */
async function problemsOf(text: string): Promise<string> {
  const file = join(dir, "apigen.config.json");
  writeFileSync(file, text);
  const texts = new Map<string, string>();
  try {
    await loadConfig(file, texts);
  } catch (error) {
    if (error instanceof DiagnosticsError)
      return formatDiagnostics(error.diagnostics, texts).replaceAll(`${displayPath(dir)}/`, "");
    throw error;
  }
  return "";
}

describe("the config file's JSON", () => {
  // given the text, want line:col and the detail after "the config file is not JSON: "
  const table: [string, string, string][] = [
    [
      '{\n  "spec": "api",\n  "out": "pkg",\n}\n',
      "3:15",
      "a comma before } is not JSON; remove it",
    ],
    [
      '{\n  // where the spec is\n  "spec": "api"\n}\n',
      "2:3",
      "comments are not JSON; remove this one",
    ],
    [
      '{\n  "spec": "api", // the spec\n  "out": "pkg"\n}\n',
      "2:18",
      "comments are not JSON; remove this one",
    ],
    ['{ "spec": "api" /* the spec */ }', "1:17", "comments are not JSON; remove this one"],
    ['{ "dirs": ["a", "b",] }', "1:20", "a comma before ] is not JSON; remove it"],
    ['{ spec: "api" }', "1:3", 'keys are written in double quotes in JSON: "spec"'],
    ["{ 'spec': \"api\" }", "1:3", "keys are written in double quotes in JSON, not single"],
    ["{ \"spec\": 'api' }", "1:11", "strings are written in double quotes in JSON, not single"],
    ['{ "spec": api }', "1:11", "api is not a JSON value; a string is written in double quotes"],
    ['{ "spec" "api" }', "1:10", 'a : is expected after the key, not "'],
    ['{ "spec": "api" "out": "pkg" }', "1:17", 'a , or } is expected here, not "'],
    ['{ "spec": "api\n" }', "1:11", "this string has no closing double quote on its line"],
    ['{ "spec": "a\\qb" }', "1:13", "\\q is not an escape JSON knows"],
    ['{ "spec": "a\tb" }', "1:13", "U+0009 inside a string is not JSON; write it as an escape"],
    ['{\n  "spec": "api"\n', "1:1", "the file ends before this { is closed"],
    [
      '{ "spec": "api" }\n{}',
      "2:1",
      "the file goes on after its JSON value ends; only one value is allowed",
    ],
    ["", "1:1", "the file is empty"],
    ["  \n", "2:1", "the file is empty"],
    ['{ "spec": , "out": "x" }', "1:11", "a value is expected before this ,"],
    ['{ "spec": "a", "spec": "b" }', "1:16", 'the key "spec" is given twice in this object'],
    ['{ "n": 01 }', "1:9", "a , or } is expected here, not 1"],
    ['{ "n": NaN }', "1:8", "NaN is not a JSON value; a string is written in double quotes"],
    ["# a comment\n{}", "1:1", "comments are not JSON; remove this one"],
  ];

  it.each(table)("%j is reported at %s: %s", async (text, place, detail) => {
    const printed = await problemsOf(text);
    expect(printed).toMatch(/^apigen\.config\.json:\d+:\d+ - error config-syntax: /);
    expect(printed.split("\n")[0]).toBe(
      `apigen.config.json:${place} - error config-syntax: the config file is not JSON: ${detail}`,
    );
    // never Node's own parser text
    expect(printed).not.toMatch(/Unexpected token|in JSON at position|SyntaxError/);
  });

  it("shows a trailing comma in its code frame, with the caret under it", async () => {
    const printed = await problemsOf('{\n  "spec": "api",\n  "out": "pkg",\n}\n');
    expect(printed).toBe(
      [
        "apigen.config.json:3:15 - error config-syntax: the config file is not JSON: a comma before } is not JSON; remove it",
        '  2 |   "spec": "api",',
        '> 3 |   "out": "pkg",',
        "    |               ^",
        "",
        "1 error",
      ].join("\n"),
    );
  });

  it("reads a file with a byte order mark and CRLF line ends", async () => {
    expect(await problemsOf('\uFEFF{\r\n  "spec": "api"\r\n}\r\n')).toBe("");
  });

  it("finds a problem exactly when JSON.parse throws or a key is given twice, inside the text", () => {
    const mutated = fc
      .tuple(
        fc.json(),
        fc.array(
          fc.tuple(
            fc.nat(),
            fc.constantFrom(
              ",",
              "//",
              "/*",
              "'",
              '"',
              "}",
              "]",
              "{",
              "[",
              ":",
              "\\",
              "\n",
              "x",
              "",
            ),
            fc.nat({ max: 2 }),
          ),
          { maxLength: 3 },
        ),
      )
      .map(([json, edits]) =>
        edits.reduce((text, [at, insert, cut]) => {
          const i = at % (text.length + 1);
          return text.slice(0, i) + insert + text.slice(i + cut);
        }, json),
      );
    fc.assert(
      fc.property(fc.oneof(fc.json(), mutated), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const problem = jsonProblem(text);
        if (problem === undefined) expect(parses, text).toBe(true);
        else {
          expect(parses && !/given twice/.test(problem.detail), text).toBe(false);
          expect(problem.offset).toBeGreaterThanOrEqual(0);
          expect(problem.offset).toBeLessThanOrEqual(text.length);
        }
      }),
      fuzzParameters(2_000, 20_000),
    );
  });
});
