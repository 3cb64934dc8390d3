/**
 * Overlays (OpenAPI Overlay Specification 1.0) on a third-party document: the Petstore
 * fixture gains link paging on one operation, loses another, gets a new description and a
 * summary picked by a filter; what import writes carries all four. A bad overlay is an error
 * located in the overlay file (its action's index and line); a target that selects nothing is
 * a located warning, and the import goes on.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { importSpec } from "../generator/import/import.ts";
import { applyOverlays } from "../generator/import/overlay.ts";
import { generateFrom, repoRoot, runCli, tempDir } from "./helpers.ts";

const work = tempDir("apigen-overlay-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const petstore = join(repoRoot, "test/fixtures/import/petstore.yaml");

function file(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

const overlay = file(
  "petstore.overlay.yaml",
  `overlay: 1.0.0
info: { title: Petstore for apigen, version: 1.0.0 }
extends: ./petstore.yaml
actions:
  - target: $.paths['/pets'].get
    description: the list pages by its Link header
    update:
      x-apigen-pagination: { style: link }
  - target: $.paths['/pets/{petId}'].delete
    remove: true
  - target: $.paths['/pets'].post
    update:
      description: Adds a pet to the store, as the overlay says.
  - target: $.paths.*[?(@.operationId == 'showPetById')]
    update:
      summary: One pet, by its id
`,
);

/** The endpoints of an import, by id, from the files it would write. */
function endpointsOf(
  files: { path: string; text: string }[],
): Record<string, Record<string, unknown>> {
  return Object.assign(
    {},
    ...files.filter((f) => f.path.startsWith("endpoints/")).map((f) => parse(f.text).endpoints),
  );
}

/** The diagnostics a call throws, each as `file:line:col code: message`. */
function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
    return error.diagnostics.map(
      (d) => `${d.location?.file}:${d.location?.line}:${d.location?.col} ${d.code}: ${d.message}`,
    );
  }
  throw new Error("no error");
}

describe("overlays on a third-party document", () => {
  it("adds paging, removes an operation, updates a description, targets by filter", () => {
    const outSpec = join(work, "spec");
    const plain = endpointsOf(importSpec({ input: petstore, outSpec, schemaFile }).files);
    const result = importSpec({ input: petstore, outSpec, schemaFile, overlays: [overlay] });
    const endpoints = endpointsOf(result.files);
    expect(plain["pets.list"]!.pagination).toBeUndefined();
    expect(endpoints["pets.list"]!.pagination).toEqual({ style: "link" });
    expect(Object.keys(plain)).toContain("pets.delete");
    expect(Object.keys(endpoints)).not.toContain("pets.delete");
    expect(endpoints["pets.create"]!.description).toBe(
      "Adds a pet to the store, as the overlay says.",
    );
    expect(endpoints["pets.showPetById"]!.summary).toBe("One pet, by its id");
    expect(result.warnings).toBeUndefined();
  });

  it("applies overlays in order, each to what the one before left", () => {
    const second = file(
      "second.yaml",
      `overlay: 1.0.0
info: { title: second, version: "1" }
actions:
  - target: $.paths['/pets'].post
    update: { description: The second overlay wins. }
`,
    );
    const result = importSpec({
      input: petstore,
      outSpec: join(work, "spec"),
      schemaFile,
      overlays: [overlay, second],
    });
    expect(endpointsOf(result.files)["pets.create"]!.description).toBe("The second overlay wins.");
  });

  it("merges an update into a mapping, appends it to an array, leaves the input as it was", () => {
    const document = { a: { b: { c: 1, d: [1] } }, list: [1] };
    const { document: out } = applyOverlays(document, [
      {
        shown: "o.json",
        json: true,
        text: "",
        value: {
          overlay: "1.0.0",
          info: { title: "t", version: "1" },
          actions: [
            { target: "$.a", update: { b: { e: 2, d: [2] } } },
            { target: "$.list", update: 2 },
            { target: "$..c", remove: true },
          ],
        },
      },
    ]);
    expect(out).toEqual({ a: { b: { d: [2], e: 2 } }, list: [1, 2] });
    expect(document).toEqual({ a: { b: { c: 1, d: [1] } }, list: [1] });
  });

  it("removes nodes nested in other selected ones, and array items by their indexes", () => {
    const document = { x: { x: { x: 1 } }, list: [{ x: 1 }, { y: 2 }, { x: 3 }], keep: 1 };
    const actions = [
      { target: "$..x", remove: true },
      { target: "$.list[?@.y == 2]", update: { z: 3 } },
    ];
    const { document: out } = applyOverlays(document, [
      {
        shown: "o.json",
        json: true,
        text: "",
        value: { overlay: "1.0.0", info: { title: "t", version: "1" }, actions },
      },
    ]);
    expect(out).toEqual({ list: [{}, { y: 2, z: 3 }, {}], keep: 1 });
  });
});

describe("a bad overlay is located in the overlay file", () => {
  const withActions = (name: string, actions: string) =>
    file(name, `overlay: 1.0.0\ninfo: { title: bad, version: "1" }\nactions:\n${actions}`);
  const imported = (overlays: string[]) =>
    importSpec({ input: petstore, outSpec: join(work, "spec"), schemaFile, overlays });

  it("an invalid JSONPath: the action's index and the target's line", () => {
    const bad = withActions(
      "bad-path.yaml",
      `  - target: $.paths['/pets'].get
    update: { summary: fine }
  - target: $.paths[
    update: { summary: never }
`,
    );
    const [problem, ...rest] = problems(() => imported([bad]));
    expect(rest).toEqual([]);
    expect(problem).toMatch(
      /bad-path\.yaml:6:13 import-overlay-invalid: overlay .*bad-path\.yaml: action 1: target \$\.paths\[ is not a JSONPath expression \(RFC 9535\)/,
    );
  });

  it("an update of a value that is no object or array", () => {
    const bad = withActions(
      "bad-update.yaml",
      `  - target: $.info.title
    update: { summary: no }
`,
    );
    expect(problems(() => imported([bad]))).toEqual([
      expect.stringMatching(
        /bad-update\.yaml:5:13 import-overlay-invalid: .*action 0: target selects \$\['info'\]\['title'\], which is no object or array to update/,
      ),
    ]);
  });

  it("an action with neither update nor remove, and a file that is no overlay", () => {
    expect(problems(() => imported([withActions("empty.yaml", "  - target: $.info\n")]))).toEqual([
      expect.stringMatching(/empty\.yaml:4:5 import-overlay-invalid: .*action 0 has neither/),
    ]);
    const notOverlay = file("not.yaml", "openapi: 3.1.0\n");
    expect(problems(() => imported([notOverlay]))).toEqual([
      expect.stringMatching(
        /not\.yaml:1:1 import-overlay-invalid: .*not an overlay of version 1\.0/,
      ),
    ]);
  });

  it("a target that selects nothing is a located warning; the rest applies", () => {
    const some = withActions(
      "unmatched.yaml",
      `  - target: $.paths['/nowhere'].get
    update: { summary: lost }
  - target: $.paths['/pets'].post
    update: { description: Still applied. }
`,
    );
    const result = imported([some]);
    expect(endpointsOf(result.files)["pets.create"]!.description).toBe("Still applied.");
    expect(result.warnings?.map((d) => [d.code, d.location?.line, d.message])).toEqual([
      [
        "import-overlay-unmatched",
        4,
        "action 0 of the overlay: target $.paths['/nowhere'].get selects nothing, so it changes nothing",
      ],
    ]);
  });
});

describe("apigen import --overlay FILE (repeatable)", () => {
  it("writes the overlaid spec folder; a bad overlay writes nothing", async () => {
    const outSpec = join(work, "cli-spec");
    const run = await runCli([
      "import",
      petstore,
      "--out-spec",
      outSpec,
      "--overlay",
      overlay,
      "--overlay",
      file(
        "third.yaml",
        `overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n  - target: $.nothing\n    remove: true\n`,
      ),
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/third\.yaml:4:13 - warning import-overlay-unmatched/);
    const pets = parse(readFileSync(join(outSpec, "endpoints/pets.yaml"), "utf8")).endpoints;
    expect(pets["pets.list"].pagination).toEqual({ style: "link" });
    expect(Object.keys(pets)).not.toContain("pets.delete");
    // Whatever import writes, generate accepts: the paging the overlay added included.
    const generated = await generateFrom(outSpec, join(work, "cli-out"));
    expect(generated.model.endpoints.find((e) => e.id === "pets.list")?.pagination).toBeDefined();

    const refused = join(work, "refused-spec");
    const bad = file(
      "cli-bad.yaml",
      `overlay: 1.0.0\ninfo: { title: t, version: "1" }\nactions:\n  - target: "$["\n    remove: true\n`,
    );
    const failed = await runCli(["import", petstore, "--out-spec", refused, "--overlay", bad]);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/cli-bad\.yaml:4:13 - error import-overlay-invalid/);
    expect(existsSync(refused)).toBe(false);
  });
});
