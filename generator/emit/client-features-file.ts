/**
 * Emits `src/client-features.ts`, the package's `./client-features` entry: the features the
 * browser build's request loop runs only when a client is given them (`new MerchantCore({
 * baseUrl, features: [retries, timeouts] })`; runtime/client/features.ts, docs/client.md "The
 * browser build"). An entry of its own, so that the main entry (and every bundle of it, for
 * Node too) stays as it was; the Node build has every feature on and does not read them.
 */
import { printSourceFile } from "./code/source-file.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { modules } from "./shared/symbols.ts";

export function emitClientFeaturesFile(ctx: EmitContext): EmittedFile {
  const values = ["allFeatures", "redirectErrors", "retries", "timeouts"];
  return {
    path: modules.clientFeatures,
    contents: printSourceFile({
      path: modules.clientFeatures,
      banner: ctx.banner,
      statements: [
        {
          statement: {
            kind: "export-from",
            module: "src/runtime/client/features.ts",
            names: [
              ...values.map((name) => ({ name, isType: false })),
              { name: "ClientFeature", isType: true },
            ],
          },
        },
      ],
    }),
  };
}
