/**
 * Writes the handler scaffold: formatted like the package, created only if no file is at
 * the path (exclusive create, so not even a race can overwrite one).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createEmitContext } from "../emit/context.ts";
import { emitHandlersScaffold } from "../emit/handlers-scaffold.ts";
import type { ApiModel } from "../ir/model.ts";
import { formatFiles } from "./format.ts";

/** `written`, or `exists` when a file is already at `path` (left untouched). */
export async function writeHandlersScaffold(
  model: ApiModel,
  specName: string,
  path: string,
  importFrom?: string,
): Promise<"written" | "exists"> {
  const emitted = emitHandlersScaffold(createEmitContext(model, specName), path, importFrom);
  const [formatted] = await formatFiles([emitted]);
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, formatted!.contents, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
    throw error;
  }
  return "written";
}
