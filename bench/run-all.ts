/**
 * `npm run bench`: every measurement in order, then docs/benchmarks.md. Never part of `npm test`.
 * Budget (issue 7): the whole run in under 10 minutes on this 2-core machine; each step's
 * duration is printed and written into the report, so the budget is visible.
 */
import { rmSync } from "node:fs";
import { runAnchors } from "./anchors.ts";
import { runBundle } from "./bundle.ts";
import { runClient } from "./client.ts";
import { runGenerate } from "./generate.ts";
import { runGitHub } from "./github.ts";
import { growthSection } from "./growth.ts";
import { runImportGrowth } from "./import-growth.ts";
import { runLiveDocuments } from "./live-documents.ts";
import { scratch } from "./proc.ts";
import { writeReport } from "./report.ts";
import { runRouter } from "./router.ts";
import { runStreams } from "./streams.ts";
import type { Section } from "./stats.ts";
import { runTypecheck } from "./typecheck.ts";
import { runWatch } from "./watch.ts";

const budgetS = 600;
const started = performance.now();
const sections: Section[] = [];
const notMeasured: string[] = [];
const steps: [string, number][] = [];
async function step(name: string, f: () => Promise<Section>) {
  const t = performance.now();
  try {
    sections.push(await f());
  } catch (error) {
    notMeasured.push(
      `${name}: not measured — the bench step failed: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  const s = (performance.now() - t) / 1000;
  steps.push([name, s]);
  console.error(
    `${name}: ${s.toFixed(1)} s (${((performance.now() - started) / 1000).toFixed(0)} s of the ${budgetS} s budget so far)`,
  );
}

let oursMs = NaN;
let generation: Section | undefined;
await step("generation", async () => {
  const g = await runGenerate();
  oursMs = g.merchantEmptyMs;
  generation = g.section;
  return g.section;
});
await step("growth per stage", async () => {
  if (!generation) throw new Error("no generation figures to compute it from");
  return growthSection(generation);
});
await step("anchors", () => runAnchors(oursMs));
await step("type-check", runTypecheck);
await step("watch", runWatch);
await step("client runtime", runClient);
await step("router runtime", runRouter);
await step("paging and streaming", runStreams);
await step("bundle size", runBundle);
await step("GitHub's full API", runGitHub);
await step("live route, corpus documents", runLiveDocuments);
await step("import growth", runImportGrowth);
rmSync(scratch, { recursive: true, force: true });
const totalS = (performance.now() - started) / 1000;
console.error(
  `whole run: ${totalS.toFixed(0)} s — ${totalS <= budgetS ? "within" : "OVER"} the ${budgetS} s budget`,
);
console.log(writeReport(sections, notMeasured, totalS * 1000, { budgetS, steps }));
