/**
 * Emits `src/callbacks.ts`: `createCallbackRouter` typed from the spec's callbacks (one
 * handler per event, its input and its answer), and the route table the hand-written
 * runtime (runtime/callbacks/) serves. Everything per event, routes, methods, parameters,
 * validators and failure shapes, comes from the model; the file stays a thin typed layer.
 * Not re-exported from `src/index.ts`: it is server code, kept out of browser bundles.
 */
import { CodeBlockWriter } from "ts-morph";
import type { ApiModel, Callback, TypeNode } from "../ir/model.ts";
import { referencedNames } from "../ir/walk.ts";
import {
  failureShapeOf,
  paramConversion,
  responseEventField,
  signatureCodeOf,
  signatureHeaderOf,
} from "./callback-shapes.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { docLines } from "./jsdoc.ts";
import { validatorName } from "./names.ts";
import { writeType } from "./type-text.ts";
import { combinators, validatorExpression } from "./validators-file.ts";

/** TypeScript text of a type node. */
export function typeText(node: TypeNode): string {
  const writer = new CodeBlockWriter({ indentNumberOfSpaces: 2 });
  writeType(writer, node);
  return writer.toString();
}

/** `ProductInfoResult`: the type of what a callback's handler answers. */
export function resultTypeName(callback: Callback): string {
  return `${callback.pascalName}Result`;
}

/** The handler's input: the body when there is one, else the parameters, else nothing. */
export function handlerInput(callback: Callback): { name: string; type: string } {
  if (callback.body) return { name: "body", type: typeText(callback.body) };
  if (callback.paramsTypeName) return { name: "params", type: callback.paramsTypeName };
  return { name: "input", type: "undefined" };
}

/** The answer type: success | failure, less the field the router fills with the event. */
function resultTypeText(callback: Callback, model: ApiModel): string {
  const event = responseEventField(callback, model);
  const types = [callback.success, callback.failure].filter((t): t is TypeNode => t !== undefined);
  if (types.length === 0) return "void";
  return types
    .map((t) => (event ? `Omit<${typeText(t)}, ${JSON.stringify(event)}>` : typeText(t)))
    .join(" | ");
}

/** A doc comment from lines, or nothing. */
export function docComment(lines: readonly string[], indent = ""): string {
  if (lines.length === 0) return "";
  return [
    `${indent}/**`,
    ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)),
    `${indent} */`,
    "",
  ].join("\n");
}

/** Doc lines of a callback's handler: the route, then what the spec says. */
export function handlerDocLines(callback: Callback, model: ApiModel): string[] {
  const trailing = callback.params.some((p) => p.placement === "trailing")
    ? " (after the path as segments, or in the query string)"
    : "";
  const body =
    callback.body?.kind === "ref" ? `, body \`${typeText(callback.body)}\`` : ", a JSON body";
  const input = callback.body
    ? body
    : callback.paramsTypeName
      ? `, parameters \`${callback.paramsTypeName}\`${trailing}`
      : "";
  const event = responseEventField(callback, model);
  const extra = [
    ...callback.rules,
    ...(event ? [`The router adds \`${event}\` to the answer.`] : []),
  ];
  return [
    `${callback.event}: \`${callback.method} ${callback.path}\`${input}.`,
    ...docLines(callback.docs, {}, extra),
  ];
}

/** The validator of a callback's body: the generated one of a named type, or one built inline. */
function bodyCheck(body: TypeNode): string {
  return body.kind === "ref" && !body.nullable
    ? validatorName(body.name)
    : validatorExpression(body);
}

/** One entry of the route table. */
function routeEntry(callback: Callback, model: ApiModel): string {
  const failure = failureShapeOf(callback, model);
  const header = signatureHeaderOf(callback.auth, model);
  const event = responseEventField(callback, model);
  const params = callback.params.map((p) => {
    const as = paramConversion(p.type, model);
    return `{ name: ${JSON.stringify(p.name)}, placement: ${JSON.stringify(p.placement)}${as ? `, as: ${JSON.stringify(as)}` : ""} }`;
  });
  const members = [
    `event: ${JSON.stringify(callback.event)}`,
    `method: ${JSON.stringify(callback.method)}`,
    `path: ${JSON.stringify(callback.path)}`,
    `params: [${params.join(", ")}]`,
    ...(callback.paramsTypeName ? [`checkParams: ${validatorName(callback.paramsTypeName)}`] : []),
    ...(callback.body ? [`checkBody: ${bodyCheck(callback.body)}`] : []),
    ...(header ? [`signatureHeader: ${JSON.stringify(header)}`] : []),
    ...(event ? [`responseEvent: ${JSON.stringify(event)}`] : []),
    `failure: ${failure ? JSON.stringify(failure) : "genericFailureShape"}`,
  ];
  return `    {\n${members.map((m) => `      ${m},`).join("\n")}\n    },`;
}

/** `src/callbacks.ts` of the generated package; nothing for a spec without callbacks or webhooks. */
export function emitCallbacksFile(ctx: EmitContext): EmittedFile[] {
  const { model } = ctx;
  if (model.callbacks.length === 0 && !model.webhooks) return [];
  const webhookHeader = model.webhooks ? signatureHeaderOf(model.webhooks.auth, model) : undefined;
  const types = new Set<string>();
  for (const c of model.callbacks)
    referencedNames(c.body, c.success, c.failure).forEach((n) => types.add(n));
  for (const c of model.callbacks) if (c.paramsTypeName) types.add(c.paramsTypeName);
  const routes = model.callbacks.map((c) => routeEntry(c, model)).join("\n");
  const validators = [...new Set(routes.match(/\bvalidate[A-Z]\w*/g) ?? [])].sort();
  const usedCombinators = combinators.filter((name) =>
    new RegExp(`\\b${name}\\b(?!:)`).test(routes.replace(/"[^"]*"/g, "")),
  );
  const results = model.callbacks.map(
    (c) =>
      `${docComment([`What the ${c.event} handler answers.`])}export type ${resultTypeName(c)} = ${resultTypeText(c, model)};\n`,
  );
  const handlers = model.callbacks.map((c) => {
    const input = handlerInput(c);
    const result = resultTypeName(c);
    return `${docComment(handlerDocLines(c, model), "  ")}  ${JSON.stringify(c.event)}: (${input.name}: ${input.type}, ctx: CallbackContext) => ${result} | Promise<${result}>;`;
  });
  const runtime = "./runtime/callbacks";
  const optionsBase = model.webhooks ? "BaseRouterOptions" : `Omit<BaseRouterOptions, "webhook">`;
  const title = model.api.title;
  const lines = [
    `// ${ctx.banner}`,
    docComment([
      `The callback router of ${title}: the server side of the calls the API makes into your server.`,
      "Server code: import it from the package's `./callbacks` entry; the main entry leaves it out of browser bundles.",
    ]),
    `import { createRouter, type CallbackRouter } from "${runtime}/router.js";`,
    `import type { BaseRouterOptions, CallbackContext, RouterSpec } from "${runtime}/core.js";`,
    ...(routes.includes("genericFailureShape")
      ? [`import { genericFailureShape } from "${runtime}/failure.js";`]
      : []),
    ...(usedCombinators.length
      ? [`import { ${usedCombinators.join(", ")} } from "./runtime/validate.js";`]
      : []),
    ...(types.size ? [`import type { ${[...types].sort().join(", ")} } from "./types.js";`] : []),
    ...(validators.length ? [`import { ${validators.join(", ")} } from "./validators.js";`] : []),
    "",
    `export type { CallbackRouter } from "${runtime}/router.js";`,
    `export type { CallbackContext, FailureCodes, InboundRequest, OutboundResponse, RequestContext${model.webhooks ? ", WebhookRoute" : ""} } from "${runtime}/core.js";`,
    `export type { NodeListener, NodeRequestLike, NodeResponseLike } from "${runtime}/node-adapter.js";`,
    `export type { FetchHandler } from "${runtime}/fetch-adapter.js";`,
    `export { signBody, verifyWebhook } from "${runtime}/signature.js";`,
    `export type { ComputeSignature, DecodeSignature, HeaderReader, SignatureOptions, SignedContent, WebhookVerification, WebhookVerifyOptions } from "${runtime}/signature.js";`,
    "",
    ...results,
    docComment([
      "One handler per callback of the spec, by event name. Each returns the body its callback answers with, success or failure.",
    ]) + `export type CallbackHandlers = {\n${handlers.join("\n")}\n};\n`,
    docComment([`Options of \`createCallbackRouter\`.`]) +
      `export interface CallbackRouterOptions extends ${optionsBase} {\n  /** The business logic: one handler per event. */\n  handlers: CallbackHandlers;\n}\n`,
    ...(webhookHeader
      ? [
          `${docComment(["Header that carries the signature of webhook deliveries, for `verifyWebhook`."])}export const webhookSignatureHeader = ${JSON.stringify(webhookHeader)};\n`,
        ]
      : []),
    docComment(["The routes of the spec's callbacks, served by the runtime."]) +
      `const spec: RouterSpec = {\n  signatureCode: ${signatureCodeOf(model)},\n${webhookHeader ? `  webhookSignatureHeader: ${JSON.stringify(webhookHeader)},\n` : ""}  routes: [\n${routes}\n  ],\n};\n`,
    docComment([
      "A router for the callbacks of the spec: `router.node` (node:http; Express when mounted before body parsers),",
      "`router.fetch` (Request -> Response). Every request is signature-checked over its raw bytes and validated",
      "against the spec before its handler runs. See docs/callbacks.md.",
    ]) +
      `export function createCallbackRouter(options: CallbackRouterOptions): CallbackRouter {\n  return createRouter(spec, options);\n}\n`,
  ];
  return [{ path: "src/callbacks.ts", contents: lines.join("\n"), parser: "typescript" }];
}
