/**
 * `--watch`: regenerates on every spec change until interrupted.
 */
import { coloursOf } from "../diagnostics/colours.ts";
import { displayPath } from "../load/load-spec.ts";
import { watchSpec } from "../watch.ts";
import type { CliOptions } from "./options.ts";

export function watchCommand(
  options: Pick<CliOptions, "specDir" | "outDir" | "outputs">,
): Promise<number> {
  const { specDir, outDir, outputs } = options;
  const out = displayPath(outDir);
  console.log(`watching ${displayPath(specDir)}/ (Ctrl-C to stop)`);
  const colours = { out: coloursOf("stdout"), err: coloursOf("stderr") };
  const watcher = watchSpec(
    { specDir, outDir, outputs },
    out,
    (report) => (report.ok ? console.log(report.text) : console.error(report.text)),
    undefined,
    colours,
  );
  return new Promise((resolve) => {
    const stop = () => {
      watcher.close();
      resolve(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
