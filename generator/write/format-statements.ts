/**
 * Formatting TypeScript one top-level statement at a time, from a memory of statements
 * formatted before. Prettier formats each top-level statement on its own and joins them with
 * one newline, or two where the source had a blank line, so a file can be cut at its
 * statements, each statement's formatted text remembered by its source text, and on a later
 * run only the statements not seen before formatted: after a one-field edit, one declaration
 * instead of a file of hundreds. Watch keeps the memory across its runs; the command line
 * keeps it in node_modules/.cache/apigen between runs.
 */
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ts } from "ts-morph";
import { formatterId, prettierOptions } from "./format.ts";

const memoDir = fileURLToPath(
  new URL("../../node_modules/.cache/apigen/formatted-statements/", import.meta.url),
);
/** Memories not written for this long belong to output folders no longer generated. */
const memoMaxAgeMs = 7 * 24 * 3600 * 1000;

/**
 * Where the command line keeps the memory for `outDir` between runs (one file per output
 * folder, so each stays the size of its output): a cache, safe to delete.
 */
function statementMemoFile(outDir: string): string {
  return join(
    memoDir,
    `${createHash("sha256").update(resolve(outDir)).digest("hex").slice(0, 16)}.json`,
  );
}

/** A top-level statement's source text (leading comments included, trimmed) and whether a blank line precedes it. */
interface Statement {
  text: string;
  blankLineBefore: boolean;
}

/** The file's top-level statements, or undefined when it cannot be cut safely (text after the last statement). */
function statementsOf(source: string): Statement[] | undefined {
  const file = ts.createSourceFile(
    "emitted.ts",
    source,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  if (file.endOfFileToken.getFullText(file).trim() !== "") return undefined;
  return file.statements.map((statement, i) => {
    const text = source.slice(statement.pos, statement.end);
    const leadingSpace = text.slice(0, text.length - text.trimStart().length);
    return { text: text.trim(), blankLineBefore: i > 0 && /\n[ \t]*\n/.test(leadingSpace) };
  });
}

/** Deletes the memories of output folders not generated for a week (best effort). */
function removeStaleMemos(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    try {
      if (now - statSync(join(dir, name)).mtimeMs > memoMaxAgeMs)
        rmSync(join(dir, name), { force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}

/** What a remembered statement's formatting depends on: the formatter, its version and options. */
const memoFormatter = `${formatterId} babel-ts ${JSON.stringify(prettierOptions)}`;

/** The formatting memory of the output folder `outDir`, as earlier runs left it. */
export function statementMemoFor(outDir: string): StatementMemo {
  return StatementMemo.load(statementMemoFile(outDir), memoFormatter);
}

/** Beyond this many characters of remembered text, the least recently used statements are dropped. */
const memoryLimit = 32_000_000;

/** Formatted statements by source text, most recently used last. */
export class StatementMemo {
  private readonly entries = new Map<string, string>();
  private size = 0;
  private changed = false;

  /** A memory kept only in this process, or, with `saveTo`, one that `save` writes there. */
  constructor(private readonly saveTo?: { file: string; formatter: string }) {}

  /** The memory saved in `file` with the same formatter (or an empty one), to be saved there again. */
  static load(file: string, formatter: string): StatementMemo {
    const memo = new StatementMemo({ file, formatter });
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as {
        formatter?: string;
        statements?: [string, string][];
      };
      if (saved.formatter === formatter && Array.isArray(saved.statements))
        for (const [source, formatted] of saved.statements) memo.remember(source, formatted);
      memo.changed = false;
    } catch {
      // no memory yet, or an unreadable one: start empty
    }
    return memo;
  }

  /** Writes the memory where it was loaded from, if it changed (a temporary file renamed, so readers never see half). */
  save(): void {
    if (!this.changed || !this.saveTo) return;
    const { file, formatter } = this.saveTo;
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.tmp-${process.pid}`;
    writeFileSync(temp, JSON.stringify({ formatter, statements: [...this.entries] }));
    renameSync(temp, file);
    this.changed = false;
    removeStaleMemos(dirname(file));
  }

  /** Whether nothing is remembered (a fresh memory learns even from files it did not format). */
  get empty(): boolean {
    return this.entries.size === 0;
  }

  /** Remembers each statement of a file formatted whole, when source and output cut into as many statements. */
  learn(source: string, formatted: string): void {
    const before = statementsOf(source);
    const after = statementsOf(formatted);
    if (!before || !after || before.length !== after.length) return;
    before.forEach((statement, i) => this.remember(statement.text, `${after[i]!.text}\n`));
  }

  /**
   * The file formatted from remembered statements, the others formatted together in one call
   * of `formatBatch`; undefined when it cannot be cut or most of it is new (then formatting it
   * whole is cheaper, and the caller does).
   */
  async format(
    source: string,
    formatBatch: (text: string) => Promise<string>,
  ): Promise<string | undefined> {
    const statements = statementsOf(source);
    if (!statements) return undefined;
    const missing = [
      ...new Set(statements.filter((s) => !this.entries.has(s.text)).map((s) => s.text)),
    ];
    if (missing.length > statements.length / 2) return undefined;
    if (missing.length > 0) {
      const formatted = statementsOf(await formatBatch(`${missing.join("\n\n")}\n`));
      if (formatted?.length !== missing.length) return undefined;
      missing.forEach((text, i) => this.remember(text, `${formatted[i]!.text}\n`));
    }
    let out = "";
    for (const statement of statements) {
      const formatted = this.entries.get(statement.text)!;
      this.remember(statement.text, formatted);
      out += `${statement.blankLineBefore ? "\n" : ""}${formatted}`;
    }
    return out;
  }

  /** Stores or refreshes one statement as the most recently used, dropping the least recently used past the limit. */
  private remember(source: string, formatted: string): void {
    const previous = this.entries.get(source);
    if (previous !== undefined) {
      this.entries.delete(source);
      this.size -= source.length + previous.length;
    }
    if (previous !== formatted) this.changed = true;
    this.entries.set(source, formatted);
    this.size += source.length + formatted.length;
    for (const [oldest, text] of this.entries) {
      if (this.size <= memoryLimit) break;
      this.entries.delete(oldest);
      this.size -= oldest.length + text.length;
    }
  }
}
