/**
 * Swagger 2.0 documents, random and partly hostile (wrong kinds in every slot, references to
 * nothing, `__proto__` names, media types and formats nobody uses), through the importer
 * (generator/import/swagger2.ts, then the one OpenAPI reader): each run imports, or ends with
 * diagnostics that each point at a line and column of the document; nothing else is thrown.
 * Whatever it writes, `generate` accepts (issue 31's invariant 1), every gap names a place
 * in the document, and every operation of the document is an endpoint.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DiagnosticsError } from "../../generator/diagnostics/diagnostic.ts";
import { importSpec, writeSpecFolder } from "../../generator/import/import.ts";
import { runPipeline } from "../../generator/pipeline.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const work = tempDir("apigen-fuzz-swagger2-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const names = ["Pet", "Owner", "__proto__", "a/b", "x~y", "constructor"];
const name = fc.constantFrom(...names);
/** A name that `$ref`s use: mostly one every document defines (Pet, Owner), at times one it may not. */
const refName = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("Pet", "Owner") },
  { weight: 1, arbitrary: name },
);
/** Now and then a value of the wrong kind, where a document is expected to hold a mapping. */
const hostile = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
);
const maybeHostile = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: hostile });

const primitive = fc.record(
  {
    type: fc.constantFrom("string", "integer", "number", "boolean", "file", "object", "nope"),
    format: fc.constantFrom("int64", "date-time", "binary", "byte", "uuid", "wat"),
    enum: fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }),
    "x-nullable": fc.boolean(),
  },
  { requiredKeys: ["type"] },
);

const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    fc.record({ $ref: refName.map((n) => `#/definitions/${n}`) }),
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(name, tie("schema"), { maxKeys: 3 }),
        required: fc.array(name, { maxLength: 2 }),
        discriminator: fc.oneof(name, fc.integer()),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constant("array"), items: tie("schema") }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
  ),
})).schema;

const parameter = fc.oneof(
  fc.record(
    {
      name: fc.constantFrom("id", "q", "tags", "__proto__", "file", ""),
      in: fc.constantFrom("query", "header", "path", "body", "formData", "cookie", "nowhere"),
      required: fc.boolean(),
      type: fc.constantFrom("string", "integer", "array", "file", "boolean"),
      items: primitive,
      collectionFormat: fc.constantFrom("csv", "multi", "ssv", "pipes", "tsv", "odd"),
      schema,
    },
    { requiredKeys: ["name", "in"] },
  ),
  fc.record({ $ref: refName.map((n) => `#/parameters/${n}`) }),
);

const mediaTypes = fc.array(
  fc.constantFrom(
    "application/json",
    "application/xml",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
    "application/jsonl",
    "text/plain",
    "__proto__",
  ),
  { maxLength: 3 },
);

const response = fc.oneof(
  fc.record(
    {
      description: fc.string({ maxLength: 8 }),
      schema,
      headers: fc.dictionary(fc.constantFrom("X-A", "__proto__"), maybeHostile(primitive), {
        maxKeys: 2,
      }),
      examples: fc.dictionary(fc.constantFrom("application/json", "text/plain"), fc.jsonValue(), {
        maxKeys: 2,
      }),
    },
    { requiredKeys: ["description"] },
  ),
  fc.record({ $ref: refName.map((n) => `#/responses/${n}`) }),
);

const operation = fc.record(
  {
    operationId: fc.constantFrom("list", "get", "create", "__proto__", "x y"),
    tags: fc.array(fc.constantFrom("pets", "owners"), { maxLength: 1 }),
    consumes: mediaTypes,
    produces: mediaTypes,
    parameters: fc.array(maybeHostile(parameter), { maxLength: 4 }),
    responses: fc.dictionary(
      fc.constantFrom("200", "201", "204", "404", "default", "2XX"),
      maybeHostile(response),
      { minKeys: 1, maxKeys: 3 },
    ),
  },
  { requiredKeys: ["responses"] },
);

const method = fc.constantFrom("get", "put", "post", "delete", "patch", "head", "options");
const pathItem = fc
  .tuple(
    fc.dictionary(method, maybeHostile(operation), { minKeys: 1, maxKeys: 3 }),
    fc.array(parameter, { maxLength: 2 }),
  )
  .map(([ops, parameters]) => (parameters.length ? { ...ops, parameters } : ops));

/** What every document defines, so that most references find something. */
const defined = {
  definitions: {
    Pet: { type: "object", properties: { id: { type: "integer" } } },
    Owner: { type: "string" },
  },
  parameters: {
    Pet: { name: "limit", in: "query", type: "integer" },
    Owner: { name: "owner", in: "body", schema: { $ref: "#/definitions/Owner" } },
  },
  responses: {
    Pet: { description: "a pet", schema: { $ref: "#/definitions/Pet" } },
    Owner: { description: "none" },
  },
};
const withDefined = <T extends Record<string, unknown>>(doc: T) => ({
  ...doc,
  definitions: { ...defined.definitions, ...(doc.definitions as object) },
  parameters: { ...defined.parameters, ...(doc.parameters as object) },
  responses: { ...defined.responses, ...(doc.responses as object) },
});

const document = fc
  .record(
    {
      swagger: fc.constantFrom("2.0", 2),
      info: fc.record({
        title: fc.constantFrom("Pets", "P", "__proto__"),
        version: fc.constantFrom("1.0.0", "2"),
      }),
      host: fc.constantFrom("api.example.com", "", "localhost:8080"),
      basePath: fc.constantFrom("/", "/v1", "/v1/", "api"),
      schemes: fc.array(fc.constantFrom("https", "http", "ws", "gopher"), { maxLength: 2 }),
      consumes: mediaTypes,
      produces: mediaTypes,
      paths: fc.dictionary(
        fc.constantFrom("/pets", "/pets/{id}", "/owners/{id}/pets", "/files/{id}/{name}"),
        maybeHostile(pathItem),
        { minKeys: 1, maxKeys: 3 },
      ),
      definitions: fc.dictionary(name, maybeHostile(schema), { maxKeys: 3 }),
      parameters: fc.dictionary(name, maybeHostile(parameter), { maxKeys: 2 }),
      responses: fc.dictionary(name, maybeHostile(response), { maxKeys: 2 }),
      securityDefinitions: fc.dictionary(
        name,
        fc.oneof(
          fc.constant({ type: "basic" }),
          fc.constant({ type: "apiKey", name: "X-Key", in: "header" }),
          fc.constant({
            type: "oauth2",
            flow: "accessCode",
            authorizationUrl: "https://a",
            tokenUrl: "https://t",
            scopes: {},
          }),
          fc.constant({ type: "oauth2", flow: "sideways" }),
          hostile,
        ),
        { maxKeys: 2 },
      ),
    },
    { requiredKeys: ["swagger", "info", "paths"] },
  )
  .map(withDefined);

/** `METHOD path` of every operation of a Swagger document (an operation is a mapping). */
function operationsOf(doc: { paths: Record<string, unknown> }): number {
  let count = 0;
  for (const item of Object.values(doc.paths))
    if (typeof item === "object" && item !== null && !Array.isArray(item))
      for (const [key, value] of Object.entries(item))
        if (
          key !== "parameters" &&
          typeof value === "object" &&
          value !== null &&
          !Array.isArray(value)
        )
          count++;
  return count;
}

describe("Swagger 2.0 documents, random and hostile", () => {
  it(
    "import or a located refusal; whatever import writes, generate accepts, with every operation an endpoint",
    () => {
      const outcomes = { imported: 0, refused: 0 };
      const codes = new Map<string, number>();
      let index = 0;
      fc.assert(
        fc.property(document, (doc) => {
          const dir = join(work, `case-${index++}`);
          rmSync(dir, { recursive: true, force: true });
          const input = join(work, "swagger.json");
          const text = JSON.stringify(doc, null, 2);
          writeFileSync(input, text);
          const texts = new Map<string, string>();
          let result;
          try {
            result = importSpec({ input, outSpec: join(dir, "spec"), schemaFile, texts });
          } catch (error) {
            if (!(error instanceof DiagnosticsError)) throw error;
            outcomes.refused++;
            for (const d of error.diagnostics) codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
            for (const d of error.diagnostics) {
              expect(d.location, d.message).toBeDefined();
              expect(texts.has(d.location!.file), d.message).toBe(true);
              expect(d.location!.line, d.message).toBeLessThanOrEqual(text.split("\n").length);
            }
            return;
          }
          outcomes.imported++;
          writeSpecFolder(join(dir, "spec"), result.files);
          const generated = runPipeline({ specDir: join(dir, "spec"), outDir: join(dir, "out") });
          expect(generated.model.endpoints.length).toBe(operationsOf(doc));
          for (const gap of generated.model.gaps) expect(gap.text).toMatch(/\(import: [^)]*#/);
          rmSync(dir, { recursive: true, force: true });
        }),
        fuzzParameters(40, 5_000),
      );
      if (longRun) console.log("swagger2 fuzz", outcomes, Object.fromEntries(codes));
      expect(outcomes.imported).toBeGreaterThan(0);
    },
    fuzzTimeout(90_000),
  );
});
