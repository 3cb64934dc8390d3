/**
 * Cold-process generation time on the Merchant spec: from an empty output folder, and
 * with the output already current (the build-step case). Prints median, min and max of
 * several runs; it measures and never asserts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const root = join(import.meta.dirname, "..");

function generateOnce(out: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", join(root, "generator/cli.ts"), "--out", out], { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`generate failed: ${result.stderr}`);
  return performance.now() - start;
}

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${label.padEnd(34)} median ${median.toFixed(0).padStart(5)} ms   min ${sorted[0]!.toFixed(0).padStart(5)} ms   max ${sorted.at(-1)!.toFixed(0).padStart(5)} ms   (${times.length} runs)`;
}

const empty: number[] = [];
const current: number[] = [];
for (let i = 0; i < runs; i++) {
  const out = mkdtempSync(join(tmpdir(), "apigen-bench-"));
  empty.push(generateOnce(out));
  current.push(generateOnce(out));
  rmSync(out, { recursive: true, force: true });
}
console.log(`Node ${process.version}, Merchant spec, cold process (tsx included)`);
console.log(summary("generate into an empty folder", empty));
console.log(summary("generate with output current", current));
