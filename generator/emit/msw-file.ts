/**
 * Emits `src/msw.ts` (the package's `/msw` entry): msw request handlers over the stand-in of
 * `src/testing.ts`, for browser and component tests. What each endpoint's success carries
 * (`MswAnswers`, by endpoint id) types an override; `standInHandlers` hands the package's
 * `createStandIn` to the runtime (runtime/msw/handlers.ts), which does the rest. Only
 * printing here: the routes, refusals and state are the stand-in's.
 */
import type { ApiModel, Endpoint } from "../ir/model.ts";
import { call, id, ret, valueExpr } from "./code/build.ts";
import type { Expr, FileStatement, Member, TypeExpr } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { generatedRef, globalRef, modules, runtimeType, runtimeValue } from "./shared/symbols.ts";
import { keyword, typeExpr } from "./shared/type-expr.ts";

const module = "msw/handlers.ts";
const answersName = "MswAnswers";

/** What an override of the endpoint gives: its success body as the client returns it. */
function answerType(endpoint: Endpoint): TypeExpr {
  const { kind, body } = endpoint.response;
  switch (kind) {
    case "json":
      return body ? typeExpr(body) : keyword("unknown");
    case "text":
      return keyword("string");
    case "binary":
      return globalRef("Blob");
    case "none":
      return keyword("void");
    case "sse":
    case "jsonl":
      // a stream is given as a Response (MswAnswer's function form)
      return keyword("never");
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled response kind ${String(unhandled)}`);
    }
  }
}

/** `interface MswAnswers { "transactions.get": Transaction; ... }`: the endpoints the stand-in serves. */
function answersInterface(model: ApiModel): FileStatement {
  const served = new Set(model.standIn.table.routes.map((route) => route.endpoint));
  const members: Member[] = model.endpoints
    .filter((endpoint) => served.has(endpoint.id))
    .map((endpoint) => ({
      kind: "property-signature",
      name: endpoint.id,
      type: answerType(endpoint),
      docs: [
        `\`${endpoint.method} ${endpoint.path}\`${endpoint.response.kind === "sse" || endpoint.response.kind === "jsonl" ? ": a stream, answered by a function that gives a Response" : ""}`,
      ],
    }));
  return {
    statement: {
      kind: "interface",
      name: answersName,
      isExported: true,
      docs: [
        "What each endpoint's success carries, by endpoint id: the value an override answers",
        "with (`override(id, value)`), typed as the client returns it.",
      ],
      members,
    },
  };
}

/** The spec's default address of each host (`hosts:`) that has one: the handlers serve them too. */
function hostDefaults(model: ApiModel): Expr | undefined {
  const entries = model.hosts.flatMap((host) =>
    host.baseUrl === undefined ? [] : [[host.name, host.baseUrl] as const],
  );
  return entries.length > 0 ? valueExpr(Object.fromEntries(entries)) : undefined;
}

/** `standInHandlers(options)`: the runtime's handlers over this package's stand-in. */
function factory(model: ApiModel): FileStatement {
  const hosts = hostDefaults(model);
  const args = [generatedRef(modules.testing, "createStandIn", false), id("options")];
  return {
    statement: {
      kind: "function",
      name: "standInHandlers",
      isExported: true,
      docs: [
        `The stand-in of ${model.api.title} as msw request handlers:`,
        "`handlers` answer every request to `options.baseUrl` as `createStandIn(options)` (or",
        "`options.standIn`) does; `setupServer(...handlers)`, then `server.use(override(id, value))`",
        "answers one endpoint with a value of its type.",
      ],
      params: [{ name: "options", type: runtimeType(module, "MswOptions") }],
      returnType: {
        kind: "generic",
        target: runtimeType(module, "MswStandIn"),
        args: [globalRef(answersName)],
      },
      body: [ret(call(runtimeValue(module, "mswStandIn"), ...args, ...(hosts ? [hosts] : [])))],
    },
  };
}

/** What users of the handlers name: the options, the answer and the handlers' types. */
const reExports: FileStatement = {
  statement: {
    kind: "export-from",
    module: `src/runtime/${module}`,
    isTypeOnly: true,
    names: ["MswAnswer", "MswAnswerRequest", "MswOptions", "MswStandIn"].map((name) => ({
      name,
      isType: true,
    })),
  },
};

/** `src/msw.ts` of the generated package. */
export function emitMswFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const statements: FileStatement[] = [
    {
      statement: {
        kind: "doc-comment",
        lines: [
          `msw request handlers for ${model.api.title}, for browser and component tests: the`,
          "stand-in of the package's `/testing` entry (its credentials, refusals, validation and",
          "state) answers each request, and an override answers one endpoint with a value of its",
          "type. msw is an optional peer dependency; only this entry imports it. See docs/testing.md",
          "of apigen.",
        ],
      },
    },
    answersInterface(model),
    factory(model),
    reExports,
  ];
  const contents = printSourceFile({ path: modules.msw, banner: ctx.banner, statements });
  return { path: modules.msw, contents };
}
