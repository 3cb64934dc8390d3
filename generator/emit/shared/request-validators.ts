/**
 * The validators of each endpoint's request (its parameters and its body), by name: the
 * client's endpoints hand them to the runtime through `src/request-validators.ts`, which a
 * bundler for browsers swaps for a module without them (docs/client.md, "The browser build"),
 * and `src/validators.ts` lists them in `requestValidators`, which a browser client takes
 * to check requests after all. Every one is declared in `src/validators.ts`: the named types'
 * and parameters interfaces', and the bodies written inline (`validate<Endpoint>Body`).
 */
import type { ApiModel, Endpoint } from "../../ir/model.ts";
import type { FileStatement } from "../code/nodes.ts";
import { validatorName } from "./symbols.ts";
import type { NameScope } from "../../ir/names.ts";
import { validatorDeclaration, validatorExpr } from "./validator-expr.ts";

/** Whether a body is a named type, validated by that type's own validator. */
export const isNamedBody = (endpoint: Endpoint): boolean =>
  endpoint.body?.kind === "ref" && !endpoint.body.nullable;

/** The names of an endpoint's validators: of its parameters, and of its body. */
export function endpointValidators(endpoint: Endpoint): { params?: string; body?: string } {
  const { body, paramsTypeName } = endpoint;
  return {
    ...(paramsTypeName ? { params: validatorName(paramsTypeName) } : {}),
    ...(body
      ? {
          body:
            body.kind === "ref" && isNamedBody(endpoint)
              ? validatorName(body.name)
              : endpoint.bodyValidatorName!,
        }
      : {}),
  };
}

/** Every validator name the endpoints use, each once, in endpoint order. */
export function requestValidatorNames(model: ApiModel): string[] {
  const names = model.endpoints.flatMap((e) => Object.values(endpointValidators(e)));
  return [...new Set(names)];
}

/** The endpoints whose body is written inline, each validated by its own `validate<Endpoint>Body`. */
export const inlineBodies = (model: ApiModel): Endpoint[] =>
  model.endpoints.filter((e) => e.body && !isNamedBody(e));

/** The validators of the bodies whose type is written inline, exported from `src/validators.ts`. */
export function inlineBodyValidators(model: ApiModel, shapes: NameScope): FileStatement[] {
  return inlineBodies(model).flatMap((e) => {
    const docs = [`Checks the body of \`${e.id}\`; appends one issue per problem.`];
    return validatorDeclaration(e.bodyValidatorName!, validatorExpr(e.body!), docs, true, shapes);
  });
}
