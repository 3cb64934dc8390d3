/**
 * The same API through the anchors, in the same run: openapi-typescript (types only),
 * @hey-api/openapi-ts (SDK) and orval (fetch mode) on our own generated/openapi.json; their
 * cold-process generation time next to ours, as a ratio (ours / theirs).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDir, root, timed } from "./proc.ts";
import { fmt, stat, type Row, type Section } from "./stats.ts";

const input = join(root, "generated/openapi.json");
const bin = (name: string) => join(root, "node_modules/.bin", name);

export const anchorOut = {
  "openapi-typescript": () => join(freshDir("anchor-ot"), "schema.ts"),
  "hey-api": () => join(freshDir("anchor-hey"), "out"),
  orval: () => join(freshDir("anchor-orval"), "api.ts"),
};

export const anchors: Record<string, (out: string) => [string, string[]]> = {
  "openapi-typescript": (out) => [bin("openapi-typescript"), [input, "-o", out]],
  "hey-api": (out) => [bin("openapi-ts"), ["-i", input, "-o", out]],
  orval: (out) => {
    const config = join(out, "..", "orval.config.cjs");
    writeFileSync(config, `module.exports = { api: { input: ${JSON.stringify(input)}, output: { target: ${JSON.stringify(out)}, client: "fetch", mode: "single" } } };\n`);
    return [bin("orval"), ["--config", config]];
  },
};

export async function runAnchors(oursMs: number): Promise<Section> {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const rows: Row[] = [];
  const notes: string[] = [];
  let fastest = Infinity;
  for (const [name, cmd] of Object.entries(anchors)) {
    try {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const out = anchorOut[name as keyof typeof anchorOut]();
        const [c, a] = cmd(out);
        times.push(timed(c, a).ms);
      }
      const s = stat(times);
      fastest = Math.min(fastest, s.median);
      rows.push({ label: `${name}, cold process`, value: `${fmt(s, "ms")}; ours / theirs = ${(oursMs / s.median).toFixed(2)}` });
    } catch (error) {
      rows.push({ label: `${name}, cold process`, value: "not measured: it fails in this run", verdict: "—" });
      const lines = (error as Error).message.split("\n");
      notes.push(`${name}: exits 1 with \`${(lines.find((l) => /^\w*Error: /.test(l)) ?? lines[0]!).slice(0, 200)}\``);
    }
  }
  rows.push({
    label: "ours (Merchant, empty folder) vs fastest anchor",
    value: `${oursMs.toFixed(0)} ms vs ${fastest.toFixed(0)} ms`,
    target: "below the fastest anchor",
    verdict: oursMs < fastest ? "met" : `missed by ${(oursMs - fastest).toFixed(0)} ms (${((oursMs / fastest - 1) * 100).toFixed(0)}%)`,
  });
  return { title: "Anchors on generated/openapi.json (same run)", rows, notes };
}
