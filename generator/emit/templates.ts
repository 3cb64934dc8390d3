/**
 * The templates of the generated package's non-code files (`templates/*.hbs`), with the
 * helpers they use. Running from the sources, a template is compiled with handlebars the
 * first time it is used; the ahead-of-time build (generator/build.mjs) replaces this module
 * with one that holds every template precompiled and only handlebars' small runtime, so a
 * generation never loads handlebars' compiler.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";

import { registerHelpers, templateOptions } from "./template-helpers.ts";

export type Template = (view: object) => string;

const templatesDir = fileURLToPath(new URL("../../templates/", import.meta.url));
const handlebars = Handlebars.create();
registerHelpers(handlebars);
const compiled = new Map<string, Template>();

/** `templates/<name>.hbs`, compiled once per process. */
export function template(name: string): Template {
  let found = compiled.get(name);
  if (!found) {
    const source = readFileSync(`${templatesDir}${name}.hbs`, "utf8");
    found = handlebars.compile(source, templateOptions);
    compiled.set(name, found);
  }
  return found;
}
