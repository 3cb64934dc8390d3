/**
 * Emits `src/testing.ts` (the package's `/testing` entry): the stand-in's route table as
 * worked out in the model (`model.standIn.table`), as JSON data with the generated validators
 * of each route's parameters and body beside it, and `createStandIn`, which serves it with
 * the hand-written runtime (runtime/testing/). Only printing here: every decision is in the IR.
 */
import type { Endpoint } from "../ir/model.ts";
import { call, id, lit, member, obj, ret } from "./code/build.ts";
import type { Expr, FileStatement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { globalRef, modules, runtimeType, runtimeValue, validatorRef } from "./shared/symbols.ts";
import { validatorExpr } from "./shared/validator-expr.ts";
import { jsonText } from "./shared/escape.ts";

const testingModule = modules.testing;

/** The validator of a JSON body: its named type's, or one built inline. */
function bodyValidator(endpoint: Endpoint): Expr | undefined {
  const body = endpoint.body;
  if (!body || endpoint.requestBody?.encoding !== "json") return undefined;
  return validatorExpr(body);
}

/** `{ "transactions.authorize": { body: validateAuthorizeRequest }, ... }`: each route's validators. */
function validatorsExpr(ctx: EmitContext): Expr {
  const endpoints = new Map(ctx.model.endpoints.map((e) => [e.id, e]));
  const seen = new Set<string>();
  const entries = ctx.model.standIn.table.routes.flatMap((route) => {
    const endpoint = endpoints.get(route.endpoint);
    if (!endpoint || seen.has(route.endpoint)) return [];
    seen.add(route.endpoint);
    const params = endpoint.paramsTypeName ? validatorRef(endpoint.paramsTypeName) : undefined;
    const body = bodyValidator(endpoint);
    if (!params && !body) return [];
    return [
      [
        route.endpoint,
        obj([
          ["params", params],
          ["body", body],
        ]),
      ] as const,
    ];
  });
  return obj(entries, { expanded: entries.length > 0 });
}

/**
 * The route table: the model's data as one JSON text, and the validators beside it. As with
 * `openapi.ts`, a string is what the printer and the type-checker read fastest; the table was
 * the largest object literal of the package (2 MB at 50x the Merchant spec).
 */
function tableExpr(ctx: EmitContext): Expr {
  const data = call(
    member(globalRef("JSON", false), "parse"),
    lit(jsonText(ctx.model.standIn.table)),
  );
  return {
    ...call(runtimeValue("testing/table.ts", "tableOf"), data, validatorsExpr(ctx)),
    pure: true,
  };
}

/** `createStandIn(options)`: the runtime's stand-in over this package's table. */
function factory(title: string): FileStatement {
  const module = "testing/stand-in.ts";
  return {
    statement: {
      kind: "function",
      name: "createStandIn",
      isExported: true,
      docs: [
        `A stand-in for ${title}: every endpoint of the spec, its credentials, validation,`,
        "responses built from the types (seeded) and the state the spec implies.",
      ],
      params: [
        { name: "options", type: runtimeType(module, "StandInOptions"), hasQuestionToken: true },
      ],
      returnType: runtimeType(module, "StandIn"),
      body: [ret(call(runtimeValue(module, "createStandInFrom"), id("table"), id("options")))],
    },
  };
}

/** What users of the stand-in name: `listen` and the option, state and delivery types. */
const reExports: FileStatement[] = [
  {
    statement: {
      kind: "export-from",
      module: "src/runtime/testing/node.ts",
      names: [
        { name: "listen", isType: false },
        { name: "RunningStandIn", isType: true },
      ],
    },
  },
  {
    statement: {
      kind: "export-from",
      module: "src/runtime/testing/stand-in.ts",
      isTypeOnly: true,
      names: [
        "DeliverCall",
        "DeliverOptions",
        "DeliveryOutcome",
        "KeySet",
        "StandIn",
        "StandInOptions",
        "StandInState",
      ].map((name) => ({
        name,
        isType: true,
      })),
    },
    tight: true,
  },
];

/** `src/testing.ts` of the generated package. */
export function emitTestingFile(ctx: EmitContext): EmittedFile {
  const title = ctx.model.api.title;
  const statements: FileStatement[] = [
    {
      statement: {
        kind: "doc-comment",
        lines: [
          `A stand-in for ${title}, for tests and local runs: \`createStandIn().fetch(request)\``,
          "answers as the spec says the service does; `listen(standIn)` serves it on 127.0.0.1.",
          "See docs/testing.md of apigen. Not imported by the package's main entry.",
        ],
      },
    },
    {
      statement: {
        kind: "variable",
        declarationKind: "const",
        name: "table",
        type: runtimeType("testing/table.ts", "StandInTable"),
        init: tableExpr(ctx),
      },
    },
    factory(title),
    ...reExports,
  ];
  const contents = printSourceFile({ path: testingModule, banner: ctx.banner, statements });
  return { path: testingModule, contents };
}
