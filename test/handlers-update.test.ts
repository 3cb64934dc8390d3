/**
 * `scaffold-handlers FILE` on a file that is already there (issue 34): the file is brought up
 * to date with the spec in place. A stub for each new event (the scaffold's own text), a
 * comment and a compile error for each handler of a removed event (never a deletion), an
 * import that moved, every other byte as the user left it; `--check` writes nothing and says
 * whether the file is current; a file it does not recognise is refused, untouched.
 */
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { format } from "prettier";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../generator/diff/load-base.ts";
import { createEmitContext } from "../generator/emit/context.ts";
import { scaffoldParts } from "../generator/emit/handlers-scaffold.ts";
import { applyEdits, planFileUpdate } from "../generator/handlers-update/plan.ts";
import { UpdateRefused } from "../generator/handlers-update/read-file.ts";
import { prettierOptions } from "./support/prettier-style.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";
import { runtimeAsDeclarations } from "./support/runtime-declarations.ts";

const scratch = tempDir("apigen-handlers-update-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The user's file: the example's handlers, filled in with its own code, comments and layout. */
const exampleHandlers = readFileSync(
  join(repoRoot, "examples/merchant-server/src/handlers.ts"),
  "utf8",
);

/** The Merchant spec copied to `dir`, with `edit` made to its callbacks.yaml. */
function specVariant(dir: string, edit: (callbacks: string) => string): string {
  const spec = join(dir, "spec");
  cpSync(join(repoRoot, "spec"), spec, { recursive: true });
  const file = join(spec, "callbacks.yaml");
  writeFileSync(file, edit(readFileSync(file, "utf8")));
  writeFileSync(join(dir, "package.json"), '{ "name": "variant", "private": true }\n');
  return spec;
}

/** The callback `order.shipping` of the Merchant spec renamed `refund.notice` (a new event, one gone). */
const shippingBecomesRefund = (callbacks: string) =>
  callbacks
    .replace(
      "  order.shipping:\n    summary: order.shipping",
      "  refund.notice:\n    summary: refund.notice",
    )
    .replace("path: /order_shipping", "path: /refund_notice");

/**
 * The files a program of this file's tests read, parsed once for all of them while their
 * text stays the same (TypeScript's lib files, the generated packages): a program of each
 * test, not a parse of lib.dom.d.ts and the package each time.
 */
const parsed = new Map<string, { text: string; file: ts.SourceFile }>();
function sharedHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.getSourceFile = (fileName, language) => {
    const text = ts.sys.readFile(fileName);
    if (text === undefined) return undefined;
    const known = parsed.get(fileName);
    if (known?.text === text) return known.file;
    const file = ts.createSourceFile(fileName, text, language);
    parsed.set(fileName, { text, file });
    return file;
  };
  return host;
}

/**
 * Type errors of `files` (each `name:line TScode`), compiled strict against the package
 * generated into `dir/pkg`, imported as `merchant-commerce-api` or by a relative path.
 */
function typeErrors(dir: string, files: string[]): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    paths: {
      "merchant-commerce-api": [join(dir, "pkg/src/index.ts")],
      "merchant-commerce-api/callbacks": [join(dir, "pkg/src/callbacks.ts")],
    },
  };
  const paths = files.map((f) => join(dir, f));
  // the package's runtime as its declarations (test/support/runtime-declarations.ts): only the
  // user's files' errors are read, and the runtime's bodies are checked elsewhere
  const program = ts.createProgram(paths, options, runtimeAsDeclarations(sharedHost(options)));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && paths.includes(d.file.fileName))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start!);
      return `${basename(d.file!.fileName)}:${line + 1} TS${d.code}`;
    })
    .sort();
}

const lineOf = (text: string, needle: string) =>
  text.slice(0, text.indexOf(needle)).split("\n").length;

/** The Merchant spec with order.shipping become refund.notice, and its package (dir/pkg), shared by the tests below. */
const dir = join(scratch, "variant");
let spec: string;
beforeAll(async () => {
  spec = specVariant(dir, shippingBecomesRefund);
  expect((await runCli(["--spec", spec, "--out", join(dir, "pkg")])).status).toBe(0);
});

describe("scaffold-handlers on the example's filled-in handlers, after the spec changed", () => {
  const file = join(dir, "handlers.ts");
  let run: Awaited<ReturnType<typeof runCli>>;
  let updated: string;
  let freshStub: string;
  const marker =
    '// apigen: event "order.shipping" is no longer in the spec: delete this handler\n';
  beforeAll(async () => {
    writeFileSync(file, exampleHandlers);
    run = await runCli(["scaffold-handlers", file, "--spec", spec]);
    updated = readFileSync(file, "utf8");
    const fresh = join(dir, "fresh.ts");
    expect((await runCli(["scaffold-handlers", fresh, "--spec", spec])).status).toBe(0);
    const freshText = readFileSync(fresh, "utf8");
    const start = freshText.indexOf("/**\n * refund.notice:");
    freshStub = freshText.slice(start, freshText.indexOf("\n};\n", start) + 4);
  });

  it("prints what it changed", () => {
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/handlers\.ts updated from the spec:\n/);
    expect(run.stdout).toMatch(/^ {2}added callback "refund\.notice": stub refundNotice, /m);
    expect(run.stdout).toMatch(/^ {2}marked callback "order\.shipping": no longer in the spec; /m);
  });

  it("adds the new event's stub, exactly as a fresh scaffold writes it, and its entry and import; every other byte stays", () => {
    const inserted = [
      `${freshStub}\n`,
      '  "refund.notice": refundNotice,\n',
      "  RefundNoticeResult,\n",
      `  ${marker}`,
      marker,
    ];
    let rest = updated;
    for (const text of inserted) {
      expect(rest).toContain(text);
      rest = rest.replace(text, "");
    }
    expect(rest).toBe(exampleHandlers); // the user's lines, byte for byte, in their order
    // where each went: the stub before the handlers object's doc, the entry last in it
    expect(updated).toContain(`${freshStub}\n/**\n * Every handler, by event.\n */\n`);
    expect(updated).toContain(
      '  "account.login": accountLogin,\n  "refund.notice": refundNotice,\n};\n',
    );
    expect(updated).toContain(`  ${marker}  "order.shipping": orderShipping,\n`);
    expect(updated).toContain(`${marker}/**\n * order.shipping: \`POST /order_shipping\``);
    expect(updated).toContain("  AccountLoginResult,\n  RefundNoticeResult,\n} from");
  });

  it("leaves the removed event's handler a compile error at its key, and compiles once the user deletes it", () => {
    const errors = typeErrors(dir, ["handlers.ts"]);
    // the key (an excess property), the stub's type (no such event) and its result type's import
    expect(errors).toEqual(
      [
        `handlers.ts:${lineOf(updated, "  OrderShippingResult,")} TS2305`,
        `handlers.ts:${lineOf(updated, 'CallbackHandlers["order.shipping"]')} TS2339`,
        // and so its parameter has no type
        `handlers.ts:${lineOf(updated, 'CallbackHandlers["order.shipping"]')} TS7006`,
        `handlers.ts:${lineOf(updated, '  "order.shipping": orderShipping')} TS2353`,
      ].sort(),
    );
    // the user deletes what was marked: the handler, its entry, the result type it used
    const start = updated.indexOf(`${marker}/**\n * order.shipping:`);
    const deleted = (
      updated.slice(0, start) + updated.slice(updated.indexOf("/**\n * cart.update:"))
    )
      .replace(`  ${marker}  "order.shipping": orderShipping,\n`, "")
      .replace("  OrderShippingResult,\n", "");
    expect(deleted).not.toContain(`"order.shipping"`);
    writeFileSync(join(dir, "deleted.ts"), deleted);
    expect(typeErrors(dir, ["deleted.ts"])).toEqual([]);
  });

  it("is idempotent: a second run writes nothing and reminds of the marked handler; --check fails until it is deleted", async () => {
    const before = statSync(file).mtimeMs;
    const again = await runCli(["scaffold-handlers", file, "--spec", spec]);
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(
      /nothing to write; left to do by hand:\n {2}callback "order\.shipping" is no longer in the spec/,
    );
    expect(readFileSync(file, "utf8")).toBe(updated);
    expect(statSync(file).mtimeMs).toBe(before);
    const check = await runCli(["scaffold-handlers", file, "--spec", spec, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(
      /handlers\.ts is not current with the spec:\n {2}callback "order\.shipping"/,
    );
    const current = await runCli([
      "scaffold-handlers",
      join(dir, "deleted.ts"),
      "--spec",
      spec,
      "--check",
    ]);
    expect(current.stderr).toBe("");
    expect(current.stdout).toMatch(/deleted\.ts is current with the spec \(4 handlers\)/);
    expect(current.status).toBe(0);
  });

  it("--check on a file that is behind lists what would change and writes nothing", async () => {
    const behind = join(dir, "behind.ts");
    writeFileSync(behind, exampleHandlers);
    const check = await runCli(["scaffold-handlers", behind, "--spec", spec, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/^ {2}would add callback "refund\.notice": stub refundNotice/m);
    expect(check.stderr).toMatch(/^ {2}would mark callback "order\.shipping"/m);
    expect(readFileSync(behind, "utf8")).toBe(exampleHandlers);
  });
});

/** The in-process update of `text` against the model of `spec`: the new text and what changed. */
function update(spec: string, text: string, handlersImport?: string) {
  const parts = scaffoldParts(createEmitContext(loadModel(spec), "spec/"));
  const planned = planFileUpdate("/h/handlers.ts", text, parts, handlersImport);
  return { text: applyEdits(text, planned.edits), changes: planned.changes };
}

describe("the update keeps the user's style", () => {
  /** Handlers written inline, `satisfies`, one-line import, no trailing commas, CRLF line ends. */
  const inline = [
    "// my handlers: written inline, my own way",
    'import type { CallbackHandlers, CartUpdateResult } from "./pkg/src/callbacks.js"',
    "",
    "export const handlers = {",
    "  // answered by the catalogue service",
    '  "product.info": async (_body, ctx) => { ctx.setStatus(404); return { status: "failure", error: { code: 404, message: "none" } } },',
    '  "order.shipping": async () => ({ status: "failure", error: { code: 1, data: [] } }),',
    '  "cart.update": async (): Promise<CartUpdateResult> => ({ status: "failure", errors: [] }),',
    '  "account.login": async () => ({ status: "success" }) // the last one has no comma',
    "} satisfies CallbackHandlers",
    "",
  ].join("\r\n");

  it("adds after the last entry in its style, CRLF and all, and the import on its one line", () => {
    const { text, changes } = update(spec, inline);
    expect(changes.map((c) => c.kind)).toEqual(["added", "marked"]);
    expect(text).not.toMatch(/[^\r]\n/); // every line ends in CRLF, the new ones too
    expect(text).toContain(
      '  "account.login": async () => ({ status: "success" }), // the last one has no comma\r\n  "refund.notice": refundNotice\r\n} satisfies CallbackHandlers',
    );
    expect(text).toContain(
      'import type { CallbackHandlers, CartUpdateResult, RefundNoticeResult } from "./pkg/src/callbacks.js"\r\n',
    );
    expect(text).toContain(
      '  // apigen: event "order.shipping" is no longer in the spec: delete this handler\r\n  "order.shipping": async',
    );
    // every other line the user wrote is still there as it was (the import and the last entry grew)
    const lines = new Set(text.split("\r\n"));
    const grown = /^(import type|  "account\.login")/;
    for (const line of inline.split("\r\n"))
      if (!grown.test(line)) expect(lines.has(line)).toBe(true);
    writeFileSync(join(dir, "inline.ts"), text);
    const errors = typeErrors(dir, ["inline.ts"]);
    expect(errors).toEqual([
      `inline.ts:${lineOf(text.replaceAll("\r\n", "\n"), '"order.shipping": async')} TS2353`,
    ]);
  });

  it("a byte order mark stays in front, and every edit lands where it would without one", () => {
    const plain = update(spec, exampleHandlers).text;
    expect(update(spec, `\uFEFF${exampleHandlers}`).text).toBe(`\uFEFF${plain}`);
  });

  it("names a new stub so that it does not clash with the user's own declarations", () => {
    const text = exampleHandlers.replace(
      "/** OAuth codes",
      "function refundNotice(): void {}\nrefundNotice();\n\n/** OAuth codes",
    );
    const result = update(spec, text);
    expect(result.changes[0]).toMatchObject({ kind: "added", stub: "refundNoticeHandler" });
    expect(result.text).toContain(
      'export const refundNoticeHandler: CallbackHandlers["refund.notice"]',
    );
    expect(result.text).toContain('  "refund.notice": refundNoticeHandler,\n};');
  });

  it("a one-line import that grows past the line width is broken one name a line, as prettier does", async () => {
    const oneLine = exampleHandlers.replace(
      /import type \{[^}]*\} from "merchant-commerce-api\/callbacks";/,
      'import type { CallbackHandlers, ProductInfoResult, OrderShippingResult } from "merchant-commerce-api/callbacks";',
    );
    const { text } = update(spec, oneLine);
    const statement = /import type \{[^}]*\} from "merchant-commerce-api\/callbacks";\n/.exec(
      text,
    )![0];
    expect(statement).toBe(
      'import type {\n  CallbackHandlers,\n  ProductInfoResult,\n  OrderShippingResult,\n  RefundNoticeResult,\n} from "merchant-commerce-api/callbacks";\n',
    );
    expect(await format(statement, { ...prettierOptions, parser: "typescript" })).toBe(statement);
  });

  it("a fresh scaffold, updated, is still one prettier leaves as it is", async () => {
    const fresh = join(dir, "merchant-fresh.ts");
    expect((await runCli(["scaffold-handlers", fresh])).status).toBe(0); // the Merchant spec as it is
    const { text } = update(spec, readFileSync(fresh, "utf8"));
    expect(text).toContain("refundNotice");
    expect(await format(text, { ...prettierOptions, parser: "typescript" })).toBe(text);
  });
});

describe("the import of the handler types", () => {
  const base = exampleHandlers;
  const merchant = join(repoRoot, "spec");

  it("moves to --handlers-import, in the file's quotes", () => {
    const single = base.replace('"merchant-commerce-api/callbacks"', "'./gen/callbacks.js'");
    const { text, changes } = update(merchant, single, "./pkg/src/callbacks.js");
    expect(changes).toEqual([
      { kind: "import", from: "./gen/callbacks.js", to: "./pkg/src/callbacks.js" },
    ]);
    expect(text).toBe(single.replace("'./gen/callbacks.js'", "'./pkg/src/callbacks.js'"));
  });

  it("follows the package when it was renamed; a path of the user's own is kept without the flag", () => {
    const renamed = base.replace('"merchant-commerce-api/callbacks"', '"shop-api/callbacks"');
    const moved = update(merchant, renamed);
    expect(moved.changes).toEqual([
      { kind: "import", from: "shop-api/callbacks", to: "merchant-commerce-api/callbacks" },
    ]);
    expect(moved.text).toBe(base);
    const relative = base.replace(
      '"merchant-commerce-api/callbacks"',
      '"../generated/src/callbacks.js"',
    );
    expect(update(merchant, relative)).toEqual({ text: relative, changes: [] });
  });

  it("the CLI prints the move and writes it", async () => {
    const folder = join(scratch, "import");
    const file = join(folder, "handlers.ts");
    expect(
      (await runCli(["scaffold-handlers", file, "--handlers-import", "./old/callbacks.js"])).status,
    ).toBe(0);
    const before = readFileSync(file, "utf8");
    const run = await runCli([
      "scaffold-handlers",
      file,
      "--handlers-import",
      "./new/callbacks.js",
    ]);
    expect(run.stdout).toMatch(
      /^ {2}import moved: "\.\/old\/callbacks\.js" -> "\.\/new\/callbacks\.js"$/m,
    );
    expect(readFileSync(file, "utf8")).toBe(
      before.replace("./old/callbacks.js", "./new/callbacks.js"),
    );
  });
});

describe("webhook events", () => {
  const webhooksSpec = join(repoRoot, "test/fixtures/features/typed-webhooks");
  const folder = join(scratch, "webhooks");

  it("a spec that gains webhook events: their stubs and object appended, WebhookHandlers imported, as a fresh scaffold has them", async () => {
    const file = join(folder, "handlers.ts");
    expect((await runCli(["--spec", webhooksSpec, "--out", join(folder, "pkg")])).status).toBe(0);
    const scaffold = ["scaffold-handlers", file, "--handlers-import", "./pkg/src/callbacks.js"];
    expect((await runCli([...scaffold, "--spec", webhooksSpec])).status).toBe(0);
    const fresh = readFileSync(file, "utf8");
    // the file as a scaffold of the spec before it had webhook events would be
    const older = fresh
      .slice(0, fresh.indexOf("\n/**\n * issues:"))
      .replace("{ CallbackHandlers, WebhookHandlers }", "{ CallbackHandlers }");
    const { text, changes } = update(webhooksSpec, older);
    expect(changes).toEqual([
      { kind: "added", event: "issues", stub: "onIssues", webhook: true },
      { kind: "added", event: "ping", stub: "onPing", webhook: true },
      { kind: "webhooks-object", name: "webhookHandlers" },
    ]);
    expect(text).toBe(fresh);
    expect(typeErrors(folder, ["handlers.ts"])).toEqual([]);
  });

  it("a removed webhook event is marked and fails to compile at its key", () => {
    const file = join(folder, "handlers.ts");
    const fresh = readFileSync(file, "utf8");
    const withExtra = fresh.replace("  ping: onPing,\n", "  ping: onPing,\n  star: onPing,\n");
    const { text, changes } = update(webhooksSpec, withExtra);
    expect(changes).toEqual([{ kind: "marked", event: "star", webhook: true }]);
    writeFileSync(join(folder, "extra.ts"), text);
    expect(typeErrors(folder, ["extra.ts"])).toEqual([
      `extra.ts:${lineOf(text, "  star: onPing")} TS2353`,
    ]);
  });

  it("when the spec has no callbacks left, a line that does not compile stands in for the excess-key error", () => {
    const file = join(folder, "handlers.ts");
    const fresh = readFileSync(file, "utf8");
    const withOld = fresh.replace(
      "export const handlers: CallbackHandlers = {};",
      'export const handlers: CallbackHandlers = {\n  "product.info": async () => ({ status: "success" }),\n};',
    );
    const { text, changes } = update(webhooksSpec, withOld);
    expect(changes).toEqual([{ kind: "marked", event: "product.info", webhook: false }]);
    expect(text).toContain(
      '};\n\n// apigen: the spec has no callbacks any more: delete the handlers of "product.info", then these two lines.\nexport const apigenRemovedCallbackHandlers: never = ',
    );
    writeFileSync(join(folder, "no-callbacks.ts"), text);
    expect(typeErrors(folder, ["no-callbacks.ts"])).toEqual([
      `no-callbacks.ts:${lineOf(text, "export const apigenRemovedCallbackHandlers")} TS2322`,
    ]);
    expect(update(webhooksSpec, text).text).toBe(text); // marked once
  });
});

describe("a file it does not recognise is refused, nothing written", () => {
  const merchant = join(repoRoot, "spec");
  const refusal = (text: string): string => {
    try {
      update(merchant, text);
    } catch (error) {
      if (error instanceof UpdateRefused) return `${error.line ?? "-"}: ${error.reason}`;
      throw error;
    }
    throw new Error("not refused");
  };

  it.each([
    [
      "no handler types imported",
      "// my notes\nexport const x = 1;\n",
      /^-: it imports no CallbackHandlers by name/,
    ],
    [
      "no object typed by them",
      'import type { CallbackHandlers } from "merchant-commerce-api/callbacks";\nexport const handlers = {} as CallbackHandlers;\n',
      /^-: no object is typed CallbackHandlers/,
    ],
    [
      "a spread",
      'import type { CallbackHandlers } from "merchant-commerce-api/callbacks";\nimport { more } from "./more.js";\nexport const handlers: CallbackHandlers = {\n  ...more,\n};\n',
      /^4: the object handlers spreads `more`: apigen cannot tell which events it handles/,
    ],
    [
      "two objects",
      'import type { CallbackHandlers } from "merchant-commerce-api/callbacks";\nexport const a: CallbackHandlers = {};\nexport const b = {} satisfies CallbackHandlers;\n',
      /^-: a and b are both typed CallbackHandlers/,
    ],
    [
      "a syntax error",
      'import type { CallbackHandlers } from "merchant-commerce-api/callbacks";\nexport const handlers: CallbackHandlers = {\n  "product.info": (,\n};\n',
      /^3: it does not parse: /,
    ],
  ])("%s", (_name, text, reason) => {
    expect(refusal(text)).toMatch(reason);
  });

  it("the CLI says why, exits 1 and leaves the file as it was", async () => {
    const file = join(scratch, "notes.ts");
    writeFileSync(file, "// my handlers\n");
    const run = await runCli(["scaffold-handlers", file]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /notes\.ts: apigen cannot update this handlers file: it imports no CallbackHandlers by name .*\. Nothing was written\.\n$/,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(file, "utf8")).toBe("// my handlers\n");
    const binary = join(scratch, "binary.ts");
    writeFileSync(binary, Buffer.from([0x69, 0x6d, 0xff, 0xfe]));
    const bad = await runCli(["scaffold-handlers", binary]);
    expect(bad.stderr).toMatch(
      /binary\.ts: apigen cannot update this handlers file: it is not UTF-8 text/,
    );
    expect(readFileSync(binary)).toEqual(Buffer.from([0x69, 0x6d, 0xff, 0xfe]));
  });
});
