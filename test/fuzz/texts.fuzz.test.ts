/**
 * Texts into generated code (docs/security.md, "Texts into generated code"): hostile texts put
 * into every text field of a model, and the package emitted from it, must hold as a clean
 * build does. Every TypeScript file parses with no syntax error to the same tree (the same
 * statements, the same nodes: a text lives only in comments and string literals); each copied
 * runtime file is its banner, on one line, and the runtime's own text; package.json,
 * openapi.json and openapi.yaml parse, the YAML to the JSON's data; the README's banner is one
 * HTML comment and the README reads as the same blocks with no HTML, link, image or emphasis
 * that a text made; the title shows as written. For a sample, the package compiled to
 * JavaScript is imported in a child process, where the texts' sentinels (`globalThis.__pwned`,
 * output) must not have run.
 *
 * Three ways in: the model directly (every string the IR classifies as text, so control
 * characters and lone surrogates reach the emitters too, as they could from a document), a
 * YAML spec through the loader, and an OpenAPI document through the importer.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiagnosticsError } from "../../generator/diagnostics/diagnostic.ts";
import { importSpec, writeSpecFolder } from "../../generator/import/import.ts";
import type { ApiModel } from "../../generator/ir/model.ts";
import { runPipeline } from "../../generator/pipeline.ts";
import { diagnosticsOf, repoRoot, tempDir } from "../helpers.ts";
import {
  bannerProblems,
  dataFileProblems,
  emitPackage,
  emittedSources,
  importPackage,
  markdownShape,
  markdownTokens,
  renderedText,
  runtimeFileProblems,
  parsedShape,
  syntaxErrors,
  transpilePackage,
  treeProblems,
  writePackage,
  type PackageFiles,
} from "../support/output-checks.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";
import {
  hostileFolderName,
  hostileText,
  hostileYamlText,
  setSlot,
  slotKind,
  stringSlots,
  type Slot,
} from "./hostile-texts.ts";
import { lineComment } from "../../generator/emit/shared/escape.ts";

const fixtures = join(repoRoot, "test/fixtures/features");
/** The specs whose models are fuzzed: every feature fixture, and the Merchant spec (larger, so drawn less often). */
const bases = [
  ...readdirSync(fixtures)
    .sort()
    .map((name) => join(fixtures, name)),
  join(repoRoot, "spec"),
];

interface Base {
  name: string;
  model: ApiModel;
  texts: Slot[];
  clean: PackageFiles;
  shapes: Map<string, ReturnType<typeof parsedShape>>;
  readme: string[];
}

let work: string;
const loaded: Base[] = [];
const unclassified = new Set<string>();

beforeAll(() => {
  work = tempDir("apigen-texts-fuzz-");
  for (const specDir of bases) {
    const { model } = runPipeline({ specDir, outDir: join(work, "unused") });
    const slots = stringSlots(model);
    for (const slot of slots) if (slotKind(slot.path) === undefined) unclassified.add(slot.path);
    const clean = emitPackage(model, "spec/");
    loaded.push({
      name: specDir.slice(repoRoot.length + 1),
      model,
      texts: slots.filter((s) => slotKind(s.path) === "text"),
      clean,
      shapes: new Map(emittedSources(clean).map((p) => [p, parsedShape(p, clean.get(p)!)])),
      readme: readmeShape(clean.get("README.md")!),
    });
  }
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The README's blocks and markup, code spans aside (a text's own `code` stays a code span). */
function readmeShape(readme: string): string[] {
  return markdownShape(readme).filter((line) => !line.startsWith("codespan"));
}

/**
 * Whether the README shows `text` as written, given what a markdown parser renders of it:
 * unsafe characters as their escapes, the text's own code spans as their content. Compared
 * without backticks, spaces and line ends: markdown shows a line end as a space and a code
 * span drops a space at each end (and marked trims a heading of all white space, where
 * CommonMark trims spaces and tabs), none of which is the text's to keep.
 */
function showsAsWritten(rendered: string, text: string): boolean {
  const bare = (s: string) => s.replace(/[` \t\n\r\u2028\u2029\u00a0\u3000]/g, "");
  // white space becomes one space first, as markdown shows it: dropped before the escaping, it
  // would join two lone surrogates it parts into a pair, which shows raw
  const shown = text.replace(/[ \t\n\r\u2028\u2029]+/g, " ");
  return bare(rendered) === bare(lineComment(shown));
}

/** Every problem of a package emitted from a model whose texts are hostile, against its clean build. */
function packageProblems(files: PackageFiles, base: Base, model: ApiModel): string[] {
  const problems: string[] = [];
  for (const path of files.keys()) {
    const text = files.get(path)!;
    if (path.startsWith("src/runtime/")) {
      problems.push(...runtimeFileProblems(path, text, base.clean.get(path)!));
      continue;
    }
    if (path.endsWith(".ts")) problems.push(...treeProblems(path, text, base.shapes.get(path)));
  }
  problems.push(...dataFileProblems(files));
  const readme = files.get("README.md")!;
  problems.push(...bannerProblems(readme));
  const shape = readmeShape(readme);
  if (shape.join("\n") !== base.readme.join("\n"))
    problems.push(`README.md reads as [${shape}] where a clean build reads as [${base.readme}]`);
  const heading = markdownTokens(readme).find((t) => t.type === "heading") as { text: string };
  if (!showsAsWritten(renderedText(heading.text), model.api.title))
    problems.push(`README.md's title shows as ${JSON.stringify(renderedText(heading.text))}`);
  const pkg = JSON.parse(files.get("package.json")!) as { description: string };
  const description = model.api.docs.description ?? model.api.title;
  if (pkg.description !== description.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, ""))
    problems.push(`package.json's description is ${JSON.stringify(pkg.description)}`);
  return problems;
}

/** Imports the package in a child process: nothing may have run. */
function runProblems(files: PackageFiles, name: string): string[] {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  writePackage(dir, files);
  transpilePackage(dir, files);
  const outcome = importPackage(dir, files);
  rmSync(dir, { recursive: true, force: true });
  return outcome.status === 0 && outcome.output === "" && outcome.pwned === null
    ? []
    : [`importing the package: ${JSON.stringify(outcome)}`];
}

describe("texts into generated code: the model", () => {
  it("classifies every string of the model as a text or a name", () => {
    expect([...unclassified].sort()).toEqual([]);
  });

  it("shows a title as written where white space parts two lone surrogates (each shown as its escape)", () => {
    const base = loaded[0]!;
    const model = structuredClone(base.model);
    model.api.title = "- //\ud800\t\udfff";
    expect(packageProblems(emitPackage(model, "spec/"), base, model)).toEqual([]);
  });

  it("classes versioning's scheme as a name: the schema refuses any but its two, at its place", async () => {
    expect(slotKind(".versioning.scheme")).toBe("name");
    const dir = join(work, "hostile-scheme");
    cpSync(join(fixtures, "requests"), dir, { recursive: true });
    const api = readFileSync(join(dir, "api.yaml"), "utf8");
    const at = api.split("\n").findIndex((line) => line === "  scheme: header");
    expect(at).toBeGreaterThan(0);
    writeFileSync(
      join(dir, "api.yaml"),
      api.replace(
        "  scheme: header",
        `  scheme: ${JSON.stringify('header"; globalThis.__pwned = 1; //')}`,
      ),
    );
    const diagnostics = await diagnosticsOf(dir);
    rmSync(dir, { recursive: true, force: true });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(new RegExp(`/api\\.yaml:${at + 1}:11 - error [a-z-]+: `));
  });

  it(
    "keeps the tree with each text of the requests fixture alone hostile (fixed headers, versioning by header, hosts, conditional GETs)",
    () => {
      const base = loaded.find((b) => b.name === "test/fixtures/features/requests")!;
      const text = '\udfff*/ console.log("PWNED");\n globalThis.__pwned = "text";```${`';
      const changed = base.texts.flatMap((slot) => {
        const model = structuredClone(base.model);
        setSlot(model, slot, text);
        const files = emitPackage(model, "spec/");
        // a file the text did not reach is the clean build's, whose tree is the shape itself
        const reached = emittedSources(files).filter((p) => files.get(p) !== base.clean.get(p));
        return reached.flatMap((path) =>
          treeProblems(path, files.get(path)!, base.shapes.get(path)).map(
            (problem) => `${slot.keys.join(".")}: ${problem}`,
          ),
        );
      });
      expect(changed).toEqual([]);
    },
    fuzzTimeout(60_000),
  );

  /** A case: a base, texts for some or all of its text slots, a spec folder name. */
  const cases = fc.record({
    base: fc.oneof(
      { weight: 6, arbitrary: fc.nat({ max: bases.length - 2 }) },
      { weight: 1, arbitrary: fc.constant(bases.length - 1) },
    ),
    texts: fc.array(hostileText, { minLength: 1, maxLength: 24 }),
    every: fc.boolean(),
    pick: fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
    folder: hostileText,
  });

  it(
    "keeps every text in its place: each file parses as a clean build's, the data files and README hold",
    () => {
      let run = 0;
      fc.assert(
        fc.property(cases, ({ base: index, texts, every, pick, folder }) => {
          const base = loaded[index]!;
          const model = structuredClone(base.model);
          const slots = every ? base.texts : pick.map((i) => base.texts[i % base.texts.length]!);
          slots.forEach((slot, i) => setSlot(model, slot, texts[i % texts.length]!));
          const files = emitPackage(model, `${folder}/`);
          const problems = packageProblems(files, base, model);
          // a sample of cases is compiled and imported: a few in npm test, one in 100 in the long run
          if (problems.length === 0 && run++ % (longRun ? 100 : 15) === 0)
            problems.push(...runProblems(files, `run-${run}`));
          expect(problems, base.name).toEqual([]);
        }),
        fuzzParameters(30),
      );
    },
    fuzzTimeout(60_000),
  );
});

describe("texts into generated code: through the front ends", () => {
  /** A small spec with a hostile text in each text place the format has. */
  function specFiles(t: (i: number) => string): Record<string, string> {
    const api = {
      api: {
        name: "hostile-texts",
        title: t(0),
        version: "1.0.0",
        clientName: "ItemsClient",
        description: t(1),
        undocumented: [t(2)],
      },
      environments: { sandbox: { description: t(3), baseUrl: "https://sandbox.example.com" } },
      types: {
        Item: {
          description: t(4),
          undocumented: t(5),
          fields: {
            id: { type: "string", required: true, description: t(6), example: t(7) },
            state: { enum: [t(8), `${t(9)}-2`], description: t(10) },
            label: { const: t(11) },
          },
        },
      },
      endpoints: {
        "items.get": {
          summary: t(12),
          description: t(13),
          method: "GET",
          path: "/items/{item_id}",
          params: { item_id: { type: "string", description: t(14) } },
          response: { status: 200, body: "Item" },
          rules: [t(15)],
          errors: [{ status: 404, description: t(16) }],
          undocumented: t(17),
        },
      },
      callbacks: {
        "item.changed": {
          summary: t(18),
          description: t(19),
          method: "POST",
          path: "/item-changed",
          headers: { "Content-Type": "application/json" },
          body: "Item",
          success: { fields: { received: "boolean" } },
          rules: [t(20)],
        },
      },
    };
    return { "api.yaml": YAML.stringify(api) };
  }

  /** Generates the spec in `dir` (a folder named `folder` below the work folder); a refusal is a diagnostic. */
  function generate(folder: string, files: Record<string, string>) {
    const dir = join(work, folder);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    try {
      return runPipeline({ specDir: dir, outDir: join(work, "unused") });
    } catch (error) {
      if (error instanceof DiagnosticsError) return undefined;
      throw error;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  let clean: Base;
  beforeAll(() => {
    const result = generate(
      "clean",
      specFiles((i) => `Text ${i}.`),
    )!;
    const files = emitPackage(result.model, "spec/");
    clean = {
      name: "clean",
      model: result.model,
      texts: [],
      clean: files,
      shapes: new Map(emittedSources(files).map((p) => [p, parsedShape(p, files.get(p)!)])),
      readme: readmeShape(files.get("README.md")!),
    };
  });

  it(
    "a YAML spec (in a folder with a hostile name) generates a package that holds",
    () => {
      let generated = 0;
      fc.assert(
        fc.property(
          fc.array(hostileYamlText, { minLength: 21, maxLength: 21 }),
          hostileFolderName,
          (texts, folder) => {
            const result = generate(
              folder,
              specFiles((i) => texts[i]!),
            );
            if (!result) return; // refused at load, with a located diagnostic
            generated++;
            const files = [...result.files].filter((f) => f.path !== ".apigen-manifest.json");
            const byPath: PackageFiles = new Map(files.map((f) => [f.path, f.contents]));
            expect(packageProblems(byPath, clean, result.model)).toEqual([]);
          },
        ),
        fuzzParameters(8, 1_000),
      );
      if (longRun)
        console.log(`texts fuzz, YAML spec: ${generated} cases generated, the rest refused`);
      expect(generated).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );

  /**
   * The texts of a document: mostly ones a spec file can hold; else any, control characters
   * and lone surrogates included, which the spec loader refuses after the import.
   */
  const documentTexts = fc.oneof(
    { weight: 4, arbitrary: fc.array(hostileYamlText, { minLength: 8, maxLength: 8 }) },
    { weight: 1, arbitrary: fc.array(hostileText, { minLength: 8, maxLength: 8 }) },
  );

  it(
    "an OpenAPI document (imported) generates a package that holds, or is refused at its place",
    () => {
      let generated = 0;
      fc.assert(
        fc.property(documentTexts, (t) => {
          const document = {
            openapi: "3.1.0",
            info: { title: t[0], version: "1.0.0", description: t[1] },
            paths: {
              "/items/{id}": {
                get: {
                  operationId: "getItem",
                  tags: ["items"],
                  summary: t[2],
                  description: t[3],
                  parameters: [
                    {
                      name: "id",
                      in: "path",
                      required: true,
                      schema: { type: "string" },
                      description: t[4],
                    },
                  ],
                  responses: {
                    "200": {
                      description: t[5],
                      content: {
                        "application/json": { schema: { $ref: "#/components/schemas/Item" } },
                      },
                    },
                  },
                },
              },
            },
            components: {
              schemas: {
                Item: {
                  type: "object",
                  description: t[6],
                  properties: { state: { type: "string", enum: [t[7]] } },
                },
              },
            },
          };
          const dir = join(work, "imported");
          rmSync(dir, { recursive: true, force: true });
          mkdirSync(dir, { recursive: true });
          const input = join(dir, "openapi.json");
          writeFileSync(input, JSON.stringify(document));
          const outSpec = join(dir, "spec");
          let model: ApiModel;
          let byPath: PackageFiles;
          try {
            const imported = importSpec({
              input,
              outSpec,
              schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
              packageName: "imported-api",
            });
            writeSpecFolder(outSpec, imported.files);
            const result = runPipeline({ specDir: outSpec, outDir: join(dir, "out") });
            model = result.model;
            byPath = new Map(result.files.map((f) => [f.path, f.contents]));
          } catch (error) {
            if (error instanceof DiagnosticsError) return; // refused, at its place
            throw error;
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          generated++;
          // no clean build of the same shape to compare with: every file must parse, the data
          // files and the README's banner hold, and the title shows as written
          const problems = [...byPath.keys()]
            .filter((p) => p.endsWith(".ts") && !p.startsWith("src/runtime/"))
            .flatMap((p) => syntaxErrors(p, byPath.get(p)!).map((e) => `${p}:${e}`));
          problems.push(...dataFileProblems(byPath), ...bannerProblems(byPath.get("README.md")!));
          const heading = markdownTokens(byPath.get("README.md")!).find(
            (x) => x.type === "heading",
          );
          expect(
            showsAsWritten(renderedText((heading as { text: string }).text), model.api.title),
          ).toBe(true);
          expect(problems).toEqual([]);
        }),
        fuzzParameters(5, 1_000),
      );
      if (longRun)
        console.log(`texts fuzz, OpenAPI import: ${generated} cases generated, the rest refused`);
      expect(generated).toBeGreaterThan(0);
    },
    fuzzTimeout(60_000),
  );
});
