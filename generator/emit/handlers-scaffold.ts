/**
 * The handler scaffold (`npm run generate -- --scaffold-handlers FILE`): a typed handlers
 * file for the user to fill in, one function per callback, each answering a documented
 * "not implemented" failure (HTTP 501, code 501) in its callback's failure shape until
 * written. Not part of the generated package: the file is the user's, written once.
 */
import { failureBody } from "../runtime/callbacks/failure.ts";
import type { ApiModel, Callback } from "../ir/model.ts";
import { failureShapeOf, responseEventField } from "./callback-shapes.ts";
import { docComment, handlerDocLines, handlerInput, resultTypeName } from "./callbacks-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";

/** Status and code of a handler that is not written yet. */
export const notImplementedCode = 501;

/** A JavaScript literal of a JSON value, keys unquoted where they can be. */
function literalText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literalText).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const members = Object.entries(value).map(
      ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literalText(v)}`,
    );
    return `{ ${members.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** The body of one stub: a "not implemented" failure in the callback's shape, or a throw where the spec gives none. */
function stubBody(callback: Callback, model: ApiModel): string[] {
  const shape = failureShapeOf(callback, model);
  const message = `${callback.event} is not implemented`;
  if (!shape) {
    return [
      `  // The spec gives ${callback.event} no failure body: until this is written it throws, and the router answers 500.`,
      `  throw new Error(${JSON.stringify(message)});`,
    ];
  }
  const event = responseEventField(callback, model) ? undefined : callback.event;
  return [
    `  // TODO: answer from \`_${handlerInput(callback).name}\` (rename it once used). Until then: a failure with HTTP status and code ${notImplementedCode}.`,
    `  ctx.setStatus(${notImplementedCode});`,
    `  return ${literalText(failureBody(shape, event, notImplementedCode, [message]))};`,
  ];
}

/** One stub handler. */
function stub(callback: Callback, model: ApiModel): string {
  const body = stubBody(callback, model);
  const input = `_${handlerInput(callback).name}`;
  const ctx = body.some((line) => line.includes("ctx.")) ? "ctx" : "_ctx";
  return [
    docComment(handlerDocLines(callback, model)).trimEnd(),
    `export const ${callback.camelName}: CallbackHandlers[${JSON.stringify(callback.event)}] = async (${input}, ${ctx}): Promise<${resultTypeName(callback)}> => {`,
    ...body,
    "};",
    "",
  ].join("\n");
}

/** The scaffold file; `importFrom` is where the generated callbacks module is imported from. */
export function emitHandlersScaffold(
  ctx: EmitContext,
  path: string,
  importFrom?: string,
): EmittedFile {
  const { model } = ctx;
  const from = importFrom ?? `${model.api.packageName}/callbacks`;
  const types = ["CallbackHandlers", ...model.callbacks.map(resultTypeName)];
  const lines = [
    docComment([
      `Handlers of the ${model.api.title} callbacks, scaffolded by apigen from ${ctx.specName}. This file is yours:`,
      'apigen never overwrites it. Every handler answers a "not implemented" failure (HTTP status and',
      `code ${notImplementedCode}) until it is written. Its types come from the generated package, so a change`,
      "of the spec shows up here as a compile error. Use it with",
      "`createCallbackRouter({ signingSecrets, handlers })`.",
    ]).trimEnd(),
    `import type { ${types.join(", ")} } from ${JSON.stringify(from)};`,
    "",
    ...model.callbacks.map((c) => stub(c, model)),
    docComment(["Every handler, by event."]).trimEnd(),
    "export const handlers: CallbackHandlers = {",
    ...model.callbacks.map((c) => `  ${JSON.stringify(c.event)}: ${c.camelName},`),
    "};",
    "",
  ];
  return { path, contents: lines.join("\n"), parser: "typescript" };
}
