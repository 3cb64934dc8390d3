/**
 * Swagger 2.0 documents, read as the OpenAPI 3.0 documents they convert to
 * (generator/import/swagger2.ts), by both routes: `import` and `generate --spec <document>`.
 * Unit tables for the conversion and for the map of where its parts came from; then a small
 * document with what 2.0 spells its own way (test/fixtures/import/swagger2/shelf.yaml)
 * imported, generated, and its notes and errors placed in the file the user has. Docker's
 * Engine API (Swagger 2.0) is in the corpus: test/corpus-calls.test.ts takes it through the
 * type-checks and the typed calls.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import type { JsonObject } from "../generator/import/document.ts";
import { PointerMap } from "../generator/import/pointer-map.ts";
import { fromSwagger2 } from "../generator/import/swagger2.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";
import { comparableModel } from "./support/corpus.ts";

const scratch = tempDir("apigen-swagger2-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const shelf = join(repoRoot, "test/fixtures/import/swagger2/shelf.yaml");
const shelfText = readFileSync(shelf, "utf8");
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");

/** The 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split("\n").length;
}

const info = { title: "T", version: "1.0.0" };
const convert = (doc: JsonObject) => fromSwagger2({ swagger: "2.0", info, ...doc });

describe("the conversion (given a Swagger 2.0 part, want its OpenAPI 3.0 form)", () => {
  it.each<[string, JsonObject, JsonObject]>([
    [
      "host, basePath and schemes: https first, no trailing slash",
      { host: "h.example", basePath: "/v2/", schemes: ["http", "https"], paths: {} },
      { servers: [{ url: "https://h.example/v2" }, { url: "http://h.example/v2" }] },
    ],
    ["a basePath without a host", { basePath: "/api", paths: {} }, { servers: [{ url: "/api" }] }],
    ["neither: no servers", { paths: {} }, {}],
    [
      "a schema's x-nullable, discriminator by name, file and definition references",
      {
        paths: {},
        definitions: {
          Pet: {
            type: "object",
            discriminator: "kind",
            properties: {
              kind: { type: "string" },
              photo: { type: "file" },
              owner: { $ref: "#/definitions/Owner", "x-nullable": true },
              tags: { type: "array", items: { $ref: "#/definitions/Tag" }, "x-nullable": false },
            },
          },
        },
      },
      {
        components: {
          schemas: {
            Pet: {
              type: "object",
              discriminator: { propertyName: "kind" },
              properties: {
                kind: { type: "string" },
                photo: { type: "string", format: "binary" },
                owner: { $ref: "#/components/schemas/Owner", nullable: true },
                tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } },
              },
            },
          },
        },
      },
    ],
    [
      "security schemes: basic as HTTP basic, each OAuth 2 flow under its OpenAPI 3 name",
      {
        paths: {},
        securityDefinitions: {
          b: { type: "basic", description: "d" },
          k: { type: "apiKey", name: "key", in: "query" },
          app: { type: "oauth2", flow: "application", tokenUrl: "https://t", scopes: { a: "A" } },
          pw: { type: "oauth2", flow: "password", tokenUrl: "https://t", scopes: {} },
          imp: { type: "oauth2", flow: "implicit", authorizationUrl: "https://a", scopes: {} },
        },
      },
      {
        components: {
          securitySchemes: {
            b: { type: "http", scheme: "basic", description: "d" },
            k: { type: "apiKey", name: "key", in: "query" },
            app: {
              type: "oauth2",
              flows: { clientCredentials: { scopes: { a: "A" }, tokenUrl: "https://t" } },
            },
            pw: { type: "oauth2", flows: { password: { scopes: {}, tokenUrl: "https://t" } } },
            imp: {
              type: "oauth2",
              flows: { implicit: { scopes: {}, authorizationUrl: "https://a" } },
            },
          },
        },
      },
    ],
  ])("%s", (_, given, want) => {
    const { document } = convert(given);
    expect(document).toEqual({ openapi: "3.0.3", info, paths: {}, ...want });
  });

  it("trims a basePath's trailing slashes in time linear in its length", () => {
    const started = performance.now();
    const { document } = convert({ host: "h", basePath: `/v1${"/".repeat(200_000)}x`, paths: {} });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((document.servers as JsonObject[])[0]!.url).toMatch(/x$/);
    expect(
      convert({ host: "h", basePath: `/${"/".repeat(1_000)}`, paths: {} }).document.servers,
    ).toEqual([{ url: "https://h" }]);
  });

  it("moves a path's body parameter into each operation, and an operation's own parameter replaces the path's", () => {
    const { document } = convert({
      consumes: ["application/json", "application/xml"],
      paths: {
        "/a/{id}": {
          parameters: [
            { name: "id", in: "path", required: true, type: "string" },
            { name: "v", in: "query", type: "integer" },
            { name: "b", in: "body", schema: { $ref: "#/definitions/B" } },
          ],
          put: { responses: { "204": { description: "ok" } } },
          post: {
            parameters: [{ name: "v", in: "query", type: "string", enum: ["x"] }],
            responses: { "204": { description: "ok" } },
          },
        },
      },
    });
    const item = (document.paths as JsonObject)["/a/{id}"] as JsonObject;
    expect(item.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      { name: "v", in: "query", schema: { type: "integer" } },
    ]);
    const body = {
      content: {
        "application/json": { schema: { $ref: "#/components/schemas/B" } },
        "application/xml": { schema: { $ref: "#/components/schemas/B" } },
      },
    };
    expect((item.put as JsonObject).requestBody).toEqual(body);
    expect(item.post).toEqual({
      parameters: [{ name: "v", in: "query", schema: { type: "string", enum: ["x"] } }],
      responses: { "204": { description: "ok" } },
      requestBody: body,
    });
  });

  it.each<[string, JsonObject, JsonObject | undefined]>([
    ["csv in a query (the default)", { in: "query" }, { style: "form", explode: false }],
    ["multi", { in: "query", collectionFormat: "multi" }, { style: "form", explode: true }],
    ["ssv", { in: "query", collectionFormat: "ssv" }, { style: "spaceDelimited", explode: false }],
    [
      "pipes",
      { in: "query", collectionFormat: "pipes" },
      { style: "pipeDelimited", explode: false },
    ],
    ["csv in a header", { in: "header" }, { style: "simple", explode: false }],
    [
      "multi in a header, which has no such style",
      { in: "header", collectionFormat: "multi" },
      undefined,
    ],
  ])("collectionFormat %s", (_, given, want) => {
    const param = { name: "p", type: "array", items: { type: "string" }, ...given };
    const { document } = convert({
      paths: { "/a": { get: { parameters: [param], responses: {} } } },
    });
    const get = ((document.paths as JsonObject)["/a"] as JsonObject).get as JsonObject;
    const [converted] = get.parameters as JsonObject[];
    expect({ style: converted!.style, explode: converted!.explode }).toEqual(
      want ?? { style: undefined, explode: undefined },
    );
  });

  it("keeps what it cannot carry as a loss at its place in the Swagger document", () => {
    const param = { name: "p", in: "query", type: "array", items: {}, collectionFormat: "tsv" };
    const { losses } = convert({
      paths: { "/a": { get: { parameters: [param], responses: {} } } },
    });
    expect(losses).toEqual([
      { pointer: "#/paths/~1a/get/parameters/0/collectionFormat", what: "collectionFormat tsv" },
    ]);
  });

  it("makes form fields one object body: multipart with a file among them, else URL-encoded", () => {
    const op = (fields: JsonObject[]) =>
      (
        (
          (
            convert({ paths: { "/a": { post: { parameters: fields, responses: {} } } } }).document
              .paths as JsonObject
          )["/a"] as JsonObject
        ).post as JsonObject
      ).requestBody;
    expect(op([{ name: "n", in: "formData", type: "string", required: true }])).toEqual({
      content: {
        "application/x-www-form-urlencoded": {
          schema: { type: "object", properties: { n: { type: "string" } }, required: ["n"] },
        },
      },
      required: true,
    });
    expect(op([{ name: "f", in: "formData", type: "file", description: "the bytes" }])).toEqual({
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { f: { type: "string", format: "binary", description: "the bytes" } },
          },
        },
      },
    });
  });

  it("keeps names a document chose as own entries, `__proto__` among them", () => {
    // parsed, as a document is: `__proto__` an own key (a literal's would be the prototype)
    const given = JSON.parse(`{
      "consumes": ["__proto__"],
      "parameters": { "__proto__": { "name": "q", "in": "query", "type": "string" } },
      "paths": { "/a": { "post": { "responses": {}, "parameters": [
        { "$ref": "#/parameters/__proto__" },
        { "name": "b", "in": "body", "schema": { "type": "string" } }
      ] } } }
    }`) as JsonObject;
    const { document } = convert(given);
    const post = ((document.paths as JsonObject)["/a"] as JsonObject).post as JsonObject;
    const content = (post.requestBody as JsonObject).content as JsonObject;
    expect(Object.hasOwn(content, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(post.parameters).toEqual([{ $ref: "#/components/parameters/__proto__" }]);
    const parameters = (document.components as JsonObject).parameters as JsonObject;
    expect(Object.hasOwn(parameters, "__proto__")).toBe(true);
  });

  it("puts a response's schema in each media type produced, with its example and headers", () => {
    const { document } = convert({
      produces: ["application/json", "text/csv"],
      paths: {
        "/a": {
          get: {
            responses: {
              "200": {
                description: "ok",
                schema: { type: "string" },
                examples: { "text/csv": "a,b" },
                headers: { "X-N": { type: "integer", description: "n" } },
              },
              "404": { $ref: "#/responses/Missing" },
            },
          },
        },
      },
    });
    const get = ((document.paths as JsonObject)["/a"] as JsonObject).get as JsonObject;
    expect(get.responses).toEqual({
      "200": {
        description: "ok",
        content: {
          "application/json": { schema: { type: "string" } },
          "text/csv": { schema: { type: "string" }, example: "a,b" },
        },
        headers: { "X-N": { schema: { type: "integer" }, description: "n" } },
      },
      "404": { $ref: "#/components/responses/Missing" },
    });
  });
});

describe("where a converted part came from", () => {
  const map = new PointerMap();
  map.record("#/components/schemas", "#/definitions");
  map.record("#/paths/~1a/get/parameters/0", "#/paths/~1a/get/parameters/2");
  map.record("#/paths/~1a/get/parameters/0/schema", "#/paths/~1a/get/parameters/2");
  map.record("#/paths/~1a/get/requestBody", "#/paths/~1a/get/parameters/0");
  it.each([
    ["#/components/schemas/Pet/properties/id", "#/definitions/Pet/properties/id"],
    ["#/components/schemas", "#/definitions"],
    ["#/paths/~1a/get/parameters/0/schema/items", "#/paths/~1a/get/parameters/2/items"],
    ["#/paths/~1a/get/parameters/0/description", "#/paths/~1a/get/parameters/2/description"],
    ["#/paths/~1a/get/requestBody", "#/paths/~1a/get/parameters/0"],
    ["#/paths/~1a/get/responses/200", "#/paths/~1a/get/responses/200"],
    ["#/info/title", "#/info/title"],
    ["#", "#"],
  ])("%s came from %s", (converted, original) => {
    expect(map.original(converted)).toBe(original);
  });
});

describe("a Swagger 2.0 document by both routes", () => {
  const outSpec = join(scratch, "spec");
  const result = importSpec({ input: shelf, outSpec, schemaFile });
  writeSpecFolder(outSpec, result.files);
  const read = (path: string) => parse(readFileSync(join(outSpec, path), "utf8"));

  it("imports servers, credentials, parameters, bodies and responses as the format has them", () => {
    const api = read("api.yaml");
    expect(api.environments).toEqual({
      production: { baseUrl: "https://shelf.example.com/v1" },
      server_2: { baseUrl: "http://shelf.example.com/v1" },
    });
    expect(api.credentials.basic).toEqual({ in: "basic" });
    expect(api.credentials.key).toEqual({ in: "header", header: "X-Key" });
    expect(api.errors).toEqual({ body: "Problem" });
    const endpoints = read("endpoints/books.yaml").endpoints;
    expect(endpoints["books.list"].params).toEqual({
      limit: { in: "query", type: "integer", minimum: 1, maximum: 100 },
      tags: { in: "query", type: "string[]" },
      ids: { in: "query", type: "integer[]", style: "pipe" },
      fields: { in: "query", type: "string[]", style: "comma" },
    });
    expect(endpoints["books.list"].response.headers).toEqual({
      "X-Total": { type: "integer", description: "how many there are" },
    });
    expect(endpoints["books.add"]).toMatchObject({ auth: ["basic"], body: "Book" });
    expect(endpoints["books.putCover"]).toMatchObject({
      contentType: "multipart/form-data",
      body: { fields: { file: { type: "binary", required: true }, caption: "string" } },
      params: { id: "string" },
      errors: [{ status: 404, description: "not found" }],
    });
    expect(endpoints["books.rate"]).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      body: { fields: { stars: { type: "integer", required: true } } },
    });
    expect(read("types/books.yaml").types.Book.fields.subtitle).toEqual({
      type: "string",
      nullable: true,
    });
    // a $ref naming this file by its name follows its definitions where they moved: the
    // same Book, not "points at nothing" (swagger-parser's circular refs) nor a copy
    expect(read("types/shared.yaml").types.Shelved).toBe("Book");
  });

  it("names every loss by its place in the Swagger document", () => {
    const api = read("api.yaml");
    expect(api.api.undocumented).toBe(
      "collectionFormat tsv (import: #/paths/~1books/get/parameters/3/collectionFormat)",
    );
    // an OAuth 2 flow under its OpenAPI 3 name, carried whole; one without the URL it needs is noted
    expect(api.credentials.oauth).toEqual({
      in: "oauth2",
      flows: {
        authorizationCode: {
          authorizationUrl: "https://shelf.example.com/auth",
          tokenUrl: "https://shelf.example.com/token",
          scopes: { read: "Read the shelf" },
        },
      },
    });
    expect(api.credentials.legacy).toMatchObject({ in: "header", scheme: "Bearer" });
    expect(api.credentials.legacy.undocumented[0]).toBe(
      "OAuth flow implicit without authorizationUrl; left out (import: #/securityDefinitions/legacy/flows/implicit)",
    );
    // a calendar date is a format of the spec's own, kept
    expect(read("types/books.yaml").types.Book.fields.published).toMatchObject({ format: "date" });
    expect(read("types/books.yaml").types.Book.fields.published.undocumented).toBeUndefined();
  });

  it("gives the same model by the live route, whose gaps are at their lines in the document", async () => {
    // the models but for the files they name (the folder's four, the document)
    const withoutFiles = (json: string) => ({ ...JSON.parse(json), sourceFiles: [] });
    const viaFolder = comparableModel(loadApiModel({ specDir: outSpec }).model, outSpec, "/");
    const live = comparableModel(loadApiModel({ specDir: shelf }).model, shelf, "#");
    expect(withoutFiles(live)).toEqual(withoutFiles(viaFolder));
    const gaps = await runCli(["gaps", "--spec", shelf]);
    expect(gaps.status, gaps.stderr).toBe(0);
    // each gap at the line of what it names (a mapping's at its first entry)
    const at = (needle: string, says: string) =>
      new RegExp(
        `^test/fixtures/import/swagger2/shelf\\.yaml:${lineOf(shelfText, needle)}:\\d+ {2}.*${says}`,
        "m",
      );
    expect(gaps.stdout).toMatch(at("collectionFormat: tsv", "collectionFormat tsv"));
    expect(gaps.stdout).toMatch(
      at("type: oauth2\n    flow: implicit", "oauth2 security scheme without a usable flow"),
    );
  });

  it("generates a package whose client takes the body, the file and the form", async () => {
    const out = join(scratch, "out");
    const run = await runCli(["--spec", shelf, "--out", out]);
    expect(run.status, run.stderr).toBe(0);
    const client = readFileSync(join(out, "src/client.ts"), "utf8");
    expect(client).toMatch(/"id":"books\.putCover","method":"PUT","path":"\/books\/\{id\}\/cover"/);
    expect(client).toMatch(/"id":"books\.add","method":"POST"/);
  });

  it("reports a broken reference as the user wrote it, at its line", async () => {
    const broken = join(scratch, "broken.yaml");
    writeFileSync(
      broken,
      [
        "swagger: 2.0",
        "info: { title: Broken, version: 1.0.0 }",
        "paths:",
        "  /a:",
        "    get:",
        "      responses:",
        "        200:",
        "          description: ok",
        "          schema:",
        '            $ref: "#/definitions/Missing"',
        "",
      ].join("\n"),
    );
    const run = await runCli(["--spec", broken, "--out", join(scratch, "broken-out")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /broken\.yaml:10:\d+ - error import-ref-broken: \$ref #\/definitions\/Missing points at nothing; an overlay can add what it names \(docs\/openapi-documents\.md, Overlays\) \(at #\/paths\/~1a\/get\/responses\/200\/schema\)/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("says how to write a path file's #/... that only the root file has (HAProxy's split document)", async () => {
    const dir = join(scratch, "split");
    mkdirSync(join(dir, "paths"), { recursive: true });
    writeFileSync(
      join(dir, "spec.yaml"),
      [
        "swagger: 2.0",
        "info: { title: Split, version: 1.0.0 }",
        "paths:",
        "  /:",
        '    $ref: "paths/general.yaml#/root"',
        "responses:",
        "  DefaultError: { description: an error }",
        "",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "paths/general.yaml"),
      "root:\n  get:\n    responses:\n      default:\n        $ref: '#/responses/DefaultError'\n",
    );
    const run = await runCli(["--spec", join(dir, "spec.yaml"), "--out", join(dir, "out")]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "paths/general.yaml:5:9 - error import-ref-broken: $ref #/responses/DefaultError points at nothing; the document's root file has it, and a $ref names its own file's parts: write ../spec.yaml#/responses/DefaultError, or bundle the files into one first (at #/root/get/responses/default)",
    );
  });
});
