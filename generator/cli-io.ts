/**
 * What a run of the command line talks to: its working folder, its environment, its two
 * output streams and the signal that stops it. The bin entry (cli.ts `runAsProcess`) gives the
 * process's own; a caller that runs `main` in its own process (the tests) gives others, and
 * several runs can be under way at once, each with its own.
 *
 * A run's io is kept for everything the run calls, however deep (the loader names a file in a
 * diagnostic relative to the run's working folder), in an AsyncLocalStorage: the spec loader,
 * the importer and the pipeline are shared with callers that are no command line, and a
 * working folder passed down through each of them would be a parameter of every stage for the
 * sake of one message. Outside a run (a library call, a test calling the pipeline) it is the
 * process's io.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { resolve } from "node:path";

/** An output stream: a terminal (isTTY, columns) or not. */
export interface OutputStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface CliIo {
  /** Absolute: relative paths of the command line and the messages' paths are taken from it. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout: OutputStream;
  stderr: OutputStream;
  /**
   * Resolves when the run is asked to stop: for the process, at SIGINT or SIGTERM. What
   * `watch` and `mock` wait for; asked only by them, so any other run keeps the process's
   * default handling of the signals.
   */
  untilStopped(): Promise<void>;
}

/** The io of this process: its working folder and environment now, its streams and signals. */
export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    untilStopped: () =>
      new Promise((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      }),
  };
}

const current = new AsyncLocalStorage<CliIo>();

/** Runs `run` with `io` as the io of everything it calls. */
export function withIo<T>(io: CliIo, run: () => T): T {
  return current.run(io, run);
}

/** The io of the run under way; the process's outside a run. */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo();
}

/** A line on the run's standard output (as console.log prints a string). */
export function printOut(text: string): void {
  cliIo().stdout.write(`${text}\n`);
}

/** A line on the run's standard error (as console.error prints a string). */
export function printErr(text: string): void {
  cliIo().stderr.write(`${text}\n`);
}

/** `path` (absolute, or relative to the run's working folder) as an absolute path. */
export function fromCwd(...path: string[]): string {
  return resolve(cliIo().cwd, ...path);
}
