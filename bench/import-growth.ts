/**
 * The importer's time as its document grows (issue 30, item 6): synthetic OpenAPI documents
 * (bench/synth-openapi.ts) of about 5, 10, 25 and 50 MB, each imported by a cold process
 * (`apigen import`, as github.ts imports GitHub's), time per MB at each size and how that
 * figure grows from the smallest document to the largest (1.00: linear). Targets: the
 * issue's 50 MB in at most 20 s, and time per MB that does not grow with the document. A
 * run over 10 s is not repeated (issue 7's rule). `tsx bench/import-growth.ts` runs it alone.
 */
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDir, root, scratch, timed } from "./proc.ts";
import { atMost, fmt, repeat, stat, type Row, type Section, type Stat } from "./stats.ts";
import { syntheticOpenApi } from "./synth-openapi.ts";

const launch = join(root, "generator/launch.mjs");
const sizesMb = [5, 10, 25, 50];
const runs = Math.min(3, Number(process.env.BENCH_RUNS ?? 3));
/** Growth of time per MB, smallest to largest document, taken as still linear. */
const linearGrowth = 1.25;

interface Measured {
  mb: number;
  schemas: number;
  time: Stat;
  rssMb: number;
  reduced: boolean;
}

/** Writes a document of about `mb` MB; its size in MB and its schema count. */
function documentOf(mb: number, dir: string, bytesPerSchema: number) {
  const schemas = Math.round((mb * 1e6) / bytesPerSchema);
  const file = join(dir, `openapi-${mb}mb.json`);
  writeFileSync(file, syntheticOpenApi(schemas));
  return { file, schemas, mb: statSync(file).size / 1e6 };
}

function measure(mb: number, dir: string, bytesPerSchema: number): Measured {
  const doc = documentOf(mb, dir, bytesPerSchema);
  const rss: number[] = [];
  const { times, reduced } = repeat(
    () => {
      const out = join(freshDir(`import-growth-${mb}-out`), "spec");
      const r = timed(process.execPath, [launch, "import", doc.file, "--out-spec", out]);
      if (r.rssMb !== undefined) rss.push(r.rssMb);
      return r.ms;
    },
    runs,
    10_000,
    1,
  );
  return {
    mb: doc.mb,
    schemas: doc.schemas,
    time: stat(times),
    rssMb: rss.length ? Math.max(...rss) : NaN,
    reduced,
  };
}

export async function runImportGrowth(): Promise<Section> {
  const dir = freshDir("import-growth");
  // The first run after a source edit builds the generator (launch.mjs): not an import's time.
  timed(process.execPath, [launch, "--help"]);
  const bytesPerSchema = syntheticOpenApi(1000).length / 1000;
  const measured = sizesMb.map((mb) => measure(mb, dir, bytesPerSchema));
  // The documents and their spec folders are some 200 MB: not kept until the run ends.
  for (const mb of sizesMb) rmSync(join(scratch, `import-growth-${mb}-out`), { recursive: true });
  rmSync(dir, { recursive: true });
  const perMb = (m: Measured) => m.time.median / m.mb;
  const rows: Row[] = measured.map((m) => ({
    label: `import a ${m.mb.toFixed(1)} MB document (${m.schemas.toLocaleString("en")} schemas)`,
    value: `${fmt(m.time, "ms")}; ${perMb(m).toFixed(0)} ms per MB; peak ${m.rssMb.toFixed(0)} MB`,
  }));
  const largest = measured.at(-1)!;
  rows.push({
    label: `import the ${largest.mb.toFixed(0)} MB document`,
    value: `${(largest.time.median / 1000).toFixed(1)} s`,
    target: "at most 20 s",
    verdict: atMost(largest.time.median / 1000, 20, "s", 1),
  });
  const growth = perMb(largest) / perMb(measured[0]!);
  rows.push({
    label: `time per MB, ${measured[0]!.mb.toFixed(0)} MB -> ${largest.mb.toFixed(0)} MB`,
    value: `x${growth.toFixed(2)}`,
    target: `at most x${linearGrowth} (linear)`,
    verdict: atMost(growth, linearGrowth, "", 2),
  });
  const notes = [
    `Documents from bench/synth-openapi.ts (${bytesPerSchema.toFixed(0)} bytes of JSON a schema: objects of documented fields, $refs, arrays, maps, enums, an allOf every fifth, a path with two operations per four schemas), each imported by a cold process; up to ${runs} runs, one when a run takes over 10 s.`,
    "Before issue 30 the import grew with the square of the schema count (12,000 schemas: 32 s; 60,000: over 120 s): naming each schema listed every name given before it.",
  ];
  const reduced = measured.filter((m) => m.reduced).map((m) => `${m.mb.toFixed(0)} MB`);
  if (reduced.length) notes.push(`One run only (over 10 s): ${reduced.join(", ")}.`);
  return { title: "Import growth (synthetic OpenAPI documents, 5 to 50 MB)", rows, notes };
}

if (process.argv[1] === import.meta.filename) {
  const section = await runImportGrowth();
  for (const row of section.rows)
    console.log(
      `${row.label}: ${row.value}${row.verdict ? ` (${row.target}: ${row.verdict})` : ""}`,
    );
}
