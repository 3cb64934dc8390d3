/**
 * The live route: an OpenAPI document read as the spec at every build, no spec folder in
 * between. The importer builds the spec's data in memory (the same data `apigen import`
 * prints as files), and the loader's own checks (`checkSpecData`: the data guards and the JSON
 * Schema) and the one IR build run on it, so what is valid is decided in one place for both
 * routes. A problem found in that data is located in the document: at the JSON pointer (and
 * its line) of the nearest part of the data whose origin the importer recorded (an endpoint's
 * operation, a named type's schema, a section), or, for an `undocumented` note, the pointer
 * the note names.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { SourceLocation } from "../ir/model.ts";
import { LineIndex } from "../load/line-index.ts";
import { checkSpecData } from "../load/load-spec.ts";
import { SpecFile, type DataPath } from "../load/spec-file.ts";
import { fetchedDocuments, isSpecUrl, reachOf, type RefMap } from "../load/spec-source.ts";
import type { OpenApiDocument, Pointer } from "./document.ts";
import { TextPositions } from "./document-files.ts";
import { importDocument, type ImportedSpec } from "./import.ts";

/** The spec a document gives, checked, and what was read to make it. */
export interface DocumentSpec {
  files: SpecFile[];
  /** Every file read (the document and what its `$ref`s reached), by name: what is fingerprinted. */
  filesRead: ReadonlyMap<string, Uint8Array>;
}

export interface DocumentSpecOptions {
  /** The document's path, or its URL (fetched before the run: fetch-document.ts). */
  spec: string;
  /** A wider folder than the document's own its `$ref`s may reach. */
  refRoot?: string;
  /** Local copies of what its remote `$ref`s name, by URL prefix. */
  refMap?: RefMap;
  /** Receives the text of every file read, by its shown path, for code frames. */
  texts?: Map<string, string>;
  /** OpenAPI Overlay 1.0 files applied to the document in order before it is read. */
  overlays?: readonly string[];
}

/**
 * Reads the document into spec data, located in the document. Problems of the document
 * itself throw (DiagnosticsError, as `import` reports them); problems of the data it gives
 * are reported into `bag` by the loader's checks.
 */
export function importDocumentSpec(options: DocumentSpecOptions): ImportedSpec {
  const fetched = isSpecUrl(options.spec) ? fetchedDocuments.get(options.spec) : undefined;
  if (isSpecUrl(options.spec) && !fetched)
    throw new Error(`the document at ${options.spec} was not fetched before the run`);
  return importDocument({
    input: options.spec,
    ...(fetched ? { fetched } : {}),
    ...reachOf(options),
    ...(options.texts !== undefined ? { texts: options.texts } : {}),
    ...(options.overlays?.length ? { overlays: [...options.overlays] } : {}),
  });
}

/** The loader's checks of each file of the imported data; the files that pass. */
export function checkDocumentSpec(imported: ImportedSpec, bag: DiagnosticBag): DocumentSpec {
  const files: SpecFile[] = [];
  const positions = new DocumentPositions(imported.ctx.doc);
  // in the order a folder of these files is read (spec-folder.ts): one order of declarations
  const byPath = [...imported.data].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  for (const { path, sections } of byPath) {
    const file = new DocumentSpecFile(path, sections, imported, positions);
    if (checkSpecData(file, bag)) files.push(file);
  }
  return { files, filesRead: imported.ctx.doc.filesRead() };
}

/**
 * Lines and columns in the document's files, from their texts alone: the locations the IR
 * keeps hold this, not the document, whose parsed data (most of the heap on GitHub's
 * document) is then free once the model is built.
 */
class DocumentPositions {
  private readonly files = new Map<string, { shown: string; positions: TextPositions }>();
  readonly rootPath: string;
  readonly rootShown: string;

  constructor(doc: OpenApiDocument) {
    for (const [path, file] of doc.files)
      this.files.set(path, {
        shown: file.shown,
        positions: new TextPositions(file.text, file.json),
      });
    this.rootPath = doc.root.path;
    this.rootShown = doc.root.shown;
  }

  shownOf(file: string): string {
    return this.files.get(file)?.shown ?? this.rootShown;
  }

  at(where: Pointer): { line: number; col: number } {
    return this.files.get(where.file)?.positions.of(where.pointer) ?? { line: 1, col: 1 };
  }
}

/**
 * A location in the document whose line and column are worked out when first read (the IR
 * locates every node it builds, GitHub's some 112,000, for the few a diagnostic or a gap
 * shows). They are getters of the class, not own properties: an accessor defined on each
 * instance (own and enumerable, as a literal's are) made every location a dictionary-mode
 * object, 200 to 390 ms of GitHub's run for 112,000 of them against 40 ms (node, this
 * machine). `toJSON` writes the four fields, in the order a literal had them.
 */
class DocumentLocation implements SourceLocation {
  readonly #at: Pointer;
  readonly #positions: DocumentPositions;
  #found: { line: number; col: number } | undefined;

  constructor(
    readonly file: string,
    readonly pointer: string,
    at: Pointer,
    positions: DocumentPositions,
  ) {
    this.#at = at;
    this.#positions = positions;
  }

  get line(): number {
    return this.#position().line;
  }

  get col(): number {
    return this.#position().col;
  }

  #position(): { line: number; col: number } {
    return (this.#found ??= this.#positions.at(this.#at));
  }

  toJSON(): SourceLocation {
    return { file: this.file, line: this.line, col: this.col, pointer: this.pointer };
  }
}

/** One file of the data: located in the document, not in a text of its own. */
class DocumentSpecFile extends SpecFile {
  constructor(
    name: string,
    data: unknown,
    private readonly imported: ImportedSpec,
    private readonly positions: DocumentPositions,
  ) {
    // named after the document and the file `import` would write, which no diagnostic shows
    const path = `${positions.rootShown}#${name}`;
    super(path, "", data, { offset: () => 0 }, new LineIndex(path, ""));
  }

  /**
   * The location of the origin of the value at `path`. Its line and column are worked out
   * when first read: the IR locates every node it builds, and finding each in a 13 MB
   * document was a second of GitHub's run, for the few locations a diagnostic or gap shows.
   */
  override locate(path: DataPath): SourceLocation {
    const at = originOf(this.imported, this.data, path);
    const positions = this.positions;
    const pointer = at.file === positions.rootPath ? at.pointer : `${at.file}${at.pointer}`;
    return new DocumentLocation(positions.shownOf(at.file), pointer, at, positions);
  }

  override at(): SourceLocation {
    return this.locate([]);
  }
}

/** The text of an `undocumented` note ends with where its loss is: `(import: #/paths/...)`. */
const noteMark = "(import: ";

/** Where in the document the value at `path` of `data` came from: the nearest recorded origin. */
export function originOf(imported: ImportedSpec, data: unknown, path: DataPath): Pointer {
  const { ctx, keySources } = imported;
  let origin: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  let node: unknown = data;
  // a note's text names the place as the user's file has it; a recorded origin is a place
  // in the document as read, which for a converted Swagger 2.0 document is shown as the
  // place it came from
  let shown = false;
  for (const key of path) {
    if (typeof node !== "object" || node === null) break;
    const recorded = keySources.get(node)?.get(String(key));
    if (recorded) [origin, shown] = [recorded, false];
    const next: unknown = (node as Record<string | number, unknown>)[key];
    if (typeof next === "object" && next !== null) {
      const source = ctx.sources.get(next);
      if (source) [origin, shown] = [source, false];
    } else if (typeof next === "string") {
      const noted = noteOrigin(ctx.doc.root.path, next);
      if (noted) [origin, shown] = [noted, true];
    }
    node = next;
  }
  return shown ? origin : { file: origin.file, pointer: ctx.doc.shownPointer(origin) };
}

/** The pointer an `undocumented` note names, or undefined for another text. */
function noteOrigin(rootFile: string, text: string): Pointer | undefined {
  const mark = text.lastIndexOf(noteMark);
  if (mark < 0 || !text.endsWith(")")) return undefined;
  const where = text.slice(mark + noteMark.length, -1);
  const hash = where.indexOf("#");
  if (hash < 0) return undefined;
  return { file: hash === 0 ? rootFile : where.slice(0, hash), pointer: where.slice(hash) };
}
