/**
 * Random damage to a spec folder, as fast-check arbitraries: line edits (deleted, duplicated,
 * re-indented, tabs), scalars swapped for mappings and lists, hostile strings and keys, bytes
 * that are not UTF-8 or are control characters, a BOM, CRLF, empty, truncated and binary
 * files, huge strings, deep nesting, YAML alias tricks (unresolved, self-referencing, bombs),
 * line ends of every kind (LF, CRLF, CR alone, mixed within a file, and different in each
 * file of the folder), and folder-level trouble (symbolic link loops, links to nothing,
 * FIFOs, copied files).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";

/** Strings that have broken generators: comment and template breakers, prototype keys, quotes. */
const hostileStrings = [
  "*/ export const injected = 1; /*",
  "</script><script>alert(1)</script>",
  "${process.exit(1)}",
  "`",
  "\\",
  '"',
  "'",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "0",
  "-1",
  "1e309",
  "null",
  "~",
  "true",
  "",
  " ",
  "a\u2028b",
  "\u{1F600}",
  "\u202Eevil",
  "{{handlebars}}",
  "{{{triple}}}",
  "@undocumented",
  "// @ts-nocheck",
];

/** A line end YAML 1.2 knows: LF, CRLF, and CR alone. */
export type LineEnd = "\n" | "\r\n" | "\r";

/** One edit of a spec file's text (or bytes). */
export type FileMutation =
  | {
      kind:
        | "delete-line"
        | "duplicate-line"
        | "tab-indent"
        | "to-map"
        | "to-list"
        | "alias-self"
        | "alias-unresolved";
      at: number;
    }
  | { kind: "reindent"; at: number; by: number }
  | { kind: "hostile-value" | "hostile-key"; at: number; text: string }
  | { kind: "insert-bytes"; at: number; bytes: number[] }
  | { kind: "huge-string"; at: number; length: number }
  | { kind: "deep-flow" | "deep-block"; at: number; depth: number }
  | { kind: "alias-bomb" }
  | { kind: "bom" | "crlf" | "empty" }
  | { kind: "line-ends"; ends: LineEnd[] }
  | { kind: "truncate"; at: number }
  | { kind: "binary"; bytes: number[] };

/** Trouble with the folder rather than a file's text. */
export type FolderMutation = { kind: "link-loop" | "link-to-nothing" | "fifo" | "copy-file" };

export interface SpecDamage {
  /** Which spec file (an index into the folder's files, taken modulo their count). */
  file: number;
  edits: FileMutation[];
  folder?: FolderMutation;
  /** Line ends of the folder's other files: the i-th file gets `otherLineEnds[i % length]`. */
  otherLineEnds?: LineEnd[][];
}

const position = fc.nat({ max: 10_000 });

/**
 * The line ends of one file, used in turn line after line: one kind alone (LF, CRLF or CR),
 * or several mixed within the file.
 */
const lineEnds: fc.Arbitrary<LineEnd[]> = fc.oneof(
  fc.constantFrom<LineEnd[]>(["\n"], ["\r\n"], ["\r"]),
  fc.array(fc.constantFrom<LineEnd>("\n", "\r\n", "\r"), { minLength: 2, maxLength: 5 }),
);

const fileMutation: fc.Arbitrary<FileMutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        "delete-line",
        "duplicate-line",
        "tab-indent",
        "to-map",
        "to-list",
        "alias-self",
        "alias-unresolved",
      ),
      at: position,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("reindent"),
      at: position,
      by: fc.integer({ min: -6, max: 6 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("hostile-value", "hostile-key"),
      at: position,
      text: fc.oneof(
        fc.constantFrom(...hostileStrings),
        fc.string({ unit: "binary", maxLength: 12 }),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("insert-bytes"),
      at: position,
      bytes: fc.array(
        fc.oneof(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 127, max: 255 })),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("huge-string"),
      at: position,
      length: fc.integer({ min: 10_000, max: 300_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("deep-flow", "deep-block"),
      at: position,
      depth: fc.integer({ min: 30, max: 3_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant("alias-bomb" as const) }),
      fc.record({ kind: fc.constantFrom("bom", "crlf", "empty") }),
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate"), at: position }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("line-ends"), ends: lineEnds }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("binary"),
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
    }),
  },
);

const folderMutation: fc.Arbitrary<FolderMutation> = fc.record({
  kind: fc.constantFrom("link-loop", "link-to-nothing", "fifo", "copy-file"),
});

export const specDamage: fc.Arbitrary<SpecDamage> = fc.record(
  {
    file: fc.nat({ max: 100 }),
    edits: fc.array(fileMutation, { minLength: 1, maxLength: 4 }),
    // Folder trouble in about one case in twelve: each kind is a few lines of the loader.
    folder: fc.option(folderMutation, { freq: 11 }),
    // Other line ends in the other files in about one case in three.
    otherLineEnds: fc.option(fc.array(lineEnds, { minLength: 1, maxLength: 4 }), { freq: 2 }),
  },
  { requiredKeys: ["file", "edits"] },
);

/** `key: value` on a line: the value's start, or undefined. */
function valueStart(line: string): number | undefined {
  const match = /^(\s*(?:- )?[^\s:#][^:#]*?:)\s+\S/.exec(line);
  return match ? match[1]!.length + 1 : undefined;
}

/** Applies one edit to a file's text lines. */
function editLines(
  lines: string[],
  edit: Exclude<
    FileMutation,
    { kind: "insert-bytes" | "binary" | "bom" | "crlf" | "empty" | "truncate" | "line-ends" }
  >,
): string[] {
  const i = "at" in edit ? edit.at % Math.max(1, lines.length) : 0;
  const line = lines[i] ?? "";
  const value = valueStart(line);
  const withValue = (text: string) =>
    value === undefined ? line : `${line.slice(0, value)}${text}`;
  const indent = /^\s*/.exec(line)![0];
  const replace = (text: string) => [...lines.slice(0, i), text, ...lines.slice(i + 1)];
  switch (edit.kind) {
    case "delete-line":
      return [...lines.slice(0, i), ...lines.slice(i + 1)];
    case "duplicate-line":
      return [...lines.slice(0, i + 1), line, ...lines.slice(i + 1)];
    case "reindent":
      return replace(
        edit.by >= 0 ? " ".repeat(edit.by) + line : line.slice(Math.min(-edit.by, indent.length)),
      );
    case "tab-indent":
      return replace(line.replace(/^ +/, "\t"));
    case "to-map":
      return replace(withValue("{ a: 1, b: [x] }"));
    case "to-list":
      return replace(withValue("[1, two, { three: 3 }]"));
    case "alias-self":
      return replace(withValue("&self [1, *self]"));
    case "alias-unresolved":
      return replace(withValue("*nowhere"));
    case "hostile-value":
      return replace(withValue(JSON.stringify(edit.text)));
    case "hostile-key":
      return replace(
        line.replace(/^(\s*(?:- )?)[^\s:#][^:#]*?:/, `$1${JSON.stringify(edit.text)}:`),
      );
    case "huge-string":
      return replace(withValue(JSON.stringify("x".repeat(edit.length))));
    case "deep-flow":
      return replace(withValue("[".repeat(edit.depth) + "]".repeat(edit.depth)));
    case "deep-block": {
      const nested = Array.from(
        { length: edit.depth },
        (_, d) => `${indent}${" ".repeat(2 * (d + 1))}k${d}:`,
      );
      return [
        ...lines.slice(0, i + 1),
        ...nested,
        `${indent}${" ".repeat(2 * (edit.depth + 1))}end`,
        ...lines.slice(i + 1),
      ];
    }
    case "alias-bomb": {
      const rows = ["x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
      for (const [name, from] of [
        ["b", "a"],
        ["c", "b"],
        ["d", "c"],
        ["e", "d"],
        ["f", "e"],
        ["g", "f"],
      ] as const)
        rows.push(`x-${name}: &${name} [${Array(9).fill(`*${from}`).join(", ")}]`);
      return [...lines, ...rows];
    }
    default: {
      const unhandled: never = edit;
      throw new Error(`unhandled edit ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The file's bytes with its line ends (LF, CRLF or CR alone) made `ends`, used in turn. */
export function withLineEnds(bytes: Uint8Array, ends: readonly LineEnd[]): Uint8Array {
  const lines = Buffer.from(bytes)
    .toString("latin1")
    .split(/\r\n?|\n/);
  const text = lines.reduce((all, line, i) => all + ends[(i - 1) % ends.length]! + line);
  return Buffer.from(text, "latin1");
}

/** Applies one edit to a file's bytes. */
export function applyEdit(bytes: Uint8Array, edit: FileMutation): Uint8Array {
  switch (edit.kind) {
    case "insert-bytes": {
      const at = edit.at % (bytes.length + 1);
      return Uint8Array.from([...bytes.subarray(0, at), ...edit.bytes, ...bytes.subarray(at)]);
    }
    case "binary":
      return Uint8Array.from(edit.bytes);
    case "bom":
      return Uint8Array.from([0xef, 0xbb, 0xbf, ...bytes]);
    case "crlf":
      return Buffer.from(Buffer.from(bytes).toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");
    case "empty":
      return new Uint8Array(0);
    case "truncate":
      return bytes.subarray(0, edit.at % (bytes.length + 1));
    case "line-ends":
      return withLineEnds(bytes, edit.ends);
    default: {
      // Line edits work on the text as latin1, so bytes that are not UTF-8 survive them.
      const text = Buffer.from(bytes).toString("latin1");
      return Buffer.from(editLines(text.split("\n"), edit).join("\n"), "latin1");
    }
  }
}

/** Applies the folder-level trouble inside `spec`, next to `files` (its spec files, relative). */
export function applyFolderMutation(
  spec: string,
  files: readonly string[],
  mutation: FolderMutation,
  pick: number,
): void {
  switch (mutation.kind) {
    case "link-loop":
      symlinkSync("loop-b.yaml", join(spec, "loop-a.yaml"));
      symlinkSync("loop-a.yaml", join(spec, "loop-b.yaml"));
      return;
    case "link-to-nothing":
      symlinkSync("nothing-here.yaml", join(spec, "dangling.yaml"));
      return;
    case "fifo":
      execFileSync("mkfifo", [join(spec, "pipe.yaml")]);
      return;
    case "copy-file": {
      const file = files[pick % files.length]!;
      writeFileSync(
        join(spec, `zz-copy-of-${file.replaceAll("/", "-")}`),
        readFileSync(join(spec, file)),
      );
      return;
    }
    default: {
      const unhandled: never = mutation.kind;
      throw new Error(`unhandled folder mutation ${String(unhandled)}`);
    }
  }
}
