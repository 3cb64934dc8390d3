/**
 * Formatting threads: prettier is single-threaded and formatting is most of a full run, so
 * files are shared between the main thread and worker threads (one per extra core). Threads
 * are started at the beginning of a run, so each loads and warms prettier while the main
 * thread is still loading the spec and emitting; they are reused by later runs (watch) and
 * never keep the process alive on their own.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Options } from "prettier";

interface Pending {
  resolve(contents: string): void;
  reject(error: Error): void;
}

/** One worker thread and the jobs it has been sent. */
class FormatThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(options: Options) {
    this.worker = new Worker(new URL("./format-worker.mjs", import.meta.url), {
      workerData: { options },
    });
    this.worker.on("message", (message: { id?: number; contents?: string; error?: string }) => {
      const job = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!job) return; // the "ready" message, or a job already failed
      this.settled(message.id!);
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.contents ?? "");
    });
    this.worker.on("error", (error) => {
      for (const [id, job] of this.pending) {
        this.settled(id);
        job.reject(error);
      }
    });
    // After the listeners: adding a "message" listener refs the thread again.
    this.worker.unref();
  }

  /** The formatted text; the thread keeps the process alive only while it has work. */
  format(contents: string, parser: string): Promise<string> {
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, contents, parser });
    });
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }
}

let threads: FormatThread[] | undefined;

/** Starts the threads once per process (none on a single core); later calls return them. */
export function formatThreads(options: Options): readonly FormatThread[] {
  threads ??= Array.from(
    { length: Math.max(0, availableParallelism() - 1) },
    () => new FormatThread(options),
  );
  return threads;
}

export type { FormatThread };
