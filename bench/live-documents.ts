/**
 * The live route (issue 31) on corpus documents of other styles than GitHub's (github.ts
 * measures that one): `generate --spec <document>` from the document into an empty folder,
 * against openapi-typescript on the same document, the two interleaved run by run so that the
 * machine's load falls on both alike. Stripe's is the large form-encoded API without tags the
 * issue names; DigitalOcean's is a multi-file YAML document (659 operations, each a `$ref`
 * into another file). `tsx bench/live-documents.ts` runs it alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { freshDir, root, timed, type ProcResult } from "./proc.ts";
import { fmt, stat, type Row, type Section, type Stat } from "./stats.ts";

const launch = join(root, "generator/launch.mjs");
const openapiTypescript = join(root, "node_modules/.bin/openapi-typescript");
const runs = Math.min(5, Number(process.env.BENCH_RUNS ?? 3));
const corpus = join(root, "test/fixtures/corpus");

interface LiveDocument {
  label: string;
  /** Unpacks the corpus file into `dir`; the document's entry file. */
  unpack: (dir: string) => string;
}

const documents: LiveDocument[] = [
  {
    label: "Stripe (452 operations, form-encoded bodies, no tags; one 2.5 MB JSON file)",
    unpack: (dir) => {
      const file = join(dir, "openapi.json");
      writeFileSync(file, gunzipSync(readFileSync(join(corpus, "stripe/openapi.json.gz"))));
      return file;
    },
  },
  {
    label: "DigitalOcean (659 operations; 2,907 YAML files reached by $ref)",
    unpack: (dir) => {
      const packed = gunzipSync(readFileSync(join(corpus, "digitalocean/files.json.gz")));
      const { entry, files } = JSON.parse(packed.toString("utf8")) as {
        entry: string;
        files: Record<string, string>;
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      return join(dir, entry);
    },
  },
];

function measure(doc: LiveDocument, index: number): Row[] {
  const document = doc.unpack(freshDir(`live-doc-${index}`));
  const ours: ProcResult[] = [];
  const theirs: ProcResult[] = [];
  for (let run = 0; run < runs; run++) {
    const out = freshDir(`live-doc-${index}-ours`);
    ours.push(timed(process.execPath, [launch, "--spec", document, "--out", out]));
    const ts = join(freshDir(`live-doc-${index}-ot`), "schema.ts");
    theirs.push(timed(openapiTypescript, [document, "-o", ts]));
  }
  const wall = [stat(ours.map((r) => r.ms)), stat(theirs.map((r) => r.ms))] as const;
  const rows: Row[] = [
    { label: `${doc.label}: ours, generate --spec (live route), wall`, value: fmt(wall[0], "ms") },
    { label: `${doc.label}: openapi-typescript, wall`, value: fmt(wall[1], "ms") },
    ratioRow(`${doc.label}: live route vs openapi-typescript, wall`, wall[0], wall[1]),
  ];
  const cpu = (results: ProcResult[]) => results.map((r) => r.cpuMs ?? NaN);
  if (ours.every((r) => r.cpuMs !== undefined)) {
    const time = [stat(cpu(ours)), stat(cpu(theirs))] as const;
    rows.push(
      { label: `${doc.label}: ours, CPU (user + system)`, value: fmt(time[0], "ms") },
      { label: `${doc.label}: openapi-typescript, CPU (user + system)`, value: fmt(time[1], "ms") },
      ratioRow(`${doc.label}: live route vs openapi-typescript, CPU`, time[0], time[1]),
    );
  }
  return rows;
}

function ratioRow(label: string, ours: Stat, theirs: Stat): Row {
  const ratio = ours.median / theirs.median;
  return {
    label,
    value: `ours / theirs = ${ratio.toFixed(2)}`,
    target: "at most 0.6 (issue 31)",
    verdict: ratio <= 0.6 ? "met" : `missed (${ratio.toFixed(2)})`,
  };
}

export async function runLiveDocuments(): Promise<Section> {
  // The first run after a source edit builds the generator (launch.mjs): not a run's time.
  timed(process.execPath, [launch, "--help"]);
  const rows = documents.flatMap((doc, i) => measure(doc, i));
  const notes = [
    `Each document unpacked from test/fixtures/corpus/; ours and openapi-typescript interleaved, ${runs} runs each, cold processes, into an empty folder. Wall time and CPU time (user + system, from /usr/bin/time): on a machine shared with other work the CPU ratio is the steadier one.`,
  ];
  return { title: "Live route on corpus documents (Stripe, DigitalOcean; same run)", rows, notes };
}

if (process.argv[1] === import.meta.filename) {
  const section = await runLiveDocuments();
  for (const row of section.rows)
    console.log(
      `${row.label}: ${row.value}${row.verdict ? ` (${row.target}: ${row.verdict})` : ""}`,
    );
}
