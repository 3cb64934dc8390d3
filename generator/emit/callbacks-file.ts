/**
 * Emits `src/callbacks.ts`: `createCallbackRouter` typed from the spec's callbacks (one
 * handler per event, its input and its answer) and webhook events (`WebhookHandlers`: one
 * optional handler per event, given its validated payload), and the route table the
 * hand-written runtime (runtime/callbacks/) serves. Everything per event, routes, methods, parameters,
 * validators and failure shapes, comes from the model; the file stays a thin typed layer.
 * Not re-exported from `src/index.ts`: it is server code, kept out of browser bundles.
 */
import type {
  ApiModel,
  Callback,
  FailureShape,
  ReplayPlaces,
  SignatureScheme,
  TypeNode,
  Webhooks,
} from "../ir/model.ts";
import { isDefaultSignatureScheme } from "../ir/build-signing.ts";
import { arr, call, id, lit, obj, ret, valueExpr } from "./code/build.ts";
import type { Expr, FileStatement, Member, Statement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import {
  handlerDocLines,
  handlerInput,
  resultType,
  resultTypeRef,
} from "./shared/callback-docs.ts";
import {
  generatedRef,
  modules,
  runtimeType,
  runtimeValue,
  validatorRef,
} from "./shared/symbols.ts";
import { generic, keyword, literalType, typeExpr, union } from "./shared/type-expr.ts";
import { validatorExpr } from "./shared/validator-expr.ts";
import { deliveryHeadersExpr, deliveryHeadersInterface } from "./shared/delivery-headers.ts";
import {
  deliveryHeadersTypeRef,
  webhookHandlerDocLines,
  webhookHandlersTypeRef,
  webhookHandlerType,
} from "./shared/webhook-docs.ts";

const coreModule = "callbacks/core.ts";
const callbackContext = runtimeType(coreModule, "CallbackContext");

/** `{ fixed: {...}, event: "event", container: {...}, ... }`: a failure shape as data. */
function failureShapeExpr(shape: FailureShape | undefined): Expr {
  if (!shape) return runtimeValue("callbacks/failure.ts", "genericFailureShape");
  return obj([
    ["fixed", obj(Object.entries(shape.fixed).map(([k, v]) => [k, lit(v)] as const))],
    ["event", shape.event === undefined ? undefined : lit(shape.event)],
    [
      "container",
      shape.container &&
        obj([
          ["field", lit(shape.container.field)],
          ["list", lit(shape.container.list)],
        ]),
    ],
    ["code", shape.code === undefined ? undefined : lit(shape.code)],
    [
      "text",
      shape.text &&
        obj([
          ["field", lit(shape.text.field)],
          ["item", shape.text.item === undefined ? undefined : lit(shape.text.item)],
        ]),
    ],
  ]);
}

/** `{ timestamp: { in: "signature", name: "t" }, deliveryId: { in: "header", name: "webhook-id" } }`, or nothing. */
function replayExpr(replay: ReplayPlaces | undefined): Expr | undefined {
  if (!replay) return undefined;
  const place = (p: { in: string; name: string; format?: string } | undefined) =>
    p &&
    obj([
      ["in", lit(p.in)],
      ["name", lit(p.name)],
      ["format", p.format === undefined ? undefined : lit(p.format)],
    ]);
  return obj([
    ["timestamp", place(replay.timestamp)],
    ["deliveryId", place(replay.deliveryId)],
  ]);
}

/** `{ name: "timestamped", timestamp: "t" }`: a scheme as data; nothing for the default, which the runtime assumes. */
function schemeExpr(scheme: SignatureScheme | undefined): Expr | undefined {
  if (!scheme || isDefaultSignatureScheme(scheme)) return undefined;
  return obj(Object.entries(scheme).map(([key, value]) => [key, lit(value)] as const));
}

/** Whether any callback or the webhooks declare where calls carry a signing time or a delivery id. */
const declaresReplay = (model: ApiModel): boolean =>
  model.callbacks.some((c) => c.routing.replay !== undefined) ||
  model.webhooks?.replay !== undefined;

/** One entry of the route table. */
function routeEntry(callback: Callback): Expr {
  const { routing } = callback;
  const params = callback.params.map((p) =>
    obj([
      ["name", lit(p.name)],
      ["wire", p.wireName === undefined ? undefined : lit(p.wireName)],
      ["placement", lit(p.placement)],
      ["as", p.urlValue === undefined ? undefined : lit(p.urlValue)],
    ]),
  );
  const body = callback.body;
  const checkBody = body && validatorExpr(body);
  return obj(
    [
      ["event", lit(callback.event)],
      ["method", lit(callback.method)],
      ["path", lit(callback.path)],
      ["params", arr(params)],
      ["checkParams", callback.paramsTypeName ? validatorRef(callback.paramsTypeName) : undefined],
      ["checkBody", checkBody],
      [
        "signatureHeader",
        routing.signatureHeader === undefined ? undefined : lit(routing.signatureHeader),
      ],
      ["signatureScheme", schemeExpr(routing.signatureScheme)],
      ["replay", replayExpr(routing.replay)],
      [
        "responseEvent",
        routing.responseEvent === undefined ? undefined : lit(routing.responseEvent),
      ],
      ["failure", failureShapeExpr(routing.failureShape)],
      ["form", routing.form ? valueExpr(routing.form) : undefined],
    ],
    { expanded: true },
  );
}

/** What each handler answers, one alias per callback. */
function resultAlias(callback: Callback): Statement {
  return {
    kind: "type-alias",
    name: resultTypeRef(callback).name,
    isExported: true,
    docs: [`What the ${callback.event} handler answers.`],
    type: resultType(callback),
  };
}

/** `CallbackHandlers`: one handler per event, from its input to its answer. */
function handlersType(model: ApiModel): Statement {
  const members = model.callbacks.map((c): Member => {
    const input = handlerInput(c);
    const result = resultTypeRef(c);
    return {
      kind: "property-signature",
      name: c.event,
      docs: handlerDocLines(c),
      type: {
        kind: "function-type",
        params: [
          { name: input.name, type: input.type },
          { name: "ctx", type: callbackContext },
        ],
        returns: union([result, generic("Promise", result)]),
      },
    };
  });
  return {
    kind: "type-alias",
    name: "CallbackHandlers",
    isExported: true,
    docs: [
      "One handler per callback of the spec, by event name. Each returns the body its callback answers with, success or failure.",
    ],
    type: { kind: "object-type", members },
  };
}

/** `WebhookHandlers`: one optional typed handler per webhook event, by event name. */
function webhookHandlersType(webhooks: Webhooks): Statement {
  const members = webhooks.events.map(
    (event): Member => ({
      kind: "property-signature",
      name: event.name,
      hasQuestionToken: true,
      docs: webhookHandlerDocLines(webhooks, event),
      type: webhookHandlerType(webhooks, event),
    }),
  );
  return {
    kind: "type-alias",
    name: webhookHandlersTypeRef.name,
    isExported: true,
    docs: [
      "One handler per webhook event of the spec, by event name, given the validated payload. An event without a",
      "handler here is accepted unread (200); see docs/callbacks.md, Typed webhooks.",
    ],
    type: { kind: "object-type", members },
  };
}

/** The callbacks and the webhook deliveries a spec signs, and those it does not. */
function signedParts(model: ApiModel): { signed: string[]; unsigned: string[] } {
  const signed: string[] = [];
  const unsigned: string[] = [];
  for (const c of model.callbacks)
    (c.routing.signatureHeader !== undefined ? signed : unsigned).push(c.event);
  if (model.webhooks)
    (model.webhooks.signatureHeader !== undefined ? signed : unsigned).push("webhook deliveries");
  return { signed, unsigned };
}

/** `signingSecrets?: never`: a spec that signs nothing takes no secrets (they would check nothing). */
const noSecretsMember: Member = {
  kind: "property-signature",
  name: "signingSecrets",
  hasQuestionToken: true,
  docs: [
    "Not taken: no callback or webhook of this spec is signed (none names an `in: signature` credential), so",
    "there is nothing to check a secret against; passing secrets is an error. See docs/callbacks.md.",
  ],
  type: keyword("never"),
};

/**
 * `webhook?: WebhookRoute<Headers, Payload>` of a spec with one payload for every delivery that
 * gives the handler something typed: the declared headers, the payload's type, or both; none
 * where the base options' `WebhookRoute` (neither) says it all.
 */
function singleRouteMember(webhooks: Webhooks): Member | undefined {
  const payload = typedSinglePayload(webhooks);
  if (!webhooks.headers && !payload) return undefined;
  const headers = webhooks.headers
    ? deliveryHeadersTypeRef
    : runtimeType(coreModule, "DeliveryHeaders");
  return {
    kind: "property-signature",
    name: "webhook",
    hasQuestionToken: true,
    docs: [
      payload
        ? "The webhook route: where deliveries arrive (POST), and the handler of their payload, validated against the spec's type before it runs."
        : "The webhook route: where deliveries arrive (POST), and the handler of their payload and declared headers.",
    ],
    type: {
      kind: "generic",
      target: runtimeType(coreModule, "WebhookRoute"),
      args: payload ? [headers, typeExpr(payload)] : [headers],
    },
  };
}

function optionsInterface(model: ApiModel): Statement {
  const base = runtimeType(coreModule, "BaseRouterOptions");
  const typed = typedWebhooks(model);
  const signsNothing = signedParts(model).signed.length === 0;
  // one payload for every delivery, with declared headers or a payload type: the route's handler gets them typed
  const singleRoute = model.webhooks && !typed ? singleRouteMember(model.webhooks) : undefined;
  const omitted = [
    ...(model.webhooks && !typed && !singleRoute ? [] : ["webhook"]),
    ...(signsNothing ? ["signingSecrets"] : []),
  ];
  return {
    kind: "interface",
    name: "CallbackRouterOptions",
    isExported: true,
    docs: ["Options of `createCallbackRouter`."],
    extends: [omitted.length ? generic("Omit", base, union(omitted.map(literalType))) : base],
    members: [
      ...(signsNothing ? [noSecretsMember] : []),
      {
        kind: "property-signature",
        name: "handlers",
        // a spec with webhooks only has no callback to handle
        hasQuestionToken: model.callbacks.length === 0,
        docs: ["The business logic: one handler per event."],
        type: generatedRef(modules.callbacks, "CallbackHandlers", true),
      },
      ...(typed
        ? [
            {
              kind: "property-signature",
              name: "webhook",
              hasQuestionToken: true,
              docs: [
                "The webhook route: where deliveries arrive (POST), one typed handler per event, and what to do",
                "with an event the spec does not list (`onUnknownEvent`; default: 400).",
              ],
              type: {
                kind: "generic",
                target: runtimeType(coreModule, "TypedWebhookRoute"),
                args: [
                  webhookHandlersTypeRef,
                  ...(model.webhooks?.headers ? [deliveryHeadersTypeRef] : []),
                ],
              },
            } satisfies Member,
          ]
        : []),
      ...(singleRoute ? [singleRoute] : []),
    ],
  };
}

/**
 * `{ header: "X-GitHub-Event", events: { issues: validateIssuesEvent, ... } }`: how the runtime
 * tells deliveries apart, and `answering`: the events whose handlers answer with a body.
 */
function webhookEventsExpr(webhooks: Webhooks): Expr | undefined {
  const selector = webhooks.eventSelector;
  if (!selector || webhooks.events.length === 0) return undefined;
  const checks = webhooks.events.map((event) => {
    return [event.name, validatorExpr(event.payload)] as const;
  });
  const bodyField = webhooks.bodyEventField;
  const answering = webhooks.events.filter((event) => event.success !== undefined);
  return obj(
    [
      [selector.in, lit(selector.name)],
      ["bodyField", bodyField === undefined ? undefined : lit(bodyField)],
      ["events", obj(checks, { expanded: true })],
      [
        "answering",
        answering.length
          ? obj(answering.map((event) => [event.name, lit(event.answerAs ?? "json")] as const))
          : undefined,
      ],
    ],
    { expanded: true },
  );
}

/** Whether the spec lists webhook events (typed deliveries), not one payload for all. */
const typedWebhooks = (model: ApiModel): boolean => (model.webhooks?.events.length ?? 0) > 0;

/**
 * The one payload of every delivery where the spec gives its type (`payload: Ticket`), which
 * the router validates and the handler gets typed; none for `payload: unknown` (the Merchant
 * spec: its shape is not shown) or typed events.
 */
function typedSinglePayload(webhooks: Webhooks): TypeNode | undefined {
  const { payload } = webhooks;
  return webhooks.events.length === 0 && payload && payload.kind !== "unknown"
    ? payload
    : undefined;
}

/** The re-exports of the runtime that users of the router type their code with. */
function reExports(model: ApiModel): FileStatement[] {
  const names = (list: readonly string[], isType = true) => list.map((name) => ({ name, isType }));
  const from = (module: string, list: readonly string[], isTypeOnly = true): FileStatement => ({
    statement: {
      kind: "export-from",
      module: `src/runtime/callbacks/${module}`,
      isTypeOnly,
      names: names(list, isTypeOnly),
    },
    tight: true,
  });
  return [
    from("router.ts", ["CallbackRouter"]),
    from("core.ts", [
      "CallbackContext",
      ...(model.webhooks ? ["DeliveryContext"] : []),
      "FailureCodes",
      "InboundRequest",
      "OutboundResponse",
      "RequestContext",
      ...(typedWebhooks(model)
        ? ["TypedWebhookRoute", "WebhookContext"]
        : model.webhooks
          ? ["WebhookRoute"]
          : []),
    ]),
    from("node-adapter.ts", ["NodeListener", "NodeRequestLike", "NodeResponseLike"]),
    from("fetch-adapter.ts", ["FetchHandler"]),
    from("signature.ts", ["signBody", "verifyWebhook"], false),
    // a delivery signed the spec's way (its scheme, header and signing time), for tests:
    // signatureHeaders(webhookSignatureScheme, webhookSignatureHeader, [secret], body, { timestamp, id })
    ...(model.webhooks?.signatureHeader ? [from("schemes.ts", ["signatureHeaders"], false)] : []),
    ...(declaresReplay(model)
      ? [
          from("replay.ts", ["createMemorySeenIds"], false),
          from("replay.ts", ["MemorySeenIds", "ReplayOptions", "SeenIdStore"]),
        ]
      : []),
    from("signature.ts", [
      "ComputeSignature",
      "DecodeSignature",
      "HeaderReader",
      "SignatureOptions",
      "SignatureScheme",
      "SignedContent",
      "WebhookVerification",
      "WebhookVerifyOptions",
    ]),
  ].map((entry, i) => (i === 0 ? { statement: entry.statement } : entry));
}

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** `text` in lines of at most `width` characters, broken between words. */
function wrapped(text: string, width = 110): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The doc of `createCallbackRouter`: what it serves, and exactly which requests are signature-checked. */
function routerDocLines(model: ApiModel): string[] {
  const { signed, unsigned } = signedParts(model);
  const lead =
    "A router for the callbacks of the spec: `router.node` (node:http; Express when mounted before body parsers),";
  if (unsigned.length === 0)
    return [
      lead,
      "`router.fetch` (Request -> Response). Every request is signature-checked over its raw bytes and validated",
      "against the spec before its handler runs. See docs/callbacks.md.",
    ];
  const open = `the spec names no \`in: signature\` credential for ${listed(unsigned)}, so anyone who can reach the server can send these requests.`;
  const checked =
    signed.length === 0
      ? `No request is signature-checked: ${open}`
      : `Signature-checked over the raw bytes: ${listed(signed)}. NOT signature-checked: ${open}`;
  return [
    lead,
    "`router.fetch` (Request -> Response). Every request is validated against the spec before its handler runs.",
    ...wrapped(`${checked} See docs/callbacks.md.`),
  ];
}

/** The validator of the one payload of every delivery, where the spec types it (`typedSinglePayload`). */
function webhookPayloadExpr(webhooks: Webhooks | undefined): Expr | undefined {
  const payload = webhooks && typedSinglePayload(webhooks);
  return payload && validatorExpr(payload);
}

/** `src/callbacks.ts` of the generated package; nothing for a spec without callbacks or webhooks. */
export function emitCallbacksFile(ctx: EmitContext): EmittedFile[] {
  const { model } = ctx;
  if (model.callbacks.length === 0 && !model.webhooks) return [];
  const webhookHeader = model.webhooks?.signatureHeader;
  const routerSpec = obj(
    [
      ["signatureCode", lit(model.callbackSignatureCode)],
      ["webhookSignatureHeader", webhookHeader === undefined ? undefined : lit(webhookHeader)],
      ["webhookSignatureScheme", schemeExpr(model.webhooks?.signatureScheme)],
      ["webhookReplay", replayExpr(model.webhooks?.replay)],
      ["webhookEvents", model.webhooks && webhookEventsExpr(model.webhooks)],
      ["webhookHeaders", model.webhooks && deliveryHeadersExpr(model.webhooks)],
      ["webhookPayload", webhookPayloadExpr(model.webhooks)],
      ["routes", arr(model.callbacks.map(routeEntry))],
    ],
    { expanded: true },
  );
  const statements: FileStatement[] = [
    ...reExports(model),
    ...model.callbacks.map((c) => ({ statement: resultAlias(c) })),
    { statement: handlersType(model) },
    ...(model.webhooks?.headers ? [{ statement: deliveryHeadersInterface(model.webhooks)! }] : []),
    ...(model.webhooks && typedWebhooks(model)
      ? [{ statement: webhookHandlersType(model.webhooks) }]
      : []),
    { statement: optionsInterface(model) },
    ...(webhookHeader
      ? [
          {
            statement: {
              kind: "variable",
              declarationKind: "const",
              name: "webhookSignatureHeader",
              isExported: true,
              docs: [
                "Header that carries the signature of webhook deliveries, for `verifyWebhook`.",
              ],
              init: lit(webhookHeader),
            } satisfies Statement,
          },
          {
            statement: {
              kind: "variable",
              declarationKind: "const",
              name: "webhookSignatureScheme",
              isExported: true,
              docs: [
                "How webhook deliveries are signed, for `verifyWebhook(body, signature, secrets, { scheme: webhookSignatureScheme })`.",
              ],
              type: runtimeType("callbacks/signature.ts", "SignatureScheme"),
              init:
                schemeExpr(model.webhooks?.signatureScheme) ??
                obj([["name", lit("hmac-sha256-base64")]]),
            } satisfies Statement,
          },
        ]
      : []),
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: "spec",
        docs: ["The routes of the spec's callbacks, served by the runtime."],
        type: runtimeType(coreModule, "RouterSpec"),
        init: routerSpec,
      },
    },
    {
      statement: {
        kind: "function",
        name: "createCallbackRouter",
        isExported: true,
        docs: routerDocLines(model),
        params: [
          { name: "options", type: generatedRef(modules.callbacks, "CallbackRouterOptions", true) },
        ],
        returnType: runtimeType("callbacks/router.ts", "CallbackRouter"),
        body: [
          ret(call(runtimeValue("callbacks/router.ts", "createRouter"), id("spec"), id("options"))),
        ],
      },
    },
  ];
  const contents = printSourceFile({
    path: modules.callbacks,
    banner: ctx.banner,
    header: [
      {
        kind: "doc-comment",
        lines: [
          `The callback router of ${model.api.title}: the server side of the calls the API makes into your server.`,
          "Server code: import it from the package's `./callbacks` entry; the main entry leaves it out of browser bundles.",
        ],
      },
    ],
    statements,
  });
  return [{ path: modules.callbacks, contents }];
}
