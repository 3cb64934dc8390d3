/**
 * Every emitter of the generated package, in output order. Each is a pure function
 * from the emit context (the IR plus resolved options) to files.
 */
import { emitCallbacksFile } from "./callbacks-file.ts";
import { emitClientFile } from "./client-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { emitErrorsFile } from "./errors-file.ts";
import { emitIndexFile } from "./index-file.ts";
import { emitOpenApiFiles } from "./openapi/files.ts";
import { emitPackageFiles } from "./package-files.ts";
import { emitRuntimeFiles } from "./runtime-files.ts";
import { emitTestingFile } from "./testing-file.ts";
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
  { name: "errors", emit: emitErrorsFile },
  { name: "client", emit: emitClientFile },
  { name: "callbacks", emit: emitCallbacksFile },
  { name: "openapi", emit: emitOpenApiFiles },
  { name: "index", emit: emitIndexFile },
  { name: "testing", emit: emitTestingFile },
  { name: "package", emit: emitPackageFiles },
];
