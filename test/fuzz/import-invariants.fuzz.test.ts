/**
 * Issue 31's invariants as a property over random but valid OpenAPI 3.0 and 3.1 documents
 * (test/fuzz/valid-openapi.ts): `import` (in process) succeeds, or ends with diagnostics each
 * located in the document (a JSON pointer); whatever it writes, `generate` accepts
 * (invariant 1), every gap it notes names its pointer in the document; every operation of
 * the document is an endpoint, and the re-emitted openapi.json has the same operations
 * (invariant 2); an operation that offers server-sent events is a stream, and `webhooks`
 * come back as the package's webhooks. A multi-file document is written as its files, the
 * `$ref`s between them relative to the document's folder. A bounded sample of the packages (the first few of the run) is type-checked
 * strictly with TypeScript 7 and 6, all in one program per compiler.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DiagnosticsError } from "../../generator/diagnostics/diagnostic.ts";
import { importSpec, writeSpecFolder } from "../../generator/import/import.ts";
import { runPipeline } from "../../generator/pipeline.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import { programOverSharedRuntime } from "../support/shared-runtime.ts";
import { runTypeScript, typescript6, typescript7 } from "../support/typescript.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import { validDocument } from "./valid-openapi.ts";

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const work = tempDir("apigen-fuzz-invariants-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** How many packages of the run are kept for the type-check. */
const sampleSize = longRun ? 12 : 3;
const sampled: string[] = [];
let cases = 0;
let refused = 0;

/** `METHOD path` of every operation of an OpenAPI document. */
function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
  return Object.entries(document.paths ?? {})
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => methods.includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

describe("import on valid OpenAPI documents", () => {
  it(
    "writes what generate accepts, and keeps every operation as an endpoint",
    () => {
      fc.assert(
        fc.property(validDocument(), ({ document, files, operations, streams, webhooks }) => {
          const dir = join(work, `case-${cases++}`);
          mkdirSync(dir, { recursive: true });
          const input = join(dir, "openapi.json");
          writeFileSync(input, JSON.stringify(document, null, 2));
          for (const [path, value] of Object.entries(files)) {
            mkdirSync(dirname(join(dir, path)), { recursive: true });
            writeFileSync(join(dir, path), JSON.stringify(value, null, 2));
          }
          const outSpec = join(dir, "spec");
          let result;
          try {
            result = importSpec({ input, outSpec, schemaFile });
          } catch (error) {
            if (!(error instanceof DiagnosticsError)) throw error;
            refused++;
            for (const d of error.diagnostics) expect(d.location?.pointer, d.message).toMatch(/^#/);
            return;
          }
          writeSpecFolder(outSpec, result.files);
          const out = join(dir, "package");
          const generated = runPipeline({ specDir: outSpec, outDir: out }); // invariant 1
          expect(generated.model.endpoints.length).toBe(operations.length);
          for (const gap of generated.model.gaps) expect(gap.text).toMatch(/\(import: [^)]*#/);
          const openapi = generated.files.find((f) => f.path === "openapi.json")!;
          const emitted = JSON.parse(openapi.contents) as {
            paths?: Record<string, Record<string, unknown>>;
            webhooks?: object;
          };
          expect(operationsOf(emitted)).toEqual(operations); // invariant 2
          const streamed = generated.model.endpoints
            .filter((e) => e.response.kind === "sse" || e.streamResponse !== undefined)
            .map((e) => `${e.method} ${e.path}`)
            .sort();
          expect(streamed).toEqual(streams);
          if (webhooks.length) {
            expect(generated.model.webhooks).toBeDefined();
            expect(Object.keys(emitted.webhooks ?? {}).length).toBeGreaterThan(0);
          }
          if (sampled.length < sampleSize) {
            for (const file of generated.files) {
              mkdirSync(dirname(join(out, file.path)), { recursive: true });
              writeFileSync(join(out, file.path), file.contents);
            }
            sampled.push(`case-${cases - 1}/package`);
          } else rmSync(dir, { recursive: true, force: true });
        }),
        fuzzParameters(12),
      );
      console.log(`${cases} documents, ${refused} refused with located diagnostics`);
      expect(refused).toBe(0);
    },
    fuzzTimeout(60_000),
  );

  let shared = false;
  /** One program of the sampled packages, over one copy of their identical runtime (made once). */
  function programOfSample(): void {
    if (shared) return;
    programOverSharedRuntime(work, sampled);
    shared = true;
  }

  it.each([
    ["TypeScript 7", typescript7],
    ["TypeScript 6", typescript6],
  ])(
    "a sample of the packages type-checks strictly with %s, in one program",
    (_, compiler) => {
      expect(sampled.length).toBeGreaterThan(0);
      programOfSample();
      const run = runTypeScript(compiler, ["--noEmit", "-p", join(work, "tsconfig.json")]);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.status).toBe(0);
    },
    fuzzTimeout(240_000),
  );
});
