/**
 * The loader's handling of text a spec author (or a fuzzer) may hand it: positions after
 * multi-line scalars, a byte order mark, CRLF line ends, keys that collide only as JavaScript
 * keys. Each case is a minimal failing case the loader fuzz test found or the issue named.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { parseSpecFile } from "../generator/load/load-spec.ts";
import { formatDiagnostics, maxPrinted } from "../generator/diagnostics/format.ts";
import { diagnosticsOf, runCli, tempDir } from "./helpers.ts";

/** Parses `text` as spec file `t.yaml`; its diagnostics as printed, without code frames. */
function parse(text: string | Uint8Array): { data: unknown; problems: string[] } {
  const bag = new DiagnosticBag();
  const { file } = parseSpecFile(
    "t.yaml",
    typeof text === "string" ? new TextEncoder().encode(text) : text,
    bag,
  );
  return { data: file?.data, problems: bag.items.map((d) => formatDiagnostic(d, new Map())) };
}

describe("the loader", () => {
  it("puts problems after a multi-line plain scalar on their own line (the yaml package's LineCounter did not)", () => {
    // Found by the loader fuzz test: a file indented by mistake, then a value that runs on.
    const text = [
      "   types:",
      "  CartItem:",
      "    fields:",
      "      sku: string",
      "           price: Money",
      "      cart: Cart",
      "",
    ].join("\n");
    const problems = parse(text).problems;
    const lineOf = (token: string) =>
      1 + text.split("\n").findIndex((line) => line.includes(token));
    const cart = problems.find((p) => p.includes('"cart"'));
    expect(cart).toMatch(new RegExp(`^t\\.yaml:${lineOf("cart:")}:7 `));
    const money = problems.find((p) => p.includes('"Money"'));
    expect(money).toMatch(new RegExp(`^t\\.yaml:${lineOf("price:")}:19 `));
  });

  it("reads a file with a byte order mark and CRLF line ends as the same data", () => {
    const lf = "api:\n  name: x\n  title: X\n  version: 0.1.0\n";
    const bom = Uint8Array.from([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode(lf.replaceAll("\n", "\r\n")),
    ]);
    expect(parse(bom)).toEqual(parse(lf));
    expect(parse(lf).problems).toEqual([]);
  });

  it('reports keys that only collide as JavaScript keys (`1005`, `"1005"`, `1005.0`)', () => {
    for (const [other, named] of [
      ['"1005"', "1005"],
      ["1005.0", "1005.0"],
      ["'1005'", "1005"],
    ]) {
      expect(
        parse(
          `errors:\n  codes:\n    1005: { name: a, meaning: b }\n    ${other}: { name: c, meaning: d }\n`,
        ).problems,
      ).toEqual([
        `t.yaml:4:5 - error yaml-duplicate-key: duplicate key ${named} in the same mapping`,
      ]);
    }
  });

  it("keeps `__proto__` as a plain key, never as the prototype of the parsed object", () => {
    const { data } = parse("types:\n  __proto__:\n    polluted: true\n");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf((data as { types: object }).types)).toBe(Object.prototype);
  });

  it("reports a file nested a thousand levels deep as too deep, also when the parser runs out of stack inside a regular expression (found by the long loader fuzz)", async () => {
    // The yaml package folds a multi-line quoted scalar with a regular expression; at that
    // depth the engine has no stack left for it and throws a SyntaxError, not a RangeError.
    const dir = tempDir();
    try {
      const spec = join(dir, "spec");
      mkdirSync(spec);
      let text = "";
      for (let i = 0; i < 1200; i++) text += `${" ".repeat(i * 2)}k${i}:\n`;
      const indent = " ".repeat(1200 * 2);
      text += `${indent}v: "first line\n${indent}  second line"\n`;
      writeFileSync(join(spec, "api.yaml"), text);
      const run = await runCli(["--spec", spec, "--out", join(dir, "out"), "--check"]);
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/api\.yaml:\d+:\d+ - error yaml-too-deep:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a file nested exactly as deep as the limit, and refuses one level more, in any process", () => {
    // lists under the root, types and Money: 62 of them reach 64 levels below the root
    const nested = (lists: number) =>
      `types:\n  Money:\n    examples: ${"[".repeat(lists)}"x"${"]".repeat(lists)}\n`;
    /** The YAML problems of the file (its schema's are not the matter here), with their places. */
    const yamlProblems = (text: string) => {
      const bag = new DiagnosticBag();
      parseSpecFile("api.yaml", Buffer.from(text), bag);
      return bag.items
        .filter((d) => d.code.startsWith("yaml-"))
        .map((d) => `${d.code} ${d.location?.line}:${d.location?.col}`);
    };
    expect(yamlProblems(nested(62))).toEqual([]);
    // one list more: refused at the first node more than 66 levels deep (fast-yaml.ts
    // tooDeepAt), the string inside the 63rd list (column 15 + 63), found before the parser;
    // and at the same place far past it, where the parser may run out of stack, whatever ran
    // before in this process
    expect(yamlProblems(nested(63))).toEqual(["yaml-too-deep 3:78"]);
    expect(yamlProblems(nested(1000))).toEqual(["yaml-too-deep 3:78"]);
  });

  it("reports every bad character of a key or a value at its own place, in the walk's order, however deep in lists and mappings", () => {
    const text = [
      "types:",
      "  Money:",
      '    examples: ["ok", "a\\u0007", ["\\u0007b", {"k\\u0007": "v", "w": "\\uD800"}], 3, null]',
      '    "n\\u0007": {"deep": [[{"x": "\\u0001"}]]}',
      "",
    ].join("\n");
    const bag = new DiagnosticBag();
    parseSpecFile("api.yaml", Buffer.from(text), bag);
    const problems = bag.items
      .filter((d) => d.code.startsWith("yaml-"))
      .map((d) => `${d.code} ${d.location?.line}:${d.location?.col}`);
    // the places and order the walk gave before it kept paths only for reports
    expect(problems).toEqual([
      "yaml-control-character 4:5",
      "yaml-control-character 4:33",
      "yaml-control-character 3:46",
      "yaml-lone-surrogate 3:67",
      "yaml-control-character 3:34",
      "yaml-control-character 3:22",
    ]);
  });

  it("prints thousands of problems on huge lines quickly: lines split once a file, long lines cut around the column, the rest counted (found by the long loader fuzz: 15 s and 32 MB of output)", () => {
    // each line has one Z, at column 50,000: the caret must stand under it
    const line = `${"a".repeat(49_999)}Z${"a".repeat(50_000)}`;
    const text = Array.from({ length: 3000 }, () => line).join("\n");
    const diagnostics = Array.from({ length: 3000 }, (_, i) => ({
      code: "yaml-syntax" as const,
      severity: "error" as const,
      message: "a problem",
      location: { file: "t.yaml", line: i + 1, col: 50_000 },
    }));
    // No wall-clock bound (npm test asserts no times; the bench measures): splitting the 300 MB
    // file once per problem, the bug this guards, runs for minutes, past the test's timeout.
    const printed = formatDiagnostics(diagnostics, new Map([["t.yaml", text]]));
    expect(printed.length).toBeLessThan(200_000);
    expect(printed).toContain(`... and ${3000 - maxPrinted} more problems, not printed`);
    expect(printed).toMatch(/\n3000 errors$/);
    const frame = printed.split("\n\n")[0]!.split("\n");
    const shown = frame[1]!;
    expect(shown.length).toBeLessThan(200);
    expect(frame[2]!.indexOf("^")).toBe(shown.indexOf("Z"));
  });
});

/** The ways a file's lines can end: each style alone, and all three mixed within one file. */
const lineEnds: [string, (text: string) => string][] = [
  ["LF", (text) => text],
  ["CRLF", (text) => text.replaceAll("\n", "\r\n")],
  ["CR", (text) => text.replaceAll("\n", "\r")],
  [
    "mixed",
    (text) => text.split("\n").reduce((all, line, i) => all + ["\n", "\r\n", "\r"][i % 3] + line),
  ],
];

/** A spec folder of `files` (name to LF text), each written with the line ends given for it. */
function specFolder(files: Record<string, [text: string, ends: (text: string) => string]>): {
  spec: string;
  done: () => void;
} {
  const dir = tempDir();
  const spec = join(dir, "spec");
  mkdirSync(spec);
  for (const [name, [text, ends]] of Object.entries(files))
    writeFileSync(join(spec, name), ends(text));
  return { spec, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const apiYaml = "# the API\napi:\n  name: x\n  title: X\n  version: 0.1.0\n";

describe("the loader, whatever the line ends (LF, CRLF, CR, mixed)", () => {
  it("reads a file as the same data and places, the fast way and the careful way", () => {
    // an anchor sends the file the careful way; CR alone was no line end to it (the file was
    // one comment line) while the fast way read it
    for (const text of [
      apiYaml,
      apiYaml.replace("name: x\n  title: X", "name: &n x\n  title: *n"),
    ]) {
      const want = parse(text);
      expect(want.problems).toEqual([]);
      for (const [name, ends] of lineEnds) expect(parse(ends(text)), name).toEqual(want);
    }
    const broken = "# c\napi:\n  name: x\n  title: [X\n";
    for (const [name, ends] of lineEnds)
      expect(parse(ends(broken)).problems, name).toEqual(parse(broken).problems);
  });

  it('refuses error code 1005 written twice (once "1005") at its place, with CRLF in errors.yaml and CR in api.yaml or any other mix (issue 30 item 10)', async () => {
    const errorsYaml = [
      "# error codes",
      "errors:",
      "  codes:",
      "    1005: { name: apiKeyRejected, meaning: API key rejected. }",
      '    "1005": { name: other, meaning: The same code again. }',
      "",
    ].join("\n");
    for (const [errorsEnds, errorsEnd] of lineEnds)
      for (const [apiEnds, apiEnd] of lineEnds) {
        const { spec, done } = specFolder({
          "api.yaml": [apiYaml, apiEnd],
          "errors.yaml": [errorsYaml, errorsEnd],
        });
        try {
          const problems = await diagnosticsOf(spec);
          expect(problems, `errors.yaml ${errorsEnds}, api.yaml ${apiEnds}`).toEqual([
            expect.stringMatching(
              /errors\.yaml:5:5 - error yaml-duplicate-key: duplicate key 1005 in the same mapping$/,
            ),
          ]);
        } finally {
          done();
        }
      }
  });

  it("refuses a lone surrogate (\\uD800) at its place, whatever the line ends of it and the other files (issue 30 item 10)", async () => {
    const api = apiYaml.replace("title: X", 'title: "Merchant \\uD800 API"');
    const typesYaml =
      'types:\n  Money:\n    fields:\n      amount: integer\n      "\\uDC00": string\n';
    for (const [apiEnds, apiEnd] of lineEnds)
      for (const [otherEnds, otherEnd] of lineEnds) {
        const { spec, done } = specFolder({
          "api.yaml": [api, apiEnd],
          "types.yaml": [typesYaml, otherEnd],
        });
        try {
          const problems = await diagnosticsOf(spec);
          expect(problems, `api.yaml ${apiEnds}, types.yaml ${otherEnds}`).toEqual([
            expect.stringMatching(/api\.yaml:4:10 - error yaml-lone-surrogate: .*U\+D800/),
            expect.stringMatching(/types\.yaml:5:7 - error yaml-lone-surrogate: .*U\+DC00/),
          ]);
        } finally {
          done();
        }
      }
  });

  it("places a problem on a file with CR line ends at its own line, not line 1", () => {
    const text = "# c\napi:\n  name: x\n  title: X\n  version: 0.1.0\n  bogus: 1\n";
    for (const [name, ends] of lineEnds)
      expect(parse(ends(text)).problems, name).toEqual([
        expect.stringMatching(/^t\.yaml:6:3 - error schema-unknown-key/),
      ]);
  });
});
