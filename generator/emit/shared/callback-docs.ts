/**
 * What the router file and the handler scaffold both say about a callback: its handler's
 * input, the type of its answer and the doc lines of its handler.
 */
import { refText } from "../../ir/generics.ts";
import type { Callback, TypeNode } from "../../ir/model.ts";
import type { TypeExpr } from "../code/nodes.ts";
import { docLines } from "./jsdoc.ts";
import { generatedRef, modules, typeRef } from "./symbols.ts";
import { generic, keyword, literalType, typeExpr, union } from "./type-expr.ts";

/** `ProductInfoResult`: the type of what a callback's handler answers, in `src/callbacks.ts`. */
export const resultTypeRef = (callback: Callback) =>
  generatedRef(modules.callbacks, callback.resultTypeName, true);

/** `CallbackHandlers`: every handler by event, in `src/callbacks.ts`. */
export const handlersTypeRef = generatedRef(modules.callbacks, "CallbackHandlers", true);

/** The handler's input: the body when there is one, else the parameters, else nothing. */
export function handlerInput(callback: Callback): { name: string; type: TypeExpr } {
  if (callback.body) return { name: "body", type: typeExpr(callback.body) };
  if (callback.paramsTypeName) return { name: "params", type: typeRef(callback.paramsTypeName) };
  return { name: "input", type: keyword("undefined") };
}

/** The answer type: success | failure, less the field the router fills with the event. */
export function resultType(callback: Callback): TypeExpr {
  const event = callback.routing.responseEvent;
  const types = [callback.success, callback.failure].filter((t): t is TypeNode => t !== undefined);
  if (types.length === 0) return keyword("void");
  return union(
    types.map((t) => (event ? generic("Omit", typeExpr(t), literalType(event)) : typeExpr(t))),
  );
}

/** Doc lines of a callback's handler: the route, then what the spec says. */
export function handlerDocLines(callback: Callback): string[] {
  const trailing = callback.params.some((p) => p.placement === "trailing")
    ? " (after the path as segments, or in the query string)"
    : "";
  const body =
    callback.body?.kind === "ref" ? `, body \`${refText(callback.body)}\`` : ", a JSON body";
  const input = callback.body
    ? body
    : callback.paramsTypeName
      ? `, parameters \`${callback.paramsTypeName}\`${trailing}`
      : "";
  const event = callback.routing.responseEvent;
  const extra = [
    ...callback.rules,
    ...(event ? [`The router adds \`${event}\` to the answer.`] : []),
    ...(callback.routing.signatureHeader === undefined
      ? [
          "NOT signature-checked: the spec names no `in: signature` credential for this callback, so anyone who",
          "can reach the server can call it.",
        ]
      : []),
  ];
  return [
    `${callback.event}: \`${callback.method} ${callback.path}\`${input}.`,
    ...docLines(callback.docs, {}, extra),
  ];
}
