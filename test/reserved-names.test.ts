/**
 * Names the generated package exports from its runtime (generator/ir/reserved-names.ts): the
 * list holds every one the emitters re-export, a spec type of such a name is an error at its
 * key, and the importer renames a schema of such a name.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec } from "../generator/import/import.ts";
import { runtimeExportNames } from "../generator/ir/reserved-names.ts";
import { diagnosticsOf, repoRoot, tempDir } from "./helpers.ts";

const scratch = tempDir("apigen-reserved-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The names of `export { ... } from "./runtime/..."` and `import { ... }` statements of a generated file's text. */
function runtimeReExports(text: string): string[] {
  return [
    ...text.matchAll(/^(?:export|import) (?:type )?\{([^}]*)\} from "\.\/runtime\//gm),
  ].flatMap((m) =>
    m[1]!
      .split(",")
      .map((name) => name.replace(/^\s*type\s+/, "").trim())
      .filter(Boolean),
  );
}

describe("the names the package's runtime exports", () => {
  it("include every name a generated package re-exports or imports from its runtime", () => {
    const folders = [
      join(repoRoot, "generated/src"),
      ...["pagination", "streaming", "typed-webhooks", "standard-webhooks", "stand-in"].map((f) =>
        join(repoRoot, "test/__snapshots__/features", f),
      ),
    ];
    const exported = new Set(
      folders.flatMap((dir) =>
        readdirSync(dir)
          .filter((f) => f.endsWith(".ts"))
          .flatMap((f) => runtimeReExports(readFileSync(join(dir, f), "utf8"))),
      ),
    );
    // Values that are not PascalCase cannot meet a spec type's name.
    const typeLike = [...exported].filter((name) => /^[A-Z]/.test(name));
    expect(typeLike.length).toBeGreaterThan(15);
    expect(typeLike.filter((name) => !runtimeExportNames.has(name))).toEqual([]);
  });

  it("are refused as a spec type's name, at the type's key", async () => {
    const spec = join(scratch, "spec");
    mkdirSync(spec);
    writeFileSync(
      join(spec, "api.yaml"),
      "api: { name: pages, title: Pages, version: 1.0.0 }\n\ntypes:\n  Page:\n    fields: { url: string }\n",
    );
    expect(await diagnosticsOf(spec)).toEqual([
      expect.stringMatching(
        /api\.yaml:4:3 - error type-name-reserved: type Page has the name of one the generated package exports from its runtime; rename it$/,
      ),
    ]);
  });

  it("are given the API's name as a prefix when an imported schema has one, with a note", () => {
    const input = join(scratch, "pages.json");
    writeFileSync(
      input,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "GitHub's official OpenAPI spec", version: "1" },
        paths: {
          "/pages": {
            get: {
              operationId: "pages/get",
              responses: {
                "200": {
                  description: "ok",
                  content: {
                    "application/json": { schema: { $ref: "#/components/schemas/page" } },
                  },
                },
              },
            },
          },
        },
        components: {
          schemas: { page: { type: "object", properties: { url: { type: "string" } } } },
        },
      }),
    );
    const result = importSpec({ input, outSpec: join(scratch, "out"), schemaFile: "schema.json" });
    const files = new Map(result.files.map((f) => [f.path, parse(f.text)]));
    expect(files.get("endpoints/pages.yaml").endpoints["pages.get"].response.body).toBe(
      "GitHubPage",
    );
    expect(files.get("types/pages.yaml").types.GitHubPage).toEqual({
      fields: { url: "string" },
      undocumented:
        "schema page is written as GitHubPage: the package's runtime exports Page (import: #/components/schemas/page)",
    });
  });
});
