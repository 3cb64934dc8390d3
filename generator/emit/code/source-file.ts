/**
 * A whole TypeScript file from code-model statements: the banner, the imports its references
 * recorded (grouped by module, values before types, each sorted), then the statements, and
 * the final text at prettier's width and style. No formatter runs after this.
 */
import type { Doc } from "./layout.ts";
import { printDoc } from "./layout-print.ts";
import type { FileStatement, Statement } from "./nodes.ts";
import { PrintContext, type ImportedName } from "./print-context.ts";
import { printSpecifiers, printStatement } from "./print-statements.ts";
import { printLineComment, printString } from "./print-text.ts";

/** The line width of every generated file (prettier's `printWidth` in the style test). */
export const printWidth = 100;

export interface SourceFileSpec {
  /** Output path, e.g. `src/client.ts`: imports are written relative to it. */
  path: string;
  /** First line, a line comment. */
  banner?: string;
  /** Statements above the imports (a file's own doc comment). */
  header?: readonly Statement[];
  statements: readonly FileStatement[];
}

const byName = (a: ImportedName, b: ImportedName) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** `import { a, type B } from "./m.js";`, or `import type { ... }` when every name is a type. */
function importStatement(specifier: string, names: readonly ImportedName[]): Doc {
  const values = names.filter((n) => !n.isType).sort(byName);
  const types = names.filter((n) => n.isType).sort(byName);
  const from = [" from ", printString(specifier), ";"];
  if (values.length === 0) return ["import type ", printSpecifiers(types.map((n) => n.name)), from];
  const listed = [...values.map((n) => n.name), ...types.map((n) => `type ${n.name}`)];
  return ["import ", printSpecifiers(listed), from];
}

/**
 * The final text of a TypeScript file. Each top-level statement is laid out on its own (no
 * group spans two statements, so this is the text of laying out the whole file at once) and
 * its layout document is dropped as soon as it is printed: a large file never holds all of
 * them.
 */
export function printSourceFile(spec: SourceFileSpec): string {
  const ctx = new PrintContext(spec.path);
  const print = (statement: Statement) => printDoc(printStatement(statement, ctx), printWidth);
  const header = (spec.header ?? []).map(print);
  const body: string[] = [];
  spec.statements.forEach((entry, i) => {
    if (i > 0) body.push(entry.tight ? "\n" : "\n\n");
    body.push(print(entry.statement));
  });
  const imports = [...ctx.imports.entries()]
    .map(([module, names]) => ({ specifier: ctx.specifier(module), names: [...names.values()] }))
    .sort((a, b) => (a.specifier < b.specifier ? -1 : a.specifier > b.specifier ? 1 : 0))
    .map(({ specifier, names }) => printDoc(importStatement(specifier, names), printWidth));
  // banner and header, a blank line, the imports, a blank line, the statements
  const top = [...(spec.banner ? [printLineComment(spec.banner)] : []), ...header];
  const sections: string[][] = [];
  if (header.length) sections.push(top);
  if (imports.length) sections.push(header.length ? imports : [...top, ...imports]);
  else if (!header.length && top.length) sections.push(top);
  // One join, so the text is one flat string: concatenating it (`+=`, a template) made a
  // rope that encoding it had to copy flat first, a fresh copy of every file (src/openapi.ts
  // alone 14 MB on GitHub's API, where first touching memory costs ~3.7 ms a MB here).
  const head = sections.map((lines) => lines.join("\n")).join("\n\n");
  return [head, head && body.length ? "\n\n" : ""].concat(body, "\n").join("");
}
