/**
 * What every template of the generated package is compiled with (templates.ts from the
 * sources, generator/build.mjs ahead of time): its options and its helpers.
 *
 * A template writes a text only through the helper of its context, each one function of
 * shared/escape.ts: `{{md text}}` (markdown text), `{{code text}}` (a markdown code span),
 * `{{htmlComment text}}` and `{{{json value}}}`. handlebars' own escaping (HTML entities) is
 * off: it is the wrong escaping for markdown and JSON. Blocks the emitter builds from escaped
 * parts (tables, code printed by the code model, JSON printed by `jsonText`) are inserted
 * whole, as `{{{nameCode}}}`, `{{{nameTable}}}`, `{{{nameMarkdown}}}` or `{{{nameJson}}}`;
 * test/escape.test.ts holds the templates to this.
 */
import type Handlebars from "handlebars";
import { htmlComment, jsonText, markdownCode, markdownText } from "./shared/escape.ts";

/** No HTML escaping, and a missing value is an error. */
export const templateOptions = { noEscape: true, strict: true } as const;

/** The helpers of the templates, by name: one per output context. */
export const templateHelpers = {
  json: (value: unknown) => jsonText(value),
  md: (text: unknown) => markdownText(String(text)),
  code: (text: unknown) => markdownCode(String(text)),
  htmlComment: (text: unknown) => htmlComment(String(text)),
} as const;

/** The helpers the templates use. */
export function registerHelpers(handlebars: Pick<typeof Handlebars, "registerHelper">): void {
  for (const [name, helper] of Object.entries(templateHelpers))
    handlebars.registerHelper(name, helper);
}
