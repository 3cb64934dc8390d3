/**
 * Emits `src/index.ts`: the package's public surface, re-exported from one entry point.
 */
import type { EmitContext, EmittedFile } from "./context.ts";

/** `src/index.ts` of the generated package. */
export function emitIndexFile(ctx: EmitContext): EmittedFile {
  const lines = [
    `// ${ctx.banner}`,
    "",
    `export type * from "./types.js";`,
    `export * from "./client.js";`,
    `export * from "./errors.js";`,
    `export { openApiDocument } from "./openapi.js";`,
    "",
  ];
  return { path: "src/index.ts", contents: lines.join("\n"), parser: "typescript" };
}
