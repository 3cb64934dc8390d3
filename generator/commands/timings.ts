/** `--timings`: the time of each stage and the total, on stderr so stdout stays the result. */
import { printErr } from "../cli-io.ts";
import type { Timing } from "../pipeline.ts";

/** Prints one aligned line per stage, then the whole run's time. */
export function printTimings(timings: readonly Timing[], totalMs: number): void {
  for (const t of [...timings, { stage: "total", ms: totalMs }])
    printErr(`${t.stage.padEnd(16)} ${t.ms.toFixed(1).padStart(8)} ms`);
}
