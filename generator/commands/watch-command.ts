/**
 * `--watch`: regenerates on every spec change until interrupted.
 */
import { cliIo, printErr, printOut } from "../cli-io.ts";
import { coloursOf } from "../diagnostics/colours.ts";
import { displayPath } from "../load/load-spec.ts";
import { watchSpec } from "../watch.ts";
import { reachOf, specSourceKind } from "../load/spec-source.ts";
import { CommandError, type CliOptions } from "./options.ts";

export function watchCommand(
  options: Pick<CliOptions, "specDir" | "outDir" | "outputs" | "refRoot" | "refMap" | "overlays">,
): Promise<number> {
  const { specDir, outDir, outputs } = options;
  const out = displayPath(outDir);
  const kind = specSourceKind(specDir);
  if (kind === "url")
    throw new CommandError(
      "watch needs a spec folder or an OpenAPI document file: a URL cannot be watched (generate fetches it at each run)",
    );
  printOut(
    `watching ${displayPath(specDir)}${kind === "document" ? " and its folder" : "/"} (Ctrl-C to stop)`,
  );
  const colours = { out: coloursOf("stdout"), err: coloursOf("stderr") };
  const watcher = watchSpec(
    {
      specDir,
      outDir,
      outputs,
      ...reachOf(options),
      ...(options.overlays?.length ? { overlays: options.overlays } : {}),
    },
    out,
    (report) => (report.ok ? printOut(report.text) : printErr(report.text)),
    undefined,
    colours,
  );
  return cliIo()
    .untilStopped()
    .then(() => {
      watcher.close();
      return 0;
    });
}
