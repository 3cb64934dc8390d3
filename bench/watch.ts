/**
 * Watch: time from a spec edit to the rewritten files in `generate --watch`.
 *
 * Starts the generator in `--watch` (the command line of `npm run generate`) on a copy of
 * spec/ in a scratch folder, with its own scratch output folder, and waits for the first
 * generation. Then, round by round, a one-field edit: a field added to one type, and in the
 * next round removed again. Each round is timed from just before the spec file is written to
 * the arrival of the watch command's report line (`<out>/: N added, M changed, K unchanged in
 * X ms`). That line is printed after every file is written (renamed into place), and stdout
 * to a pipe is synchronous on Linux, so its arrival is the moment the rewritten files are on
 * disk, give or take the pipe's transit. Each round then checks that the output really has
 * (or no longer has) the field. The report's own "in X ms" (the regeneration, without the
 * file-system event and the debounce) is given next to it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshDir, root } from "./proc.ts";
import { atMost, fmt, stat, type Row, type Section } from "./stats.ts";

const rounds = Number(process.env.BENCH_WATCH_ROUNDS ?? 6); // even: as many additions as removals
const targetMs = 100;
const typeFile = "types/authorize.yaml";
const anchorLine = "      total_weight_unit: { type: string, description: Unit name. }\n";
const addedLine = "      bench_watch_note: string\n";
const reportLine =
  /^\S+\/: (\d+) added, (\d+) changed, (\d+) unchanged(?:, \d+ removed)? in (\d+) ms$/;

/** The command line of `npm run generate`, so the bench follows whatever the lead makes it (tsx or a launcher). */
function generateCommand(): string[] {
  const script: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts
    .generate;
  const [tool, ...rest] = script.split(/\s+/);
  if (tool === "tsx") return [process.execPath, "--import", "tsx", ...rest];
  if (tool === "node") return [process.execPath, ...rest];
  throw new Error(`bench/watch.ts does not know how to run the generate script "${script}"`);
}

/** Reads the child's stdout line by line; `next(ms)` resolves with the next report line and when it arrived. */
function lines(child: ChildProcess) {
  const queue: { line: string; at: number }[] = [];
  let waiting: ((l: { line: string; at: number }) => void) | undefined;
  let buffer = "";
  let errors = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const at = performance.now(); // stamp first: the lines of this chunk arrived now
    buffer += chunk;
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) {
      if (!reportLine.test(line)) continue;
      if (waiting) (waiting({ line, at }), (waiting = undefined));
      else queue.push({ line, at });
    }
  });
  let failed: ((e: Error) => void) | undefined;
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk;
    // diagnostics or an internal error: no report line will come for this edit, so stop now
    failed?.(new Error(`--watch printed on stderr: ${errors.slice(-2000)}`));
  });
  return {
    next: (timeoutMs: number) =>
      new Promise<{ line: string; at: number }>((resolve, reject) => {
        const queued = queue.shift();
        if (queued) return resolve(queued);
        if (errors.trim())
          return reject(new Error(`--watch printed on stderr: ${errors.slice(-2000)}`));
        const settle = () => (clearTimeout(timer), (waiting = failed = undefined));
        const timer = setTimeout(
          () => (
            settle(),
            reject(
              new Error(
                `no report from --watch in ${timeoutMs} ms; stderr: ${errors.slice(-2000)}`,
              ),
            )
          ),
          timeoutMs,
        );
        waiting = (l) => (settle(), resolve(l));
        failed = (e) => (settle(), reject(e));
      }),
    errors: () => errors,
  };
}

export async function runWatch(): Promise<Section> {
  const spec = freshDir("watch-spec");
  const out = freshDir("watch-out");
  cpSync(join(root, "spec"), spec, { recursive: true });
  const original = readFileSync(join(spec, typeFile), "utf8");
  if (!original.includes(anchorLine))
    throw new Error(`${typeFile} no longer has the line the edit goes after: ${anchorLine.trim()}`);
  const edited = original.replace(anchorLine, anchorLine + addedLine);
  const [cmd, ...args] = generateCommand();
  const child = spawn(cmd!, [...args, "--spec", spec, "--out", out, "--watch"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const read = lines(child);
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) =>
      reject(new Error(`--watch exited (${code}): ${read.errors().slice(-2000)}`)),
    ),
  );
  exited.catch(() => undefined); // it also exits when we stop it at the end: not an error then
  const wait = (ms: number) => Promise.race([read.next(ms), exited]);
  try {
    const first = await wait(300_000); // the first generation, into an empty folder (the banner names the spec folder, so a copy of generated/ would be rewritten anyway)
    const endToEnd: number[] = [];
    const own: number[] = [];
    const changed: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await new Promise((r) => setTimeout(r, 300)); // let the previous round's file events settle
      const add = i % 2 === 0;
      const start = performance.now();
      writeFileSync(join(spec, typeFile), add ? edited : original);
      const { line, at } = await wait(60_000);
      endToEnd.push(at - start);
      const m = reportLine.exec(line)!;
      changed.push(Number(m[2]));
      own.push(Number(m[4]));
      const types = readFileSync(join(out, "src/types.ts"), "utf8");
      if (types.includes("bench_watch_note") !== add)
        throw new Error(
          `round ${i + 1}: src/types.ts ${add ? "lacks" : "still has"} the field after "${line}"`,
        );
    }
    const e = stat(endToEnd);
    const rows: Row[] = [
      {
        label: "one-field spec edit → rewritten files on disk",
        value: fmt(e, "ms"),
        target: `≤ ${targetMs} ms`,
        verdict: atMost(e.median, targetMs, "ms"),
      },
      {
        label: 'of which the regeneration itself (the report\'s "in X ms")',
        value: fmt(stat(own), "ms"),
      },
      { label: "files rewritten per edit", value: fmt(stat(changed), "files") },
    ];
    const notes = [
      `\`${[cmd === process.execPath ? "node" : cmd, ...args].join(" ")} --spec <copy of spec/> --out <scratch> --watch\`; first generation (empty folder) reported: "${first.line}". Then ${rounds} rounds, alternately adding \`bench_watch_note: string\` to Shipment (${typeFile}) and removing it, 300 ms apart; each round checks src/types.ts has (or no longer has) the field.`,
      "Timed from just before the spec file is written to the arrival of the watch report line, which the command prints after every file is renamed into place (stdout to a pipe is synchronous on Linux). It includes the file-system event and the watch debounce; the second row is the regeneration alone.",
      "Why a miss, where there is one: see the per-stage timings of the one-field edit in the generation section; watch keeps the parsed spec files, so an edit re-parses one file and emits every file again from the IR.",
    ];
    return { title: "Watch: spec edit to rewritten files", rows, notes };
  } finally {
    // the watch command should stop on SIGTERM; if it does not within 5 s, it is killed
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const hard = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await gone;
      clearTimeout(hard);
    }
  }
}

if (process.argv[1] === import.meta.filename)
  console.log(JSON.stringify(await runWatch(), null, 1));
