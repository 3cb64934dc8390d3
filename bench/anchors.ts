/**
 * The same API through the anchors, in the same run: openapi-typescript (types only),
 * @hey-api/openapi-ts (SDK) and orval (fetch mode) on our own generated/openapi.json; their
 * cold-process generation time next to ours, as a ratio (ours / theirs).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDir, root, timed } from "./proc.ts";
import { fmt, repeat, stat, type Row, type Section } from "./stats.ts";

const input = join(root, "generated/openapi.json");
const bin = (name: string) => join(root, "node_modules/.bin", name);

export const anchorOut = {
  "openapi-typescript": () => join(freshDir("anchor-ot"), "schema.ts"),
  "hey-api": () => join(freshDir("anchor-hey"), "out"),
  orval: () => join(freshDir("anchor-orval"), "api.ts"),
};

/**
 * Writes orval's config beside `out` and gives its path. includeHttpResponseReturnType: false,
 * because with it on (the default) orval 7.13 types the document's `5XX` responses as
 * `status: 5XX`, which is not TypeScript (TS1351), so its output would not type-check; off,
 * each function returns the success body's type.
 */
export function orvalConfig(document: string, out: string): string {
  const config = join(out, "..", "orval.config.cjs");
  const output = {
    target: out,
    client: "fetch",
    mode: "single",
    override: { fetch: { includeHttpResponseReturnType: false } },
  };
  writeFileSync(
    config,
    `module.exports = { api: { input: ${JSON.stringify(document)}, output: ${JSON.stringify(output)} } };\n`,
  );
  return config;
}

export const anchors: Record<string, (out: string) => [string, string[]]> = {
  "openapi-typescript": (out) => [bin("openapi-typescript"), [input, "-o", out]],
  "hey-api": (out) => [bin("openapi-ts"), ["-i", input, "-o", out]],
  orval: (out) => [bin("orval"), ["--config", orvalConfig(input, out)]],
};

/** Each anchor's output from its last successful run here: bench/typecheck.ts checks it instead of generating it again. */
export const lastOutput = new Map<string, string>();

export async function runAnchors(oursMs: number): Promise<Section> {
  const rows: Row[] = [];
  const notes: string[] = [];
  let fastest = Infinity;
  for (const [name, cmd] of Object.entries(anchors)) {
    try {
      const { times, reduced } = repeat(() => {
        const out = anchorOut[name as keyof typeof anchorOut]();
        const [c, a] = cmd(out);
        const ms = timed(c, a).ms;
        lastOutput.set(name, out);
        return ms;
      });
      if (reduced) notes.push(`${name}: ${times.length} runs only (every run took over 10 s).`);
      const s = stat(times);
      fastest = Math.min(fastest, s.median);
      const ratio = oursMs / s.median;
      // Issue 12: at most half of openapi-typescript's and of hey-api's time on the same API.
      const judged = name === "openapi-typescript" || name === "hey-api";
      rows.push({
        label: `${name}, cold process`,
        value: `${fmt(s, "ms")}; ours / theirs = ${ratio.toFixed(2)}`,
        ...(judged
          ? {
              target: "ours / theirs ≤ 0.5",
              verdict: ratio <= 0.5 ? "met" : `missed (${ratio.toFixed(2)})`,
            }
          : {}),
      });
    } catch (error) {
      rows.push({
        label: `${name}, cold process`,
        value: "not measured: it fails in this run",
        verdict: "—",
      });
      const lines = (error as Error).message.split("\n");
      notes.push(
        `${name}: exits 1 with \`${(lines.find((l) => /^\w*Error: /.test(l)) ?? lines[0]!).slice(0, 200)}\``,
      );
    }
  }
  rows.push({
    label: "ours (Merchant, empty folder) vs fastest anchor",
    value: `${oursMs.toFixed(0)} ms vs ${fastest.toFixed(0)} ms`,
    target: "below the fastest anchor",
    verdict:
      oursMs < fastest
        ? "met"
        : `missed by ${(oursMs - fastest).toFixed(0)} ms (${((oursMs / fastest - 1) * 100).toFixed(0)}%)`,
  });
  notes.push(
    "orval: fetch client, single file, `override.fetch.includeHttpResponseReturnType: false` (with the default, orval 7.13 writes `status: 5XX` for the document's 5XX responses, which is not TypeScript). orval 7.13 is the newest that runs on Node 20. package.json's `overrides` gives orval's tree our ajv (8.17.1): otherwise spectral gets a nested ajv 8.20 while the hoisted ajv-errors it plugs into loads 8.17.1's code generator, and orval exits 1 with `SyntaxError: Unexpected token ':'`.",
  );
  return { title: "Anchors on generated/openapi.json (same run)", rows, notes };
}
