/**
 * Emits `src/validators.ts` (the package's `./validators` entry): one validator per named type
 * and parameters interface the model says to validate (`model.validated`), built from the
 * model's types and constraints with the combinators of `runtime/validate.ts`, each also a
 * Standard Schema of its type (`runtime/standard-schema.ts`); and, with the client, the
 * table of every endpoint's response validators that the client option `responseValidators`
 * takes (`runtime/client/response-validation.ts`). The client checks requests with the
 * validators, the router inbound bodies, so every rule comes from the spec, none is written
 * per field.
 */
import { checkedResponseTypes } from "../ir/validated.ts";
import type { Endpoint, NamedType } from "../ir/model.ts";
import { id, pureCall } from "./code/build.ts";
import type { Expr, FileStatement, Statement, TypeExpr } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { NameScope } from "../ir/names.ts";
import type { Json, JsonObject } from "./shared/json.ts";
import {
  modules,
  runtimeType,
  runtimeValue,
  schemaName,
  typeRef,
  validatorName,
} from "./shared/symbols.ts";
import { typeExpr } from "./shared/type-expr.ts";
import {
  endpointValidators,
  inlineBodies,
  inlineBodyValidators,
} from "./shared/request-validators.ts";
import { obj } from "./code/build.ts";
import {
  objectValidatorExpr,
  shapesCall,
  validatorDeclaration,
  validatorExpr,
} from "./shared/validator-expr.ts";

/**
 * The exported validator of one named type or parameters interface (a function, built at its
 * first call), and its Standard Schema: `export const moneySchema: StandardSchemaV1<Money> =
 * schema(validateMoney)`, which a bundle drops unless it is used.
 */
function declared(
  name: string,
  type: TypeExpr,
  expression: Expr,
  shapes: NameScope,
): FileStatement[] {
  const docs = [`Checks a value against ${name}; appends one issue per problem.`];
  const schema: Statement = {
    kind: "variable",
    declarationKind: "const",
    name: schemaName(name),
    isExported: true,
    docs: [`${name} as a Standard Schema (v1): \`~standard.validate(value)\`.`],
    type: {
      kind: "generic",
      target: runtimeType("standard-schema.ts", "StandardSchemaV1"),
      args: [type],
    },
    init: pureCall(runtimeValue("standard-schema.ts", "schema"), id(validatorName(name))),
  };
  return [
    ...validatorDeclaration(validatorName(name), expression, docs, true, shapes),
    { statement: schema },
  ];
}

/** The TypeScript type of a named type: its name, or the use of a generic type it was made for. */
function namedTypeExpr(t: NamedType): TypeExpr {
  if (!t.instance) return typeRef(t.name);
  return typeExpr({ ...t.type, kind: "ref", name: t.name, generic: t.instance, nullable: false });
}

/**
 * `responseValidators`: per endpoint whose success the client can check, the shapes of its
 * JSON body (`body`), of its stream's items (`item`) or of each named event's data (`events`).
 */
function responseTable(endpoints: readonly Endpoint[]): FileStatement[] {
  const checked = endpoints.filter((e) => checkedResponseTypes(e).length > 0);
  if (checked.length === 0) return [];
  const init = shapesCall(
    runtimeValue("client/response-validation.ts", "responseValidation"),
    (shape) => {
      const table: JsonObject = {};
      for (const endpoint of checked) {
        const entry: Record<string, Json> = {};
        for (const response of [endpoint.response, endpoint.streamResponse]) {
          if (response?.stream?.events.length)
            entry.events = Object.fromEntries(
              response.stream.events.map((event) => [event.name, shape(event.type)]),
            );
          else if (!response?.body) continue;
          else if (response.kind === "json") entry.body = shape(response.body);
          else if (response.stream) entry.item = shape(response.body);
        }
        Object.defineProperty(table, endpoint.id, {
          value: entry,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return table;
    },
  );
  const statement = {
    kind: "variable",
    declarationKind: "const",
    name: "responseValidators",
    isExported: true,
    docs: [
      "Each endpoint's success body and stream item validators: the client's `responseValidators`.",
    ],
    // typed where declared, so the package's declarations are read without a type checker (diff)
    type: runtimeType("client/response-validation.ts", "ResponseValidators"),
    init,
  } as const;
  return [{ statement }];
}

/**
 * `requestValidators`: per endpoint with checked parameters or a body, their validators. The
 * browser build's endpoints have none of their own (request-validators-file.ts): a browser
 * client given this table checks requests as the Node build does (docs/client.md).
 */
function requestTable(endpoints: readonly Endpoint[]): FileStatement[] {
  const entries = endpoints.flatMap((endpoint): [string, Expr][] => {
    const { params, body } = endpointValidators(endpoint);
    if (!params && !body) return [];
    return [
      [
        endpoint.id,
        obj([
          ["params", params ? id(params) : undefined],
          ["body", body ? id(body) : undefined],
        ]),
      ],
    ];
  });
  const statement = {
    kind: "variable",
    declarationKind: "const",
    name: "requestValidators",
    isExported: true,
    docs: [
      "Each endpoint's parameter and body validators: the client's `requestValidators`, for the browser build, whose endpoints check requests only with them.",
    ],
    // typed where declared, so the package's declarations are read without a type checker (diff)
    type: runtimeType("client/core.ts", "RequestValidators"),
    init: obj(entries, { expanded: true }),
  } as const;
  return [{ statement }];
}

/** `src/validators.ts` of the generated package. */
export function emitValidatorsFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const validated = new Set(model.validated);
  const types = model.types.filter((t) => validated.has(t.name));
  const params = model.paramsTypes.filter((p) => validated.has(p.name));
  const bodies = ctx.outputs.client ? inlineBodies(model) : [];
  const shapes = new NameScope([
    ...[...types, ...params].map((t) => validatorName(t.name)),
    ...bodies.map((e) => e.bodyValidatorName!),
  ]);
  const statements = [
    ...types.flatMap((t) => declared(t.name, namedTypeExpr(t), validatorExpr(t.type), shapes)),
    ...params.flatMap((p) =>
      declared(p.name, typeRef(p.name), objectValidatorExpr(p.params), shapes),
    ),
    ...(ctx.outputs.client ? inlineBodyValidators(model, shapes) : []),
    ...(ctx.outputs.client ? responseTable(model.endpoints) : []),
    ...(ctx.outputs.client ? requestTable(model.endpoints) : []),
  ];
  const contents = printSourceFile({ path: modules.validators, banner: ctx.banner, statements });
  return { path: modules.validators, contents };
}
