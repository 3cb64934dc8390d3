/**
 * Emits the hand-written runtime (generator/runtime/*.ts, real type-checked files) into
 * `src/runtime/` of the package, under the generated-file banner.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EmitContext, EmittedFile } from "./context.ts";

const runtimeDir = fileURLToPath(new URL("../runtime/", import.meta.url));

/** Runtime modules every package gets, by file name. */
export const runtimeModules = ["validate.ts"] as const;

/** `src/runtime/*.ts` of the generated package. */
export function emitRuntimeFiles(ctx: EmitContext): EmittedFile[] {
  return runtimeModules.map((name) => ({
    path: `src/runtime/${name}`,
    contents: `// ${ctx.banner}\n// Copied from generator/runtime/${name}.\n\n${readFileSync(`${runtimeDir}${name}`, "utf8")}`,
    parser: "typescript",
  }));
}
