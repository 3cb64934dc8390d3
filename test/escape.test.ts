/**
 * The functions of generator/emit/shared/escape.ts, one per context a text is written into,
 * each held to what its context's reader makes of it: TypeScript's parser for comments and
 * string literals, a markdown parser for the README's texts, JSON.parse for JSON. And the
 * templates, which may write a text only through one of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import { Lexer } from "marked";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { printDocComment, printLineComment } from "../generator/emit/code/print-text.ts";
import { printDoc } from "../generator/emit/code/layout-print.ts";
import {
  blockCommentLines,
  htmlComment,
  jsonText,
  lineComment,
  markdownCell,
  markdownCode,
  markdownText,
  stringLiteral,
} from "../generator/emit/shared/escape.ts";
import { templateHelpers } from "../generator/emit/template-helpers.ts";
import { markdownTable } from "../generator/emit/shared/markdown.ts";
import { repoRoot } from "./helpers.ts";
import {
  markdownShape,
  markdownTokens,
  renderedText,
  syntaxErrors,
} from "./support/output-checks.ts";

/** Texts that have broken out of some context. */
const hostile = [
  "Title\nglobalThis.__pwned = 1;//",
  "a\rb",
  "a\r\nb",
  "a\u2028b\u2029c",
  "a\u0085b",
  "*/ globalThis.__pwned = 1; /*",
  "/* x",
  "--> <!-- --!>",
  "`x` ``y` ` z",
  "${globalThis.__pwned = 1}",
  "</script><script>alert(1)</script>",
  "\u0000\u0007\u001b[31m",
  "\ud800 lone \udc00",
  "\u202e reversed \u2066",
  `"quotes' and \\ backslashes\\`,
  "| a | b |",
  // the long fuzz run (seed 477585890): a code span ending in `\|` split its table cell
  "</script>\\|",
  "[x](javascript:alert(1)) ![y](javascript:z) <javascript:alert(1)>",
  "# heading",
  "> quote",
  "- item",
  "1. item",
  "~~~",
  "&lt; &#60; &amp;",
  "_under_ *star* __bold__",
  "trailing #",
  "",
];

/** A TypeScript file of `head` followed by one statement: a text that escapes its comment adds statements. */
function statementsAfter(head: string): { errors: string[]; statements: number } {
  const text = `${head}\nconst after = 1;\n`;
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.ES2022);
  return { errors: syntaxErrors("x.ts", text), statements: source.statements.length };
}

describe("lineComment", () => {
  it.each([
    ["a\nb", "a\\nb"],
    ["a\r\nb", "a\\r\\nb"],
    ["a\u2028b\u2029", "a\\u2028b\\u2029"],
    ["\u0000\u0085\u007f", "\\u0000\\u0085\\u007f"],
    ["\ud800\udc00 \ud800", "\ud800\udc00 \\ud800"],
    ["\u202e", "\\u202e"],
    ["tab\tand C:\\path, é, 😀", "tab\tand C:\\path, é, 😀"],
  ])("%j is %j", (text, want) => {
    expect(lineComment(text)).toBe(want);
  });

  it.each(hostile)("keeps %j in its comment", (text) => {
    expect(statementsAfter(printLineComment(text))).toEqual({ errors: [], statements: 1 });
  });
});

describe("blockCommentLines", () => {
  it.each([
    ["a */ b", ["a *\\/ b"]],
    ["a\r\nb\rc\nd\u2028e\u2029f\u0085g", ["a", "b", "c", "d", "e", "f", "g"]],
    ["*\u2028/", ["*", "/"]],
    ["\u0000 \ud800", ["\\u0000 \\ud800"]],
  ])("%j is %j", (text, want) => {
    expect(blockCommentLines(text)).toEqual(want);
  });

  it.each(hostile)("keeps %j in its doc comment", (text) => {
    const comment = printDoc(printDocComment([text, `before ${text} after`]), 100);
    expect(statementsAfter(comment)).toEqual({ errors: [], statements: 1 });
  });
});

describe("stringLiteral", () => {
  it.each(hostile)("writes %j as one literal of exactly that text", (text) => {
    const literal = stringLiteral(text);
    const source = ts.createSourceFile(
      "x.ts",
      `export const x = ${literal};`,
      ts.ScriptTarget.ES2022,
    );
    const init = (source.statements[0] as ts.VariableStatement).declarationList.declarations[0]!
      .initializer!;
    expect(source.statements).toHaveLength(1);
    expect(ts.isStringLiteral(init)).toBe(true);
    expect(new Function(`return ${literal};`)()).toBe(text);
    // nothing a line-based tool or a reader could take for a line end or a reordering
    expect(literal).not.toMatch(/[\n\r\u2028\u2029\u0085\u202a-\u202e\u2066-\u2069]/);
  });
});

describe("htmlComment", () => {
  it("writes < and > as entities, and line ends as escapes", () => {
    expect(htmlComment("a --> b <!-- c\nd")).toBe("a --&gt; b &lt;!-- c\\nd");
  });

  it.each(hostile)("keeps %j inside the README's banner", (text) => {
    const readme = `<!-- ${htmlComment(text)} -->\n\n# Title\n`;
    const [banner, heading] = Lexer.lex(readme, { gfm: true }).filter((t) => t.type !== "space");
    expect(banner?.type).toBe("html");
    expect(banner?.raw.trimEnd()).toBe(readme.split("\n")[0]);
    expect(heading?.type).toBe("heading");
  });
});

/** What a text is expected to show as markdown: on one line, unsafe characters as their escapes. */
const shown = (text: string) =>
  lineComment(text.replace(/[ \t\n\r\u2028\u2029]+/g, " ").replace(/^ | $/g, ""));

describe("markdownText", () => {
  it.each([
    ["a *b* _c_", "a \\*b\\* \\_c\\_"],
    ["snake_case stays", "snake_case stays"],
    ["<b>", "\\<b>"],
    ["[x](y)", "\\[x\\](y)"],
    ["a `code <b>` b", "a `code <b>` b"],
    ["a ` b", "a \\` b"],
    ["&amp; & x", "\\&amp; & x"],
    ["a\\*b", "a\\\\\\*b"],
    ["# h", "\\# h"],
    ["- i", "\\- i"],
    ["12. i", "12\\. i"],
    ["C# and F#", "C# and F#"],
    ["ends with #", "ends with \\#"],
    ["two\n\nlines", "two lines"],
    // the long fuzz run (seed 477585890): a description of a lone U+0085 was trimmed to nothing
    ["\u0085", "\\\\u0085"],
    [" \u000b ", "\\\\u000b"],
    // the long fuzz run (seed 870045244): `_` next to an ASCII symbol (`=`, `<`, `|`) is at a
    // word's edge, as `<` is written `\<` after
    ["x=_a b_<", "x=\\_a b\\_\\<"],
    ["a+_b c_`", "a+\\_b c\\_\\`"],
  ])("%j is %j", (text, want) => {
    expect(markdownText(text)).toBe(want);
  });

  it.each(["x=_a b_<", "x|_a b_~", "a+_b c_`", "\u{D1723}_\u{C69B7} x_<", "x$__a b__^"])(
    "makes no emphasis of %j, whose underscores are next to ASCII symbols",
    (text) => {
      const markup = ["em", "strong"];
      expect(
        markdownTokens(`${markdownText(text)}\n`).filter((t) => markup.includes(t.type)),
      ).toEqual([]);
    },
  );

  it.each(hostile.filter((t) => t.trim()))(
    "shows %j as written, as a paragraph and as a heading, making no markup",
    (text) => {
      const markdown = markdownText(text);
      const markup = ["html", "link", "image", "em", "strong", "del"];
      const paragraph = `Intro.\n\n${markdown}\n`;
      expect(markdownTokens(paragraph).filter((t) => markup.includes(t.type))).toEqual([]);
      expect(markdownShape(paragraph)[1] ?? "paragraph").toBe("paragraph");
      expect(markdownShape(paragraph)[2]).not.toMatch(/^(paragraph|heading|list|table|code)/);
      const heading = `# ${markdown}\n`;
      expect(markdownTokens(heading).filter((t) => markup.includes(t.type))).toEqual([]);
      expect(markdownShape(heading)[0]).toBe("heading 1");
      expect(markdownShape(heading)[1]).not.toMatch(/^(paragraph|heading|list|table|code)/);
      // code spans of the text show their content; everything else shows as written
      expect(renderedText(markdown).replace(/`/g, "")).toBe(shown(text).replace(/`/g, ""));
    },
  );
});

describe("markdownCode", () => {
  it.each([
    ["a.b", "`a.b`"],
    ["a`b", "``a`b``"],
    ["`a", "`` `a ``"],
    ["a\nb", "`a b`"],
    ["a\nb\r\nc\u2028d", "`a b c d`"],
    ["\u0000", "`\\u0000`"],
  ])("%j is %j", (text, want) => {
    expect(markdownCode(text)).toBe(want);
  });

  it.each(hostile.filter((t) => t.trim()))("shows %j as one code span", (text) => {
    const [paragraph] = Lexer.lex(`Before ${markdownCode(text)} after.\n`, { gfm: true });
    const spans = markdownTokens(`Before ${markdownCode(text)} after.\n`).filter(
      (t) => t.type === "codespan",
    );
    expect(paragraph?.type).toBe("paragraph");
    expect(spans).toHaveLength(1);
  });
});

describe("markdownCell", () => {
  it.each(hostile)("keeps %j in its cell of a table", (text) => {
    const cells = [markdownCell(`${markdownCode(text || "x")}: ${markdownText(text)}`), "b"];
    const table = markdownTable(["one", "two"], [cells]);
    const [token] = Lexer.lex(`${table}\n`, { gfm: true });
    expect(token?.type).toBe("table");
    const { rows } = token as unknown as { rows: { text: string }[][] };
    expect(rows).toHaveLength(1);
    expect(rows[0]!.map((cell) => cell.text).at(-1)).toBe("b");
  });
});

describe("jsonText", () => {
  it.each(hostile)("writes %j as JSON that reads back the same", (text) => {
    expect(JSON.parse(jsonText({ text }))).toEqual({ text });
    // well-formed: UTF-8 keeps it
    expect(JSON.parse(Buffer.from(jsonText({ text })).toString("utf8"))).toEqual({ text });
  });
});

describe("the templates", () => {
  const templates = readdirSync(join(repoRoot, "templates")).filter((f) => f.endsWith(".hbs"));
  /** Values the templates may write as they are: numbers, and names the schema constrains. */
  const plain = new Set(["typeCount", "gapCount", "untypedCount", "packageName"]);
  /** Blocks the emitter builds from escaped parts, inserted whole. */
  const block = /(Code|Table|Markdown|Json)$/;

  it.each(templates)("%s writes every text through the helper of its context", (file) => {
    const problems: string[] = [];
    const visit = (node: hbs.AST.Node): void => {
      if (node.type === "MustacheStatement") {
        const mustache = node as hbs.AST.MustacheStatement;
        const name = (mustache.path as hbs.AST.PathExpression).original;
        if (mustache.params.length > 0) {
          if (!(name in templateHelpers)) problems.push(`${name}: not a context helper`);
        } else if (!plain.has(name) && !(block.test(name) && !mustache.escaped))
          problems.push(`{{${name}}} writes a text without its context's helper`);
      }
      for (const child of Object.values(node))
        if (child && typeof child === "object") {
          if (Array.isArray(child)) child.forEach((c) => c && typeof c === "object" && visit(c));
          else if ("type" in child) visit(child as hbs.AST.Node);
        }
    };
    visit(Handlebars.parse(readFileSync(join(repoRoot, "templates", file), "utf8")));
    expect(problems).toEqual([]);
  });
});
