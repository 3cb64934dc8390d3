/**
 * `--import FILE --out-spec DIR`: converts the document, writes the folder whole, and prints
 * what it wrote and how many gaps it noted (each an `undocumented` note; `--gaps` lists them).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DiagnosticsError } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { importSpec, writeSpecFolder } from "../import/import.ts";
import type { Mode } from "./options.ts";

/** The JSON Schema of the format, beside the generator's sources or its build. */
const schemaFile = join(import.meta.dirname, "..", "schema", "spec.schema.json");

export function importCommand(
  mode: Extract<Mode, { kind: "import" }>,
  texts: Map<string, string>,
): number {
  const started = performance.now();
  try {
    const result = importSpec({
      input: mode.input,
      outSpec: mode.outSpec,
      schemaFile,
      ...(mode.packageName !== undefined ? { packageName: mode.packageName } : {}),
    });
    writeSpecFolder(mode.outSpec, result.files);
    const ms = Math.round(performance.now() - started);
    console.log(
      `${displayPath(mode.outSpec)}: ${result.files.length} files, ${result.endpoints} endpoints, ${result.types} types, ${result.gaps} gaps noted (${ms} ms); list them with --gaps --spec ${displayPath(mode.outSpec)}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DiagnosticsError)
      for (const d of error.diagnostics)
        if (d.location && !texts.has(d.location.file))
          texts.set(d.location.file, readFileSync(d.location.file, "utf8"));
    throw error;
  }
}
