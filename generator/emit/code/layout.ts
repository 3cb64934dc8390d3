/**
 * Layout: the documents the code printer builds and the algorithm that turns them into text
 * at a line width. It is the algorithm of prettier's document printer (Wadler's "prettier
 * printer" with prettier's groups, conditional groups and `ifBreak`), reduced to what the
 * generated code needs, so that text printed here is text prettier would leave as it is:
 * `test/code-style.test.ts` holds every generated file to that.
 */

/** A layout document. */
export type Doc =
  | string
  | readonly Doc[]
  | Group
  | Indent
  | IndentIfBreak
  | Fill
  | Line
  | IfBreak
  | BreakParent;

export interface Group {
  readonly type: "group";
  contents: Doc;
  /** Broken from the start (`true`), or because something inside must break (`"propagated"`). */
  break: boolean | "propagated";
  /** Whether a hard line is inside its contents, once `willBreak` has looked. */
  hard?: boolean;
  /** Set by `propagateBreaks` once it has looked inside. */
  propagated?: boolean;
  /** Layouts tried in order when `contents` does not fit flat, the last one broken. */
  readonly expandedStates?: readonly Doc[];
  readonly id?: GroupId;
}

export interface Indent {
  readonly type: "indent";
  readonly contents: Doc;
}

/** Indented when the group `groupId` broke. */
export interface IndentIfBreak {
  readonly type: "indent-if-break";
  readonly contents: Doc;
  readonly groupId: GroupId;
}

/** Alternating contents and separators, as many contents on each line as fit. */
export interface Fill {
  readonly type: "fill";
  readonly parts: readonly Doc[];
}

export interface Line {
  readonly type: "line";
  /** Nothing (instead of a space) when flat. */
  readonly soft?: boolean;
  /** Always a new line. */
  readonly hard?: boolean;
}

export interface IfBreak {
  readonly type: "if-break";
  readonly breakContents: Doc;
  readonly flatContents: Doc;
  /** The group whose mode decides; default the enclosing one. */
  readonly groupId?: GroupId;
}

export interface BreakParent {
  readonly type: "break-parent";
}

const breakParent: BreakParent = { type: "break-parent" };

/** A space, or a new line when its group breaks. */
export const line: Line = { type: "line" };
/** Nothing, or a new line when its group breaks. */
export const softline: Line = { type: "line", soft: true };
/** A new line that breaks every group around it. */
export const hardline: Doc = [{ type: "line", hard: true }, breakParent];

/** Contents laid out flat when they fit the line, else with their lines broken. */
export function group(contents: Doc, options?: { shouldBreak?: boolean; id?: GroupId }): Group {
  const doc: Group = { type: "group", contents, break: options?.shouldBreak ?? false };
  if (options?.id !== undefined) (doc as { id?: GroupId }).id = options.id;
  return doc;
}

/** Names a group whose layout an `ifBreak` or `indentIfBreak` elsewhere follows. */
export type GroupId = number;

let lastGroupId = 0;

/** A new group id (a number: cheaper to make and to look up than a symbol). */
export function groupId(): GroupId {
  return ++lastGroupId;
}

/** The first of `states` that fits, else the last one, broken. */
export function conditionalGroup(states: readonly Doc[]): Group {
  return { type: "group", contents: states[0]!, break: false, expandedStates: states };
}

export function indent(contents: Doc): Indent {
  return { type: "indent", contents };
}

export function indentIfBreak(contents: Doc, groupId: GroupId): IndentIfBreak {
  return { type: "indent-if-break", contents, groupId };
}

export function fill(parts: readonly Doc[]): Fill {
  return { type: "fill", parts };
}

/** Whether `doc` has any line that could break. */
export function canBreak(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (isDocArray(doc)) return doc.some(canBreak);
  switch (doc.type) {
    case "group":
      return canBreak(doc.contents) || (doc.expandedStates ?? []).some(canBreak);
    case "indent":
    case "indent-if-break":
      return canBreak(doc.contents);
    case "fill":
      return doc.parts.some(canBreak);
    case "line":
      return true;
    case "if-break":
      return canBreak(doc.breakContents) || canBreak(doc.flatContents);
    case "break-parent":
      return false;
  }
}

export function ifBreak(breakContents: Doc, flatContents: Doc = "", groupId?: GroupId): IfBreak {
  const doc: IfBreak = { type: "if-break", breakContents, flatContents };
  if (groupId !== undefined) (doc as { groupId?: GroupId }).groupId = groupId;
  return doc;
}

/** `docs` with `separator` between each two. */
export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  const out: Doc[] = [];
  docs.forEach((doc, i) => {
    if (i > 0) out.push(separator);
    out.push(doc);
  });
  return out;
}

/** Whether `doc` holds a forced line break (outside conditional states). */
export function willBreak(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (isDocArray(doc)) return doc.some(willBreak);
  switch (doc.type) {
    case "group":
      // remembered: calls ask again for each argument list around a group
      return doc.break !== false || (doc.hard ??= willBreak(doc.contents));
    case "indent":
    case "indent-if-break":
      return willBreak(doc.contents);
    case "fill":
      return doc.parts.some(willBreak);
    case "line":
      return doc.hard === true;
    case "if-break":
      return willBreak(doc.breakContents) || willBreak(doc.flatContents);
    case "break-parent":
      return true;
  }
}

function isDocArray(doc: Doc): doc is readonly Doc[] {
  return Array.isArray(doc);
}

/**
 * Marks every group that holds a hard line as broken, as prettier's `propagateBreaks` does.
 * A group shared by several conditional states is looked into once.
 */
function propagateBreaks(doc: Doc): boolean {
  if (typeof doc === "string") return false;
  if (isDocArray(doc)) {
    let breaks = false;
    for (const part of doc) if (propagateBreaks(part)) breaks = true;
    return breaks;
  }
  switch (doc.type) {
    case "group": {
      if (doc.propagated) return doc.break !== false;
      doc.propagated = true;
      let inner = propagateBreaks(doc.contents);
      if (doc.expandedStates)
        for (const state of doc.expandedStates) if (propagateBreaks(state)) inner = true;
      if (inner && !doc.expandedStates && doc.break === false) doc.break = "propagated";
      return doc.break !== false;
    }
    case "indent":
    case "indent-if-break":
      return propagateBreaks(doc.contents);
    case "fill": {
      let breaks = false;
      for (const part of doc.parts) if (propagateBreaks(part)) breaks = true;
      return breaks;
    }
    case "if-break": {
      const a = propagateBreaks(doc.breakContents);
      const b = propagateBreaks(doc.flatContents);
      return a || b;
    }
    case "line":
      return false;
    case "break-parent":
      return true;
  }
}

type Mode = "break" | "flat";
interface Command {
  indent: number;
  mode: Mode;
  doc: Doc;
}

/** Combining and enclosing marks: no column of their own. */
const zeroWidthMark = /[\p{Mn}\p{Me}]/u;

/**
 * Columns a text takes, as prettier counts them: East Asian wide characters and emoji two,
 * controls and combining marks none, anything else one. One pass over the text; only a
 * character outside ASCII costs more than a comparison. With `atMost`, it stops counting once
 * past it (a fit only needs to know that a long text does not fit).
 */
export function textWidth(text: string, atMost = Infinity): number {
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

/**
 * Whether `next` fits in `width` columns, up to the first line break of the rest. The lists
 * it walks are entered one part at a time (a list and the index of its next part), so a
 * measure costs what it reads: at most a line's worth, however long the list.
 */
function fits(
  next: Command,
  rest: readonly Command[],
  width: number,
  groupModes: ReadonlyMap<GroupId, Mode>,
  mustBeFlat = false,
): boolean {
  let restIndex = rest.length;
  const modes: Mode[] = [next.mode];
  const docs: Doc[] = [next.doc];
  /** For a list on the stack, the index of its next part; -1 for any other doc. */
  const positions: number[] = [-1];
  while (width >= 0) {
    if (docs.length === 0) {
      if (restIndex === 0) return true;
      const command = rest[--restIndex]!;
      modes.push(command.mode);
      docs.push(command.doc);
      positions.push(-1);
      continue;
    }
    const top = docs.length - 1;
    const mode = modes[top]!;
    let doc = docs[top]!;
    const parts = isDocArray(doc)
      ? doc
      : typeof doc !== "string" && doc.type === "fill"
        ? doc.parts
        : undefined;
    if (parts !== undefined) {
      const at = positions[top]! + 1;
      if (at >= parts.length) {
        docs.pop();
        modes.pop();
        positions.pop();
        continue;
      }
      positions[top] = at;
      doc = parts[at]!;
    } else {
      docs.pop();
      modes.pop();
      positions.pop();
    }
    if (typeof doc === "string") {
      width -= textWidth(doc, width);
      continue;
    }
    // what to look at next, in which mode
    let nextDoc: Doc | undefined;
    let nextMode = mode;
    if (isDocArray(doc)) nextDoc = doc;
    else
      switch (doc.type) {
        case "indent":
        case "indent-if-break":
          nextDoc = doc.contents;
          break;
        case "fill":
          nextDoc = doc;
          break;
        case "group": {
          if (mustBeFlat && doc.break !== false) return false;
          nextMode = doc.break !== false ? "break" : mode;
          nextDoc =
            doc.expandedStates && nextMode === "break" ? doc.expandedStates.at(-1)! : doc.contents;
          break;
        }
        case "if-break": {
          const groupMode =
            doc.groupId !== undefined ? (groupModes.get(doc.groupId) ?? "flat") : mode;
          const contents = groupMode === "break" ? doc.breakContents : doc.flatContents;
          if (contents) nextDoc = contents;
          break;
        }
        case "line":
          if (mode === "break" || doc.hard) return true;
          if (!doc.soft) width -= 1;
          break;
        case "break-parent":
          break;
      }
    if (nextDoc !== undefined) {
      modes.push(nextMode);
      docs.push(nextDoc);
      positions.push(-1);
    }
  }
  return false;
}

/** Prints `doc` at `width` columns with two-space indents; lines carry no trailing spaces. */
export function printDoc(doc: Doc, width: number): string {
  propagateBreaks(doc);
  const groupModes = new Map<GroupId, Mode>();
  const out: string[] = [];
  let position = 0;
  let remeasure = false;
  const commands: Command[] = [{ indent: 0, mode: "break", doc }];
  while (commands.length > 0) {
    const { indent: ind, mode, doc } = commands.pop()!;
    if (typeof doc === "string") {
      out.push(doc);
      position += textWidth(doc);
      continue;
    }
    if (isDocArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) commands.push({ indent: ind, mode, doc: doc[i]! });
      continue;
    }
    switch (doc.type) {
      case "indent":
        commands.push({ indent: ind + 2, mode, doc: doc.contents });
        break;
      case "indent-if-break":
        commands.push({
          indent: groupModes.get(doc.groupId) === "break" ? ind + 2 : ind,
          mode,
          doc: doc.contents,
        });
        break;
      case "fill":
        printFill(doc, ind, mode, width - position, commands, groupModes);
        break;
      case "group": {
        const measured = mode === "break" || remeasure;
        const command = chooseGroupLayout(
          doc,
          ind,
          measured,
          width - position,
          commands,
          groupModes,
        );
        if (measured) remeasure = false;
        commands.push(command);
        if (doc.id !== undefined) groupModes.set(doc.id, command.mode);
        break;
      }
      case "if-break": {
        const groupMode = doc.groupId !== undefined ? groupModes.get(doc.groupId) : mode;
        const contents = groupMode === "break" ? doc.breakContents : doc.flatContents;
        if (contents) commands.push({ indent: ind, mode, doc: contents });
        break;
      }
      case "line":
        if (mode === "flat" && !doc.hard) {
          if (!doc.soft) {
            out.push(" ");
            position += 1;
          }
          break;
        }
        if (mode === "flat") remeasure = true;
        trimTrailingSpaces(out);
        out.push("\n" + " ".repeat(ind));
        position = ind;
        break;
      case "break-parent":
        break;
    }
  }
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
  commands: Command[],
  groupModes: ReadonlyMap<GroupId, Mode>,
): void {
  const { parts } = doc;
  if (parts.length === 0) return;
  const content = parts[0]!;
  const flatContent: Command = { indent: ind, mode: "flat", doc: content };
  const brokenContent: Command = { indent: ind, mode: "break", doc: content };
  const contentFits = fits(flatContent, [], remaining, groupModes, true);
  if (parts.length === 1) {
    commands.push(contentFits ? flatContent : brokenContent);
    return;
  }
  const whitespace = parts[1]!;
  const flatWhitespace: Command = { indent: ind, mode: "flat", doc: whitespace };
  const brokenWhitespace: Command = { indent: ind, mode: "break", doc: whitespace };
  if (parts.length === 2) {
    if (contentFits) commands.push(flatWhitespace, flatContent);
    else commands.push(brokenWhitespace, brokenContent);
    return;
  }
  const pair: Command = { indent: ind, mode: "flat", doc: [content, whitespace, parts[2]!] };
  const pairFits = fits(pair, [], remaining, groupModes, true);
  commands.push({ indent: ind, mode, doc: fill(parts.slice(2)) });
  if (pairFits) commands.push(flatWhitespace, flatContent);
  else if (contentFits) commands.push(brokenWhitespace, flatContent);
  else commands.push(brokenWhitespace, brokenContent);
}

/** The layout of a group: flat when it fits, else the first expanded state that fits, else broken. */
function chooseGroupLayout(
  doc: Group,
  ind: number,
  measured: boolean,
  remaining: number,
  rest: readonly Command[],
  groupModes: ReadonlyMap<GroupId, Mode>,
): Command {
  if (!measured)
    return { indent: ind, mode: doc.break !== false ? "break" : "flat", doc: doc.contents };
  const flat: Command = { indent: ind, mode: "flat", doc: doc.contents };
  if (doc.break === false && fits(flat, rest, remaining, groupModes)) return flat;
  if (!doc.expandedStates) return { indent: ind, mode: "break", doc: doc.contents };
  if (doc.break === false) {
    for (let i = 1; i < doc.expandedStates.length - 1; i++) {
      const state: Command = { indent: ind, mode: "flat", doc: doc.expandedStates[i]! };
      if (fits(state, rest, remaining, groupModes)) return state;
    }
  }
  return { indent: ind, mode: "break", doc: doc.expandedStates.at(-1)! };
}

/** Drops spaces and tabs at the end of the output, before a new line. */
function trimTrailingSpaces(out: string[]): void {
  while (out.length > 0) {
    const trimmed = out[out.length - 1]!.replace(/[ \t]+$/, "");
    if (trimmed !== "") {
      out[out.length - 1] = trimmed;
      return;
    }
    out.pop();
  }
}
