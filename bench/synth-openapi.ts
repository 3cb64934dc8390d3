/**
 * A synthetic OpenAPI 3.0 document of `schemas` component schemas, about 850 bytes of JSON
 * each (12,000 schemas: about 10 MB), shaped like a real API's: objects with documented
 * fields of every kind, `$ref`s to earlier schemas, arrays, maps, enums, an inline nested
 * object, an `allOf` extension every fifth schema, and one path with two operations per
 * four schemas. Usage: `tsx bench/synth-openapi.ts <schemas> <file>`.
 */
import { writeFileSync } from "node:fs";

/** The document as JSON text. */
export function syntheticOpenApi(schemas: number): string {
  const components: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  const name = (i: number) => `Resource${i}`;
  const ref = (i: number) => ({ $ref: `#/components/schemas/${name(i)}` });
  for (let i = 0; i < schemas; i++) {
    const object = {
      type: "object",
      description: `A resource of kind ${i}, with the fields a real API's resources have.`,
      required: ["id", "name"],
      properties: {
        id: { type: "string", format: "uuid", description: "Its identifier." },
        name: { type: "string", maxLength: 200, example: `name ${i}` },
        count: { type: "integer", minimum: 0, description: "How many there are." },
        status: { type: "string", enum: ["active", "paused", "closed"] },
        tags: { type: "array", items: { type: "string" } },
        labels: { type: "object", additionalProperties: { type: "string" } },
        created_at: { type: "string", format: "date-time" },
        ...(i > 0 ? { parent: ref(i - 1), siblings: { type: "array", items: ref(i >> 1) } } : {}),
        address: {
          type: "object",
          properties: { line: { type: "string" }, city: { type: "string", nullable: true } },
        },
      },
    };
    components[name(i)] =
      i % 5 === 4 && i > 0
        ? { allOf: [ref(i - 1), { type: "object", properties: object.properties }] }
        : object;
    if (i % 4 === 0) {
      const tag = `group${Math.floor(i / 40)}`;
      paths[`/resources${i}/{id}`] = {
        get: {
          operationId: `getResource${i}`,
          tags: [tag],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: ref(i) } } },
            "404": { description: "not found" },
          },
        },
        put: {
          operationId: `putResource${i}`,
          tags: [tag],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: ref(i) } } },
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: ref(i) } } },
          },
        },
      };
    }
  }
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Synthetic API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com" }],
    paths,
    components: { schemas: components },
  });
}

if (process.argv[1] === import.meta.filename) {
  const [count, file] = process.argv.slice(2);
  writeFileSync(file!, syntheticOpenApi(Number(count)));
}
