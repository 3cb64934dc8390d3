/**
 * Every emitter of the generated package, in output order. Each is a pure function
 * from the emit context (the IR plus resolved options) to files.
 */
import type { EmitContext, EmittedFile } from "./context.ts";
import { emitIndexFile } from "./index-file.ts";
import { emitPackageFiles } from "./package-files.ts";
import { emitRuntimeFiles } from "./runtime-files.ts";
import { emitTypesFile } from "./types-file.ts";
import { emitValidatorsFile } from "./validators-file.ts";

export interface Emitter {
  name: string;
  emit: (ctx: EmitContext) => EmittedFile | EmittedFile[];
}

export const emitters: readonly Emitter[] = [
  { name: "types", emit: emitTypesFile },
  { name: "validators", emit: emitValidatorsFile },
  { name: "runtime", emit: emitRuntimeFiles },
  { name: "index", emit: emitIndexFile },
  { name: "package", emit: emitPackageFiles },
];
