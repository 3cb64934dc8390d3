/**
 * The generator pipeline: load -> validate and resolve (IR) -> emit -> plan the write. Each
 * stage is timed. Emitters print final text; writing is left to the caller so `--check` can
 * share it all.
 */
import { dirname, relative, resolve, sep } from "node:path";
import { DiagnosticBag, sortDiagnostics, type Diagnostic } from "./diagnostics/diagnostic.ts";
import { createEmitContext, type EmittedFile } from "./emit/context.ts";
import { emittersFor } from "./emit/emitters.ts";
import { outputDefaults, outputsLabel, type OutputSwitches } from "./emit/shared/outputs.ts";
import type { ApiModel } from "./ir/model.ts";
import type { ValidatorSet } from "./ir/validated.ts";
import { buildModel } from "./ir/build-ir.ts";
import { specLabel } from "./diagnostics/display-path.ts";
import { loadSpec, type ParsedSpecFiles } from "./load/load-spec.ts";
import { readSpecFolder, type SpecFolder } from "./load/spec-folder.ts";
import { documentFingerprint, inputsFingerprint } from "./write/inputs.ts";
import { checkDocumentSpec, importDocumentSpec } from "./import/live.ts";
import { reachOf, specSourceKind, type RefMap } from "./load/spec-source.ts";
import { encodedFile, withManifest } from "./write/manifest.ts";
import { isUsersFile, planOutput, type OutputFile, type OutputPlan } from "./write/writer.ts";

export interface PipelineOptions {
  /** The spec folder, or an OpenAPI document (a file, or a URL fetched before the run). */
  specDir: string;
  /** For a document: a wider folder than its own its `$ref`s may reach. */
  refRoot?: string;
  /** For a document: local copies of what its remote `$ref`s name, by URL prefix (the config's `refMap`). */
  refMap?: RefMap;
  /** For a document: OpenAPI Overlay 1.0 files applied to it in order before it is read (the config's `overlays`). */
  overlays?: readonly string[];
  outDir: string;
  /** Spec files parsed by this process's earlier runs (watch keeps them across runs). */
  parsedFiles?: ParsedSpecFiles;
  /**
   * Which types get a validator: `used` (the default; those the package checks) or `all`.
   * The test suite asks for `all` to check the stand-in's answers against the response types.
   */
  validators?: ValidatorSet;
  /** The outputs on and off (default: outputDefaults, every output of a package). */
  outputs?: OutputSwitches;
  /** Told as each stage begins, for a progress line (commands/progress.ts). */
  onStage?: StageListener;
}

/**
 * A stage begins: `step` of `steps`; `large` once the spec is known to be large (a megabyte
 * of YAML, or a thousand operations), when a progress line is worth showing from the start.
 */
export type StageListener = (stage: string, step: number, steps: number, large: boolean) => void;

/** A spec this large takes long enough to show progress from the start. */
const largeSpecBytes = 1 << 20;
const largeSpecOperations = 1000;

/**
 * What the fingerprint knows of the run besides the spec and the generator: the spec's label
 * in banners, and the options that change the output (validators for every type, outputs
 * switched from their defaults). The up-to-date shortcut uses the same, so a run with other
 * options is never taken for current.
 */
export function runLabel(
  specName: string,
  options: Pick<PipelineOptions, "validators" | "outputs" | "overlays"> & { specDir?: string },
): string {
  const outputs = outputsLabel(options.outputs ?? outputDefaults);
  // the overlays applied, named from the document's folder (the same on every clone)
  const from = options.specDir !== undefined ? dirname(resolve(options.specDir)) : ".";
  const overlays = (options.overlays ?? []).map((file) =>
    relative(from, file).split(sep).join("/"),
  );
  return [
    specName,
    ...(options.validators === "all" ? ["validators=all"] : []),
    ...(outputs ? [`outputs=${outputs}`] : []),
    ...(overlays.length ? [`overlays=${overlays.join(",")}`] : []),
  ].join("\0");
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

/** What the spec's front end gives the rest of the pipeline. */
interface LoadedSpec {
  model: ApiModel;
  /** The fingerprint of the inputs; undefined when one could not be read. */
  inputs: string | undefined;
  /** For a document: the files read, recorded in the manifest for the up-to-date check. */
  documentFiles?: string[];
}

/** The spec folder's front end: read (once), fingerprint, load, resolve. */
function loadFolder(
  options: PipelineOptions,
  bag: DiagnosticBag,
  sources: SpecTexts,
  time: <T>(stage: string, work: () => T) => T,
  label: string,
): LoadedSpec & { bytes: number } {
  // The folder is read once: the fingerprint covers exactly the bytes that are parsed, so a
  // spec edited during the run is never recorded as generated.
  const folder = time("read spec", () => readSpecFolder(options.specDir));
  const bytes = folder.sources.reduce((sum, source) => sum + source.bytes.length, 0);
  // An output made with other options is not the one the spec alone would give.
  const inputs = time("fingerprint", () =>
    inputsFingerprint(options.specDir, folder, runLabel(label, options)),
  );
  return { model: loadModel(options, folder, bag, sources, time), inputs, bytes };
}

/**
 * The OpenAPI document's front end (the live route): the importer makes the spec's data in
 * memory, fingerprinted by the files it read; the loader's checks and the IR build follow,
 * as for a folder. Nothing is written but the package.
 */
function loadDocument(
  options: PipelineOptions,
  bag: DiagnosticBag,
  sources: SpecTexts,
  time: <T>(stage: string, work: () => T) => T,
  label: string,
): LoadedSpec {
  const imported = time("import", () =>
    importDocumentSpec({
      spec: options.specDir,
      texts: sources.texts,
      ...reachOf(options),
      ...(options.overlays?.length ? { overlays: options.overlays } : {}),
    }),
  );
  const filesRead = imported.ctx.doc.filesRead();
  const inputs = time("fingerprint", () =>
    documentFingerprint(filesRead, runLabel(label, options)),
  );
  const { files } = time("load + schema", () => checkDocumentSpec(imported, bag));
  bag.throwIfErrors();
  const modelOptions = options.validators ? { validators: options.validators } : {};
  const model = time("resolve (IR)", () => buildModel(files, bag, modelOptions));
  return { model, inputs, documentFiles: [...filesRead.keys()].sort() };
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

/** The options of loading a model alone: a pipeline's, less what only the package's files use. */
export type ModelOptions = Pick<
  PipelineOptions,
  "specDir" | "refRoot" | "refMap" | "overlays" | "validators"
>;

/**
 * The model of a spec folder or an OpenAPI document (overlays applied), with the warnings of
 * loading it, and no emitter run: what `mock` and `trigger` serve, which need no package.
 * Throws DiagnosticsError on a broken spec, as runPipeline does.
 */
export function loadApiModel(
  options: ModelOptions,
  sources: SpecTexts = { texts: new Map() },
): { model: ApiModel; warnings: Diagnostic[] } {
  const bag = new DiagnosticBag();
  const untimed = <T>(_stage: string, work: () => T): T => work();
  // nothing is written or compared: the output folder is only a name the loaders never read
  const pipeline = { ...options, outDir: "" };
  const { model } = loadSource(pipeline, bag, sources, untimed, specLabel(options.specDir));
  return { model, warnings: sortDiagnostics(bag.items) };
}

/** The front end the spec's source asks for: a spec folder's (with its size), or a document's. */
function loadSource(
  options: PipelineOptions,
  bag: DiagnosticBag,
  sources: SpecTexts,
  time: <T>(stage: string, work: () => T) => T,
  label: string,
): LoadedSpec & { bytes?: number } {
  return specSourceKind(options.specDir) === "folder"
    ? loadFolder(options, bag, sources, time, label)
    : loadDocument(options, bag, sources, time, label);
}

/** Runs every stage but the write; throws DiagnosticsError on a broken spec. */
export function runPipeline(
  options: PipelineOptions,
  sources: SpecTexts = { texts: new Map() },
): PipelineResult {
  const timings: Timing[] = [];
  const outputs = options.outputs ?? outputDefaults;
  const selected = emittersFor(outputs);
  // read, fingerprint, load, resolve, each emitter, compare
  const steps = 5 + selected.length;
  let large = false;
  const time = <T>(stage: string, work: () => T): T => {
    options.onStage?.(stage, timings.length + 1, steps, large);
    const start = performance.now();
    const result = work();
    timings.push({ stage, ms: performance.now() - start });
    return result;
  };
  const bag = new DiagnosticBag();
  const label = specLabel(options.specDir);
  const loaded = loadSource(options, bag, sources, time, label);
  large = (loaded.bytes ?? 0) >= largeSpecBytes;
  const { model, inputs } = loaded;
  large ||= model.endpoints.length + model.callbacks.length >= largeSpecOperations;
  const ctx = createEmitContext(model, label, outputs);
  // Each file is encoded as soon as it is printed and only its bytes are kept, the text
  // left to the collector while the next emitter runs (manifest.ts, encodedFile).
  const kept: string[] = [];
  const emitted = selected.flatMap((emitter) =>
    time(`emit ${emitter.name}`, () =>
      withoutUsersFiles(options.outDir, [emitter.emit(ctx)].flat(), kept).map((file) =>
        encodedFile(file.path, file.contents),
      ),
    ),
  );
  // A run with warnings records no fingerprint: skipping it later would hide them.
  const files = withManifest(
    emitted,
    bag.items.length === 0 ? inputs : undefined,
    loaded.documentFiles,
  );
  const plan = time("compare", () => planOutput(options.outDir, files));
  return { model, files, plan, kept, timings, warnings: sortDiagnostics(bag.items) };
}
