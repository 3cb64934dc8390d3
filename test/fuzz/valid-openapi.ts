/**
 * Random but valid OpenAPI 3.0 and 3.1 documents, for the importer's invariants (issue 31):
 * named schemas (objects, arrays, enums, `allOf`, `oneOf`/`anyOf` with and without a
 * discriminator, nullable in each version's spelling, `$ref`s), operations of every method
 * with path, query (form, exploded or not, and deepObject), header and cookie parameters,
 * JSON, form and multipart bodies, success and error responses (per status and `default`),
 * security schemes of each kind, and tags or none.
 */
import fc from "fast-check";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ValidDocument {
  document: { [key: string]: Json };
  /** Every operation as `METHOD path`. */
  operations: string[];
}

const typeNames = ["Pet", "Owner", "Tag", "Shape", "Status"] as const;
const fieldNames = ["id", "name", "count", "kind", "tags", "owner", "created_at", "note"];
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

function nullable(schema: { [key: string]: Json }, v31: boolean): Json {
  if (!v31) return { ...schema, nullable: true };
  return typeof schema.type === "string" ? { ...schema, type: [schema.type, "null"] } : schema;
}

function schemaArb(v31: boolean, refs: readonly string[]): fc.Arbitrary<Json> {
  const leaf: fc.Arbitrary<{ [key: string]: Json }> = fc.constantFrom<{ [key: string]: Json }>(
    { type: "string" },
    { type: "string", format: "date-time" },
    { type: "integer", format: "int64" },
    { type: "integer", minimum: 0 },
    { type: "number" },
    { type: "boolean" },
    { type: "string", enum: ["a", "b", "c"] },
  );
  const { tree } = fc.letrec<{ tree: Json }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.tuple(leaf, fc.boolean()).map(([s, n]) => (n ? nullable(s, v31) : s)),
      ...(refs.length > 0 ? [fc.constantFrom(...refs).map(ref)] : []),
      tie("tree").map((items) => ({ type: "array", items })),
      fc
        .uniqueArray(fc.tuple(fc.constantFrom(...fieldNames), tie("tree"), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
          selector: ([name]) => name,
        })
        .map((fields) => {
          const required = fields.filter(([, , r]) => r).map(([name]) => name);
          return {
            type: "object",
            properties: Object.fromEntries(fields.map(([name, s]) => [name, s])),
            ...(required.length > 0 ? { required } : {}),
          };
        }),
    ),
  }));
  return tree;
}

/** A union of object members, each fixing `kind` (a discriminator, mapped or not) or not. */
function unionArb(v31: boolean): fc.Arbitrary<Json> {
  return fc
    .record({
      keyword: fc.constantFrom("oneOf", "anyOf"),
      tagged: fc.constantFrom("none", "mapped", "unmapped"),
      values: fc.uniqueArray(fc.constantFrom("cat", "dog", "bird"), { minLength: 2, maxLength: 3 }),
      nullableMember: fc.boolean(),
    })
    .map(({ keyword, tagged, values, nullableMember }) => {
      const members: Json[] = values.map((value, i) => ({
        type: "object",
        required: tagged === "none" ? ["name"] : ["kind"],
        properties: {
          ...(tagged === "none" ? {} : { kind: { type: "string", enum: [value] } }),
          name: { type: "string" },
          [`extra${i}`]: nullableMember ? nullable({ type: "integer" }, v31) : { type: "integer" },
        },
      }));
      if (tagged === "none") return { [keyword]: members };
      return {
        [keyword]: members,
        discriminator: {
          propertyName: "kind",
          ...(tagged === "mapped"
            ? {
                mapping: Object.fromEntries(
                  values.map((v, i) => [v, `#/components/schemas/Shape${i}`]),
                ),
              }
            : {}),
        },
      };
    });
}

const securitySchemes: Record<string, Json> = {
  key: { type: "apiKey", in: "header", name: "X-Api-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api_key" },
  basic: { type: "http", scheme: "basic" },
  bearer: { type: "http", scheme: "bearer" },
  oauth: {
    type: "oauth2",
    flows: { clientCredentials: { tokenUrl: "https://auth.example.com/token", scopes: {} } },
  },
};

interface Place {
  path: string;
  method: string;
}

function parameterArb(schema: fc.Arbitrary<Json>): fc.Arbitrary<Json[]> {
  const query = fc.oneof(
    fc.record({
      name: fc.constant("limit"),
      in: fc.constant("query"),
      schema: fc.constant({ type: "integer" }),
    }),
    fc.record({
      name: fc.constant("ids"),
      in: fc.constant("query"),
      explode: fc.boolean(),
      schema: fc.constant({ type: "array", items: { type: "string" } }),
    }),
    fc.record({
      name: fc.constant("filter"),
      in: fc.constant("query"),
      style: fc.constant("deepObject"),
      explode: fc.constant(true),
      schema: fc.constant({ type: "object", properties: { status: { type: "string" } } }),
    }),
    fc.record({ name: fc.constant("q"), in: fc.constant("query"), required: fc.boolean(), schema }),
  );
  const header = fc.constant({ name: "X-Request-Id", in: "header", schema: { type: "string" } });
  const cookie = fc.constant({ name: "session", in: "cookie", schema: { type: "string" } });
  return fc
    .uniqueArray(fc.oneof(query, header, cookie), {
      maxLength: 3,
      selector: (p) => (p as { name: string }).name,
    })
    .map((ps) => ps as Json[]);
}

function bodyArb(schema: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const json = (s: Json): Json => ({
    required: true,
    content: { "application/json": { schema: s } },
  });
  const object = fc.constant<Json>({
    type: "object",
    required: ["name"],
    properties: { name: { type: "string" }, count: { type: "integer" } },
  });
  return fc.oneof(
    schema.map(json),
    object.map((s): Json => ({ content: { "application/x-www-form-urlencoded": { schema: s } } })),
    fc.constant<Json>({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { file: { type: "string", format: "binary" }, note: { type: "string" } },
          },
        },
      },
    }),
  );
}

function responsesArb(schema: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const error = {
    type: "object",
    properties: { message: { type: "string" }, code: { type: "integer" } },
  };
  return fc
    .record({
      success: fc.oneof(
        schema.map(
          (s) =>
            ["200", { description: "ok", content: { "application/json": { schema: s } } }] as const,
        ),
        fc.constant(["204", { description: "no content" }] as const),
        schema.map(
          (s) =>
            [
              "201",
              { description: "made", content: { "application/json": { schema: s } } },
            ] as const,
        ),
      ),
      errors: fc.subarray(["400", "404", "default"]),
    })
    .map(({ success, errors }) => ({
      [success[0]]: success[1] as Json,
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          { description: `error ${status}`, content: { "application/json": { schema: error } } },
        ]),
      ),
    }));
}

function operationArb(
  place: Place,
  v31: boolean,
  tags: boolean,
  schemes: string[],
): fc.Arbitrary<Json> {
  const schema = schemaArb(v31, typeNames);
  const pathParams = [...place.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1]!,
    in: "path",
    required: true,
    schema: { type: m[1] === "petId" ? "integer" : "string" },
  }));
  const withBody = ["post", "put", "patch"].includes(place.method);
  return fc
    .record({
      parameters: parameterArb(schema),
      body: withBody ? bodyArb(schema).map((b) => b as Json | undefined) : fc.constant(undefined),
      responses: responsesArb(schema),
      security: schemes.length > 0 ? fc.subarray(schemes) : fc.constant<string[]>([]),
      tag: fc.constantFrom("pets", "owners"),
      summary: fc.option(fc.constantFrom("Does a thing", "Lists things"), { nil: undefined }),
    })
    .map(({ parameters, body, responses, security, tag, summary }) => {
      const op: { [key: string]: Json } = {
        operationId: `${place.method}${place.path.replace(/[^A-Za-z]/g, "_")}`,
        parameters: [...pathParams, ...parameters],
        responses,
      };
      if (summary) op.summary = summary;
      if (tags) op.tags = [tag];
      if (body) op.requestBody = body;
      if (security.length > 0) op.security = security.map((s) => ({ [s]: [] }));
      return op;
    });
}

const paths = [
  "/pets",
  "/pets/{petId}",
  "/owners/{ownerId}/pets",
  "/status",
  "/v1/things/{thingId}",
];
const methods = ["get", "post", "put", "patch", "delete"];

/** A valid document, and the operations it has. */
export function validDocument(): fc.Arbitrary<ValidDocument> {
  return fc
    .record({
      v31: fc.boolean(),
      tags: fc.boolean(),
      schemes: fc.subarray(Object.keys(securitySchemes)),
      places: fc.uniqueArray(
        fc.record({ path: fc.constantFrom(...paths), method: fc.constantFrom(...methods) }),
        { minLength: 1, maxLength: 5, selector: (p) => `${p.method} ${p.path}` },
      ),
    })
    .chain(({ v31, tags, schemes, places }) =>
      fc
        .record({
          schemas: fc.tuple(
            ...typeNames.map((name) =>
              name === "Shape"
                ? unionArb(v31)
                : schemaArb(
                    v31,
                    typeNames.filter((n) => n < name),
                  ),
            ),
          ),
          operations: fc.tuple(...places.map((p) => operationArb(p, v31, tags, schemes))),
          allOf: fc.boolean(),
        })
        .map(({ schemas, operations, allOf }) => {
          const named: { [key: string]: Json } = Object.fromEntries(
            typeNames.map((name, i) => [name, schemas[i]!]),
          );
          // the members a mapped discriminator names
          for (const i of [0, 1, 2])
            named[`Shape${i}`] = { type: "object", properties: { kind: { type: "string" } } };
          if (allOf)
            named.PetDetail = {
              allOf: [ref("Pet"), { type: "object", properties: { detail: { type: "string" } } }],
            };
          const pathItems: { [key: string]: { [key: string]: Json } } = {};
          places.forEach((p, i) => ((pathItems[p.path] ??= {})[p.method] = operations[i]!));
          const document: { [key: string]: Json } = {
            openapi: v31 ? "3.1.0" : "3.0.3",
            info: { title: "Fuzzed API", version: "1.2.3" },
            servers: [{ url: "https://api.example.com" }],
            paths: pathItems,
            components: {
              schemas: named,
              ...(schemes.length > 0
                ? {
                    securitySchemes: Object.fromEntries(
                      schemes.map((s) => [s, securitySchemes[s]!]),
                    ),
                  }
                : {}),
            },
          };
          if (tags) document.tags = [{ name: "pets" }, { name: "owners" }];
          return {
            document,
            operations: places.map((p) => `${p.method.toUpperCase()} ${p.path}`).sort(),
          };
        }),
    );
}
