/**
 * Emits `src/validators.ts`: one validator function per named type and parameters interface
 * the model says to validate (`model.validated`), built from the model's types and
 * constraints with the combinators of `runtime/validate.ts`. The client checks requests with
 * them and the router inbound bodies, so every rule comes from the spec, none is written per
 * field.
 */
import type { Expr, FileStatement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { modules, validatorName } from "./shared/symbols.ts";
import {
  objectValidatorExpr,
  validatorDeclaration,
  validatorExpr,
} from "./shared/validator-expr.ts";

/** The exported validator of one named type or parameters interface. */
function declared(name: string, expression: Expr): FileStatement[] {
  const docs = [`Checks a value against ${name}; appends one issue per problem.`];
  return validatorDeclaration(validatorName(name), expression, docs, true);
}

/** `src/validators.ts` of the generated package. */
export function emitValidatorsFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const validated = new Set(model.validated);
  const statements = [
    ...model.types
      .filter((t) => validated.has(t.name))
      .flatMap((t) => declared(t.name, validatorExpr(t.type))),
    ...model.paramsTypes
      .filter((p) => validated.has(p.name))
      .flatMap((p) => declared(p.name, objectValidatorExpr(p.params))),
  ];
  const contents = printSourceFile({ path: modules.validators, banner: ctx.banner, statements });
  return { path: modules.validators, contents };
}
