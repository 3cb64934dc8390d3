/**
 * The body argument of an endpoint's function and method, and of the integrations that repeat
 * the call's arguments (TanStack Query's): required, or, where the spec lets the call leave it
 * out (`bodyOptional`), optional, or `T | undefined` when a required argument follows it.
 */
import type { Endpoint } from "../../ir/model.ts";
import type { Param } from "../code/nodes.ts";
import { keyword, typeExpr, union } from "./type-expr.ts";

/** `body: T`, `body?: T` or `body: T | undefined`; none for an endpoint without a body. */
export function bodyParams(endpoint: Endpoint, requiredAfter: boolean): Param[] {
  if (!endpoint.body) return [];
  const type = typeExpr(endpoint.body);
  if (!endpoint.bodyOptional) return [{ name: "body", type }];
  return requiredAfter
    ? [{ name: "body", type: union([type, keyword("undefined")]) }]
    : [{ name: "body", type, hasQuestionToken: true }];
}
