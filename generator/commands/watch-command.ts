/**
 * `--watch`: regenerates on every spec change until interrupted.
 */
import { displayPath } from "../load/load-spec.ts";
import { watchSpec } from "../watch.ts";

export function watchCommand(specDir: string, outDir: string): Promise<number> {
  const out = displayPath(outDir);
  console.log(`watching ${displayPath(specDir)}/ (Ctrl-C to stop)`);
  const watcher = watchSpec({ specDir, outDir }, out, (report) =>
    report.ok ? console.log(report.text) : console.error(report.text),
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
