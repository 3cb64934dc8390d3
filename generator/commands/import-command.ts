/**
 * `--import FILE --out-spec DIR`: converts the document, writes the folder whole, and prints
 * what it wrote and how many gaps it noted (each an `undocumented` note; `--gaps` lists them).
 */
import { printErr, printOut } from "../cli-io.ts";
import { statSync } from "node:fs";
import { join } from "node:path";
import { displayPath } from "../diagnostics/display-path.ts";
import { coloursOf } from "../diagnostics/colours.ts";
import { formatDiagnostics } from "../diagnostics/format.ts";
import { importSpec, writeSpecFolder } from "../import/import.ts";
import type { Mode } from "./options.ts";
import { largeInputBytes, progressLine } from "./progress.ts";
import { reachOf } from "../load/spec-source.ts";

/** The JSON Schema of the format, beside the generator's sources or its build. */
const schemaFile = join(import.meta.dirname, "..", "schema", "spec.schema.json");

export function importCommand(
  mode: Extract<Mode, { kind: "import" }>,
  texts: Map<string, string>,
): number {
  const started = performance.now();
  // a large document is a long import: the line shows from the start
  const progress = progressLine();
  try {
    let size = 0;
    try {
      size = statSync(mode.input).size;
    } catch {
      // the importer says why it cannot read it
    }
    progress.stage(`import ${displayPath(mode.input)}`, 1, 2, size >= largeInputBytes);
    // The importer gives the text of every file it read, for the code frames of its
    // diagnostics: a file is read once, within the limits of document-files.ts.
    const result = importSpec({
      input: mode.input,
      outSpec: mode.outSpec,
      schemaFile,
      texts,
      ...(mode.packageName !== undefined ? { packageName: mode.packageName } : {}),
      ...reachOf(mode),
      ...(mode.overlays !== undefined ? { overlays: mode.overlays } : {}),
    });
    // An overlay action that selects nothing changes nothing: said, and the import goes on.
    if (result.warnings?.length)
      printErr(formatDiagnostics(result.warnings, texts, coloursOf("stderr")));
    progress.stage(`write ${result.files.length} spec files`, 2, 2);
    writeSpecFolder(mode.outSpec, result.files);
    progress.done();
    const ms = Math.round(performance.now() - started);
    printOut(
      `${displayPath(mode.outSpec)}: ${result.files.length} files, ${result.endpoints} endpoints, ${result.types} types, ${result.gaps} gaps noted (${ms} ms); list them with --gaps --spec ${displayPath(mode.outSpec)}`,
    );
    return 0;
  } finally {
    progress.done();
  }
}
