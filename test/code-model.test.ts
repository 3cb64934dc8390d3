/**
 * The code model's printer, case by case: given nodes, the text wanted (each also one that
 * prettier leaves unchanged), and the imports that references record.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { arr, call, id, lit, member, obj } from "../generator/emit/code/build.ts";
import type { FileStatement, Statement, TypeExpr } from "../generator/emit/code/nodes.ts";
import { printSourceFile } from "../generator/emit/code/source-file.ts";
import { printString } from "../generator/emit/code/print-text.ts";
import { generatedRef, runtimeValue, typeRef } from "../generator/emit/shared/symbols.ts";
import { generic, keyword, literalType, union } from "../generator/emit/shared/type-expr.ts";
import { repoRoot } from "./helpers.ts";
import { prettierOptions } from "./support/prettier-style.ts";

const print = (statements: Statement[], path = "src/x.ts") =>
  printSourceFile({
    path,
    statements: statements.map((statement): FileStatement => ({ statement })),
  });

const alias = (name: string, type: Parameters<typeof union>[0][number]): Statement => ({
  kind: "type-alias",
  name,
  isExported: true,
  type,
});
const constant = (name: string, init: Parameters<typeof call>[0]): Statement => ({
  kind: "variable",
  declarationKind: "const",
  name,
  init,
});
const words = (n: number, stem: string) => Array.from({ length: n }, (_, i) => `${stem}${i}`);
/** `const validateThing = fromData("xxx…", (): R => ({ names }))`: a call whose last argument is an arrow. */
const fromDataOf = (textLength: number, names: string[], returnType?: TypeExpr): Statement =>
  constant(
    "validateThing",
    call(id("fromData"), lit("x".repeat(textLength)), {
      kind: "arrow",
      params: [],
      ...(returnType ? { returnType } : {}),
      body: obj(names.map((w) => [w, id(w)] as const)),
    }),
  );

const cases: { name: string; given: Statement[]; want: string }[] = [
  {
    name: "a union that fits stays on the line",
    given: [alias("Kind", union(["a", "b"].map(literalType)))],
    want: 'export type Kind = "a" | "b";\n',
  },
  {
    name: "a union that does not fit breaks one member per line after the `=`",
    given: [alias("Kind", union(words(8, "value-number-").map(literalType)))],
    want: `export type Kind =\n${words(8, "value-number-")
      .map((w) => `  | "${w}"`)
      .join("\n")};\n`,
  },
  {
    name: "an object argument is hugged when the call does not fit",
    given: [
      constant(
        "op",
        call(id("operation"), obj(words(6, "field").map((w) => [w, lit(`${w}-value`)] as const))),
      ),
    ],
    want: `const op = operation({\n${words(6, "field")
      .map((w) => `  ${w}: "${w}-value",`)
      .join("\n")}\n});\n`,
  },
  {
    name: "an arrow returning an object is hugged as the last argument when the call does not fit",
    given: [fromDataOf(40, words(3, "validateField"))],
    want: `const validateThing = fromData("${"x".repeat(40)}", () => ({\n${words(3, "validateField")
      .map((w) => `  ${w},`)
      .join("\n")}\n}));\n`,
  },
  {
    name: "an arrow argument is not hugged when the arguments before it do not fit on the line",
    given: [fromDataOf(90, ["object"])],
    want: `const validateThing = fromData(\n  "${"x".repeat(90)}",\n  () => ({ object }),\n);\n`,
  },
  {
    name: "an arrow with a type-reference return type and an expression body is not hugged",
    given: [fromDataOf(40, words(3, "validateField"), typeRef("Refs"))],
    want: `import type { Refs } from "./types.js";\n\nconst validateThing = fromData(\n  "${"x".repeat(40)}",\n  (): Refs => ({ ${words(3, "validateField").join(", ")} }),\n);\n`,
  },
  {
    name: "numbers fill each line",
    given: [constant("codes", arr(Array.from({ length: 30 }, (_, i) => lit(1000 + i))))],
    want: "const codes = [\n  1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 1015,\n  1016, 1017, 1018, 1019, 1020, 1021, 1022, 1023, 1024, 1025, 1026, 1027, 1028, 1029,\n];\n",
  },
  {
    name: "a short member chain stays on one line",
    given: [
      {
        kind: "expression-statement",
        expr: call(
          member(call(member(id("http"), "createServer"), id("handler")), "listen"),
          lit(3000),
        ),
      },
    ],
    want: "http.createServer(handler).listen(3000);\n",
  },
  {
    name: "overload signatures sit right above the implementation, each with its doc comment",
    given: [
      {
        kind: "function",
        name: "create",
        isExported: true,
        overloads: [
          {
            docs: ["The stream."],
            params: [{ name: "flag", type: literalType(true) }],
            returnType: keyword("string"),
          },
          {
            docs: ["The value."],
            params: [
              {
                name: "flag",
                hasQuestionToken: true,
                type: union([literalType(false), keyword("null")]),
              },
            ],
            returnType: keyword("number"),
          },
        ],
        params: [{ name: "flag", hasQuestionToken: true, type: keyword("boolean") }],
        returnType: union([keyword("string"), keyword("number")]),
        body: [{ kind: "return", expr: lit(1) }],
      },
      {
        kind: "class",
        name: "Api",
        methods: [
          {
            name: "get",
            overloads: [
              {
                params: words(4, "parameterNumber").map((name) => ({
                  name,
                  type: keyword("string"),
                })),
                returnType: keyword("string"),
              },
            ],
            params: [{ name: "a", type: keyword("string") }],
            returnType: keyword("string"),
            body: [{ kind: "return", expr: id("a") }],
          },
        ],
      },
    ],
    want: `/** The stream. */
export function create(flag: true): string;
/** The value. */
export function create(flag?: false | null): number;
export function create(flag?: boolean): string | number {
  return 1;
}

class Api {
  get(
    parameterNumber0: string,
    parameterNumber1: string,
    parameterNumber2: string,
    parameterNumber3: string,
  ): string;
  get(a: string): string {
    return a;
  }
}
`,
  },
  {
    name: "a string with more double quotes than single ones is single-quoted",
    given: [constant("json", lit('{"a":"b"}'))],
    want: 'const json = \'{"a":"b"}\';\n',
  },
  {
    name: "a doc line holding line breaks (a spec's description) gives each line its ` * `",
    given: [
      {
        kind: "type-alias",
        name: "Issue",
        isExported: true,
        type: keyword("string"),
        docs: ["Create an issue.\n\nIt notifies.\r\n- a list"],
      },
    ],
    want: "/**\n * Create an issue.\n *\n * It notifies.\n * - a list\n */\nexport type Issue = string;\n",
  },
  {
    name: "an interface's methods, two of one name as overloads, and a constructor type",
    given: [
      {
        kind: "interface",
        name: "ThingsApi",
        members: [
          {
            kind: "call-signature",
            name: "get",
            params: [{ name: "id", type: keyword("string") }],
            returnType: keyword("string"),
          },
          { kind: "call-signature", name: "get", params: [], returnType: keyword("number") },
        ],
      },
      {
        kind: "variable",
        declarationKind: "const",
        name: "ThingsApi",
        type: {
          kind: "function-type",
          isConstructor: true,
          params: [{ name: "core", type: keyword("object") }],
          returns: generic("Array", keyword("string")),
        },
        init: call(id("group"), lit("get")),
      },
    ],
    want: 'interface ThingsApi {\n  get(id: string): string;\n  get(): number;\n}\n\nconst ThingsApi: new (core: object) => Array<string> = group("get");\n',
  },
  {
    name: "a function's type with call signatures (overloads) breaks one per line",
    given: [
      {
        kind: "variable",
        declarationKind: "const",
        name: "send",
        type: {
          kind: "object-type",
          members: [
            {
              kind: "call-signature",
              params: [{ name: "flag", type: literalType(true) }],
              returnType: keyword("string"),
            },
            { kind: "call-signature", params: [], returnType: keyword("number") },
          ],
        },
        init: call(id("endpoint"), lit("{}")),
      },
    ],
    want: 'const send: {\n  (flag: true): string;\n  (): number;\n} = endpoint("{}");\n',
  },
  {
    name: "a static property under a quoted name, before the instance's",
    given: [
      {
        kind: "class",
        name: "ShopError",
        extends: id("ApiError"),
        properties: [
          {
            name: "~brand",
            isStatic: true,
            hasOverrideKeyword: true,
            isReadonly: true,
            init: lit("shop:ShopError"),
          },
          { name: "name", hasOverrideKeyword: true, init: lit("ShopError") },
        ],
      },
    ],
    want: 'class ShopError extends ApiError {\n  static override readonly "~brand" = "shop:ShopError";\n  override name = "ShopError";\n}\n',
  },
];

describe("the printer", () => {
  it.each(cases)("$name", async ({ given, want }) => {
    const text = print(given);
    expect(text).toBe(want);
    expect(await prettier.format(text, { ...prettierOptions, parser: "typescript" })).toBe(text);
  });

  it("records an import for each reference to another file, values before types, sorted by module", () => {
    const text = print([
      alias(
        "Shape",
        generic("Promise", union([typeRef("Money"), typeRef("Cart"), keyword("null")])),
      ),
      constant("check", call(runtimeValue("validate.ts", "object"), obj([]))),
      constant("core", generatedRef("src/x.ts", "localThing", false)),
    ]);
    expect(text.split("\n").slice(0, 3)).toEqual([
      'import { object } from "./runtime/validate.js";',
      'import type { Cart, Money } from "./types.js";',
      "",
    ]);
    expect(text).not.toContain("localThing }"); // a symbol of the file itself is never imported
  });

  it("writes a reference under its own name as shorthand, and under another key in full", () => {
    const text = print([
      constant(
        "refs",
        obj([
          ["object", runtimeValue("validate.ts", "object")],
          ["check", runtimeValue("validate.ts", "string")],
        ]),
      ),
    ]);
    expect(text).toBe(
      'import { object, string } from "./runtime/validate.js";\n\nconst refs = { object, check: string };\n',
    );
  });

  it("refuses two symbols of one name from different files", () => {
    expect(() =>
      print([alias("A", typeRef("Same")), alias("B", generatedRef("src/other.ts", "Same", true))]),
    ).toThrow(/Same is imported from both/);
  });
});

/**
 * printString's single-quoted literal as the look-around regex it replaced wrote it, with the
 * invisible characters and U+2028/U+2029 escaped too: the reference the one-pass escape must
 * equal.
 */
function singleQuotedByRegex(value: string): string {
  const escapes =
    /[\\'\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  const invisible = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g;
  const body = value
    .replace(escapes, (c) => (c === "'" ? "\\'" : JSON.stringify(c).slice(1, -1)))
    .replace(invisible, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `'${body}'`;
}

describe("string literals", () => {
  // Each has more double quotes than single ones, so it is printed in single quotes.
  const cases: [string, string, string][] = [
    ["quotes and backslashes", `"a" 'b' "c" \\d\\`, `'"a" \\'b\\' "c" \\\\d\\\\'`],
    ["control characters", '""\u0000\n\t\r\u001f\u007f', `'""\\u0000\\n\\t\\r\\u001f\\u007f'`],
    ["line ends JSON leaves raw", '""\u2028\u2029\u0085', `'""\\u2028\\u2029\\u0085'`],
    ["bidirectional overrides", '""\u202e\u2066', `'""\\u202e\\u2066'`],
    ["a surrogate pair", '""\ud83d\ude00', `'""\ud83d\ude00'`],
    ["a lone high surrogate, at the end", '""\ud83d', `'""\\ud83d'`],
    ["a lone low surrogate, at the start", '\ude00""', `'\\ude00""'`],
    ["a high surrogate before a high one", '""\ud83d\ud83d\ude00', `'""\\ud83d\ud83d\ude00'`],
    ["a low surrogate before a high one", '""\ude00\ud83d', `'""\\ude00\\ud83d'`],
    ["two low surrogates after a high one", '""\ud83d\ude00\ude00', `'""\ud83d\ude00\\ude00'`],
  ];
  it.each(cases)("%s", (_, value, want) => {
    const printed = printString(value);
    expect(printed).toBe(want);
    expect(printed).toBe(singleQuotedByRegex(value));
    expect(new Function(`return ${printed};`)()).toBe(value);
  });

  it("uses single quotes only when the text has more double quotes than single ones", () => {
    expect(printString(`a"b'c`)).toBe(`"a\\"b'c"`);
    expect(printString(`"a"b'c`)).toBe(`'"a"b\\'c'`);
    expect(printString(`"a'b'c`)).toBe(`"\\"a'b'c"`);
    expect(printString(`${'"'.repeat(1000)}${"'".repeat(999)}`)).toMatch(/^'/);
    expect(printString(`${'"'.repeat(999)}${"'".repeat(999)}`)).toMatch(/^"/);
  });

  it("escapes random text as the look-around regex did", () => {
    const alphabet = [
      '"',
      '"',
      "'",
      "\\",
      "\n",
      "\u0000",
      "\u001f",
      "a",
      "\u00e9",
      "\ud83d",
      "\ude00",
      "\udbff",
      "\udc00",
    ];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 1);
    let singleQuoted = 0;
    for (let n = 0; n < 2000; n++) {
      const value = `""${Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join("")}`;
      const printed = printString(value);
      if (printed.startsWith("'")) {
        singleQuoted++;
        expect(printed).toBe(singleQuotedByRegex(value));
      }
      expect(new Function(`return ${printed};`)()).toBe(value);
    }
    expect(singleQuoted).toBeGreaterThan(500);
  });
});

describe("the emitters", () => {
  it("import no other emitter: what several need lives in emit/shared/ or emit/code/", () => {
    const emitDir = join(repoRoot, "generator/emit");
    const sources = readdirSync(emitDir, { recursive: true, encoding: "utf8" }).filter((p) =>
      p.endsWith(".ts"),
    );
    const emitterFiles = new Set(
      [...readFileSync(join(emitDir, "emitters.ts"), "utf8").matchAll(/from "\.\/(.+?)"/g)]
        .map((m) => m[1]!)
        .filter((p) => p !== "context.ts"),
    );
    expect(emitterFiles.size).toBeGreaterThanOrEqual(9);
    const offenders = sources.flatMap((source) => {
      if (source === "emitters.ts") return [];
      const text = readFileSync(join(emitDir, source), "utf8");
      return [...text.matchAll(/(?:from|import) "(\.{1,2}\/[^"]+)"/g)]
        .map((m) => posix.normalize(posix.join(posix.dirname(source), m[1]!)))
        .filter((target) => emitterFiles.has(target))
        .map((target) => `${source} imports ${target}`);
    });
    expect(offenders).toEqual([]);
  });
});
