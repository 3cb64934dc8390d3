/**
 * The loader's handling of text a spec author (or a fuzzer) may hand it: positions after
 * multi-line scalars, a byte order mark, CRLF line ends, keys that collide only as JavaScript
 * keys. Each case is a minimal failing case the loader fuzz test found or the issue named.
 */
import { describe, expect, it } from "vitest";
import { DiagnosticBag } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { parseSpecFile } from "../generator/load/load-spec.ts";

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
});
