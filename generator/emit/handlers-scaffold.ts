/**
 * The handler scaffold (`npm run generate -- --scaffold-handlers FILE`): a typed handlers
 * file for the user to fill in, one function per callback, each answering a documented
 * "not implemented" failure (HTTP 501, code 501) in its callback's failure shape until
 * written, or throwing (the router answers 500) where the spec gives the callback no failure
 * body. Not part of the generated package: the file is the user's, written once.
 */
import { failureBody } from "../runtime/callbacks/failure.ts";
import type { Callback, WebhookEvent, Webhooks } from "../ir/model.ts";
import {
  call,
  exprStatement,
  id,
  lit,
  member,
  newExpr,
  obj,
  ret,
  valueExpr,
} from "./code/build.ts";
import type { FileStatement, Ref, Statement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import {
  handlerDocLines,
  handlerInput,
  handlersTypeRef,
  resultTypeRef,
} from "./shared/callback-docs.ts";
import { globalRef } from "./shared/symbols.ts";
import {
  webhookHandlerDocLines,
  webhookHandlersTypeRef,
  webhookStubName,
} from "./shared/webhook-docs.ts";
import { generic } from "./shared/type-expr.ts";

/** The scaffold imports the package's types by name itself: its references import nothing more. */
const imported = (ref: Ref): Ref => globalRef(ref.name);

/** Status and code of a handler that is not written yet. */
export const notImplementedCode = 501;

/** The body of one stub: a "not implemented" failure in the callback's shape, or a throw where the spec gives none. */
function stubBody(callback: Callback, input: string): Statement[] {
  const shape = callback.routing.failureShape;
  const message = `${callback.event} is not implemented`;
  if (!shape)
    return [
      {
        kind: "comment",
        text: `The spec gives ${callback.event} no failure body: until this is written it throws, and the router answers 500.`,
      },
      { kind: "throw", expr: newExpr(id("Error"), lit(message)) },
    ];
  const event = callback.routing.responseEvent ? undefined : callback.event;
  return [
    {
      kind: "comment",
      text: `TODO: answer from \`${input}\` (rename it once used). Until then: a failure with HTTP status and code ${notImplementedCode}.`,
    },
    exprStatement(call(member(id("ctx"), "setStatus"), lit(notImplementedCode))),
    ret(valueExpr(failureBody(shape, event, notImplementedCode, [message]))),
  ];
}

/** One stub handler: `export const productInfo: CallbackHandlers["product.info"] = async (...) => {...}`. */
function stub(callback: Callback, name = callback.camelName): Statement {
  const input = `_${handlerInput(callback).name}`;
  const body = stubBody(callback, input);
  const usesCtx = callback.routing.failureShape !== undefined;
  return {
    kind: "variable",
    declarationKind: "const",
    name,
    isExported: true,
    docs: handlerDocLines(callback),
    type: {
      kind: "indexed",
      object: imported(handlersTypeRef),
      index: { kind: "literal-type", value: callback.event },
    },
    init: {
      kind: "arrow",
      isAsync: true,
      params: [{ name: input }, { name: usesCtx ? "ctx" : "_ctx" }],
      returnType: generic("Promise", imported(resultTypeRef(callback))),
      body,
    },
  };
}

/** One webhook stub: `export const onIssues: NonNullable<WebhookHandlers["issues"]> = async (...) => {...}`. */
function webhookStub(
  webhooks: Webhooks,
  event: WebhookEvent,
  name = webhookStubName(event),
): Statement {
  return {
    kind: "variable",
    declarationKind: "const",
    name,
    isExported: true,
    docs: webhookHandlerDocLines(webhooks, event),
    type: generic("NonNullable", {
      kind: "indexed",
      object: imported(webhookHandlersTypeRef),
      index: { kind: "literal-type", value: event.name },
    }),
    init: {
      kind: "arrow",
      isAsync: true,
      params: [{ name: "_payload" }, { name: "_ctx" }],
      body: event.success
        ? [
            {
              kind: "comment",
              text: "TODO: answer the delivery from `_payload` (rename it once used): the API reads the answer. Until then it throws, and the router answers 500.",
            },
            { kind: "throw", expr: newExpr(id("Error"), lit(`${event.name} is not implemented`)) },
          ]
        : [
            {
              kind: "comment",
              text: "TODO: handle the delivery from `_payload` (rename it once used). Until then it is accepted unread (200).",
            },
          ],
    },
  };
}

/** `export const webhookHandlers: WebhookHandlers = { issues: onIssues, ... }`. */
function webhookHandlersObject(
  webhooks: Webhooks,
  stubName: (event: WebhookEvent) => string = webhookStubName,
): Statement {
  return {
    kind: "variable",
    declarationKind: "const",
    name: "webhookHandlers",
    isExported: true,
    docs: ["Every webhook handler, by event: `webhook: { path, handlers: webhookHandlers }`."],
    type: imported(webhookHandlersTypeRef),
    init: obj(
      webhooks.events.map((e) => [e.name, id(stubName(e))] as const),
      { expanded: true },
    ),
  };
}

/**
 * What the header says the stubs answer until they are written, as the router answers them: a
 * stub whose callback has a failure body answers it with status and code 501; one without
 * throws, which the router answers with a 500.
 */
function untilWritten(callbacks: readonly Callback[], hasWebhooks: boolean): string[] {
  const shaped = callbacks.filter((c) => c.routing.failureShape !== undefined);
  const notImplemented = `a "not implemented" failure (HTTP status and code ${notImplementedCode})`;
  const lines =
    shaped.length === callbacks.length
      ? [`Until it is written, every handler answers ${notImplemented}.`]
      : shaped.length === 0
        ? [
            "Until it is written, every handler throws, which the router answers with HTTP status 500",
            "(the spec gives these callbacks no failure body to answer with).",
          ]
        : [
            `Until it is written, a handler answers ${notImplemented} where the spec gives its`,
            "callback a failure body, and throws elsewhere, which the router answers with HTTP status 500",
            `(${callbacks
              .filter((c) => !c.routing.failureShape)
              .map((c) => c.event)
              .join(", ")}).`,
          ];
  if (hasWebhooks) lines.push("Every webhook handler accepts its deliveries unread (200).");
  return lines;
}

/** The scaffold file; `importFrom` is where the generated callbacks module is imported from. */
export function emitHandlersScaffold(
  ctx: EmitContext,
  path: string,
  importFrom?: string,
): EmittedFile {
  const { model } = ctx;
  const from = importFrom ?? `${model.api.packageName}/callbacks`;
  const webhooks = model.webhooks?.events.length ? model.webhooks : undefined;
  const types = [
    handlersTypeRef,
    ...model.callbacks.map(resultTypeRef),
    ...(webhooks ? [webhookHandlersTypeRef] : []),
  ];
  const statements: FileStatement[] = [
    {
      statement: {
        kind: "import-from",
        specifier: from,
        isTypeOnly: true,
        names: types.map((t) => ({ name: t.name, isType: true })),
      },
    },
    ...model.callbacks.map((c) => ({ statement: stub(c) })),
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: "handlers",
        isExported: true,
        docs: ["Every handler, by event."],
        type: imported(handlersTypeRef),
        init: obj(
          model.callbacks.map((c) => [c.event, id(c.camelName)] as const),
          { expanded: true },
        ),
      },
    },
    ...(webhooks
      ? [
          ...webhooks.events.map((e) => ({ statement: webhookStub(webhooks, e) })),
          { statement: webhookHandlersObject(webhooks) },
        ]
      : []),
  ];
  const contents = printSourceFile({
    path,
    header: [
      {
        kind: "doc-comment",
        lines: [
          `Handlers of the ${model.api.title} callbacks, scaffolded by apigen from ${ctx.specName}. This file is yours:`,
          "apigen never overwrites it.",
          ...untilWritten(model.callbacks, webhooks !== undefined),
          "Its types come from the generated package, so a change of the spec shows up here as a",
          "compile error. Use it with",
          webhooks
            ? '`createCallbackRouter({ signingSecrets, handlers, webhook: { path: "/webhooks", handlers: webhookHandlers } })`.'
            : "`createCallbackRouter({ signingSecrets, handlers })`.",
        ],
      },
    ],
    statements,
  });
  return { path, contents };
}

/** One event's part of a scaffold: its key in its handlers object and its stub. */
export interface ScaffoldHandler {
  event: string;
  /** The stub's name in a fresh scaffold. */
  stubName: string;
  /** The types its stub names that the scaffold imports (`ProductInfoResult`). */
  types: string[];
  /** The stub's statement as a fresh scaffold prints it, named `name`, with a final newline. */
  stub(name: string): string;
}

/**
 * The pieces of a scaffold, printed as a fresh scaffold prints them, for updating a handlers
 * file in place (generator/handlers-update/): new stubs look exactly like the scaffold's own.
 */
export interface ScaffoldParts {
  /** Where a fresh scaffold imports the types from. */
  importFrom: string;
  handlersType: string;
  webhookHandlersType: string;
  callbacks: ScaffoldHandler[];
  webhooks: ScaffoldHandler[];
  /** The `webhookHandlers` object of a fresh scaffold (none without webhook events), its stubs named by `stubName`. */
  webhookObject?: (stubName: (event: string) => string) => string;
}

const printStatement = (statement: Statement) =>
  printSourceFile({ path: "handlers.ts", statements: [{ statement }] });

export function scaffoldParts(ctx: EmitContext): ScaffoldParts {
  const { model } = ctx;
  const webhooks = model.webhooks?.events.length ? model.webhooks : undefined;
  return {
    importFrom: `${model.api.packageName}/callbacks`,
    handlersType: handlersTypeRef.name,
    webhookHandlersType: webhookHandlersTypeRef.name,
    callbacks: model.callbacks.map((c) => ({
      event: c.event,
      stubName: c.camelName,
      types: [resultTypeRef(c).name],
      stub: (name) => printStatement(stub(c, name)),
    })),
    webhooks: (webhooks?.events ?? []).map((e) => ({
      event: e.name,
      stubName: webhookStubName(e),
      types: [],
      stub: (name) => printStatement(webhookStub(webhooks!, e, name)),
    })),
    ...(webhooks
      ? {
          webhookObject: (stubName) =>
            printStatement(webhookHandlersObject(webhooks, (e) => stubName(e.name))),
        }
      : {}),
  };
}
