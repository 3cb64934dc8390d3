/**
 * Layout documents: what the code printer builds for each node, and what layout-print.ts
 * turns into text at a line width. They are prettier's documents (Wadler's "prettier printer"
 * with prettier's groups, conditional groups, `ifBreak` and fill), reduced to what the
 * generated code needs, so that text printed from them is text prettier would leave as it
 * is: `test/code-style.test.ts` holds every generated file to that.
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

export function isDocArray(doc: Doc): doc is readonly Doc[] {
  return Array.isArray(doc);
}

/**
 * Marks every group that holds a hard line as broken, as prettier's `propagateBreaks` does.
 * A group shared by several conditional states is looked into once.
 */
export function propagateBreaks(doc: Doc): boolean {
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
