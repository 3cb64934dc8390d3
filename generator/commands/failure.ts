/**
 * How a command's failure is printed: a broken spec or config as its diagnostics, a refusal
 * as its message; exit code 1 either way, never a stack trace.
 */
import { DiagnosticsError } from "../diagnostics/diagnostic.ts";
import { formatDiagnostics } from "../diagnostics/format.ts";
import { coloursOf } from "../diagnostics/colours.ts";
import { CommandError } from "./options.ts";
import { printErr } from "../cli-io.ts";

/** Prints `error` when it is one a user can act on and gives the exit code; undefined for any other. */
export function reportFailure(
  error: unknown,
  texts: ReadonlyMap<string, string>,
): number | undefined {
  if (error instanceof DiagnosticsError) {
    printErr(formatDiagnostics(error.diagnostics, texts, coloursOf("stderr")));
    return 1;
  }
  if (error instanceof CommandError) {
    printErr(error.message);
    return 1;
  }
  return undefined;
}
