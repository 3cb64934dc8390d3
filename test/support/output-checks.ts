/**
 * What the tests of texts in generated code (test/escape-*.test.ts, test/fuzz/texts.fuzz.test.ts)
 * check a generated package with: its files as the writer would write them (UTF-8), each
 * TypeScript file's syntax and the shape of its tree, the README read by a markdown parser,
 * the JSON and YAML files parsed, and the package itself compiled to JavaScript and imported
 * in a child process that reports whether anything ran.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { load as loadYaml } from "js-yaml";
import { Lexer, type Token, type Tokens } from "marked";
import ts from "typescript";
import { createEmitContext } from "../../generator/emit/context.ts";
import { emitters } from "../../generator/emit/emitters.ts";
import type { ApiModel } from "../../generator/ir/model.ts";
import { transpiledTs } from "./compiled-import.ts";

/** A package's files by path, each text as it reads back after being written as UTF-8. */
export type PackageFiles = Map<string, string>;

/** Every emitter's files for `model`, as the pipeline emits them, decoded from their UTF-8 bytes. */
export function emitPackage(model: ApiModel, specName: string): PackageFiles {
  const ctx = createEmitContext(model, specName);
  const files: PackageFiles = new Map();
  for (const emitter of emitters)
    for (const file of [emitter.emit(ctx)].flat())
      files.set(file.path, Buffer.from(file.contents, "utf8").toString("utf8"));
  return files;
}

/** Writes `files` below `dir`. */
export function writePackage(dir: string, files: PackageFiles): void {
  for (const [path, contents] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
}

// ---------------------------------------------------------------------------------------------
// TypeScript

/** Node kinds that a text may legitimately switch between: a property name is an identifier or a string. */
const nameKinds = new Set([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
]);

/**
 * A TypeScript file as its parser reads it: its syntax errors (`line:col message`), its
 * top-level statements' kinds, and every node of its tree by kind in order (identifiers,
 * strings and numbers as one kind). Texts live in comments and string literals, so a hostile
 * text must leave the statements and the nodes as a clean build has them: an extra
 * statement, call, property or expression is code the text made.
 */
export function parsedShape(
  path: string,
  text: string,
): { errors: string[]; statements: string[]; nodes: string } {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const diagnostics = (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  const errors = diagnostics.map((d) => {
    const { line, character } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${line + 1}:${character + 1} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
  const kinds: string[] = [];
  const visit = (node: ts.Node): void => {
    kinds.push(nameKinds.has(node.kind) ? "Name" : ts.SyntaxKind[node.kind]!);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return {
    errors,
    statements: source.statements.map((s) => ts.SyntaxKind[s.kind]!),
    nodes: kinds.join(" "),
  };
}

/** The syntax errors of a TypeScript file, as `line:col message`. */
export function syntaxErrors(path: string, text: string): string[] {
  return parsedShape(path, text).errors;
}

/**
 * The problems of a TypeScript file against the same file of a clean build: syntax errors,
 * other statements, another tree.
 */
export function treeProblems(
  path: string,
  text: string,
  clean: ReturnType<typeof parsedShape> | undefined,
): string[] {
  const got = parsedShape(path, text);
  const problems = got.errors.map((e) => `${path}:${e}`);
  if (!clean) problems.push(`${path}: not in the clean build`);
  else if (got.statements.join() !== clean.statements.join())
    problems.push(
      `${path}: statements [${got.statements}] where a clean build has [${clean.statements}]`,
    );
  else if (got.nodes !== clean.nodes)
    problems.push(`${path}: its tree differs from a clean build's`);
  return problems;
}

/** The generated TypeScript files of a package (`src/**`), the copied runtime aside. */
export function emittedSources(files: PackageFiles): string[] {
  return [...files.keys()].filter((p) => p.endsWith(".ts") && !p.startsWith("src/runtime/"));
}

/**
 * The problems of one copied runtime file: it must be the banner line, the "Copied from" line
 * and the runtime's own text, the banner a comment alone on its line.
 */
export function runtimeFileProblems(path: string, text: string, clean: string): string[] {
  const copied = text.indexOf("\n// Copied from generator/runtime/");
  const cleanCopied = clean.indexOf("\n// Copied from generator/runtime/");
  if (copied === -1) return [`${path}: no "Copied from" line`];
  const problems: string[] = [];
  if (text.slice(copied) !== clean.slice(cleanCopied))
    problems.push(`${path}: the runtime's text changed`);
  const banner = text.slice(0, copied);
  const source = ts.createSourceFile(path, banner, ts.ScriptTarget.ES2022);
  if (source.statements.length > 0 || banner.includes("\n") || !banner.startsWith("// "))
    problems.push(`${path}: the banner is not one line comment: ${JSON.stringify(banner)}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** Every token of a markdown text, depth first (table cells, list items and inline tokens included). */
export function markdownTokens(text: string): Token[] {
  const all: Token[] = [];
  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      all.push(token);
      const t = token as Token & {
        tokens?: Token[];
        items?: Token[];
        header?: { tokens: Token[] }[];
        rows?: { tokens: Token[] }[][];
      };
      if (t.tokens) visit(t.tokens);
      if (t.items) visit(t.items);
      if (t.header) for (const cell of t.header) visit(cell.tokens);
      if (t.rows) for (const row of t.rows) for (const cell of row) visit(cell.tokens);
    }
  };
  visit(Lexer.lex(text, { gfm: true }));
  return all;
}

/**
 * The shape of the README as a markdown parser reads it: its blocks in order (a table with
 * its row and column counts, a list with its item count, a heading with its depth), then the
 * count of each kind of inline token that makes markup (HTML, links, images, emphasis, code).
 */
export function markdownShape(text: string): string[] {
  const blocks = Lexer.lex(text, { gfm: true })
    .filter((t) => t.type !== "space")
    .map((t) => {
      if (t.type === "table") {
        const table = t as Tokens.Table;
        return `table ${table.rows.length}x${table.header.length}`;
      }
      if (t.type === "list") return `list ${(t as Tokens.List).items.length}`;
      if (t.type === "heading") return `heading ${(t as Tokens.Heading).depth}`;
      return t.type;
    });
  const markup = ["html", "link", "image", "em", "strong", "del", "codespan", "br"];
  const counts = new Map(markup.map((kind) => [kind, 0]));
  for (const token of markdownTokens(text))
    if (counts.has(token.type)) counts.set(token.type, counts.get(token.type)! + 1);
  return [...blocks, ...[...counts].map(([kind, n]) => `${kind}: ${n}`)];
}

/**
 * The README's problems with its banner: the first line must be one whole HTML comment, and
 * the parser must read it as one HTML block that is that line and nothing more.
 */
export function bannerProblems(readme: string): string[] {
  const firstLine = readme.slice(0, readme.indexOf("\n"));
  const problems: string[] = [];
  if (!/^<!-- (?:(?!-->|--!>).)* -->$/.test(firstLine))
    problems.push(`the first line is not one HTML comment: ${JSON.stringify(firstLine)}`);
  const [first] = Lexer.lex(readme, { gfm: true });
  if (first?.type !== "html" || first.raw.trimEnd() !== firstLine)
    problems.push(`the banner is not read as one HTML block: ${JSON.stringify(first?.raw)}`);
  return problems;
}

/** The plain text of an inline markdown text, as a reader sees it rendered (tags dropped, entities decoded). */
export function renderedText(markdown: string): string {
  const html = new Lexer({ gfm: true }).inlineTokens(markdown);
  const text = (tokens: readonly Token[]): string =>
    tokens
      .map((t) => {
        const inner = (t as Token & { tokens?: Token[] }).tokens;
        if (t.type === "codespan") return decodeEntities((t as Tokens.Codespan).text);
        if (t.type === "escape") return decodeEntities((t as Tokens.Escape).text);
        if (inner) return text(inner);
        return decodeEntities((t as Tokens.Text).text ?? "");
      })
      .join("");
  return text(html);
}

/** marked keeps some entities as they are in its tokens (`&amp;` for `&`): what a browser would show. */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

// ---------------------------------------------------------------------------------------------
// JSON and YAML

/** The problems of the package's JSON and YAML files: each parses, and openapi.yaml holds openapi.json's data. */
export function dataFileProblems(files: PackageFiles): string[] {
  const problems: string[] = [];
  const parsed = new Map<string, unknown>();
  const data = ["package.json", "openapi.json", "tsconfig.json", "tsconfig.build.json"];
  for (const path of [...data, "tsconfig.cjs.json"]) {
    try {
      parsed.set(path, JSON.parse(files.get(path)!));
    } catch (error) {
      problems.push(`${path} does not parse: ${String(error)}`);
    }
  }
  try {
    const yaml = loadYaml(files.get("openapi.yaml")!);
    if (JSON.stringify(yaml) !== JSON.stringify(parsed.get("openapi.json")))
      problems.push("openapi.yaml does not hold openapi.json's data");
  } catch (error) {
    problems.push(`openapi.yaml does not parse: ${String(error)}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Running the package

/** The package's entry points that can be imported, by the source each is built from. */
const entrySources = ["src/index.ts", "src/callbacks.ts", "src/testing.ts", "src/openapi.ts"];

/**
 * Compiles the package's sources (written below `dir`) to JavaScript in `dir/dist`, one file
 * at a time without type checks (`transpiledTs`, compiled-import.ts), so a package that would
 * not type-check still runs as far as its syntax lets it. TypeScript's transpileModule did the
 * same at several times the cost (about 15 s of the suite's CPU).
 */
export function transpilePackage(dir: string, files: PackageFiles): void {
  for (const [path, text] of files) {
    if (!path.startsWith("src/") || !path.endsWith(".ts")) continue;
    const out = join(dir, "dist", path.slice("src/".length).replace(/\.ts$/, ".js"));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, transpiledTs(text, path));
  }
}

/** What importing every entry of a package in a fresh Node process did. */
export interface ImportOutcome {
  /** Exit status: 0 when every entry imported. */
  status: number | null;
  /** What the process wrote besides the report: anything is code a text ran. */
  output: string;
  /** `globalThis.__pwned` after the imports: set only by code a text ran. */
  pwned: unknown;
}

/**
 * Imports every entry of the package compiled into `dir/dist` in a child process, which then
 * reports `globalThis.__pwned` on a line of its own. The sentinel texts of the tests try to
 * set it and to write `PWNED`.
 */
export function importPackage(dir: string, files: PackageFiles): ImportOutcome {
  const entries = entrySources
    .filter((source) => files.has(source))
    .map((source) => join(dir, "dist", source.slice("src/".length).replace(/\.ts$/, ".js")));
  const script = [
    'const { pathToFileURL } = await import("node:url");',
    `for (const entry of ${JSON.stringify(entries)}) await import(pathToFileURL(entry).href);`,
    `process.stdout.write("\\nREPORT " + JSON.stringify({ pwned: globalThis.__pwned ?? null }) + "\\n");`,
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  const marker = run.stdout.lastIndexOf("\nREPORT ");
  const report =
    marker === -1
      ? { pwned: null }
      : (JSON.parse(run.stdout.slice(marker + "\nREPORT ".length)) as { pwned: unknown });
  const output = (marker === -1 ? run.stdout : run.stdout.slice(0, marker)) + run.stderr;
  return { status: run.status, output, pwned: report.pwned };
}
