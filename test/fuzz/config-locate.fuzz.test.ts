/**
 * The locator of a module config's keys (generator/commands/config-module-locate.ts) reads
 * JavaScript without a parser, so it is held to one: for configs made of every form a key and
 * a value can take (quoted and numeric keys, escapes, shorthand, spreads, computed keys,
 * methods, strings and templates holding brackets and commas, regular expressions, comments,
 * calls, the config behind a `const`, `export default` or `module.exports`), the place it
 * gives for every key and value is the one TypeScript's parser gives, walked the same way.
 */
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { hasModuleSyntax, moduleLocator } from "../../generator/commands/config-module-locate.ts";
import { fuzzParameters } from "./settings.ts";

type Path = (string | number)[];

/** The oracle: the same walk over TypeScript's syntax tree. */
function oracle(text: string): (path: Path, at: "key" | "value") => number | undefined {
  const source = ts.createSourceFile("config.js", text, ts.ScriptTarget.Latest, true);
  const consts = new Map<string, ts.Expression>();
  let exported: ts.Expression | undefined;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, d.initializer);
    if (ts.isExportAssignment(statement)) exported = statement.expression;
    if (
      ts.isExpressionStatement(statement) &&
      ts.isBinaryExpression(statement.expression) &&
      /^(module\.exports|exports\.default)$/.test(statement.expression.left.getText(source))
    )
      exported = statement.expression.right;
  }
  const literal = (node: ts.Node, seen: string[] = []): ts.Node => {
    if (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node))
      return literal(node.expression, seen);
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "defineConfig" &&
      node.arguments[0]
    )
      return literal(node.arguments[0], seen);
    if (ts.isIdentifier(node) && consts.has(node.text) && !seen.includes(node.text))
      return literal(consts.get(node.text)!, [...seen, node.text]);
    return node;
  };
  const name = (n: ts.PropertyName | undefined): string | undefined => {
    if (!n) return undefined;
    if (ts.isIdentifier(n) || ts.isStringLiteral(n)) return n.text;
    if (ts.isNumericLiteral(n)) return String(Number(n.text.replace(/_/g, "")));
    return undefined;
  };
  return (path, at) => {
    if (!exported) return undefined;
    let node = literal(exported);
    let key: ts.Node | undefined;
    for (const segment of path) {
      if (typeof segment === "number" && ts.isArrayLiteralExpression(node)) {
        const element = node.elements[segment];
        if (!element || ts.isSpreadElement(element) || ts.isOmittedExpression(element)) break;
        key = undefined;
        node = literal(element);
      } else if (typeof segment === "string" && ts.isObjectLiteralExpression(node)) {
        const property = [...node.properties].reverse().find((p) => name(p.name) === segment);
        if (
          !property ||
          !(ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property))
        )
          break;
        key = property;
        node = ts.isPropertyAssignment(property) ? literal(property.initializer) : property;
      } else break;
    }
    return at === "key" && key ? key.getStart(source) : node.getStart(source);
  };
}

/** A config value as JavaScript text, and every path into it. */
interface Written {
  text: string;
  paths: Path[];
}

const space = fc.constantFrom(" ", "", "\n  ", " /* c, } */ ", " // ] ,\n", "\t");

const keyText = fc.oneof(
  fc.constantFrom("spec", "out", "name", "outputs", "client", "$x", "_a1"),
  fc.constantFrom(
    '"spec"',
    "'out'",
    '"a b"',
    '"\\u0073pec"',
    "'it\\'s'",
    '"{[,]}"',
    "0",
    "12",
    "1.5",
  ),
);

const keyOf = (text: string): string | undefined =>
  /^["']/.test(text) ? (eval(text) as string) : /^\d/.test(text) ? String(Number(text)) : text;

const opaque = fc.constantFrom(
  '"a, } ] b"',
  "'q\\'s'",
  "`t ${ { a: [1, 2] }.a } }`",
  "/[}\\]]+,/g",
  "1_000",
  "true",
  "null",
  "f(1, { a: 2 })",
  "(x) => { return [x]; }",
  "a ? { b: 1 } : [2]",
  "x / 2 / 1",
  "process.env.OUT ?? 'pkg'",
);

const value: fc.Memo<Written> = fc.memo((depth) =>
  depth <= 1
    ? opaque.map((text) => ({ text, paths: [[]] }))
    : fc.oneof(
        { weight: 2, arbitrary: opaque.map((text) => ({ text, paths: [[]] as Path[] })) },
        { weight: 3, arbitrary: objectOf(depth - 1) },
        { weight: 2, arbitrary: arrayOf(depth - 1) },
      ),
);

function objectOf(depth: number): fc.Arbitrary<Written> {
  const member = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(keyText, space, value(depth), space).map(([k, s1, v, s2]) => ({
        kind: "pair" as const,
        k,
        text: `${k}${s1}:${s2}${v.text}`,
        v,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("spec", "out")
        .map((k) => ({ kind: "short" as const, k, text: k, v: undefined })),
    },
    {
      weight: 1,
      arbitrary: fc.constant({ kind: "other" as const, k: "", text: "...base", v: undefined }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        kind: "other" as const,
        k: "",
        text: "[key]: [1, 2]",
        v: undefined,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        kind: "other" as const,
        k: "",
        text: "method() { return { a: 1 }; }",
        v: undefined,
      }),
    },
  );
  return fc
    .tuple(fc.array(member, { maxLength: 5 }), space, fc.boolean())
    .map(([members, s, trailing]) => {
      const paths: Path[] = [[]];
      for (const m of members) {
        const key = m.kind === "other" ? undefined : keyOf(m.k);
        if (key === undefined) continue;
        if (m.v) for (const p of m.v.paths) paths.push([key, ...p]);
        else paths.push([key]);
      }
      const body = members.map((m) => m.text).join(`,${s}`);
      return { text: `{${s}${body}${trailing && members.length ? "," : ""}${s}}`, paths };
    });
}

function arrayOf(depth: number): fc.Arbitrary<Written> {
  return fc.tuple(fc.array(value(depth), { maxLength: 4 }), space).map(([items, s]) => ({
    text: `[${s}${items.map((i) => i.text).join(`,${s}`)}${s}]`,
    paths: [[], ...items.flatMap((item, i) => item.paths.map((p) => [i, ...p]))],
  }));
}

/** The module around the value: how it is exported, with code before and after. */
const moduleText = fc
  .tuple(
    objectOf(4),
    fc.constantFrom(
      (v: string) =>
        `import { defineConfig } from "apigen-cli";\n\nexport default defineConfig(${v});\n`,
      (v: string) => `export default ${v};\n`,
      (v: string) =>
        `const base = { a: 1 };\nconst key = "k";\nconst config = ${v};\nexport default config;\n`,
      (v: string) => `// export default {}\nmodule.exports = (${v});\n`,
      (v: string) =>
        `const f = (x) => x; /* } */\nexports.default = await defineConfig(${v});\nf("export default [");\n`,
    ),
  )
  .map(([written, wrap]) => ({ text: wrap(written.text), paths: written.paths }));

describe("the module config locator", () => {
  it("gives the place TypeScript's parser gives for every key and value", () => {
    fc.assert(
      fc.property(moduleText, ({ text, paths }) => {
        const ours = moduleLocator(text);
        const theirs = oracle(text);
        for (const path of paths)
          for (const at of ["key", "value"] as const)
            expect(ours(path, at), `${at} of ${JSON.stringify(path)} in\n${text}`).toBe(
              theirs(path, at),
            );
        // a path past the literals stops where the oracle's does
        expect(ours([...paths.at(-1)!, "nope", 3], "key")).toBe(
          theirs([...paths.at(-1)!, "nope", 3], "key"),
        );
      }),
      fuzzParameters(300, 10_000),
    );
  });

  it("tells an ES module from CommonJS by its statements, not by words in strings or names", () => {
    // given the text, want whether it is written as an ES module
    const table: [string, boolean][] = [
      ['import { defineConfig } from "apigen-cli";\nmodule.exports = {};', true],
      ["export default {};", true],
      ["const url = import.meta.url;\nmodule.exports = { url };", true],
      ['module.exports = import("./x.mjs");', false],
      ['module.exports = { spec: "export default", out: `import x` };', false],
      ["// export default {}\nmodule.exports = {};", false],
      ["const o = { export: 1, import: 2 };\nmodule.exports = o.export;", false],
    ];
    for (const [text, want] of table) expect(hasModuleSyntax(text), text).toBe(want);
  });
});
