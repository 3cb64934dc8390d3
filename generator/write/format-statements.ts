/**
 * Formatting TypeScript one top-level statement at a time, for a process that formats the
 * same files again and again (watch). Prettier formats each top-level statement on its own
 * and joins them with one newline, or two where the source had a blank line, so a file can
 * be cut at its statements, each statement's formatted text remembered, and on the next run
 * only the statements that changed formatted: a one-field edit re-formats one declaration,
 * not a file of hundreds.
 */
import { ts } from "ts-morph";

/** A top-level statement's source text (leading comments included, trimmed) and whether a blank line precedes it. */
interface Statement {
  text: string;
  blankLineBefore: boolean;
}

/** The file's top-level statements, or undefined when it cannot be cut safely (text after the last statement). */
function statementsOf(source: string): Statement[] | undefined {
  const file = ts.createSourceFile("emitted.ts", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  if (file.endOfFileToken.getFullText(file).trim() !== "") return undefined;
  return file.statements.map((statement, i) => {
    const text = source.slice(statement.pos, statement.end);
    const leadingSpace = text.slice(0, text.length - text.trimStart().length);
    return { text: text.trim(), blankLineBefore: i > 0 && /\n[ \t]*\n/.test(leadingSpace) };
  });
}

/** Formatted statements by their source text, per file path: what the last run learned. */
export class StatementMemo {
  private readonly byFile = new Map<string, Map<string, string>>();

  /** Whether `path` has been formatted before in this process. */
  knows(path: string): boolean {
    return this.byFile.has(path);
  }

  /**
   * Remembers a whole-file format: the source's statements paired with the output's, when
   * both cut into the same number of statements (otherwise nothing is learned).
   */
  learn(path: string, source: string, formatted: string): void {
    const before = statementsOf(source);
    const after = statementsOf(formatted);
    if (!before || !after || before.length !== after.length) return;
    this.byFile.set(path, new Map(before.map((s, i) => [s.text, `${after[i]!.text}\n`])));
  }

  /**
   * The file formatted from remembered statements, formatting only the new ones with
   * `formatStatement`; undefined when the file cannot be cut (the caller formats it whole).
   */
  async format(path: string, source: string, formatStatement: (text: string) => Promise<string>): Promise<string | undefined> {
    const statements = statementsOf(source);
    const known = this.byFile.get(path);
    if (!statements || !known) return undefined;
    const current = new Map<string, string>();
    let out = "";
    for (const statement of statements) {
      const formatted = current.get(statement.text) ?? known.get(statement.text) ?? (await formatStatement(statement.text));
      current.set(statement.text, formatted);
      out += `${statement.blankLineBefore ? "\n" : ""}${formatted}`;
    }
    // Only this run's statements are kept, so the memory stays the size of the output.
    this.byFile.set(path, current);
    return out;
  }
}
