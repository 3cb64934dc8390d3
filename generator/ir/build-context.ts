/**
 * State shared while building the IR: where problems go, the gap notes found so far,
 * and the helpers that read documentation facets at a data path.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";
import type { Docs, GapNote, SourceLocation } from "./model.ts";

export class BuildContext {
  readonly gaps: GapNote[] = [];
  constructor(readonly bag: DiagnosticBag) {}

  /** Reads description, undocumented, deprecated, example and default of a mapping; records its gaps. */
  docs(file: SpecFile, path: DataPath, value: unknown): Docs {
    const docs: Docs = { notes: [] };
    if (!isRecord(value)) return docs;
    if (typeof value.description === "string") docs.description = value.description;
    if (value.deprecated === true) docs.deprecated = true;
    if (value.example !== undefined) docs.example = value.example;
    if (value.default !== undefined) docs.default = value.default;
    const undocumented = value.undocumented;
    const texts =
      typeof undocumented === "string"
        ? [undocumented]
        : Array.isArray(undocumented)
          ? (undocumented as string[])
          : [];
    texts.forEach((text, i) => {
      const notePath =
        typeof undocumented === "string" ? [...path, "undocumented"] : [...path, "undocumented", i];
      docs.notes.push(this.gap("note", text, subjectOf(path), file.locate(notePath)));
    });
    return docs;
  }

  /** Records one gap note. */
  gap(kind: GapNote["kind"], text: string, subject: string, location: SourceLocation): GapNote {
    const note = { kind, text, subject, location };
    this.gaps.push(note);
    return note;
  }
}

/** `types.Transaction.fields.status` reads as `types.Transaction.status`. */
export function subjectOf(path: DataPath): string {
  return path.filter((segment) => segment !== "fields").join(".");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
