/**
 * The importer on random and hostile OpenAPI documents (test/fuzz/openapi-documents.ts): every
 * run either imports or ends with diagnostics that each point at a line and column inside a
 * file it read; nothing else is ever thrown (no `internal error`, no stack overflow), each run
 * ends within a bound (no read of a device or a FIFO that never ends), and nothing outside the
 * folder `$ref`s may reach is read: a canary file beside that folder, which many `$ref`s name
 * in many spellings, never shows in what the import gives or says, nor does the absolute path
 * of the folder, unless the document itself spells it. A few cases go through the command
 * line, where the same must show as exit 0 or 1 with no stack trace and no `internal error`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DiagnosticsError, type Diagnostic } from "../../generator/diagnostics/diagnostic.ts";
import { formatDiagnostics } from "../../generator/diagnostics/format.ts";
import { importSpec } from "../../generator/import/import.ts";
import { repoRoot, runCli, tempDir } from "../helpers.ts";
import { documentCase, type DocumentCase } from "./openapi-documents.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const canaryText = `CANARY-${process.pid}-never-outside`;

let work: string;
/** `work/root/api`: the document's folder. `work/root`: the wider reach of `widen` cases. */
let api: string;
let root: string;
let canary: string;

beforeAll(() => {
  work = tempDir("apigen-fuzz-import-");
  root = join(work, "root");
  api = join(root, "api");
  mkdirSync(join(work, "outside"), { recursive: true });
  canary = join(work, "outside", "canary.yaml");
  writeFileSync(
    canary,
    `Thing:\n  type: object\n  description: ${canaryText}\n  properties:\n    ${canaryText}: { type: string }\nA: { type: string, example: ${canaryText} }\n`,
  );
  mkdirSync(join(root, "sibling"), { recursive: true });
  writeFileSync(join(root, "sibling", "sibling.yaml"), "Shared: { type: string }\n");
  mkdirSync(join(api, "folder"), { recursive: true });
  mkdirSync(join(api, "sub"), { recursive: true });
  writeFileSync(
    join(api, "side.yaml"),
    "Side:\n  type: object\n  properties:\n    back: { $ref: 'side.yaml#/Nested' }\nNested:\n  inner: { type: integer }\n",
  );
  writeFileSync(join(api, "huge.yaml"), "");
  truncateSync(join(api, "huge.yaml"), 64 * 1024 * 1024 + 1);
  if (process.platform !== "win32") {
    expect(spawnSync("mkfifo", [join(api, "fifo.yaml")]).status).toBe(0);
    symlinkSync(canary, join(api, "link-out.yaml"));
    symlinkSync("/dev/zero", join(api, "link-dev.yaml"));
    symlinkSync(join(api, "link-loop.yaml"), join(api, "link-loop.yaml"));
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Writes a case's files into the document's folder; the document's path. */
function writeCase(c: DocumentCase): string {
  rmSync(join(api, "doc.yaml"), { force: true });
  rmSync(join(api, "doc.json"), { force: true });
  writeFileSync(join(api, c.name), c.text);
  writeFileSync(join(api, "case.yaml"), c.side);
  return join(api, c.name);
}

/** Checks that a diagnostic points at a line and column inside a file the importer read. */
function expectLocated(d: Diagnostic, texts: ReadonlyMap<string, string>): void {
  expect(d.location, `${d.code} has no location: ${d.message}`).toBeDefined();
  const { file, line, col } = d.location!;
  const text = texts.get(file);
  expect(text, `${d.code} names ${file}, which the importer did not read`).toBeDefined();
  const lines = text!.split("\n");
  expect(line, `${d.code} at line ${line}`).toBeGreaterThanOrEqual(1);
  expect(col, `${d.code} at column ${col}`).toBeGreaterThanOrEqual(1);
  expect(line, `${file}:${line}:${col} ${d.code} is past the end`).toBeLessThanOrEqual(
    lines.length,
  );
  expect(col, `${file}:${line}:${col} ${d.code} is past its line`).toBeLessThanOrEqual(
    lines[line - 1]!.length + 1,
  );
}

/** What the canary and the folder's absolute path must not show in. */
function expectNothingFromOutside(shown: string, c: DocumentCase): void {
  expect(shown.includes(canaryText), "the canary's content got out").toBe(false);
  if (!c.text.includes(work) && !c.side.includes(work))
    expect(shown.includes(work), "an absolute path is shown").toBe(false);
}

describe("the importer on random and hostile documents", () => {
  it(
    "imports or reports each problem at its place; never throws anything else, hangs or reads outside",
    () => {
      const outcomes = { imported: 0, diagnosed: 0 };
      const codes = new Map<string, number>();
      fc.assert(
        fc.property(documentCase(canary), (c) => {
          const input = writeCase(c);
          const texts = new Map<string, string>();
          const started = performance.now();
          // what this case adds to the heap: the worker's own heap carries the other test
          // files' modules and their garbage (docs/test-suite.md, "No isolation between files")
          const heapBefore = process.memoryUsage().heapUsed;
          let shown: string;
          try {
            const result = importSpec({
              input,
              outSpec: join(work, "out"),
              schemaFile,
              texts,
              ...(c.widen ? { refRoot: root } : {}),
            });
            outcomes.imported++;
            for (const file of result.files) expect(() => parse(file.text)).not.toThrow();
            shown = result.files.map((f) => `${f.path}\n${f.text}`).join("\n");
          } catch (error) {
            if (!(error instanceof DiagnosticsError)) throw error;
            outcomes.diagnosed++;
            expect(error.diagnostics.length).toBeGreaterThan(0);
            for (const d of error.diagnostics) {
              codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
              expectLocated(d, texts);
            }
            const printed = formatDiagnostics(error.diagnostics, texts);
            expect(printed).not.toMatch(/^\s+at /m);
            expect(printed.includes(canaryText), "the canary's content got out").toBe(false);
            // Locations are shown relative to the working folder; messages name no path but
            // relative to the document's folder.
            shown = error.diagnostics.map((d) => d.message).join("\n");
          }
          expectNothingFromOutside(shown, c);
          expect(performance.now() - started, "one import took too long").toBeLessThan(15_000);
          expect(process.memoryUsage().heapUsed - heapBefore, "heap").toBeLessThan(1024 ** 3);
        }),
        fuzzParameters(60, 10_000),
      );
      if (longRun) console.log("importer fuzz outcomes", outcomes, Object.fromEntries(codes));
      expect(outcomes.imported).toBeGreaterThan(0);
      expect(outcomes.diagnosed).toBeGreaterThan(0);
      // The hostile references must be met, not only generated.
      expect(codes.get("import-ref-outside")).toBeGreaterThan(0);
      expect(codes.get("import-ref-malformed")).toBeGreaterThan(0);
    },
    fuzzTimeout(120_000),
  );

  it(
    "exits 0 or 1 through the command line, with no stack trace, internal error or canary",
    async () => {
      await fc.assert(
        fc.asyncProperty(documentCase(canary), async (c) => {
          // A tag or operationId of 2,000 characters makes a file name the file system refuses
          // (ENAMETOOLONG, an internal error of the writer); file names are issue 30's item 7,
          // not this surface: the in-process property above still takes every name.
          fc.pre(!c.text.includes("x".repeat(250)));
          const input = writeCase(c);
          const out = join(work, "cli-out");
          rmSync(out, { recursive: true, force: true });
          // Run from the document's folder, so any path shown relative to it can be told apart.
          const run = await runCli(["import", basename(input), "--out-spec", out], api);
          expect([0, 1]).toContain(run.status);
          expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
          if (run.status === 1) expect(run.stderr).toMatch(/^\S+:\d+:\d+ - error [a-z0-9-]+: /m);
          expectNothingFromOutside(run.stdout + run.stderr, c);
        }),
        fuzzParameters(3, 100),
      );
    },
    fuzzTimeout(60_000),
  );
});
