/** Median, min and max over repeated runs; shared by every measurement in bench/. */
export interface Stat {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function stat(values: number[]): Stat {
  if (values.length === 0) throw new Error("no runs");
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s.at(-1)!, runs: s.length };
}

export function fmt(x: Stat, unit: string, digits = 0): string {
  const f = (v: number) => v.toFixed(digits);
  return `${f(x.median)} ${unit} (min ${f(x.min)}, max ${f(x.max)}, ${x.runs} runs)`;
}

/** A row of the report: a figure, the issue 7 target next to it, and whether it is met. */
export interface Row {
  label: string;
  value: string;
  target?: string;
  verdict?: string;
}

export interface Section {
  title: string;
  rows: Row[];
  notes?: string[];
}

/** "met" or "missed by X" for a figure that must stay at or below `limit`. */
export function atMost(value: number, limit: number, unit: string, digits = 0): string {
  return value <= limit
    ? "met"
    : `missed by ${(value - limit).toFixed(digits)} ${unit} (${((value / limit - 1) * 100).toFixed(0)}%)`;
}

/** "met" or "missed by X" for a figure that must stay at or above `limit`. */
export function atLeast(value: number, limit: number, unit: string, digits = 2): string {
  return value >= limit ? "met" : `missed by ${(limit - value).toFixed(digits)} ${unit}`;
}

/**
 * Runs `once` (which returns a time in ms) `runs` times, except that once `fewer` runs are
 * done and every one of them took over `longMs`, it stops there: issue 7 allows fewer than
 * 5 runs only for runs over 10 s, and the report must say so (`reduced`).
 */
export function repeat(
  once: () => number,
  runs = Number(process.env.BENCH_RUNS ?? 5),
  longMs = 10_000,
  fewer = 3,
): { times: number[]; reduced: boolean } {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(once());
    if (times.length >= fewer && times.length < runs && Math.min(...times) > longMs)
      return { times, reduced: true };
  }
  return { times, reduced: false };
}
