/**
 * What every template of the generated package is compiled with (templates.ts from the
 * sources, generator/build.mjs ahead of time): its options and its helpers.
 */
import type Handlebars from "handlebars";

/** No HTML escaping, and a missing value is an error. */
export const templateOptions = { noEscape: true, strict: true } as const;

/** The helpers the templates use. */
export function registerHelpers(handlebars: Pick<typeof Handlebars, "registerHelper">): void {
  handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));
}
