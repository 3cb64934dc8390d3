/**
 * Emits the hand-written runtime (generator/runtime/*.ts, real type-checked files) into
 * `src/runtime/` of the package, under the generated-file banner.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EmitContext, EmittedFile } from "./context.ts";

const runtimeDir = fileURLToPath(new URL("../runtime/", import.meta.url));

/** Runtime modules every package gets, by file name. */
export const runtimeModules = [
  "validate.ts",
  "client/errors.ts",
  "client/redact.ts",
  "client/retry.ts",
  "client/response.ts",
  "client/body.ts",
  "client/api-promise.ts",
  "client/decode.ts",
  "client/encode.ts",
  "client/redirect.ts",
  "client/timeout.ts",
  "client/params.ts",
  "client/operation.ts",
  "client/core.ts",
  "callbacks/base64.ts",
  "callbacks/body.ts",
  "callbacks/failure.ts",
  "callbacks/signature.ts",
  "callbacks/routes.ts",
  "callbacks/types.ts",
  "callbacks/webhook.ts",
  "callbacks/core.ts",
  "callbacks/node-adapter.ts",
  "callbacks/fetch-adapter.ts",
  "callbacks/router.ts",
] as const;

/** `src/runtime/*.ts` of the generated package. */
export function emitRuntimeFiles(ctx: EmitContext): EmittedFile[] {
  return runtimeModules.map((name) => ({
    path: `src/runtime/${name}`,
    contents: `// ${ctx.banner}\n// Copied from generator/runtime/${name}.\n\n${readFileSync(`${runtimeDir}${name}`, "utf8")}`,
  }));
}
