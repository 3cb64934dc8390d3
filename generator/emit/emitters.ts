/**
 * Every emitter of the generated package, in output order. Each is a pure function
 * from the emit context (the IR plus resolved options) to files.
 */
import { emitCallbacksFile } from "./callbacks-file.ts";
import { emitClientFeaturesFile } from "./client-features-file.ts";
import { emitClientFile } from "./client-file.ts";
import type { EmitContext, EmittedFile, OutputName, OutputSwitches } from "./context.ts";
import { emitErrorsFile } from "./errors-file.ts";
import { emitIndexFile } from "./index-file.ts";
import { emitMswFile } from "./msw-file.ts";
import { emitOpenApiFiles } from "./openapi/files.ts";
import { emitPackageFiles } from "./package-files.ts";
import { emitRequestValidatorsFiles } from "./request-validators-file.ts";
import { emitRuntimeFiles } from "./runtime-files.ts";
import { emitTanstackQueryFile } from "./tanstack-query-file.ts";
import { emitTestingFile } from "./testing-file.ts";
import { emitTypesFile } from "./types-file.ts";
import { emitValidatorsFile } from "./validators-file.ts";

export interface Emitter {
  name: string;
  emit: (ctx: EmitContext) => EmittedFile | EmittedFile[];
  /** The output it belongs to, left out when the config switches that off; none: always emitted. */
  output?: OutputName;
}

export const emitters: readonly Emitter[] = [
  { name: "types", emit: emitTypesFile },
  { name: "validators", emit: emitValidatorsFile },
  { name: "runtime", emit: emitRuntimeFiles },
  { name: "errors", emit: emitErrorsFile, output: "client" },
  { name: "client", emit: emitClientFile, output: "client" },
  { name: "request-validators", emit: emitRequestValidatorsFiles, output: "client" },
  { name: "client-features", emit: emitClientFeaturesFile, output: "client" },
  { name: "callbacks", emit: emitCallbacksFile, output: "callbacks" },
  { name: "openapi", emit: emitOpenApiFiles, output: "openapi" },
  { name: "index", emit: emitIndexFile },
  { name: "testing", emit: emitTestingFile, output: "testing" },
  { name: "msw", emit: emitMswFile, output: "msw" },
  { name: "tanstack-query", emit: emitTanstackQueryFile, output: "tanstackQuery" },
  { name: "package", emit: emitPackageFiles },
];

/** The emitters of a package with `outputs`. */
export function emittersFor(outputs: OutputSwitches): Emitter[] {
  return emitters.filter((emitter) => emitter.output === undefined || outputs[emitter.output]);
}
