/**
 * Texts into generated files: the one way a text that apigen does not control (a title, a
 * description, a gap note, an example, an enum value, a path, the spec folder's name) is
 * written into each kind of place in the output. One function per context, and every route
 * from the model to a file goes through the function of its context (docs/security.md,
 * "Texts into generated code"):
 *
 * | context | function | what it guarantees |
 * | --- | --- | --- |
 * | a line comment (`//` in TypeScript, `#` in YAML) | `lineComment` | one line: nothing after it is code |
 * | a block or doc comment (`/** … *\/`) | `blockCommentLines` | its lines; none ends the comment |
 * | a TypeScript string literal | `stringLiteral` | one literal, the text exactly |
 * | markdown text (a paragraph, a heading, a list item) | `markdownText` | shown as written: no HTML, link, image or block starts |
 * | a markdown code span | `markdownCode` | one code span on one line |
 * | a markdown table cell | `markdownCell` | stays in its cell |
 * | an HTML comment | `htmlComment` | one line that cannot close the comment |
 * | JSON | `jsonText` | one JSON value, well-formed UTF-8 |
 *
 * A text is escaped, never dropped: what cannot be written raw is shown as a `\uXXXX` escape
 * (`\n`, `\r` for the common line ends), so it stays readable. Names (identifiers, the package
 * name, the version, header names, type and endpoint names) are not texts: the spec schema
 * refuses the hostile ones before a model is built, and `createEmitContext` refuses a model
 * whose package name or version breaks that rule.
 */

/**
 * Characters never written raw outside a string literal: the line ends of JavaScript (LF, CR,
 * U+2028, U+2029) and of YAML 1.1 (U+0085), every other control character (C0 but tab, DEL,
 * C1), the bidirectional overrides and isolates that make text read in another order than it
 * runs ("Trojan Source"), the byte order mark and U+FFFE/U+FFFF, and lone surrogates (which
 * UTF-8 cannot encode: the file would hold U+FFFD instead).
 */
const unsafeInText =
  /[\0-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Line ends of every language a text is written into: a text's lines are split at these. */
const lineEnds = /\r\n|[\n\r\u0085\u2028\u2029]/;

/** The visible escape of one unsafe character: `\n`, `\r`, else `\uXXXX`. */
function escapeOne(char: string): string {
  if (char === "\n") return "\\n";
  if (char === "\r") return "\\r";
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** The lines of a text, split at every line end that any output language knows. */
export function textLines(text: string): string[] {
  return text.split(lineEnds);
}

/** `text` with every unsafe character shown as its escape, on one line. */
function visible(text: string): string {
  return text.replace(unsafeInText, escapeOne);
}

// ---------------------------------------------------------------------------------------------
// Comments

/**
 * A text inside a line comment: `// text` in TypeScript, `# text` in YAML or .gitignore. One
 * line whatever the text holds, so nothing after it can be code or data.
 */
export function lineComment(text: string): string {
  return visible(text);
}

/**
 * The lines of a text inside a block comment (`/** … *\/`), without the ` * ` in front: split
 * at every line end, each line's other unsafe characters escaped and every `*\/` written
 * `*\\/`, so no line ends the comment.
 */
export function blockCommentLines(text: string): string[] {
  return textLines(text).map((line) => visible(line).replace(/\*\//g, "*\\/"));
}

/**
 * A text inside an HTML comment (`<!-- text -->`, the README's banner): one line, `<` and `>`
 * written as `&lt;` and `&gt;`, so that neither `-->` nor `--!>` can end the comment early and
 * no `<!--` opens another. Nothing inside a comment is decoded: they show as written.
 */
export function htmlComment(text: string): string {
  return visible(text).replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// ---------------------------------------------------------------------------------------------
// TypeScript string literals

/** What a string literal escapes beyond JSON's escapes: line ends JSON leaves raw, invisible controls. */
const unsafeInLiteral = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g;

/**
 * A TypeScript string literal of `value`, spelled as prettier spells it: in double quotes, or
 * single quotes when that needs fewer escapes. `\`, the quote, control characters, lone
 * surrogates, U+2028/U+2029 (line ends to JavaScript before ES2019 and to many tools) and the
 * invisible characters above are escaped; the literal is one token whatever `value` holds.
 */
export function stringLiteral(value: string): string {
  const quoted =
    !value.includes('"') || !moreDoubleQuotes(value)
      ? JSON.stringify(value)
      : `'${escapeInSingleQuotes(value)}'`;
  // A test before the replace: the OpenAPI document as one literal is megabytes, mostly clean.
  unsafeInLiteral.lastIndex = 0;
  return unsafeInLiteral.test(quoted) ? quoted.replace(unsafeInLiteral, escapeOne) : quoted;
}

/**
 * The body of a single-quoted literal: `\`, `'`, control characters and lone surrogates
 * escaped (the escapes JSON.stringify makes, with `'` in place of `"`). One pass over the
 * char codes, copying the runs between escapes: src/openapi.ts quotes GitHub's whole document
 * (7 MB) this way, and the regex it replaces, with a look-behind and a look-ahead at each
 * character for the surrogates, took about 290 ms of that run (profile in the commit); this
 * takes about 25 ms.
 */
function escapeInSingleQuotes(text: string): string {
  let out = "";
  let copied = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let escape: string;
    if (code === 0x27) escape = "\\'";
    else if (code === 0x5c || code < 0x20 || isLoneSurrogate(text, i, code))
      escape = JSON.stringify(text[i]).slice(1, -1);
    else continue;
    out += text.slice(copied, i) + escape;
    copied = i + 1;
  }
  return out + text.slice(copied);
}

/** Whether the code unit `code` at `i` is half of a surrogate pair whose other half is missing. */
function isLoneSurrogate(text: string, i: number, code: number): boolean {
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(i + 1); // NaN past the end
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(i - 1); // NaN before the start
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
}

/**
 * Whether `text` has more double quotes than single ones. Counted with indexOf, the double
 * quotes only until they outnumber the single ones: GitHub's document as one JSON string has
 * a million double quotes and almost no single ones, and a loop over its 7 M characters took
 * ~40 ms of the run (profile in the commit), this well under 1.
 */
function moreDoubleQuotes(text: string): boolean {
  const singles = occurrences(text, "'", Infinity);
  return occurrences(text, '"', singles + 1) > singles;
}

/** How many times `char` occurs in `text`, counted up to `atMost`. */
function occurrences(text: string, char: string, atMost: number): number {
  let count = 0;
  for (let i = text.indexOf(char); i !== -1 && count < atMost; i = text.indexOf(char, i + 1))
    count++;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Markdown (the generated README)

/**
 * Spaces, tabs and line ends: one space each run in markdown, where a line end would start a
 * block. Other white space (U+0085, vertical tab, form feed) is shown as its escape, so a text
 * of it is never shown as nothing.
 */
const markdownSpace = /[ \t\n\r\u2028\u2029]+/g;

/**
 * Underscores at the edge of a word or next to punctuation: the ones that could open or close
 * emphasis. Punctuation as CommonMark has it: Unicode's, and every ASCII one (`<`, `=`, `|`,
 * `~`, `` ` ``, `+` are symbols to Unicode), so `x=_a b_<` shows no emphasis.
 */
const edgeUnderscores = /(^|[\p{P}!-/:-@[-`{-~])(_+)|(_+)([\p{P}!-/:-@[-`{-~]|$)/gu;

/**
 * What starts a markdown block at the start of a line: a heading's `#`, a quote's `>`, a
 * list's `-`, `+` or `1.` (`*`, `~` and backticks, which start the others, are escaped
 * everywhere).
 */
const blockMarker = /^(?:#{1,6}(?= |$)|>|[-+](?= |$))/;
const orderedMarker = /^(\d{1,9})(?=[.)](?: |$))/;

/**
 * Text from a spec as markdown that shows it as written (a paragraph, a heading, a list item;
 * `markdownCell` for a table cell): on one line (line ends are spaces, as markdown shows
 * them), every character that could make markup escaped with `\` (emphasis, `~` of
 * strikethrough, `<` of HTML, comments and autolinks, `[` `]` of links and images, entities,
 * lone backticks, a block marker at the start, a heading's closing `#`), and unsafe
 * characters shown as `\uXXXX`.
 * A `code span` of the text stays a code span, as the spec's descriptions use them. `*` and
 * `_` are escaped where prettier escapes them, so the README is what it would leave as it is.
 */
export function markdownText(text: string): string {
  const flat = visible(text.replace(markdownSpace, " ").replace(/^ | $/g, ""));
  return codeSpans(flat)
    .map((part) => (part.code ? part.text : escapeMarkdown(part.text)))
    .join("")
    .replace(blockMarker, "\\$&")
    .replace(orderedMarker, "$1\\")
    .replace(/ #(#*)$/, " \\#$1");
}

/** The markup characters of markdown text outside code spans, escaped. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .split(/( )/)
    .map(escapeEmphasis)
    .join("")
    .replace(/[<[\]`~]/g, "\\$&")
    .replace(/&(?=#?[0-9A-Za-z]+;)/g, "\\&");
}

/** A word escaped as prettier escapes it: every `*`, and `_` where it could mark emphasis. */
function escapeEmphasis(word: string): string {
  return word
    .replace(/\*/g, "\\*")
    .replace(edgeUnderscores, (_match, before: string, run1: string, run2: string, after: string) =>
      (run1 !== undefined ? `${before}${run1}` : `${run2}${after}`).replace(/_/g, "\\_"),
    );
}

/**
 * A text cut into its code spans and the text between, as CommonMark reads them: a run of
 * backticks opens a span that the next run of the same length closes; a run with no partner
 * is text (escaped with the rest, so it opens nothing).
 */
function codeSpans(text: string): { code: boolean; text: string }[] {
  const parts: { code: boolean; text: string }[] = [];
  const runs = [...text.matchAll(/`+/g)];
  let copied = 0;
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const closeAt = runs.findIndex((run, j) => j > i && run[0].length === open[0].length);
    if (closeAt === -1) continue;
    const close = runs[closeAt]!;
    parts.push({ code: false, text: text.slice(copied, open.index) });
    copied = close.index + close[0].length;
    parts.push({ code: true, text: text.slice(open.index, copied) });
    i = closeAt;
  }
  parts.push({ code: false, text: text.slice(copied) });
  return parts;
}

/**
 * A text as one markdown code span (a name, a path, an id), on one line: fenced with the
 * fewest backticks that no run inside it has, as prettier fences it, and padded with a space
 * when it starts or ends with a backtick.
 */
export function markdownCode(text: string): string {
  const content = visible(text.replace(new RegExp(lineEnds, "g"), " "));
  let fence = 1;
  const runs = new Set([...content.matchAll(/`+/g)].map((run) => run[0].length));
  while (runs.has(fence)) fence++;
  const ticks = "`".repeat(fence);
  const pad = /^`|`$|^ .*[^ ].* $/.test(content) || content === "" ? " " : "";
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

/**
 * Markdown (made by `markdownText` and `markdownCode`) as a table cell: every `|` escaped, the
 * ones inside code spans too, as GFM tables need, so the cell never splits. A table row is cut
 * into cells before anything else is read, taking backslashes in pairs: a `|` after an odd run
 * of them is escaped already, one after an even run (none, or a code span's `\\`) gets its
 * `\`. (Inside a code span that shows a `\` before the `|` one backslash short or long: GFM
 * has no exact spelling for it.)
 */
export function markdownCell(markdown: string): string {
  return markdown.replace(/(\\*)\|/g, (_pipe, backslashes: string) =>
    backslashes.length % 2 === 1 ? `${backslashes}|` : `${backslashes}\\|`,
  );
}

// ---------------------------------------------------------------------------------------------
// JSON

/**
 * A value as JSON text (package.json's fields, openapi.json, the data the generated code
 * parses): JSON.stringify, which escapes quotes, backslashes, control characters and lone
 * surrogates, so any text is one well-formed JSON string.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent);
}
