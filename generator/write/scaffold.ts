/**
 * Writes the handler scaffold: printed like the package, created only if no file is at
 * the path (exclusive create, so not even a race can overwrite one).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createEmitContext } from "../emit/context.ts";
import { emitHandlersScaffold } from "../emit/handlers-scaffold.ts";
import type { ApiModel } from "../ir/model.ts";

/** `written`, or `exists` when a file is already at `path` (left untouched). */
export function writeHandlersScaffold(
  model: ApiModel,
  specName: string,
  path: string,
  importFrom?: string,
): "written" | "exists" {
  const emitted = emitHandlersScaffold(createEmitContext(model, specName), path, importFrom);
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, emitted.contents, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
    throw error;
  }
  return "written";
}
