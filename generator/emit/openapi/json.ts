/**
 * The plain JSON values the OpenAPI emitter builds, and the two helpers every part of it
 * uses: `obj` (an object without its undefined entries, keys in the order written) and
 * `notesOf` (the `x-undocumented` list of a documented IR node).
 */
import type { Docs } from "../../ir/model.ts";

export type Json = string | number | boolean | null | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** An object of the entries whose value is defined, in the order given: output key order is fixed by the code. */
export function obj(entries: Record<string, Json | undefined>): JsonObject {
  const out: JsonObject = {};
  // for-in visits a literal's own keys in the order Object.entries would, without the pairs.
  for (const key in entries) {
    const value = entries[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

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
