/**
 * The `yaml` parser's syntax errors as apigen reports them, for spec files and OpenAPI
 * documents alike: the message without the parser's own "at line, column" (the diagnostic
 * has its place), at the token it means rather than the indentation before it, and, where
 * the parser's first error names a symptom, the cause a reader can act on.
 */
import type { YAMLError } from "yaml";

/** What to say of a syntax error, and the text offset to say it at. */
export interface YamlProblem {
  detail: string;
  offset: number;
  /** The parser's later errors of indentation follow from this one: leave them unsaid. */
  explainsIndentation?: true;
  /** Every later error of the file follows from this one: leave them unsaid. */
  explainsRest?: true;
}

/** The first line of the parser's message, without its position. */
function plainMessage(error: YAMLError): string {
  return error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
}

/** How many spaces begin the line that starts at `start`. */
const indentAt = (text: string, start: number): number =>
  /^ */.exec(text.slice(start, start + 200))![0].length;

/** Where the line holding `offset` starts. */
const lineStartOf = (text: string, offset: number): number =>
  text.lastIndexOf("\n", offset - 1) + 1;

/** The line that starts at `start`, without its line end. */
function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Whether the line holds a value in `quote` that it leaves open (`title: "Shop`). */
function opensQuote(line: string, quote: string): boolean {
  const start = new RegExp(`^\\s*(?:-\\s+)?(?:[^\\s#"'][^#]*?:\\s+)?${quote}`).exec(line);
  if (!start) return false;
  const rest = line.slice(start[0].length);
  // within double quotes a backslash escapes the next character; single quotes double
  const closes = (quote === '"' ? rest.replace(/\\./g, "") : rest).split(quote).length - 1;
  return closes % 2 === 0;
}

/** How many lines back a quoted value's opening line is looked for. */
const linesBack = 500;

/**
 * A quoted value left open. The parser reports a missing closing quote where the value, as it
 * read it, ends: at the end of the file, or where a line less indented stops it. Said instead
 * at the first line after the value's opening line that is not indented past the value's key,
 * which is either where the quote should have closed or a line of the value that needs
 * indenting (DWD's weather API writes a description in double quotes over lines from column 1,
 * which YAML and js-yaml refuse); else at the opening quote.
 */
function openQuote(error: YAMLError, text: string, offset: number): YamlProblem | undefined {
  const quote = /Missing closing (["'])quote/.exec(error.message)?.[1];
  if (error.code !== "MISSING_CHAR" || quote === undefined) return undefined;
  let open = lineStartOf(text, Math.min(offset, text.length));
  for (let back = 0; !opensQuote(lineAt(text, open), quote); back++) {
    if (open === 0 || back === linesBack) return undefined;
    open = lineStartOf(text, open - 1);
  }
  const keyIndent = indentAt(text, open);
  const line = text.slice(0, open).split("\n").length;
  for (let next = text.indexOf("\n", open) + 1; next > 0; next = text.indexOf("\n", next) + 1) {
    if (/^[ \t]*$/.test(lineAt(text, next))) continue;
    const indent = indentAt(text, next);
    if (indent <= keyIndent)
      return {
        detail: `the quoted value begun on line ${line} is not closed before this line, which is not indented past its key: close the quote, or indent the value's lines past the key (or write it as a block scalar, |)`,
        offset: next + indent,
      };
  }
  return {
    detail: "this quoted value is never closed",
    offset: open + lineAt(text, open).indexOf(quote),
  };
}

/** The start of the nearest line before (-1) or after (+1) the one at `start` that holds more than a comment. */
function neighbour(text: string, start: number, step: -1 | 1): number | undefined {
  let at = start;
  for (let i = 0; i < linesBack; i++) {
    if (step < 0) {
      if (at === 0) return undefined;
      at = lineStartOf(text, at - 1);
    } else {
      const end = text.indexOf("\n", at);
      if (end < 0) return undefined;
      at = end + 1;
    }
    if (!/^[ \t]*(#.*)?$/.test(lineAt(text, at))) return at;
  }
  return undefined;
}

/**
 * A plain (unquoted) value holding `: `, which YAML reads as a key of a mapping that cannot
 * sit there (`description: Every error is { error: { code } }`: a trial of PagerDuty's API got
 * 275 errors from one such line, the parser losing its way in the braces after it). Said once,
 * at the value, with the fix; the parser's errors after it follow from it.
 */
function colonInValue(error: YAMLError, text: string, offset: number): YamlProblem | undefined {
  if (error.code !== "BLOCK_AS_IMPLICIT_KEY") return undefined;
  const start = lineStartOf(text, Math.min(offset, text.length));
  const line = lineAt(text, start);
  const keyed = /^(\s*(?:-\s+)?[^\s#"'{[][^:#]*:\s+)([^\s"'{[|>&*!#][^#]*?):\s/.exec(line);
  if (!keyed) return undefined;
  return {
    detail: `this value is not quoted and holds ": " (after ${JSON.stringify(keyed[2]!.slice(-30))}), which YAML reads as a key: quote the whole value ('...', each ' in it doubled), or write it as a block scalar (>- after the key, the text on the lines below, indented)`,
    offset: start + keyed[1]!.length,
    explainsRest: true,
  };
}

/**
 * A type shorthand with `[]` or `<...>` unquoted inside `{ }` (`{ type: string[], ... }`): the
 * brackets open a flow sequence where the value ends, and the parser reports every token of
 * the file after it (a trial of Twitch's API got 540 errors). Said once, at the value, with
 * the fix; the parser's errors after it follow from it.
 */
function bracketsInFlow(error: YAMLError, text: string, offset: number): YamlProblem | undefined {
  if (!/Unexpected flow-seq-start/.test(error.message)) return undefined;
  const start = lineStartOf(text, Math.min(offset, text.length));
  const before = text.slice(start, offset);
  const value = /([\w.<>, ]*?)\s*$/.exec(before.slice(before.lastIndexOf(":") + 1))?.[1];
  if (!before.includes("{") || !value) return undefined;
  const shorthand = `${value.trim()}[]`;
  return {
    detail: `inside \`{ }\` brackets start a list, so ${shorthand} is read as ${value.trim()} followed by one; quote it: "${shorthand}"`,
    offset: offset - value.trimStart().length,
    explainsRest: true,
  };
}

/** The parser's codes of a line indented out of line with its siblings. */
export const indentationCodes: ReadonlySet<string> = new Set([
  "BAD_INDENT",
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
]);

/**
 * A line indented less than the lines before and after it, which line up (a key dedented by
 * mistake, as the trials of four APIs made: `stop_sequences:` two spaces left of its
 * siblings). The parser names the line after it (the next key "must start at the same
 * column") or its value ("nested mappings are not allowed in compact mappings"), then every
 * line after that; said once, at the line to move.
 */
function outOfLine(error: YAMLError, text: string, offset: number): YamlProblem | undefined {
  if (!indentationCodes.has(error.code)) return undefined;
  const here = lineStartOf(text, Math.min(offset, text.length));
  for (const start of [here, neighbour(text, here, -1)]) {
    if (start === undefined) continue;
    const before = neighbour(text, start, -1);
    const after = neighbour(text, start, 1);
    if (before === undefined || after === undefined) continue;
    const indent = indentAt(text, start);
    const around = indentAt(text, before);
    if (indent < around && around === indentAt(text, after))
      return {
        detail: `this line is indented ${indent} spaces, the lines before and after it ${around}: line it up with them`,
        offset: start + indent,
        explainsIndentation: true,
      };
  }
  return undefined;
}

/**
 * What to report of the parser's `error` in `text`. `flow` is true for a document written as
 * JSON (whose lines may be indented any way), where only the parser's message is given.
 */
export function yamlProblem(error: YAMLError, text: string, flow = false): YamlProblem {
  // The parser may point at the indentation before the token it means.
  const at = error.pos[0];
  const offset = at + (/^[ \t]*/.exec(text.slice(at, at + 200))?.[0].length ?? 0);
  if (flow) return { detail: plainMessage(error), offset };
  return (
    openQuote(error, text, offset) ??
    outOfLine(error, text, offset) ??
    colonInValue(error, text, offset) ??
    bracketsInFlow(error, text, offset) ?? { detail: plainMessage(error), offset }
  );
}
