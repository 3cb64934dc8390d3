/**
 * The plain JSON values the OpenAPI emitter builds (shared/json.ts), and the helpers every
 * part of it uses: `obj` (an object without its undefined entries, keys in the order
 * written) and `notesOf` (the `x-undocumented` list of a documented IR node).
 */
import type { Docs } from "../../ir/model.ts";

export { obj, type Json, type JsonObject } from "../shared/json.ts";

/**
 * The `x-undocumented` value of a node: the text of each gap note, in model order, or
 * nothing. Every gap note of the model reaches the document through this function.
 */
export function notesOf(...docs: (Docs | undefined)[]): string[] | undefined {
  const texts = docs.flatMap((d) => d?.notes.map((n) => n.text) ?? []);
  return texts.length ? texts : undefined;
}

/** Lines joined as one description, or nothing when there are none. */
export function text(...lines: (string | undefined)[]): string | undefined {
  const kept = lines.map((l) => l?.trim()).filter((l): l is string => !!l);
  return kept.length ? kept.join("\n\n") : undefined;
}

/** Rules of an operation or credential as a Markdown list under a heading line. */
export function rulesText(rules: readonly string[], heading = "Rules:"): string | undefined {
  return rules.length ? [heading, ...rules.map((r) => `- ${r}`)].join("\n") : undefined;
}

/** A name usable as a key of `components.*` (`^[a-zA-Z0-9.\-_]+$`). */
export function componentKey(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
