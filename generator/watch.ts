/**
 * `generate --watch`: regenerates whenever a spec file changes (debounced), prints the
 * diagnostics of a broken spec and keeps the last good output, and reports how long each
 * regeneration took.
 */
import { plain, type Colours } from "./diagnostics/colours.ts";
import { DiagnosticsError } from "./diagnostics/diagnostic.ts";
import { formatDiagnostics } from "./diagnostics/format.ts";
import { runPipeline, type PipelineOptions, type SpecTexts } from "./pipeline.ts";
import { writeSummary } from "./commands/messages.ts";
import { writeOutput } from "./write/writer.ts";
import { watchSpecFolders } from "./watch-folders.ts";
import { specSourceKind } from "./load/spec-source.ts";
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { readManifest } from "./write/manifest.ts";

export interface WatchReport {
  ok: boolean;
  /** One line (or the diagnostics) to print. */
  text: string;
}

/** The colours of what goes to standard output (a report that is `ok`) and to standard error. */
export interface ReportColours {
  out: Colours;
  err: Colours;
}

const noColours: ReportColours = { out: plain, err: plain };

/** One regeneration: writes when the spec is good, reports either way. */
export async function regenerate(
  options: PipelineOptions,
  outName: string,
  colours: ReportColours = noColours,
): Promise<WatchReport> {
  const started = performance.now();
  const sources: SpecTexts = { texts: new Map() };
  try {
    const result = await runPipeline(options, sources);
    const { plan } = result;
    if (plan.notOwned.length)
      return {
        ok: false,
        text: `${outName}/: ${plan.notOwned.join(", ")} not written by the generator; nothing written`,
      };
    const done = writeOutput(options.outDir, result.files, plan);
    const ms = (performance.now() - started).toFixed(0);
    const summary = writeSummary(
      outName,
      {
        added: done.added.length,
        changed: done.changed.length,
        unchanged: done.unchanged.length,
        removed: done.stale.length,
      },
      colours.out,
    );
    const warnings =
      result.warnings.length > 0
        ? `${formatDiagnostics(result.warnings, sources.texts, colours.out)}\n`
        : "";
    return { ok: true, text: `${warnings}${summary} in ${ms} ms` };
  } catch (error) {
    if (error instanceof DiagnosticsError) {
      return {
        ok: false,
        text: `${formatDiagnostics(error.diagnostics, sources.texts, colours.err)}\n${outName}/ keeps its last good output`,
      };
    }
    throw error;
  }
}

/**
 * The folders of an OpenAPI document to watch: its own, and the folder of each file its
 * `$ref`s read at the last good run (the output's manifest lists them); never every folder
 * below the document's, which may be a whole project's.
 */
function documentFolders(document: string, outDir: string): Map<string, Set<string> | undefined> {
  const folders = new Map<string, Set<string> | undefined>();
  let home: string;
  try {
    home = dirname(realpathSync(document));
  } catch {
    home = dirname(document);
  }
  folders.set(home, undefined);
  for (const name of readManifest(outDir)?.documentFiles ?? []) {
    const folder = dirname(join(home, name));
    try {
      folders.set(realpathSync(folder), undefined);
    } catch {
      // gone: the next run says so
    }
  }
  return folders;
}

/** Runs of the whole pipeline (writing nothing) that warm up a new watch. */
const warmUpRuns = 4;

/** Runs the pipeline without writing, a few times, yielding between runs and stopping as soon as `busy()`. */
async function warmUp(options: PipelineOptions, busy: () => boolean): Promise<void> {
  for (let i = 0; i < warmUpRuns; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (busy()) return;
    try {
      runPipeline(options);
    } catch {
      return; // a broken spec: the report of the real run said so
    }
  }
}

/**
 * Watches the spec folder and regenerates after each burst of changes, one run at a time.
 * Folders are watched, not files (watch-folders.ts), so a save that renames a new file over
 * the old one is seen, and so is every save after it. After each burst the folders are
 * listed again: a folder made or removed is watched or dropped, and regenerates the output.
 * The debounce only has to gather the events of one save (an editor's write and rename
 * arrive within a few milliseconds); every millisecond of it is added to each regeneration.
 * Parsed spec files are kept across runs, so an edit re-parses only the files it changed.
 * After the first generation the pipeline is run a few more times while nothing else is
 * waiting (`warmUp`): until V8 has optimized its code a regeneration takes twice as long, and
 * the first edits are the ones a user waits for.
 */
export function watchSpec(
  options: PipelineOptions,
  outName: string,
  report: (r: WatchReport) => void,
  debounceMs = 10,
  colours: ReportColours = noColours,
): { close: () => void } {
  options = { ...options, parsedFiles: options.parsedFiles ?? new Map() };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let pending = false;
  let edited = false;
  let closed = false;
  const run = async () => {
    if (running) {
      pending = true;
      return;
    }
    running = true;
    try {
      report(await regenerate(options, outName, colours));
    } catch (error) {
      report({ ok: false, text: `internal error: ${(error as Error).message}` });
    } finally {
      running = false;
      if (pending) {
        pending = false;
        void run();
      }
    }
  };
  /** Whether a spec file changed since the last run started. */
  let saved = false;
  const settled = () => {
    // a folder made or removed changes what the spec is even when no spec file event came
    const foldersChanged = folders.sync();
    if (!saved && !foldersChanged) return;
    saved = false;
    void run();
  };
  // an OpenAPI document: its folder and those below, where the files its $refs read are
  const document = specSourceKind(options.specDir) === "document";
  const folders = watchSpecFolders(
    document ? dirname(options.specDir) : options.specDir,
    (specFile) => {
      if (specFile) {
        saved = true;
        edited = true;
      }
      clearTimeout(timer);
      timer = setTimeout(settled, debounceMs);
    },
    document ? /\.(ya?ml|json)$/ : undefined,
    document ? () => documentFolders(options.specDir, options.outDir) : undefined,
  );
  void run().then(() => warmUp(options, () => edited || closed));
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      folders.close();
    },
  };
}
