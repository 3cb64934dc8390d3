/**
 * What an OpenAPI document can make the importer do (issue 30, items 2 and 6). A `$ref`
 * reaches only regular files inside the document's folder (or the folder `--ref-root` or the
 * config file's `refRoot` names), each read capped; everything else, and every document the
 * importer cannot take (a malformed `%`, an alias bomb, a schema nested 1,000 deep), is a
 * diagnostic at the `$ref` or the place, never `internal error`, a stack overflow or a hang.
 * A canary file outside the document's folder shows that nothing of it reaches any output.
 * A `$ref` by URL: test/import-ref-map.test.ts (refused, or read from the copy `refMap` names).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, parseDocument } from "yaml";
import { DiagnosticBag, DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { maxDocumentDepth } from "../generator/import/document-files.ts";
import { OpenApiDocument } from "../generator/import/document.ts";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { LineIndex } from "../generator/load/line-index.ts";
import { dataWithinAliasBudget } from "../generator/load/yaml-guards.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const canaryText = "CANARY-9f3e1d: this text must never leave its folder";

/**
 * A project folder: `outside/canary.yaml` (a schema holding the canary text) beside `api/`,
 * the document's folder, where `files` are written.
 */
function project(files: Record<string, string>) {
  const dir = tempDir("apigen-import-limits-");
  made.push(dir);
  mkdirSync(join(dir, "outside"));
  writeFileSync(
    join(dir, "outside/canary.yaml"),
    `Thing:\n  type: object\n  description: "${canaryText}"\n  properties:\n    x: { type: string }\n`,
  );
  mkdirSync(join(dir, "api"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, "api", name, ".."), { recursive: true });
    writeFileSync(join(dir, "api", name), text);
  }
  return { dir, api: join(dir, "api"), doc: join(dir, "api", "doc.yaml"), out: join(dir, "spec") };
}

/** A document whose one response body is `schema` (a flow mapping), with more YAML after it. */
const withSchema = (schema: string, more = "") =>
  `openapi: 3.0.3\ninfo: { title: Shop, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: ${schema}\n${more}`;

/** A JSON document whose one operation is `GET /a` as `get` gives it, with `schemas`. */
const documentWith = (get: unknown, schemas: Record<string, unknown> = {}) =>
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Shop", version: "1" },
    paths: { "/a": { get } },
    components: { schemas },
  });

/** The same as `withSchema` in JSON, `schema` and `schemas` as values. */
const jsonWith = (schema: unknown, schemas: Record<string, unknown> = {}) =>
  documentWith(
    { responses: { "200": { description: "ok", content: { "application/json": { schema } } } } },
    schemas,
  );

/** The pointer of the response schema of `withSchema` and `jsonWith`. */
const schemaPointer = "#/paths/~1a/get/responses/200/content/application~1json/schema";

/** The diagnostics of an import that must fail, each as `file:line:col code: message`. */
function refused(input: string, options: { refRoot?: string } = {}): string[] {
  try {
    importSpec({ input, outSpec: join(input, "..", "..", "spec"), schemaFile, ...options });
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
    return error.diagnostics.map((d) => {
      const at = d.location ? `${d.location.file}:${d.location.line}:${d.location.col} ` : "";
      return `${at}${d.code}: ${d.message}`;
    });
  }
  throw new Error(`${input} imported`);
}

/** Every file an import wrote, as one text. */
function written(out: string): string {
  return readdirSync(out, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".yaml"))
    .map((p) => readFileSync(join(out, p), "utf8"))
    .join("\n");
}

/**
 * The command line as a process (launch.mjs, the bundle), cut off after 30 s: for the reads
 * that would never end were a limit broken (/dev/zero, a FIFO), which in this process would
 * hang the test run instead of failing the test, and for the deepest document, whose stack is
 * the process's own. The other cases run in this process (runCli).
 */
function cliProcess(args: string[], cwd = repoRoot) {
  const run = spawnSync(process.execPath, [join(repoRoot, "generator/launch.mjs"), ...args], {
    cwd,
    encoding: "utf8",
    timeout: 30_000,
    maxBuffer: 16 << 20,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("a $ref reaches only regular files inside the document's folder", () => {
  it("refuses ../ out of the folder, at the $ref, and nothing of the file outside gets out", async () => {
    const p = project({ "doc.yaml": withSchema("{ $ref: '../outside/canary.yaml#/Thing' }") });
    const run = await runCli(["import", "api/doc.yaml", "--out-spec", "spec"], p.dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^api\/doc\.yaml:11:23 - error import-ref-outside: \$ref \.\.\/outside\/canary\.yaml#\/Thing leads outside the document's folder; .*\(at #\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\)/,
    );
    expect(run.stderr + run.stdout).not.toContain("CANARY");
    expect(run.stderr + run.stdout).not.toContain(p.dir); // no absolute path
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(existsSync(p.out)).toBe(false);
  });

  it("refuses an absolute path outside the folder, and /dev/zero without reading it", () => {
    const p = project({ "doc.yaml": withSchema("{ $ref: '/dev/zero' }") });
    writeFileSync(
      join(p.api, "abs.yaml"),
      withSchema(`{ $ref: '${join(p.dir, "outside/canary.yaml")}#/Thing' }`),
    );
    const started = performance.now();
    const zero = cliProcess(["import", p.doc, "--out-spec", p.out]);
    expect(performance.now() - started).toBeLessThan(25_000);
    expect(zero.status).toBe(1);
    expect(zero.stderr).toMatch(
      /doc\.yaml:11:23 - error import-ref-outside: \$ref \/dev\/zero leads outside the document's folder/,
    );
    expect(refused(join(p.api, "abs.yaml"))).toEqual([
      expect.stringMatching(/abs\.yaml:11:23 import-ref-outside: .* \(at #\/paths\/~1a\//),
    ]);
    expect(existsSync(p.out)).toBe(false);
  });

  it("says which file a $ref names is missing, and when a name is no file at all", () => {
    // swagger-php left a PHP class where a pointer belongs (AzuraCast's document)
    const p = project({
      "doc.yaml": withSchema("{ $ref: 'App\\Entity\\StationQueue' }"),
      "gone.yaml": withSchema("{ $ref: 'schemas/pet.yaml' }"),
    });
    expect(refused(p.doc)).toEqual([
      expect.stringMatching(
        /doc\.yaml:11:23 import-file-unreadable: cannot read App\\Entity\\StationQueue: no such file; a \$ref without # names a file, and a schema of the same document is #\/components\/schemas\/<name> \(at #\/paths\/~1a\//,
      ),
    ]);
    expect(refused(join(p.api, "gone.yaml"))).toEqual([
      expect.stringMatching(
        /import-file-unreadable: cannot read schemas\/pet\.yaml: it does not exist \(at /,
      ),
    ]);
  });

  it.skipIf(process.platform === "win32")(
    "refuses a FIFO inside the folder without waiting for a writer",
    () => {
      const p = project({ "doc.yaml": withSchema("{ $ref: 'pipe.yaml' }") });
      expect(spawnSync("mkfifo", [join(p.api, "pipe.yaml")]).status).toBe(0);
      const run = cliProcess(["import", p.doc, "--out-spec", p.out]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /doc\.yaml:11:23 - error import-file-unreadable: cannot read pipe\.yaml: it is not a regular file \(a FIFO, socket or device\)/,
      );
    },
  );

  it.skipIf(process.platform === "win32")(
    "refuses a symbolic link inside the folder that leads out of it (to a file or a device)",
    () => {
      const p = project({
        "doc.yaml": withSchema("{ $ref: 'link.yaml#/Thing' }"),
        "dev.yaml": withSchema("{ $ref: 'zero.yaml' }"),
      });
      symlinkSync(join(p.dir, "outside/canary.yaml"), join(p.api, "link.yaml"));
      symlinkSync("/dev/zero", join(p.api, "zero.yaml"));
      symlinkSync(join(p.dir, "outside"), join(p.api, "out"));
      writeFileSync(join(p.api, "missing.yaml"), withSchema("{ $ref: 'out/a/b/missing.yaml' }"));
      expect(refused(p.doc)).toEqual([
        expect.stringContaining(
          `doc.yaml:11:23 import-ref-outside: $ref link.yaml#/Thing leads outside the document's folder through a symbolic link; the importer reads only files inside it (--ref-root names a wider folder) (at ${schemaPointer})`,
        ),
      ]);
      expect(refused(join(p.api, "dev.yaml"))).toEqual([
        expect.stringContaining("through a symbolic link"),
      ]);
      // A file missing out there is refused the same way: nothing says what exists outside.
      expect(refused(join(p.api, "missing.yaml"))).toEqual([
        expect.stringContaining(
          "$ref out/a/b/missing.yaml leads outside the document's folder through a symbolic link",
        ),
      ]);
    },
  );

  it("follows a $ref to a file inside the folder, and names it relative to the folder in notes", () => {
    const p = project({
      "doc.yaml": withSchema("{ $ref: 'schemas/pet%20store.yaml#/Pet' }"),
      "schemas/pet store.yaml":
        "Pet:\n  type: object\n  properties:\n    ip: { type: string, format: ipv4 }\n    owner: { $ref: 'owner.yaml#/Owner' }\nOwner:\n  type: string\n",
      "schemas/owner.yaml": "Owner: { type: string, format: ipv6 }\n",
    });
    const result = importSpec({ input: p.doc, outSpec: p.out, schemaFile });
    writeSpecFolder(p.out, result.files);
    const text = written(p.out);
    expect(text).toContain(
      "format ipv4 (import: schemas/pet store.yaml#/Pet/properties/ip/format)",
    );
    expect(text).toContain("format ipv6 (import: schemas/owner.yaml#/Owner/format)");
    expect(text).not.toContain(p.dir);
  });

  it("--ref-root (or the config file's refRoot) widens the folder to one that holds the document", async () => {
    const p = project({ "doc.yaml": withSchema("{ $ref: '../outside/canary.yaml#/Thing' }") });
    const flag = await runCli(["import", p.doc, "--out-spec", p.out, "--ref-root", p.dir]);
    expect(flag.stderr).toBe("");
    expect(flag.status).toBe(0);
    expect(written(p.out)).toContain("CANARY");
    rmSync(p.out, { recursive: true });
    writeFileSync(join(p.dir, "apigen.config.json"), JSON.stringify({ refRoot: "." }));
    const config = await runCli(["import", "api/doc.yaml", "--out-spec", "spec"], p.dir);
    expect(config.stderr).toBe("");
    expect(config.status).toBe(0);
    rmSync(join(p.dir, "apigen.config.json"));
    // the live route the same: generate refuses the document alone, naming --ref-root, and
    // takes it with the flag (as mock, trigger, check and gaps do)
    const pkg = join(p.dir, "pkg");
    const alone = await runCli(["generate", "--spec", p.doc, "--out", pkg]);
    expect(alone.status).toBe(1);
    expect(alone.stderr).toMatch(/import-ref-outside: .*\(--ref-root names a wider folder\)/);
    const live = await runCli(["generate", "--spec", p.doc, "--out", pkg, "--ref-root", p.dir]);
    expect(live.stderr).toBe("");
    expect(live.status).toBe(0);
    expect(readFileSync(join(pkg, "src/types.ts"), "utf8")).toContain("CANARY");
    // A folder that does not hold the document is no widening: refused.
    const elsewhere = await runCli([
      "import",
      p.doc,
      "--out-spec",
      join(p.dir, "x"),
      "--ref-root",
      join(p.dir, "outside"),
    ]);
    expect(elsewhere.status).toBe(1);
    expect(elsewhere.stderr).toMatch(
      /error import-ref-root-invalid: --ref-root .*outside cannot be the folder \$refs may reach: it does not hold the document/,
    );
    // Still regular files only, and still inside the named folder.
    writeFileSync(p.doc, withSchema(`{ $ref: '${join("..", "..", "..", "x.yaml")}' }`));
    expect(refused(p.doc, { refRoot: p.dir })).toEqual([
      expect.stringContaining(
        `import-ref-outside: $ref ../../../x.yaml leads outside the folder .. (--ref-root)`,
      ),
    ]);
  });

  it("refuses a file over the size cap without reading it, and files that pass the total cap", () => {
    const p = project({
      "doc.yaml": withSchema("{ $ref: 'huge.yaml' }"),
      "two.yaml": withSchema("{ $ref: 'a.yaml#/A' }", "x-b: { $ref: 'b.yaml#/B' }\n"),
      "a.yaml": `A: { type: string, description: "${"a".repeat(400)}" }\n`,
      "b.yaml": `B: { type: string, description: "${"b".repeat(400)}" }\n`,
    });
    writeFileSync(join(p.api, "huge.yaml"), "");
    truncateSync(join(p.api, "huge.yaml"), 64 * 1024 * 1024 + 1); // sparse: nothing to read
    expect(refused(p.doc)).toEqual([
      expect.stringMatching(
        /doc\.yaml:11:23 import-file-unreadable: cannot read huge\.yaml: it is larger than 64 MiB \(at #\/paths/,
      ),
    ]);
    // The document and a.yaml fit the total; b.yaml, within the cap of a file, would pass it.
    const size = (name: string) => statSync(join(p.api, name)).size;
    const totalBytes = size("two.yaml") + size("a.yaml") + size("b.yaml") - 1;
    const doc = new OpenApiDocument(join(p.api, "two.yaml"), {
      limits: { fileBytes: 1024, totalBytes },
    });
    const from = { file: doc.root.path, pointer: "#/x-b" };
    expect(doc.resolveRef("a.yaml#/A", from).value).toMatchObject({ type: "string" });
    let message = "";
    try {
      doc.resolveRef("b.yaml#/B", from);
    } catch (error) {
      message = (error as DiagnosticsError).diagnostics[0]!.message;
    }
    expect(message).toMatch(
      /^cannot read b\.yaml: the files the document reaches would pass [\d.]+ KiB together \(at #\/x-b\)$/,
    );
  });

  it("refuses a document that is not a regular file, naming it as given", async () => {
    const p = project({});
    mkdirSync(join(p.api, "doc.yaml"));
    const run = await runCli(["import", "api/doc.yaml", "--out-spec", "spec"], p.dir);
    expect(run.status).toBe(1);
    expect(run.stderr.split("\n")[0]).toBe(
      "error import-file-unreadable: cannot read api/doc.yaml: it is a folder",
    );
  });
});

describe("every document the importer cannot take is a located diagnostic, never internal error", () => {
  it("resolves a schema named a% referenced as a%25 (a URI fragment, percent-decoded)", () => {
    const p = project({
      "doc.yaml": withSchema(
        "{ $ref: '#/components/schemas/a%25' }",
        "components:\n  schemas:\n    'a%':\n      type: object\n      properties: { x: { type: string } }\n",
      ),
    });
    const result = importSpec({ input: p.doc, outSpec: p.out, schemaFile });
    expect(result.types).toBe(1);
    const types = result.files.find((f) => f.path.startsWith("types/"))!;
    expect(parse(types.text).types).toEqual({ A: { fields: { x: "string" } } });
  });

  it("refuses a malformed % or a pointer that is not one, at the $ref", () => {
    const at = `(at ${schemaPointer})`;
    const cases: [string, string][] = [
      ["#/components/schemas/a%zz", "a % in it is not followed by two hexadecimal digits of UTF-8"],
      ["#/components/schemas/a%", "a % in it is not followed by two hexadecimal digits of UTF-8"],
      ["#/components/schemas/%C3", "a % in it is not followed by two hexadecimal digits of UTF-8"],
      ["b%.yaml#/B", "a % in its file part is not followed by two hexadecimal digits of UTF-8"],
      ["#components", "what follows # must be a JSON pointer, such as #/components/schemas/Pet"],
      ["#/components/schemas/a~2", "a ~ in a JSON pointer must be ~0 or ~1"],
    ];
    for (const [ref, detail] of cases) {
      const p = project({ "doc.yaml": withSchema(`{ $ref: '${ref}' }`) });
      expect(refused(p.doc)).toEqual([
        expect.stringMatching(/doc\.yaml:11:23 import-ref-malformed: /),
      ]);
      expect(refused(p.doc)[0]).toContain(`$ref ${ref} is not a valid reference: ${detail} ${at}`);
    }
  });

  it("refuses a YAML alias bomb at its first alias, without expanding it", () => {
    const level = (name: string, of: string) =>
      `  ${name}: &${name} [${Array(10).fill(`*${of}`).join(", ")}]\n`;
    const p = project({
      "doc.yaml": withSchema(
        "{ type: string }",
        `x-bomb:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n${level("b", "a")}${level("c", "b")}${level("d", "c")}${level("e", "d")}${level("f", "e")}${level("g", "f")}${level("h", "g")}${level("i", "h")}`,
      ),
    });
    expect(refused(p.doc)).toEqual([
      expect.stringMatching(
        /doc\.yaml:14:10 yaml-alias-bomb: aliases add more than 1000000 nodes to a file of \d+ nodes/,
      ),
    ]);
  });

  it("takes an anchor aliased once per operation, as Fern writes security (Langfuse: about 150)", () => {
    const operations = Array.from(
      { length: 160 },
      (_, i) =>
        `  /items/${i}:\n    get:\n      operationId: item${i}\n      tags: [items]\n      security: ${i === 0 ? "&ref_0\n        - bearer: []" : "*ref_0"}\n      responses:\n        '204': { description: ok }\n`,
    ).join("");
    const p = project({
      "doc.yaml": `openapi: 3.0.3\ninfo: { title: Shop, version: '1' }\ncomponents:\n  securitySchemes:\n    bearer: { type: http, scheme: bearer }\npaths:\n${operations}`,
    });
    const result = importSpec({ input: p.doc, outSpec: p.out, schemaFile });
    expect(result.endpoints).toBe(160);
    const endpoints = result.files.find((f) => f.path === "endpoints/items.yaml")!;
    const items = parse(endpoints.text).endpoints as Record<string, { auth?: unknown }>;
    expect(items["items.item159"]!.auth).toEqual(["bearer"]);
  });

  it("takes anchored schemas merged into others a thousand times (Cardano's wallet API: 15 times its own nodes)", () => {
    const fields = Array.from({ length: 60 }, (_, i) => `      f${i}: { type: string }`).join("\n");
    const schemas = Array.from(
      { length: 1000 },
      (_, i) =>
        `    S${i}:\n      type: object\n      properties:\n        <<: *base\n        own${i}: { type: integer }`,
    ).join("\n");
    const p = project({
      "doc.yaml": `openapi: 3.0.3\ninfo: { title: Shop, version: '1' }\nx-base: &base\n${fields}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: '#/components/schemas/S999' }\ncomponents:\n  schemas:\n${schemas}\n`,
    });
    const result = importSpec({ input: p.doc, outSpec: p.out, schemaFile });
    expect(result.endpoints).toBe(1);
    // each schema has the merged fields and its own
    const types = parse(result.files.find((f) => f.path.startsWith("types"))!.text).types as Record<
      string,
      { fields: Record<string, unknown> }
    >;
    expect(Object.keys(types.S999!.fields)).toHaveLength(61);
  });

  it("merges as the YAML library does, each merge's aliases resolved in one walk of the document", () => {
    // explicit keys before and after a merge, two sources in order, a merge inside an anchor,
    // a quoted "<<" (a key like any other), merges inside a list
    const text = `a: &a { x: 1, y: 2 }\nb: &b { y: 3, z: 4 }\nc: { w: 0, <<: [*a, *b], y: 9 }\nd: { <<: *b, z: 5 }\ne: &e { <<: *a, q: 1 }\nf: { <<: *e }\ng: { "<<": *a }\nh: [*a, { <<: *a }]\n`;
    const parsed = () => parseDocument(text, { uniqueKeys: false, merge: true });
    const lines = new LineIndex("merges.yaml", text);
    const ours = dataWithinAliasBudget(parsed(), lines, new DiagnosticBag(), true)!.value;
    expect(JSON.stringify(ours)).toBe(JSON.stringify(parsed().toJS()));
    expect(ours).toMatchObject({ c: { w: 0, x: 1, y: 9, z: 4 }, f: { x: 1, y: 2, q: 1 } });
  });

  it("refuses an alias to no anchor and an alias inside its own anchor", () => {
    const p = project({
      "doc.yaml": withSchema("{ type: string }", "x-a: *nowhere\n"),
      "cycle.yaml": withSchema("{ type: string }", "x-a: &loop { self: *loop }\n"),
    });
    expect(refused(p.doc)).toEqual([
      expect.stringMatching(/doc\.yaml:12:6 yaml-alias-unresolved: alias \*nowhere has no anchor/),
    ]);
    expect(refused(join(p.api, "cycle.yaml"))).toEqual([
      expect.stringMatching(/cycle\.yaml:12:20 yaml-alias-cycle: alias \*loop is inside/),
    ]);
  });

  it("refuses a schema nested 1,000 deep, in JSON and in YAML, at the first level past the limit", () => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 1000; i++) schema = { type: "object", properties: { p: schema } };
    const p = project({ "doc.json": jsonWith(schema) });
    const limit = `import-too-deep: nested more than ${maxDocumentDepth} levels deep`;
    const [json] = refused(join(p.api, "doc.json"));
    // The pointer names the first object past the limit: the document's 7 levels, then p's.
    const below = (maxDocumentDepth - 7) / 2;
    const pointer = `${schemaPointer}${"/properties/p".repeat(below)}`;
    expect(json).toContain(limit);
    expect(json).toContain(`(at ${pointer})`);
    expect(json).toMatch(/doc\.json:1:\d+ /);
    let yaml = "{ type: string }";
    for (let i = 0; i < 1000; i++) yaml = `{ type: object, properties: { p: ${yaml} } }`;
    writeFileSync(p.doc, withSchema(yaml));
    // found before the parser, which may run out of stack on it (fast-yaml.ts tooDeepAt): the
    // first node more than 258 levels deep, the key `p` of the 125th `properties` (the schema's
    // `{` is the 9th level at column 23; each step of 33 columns nests two), whatever ran before
    expect(refused(p.doc)).toEqual([expect.stringMatching(/doc\.yaml:11:4145 import-too-deep: /)]);
  });

  it("imports a schema nested 100 deep (within the limit) without running out of stack", () => {
    let schema: unknown = { type: "string" };
    for (let i = 0; i < 100; i++) schema = { type: "object", properties: { p: schema } };
    const p = project({ "doc.json": jsonWith(schema) });
    const result = importSpec({ input: join(p.api, "doc.json"), outSpec: p.out, schemaFile });
    expect(result.endpoints).toBe(1);
  });

  /** A document whose one GET takes `filter`, a deepObject query parameter of `schema`. */
  const deepObjectDocument = (schema: unknown, schemas: Record<string, unknown>) =>
    documentWith(
      {
        parameters: [{ name: "filter", in: "query", style: "deepObject", schema }],
        responses: { "204": { description: "ok" } },
      },
      schemas,
    );

  it("imports a deepObject query parameter whose schema refers to itself, stopping where it recurs", () => {
    const doc = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Shop", version: "1" },
      paths: {
        "/a": {
          get: {
            parameters: [
              {
                name: "filter",
                in: "query",
                style: "deepObject",
                schema: { $ref: "#/components/schemas/Filter" },
              },
            ],
            responses: { "204": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          Filter: {
            type: "object",
            properties: { name: { type: "string" }, and: { $ref: "#/components/schemas/Filter" } },
          },
        },
      },
    });
    const p = project({ "doc.json": doc });
    const result = importSpec({ input: join(p.api, "doc.json"), outSpec: p.out, schemaFile });
    const text = result.files.map((f) => f.text).join("\n");
    expect(text).toContain("filter:");
    expect(text).not.toContain("filter[and]");
    expect(text).toContain(
      "field and of query parameter filter (an object of a schema it is inside, which recurs) cannot travel in style deepObject; it is left out",
    );
  });

  it("splits a deepObject nesting objects 8 levels deep, and no deeper", () => {
    let schema: Record<string, unknown> = { type: "object", properties: { x: { type: "string" } } };
    for (let i = 0; i < 12; i++)
      schema = { type: "object", properties: { x: { type: "string" }, n: schema } };
    const p = project({ "doc.json": deepObjectDocument(schema, {}) });
    const result = importSpec({ input: join(p.api, "doc.json"), outSpec: p.out, schemaFile });
    const text = result.files.map((f) => f.text).join("\n");
    expect(text).toContain(`filter${"[n]".repeat(8)}:`);
    expect(text).not.toContain(`filter${"[n]".repeat(9)}:`);
    expect(text).toContain("an object nested more than 8 levels deep");
  });

  it("splits a wide recursive deepObject (OpenSearch's query language as a GET's query) into at most 64 parameters, at once", () => {
    // 40 kinds of query, each holding 10 objects of its own and a query again: split whole,
    // before the budget, this was 40 x 10^8 parameters (the import never ended)
    const kinds: Record<string, unknown> = {};
    const components: Record<string, unknown> = { Query: { type: "object", properties: kinds } };
    for (let k = 0; k < 40; k++) {
      const parts: Record<string, unknown> = { inner: { $ref: "#/components/schemas/Query" } };
      for (let j = 0; j < 10; j++)
        parts[`part${j}`] = {
          type: "object",
          properties: {
            v: { type: "string" },
            deeper: { type: "object", properties: { w: { type: "integer" } } },
          },
        };
      components[`Kind${k}`] = {
        type: "object",
        properties: { boost: { type: "number" }, ...parts },
      };
      kinds[`kind${k}`] = { $ref: `#/components/schemas/Kind${k}` };
    }
    const p = project({
      "doc.json": deepObjectDocument({ $ref: "#/components/schemas/Query" }, components),
    });
    const result = importSpec({ input: join(p.api, "doc.json"), outSpec: p.out, schemaFile });
    const text = result.files.map((f) => f.text).join("\n");
    const params = new Set(text.match(/^ {6}filter\[[^\n]*?:/gm));
    expect(params.size).toBe(64);
    expect(text).toContain("a nested object past the 64 the parameter is split into");
    expect(text).toContain("an object of a schema it is inside, which recurs");
  });

  it("imports a 5,000-long $ref chain (a name each) and one through properties, and x-extends in a circle", () => {
    const chain: Record<string, unknown> = {};
    const through: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) {
      const next = { $ref: `#/components/schemas/S${i + 1}` };
      chain[`S${i}`] = i === 4999 ? { type: "string" } : next;
      through[`S${i}`] = i === 4999 ? { type: "string" } : { type: "object", properties: { next } };
    }
    const p = project({
      "chain.json": jsonWith({ $ref: "#/components/schemas/S0" }, chain),
      "through.json": jsonWith({ $ref: "#/components/schemas/S0" }, through),
      "circle.json": jsonWith(
        { $ref: "#/components/schemas/A" },
        {
          A: { type: "object", "x-extends": "B", properties: { a: { type: "string" } } },
          B: { type: "object", "x-extends": "A", properties: { b: { type: "string" } } },
        },
      ),
    });
    const run = (name: string) =>
      importSpec({ input: join(p.api, name), outSpec: p.out, schemaFile });
    const types = (name: string) =>
      Object.assign(
        {},
        ...run(name)
          .files.filter((f) => f.path.startsWith("types/"))
          .map((f) => parse(f.text).types),
      );
    const direct = types("chain.json");
    expect(Object.keys(direct)).toHaveLength(5000);
    expect([direct.S0, direct.S1, direct.S4998, direct.S4999]).toEqual([
      "S1",
      "S2",
      "S4999",
      "string",
    ]);
    const viaFields = types("through.json");
    expect(Object.keys(viaFields)).toHaveLength(5000);
    expect(viaFields.S0).toEqual({ fields: { next: "S1" } });
    expect(viaFields.S4998).toEqual({ fields: { next: "S4999" } });
    expect(Object.keys(types("circle.json")).sort()).toEqual(["A", "B"]);
  });

  it("leaves out an allOf member that copies its own schema in again (a $ref cycle), with a note", () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const copying = (name: string) => ({ allOf: [ref("X"), ref(name)] });
    const p = project({
      "doc.json": jsonWith(ref("A"), {
        X: { type: "object", properties: { x: { type: "string" } } },
        A: { type: "object", ...copying("B"), properties: { p: copying("B") } },
        B: { type: "object", properties: { q: copying("A") } },
      }),
    });
    const result = importSpec({ input: join(p.api, "doc.json"), outSpec: p.out, schemaFile });
    const text = result.files.map((f) => f.text).join("\n");
    expect(text).toContain(
      "an allOf member copied into its own fields (a $ref cycle): left out (import: #/components/schemas/B/properties/q/allOf/1)",
    );
  });

  it("refuses fields copied in through allOf 1,000 $refs deep at the place the limit is passed", () => {
    const schemas: Record<string, unknown> = { X: { type: "object" } };
    for (let i = 0; i < 1000; i++)
      schemas[`C${i}`] = {
        type: "object",
        properties: {
          n: {
            allOf: [{ $ref: "#/components/schemas/X" }, { $ref: `#/components/schemas/C${i + 1}` }],
          },
        },
      };
    schemas.C1000 = { type: "object", properties: { end: { type: "string" } } };
    const p = project({ "doc.json": jsonWith({ $ref: "#/components/schemas/C0" }, schemas) });
    expect(refused(join(p.api, "doc.json"))).toEqual([
      expect.stringMatching(
        /doc\.json:1:\d+ import-schema-too-deep: schemas nest more than 300 levels deep here, counting the fields allOf copies in from each \$ref; refused \(at #\/components\/schemas\/C\d+\/properties\/n\)/,
      ),
    ]);
  });

  it("refuses two keys of one YAML mapping that are one key of the data, at the second", () => {
    const p = project({
      "doc.yaml": withSchema(
        "{ type: string }",
        "components:\n  schemas:\n    1: { type: string }\n    '1': { type: integer }\n",
      ),
    });
    expect(refused(p.doc)).toEqual([
      expect.stringMatching(
        /doc\.yaml:15:5 yaml-duplicate-key: duplicate key 1 in the same mapping/,
      ),
    ]);
  });

  it("locates a problem in a 20 MB JSON document by scanning it, and refuses YAML past 16 MiB", () => {
    const schemas: Record<string, unknown> = {};
    const description = "d".repeat(1000);
    for (let i = 0; i < 20_000; i++) schemas[`S${i}`] = { type: "string", description };
    schemas.Last = { $ref: "#/components/schemas/Missing" };
    const p = project({ "doc.json": jsonWith({ type: "string" }, schemas).replace(/,"/g, ',\n"') });
    const lines = readFileSync(join(p.api, "doc.json"), "utf8").split("\n");
    const line = lines.findIndex((l) => l.startsWith('"Last"')) + 1;
    const started = performance.now();
    expect(refused(join(p.api, "doc.json"))).toEqual(
      [
        `${"doc.json"}:${line}:8 import-ref-broken: $ref #/components/schemas/Missing points at nothing; an overlay can add what it names (docs/openapi-documents.md, Overlays) (at #/components/schemas/Last)`,
      ].map((want) => expect.stringContaining(want)),
    );
    // Parsing it again with the yaml package, as before, took half a minute and a gigabyte.
    expect(performance.now() - started).toBeLessThan(30_000);
    writeFileSync(p.doc, `# ${"x".repeat(17 * 1024 * 1024)}\n${withSchema("{ type: string }")}`);
    expect(refused(p.doc)).toEqual([
      expect.stringContaining(
        "doc.yaml:1:1 import-file-unreadable: cannot read doc.yaml: a YAML document larger than 16 MiB (write it as JSON, or split it into files its $refs name)",
      ),
    ]);
    writeFileSync(join(p.api, "doc.json"), `{"x": "${"x".repeat(17 * 1024 * 1024)}", }`);
    expect(refused(join(p.api, "doc.json"))).toEqual([
      expect.stringMatching(/doc\.json:1:\d+ import-syntax: not valid JSON or YAML: /),
    ]);
  });

  it("takes chains of unions and allOfs of a few $refs each to the next in time linear in their length", () => {
    // 30 levels: each of these took time exponential in the length (the query shape of a
    // parameter walked every path through the chain): the first two never ended, the third took 3 s
    const ref = (i: number) => ({ $ref: `#/components/schemas/L${i + 1}` });
    const chains: Record<string, (i: number) => unknown> = {
      unions: (i) => ({ oneOf: [ref(i), ref(i), ref(i)] }),
      allOfs: (i) => ({
        allOf: [ref(i), ref(i), { type: "object", properties: { [`a${i}`]: { type: "string" } } }],
      }),
      mixed: (i) => ({
        oneOf: [
          { allOf: [ref(i), { type: "object", properties: { k: { type: "integer" } } }] },
          { anyOf: [ref(i), { type: "array", items: ref(i) }] },
          ref(i),
        ],
      }),
    };
    for (const [name, level] of Object.entries(chains)) {
      const schemas: Record<string, unknown> = {};
      for (let i = 0; i < 30; i++)
        schemas[`L${i}`] =
          i === 29 ? { type: "object", properties: { end: { type: "string" } } } : level(i);
      const start = { $ref: "#/components/schemas/L0" };
      const doc = JSON.stringify({
        openapi: "3.0.3",
        info: { title: name, version: "1" },
        paths: {
          "/a": {
            get: {
              parameters: [
                { name: "q", in: "query", schema: start },
                { name: "d", in: "query", style: "deepObject", schema: start },
              ],
              responses: {
                "200": { description: "ok", content: { "application/json": { schema: start } } },
              },
            },
          },
        },
        components: { schemas },
      });
      const p = project({ "doc.json": doc });
      // the live route (import's reading, the IR, every emitter), in a process the test can stop
      const run = cliProcess(["generate", "--spec", join(p.api, "doc.json"), "--out", p.out]);
      expect(run.stderr, name).toBe("");
      expect(run.status, name).toBe(0);
    }
  });

  it("says none of this as internal error through the command line", () => {
    let deep = "{ type: string }";
    for (let i = 0; i < 1000; i++) deep = `{ type: object, properties: { p: ${deep} } }`;
    const p = project({
      "doc.yaml": withSchema(deep),
      "pct.yaml": withSchema("{ $ref: '#/components/schemas/%' }"),
    });
    for (const doc of [p.doc, join(p.api, "pct.yaml")]) {
      const run = cliProcess(["import", doc, "--out-spec", p.out]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/\.yaml:\d+:\d+ - error import-/);
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
