// @ts-check
/**
 * A formatting thread: prettier, loaded as soon as the thread starts (while the main thread
 * is still loading and emitting), formats whatever text it is sent. Plain JavaScript so it
 * runs the same from the sources and from the launcher's bundle.
 */
import { parentPort, workerData } from "node:worker_threads";

const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
const prettier = await import("prettier");
// Loading and compiling the parsers and printers is most of a first format's cost: do it now
// for the kinds every run formats (TypeScript, and markdown with a TypeScript block).
await prettier.format("export const warm: { a: number } = { a: 1 };\n", {
  ...workerData.options,
  parser: "babel-ts",
});
await prettier.format("# Warm\n\n```ts\nconst warm = 1;\n```\n", {
  ...workerData.options,
  parser: "markdown",
});
port.postMessage({ ready: true });
port.on("message", async (/** @type {{ id: number, contents: string, parser: string }} */ job) => {
  try {
    const contents = await prettier.format(job.contents, {
      ...workerData.options,
      parser: job.parser,
    });
    port.postMessage({ id: job.id, contents });
  } catch (error) {
    port.postMessage({ id: job.id, error: String(/** @type {Error} */ (error).message ?? error) });
  }
});
