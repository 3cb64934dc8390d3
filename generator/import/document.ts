/**
 * Reading an OpenAPI document for import: the file and every local file its `$ref`s reach
 * (a remote one's through the local copy the config's `refMap` names), in JSON or YAML, with
 * `$ref` resolution by JSON pointer. Problems are diagnostics that name
 * the file, the line and column where it can be known, and the JSON pointer.
 */
import { realpathSync, statSync } from "node:fs";
import { posix, resolve } from "node:path";
import {
  diagnostic,
  DiagnosticsError,
  sortDiagnostics,
  type Diagnostic,
} from "../diagnostics/diagnostic.ts";
import type { DiagnosticCode } from "../diagnostics/catalogue.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { reasonOf } from "../load/spec-folder.ts";
import {
  isRefMapPrefix,
  urlShown,
  type DocumentReachOptions,
  type RefMap,
} from "../load/spec-source.ts";
import { movedRef, type PointerMap } from "./pointer-map.ts";
import {
  childPointer,
  documentText,
  DocumentReach,
  fragmentPointer,
  parseText,
  percentDecoded,
  pointerTokens,
  TextPositions,
  type JsonObject,
  type JsonValue,
  type MappedCopy,
  type ReadLimits,
  type Refusal,
} from "./document-files.ts";

export type { JsonObject, JsonValue };
export { pointerTokens };

/** One file of the document: its name, text and parsed value. */
export interface SourceFile {
  /** Relative to the document's folder, `/`-separated: how notes and `Pointer.file` name it. */
  path: string;
  /** Its real path, which references in it are resolved from. */
  real: string;
  /** As diagnostics show it (relative to the working folder). */
  shown: string;
  text: string;
  value: JsonValue;
  /** Whether the text is JSON (else YAML): how positions in it are found. */
  json: boolean;
}

/** Where a value sits: its file (`SourceFile.path`) and JSON pointer (`#/components/schemas/Pet`). */
export interface Pointer {
  file: string;
  pointer: string;
}

export interface DocumentOptions extends DocumentReachOptions {
  /** Receives the text of every file read, by its shown path, for code frames. */
  texts?: Map<string, string>;
  /** Size caps other than the defaults (tests). */
  limits?: ReadLimits;
  /**
   * The document's bytes, already fetched from a URL (`path` is then the URL, shown as it is):
   * a `$ref` to another file is a URL too, read from its local copy (`refMap`) or refused.
   */
  fetched?: Uint8Array;
}

/** The document and the files its references reach, loaded on demand. */
export class OpenApiDocument {
  readonly files = new Map<string, SourceFile>();
  readonly root: SourceFile;
  private readonly reach: DocumentReach;
  private readonly texts: Map<string, string> | undefined;
  /** Each file's positions, made at its first located problem and kept for the next. */
  private readonly positions = new Map<string, TextPositions>();
  /** The bytes of the document fetched from a URL, when it was (then it is the only file). */
  private readonly fetched: Uint8Array | undefined;
  /** The URL the document was fetched from: what its relative `$ref`s are resolved against. */
  private readonly url: string = "";

  constructor(path: string, options: DocumentOptions = {}) {
    this.texts = options.texts;
    this.fetched = options.fetched;
    if (options.fetched) {
      this.url = path;
      this.reach = new DocumentReach(
        resolve("document"),
        undefined,
        options.limits,
        copiesOf(options.refMap),
      );
      const shown = urlShown(path);
      const text = documentText(options.fetched);
      this.texts?.set(shown, text);
      const { value, json } = parseText(shown, shown, text);
      this.root = { path: shown, real: "", shown, text, value, json };
      this.files.set(shown, this.root);
      return;
    }
    const shown = displayPath(resolve(path));
    let real: string;
    try {
      real = realpathSync(path);
    } catch (error) {
      throw importError("import-file-unreadable", { file: shown, reason: reasonOf(error).reason });
    }
    this.reach = new DocumentReach(
      real,
      refRootOf(options.refRoot, real),
      options.limits,
      copiesOf(options.refMap),
    );
    this.root = this.load(real, shown, undefined);
  }

  /** Reads and parses one file once (by its real path); JSON by its first character, else YAML. */
  private load(real: string, shown: string, from: Pointer | undefined): SourceFile {
    const name = this.reach.nameOf(real);
    const known = this.files.get(name);
    if (known) return known;
    const text = this.reach.read(real);
    if (typeof text !== "string")
      throw from
        ? importError(text.code, text.args, this.at(from), this.shownPointer(from))
        : importError(text.code, { ...text.args, file: shown });
    this.texts?.set(shown, text);
    const { value, json } = parseText(shown, name, text);
    const file: SourceFile = { path: name, real, shown, text, value, json };
    this.files.set(name, file);
    return file;
  }

  /**
   * The value a `$ref` names, seen from `from`, and where it is. A reference to another
   * file loads it, if it may; a broken, malformed or refused one is an error at the `$ref`.
   */
  resolveRef(ref: string, from: Pointer): { value: JsonValue; at: Pointer } {
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = fragmentPointer(hash < 0 ? "" : ref.slice(hash + 1));
    if (typeof pointer !== "string") throw this.refused(pointer, from, ref);
    const remote = /^[a-z][a-z0-9+.-]*:/i.test(filePart);
    // OpenAPI 3.1: a URL that a schema of the document names as its `$id` is that schema
    const identified = remote ? this.identifiedSchemas().get(filePart) : undefined;
    if (identified) {
      const value = valueAt(identified.value, pointer);
      if (value !== undefined)
        return {
          value,
          at: { file: identified.at.file, pointer: `${identified.at.pointer}${pointer.slice(1)}` },
        };
    }
    const target = !filePart
      ? this.files.get(from.file)!
      : remote
        ? this.copyOf(filePart, ref, from)
        : this.fileOf(filePart, ref, from);
    // a Swagger 2.0 root is read converted, its sections moved under components: a `$ref`
    // naming the root by its file (`circular.yaml#/definitions/thing`) follows them
    const converted = target === this.root && this.converted ? movedRef(pointer) : pointer;
    const value = valueAt(target.value, converted);
    if (value === undefined) {
      const inRoot = target === this.root;
      const args = {
        ref: this.shownRef(ref, from),
        hint: inRoot ? overlayHint : this.rootHint(filePart, pointer, from.file),
      };
      const broken = importError("import-ref-broken", args, this.at(from), this.shownPointer(from));
      if (!inRoot) throw broken;
      // every other broken one of the root file with it (a `$ref` from another file names the
      // root by its file name, which the walk of the root's own `#/...` does not meet)
      this.rootRefsBroken ??= this.brokenRootRefs();
      const [first] = broken.diagnostics;
      const others = this.rootRefsBroken.filter((d) => d.message !== first!.message);
      throw new DiagnosticsError(sortDiagnostics([first!, ...others]));
    }
    return { value, at: { file: target.path, pointer: converted } };
  }

  /**
   * Where a `$ref` of another file names its own `#/...` and finds nothing there, but the
   * root document has it (HAProxy's path files name `#/responses/DefaultError`, as a tool that
   * bundles them into the root reads them): how to say so. A `$ref` names its own file's
   * parts; reading it against the root instead would guess.
   */
  private rootHint(filePart: string, pointer: string, fromFile: string): string {
    // a Swagger 2.0 root is read converted: its sections moved under components
    const inRoot = this.converted ? movedRef(pointer) : pointer;
    if (filePart !== "" || valueAt(this.root.value, inRoot) === undefined) return "";
    const rootFromHere = posix.relative(posix.dirname(fromFile), this.root.path);
    return `; the document's root file has it, and a $ref names its own file's parts: write ${rootFromHere}${pointer}, or bundle the files into one first`;
  }

  /**
   * Every `$ref` of the root file into itself that points at nothing, outside examples, each
   * an error at its place (at most `maxBrokenRefs`): utoipa names schemas it never registers,
   * several in one document, and a team adds them with one overlay, not one a run. Walked
   * only once one is found broken, so a good document pays nothing for it.
   */
  /** The root file's broken `$ref`s, walked for once (a tolerated one, in an example, asks again). */
  private rootRefsBroken: Diagnostic[] | undefined;

  /** The root file's schemas that name themselves by an absolute URL (`$id`), by that URL. */
  private schemaIds: Map<string, { value: JsonValue; at: Pointer }> | undefined;

  /**
   * Every object of the root file with an absolute `$id` (`https://example.com/schemas/pet.json`,
   * OpenAPI.NET's 3.1 sample): a `$ref` to that URL names it, in the document, not on the
   * network. Walked once, when a `$ref` to a URL is first met (a document without one pays
   * nothing); the first of two with one `$id` is kept.
   */
  private identifiedSchemas(): Map<string, { value: JsonValue; at: Pointer }> {
    if (this.schemaIds) return this.schemaIds;
    const ids = new Map<string, { value: JsonValue; at: Pointer }>();
    const pending: { value: JsonValue; pointer: string }[] = [
      { value: this.root.value, pointer: "#" },
    ];
    while (pending.length > 0) {
      const { value, pointer } = pending.pop()!;
      if (Array.isArray(value))
        value.forEach((item, i) =>
          pending.push({ value: item, pointer: childPointer(pointer, i) }),
        );
      else if (typeof value === "object" && value !== null) {
        const id = value.$id;
        if (typeof id === "string" && /^[a-z][a-z0-9+.-]*:/i.test(id) && !ids.has(id))
          ids.set(id.replace(/#$/, ""), { value, at: { file: this.root.path, pointer } });
        for (const [key, item] of Object.entries(value))
          if (key !== "example" && key !== "examples")
            pending.push({ value: item, pointer: childPointer(pointer, key) });
      }
    }
    this.schemaIds = ids;
    return ids;
  }

  private brokenRootRefs(): Diagnostic[] {
    const found: Diagnostic[] = [];
    const root = this.root.value;
    const pending: { value: JsonValue; pointer: string }[] = [{ value: root, pointer: "#" }];
    for (let next = pending.pop(); next && found.length < maxBrokenRefs; next = pending.pop()) {
      const { value, pointer } = next;
      if (value === null || typeof value !== "object") continue;
      const ref = Array.isArray(value) ? undefined : value.$ref;
      if (typeof ref === "string" && ref.startsWith("#")) {
        const target = fragmentPointer(ref.slice(1));
        if (typeof target === "string" && valueAt(root, target) === undefined) {
          const from = { file: this.root.path, pointer };
          const args = { ref: this.shownRef(ref, from), hint: overlayHint };
          found.push(
            ...importError("import-ref-broken", args, this.at(from), this.shownPointer(from))
              .diagnostics,
          );
        }
      }
      const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
      // examples are data: a `$ref` in one that points at nothing is left out, not refused
      for (const [key, item] of entries)
        if (item !== null && typeof item === "object" && key !== "example" && key !== "examples")
          pending.push({ value: item, pointer: childPointer(pointer, key) });
    }
    return found;
  }

  /**
   * Every file read (the document and each file its `$ref`s reached), by its name relative to
   * the document's folder, with its bytes: what the up-to-date check hashes (write/inputs.ts).
   */
  filesRead(): ReadonlyMap<string, Uint8Array> {
    const read = this.fetched ? new Map([[this.root.path, this.fetched]]) : this.reach.filesRead;
    return this.overlaysRead.size ? new Map([...read, ...this.overlaysRead]) : read;
  }

  /** The overlay files applied to the document, by name as `filesRead` names files: hashed with them. */
  private readonly overlaysRead = new Map<string, Uint8Array>();

  /** Records an overlay file applied to the document (its absolute path and bytes). */
  overlayRead(path: string, bytes: Uint8Array): void {
    this.overlaysRead.set(this.reach.nameOf(path), bytes);
  }

  /**
   * The file each file part named from each file has led to, by the referring file's name and
   * the file part: a multi-file document repeats the same few references thousands of times,
   * and locating one (its real path, each folder on the way checked) was most of DigitalOcean's
   * import. Only references that were found are kept; a refused one is refused again.
   */
  private readonly filesReferred = new Map<string, SourceFile>();

  /**
   * The local copy (the config's `refMap`) of the file a remote `$ref` names by URL, read if
   * it is within reach; the importer reads no network, so an unmapped URL is refused.
   */
  private copyOf(url: string, ref: string, from: Pointer): SourceFile {
    const key = `\0${url}`;
    const referred = this.filesReferred.get(key);
    if (referred) return referred;
    const real = this.reach.locateRemote(url);
    if (real === undefined)
      throw importError("import-ref-remote", { ref }, this.at(from), this.shownPointer(from));
    if (typeof real !== "string") throw this.refused(real, from, ref);
    const file = this.load(real, displayPath(real), from);
    this.filesReferred.set(key, file);
    return file;
  }

  /** The file a `$ref`'s file part names, read if it is within reach. */
  private fileOf(filePart: string, ref: string, from: Pointer): SourceFile {
    // a document fetched from a URL has no folder: its relative `$ref`s are URLs too, read
    // from their local copies (never fetched: the command fetches the document alone)
    if (this.fetched && from.file === this.root.path)
      return this.copyOf(new URL(filePart, this.url).href, ref, from);
    const key = `${from.file}\0${filePart}`;
    const referred = this.filesReferred.get(key);
    if (referred) return referred;
    const file = this.fileLocated(filePart, ref, from);
    this.filesReferred.set(key, file);
    return file;
  }

  private fileLocated(filePart: string, ref: string, from: Pointer): SourceFile {
    const decoded = percentDecoded(filePart);
    if (decoded === undefined) {
      const detail = "a % in its file part is not followed by two hexadecimal digits of UTF-8";
      throw this.refused({ code: "import-ref-malformed", args: { detail } }, from, ref);
    }
    const real = this.reach.locate(decoded, this.files.get(from.file)!.real);
    if (typeof real !== "string") throw this.refused(real, from, ref);
    return this.load(real, displayPath(real), from);
  }

  /** A refusal as the diagnostic at the `$ref` that asked. */
  private refused(refusal: Refusal, from: Pointer, ref: string): DiagnosticsError {
    return importError(
      refusal.code,
      { ...refusal.args, ref },
      this.at(from),
      this.shownPointer(from),
    );
  }

  /**
   * Where the converted parts of a Swagger 2.0 root file came from (swagger2.ts); undefined
   * for an OpenAPI document, whose pointers are its own.
   */
  converted: PointerMap | undefined;

  /**
   * The pointer a note or an error shows for `where`: in a converted Swagger 2.0 document, the
   * place in the user's file the converted value came from.
   */
  shownPointer(where: Pointer): string {
    return this.converted && where.file === this.root.path
      ? this.converted.original(where.pointer)
      : where.pointer;
  }

  /** A local `$ref` as the user's file spells it (a converted one names the section it moved to). */
  private shownRef(ref: string, from: Pointer): string {
    return ref.startsWith("#") ? this.shownPointer({ file: from.file, pointer: ref }) : ref;
  }

  /** The line and column of a pointer, worked out only when a problem is reported there. */
  at(where: Pointer): { file: string; line: number; col: number } {
    const file = this.files.get(where.file);
    if (!file) return { file: where.file, line: 1, col: 1 };
    let positions = this.positions.get(file.path);
    if (!positions) {
      positions = new TextPositions(file.text, file.json);
      this.positions.set(file.path, positions);
    }
    const position = positions.of(this.shownPointer(where));
    return { file: file.shown, ...(position ?? { line: 1, col: 1 }) };
  }
}

/** The real path of `--ref-root`, which must be a folder holding the document; else an error. */
function refRootOf(refRoot: string | undefined, document: string): string | undefined {
  if (refRoot === undefined) return undefined;
  const dir = displayPath(resolve(refRoot));
  let real: string;
  try {
    real = realpathSync(refRoot);
  } catch (error) {
    throw importError("import-ref-root-invalid", { dir, reason: reasonOf(error).reason });
  }
  const name = new DocumentReach(document, real).nameOf(real);
  if (name !== "." && name.split("/").some((part) => part !== ".."))
    throw importError("import-ref-root-invalid", {
      dir,
      reason: "it does not hold the document; it may only widen the document's folder",
    });
  return real;
}

/**
 * The local copies `refMap` names, each by its real path: a key that is no http(s) URL, or a
 * copy that cannot be read, is an error naming the key.
 */
function copiesOf(refMap: RefMap | undefined): MappedCopy[] {
  return Object.entries(refMap ?? {}).map(([prefix, path]) => {
    const invalid = (reason: string) =>
      importError("import-ref-map-invalid", { prefix, path: displayPath(resolve(path)), reason });
    if (!isRefMapPrefix(prefix)) throw invalid("its key is not an http:// or https:// URL");
    let real: string;
    try {
      real = realpathSync(path);
    } catch (error) {
      throw invalid(reasonOf(error).reason);
    }
    const file = !statSync(real).isDirectory();
    if (!file && !prefix.endsWith("/"))
      throw invalid("a folder's URL prefix ends with /, so that it maps whole path segments");
    return { prefix, real, file };
  });
}

/** The most broken `$ref`s of the root file reported at once. */
const maxBrokenRefs = 50;

/**
 * A schema the document names and never defines (utoipa, NocoDB, Cal.com): the team can add it
 * without editing what their server writes.
 */
const overlayHint = "; an overlay can add what it names (docs/openapi-documents.md, Overlays)";

/** The value at a JSON pointer (`#/a/b~1c`), or undefined. */
export function valueAt(root: JsonValue, pointer: string): JsonValue | undefined {
  let value: JsonValue | undefined = root;
  for (const token of pointerTokens(pointer)) {
    if (value === null || typeof value !== "object") return undefined;
    value = Array.isArray(value)
      ? value[Number(token)]
      : Object.hasOwn(value, token)
        ? (value as JsonObject)[token]
        : undefined;
  }
  return value;
}

/** A pointer one level deeper. */
export const child = childPointer;

/** A problem with the input: a diagnostic thrown at once (nothing is written). */
export function importError(
  code: DiagnosticCode,
  args: Record<string, string | number>,
  location?: { file: string; line: number; col: number },
  pointer?: string,
): DiagnosticsError {
  const d: Diagnostic = diagnostic(code, { ...args, pointer: pointer ?? "" }, location);
  return new DiagnosticsError([
    pointer && !d.message.includes(pointer) ? { ...d, message: `${d.message} (at ${pointer})` } : d,
  ]);
}
