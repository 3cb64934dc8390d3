/**
 * The generator pipeline: load -> validate and resolve (IR) -> emit -> plan the write. Each
 * stage is timed. Emitters print final text; writing is left to the caller so `--check` can
 * share it all.
 */
import { DiagnosticBag, sortDiagnostics, type Diagnostic } from "./diagnostics/diagnostic.ts";
import { createEmitContext, type EmittedFile } from "./emit/context.ts";
import { emitters } from "./emit/emitters.ts";
import type { ApiModel } from "./ir/model.ts";
import type { ValidatorSet } from "./ir/validated.ts";
import { buildModel } from "./ir/build-ir.ts";
import { specLabel } from "./diagnostics/display-path.ts";
import { loadSpec, type ParsedSpecFiles } from "./load/load-spec.ts";
import { readSpecFolder, type SpecFolder } from "./load/spec-folder.ts";
import { inputsFingerprint } from "./write/inputs.ts";
import { encodedFile, withManifest } from "./write/manifest.ts";
import { isUsersFile, planOutput, type OutputFile, type OutputPlan } from "./write/writer.ts";

export interface PipelineOptions {
  specDir: string;
  outDir: string;
  /** Spec files parsed by this process's earlier runs (watch keeps them across runs). */
  parsedFiles?: ParsedSpecFiles;
  /**
   * Which types get a validator: `used` (the default; those the package checks) or `all`.
   * The test suite asks for `all` to check the stand-in's answers against the response types.
   */
  validators?: ValidatorSet;
}

export interface Timing {
  stage: string;
  ms: number;
}

export interface PipelineResult {
  model: ApiModel;
  files: OutputFile[];
  plan: OutputPlan;
  /** Files the package would have that the user keeps their own of (`yieldsToUser`): left as they are. */
  kept: string[];
  timings: Timing[];
  /** Problems that do not stop generation (a spec with errors throws instead), in file order. */
  warnings: Diagnostic[];
}

/** Source texts of the last load, for code frames, kept even when loading fails. */
export interface SpecTexts {
  texts: Map<string, string>;
}

/**
 * Load and IR, in a function of their own so that nothing holds the parsed spec files once
 * the model is built: on GitHub's API they are about 30 MB of the heap (live heap measured
 * between stages), which the emitters no longer need.
 */
function loadModel(
  options: PipelineOptions,
  folder: SpecFolder,
  bag: DiagnosticBag,
  sources: SpecTexts,
  time: <T>(stage: string, work: () => T) => T,
): ApiModel {
  const loaded = time("load + schema", () =>
    loadSpec(options.specDir, bag, options.parsedFiles, folder),
  );
  for (const [path, text] of loaded.texts) sources.texts.set(path, text);
  bag.throwIfErrors();
  const modelOptions = options.validators ? { validators: options.validators } : {};
  return time("resolve (IR)", () => buildModel(loaded.files, bag, modelOptions));
}

/**
 * `files` but those the user keeps their own of (`yieldsToUser` where the output folder has a
 * file the generator did not write), whose paths go to `kept`.
 */
function withoutUsersFiles(
  outDir: string,
  files: readonly EmittedFile[],
  kept: string[],
): EmittedFile[] {
  return files.filter((file) => {
    const theirs = file.yieldsToUser === true && isUsersFile(outDir, file.path);
    if (theirs) kept.push(file.path);
    return !theirs;
  });
}

/** Runs every stage but the write; throws DiagnosticsError on a broken spec. */
export function runPipeline(
  options: PipelineOptions,
  sources: SpecTexts = { texts: new Map() },
): PipelineResult {
  const timings: Timing[] = [];
  const time = <T>(stage: string, work: () => T): T => {
    const start = performance.now();
    const result = work();
    timings.push({ stage, ms: performance.now() - start });
    return result;
  };
  const bag = new DiagnosticBag();
  const label = specLabel(options.specDir);
  // The folder is read once: the fingerprint covers exactly the bytes that are parsed, so a
  // spec edited during the run is never recorded as generated.
  const folder = time("read spec", () => readSpecFolder(options.specDir));
  // An output made with other options is not the one the spec alone would give.
  const optionsLabel = options.validators === "all" ? `${label}\0validators=all` : label;
  const inputs = time("fingerprint", () =>
    inputsFingerprint(options.specDir, folder, optionsLabel),
  );
  const model = loadModel(options, folder, bag, sources, time);
  const ctx = createEmitContext(model, label);
  // Each file is encoded as soon as it is printed and only its bytes are kept, the text
  // left to the collector while the next emitter runs (manifest.ts, encodedFile).
  const kept: string[] = [];
  const emitted = emitters.flatMap((emitter) =>
    time(`emit ${emitter.name}`, () =>
      withoutUsersFiles(options.outDir, [emitter.emit(ctx)].flat(), kept).map((file) =>
        encodedFile(file.path, file.contents),
      ),
    ),
  );
  // A run with warnings records no fingerprint: skipping it later would hide them.
  const files = withManifest(emitted, bag.items.length === 0 ? inputs : undefined);
  const plan = time("compare", () => planOutput(options.outDir, files));
  return { model, files, plan, kept, timings, warnings: sortDiagnostics(bag.items) };
}
