/**
 * Settings shared by the fuzz tests (fast-check). In `npm test` every fuzz test runs a
 * bounded number of cases from a fixed seed, so CI is repeatable and the four surfaces
 * together stay under a minute. `npm run fuzz` sets APIGEN_FUZZ=long: at least 10,000 cases
 * per surface from a fresh seed, printed so that a failure can be replayed with
 * `FUZZ_SEED=<seed> npm run fuzz`.
 */
import type { Parameters } from "fast-check";

/** The seed of `npm test`: fixed, so a CI failure replays on any machine. */
export const ciSeed = 20261122;

/** Whether this is the longer run of `npm run fuzz`. */
export const longRun = process.env.APIGEN_FUZZ === "long";

const seedFromEnv = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

/** The seed of this run. */
export const seed = seedFromEnv ?? (longRun ? Math.floor(Math.random() * 2 ** 31) : ciSeed);

/**
 * fast-check parameters for one property: `quick` cases in `npm test`, `long` in `npm run
 * fuzz`. Each surface's main property keeps the default of 10,000; a costly side property
 * (a killed process, a command-line run per case) asks for fewer.
 */
export function fuzzParameters<T>(quick: number, long = 10_000): Parameters<T> {
  const numRuns = longRun ? long : quick;
  return { seed, numRuns, endOnFailure: true, verbose: 1 };
}

/** Time limit of one fuzz test, for vitest: generous in the long run. */
export function fuzzTimeout(quickMs: number): number {
  return longRun ? 60 * 60_000 : quickMs;
}

if (longRun || seedFromEnv !== undefined)
  console.log(`fuzz seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz)`);
