/**
 * Emits `src/index.ts`: the package's public surface, re-exported from one entry point. The
 * OpenAPI document is not part of it: its own entry (`<package>/openapi`) spares everyone who
 * imports the client parsing it at load, and every type-check of their code reading it (13 MB
 * of JSON for GitHub's API).
 */
import type { ExportFrom, FileStatement } from "./code/nodes.ts";
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { modules } from "./shared/symbols.ts";

/** `src/index.ts` of the generated package. */
export function emitIndexFile(ctx: EmitContext): EmittedFile {
  const reExports: ExportFrom[] = [
    { kind: "export-from", module: modules.types, isTypeOnly: true },
    // a package without its client (outputs.client false) is its types
    ...(ctx.outputs.client
      ? ([
          { kind: "export-from", module: modules.client },
          { kind: "export-from", module: modules.errors },
        ] as const)
      : []),
  ];
  const statements: FileStatement[] = reExports.map((statement, i) => ({
    statement,
    tight: i > 0,
  }));
  const contents = printSourceFile({ path: modules.index, banner: ctx.banner, statements });
  return { path: modules.index, contents };
}
