/**
 * Emits the generated package's non-code files from handlebars templates:
 * `package.json`, `tsconfig.json`, `tsconfig.build.json` and `README.md`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import type { Callback } from "../ir/model.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { coreClassName, endpointFunctionName } from "./client-file.ts";
import { callbackExample, endpointExample } from "./readme-examples.ts";

const templatesDir = fileURLToPath(new URL("../../templates/", import.meta.url));

const handlebars = Handlebars.create();
handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));

const compiled = new Map<string, HandlebarsTemplateDelegate>();

/** Renders `templates/<name>.hbs`; templates are compiled once per process. */
function render(name: string, view: object): string {
  let template = compiled.get(name);
  if (!template) {
    template = handlebars.compile(readFileSync(`${templatesDir}${name}.hbs`, "utf8"), {
      noEscape: true,
      strict: true,
    });
    compiled.set(name, template);
  }
  return template(view);
}

/** A call of the first endpoint whose parameters are all path parameters and that takes no body: as a method, or as its standalone function. */
function exampleCall(model: EmitContext["model"], standalone = false): string {
  const endpoint =
    model.endpoints.find((e) => !e.body && e.params.every((p) => p.placement === "path")) ??
    model.endpoints[0];
  if (!endpoint) return "";
  const args = endpoint.params
    .filter((p) => p.placement !== "query")
    .map((p) => JSON.stringify(`<${p.name}>`));
  if (endpoint.body) args.push("{ /* body */ }");
  return standalone
    ? `${endpointFunctionName(endpoint)}(${["core", ...args].join(", ")})`
    : `${endpoint.group}.${endpoint.name}(${args.join(", ")})`;
}

/** A callback's summary, else the first sentence of its description (a summary that only repeats the event says nothing). */
function callbackSummary(callback: Callback): string {
  if (callback.summary && callback.summary !== callback.event) return callback.summary;
  return callback.docs.description?.trim().split(/(?<=\.)\s/)[0] ?? "";
}

/** What the templates show, read from the IR. */
function packageView(ctx: EmitContext) {
  const { model } = ctx;
  return {
    banner: ctx.banner,
    specName: ctx.specName,
    packageName: model.api.packageName,
    version: model.api.version,
    title: model.api.title,
    description: (model.api.docs.description ?? model.api.title).trim(),
    typeCount: model.types.length,
    clientName: model.api.clientName,
    errorClassName: model.api.errorClassName,
    credentialOptions: [...new Set(model.endpoints.flatMap((e) => e.auth))]
      .map((id) => `${id}: "…"`)
      .join(", "),
    exampleCall: exampleCall(model),
    coreName: coreClassName(model),
    exampleFunctionCall: exampleCall(model, true),
    exampleFunctionName: exampleCall(model, true).split("(")[0] ?? "",
    exampleTypes: model.types
      .slice(0, 3)
      .map((t) => t.name)
      .join(", "),
    endpoints: model.endpoints.map((e) => ({
      id: e.id,
      summary: e.summary ?? "",
      method: e.method,
      path: e.path,
      auth:
        e.auth
          .map((id) => model.credentials.find((c) => c.id === id)?.header ?? id)
          .map((h) => `\`${h}\``)
          .join(", ") || "none",
      example: endpointExample(e, model),
    })),
    hasCallbacks: model.callbacks.length > 0 || model.webhooks !== undefined,
    callbacks: model.callbacks.map((c) => ({
      event: c.event,
      summary: callbackSummary(c),
      method: c.method,
      path: c.path,
      example: callbackExample(c, model),
    })),
    gapCount: model.gaps.length,
    notes: model.gaps
      .filter((g) => g.kind === "note")
      .map((g) => ({ subject: g.subject, text: g.text })),
    untypedCount: model.gaps.filter((g) => g.kind === "untyped").length,
  };
}

/** `package.json`, `tsconfig.json` (strict check, no output), `tsconfig.build.json` (src/ to dist/) and `README.md` of the generated package. */
export function emitPackageFiles(ctx: EmitContext): EmittedFile[] {
  const view = packageView(ctx);
  return [
    { path: "package.json", contents: render("package.json", view), parser: "json" },
    { path: "tsconfig.json", contents: render("tsconfig.json", view), parser: "json" },
    { path: "tsconfig.build.json", contents: render("tsconfig.build.json", view), parser: "json" },
    { path: "README.md", contents: render("README.md", view), parser: "markdown" },
  ];
}
