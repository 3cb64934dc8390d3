/**
 * Generation, cold process (`node generator/launch.mjs --out <tmp> --timings`, what
 * `npm run generate` runs; the generator is built ahead of time, before the first timed run):
 * from an empty output folder and with the output already current, on the Merchant spec and
 * on synthetic specs 10x and 50x its size (bench/synth-spec.ts). Wall time, peak RSS and the
 * per-stage breakdown of `--timings`. Measures, never asserts.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDir, root, scratch, timed } from "./proc.ts";
import { atMost, fmt, stat, type Row, type Section } from "./stats.ts";
import { makeSyntheticSpec } from "./synth-spec.ts";

const x50LimitMs = Number(process.env.BENCH_X50_LIMIT_MS ?? 330_000);

export interface GenerateResult {
  section: Section;
  merchantEmptyMs: number;
}

function parseTimings(stdout: string): Map<string, number> {
  const stages = new Map<string, number>();
  for (const m of stdout.matchAll(/^(\S.*?)\s{2,}([\d.]+) ms$/gm)) stages.set(m[1]!, Number(m[2]));
  return stages;
}

function generate(spec: string, out: string, timeoutMs = 300_000) {
  const r = timed(
    process.execPath,
    [join(root, "generator/launch.mjs"), "--spec", spec, "--out", out, "--timings"],
    root,
    timeoutMs,
  );
  if (/\b(error|warning) [a-z][a-z0-9-]*:/.test(r.stderr + r.stdout))
    throw new Error(`diagnostics from the generator: ${r.stderr}`);
  return { ...r, stages: parseTimings(r.stderr + "\n" + r.stdout) };
}

/** Adds or removes one field of one type in a copy of the spec: the edit a watch or build loop sees. */
function toggleField(spec: string, add: boolean): void {
  const file = join(spec, "types/transaction.yaml");
  const text = readFileSync(file, "utf8");
  const edited = add
    ? text.replace(/^(\s*)fields:\n/m, "$1fields:\n$1  bench_edit_field: string\n")
    : text.replace(/^\s*bench_edit_field: string\n/m, "");
  if (edited === text)
    throw new Error("the one-field edit did not apply to types/transaction.yaml");
  writeFileSync(file, edited);
}

interface Series {
  times: number[];
  rss: number[];
  stages: Map<string, number[]>;
}

function series(): Series {
  return { times: [], rss: [], stages: new Map() };
}

function record(into: Series, run: ReturnType<typeof generate>): void {
  into.times.push(run.ms);
  if (run.rssMb) into.rss.push(run.rssMb);
  for (const [k, v] of run.stages) into.stages.set(k, [...(into.stages.get(k) ?? []), v]);
}

/** Runs left in a series: 5, or fewer once every run so far took over 10 s (issue 7 allows that). */
const more = (s: Series, runs: number) =>
  s.times.length < runs && !(s.times.length > 0 && Math.min(...s.times) > 10_000);

export async function runGenerate(): Promise<GenerateResult> {
  // Builds the generator if a source changed since the last build, so no timed run includes it.
  timed(process.execPath, [join(root, "generator/launch.mjs"), "--help"]);
  const rows: Row[] = [];
  const notes: string[] = [];
  const specs: [string, string, number][] = [];
  for (const factor of [1, 10, 50]) {
    const dir = freshDir(`spec-x${factor}`);
    if (factor === 1) cpSync(join(root, "spec"), dir, { recursive: true });
    else makeSyntheticSpec(factor, dir);
    specs.push([
      factor === 1 ? "Merchant" : `synthetic ${factor}x`,
      dir,
      Number(process.env.BENCH_RUNS ?? 5),
    ]);
  }
  let merchantEmptyMs = NaN;
  const stageRows: Row[] = [];
  for (const [name, spec, runs] of specs) {
    const big = name === "synthetic 50x";
    const limit = big ? x50LimitMs : 300_000;
    const cold = series(),
      current = series(),
      edit = series();
    const out = () => freshDir("gen-out");
    try {
      // Empty folder: what a clean checkout's first run costs.
      while (more(cold, runs)) record(cold, generate(spec, out(), limit));
      const dir = cold.times.length ? join(scratch, "gen-out") : out();
      // Output current: the build step when nothing changed.
      while (more(current, runs)) record(current, generate(spec, dir, limit));
      // One field added or removed, then a cold process regenerates into the current output.
      while (!big && more(edit, runs)) {
        toggleField(spec, edit.times.length % 2 === 0);
        record(edit, generate(spec, dir, limit));
      }
      if (edit.times.length % 2 === 1) toggleField(spec, false);
    } catch (error) {
      if (!big || cold.times.length > 0) throw error;
      rows.push({
        label: `${name}: empty folder, wall`,
        value: `over ${(limit / 1000).toFixed(0)} s: stopped at the bench's time limit (1 run)`,
        target: "≤ 4000 ms",
        verdict: `missed by more than ${((limit - 4000) / 1000).toFixed(0)} s`,
      });
      notes.push(`${name}: ${(error as Error).message.split("\n")[0]}`);
      continue;
    }
    const sCold = stat(cold.times),
      sCurrent = stat(current.times);
    const emptyTarget = name === "Merchant" ? 700 : big ? 4000 : undefined;
    const judged = (label: string, x: typeof sCold, target?: number) =>
      rows.push({
        label,
        value: fmt(x, "ms"),
        ...(target ? { target: `≤ ${target} ms`, verdict: atMost(x.median, target, "ms") } : {}),
      });
    judged(`${name}: empty folder, wall`, sCold, emptyTarget);
    judged(`${name}: output current, wall`, sCurrent, name === "Merchant" ? 200 : undefined);
    if (edit.times.length) judged(`${name}: one-field edit, wall`, stat(edit.times));
    if (name === "Merchant") merchantEmptyMs = sCold.median;
    if (cold.rss.length) {
      const peak = stat(cold.rss);
      rows.push({
        label: `${name}: peak RSS empty / current`,
        value: `${fmt(peak, "MB")} / ${current.rss.length ? fmt(stat(current.rss), "MB") : "—"}`,
        ...(big ? { target: "< 1024 MB", verdict: atMost(peak.median, 1023, "MB") } : {}),
      });
    }
    for (const [label, s] of [
      ["empty folder", cold],
      ["one-field edit", edit],
    ] as const) {
      if (s.times.length > 0 && s.times.length < runs)
        notes.push(
          `${name}, ${label}: ${s.times.length} run${s.times.length === 1 ? "" : "s"} only: a run takes over 10 s.`,
        );
    }
    for (const [k, v] of cold.stages)
      stageRows.push({ label: `${name}, empty: ${k}`, value: fmt(stat(v), "ms", 1) });
    for (const [k, v] of edit.stages)
      stageRows.push({ label: `${name}, one-field edit: ${k}`, value: fmt(stat(v), "ms", 1) });
    for (const [k, v] of current.stages)
      stageRows.push({ label: `${name}, current: ${k}`, value: fmt(stat(v), "ms", 1) });
  }
  notes.push(
    "Empty folder: no output folder yet, as on a clean checkout. One-field edit: a field added to (or removed from) one type, then a cold process regenerates into the current output.",
    "Per-stage breakdown from `--timings` (in-process times; the wall time adds Node start-up and module loading). With the output current, the run stops at the `up-to-date check` (hashes of the spec, the generator and the output), so no other stage appears.",
  );
  return {
    section: { title: "Generation, cold process", rows: [...rows, ...stageRows], notes },
    merchantEmptyMs,
  };
}
