/**
 * Emits `src/validators.ts`: one validator per named type and per parameters
 * interface, built from the model's types and constraints with the combinators of
 * `runtime/validate.ts`. The client checks requests with them and the router inbound
 * bodies, so every rule comes from the spec, none is written per field.
 */
import type { FileStatement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { modules, validatorName } from "./shared/symbols.ts";
import { validatorDeclaration, type ValidatorSource } from "./shared/validator-expr.ts";

/** The validator of one named type or parameters interface, exported. */
function declared(name: string, source: ValidatorSource): FileStatement {
  const docs = [`Checks a value against ${name}; appends one issue per problem.`];
  return { statement: validatorDeclaration(validatorName(name), source, docs, true) };
}

/** `src/validators.ts` of the generated package. */
export function emitValidatorsFile(ctx: EmitContext): EmittedFile {
  const { model } = ctx;
  const statements = [
    ...model.types.map((t) => declared(t.name, { type: t.type })),
    ...model.paramsTypes.map((p) => declared(p.name, { fields: p.params })),
  ];
  const contents = printSourceFile({ path: modules.validators, banner: ctx.banner, statements });
  return { path: modules.validators, contents };
}
