/**
 * The spec loader and the generator under random damage to the spec (test/fuzz/spec-mutations.ts):
 * every run either generates or ends with diagnostics that each point at a file, line and
 * column inside the text (only folder-wide problems have none); nothing else is ever thrown,
 * no run hangs, memory stays bounded, and the output folder of a failed run is byte-identical.
 * Line ends never change the outcome: a folder whose files have CRLF, CR alone or mixed line
 * ends gives the same diagnostics, or the same files, as the same folder with LF line ends.
 * Nothing in the output is a character the spec did not hold (a lone surrogate escaped in
 * the YAML became U+FFFD). A few cases also go through the real command line, where the
 * same must show as exit 1 with no stack trace and no "internal error".
 */
import { createHash } from "node:crypto";
import { cpSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticsError, type Diagnostic } from "../../generator/diagnostics/diagnostic.ts";
import { formatDiagnostics } from "../../generator/diagnostics/format.ts";
import { runPipeline, type SpecTexts } from "../../generator/pipeline.ts";
import { manifestName } from "../../generator/write/manifest.ts";
import { writeOutput } from "../../generator/write/writer.ts";
import { repoRoot, runCli, tempDir } from "../helpers.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import {
  applyEdit,
  applyFolderMutation,
  specDamage,
  withLineEnds,
  type SpecDamage,
} from "./spec-mutations.ts";

/** Diagnostics about the folder as a whole, which have no line to point at. */
const folderWide = new Set(["no-spec-files", "spec-dir-missing", "api-missing"]);

/** The specs the damage is done to: the Merchant spec, and small ones that reach emission more often. */
const bases = [
  "spec",
  "test/fixtures/features/operations",
  "test/fixtures/features/objects",
  "test/fixtures/features/multi-file",
  "test/fixtures/features/unions",
];

let work: string;
/** Per base: a folder with its generated output, which a failed run must leave as it is. */
const outputs = new Map<string, string>();

/** Hash of every file below `dir`, by path. */
function folderHash(dir: string): string {
  const hash = createHash("sha256");
  for (const path of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
    hash.update(path);
    try {
      hash.update(readFileSync(join(dir, path)));
    } catch {
      hash.update("<folder>");
    }
  }
  return hash.digest("hex");
}

/** Spec files of a folder, relative to it. */
function specFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((p) => /\.ya?ml$/.test(p))
    .sort();
}

/** A damaged copy of `base` in a fresh folder. */
function damagedCopy(base: string, damage: SpecDamage, name: string): string {
  const spec = join(work, name);
  cpSync(join(repoRoot, base), spec, { recursive: true });
  const files = specFiles(spec);
  const file = join(spec, files[damage.file % files.length]!);
  let bytes: Uint8Array = readFileSync(file);
  for (const edit of damage.edits) bytes = applyEdit(bytes, edit);
  writeFileSync(file, bytes);
  const others = files.filter((_, i) => i !== damage.file % files.length);
  others.forEach((other, i) => {
    const ends = damage.otherLineEnds?.[i % damage.otherLineEnds.length];
    if (ends) writeFileSync(join(spec, other), withLineEnds(readFileSync(join(spec, other)), ends));
  });
  if (damage.folder) applyFolderMutation(spec, files, damage.folder, damage.file);
  return spec;
}

/**
 * Makes every line end of the folder's regular spec files LF, in place; returns whether any
 * file had another kind (CRLF, or CR alone).
 */
function plainLineEnds(spec: string): boolean {
  let changed = false;
  for (const name of specFiles(spec)) {
    const path = join(spec, name);
    if (!lstatSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    if (!bytes.includes(0x0d)) continue;
    writeFileSync(path, withLineEnds(bytes, ["\n"]));
    changed = true;
  }
  return changed;
}

/**
 * What one run of the pipeline came to: its diagnostics, or the files it made (but the
 * manifest, whose fingerprint of the inputs is of their bytes, line ends included).
 */
async function outcomeOf(
  spec: string,
  out: string,
  sources: SpecTexts = { texts: new Map() },
): Promise<{ diagnostics: Diagnostic[] } | { files: Map<string, string> }> {
  try {
    const result = await runPipeline({ specDir: spec, outDir: out }, sources);
    const made = result.files.filter((f) => f.path !== manifestName);
    return { files: new Map(made.map((f) => [f.path, f.contents])) };
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
    return { diagnostics: error.diagnostics };
  }
}

/** Each text's lines, split once: thousands of diagnostics on a 5 MB file split it thousands of times. */
const linesOf = (() => {
  const split = new Map<string, string[]>();
  return (text: string): string[] => {
    let lines = split.get(text);
    if (!lines) {
      split.clear(); // only the current case's texts are kept
      split.set(text, (lines = text.split(/\r?\n/)));
    }
    return lines;
  };
})();

/** Checks that a diagnostic points inside the text it names (or is about the whole folder). */
function expectLocated(d: Diagnostic, texts: ReadonlyMap<string, string>): void {
  if (d.location === undefined) {
    expect(folderWide.has(d.code), `${d.code} has no location: ${d.message}`).toBe(true);
    return;
  }
  const { file, line, col } = d.location;
  expect(line, `${d.code} at line ${line}`).toBeGreaterThanOrEqual(1);
  expect(col, `${d.code} at column ${col}`).toBeGreaterThanOrEqual(1);
  const text = texts.get(file);
  if (text === undefined) return; // a file that could not be read: reported at 1:1
  const lines = linesOf(text);
  expect(line, `${file}:${line}:${col} ${d.code} is past the end of the file`).toBeLessThanOrEqual(
    lines.length,
  );
  expect(col, `${file}:${line}:${col} ${d.code} is past the end of its line`).toBeLessThanOrEqual(
    lines[line - 1]!.length + 1,
  );
}

beforeAll(async () => {
  work = tempDir("apigen-fuzz-loader-");
  for (const base of bases) {
    const out = join(work, `out-${outputs.size}`);
    const result = await runPipeline({
      specDir: join(repoRoot, base),
      outDir: out,
    });
    writeOutput(out, result.files, result.plan);
    outputs.set(base, out);
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the loader and generator on damaged specs", () => {
  it(
    "generate or report every problem at its place; nothing else, and no write on failure",
    async () => {
      let n = 0;
      const outcomes = { generated: 0, diagnosed: 0, lineEndTwins: 0 };
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...bases), specDamage, async (base, damage) => {
          const spec = damagedCopy(base, damage, `case-${n++}`);
          const out = outputs.get(base)!;
          const before = folderHash(out);
          const sources: SpecTexts = { texts: new Map() };
          const started = performance.now();
          // what this case adds to the heap: the worker's own heap carries the other test
          // files' modules and their garbage (docs/test-suite.md, "No isolation between files")
          const heapBefore = process.memoryUsage().heapUsed;
          const outcome = await outcomeOf(spec, out, sources);
          const took = performance.now() - started;
          if ("files" in outcome) {
            outcomes.generated++;
            // a character the spec did not hold (a lone surrogate became U+FFFD) is no output
            if (![...sources.texts.values()].some((text) => text.includes("\uFFFD")))
              for (const [path, contents] of outcome.files)
                expect(contents.includes("\uFFFD"), `U+FFFD in ${path}`).toBe(false);
          } else {
            outcomes.diagnosed++;
            expect(outcome.diagnostics.length).toBeGreaterThan(0);
            for (const d of outcome.diagnostics) expectLocated(d, sources.texts);
            const printed = formatDiagnostics(outcome.diagnostics, sources.texts);
            expect(printed).not.toMatch(/^\s+at /m);
          }
          // the same folder with LF line ends comes to the same: the same files, or the same
          // diagnostics at the same lines and columns
          if (plainLineEnds(spec)) {
            outcomes.lineEndTwins++;
            expect(await outcomeOf(spec, out), "line ends changed the outcome").toEqual(outcome);
          }
          expect(took, "one run took too long").toBeLessThan(30_000);
          expect(process.memoryUsage().heapUsed - heapBefore, "heap").toBeLessThan(1024 ** 3);
          expect(folderHash(out), "the output folder changed").toBe(before);
          rmSync(spec, { recursive: true, force: true });
        }),
        fuzzParameters(150, 10_000),
      );
      if (longRun) console.log("loader fuzz outcomes", outcomes);
      // Both outcomes must be common, or the damage is too mild or too crude to test much.
      expect(outcomes.generated).toBeGreaterThan(0);
      expect(outcomes.diagnosed).toBeGreaterThan(0);
      expect(outcomes.lineEndTwins).toBeGreaterThan(0);
    },
    fuzzTimeout(120_000),
  );

  it(
    "exits 1 through the command line with located diagnostics, no stack trace, and the output untouched",
    async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(specDamage, async (damage) => {
          const spec = damagedCopy("spec", damage, `cli-${n++}`);
          const out = outputs.get("spec")!;
          const before = folderHash(out);
          const run = await runCli(["--spec", relative(repoRoot, spec), "--out", out, "--check"]);
          expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
          if (run.status !== 0) {
            expect(run.status).toBe(1);
            expect(run.stderr).toMatch(/^(\S+:\d+:\d+ - )?(error|warning) [a-z0-9-]+: /m);
          }
          expect(folderHash(out)).toBe(before);
          rmSync(spec, { recursive: true, force: true });
        }),
        fuzzParameters(3, 50),
      );
    },
    fuzzTimeout(60_000),
  );
});
