/** `npm run bench`: every measurement in order, then docs/benchmarks.md. Never part of `npm test`. */
import { rmSync } from "node:fs";
import { runAnchors } from "./anchors.ts";
import { runBundle } from "./bundle.ts";
import { runClient } from "./client.ts";
import { runGenerate } from "./generate.ts";
import { scratch } from "./proc.ts";
import { writeReport } from "./report.ts";
import type { Section } from "./stats.ts";
import { runTypecheck } from "./typecheck.ts";

const started = performance.now();
const sections: Section[] = [];
const notMeasured = [
  "Watch: time from a spec edit to the rewritten files in `--watch` — not measured yet.",
  "Router runtime: signed callbacks per second through `router.node` vs a hand-written node:http handler — not measured yet (target ≥ 0.9x).",
  "orval: not measured yet — orval 7.13.0 (the newest that installs on Node 20) exits 1 in this dependency tree (its spectral/ajv-errors compile fails: `SyntaxError: Unexpected token ':'`), so no orval time, ratio or type-check.",
  "Growth per stage 1x → 10x → 50x as a ratio to input size — the per-stage figures are above, the ratios are not computed yet.",
];
async function step(name: string, f: () => Promise<Section>) {
  const t = performance.now();
  try {
    sections.push(await f());
  } catch (error) {
    notMeasured.push(`${name}: not measured — the bench step failed: ${(error as Error).message.split("\n")[0]}`);
  }
  console.error(`${name}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

let oursMs = NaN;
await step("generation", async () => {
  const g = await runGenerate();
  oursMs = g.merchantEmptyMs;
  return g.section;
});
await step("anchors", () => runAnchors(oursMs));
await step("type-check", runTypecheck);
await step("client runtime", runClient);
await step("bundle size", runBundle);
rmSync(scratch, { recursive: true, force: true });
console.log(writeReport(sections, notMeasured, performance.now() - started));
