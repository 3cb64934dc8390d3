/**
 * Emits `src/request-validators.ts`, through which the client's endpoints refer to the
 * validators of their parameters and bodies (re-exported from `src/validators.ts`), and
 * `src/request-validators.browser.ts`, which package.json's `browser` map puts in its place
 * (package-entries.ts): the same names, each `undefined`. So a bundle for browsers leaves the
 * validators and their runtime out, and a browser client checks requests only when it is given
 * `requestValidators` (docs/client.md, "The browser build"); Node and every other runtime
 * check them always, as before.
 */
import type { FileStatement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { requestValidatorNames } from "./shared/request-validators.ts";
import { modules } from "./shared/symbols.ts";

const stubDoc =
  "The browser build's request-validators.ts (package.json's `browser` map): no validator, so a bundle for browsers leaves them out; the client's `requestValidators` option brings them back.";

export function emitRequestValidatorsFiles(ctx: EmitContext): EmittedFile[] {
  const names = requestValidatorNames(ctx.model);
  const reexport: FileStatement[] = [
    {
      statement: {
        kind: "export-from",
        module: modules.validators,
        names: names.map((name) => ({ name, isType: false })),
      },
    },
  ];
  const absent: FileStatement[] = names.map((name, i) => ({
    statement: {
      kind: "variable",
      declarationKind: "const",
      name,
      isExported: true,
      ...(i === 0 ? { docs: [stubDoc] } : {}),
      type: { kind: "keyword", name: "undefined" },
      init: { kind: "id", name: "undefined" },
    },
    tight: true,
  }));
  return [
    {
      path: modules.requestValidators,
      contents: printSourceFile({
        path: modules.requestValidators,
        banner: ctx.banner,
        statements: names.length ? reexport : [],
      }),
    },
    {
      path: modules.requestValidatorsBrowser,
      contents: printSourceFile({
        path: modules.requestValidatorsBrowser,
        banner: ctx.banner,
        statements: absent,
      }),
    },
  ];
}
