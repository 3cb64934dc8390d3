/**
 * Names into the output (issue 30, item 7; docs/security.md, "Names"). Random names from a
 * hostile alphabet (reserved words, Object.prototype's members, `__proto__`, names of what
 * the package generates, Windows device names, case variants, punctuation, unicode, names
 * that are nearly empty) are given to tags, operationIds, schemas, properties, path, query
 * and header parameters and security schemes of an OpenAPI document, which is imported and
 * generated; and to groups, methods, types, fields, parameters and error codes of a spec
 * written directly. Every case must import and generate (warnings allowed), and then:
 *
 * - every identifier of the model is valid and unique in its scope: the package's type
 *   names, the client module's functions, the client's and each group's members, each
 *   function's parameters, the handlers, the error constants;
 * - every file name (the spec folder's and the package's) is unique when case is ignored and
 *   portable: no Windows device name, no character Windows refuses, no trailing dot or space,
 *   at most 100 bytes (a name of any length is imported and written);
 * - no wire name is lost: every property is a field of its type under its own name, every
 *   query and header parameter travels under its own name, every operation, schema and
 *   security scheme is there.
 *
 * A few fixed cases are also type-checked with tsc (slow: not per case). `npm test` runs a
 * bounded, seeded few; `npm run fuzz` 10,000 per property.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { importSpec, writeSpecFolder } from "../../generator/import/import.ts";
import { runPipeline, type PipelineResult } from "../../generator/pipeline.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import {
  consumerOf,
  expectIdentifiers,
  expectPortable,
  expectSpecNames,
  expectWireNames,
} from "./names-checks.ts";
import { documentInput, documentOf, specInput, specOf, usableSpec } from "./names-inputs.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import { withRuntimeDeclarations } from "../support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "../support/typescript.ts";

const work = tempDir("apigen-names-fuzz-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");

let cases = 0;

/** Imports a document into a fresh folder and generates it; the spec files and the result. */
function importAndGenerate(doc: object): { specPaths: string[]; result: PipelineResult } {
  const dir = join(work, `case-${cases++}`);
  const input = `${dir}.json`;
  mkdirSync(dir);
  writeFileSync(input, JSON.stringify(doc));
  const spec = join(dir, "spec");
  const imported = importSpec({ input, outSpec: spec, schemaFile });
  writeSpecFolder(spec, imported.files);
  try {
    const result = runPipeline({ specDir: spec, outDir: join(dir, "out") });
    return { specPaths: imported.files.map((f) => f.path), result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(input, { force: true });
  }
}

/** Writes a spec and generates it; the result. */
function generateSpec(spec: Record<string, unknown>): PipelineResult {
  const dir = join(work, `spec-${cases++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "api.yaml"), stringify(spec));
  try {
    return runPipeline({ specDir: dir, outDir: join(dir, "out") });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Fixed cases, type-checked

/** tsc on a package written from a result, with a consumer: its output, empty when it type-checks. */
function typecheck(result: PipelineResult): string {
  const out = join(work, `tsc-${cases++}`);
  for (const file of result.files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.contents);
  }
  writeFileSync(join(out, "src/consumer.ts"), consumerOf(result.model));
  try {
    const tsc = typescript6;
    const run = runTypeScript(tsc, [
      "--noEmit",
      "-p",
      join(withRuntimeDeclarations(out), "tsconfig.json"),
    ]);
    return `${run.stdout}${run.stderr}`.trim() || (run.status === 0 ? "" : `exit ${run.status}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The `count` inputs with the most names among 200 drawn from a fixed seed. */
function richest<T>(arbitrary: fc.Arbitrary<T>, count: number): T[] {
  const size = (value: T) => JSON.stringify(value).length;
  return fc
    .sample(arbitrary, { seed: 20261127, numRuns: 200 })
    .sort((a, b) => size(b) - size(a))
    .slice(0, count);
}

describe("names into the output", () => {
  it(
    "from an OpenAPI document: imported and generated, every identifier valid and unique, every file portable, no wire name lost",
    () => {
      fc.assert(
        fc.property(documentInput, (input) => {
          const { specPaths, result } = importAndGenerate(documentOf(input));
          expectIdentifiers(result.model);
          expectPortable(specPaths, "spec folder");
          expectPortable(
            result.files.map((f) => f.path),
            "package",
          );
          expectWireNames(input, result.model);
        }),
        fuzzParameters(40),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "from a spec: generated, every identifier valid and unique, every file portable, no name lost",
    () => {
      fc.assert(
        fc.property(specInput.map(usableSpec), (input) => {
          const result = generateSpec(specOf(input));
          expectIdentifiers(result.model);
          expectPortable(
            result.files.map((f) => f.path),
            "package",
          );
          expectSpecNames(input, result.model);
        }),
        fuzzParameters(60),
      );
    },
    fuzzTimeout(60_000),
  );

  // tsc takes seconds a package: one in `npm test` (test/names.test.ts type-checks three
  // more packages of such names), three of each kind in `npm run fuzz`.
  const documents = longRun ? 3 : 1;
  const specs = longRun ? 3 : 0;
  it(
    `type-checks the package of ${documents} fixed document(s) and ${specs} fixed spec(s), with a consumer of every method`,
    () => {
      for (const input of richest(documentInput, documents))
        expect(typecheck(importAndGenerate(documentOf(input)).result)).toBe("");
      for (const input of richest(specInput.map(usableSpec), specs))
        expect(typecheck(generateSpec(specOf(input)))).toBe("");
    },
    fuzzTimeout(120_000),
  );
});
