/**
 * The layout printer: a document (layout.ts) to text at a line width, by prettier's
 * algorithm (`printDocToString` and its `fits`). Commands wait on a stack of parallel arrays
 * (indent, mode, document) rather than an object each: a large file's documents have a
 * million parts, and one allocation per part was most of the printer's time.
 */
import {
  fill,
  isDocArray,
  propagateBreaks,
  type Doc,
  type Fill,
  type Group,
  type GroupId,
} from "./layout.ts";

type Mode = "break" | "flat";

/** Commands waiting to be printed, the next one last. */
class Commands {
  readonly indents: number[] = [];
  readonly modes: Mode[] = [];
  readonly docs: Doc[] = [];

  push(indent: number, mode: Mode, doc: Doc): void {
    this.indents.push(indent);
    this.modes.push(mode);
    this.docs.push(doc);
  }

  get length(): number {
    return this.docs.length;
  }
}

const noCommands = new Commands();

/** Any character outside printable ASCII. */
const notPrintableAscii = /[^\x20-\x7e]/;

/** Combining and enclosing marks: no column of their own. */
const zeroWidthMark = /[\p{Mn}\p{Me}]/u;

/**
 * Columns a text takes, as prettier counts them: East Asian wide characters and emoji two,
 * controls and combining marks none, anything else one. One pass over the text; only a
 * character outside ASCII costs more than a comparison. With `atMost`, it stops counting once
 * past it (a fit only needs to know that a long text does not fit).
 */
export function textWidth(text: string, atMost = Infinity): number {
  // A long text is most often printable ASCII, which one regex test tells faster than a loop;
  // but the test reads the whole text, and the loop stops after `atMost` columns: fits() on
  // src/openapi.ts's 7 MB literal, once per enclosing group, spent ~130 ms on GitHub's API.
  if (text.length > 32 && text.length <= atMost && !notPrintableAscii.test(text))
    return text.length;
  let width = 0;
  for (let i = 0; i < text.length && width <= atMost; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) width++;
    else if (code < 0xa0)
      continue; // controls
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      width += isWide(text.codePointAt(i)!) ? 2 : 1;
      i++;
    } else if (isWide(code)) width += 2;
    else if (code < 0x300 || !zeroWidthMark.test(text[i]!)) width++;
  }
  return width;
}

/** The East Asian Wide and Fullwidth ranges, and emoji pictographs. */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

const fitModes: Mode[] = [];
const fitDocs: Doc[] = [];
/** For a list on fits()'s stack, the index of its next part; -1 for any other doc. */
const fitPositions: number[] = [];

/**
 * Whether `doc` in `mode` fits in `width` columns, followed by the waiting commands up to the
 * first line break among them. Lists are entered one part at a time (a list and the index of
 * its next part), so a measure costs what it reads: at most a line's worth.
 */
function fits(
  mode: Mode,
  doc: Doc,
  rest: Commands,
  width: number,
  groupModes: ReadonlyMap<GroupId, Mode>,
  mustBeFlat = false,
): boolean {
  let restIndex = rest.length;
  // fits() never runs inside itself: its stacks are kept from one call to the next, with the
  // count in use (`size`), rather than three new arrays for every group measured
  const modes = fitModes;
  const docs = fitDocs;
  const positions = fitPositions;
  modes[0] = mode;
  docs[0] = doc;
  positions[0] = -1;
  let size = 1;
  while (width >= 0) {
    if (size === 0) {
      if (restIndex === 0) return true;
      restIndex--;
      modes[size] = rest.modes[restIndex]!;
      docs[size] = rest.docs[restIndex]!;
      positions[size++] = -1;
      continue;
    }
    const top = size - 1;
    const currentMode = modes[top]!;
    let current = docs[top]!;
    const parts = isDocArray(current)
      ? current
      : typeof current !== "string" && current.type === "fill"
        ? current.parts
        : undefined;
    if (parts !== undefined) {
      const at = positions[top]! + 1;
      if (at >= parts.length) {
        size--;
        continue;
      }
      positions[top] = at;
      current = parts[at]!;
    } else size--;
    if (typeof current === "string") {
      width -= textWidth(current, width);
      continue;
    }
    // what to look at next, in which mode
    let nextDoc: Doc | undefined;
    let nextMode = currentMode;
    if (isDocArray(current)) nextDoc = current;
    else
      switch (current.type) {
        case "indent":
        case "indent-if-break":
          nextDoc = current.contents;
          break;
        case "fill":
          nextDoc = current;
          break;
        case "group": {
          if (mustBeFlat && current.break !== false) return false;
          nextMode = current.break !== false ? "break" : currentMode;
          nextDoc =
            current.expandedStates && nextMode === "break"
              ? current.expandedStates.at(-1)!
              : current.contents;
          break;
        }
        case "if-break": {
          const groupMode =
            current.groupId !== undefined
              ? (groupModes.get(current.groupId) ?? "flat")
              : currentMode;
          const contents = groupMode === "break" ? current.breakContents : current.flatContents;
          if (contents) nextDoc = contents;
          break;
        }
        case "line":
          if (currentMode === "break" || current.hard) return true;
          if (!current.soft) width -= 1;
          break;
        case "break-parent":
          break;
      }
    if (nextDoc !== undefined) {
      modes[size] = nextMode;
      docs[size] = nextDoc;
      positions[size++] = -1;
    }
  }
  return false;
}

/** A new line and `n` spaces, by `n`: made once each. */
const newlines: string[] = [];

/** Prints `doc` at `width` columns with two-space indents; lines carry no trailing spaces. */
export function printDoc(doc: Doc, width: number): string {
  propagateBreaks(doc);
  const groupModes = new Map<GroupId, Mode>();
  const out: string[] = [];
  let position = 0;
  let remeasure = false;
  const commands = new Commands();
  commands.push(0, "break", doc);
  while (commands.length > 0) {
    const ind = commands.indents.pop()!;
    const mode = commands.modes.pop()!;
    const current = commands.docs.pop()!;
    if (typeof current === "string") {
      out.push(current);
      // Past the line's end every group breaks, however far past: counting stops there (a
      // 7 MB string literal was counted to its end, ~130 ms of GitHub's API).
      position += textWidth(current, width - position);
      continue;
    }
    if (isDocArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) commands.push(ind, mode, current[i]!);
      continue;
    }
    switch (current.type) {
      case "indent":
        commands.push(ind + 2, mode, current.contents);
        break;
      case "indent-if-break":
        commands.push(
          groupModes.get(current.groupId) === "break" ? ind + 2 : ind,
          mode,
          current.contents,
        );
        break;
      case "fill":
        printFill(current, ind, mode, width - position, commands, groupModes);
        break;
      case "group": {
        const measured = mode === "break" || remeasure;
        const chosen = chooseGroupLayout(current, measured, width - position, commands, groupModes);
        if (measured) remeasure = false;
        commands.push(ind, chosen.mode, chosen.doc);
        if (current.id !== undefined) groupModes.set(current.id, chosen.mode);
        break;
      }
      case "if-break": {
        const groupMode = current.groupId !== undefined ? groupModes.get(current.groupId) : mode;
        const contents = groupMode === "break" ? current.breakContents : current.flatContents;
        if (contents) commands.push(ind, mode, contents);
        break;
      }
      case "line":
        if (mode === "flat" && !current.hard) {
          if (!current.soft) {
            out.push(" ");
            position += 1;
          }
          break;
        }
        if (mode === "flat") remeasure = true;
        trimTrailingSpaces(out);
        out.push((newlines[ind] ??= "\n" + " ".repeat(ind)));
        position = ind;
        break;
      case "break-parent":
        break;
    }
  }
  // what fits() last looked at is not kept past this document (a large literal would be)
  fitDocs.length = 0;
  return out.join("");
}

/**
 * Lays out the next one or two parts of a fill: a separator breaks when the content after it
 * does not fit on the line; the rest of the fill is pushed back to continue from there.
 */
function printFill(
  doc: Fill,
  ind: number,
  mode: Mode,
  remaining: number,
  commands: Commands,
  groupModes: ReadonlyMap<GroupId, Mode>,
): void {
  const { parts } = doc;
  if (parts.length === 0) return;
  const content = parts[0]!;
  const contentFits = fits("flat", content, noCommands, remaining, groupModes, true);
  const contentMode: Mode = contentFits ? "flat" : "break";
  if (parts.length === 1) {
    commands.push(ind, contentMode, content);
    return;
  }
  const whitespace = parts[1]!;
  if (parts.length === 2) {
    commands.push(ind, contentMode, whitespace);
    commands.push(ind, contentMode, content);
    return;
  }
  const pairFits = fits(
    "flat",
    [content, whitespace, parts[2]!],
    noCommands,
    remaining,
    groupModes,
    true,
  );
  commands.push(ind, mode, fill(parts.slice(2)));
  commands.push(ind, pairFits ? "flat" : "break", whitespace);
  commands.push(ind, contentMode, content);
}

/** The layout of a group: flat when it fits, else the first expanded state that fits, else broken. */
function chooseGroupLayout(
  doc: Group,
  measured: boolean,
  remaining: number,
  rest: Commands,
  groupModes: ReadonlyMap<GroupId, Mode>,
): { mode: Mode; doc: Doc } {
  if (!measured) return { mode: doc.break !== false ? "break" : "flat", doc: doc.contents };
  if (doc.break === false && fits("flat", doc.contents, rest, remaining, groupModes))
    return { mode: "flat", doc: doc.contents };
  if (!doc.expandedStates) return { mode: "break", doc: doc.contents };
  if (doc.break === false) {
    for (let i = 1; i < doc.expandedStates.length - 1; i++) {
      const state = doc.expandedStates[i]!;
      if (fits("flat", state, rest, remaining, groupModes)) return { mode: "flat", doc: state };
    }
  }
  return { mode: "break", doc: doc.expandedStates.at(-1)! };
}

/** Drops spaces and tabs at the end of the output, before a new line. */
function trimTrailingSpaces(out: string[]): void {
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    const end = last.charCodeAt(last.length - 1);
    if (end !== 0x20 && end !== 0x09 && last !== "") return; // most lines end otherwise
    const trimmed = last.replace(/[ \t]+$/, "");
    if (trimmed !== "") {
      out[out.length - 1] = trimmed;
      return;
    }
    out.pop();
  }
}
