/**
 * A progress line for long runs: the stage under way and the time so far, on standard error,
 * rewritten in place (`\r`) and cleared when the run ends, so nothing of it stays on the
 * screen or mixes with the output. Only on a terminal: never into a pipe or a CI log, where
 * the lines would pile up (`APIGEN_PROGRESS=1` forces it, `APIGEN_PROGRESS=0` turns it off;
 * FORCE_COLOR does not, since CI logs set it for colour). A run that ends within a second
 * shows nothing; one whose spec or document is large (a megabyte, thousands of operations)
 * shows each stage from the start.
 *
 * The pipeline's stages run synchronously, so the line changes between stages, not during
 * one: the stage it names is the one under way.
 */

import { cliIo } from "../cli-io.ts";

type Env = Readonly<Record<string, string | undefined>>;

export interface Progress {
  /** A stage begins (`step` of `steps`, when counted); `large` shows it however soon. */
  stage(name: string, step?: number, steps?: number, large?: boolean): void;
  /** Clears the line; the run's own output follows. */
  done(): void;
}

/** Shows nothing. */
export const noProgress: Progress = { stage() {}, done() {} };

/** A run shorter than this shows no progress. */
export const progressDelayMs = 1000;

/** Bytes of spec or document above which a run is long enough to show progress from its start. */
export const largeInputBytes = 1 << 20;

/** Whether progress is shown on a stream (a terminal or not), by the rules above. */
export function progressOn(isTerminal: boolean, env: Env = cliIo().env): boolean {
  if (env.APIGEN_PROGRESS === "1") return true;
  if (env.APIGEN_PROGRESS === "0") return false;
  return isTerminal && !env.CI && env.TERM !== "dumb";
}

interface Stream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** The progress line of a run that starts now, on `stream` (the run's standard error). */
export function progressLine(
  stream: Stream = cliIo().stderr,
  env: Env = cliIo().env,
  now: () => number = () => performance.now(),
): Progress {
  if (!progressOn(stream.isTTY === true, env)) return noProgress;
  const started = now();
  let shown = false;
  let eager = false;
  return {
    stage(name, step, steps, large = false) {
      eager ||= large;
      const elapsed = now() - started;
      if (!eager && elapsed < progressDelayMs) return;
      const count = step !== undefined && steps !== undefined ? `[${step}/${steps}] ` : "";
      const line = `apigen ${count}${name}… ${(elapsed / 1000).toFixed(1)} s`;
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      stream.write(`\r\u001b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
      shown = false;
    },
  };
}
