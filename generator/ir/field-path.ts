/**
 * Field paths as the spec writes them where a path may go into a list: the error body's
 * `codeField` and `messageField` (`error.errors[0].reason`: Google's; `details[0].issue`:
 * PayPal's). A step `name[0]` is the field, then its first entry: the path holds the step
 * `[0]` after the field's name, which the readers (runtime/client/response.ts, the stand-in's
 * error bodies) take as "the first entry of this list".
 */
import type { FieldPath } from "./model.ts";

/** The step that reads a list's first entry. */
export const firstEntry = "[0]";

/** `error.errors[0].reason` as its steps: `["error", "errors", "[0]", "reason"]`. */
export function parseEntryPath(text: string): FieldPath {
  return text
    .split(".")
    .flatMap((step) => (step.endsWith(firstEntry) ? [step.slice(0, -3), firstEntry] : [step]));
}

/** The steps written back as the spec writes them: `error.errors[0].reason`. */
export function entryPathText(path: FieldPath): string {
  return path.reduce(
    (text, step, i) =>
      step === firstEntry ? `${text}${step}` : i === 0 ? step : `${text}.${step}`,
    "",
  );
}
