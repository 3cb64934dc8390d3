/**
 * Random but valid OpenAPI 3.0 and 3.1 documents, for the importer's invariants (issue 31):
 * named schemas (objects, arrays, enums, `allOf`, `oneOf`/`anyOf` with and without a
 * discriminator, nullable in each version's spelling, `$ref`s), operations of every method
 * with path, query (form, exploded or not, and deepObject), header and cookie parameters,
 * JSON, form, multipart, XML and CSV bodies, success and error responses (per status and
 * `default`), server-sent event streams (alone, or beside JSON where the body's `stream`
 * flag picks them), keys of a `content` map that are no media type, security schemes of each
 * kind (mutualTLS too), tags or none; 3.1 `webhooks` (one, or several named by a header or
 * payload `const`, or by nothing); and multi-file documents, whose `Owner` schema and one
 * path item are `$ref`s into other files of the document's folder.
 */
import fc from "fast-check";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface ValidDocument {
  document: { [key: string]: Json };
  /** The document's other files, by their path relative to its folder (a multi-file document). */
  files: { [path: string]: Json };
  /** Every operation as `METHOD path`. */
  operations: string[];
  /** The operations whose success is a stream of server-sent events, as `METHOD path`. */
  streams: string[];
  /** The names of the document's `webhooks`. */
  webhooks: string[];
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
    // valid documents that real APIs write imperfectly (session 27's sweeps): an open enum
    // listing a value twice (Elasticsearch), bounds no value fits (GetStream: -90 as an
    // unsigned 64-bit integer beside maximum 90; a minLength past its maxLength), a pattern
    // whose group no string of the lengths matches (Hyperledger Cactus), a word boundary (Unit)
    { anyOf: [{ type: "string", enum: ["a", "b", "a"] }, { type: "string" }] },
    { type: "number", minimum: 1.8446744073709552e19, maximum: 90 },
    { type: "string", minLength: 8, maxLength: 4 },
    { type: "string", minLength: 4, maxLength: 4, pattern: "^0x([a-f0-9]{4})$" },
    { type: "string", pattern: "^[a-z]{2,6}\\b([-a-z0-9]*)$" },
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
  mtls: { type: "mutualTLS" },
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
      name: fc.constant("codes"),
      in: fc.constant("query"),
      style: fc.constantFrom("spaceDelimited", "pipeDelimited"),
      explode: fc.boolean(),
      schema: fc.constant({ type: "array", items: { type: "integer" } }),
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
    fc.constantFrom<Json>(
      { required: true, content: { "application/xml": { schema: { type: "object" } } } },
      { required: true, content: { "text/csv": { schema: { type: "string" } } } },
      { required: true, content: { _embedded: { type: "object" }, "application/json": {} } },
    ),
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
              "200",
              { description: "events", content: { "text/event-stream": { schema: s } } },
            ] as const,
        ),
        schema.map(
          (s) =>
            [
              "200",
              {
                description: "a page, its links under content",
                content: { "application/json": { schema: s }, _links: { type: "object" } },
              },
            ] as const,
        ),
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

const flagStreamBody: Json = {
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["prompt"],
        properties: { prompt: { type: "string" }, stream: { type: "boolean" } },
      },
    },
  },
};
const flagStreamResponse: { [key: string]: Json } = {
  "200": {
    description: "The answer, or its chunks as server-sent events.",
    content: {
      "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } },
      "text/event-stream": {
        schema: { type: "object", properties: { delta: { type: "string" } } },
      },
    },
  },
};

/** The responses without their 2xx ones. */
function withoutSuccess(responses: Json): { [key: string]: Json } {
  const all = responses as { [key: string]: Json };
  return Object.fromEntries(Object.entries(all).filter(([status]) => !status.startsWith("2")));
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
      // OpenAI's chat completions: JSON, or events when the body's `stream` flag asks for them
      flagStream: place.method === "post" ? fc.boolean() : fc.constant(false),
    })
    .map(({ parameters, body, responses, security, tag, summary, flagStream }) => {
      const op: { [key: string]: Json } = {
        operationId: `${place.method}${place.path.replace(/[^A-Za-z]/g, "_")}`,
        parameters: [...pathParams, ...parameters],
        responses: flagStream ? { ...withoutSuccess(responses), ...flagStreamResponse } : responses,
      };
      if (flagStream) body = flagStreamBody;
      if (summary) op.summary = summary;
      if (tags) op.tags = [tag];
      if (body) op.requestBody = body;
      if (security.length > 0) op.security = security.map((s) => ({ [s]: [] }));
      return op;
    });
}

const webhookNames = ["pet.created", "pet.deleted", "ownerMoved"] as const;

/**
 * OpenAPI 3.1 `webhooks`: one to three deliveries (POST, a JSON payload), each named by a
 * header `const`, a payload field `const`, or by nothing (one union payload, noted), signed
 * by a security scheme of the document or not.
 */
function webhooksArb(
  v31: boolean,
  schemes: readonly string[],
): fc.Arbitrary<{ [name: string]: Json }> {
  if (!v31) return fc.constant({});
  return fc
    .record({
      names: fc.subarray([...webhookNames]),
      naming: fc.constantFrom("header", "field", "none"),
      payloads: fc.tuple(...webhookNames.map(() => schemaArb(v31, typeNames))),
      scheme: fc.option(fc.constantFrom(...(schemes.length ? schemes : ["none"])), {
        nil: undefined,
      }),
    })
    .map(({ names, naming, payloads, scheme }) =>
      Object.fromEntries(
        names.map((name, i) => {
          const event = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
          const payload =
            naming === "field"
              ? {
                  type: "object",
                  required: ["type", "data"],
                  properties: { type: { type: "string", const: event }, data: payloads[i]! },
                }
              : payloads[i]!;
          const delivery: { [key: string]: Json } = {
            requestBody: { required: true, content: { "application/json": { schema: payload } } },
            responses: { "200": { description: "Received." } },
          };
          if (naming === "header")
            delivery.parameters = [
              {
                name: "X-Event",
                in: "header",
                required: true,
                schema: { type: "string", const: event },
              },
            ];
          if (scheme !== undefined && scheme !== "none") delivery.security = [{ [scheme]: [] }];
          return [name, { post: delivery }];
        }),
      ),
    );
}

/** Every `$ref` to the root file's components in `value`, made relative to a file one folder down. */
function fromSubfolder(value: Json): Json {
  return JSON.parse(
    JSON.stringify(value).replaceAll('"#/components/', '"../openapi.json#/components/'),
  ) as Json;
}

/**
 * The document's parts moved to other files of its folder: the `Owner` schema (which names
 * no other) to `shared/schemas.json`, and the first path item to `paths/first.json`, its
 * `$ref`s to the root's components rewritten to reach them from there.
 */
function splitIntoFiles(
  document: { [key: string]: Json },
  named: { [key: string]: Json },
  pathItems: { [key: string]: { [key: string]: Json } },
): { [path: string]: Json } {
  const files: { [path: string]: Json } = { "shared/schemas.json": { Owner: named.Owner! } };
  named.Owner = { $ref: "shared/schemas.json#/Owner" };
  const [first] = Object.keys(pathItems);
  if (first !== undefined) {
    files["paths/first.json"] = fromSubfolder(pathItems[first]!);
    (document.paths as { [key: string]: Json })[first] = { $ref: "paths/first.json" };
  }
  return files;
}

const paths = [
  "/pets",
  "/pets/{petId}",
  "/owners/{ownerId}/pets",
  "/status",
  "/v1/things/{thingId}",
];
const methods = ["get", "post", "put", "patch", "delete"];

/** Whether an operation's success response offers server-sent events. */
function streamsEvents(op: Json): boolean {
  const responses = (op as { responses: { [status: string]: { content?: object } } }).responses;
  return Object.entries(responses).some(
    ([status, r]) =>
      status.startsWith("2") && r.content !== undefined && "text/event-stream" in r.content,
  );
}

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
          webhooks: webhooksArb(v31, schemes),
          multiFile: fc.boolean(),
        })
        .map(({ schemas, operations, allOf, webhooks, multiFile }) => {
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
          if (Object.keys(webhooks).length) document.webhooks = webhooks;
          const streams = places
            .filter((_, i) => streamsEvents(operations[i]!))
            .map((p) => `${p.method.toUpperCase()} ${p.path}`)
            .sort();
          const files = multiFile ? splitIntoFiles(document, named, pathItems) : {};
          return {
            document,
            files,
            operations: places.map((p) => `${p.method.toUpperCase()} ${p.path}`).sort(),
            streams,
            webhooks: Object.keys(webhooks),
          };
        }),
    );
}
