/**
 * Random and hostile OpenAPI documents for the importer's fuzz test: small valid documents
 * (paths, operations, parameters, bodies, responses, component schemas of every kind) whose
 * `$ref`s are drawn from a pool of hostile ones (out of the folder by `../`, an absolute path,
 * percent-encoded dots, a device, a FIFO, symbolic links out and in a loop, a folder, an
 * oversized file, a remote or `file:` URL, malformed `%` and `~`, a NUL), with odd and huge
 * names, `$ref` cycles, schemas nested up to 2,000 deep and `$ref` chains up to 5,000 long,
 * written as JSON or YAML and then sometimes damaged as text (YAML anchors, aliases and alias
 * bombs put in, lines cut, deleted or repeated).
 *
 * The folder a case runs in (made by the test) holds, beside the document: `side.yaml` (valid
 * schemas), `fifo.yaml` (a FIFO), `link-out.yaml` (a link to the canary outside),
 * `link-dev.yaml` (a link to /dev/zero), `link-loop.yaml` (a link to itself), `folder/`,
 * `huge.yaml` (a sparse file over the size cap) and `case.yaml` (written per case).
 */
import fc from "fast-check";
import { stringify } from "yaml";

type Json = fc.JsonValue;

/** Names for schemas, properties, tags and operations: plain, odd, reserved and huge. */
export const oddNames = [
  "Pet",
  "pet",
  "Order",
  "a%",
  "a%25",
  "%",
  "a/b",
  "a~b",
  "~1",
  "a b",
  "a.b",
  "__proto__",
  "constructor",
  "toString",
  "",
  "ünïcødé",
  "日本",
  "#",
  "..",
  "x".repeat(2000),
  "a\u2028b",
];

const nameArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("Pet", "Order", "User", "Tag", "Item") },
  { weight: 2, arbitrary: fc.constantFrom(...oddNames) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** A schema name written into a `$ref`'s pointer, properly escaped and percent-encoded. */
export function refTo(name: string): string {
  const token = name.replace(/~/g, "~0").replace(/\//g, "~1");
  return `#/components/schemas/${encodeURIComponent(token)}`;
}

/**
 * Hostile `$ref`s; `canary` is the absolute path of the canary file outside the folder.
 * Relative ones are seen from the document's folder.
 */
export function hostileRefs(canary: string): string[] {
  return [
    "../outside/canary.yaml#/Thing",
    "../../outside/canary.yaml#/Thing",
    "sub/../../outside/canary.yaml#/Thing",
    "%2e%2e/outside/canary.yaml#/Thing",
    "..%2Foutside%2Fcanary.yaml#/Thing",
    `${canary}#/Thing`,
    `file://${canary}#/Thing`,
    "/etc/passwd",
    "/dev/zero",
    "/dev/urandom",
    "/proc/self/environ",
    "fifo.yaml",
    "fifo.yaml#/A",
    "link-out.yaml#/Thing",
    "link-dev.yaml",
    "link-loop.yaml#/A",
    "folder",
    "folder/",
    ".",
    "huge.yaml",
    "missing.yaml#/A",
    "side.yaml#/Side",
    "side.yaml#/Nested/inner",
    "side%2Eyaml#/Side",
    "case.yaml#/Case",
    "case.yaml",
    "http://127.0.0.1:1/x.yaml",
    "https://example.com/schema.json#/A",
    "//example.com/x",
    "a\u0000b.yaml",
    "#",
    "#/",
    "#foo",
    "#/components/schemas/a~2",
    "#/components/schemas/~",
    "#/components/schemas/%",
    "#/components/schemas/%zz",
    "#/components/schemas/%C3",
    "#/components/schemas/a%",
    "#/components/schemas/a%25",
    "#/components/schemas/a%2525",
    "#/components/schemas/a~1b",
    "#/components/schemas/a/b",
    "#/components/schemas/__proto__",
    "#/components/schemas/constructor/prototype",
    "#/paths",
    "#/info/title",
    "#/components/schemas/Pet/properties/self",
    `#/components/schemas/${"x".repeat(5000)}`,
    "%",
    "%zz.yaml",
    "doc.yaml#/components/schemas/Pet",
    "doc.json#/components/schemas/Pet",
  ];
}

/** Schemas every document declares, so that a `$ref` to one resolves. */
const declared: Record<string, Json> = Object.fromEntries(
  ["Pet", "Order", "User", "Tag", "Item", ...oddNames].map((name) => [
    name,
    { type: "object", properties: { id: { type: "string" } } },
  ]),
);

/** A `$ref` to a schema every document declares, by any of its names. */
const goodRef = fc.constantFrom(...Object.keys(declared)).map(refTo);

/** A `$ref` that may be anything: hostile, unescaped, random. */
function anyRef(canary: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...hostileRefs(canary)) },
    { weight: 1, arbitrary: nameArb.map((n) => `#/components/schemas/${n}`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  );
}

/** A schema of any kind, up to a few levels deep, its `$ref`s drawn from `ref`. */
function schemaArb(ref: fc.Arbitrary<string>): fc.Arbitrary<Json> {
  const { schema } = fc.letrec<{ schema: Json }>((tie) => {
    const sub = tie("schema");
    const props = fc.dictionary(nameArb, sub, { maxKeys: 4 });
    return {
      schema: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.record({ $ref: ref }),
        fc.constantFrom<Json>(
          { type: "string" },
          { type: "string", format: "uuid" },
          { type: "string", format: "date" },
          { type: "integer", minimum: 0, exclusiveMaximum: 10 },
          { type: "number", multipleOf: 0.5 },
          { type: "boolean" },
          { type: ["string", "null"] },
          { type: "string", nullable: true },
          { enum: ["a", "b", null] },
          { enum: [{ x: 1 }, 2.5] },
          { const: "fixed" },
          { type: "weird" },
          {},
          true,
          false,
          null,
          "string",
          [],
        ),
        fc.record(
          {
            type: fc.constant("object"),
            properties: props,
            required: fc.array(nameArb, { maxLength: 3 }),
            additionalProperties: fc.oneof(fc.boolean(), sub),
            description: fc.string({ maxLength: 40 }),
            "x-extends": nameArb,
            example: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ $ref: ref })),
          },
          { requiredKeys: ["type"] },
        ),
        fc.record({ type: fc.constant("array"), items: sub }),
        fc.record({ allOf: fc.array(sub, { maxLength: 3 }) }),
        fc.record(
          {
            oneOf: fc.array(sub, { maxLength: 3 }),
            discriminator: fc.record(
              {
                propertyName: nameArb,
                mapping: fc.dictionary(nameArb, fc.oneof(ref, nameArb), { maxKeys: 2 }),
              },
              { requiredKeys: ["propertyName"] },
            ),
          },
          { requiredKeys: ["oneOf"] },
        ),
        fc.record({ anyOf: fc.array(sub, { maxLength: 3 }) }),
        fc.record({ additionalProperties: sub }),
      ),
    };
  });
  return schema;
}

/** A schema nested `depth` levels of `properties` deep, a `$ref` (maybe hostile) at the bottom. */
function nested(depth: number, bottom: Json): Json {
  let schema = bottom;
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { p: schema } };
  return schema;
}

/** Component schemas `Chain0` ... `Chain<n-1>`, each a `$ref` to the next (or through a field). */
function chain(length: number, throughFields: boolean, end: Json): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (let i = 0; i < length; i++) {
    const next: Json = i === length - 1 ? end : { $ref: refTo(`Chain${i + 1}`) };
    out[`Chain${i}`] = throughFields ? { type: "object", properties: { next } } : next;
  }
  return out;
}

/** The bulky parts a case may add: a deep schema, a long chain, a cycle. */
function bulkArb(ref: fc.Arbitrary<string>): fc.Arbitrary<Record<string, Json>> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(10, 100, 124, 125, 126, 200, 300, 1000, 2000), ref)
        .map(([depth, r]) => ({ Deep: nested(depth, { $ref: r }) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(2, 10, 101, 150, 1000, 5000), fc.boolean(), ref)
        .map(([length, through, r]) => chain(length, through, { $ref: r })),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Record<string, Json>>({
        CycleA: { $ref: refTo("CycleB") },
        CycleB: { $ref: refTo("CycleA") },
        Self: { type: "object", properties: { self: { $ref: refTo("Self") } } },
        ExtA: { type: "object", "x-extends": "ExtB", properties: { a: { type: "string" } } },
        ExtB: { type: "object", "x-extends": "ExtA", properties: { b: { type: "string" } } },
      }),
    },
  );
}

/** A `$ref` object or a literal, as OpenAPI allows for parameters, bodies and responses. */
function orRef<T extends Json>(literal: fc.Arbitrary<T>, ref: fc.Arbitrary<string>) {
  return fc.oneof(
    { weight: 3, arbitrary: literal },
    { weight: 1, arbitrary: fc.record({ $ref: ref }) },
  );
}

function operationArb(ref: fc.Arbitrary<string>, schema: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const media = fc.record({ schema });
  const parameter = fc.record({
    name: nameArb,
    in: fc.constantFrom("path", "query", "header", "cookie", "body"),
    required: fc.boolean(),
    schema,
  });
  return fc.record(
    {
      operationId: nameArb,
      tags: fc.array(nameArb, { maxLength: 2 }),
      parameters: fc.array(orRef(parameter, ref), { maxLength: 3 }),
      requestBody: orRef(fc.record({ content: fc.record({ "application/json": media }) }), ref),
      responses: fc.dictionary(
        fc.constantFrom("200", "201", "204", "400", "404", "500", "default", "2XX"),
        orRef(
          fc.record(
            {
              description: fc.string({ maxLength: 10 }),
              content: fc.dictionary(
                fc.constantFrom("application/json", "text/plain", "*/*"),
                media,
                { maxKeys: 2 },
              ),
              headers: fc.dictionary(
                fc.constantFrom("Link", "X-Rate", "a%"),
                orRef(fc.record({ schema }), ref),
                {
                  maxKeys: 2,
                },
              ),
            },
            { requiredKeys: ["description"] },
          ),
          ref,
        ),
        { maxKeys: 3 },
      ),
    },
    { requiredKeys: ["responses"] },
  );
}

/**
 * A document as data: its `$ref`s resolve, but for `hostile` ones (most often none or one),
 * each a component schema of its own, `Hostile<i>` (which the importer always converts), and
 * maybe the `$ref`s of the bulky part.
 */
function documentArb(canary: string): fc.Arbitrary<Json> {
  const ref = goodRef;
  const schema = schemaArb(ref);
  const operation = operationArb(ref, schema);
  const path = fc.oneof(
    fc.constantFrom("/pets", "/pets/{id}", "/a/{b}/{c}", "/", "/%", "/a%2Fb", "/{__proto__}"),
    fc.string({ maxLength: 10 }).map((s) => `/${s}`),
  );
  return fc
    .record({
      openapi: fc.constantFrom("3.0.3", "3.1.0", "3.0.0", "3.1.1"),
      info: fc.record({
        title: fc.oneof(nameArb, fc.constant("Shop")),
        version: fc.constantFrom("1", "1.0.0", "v2"),
      }),
      paths: fc.dictionary(
        path,
        orRef(
          fc.dictionary(fc.constantFrom("get", "post", "put", "delete", "patch"), operation, {
            maxKeys: 2,
          }),
          ref,
        ),
        { maxKeys: 3 },
      ),
      schemas: fc.dictionary(nameArb, schema, { maxKeys: 5 }),
      bulk: bulkArb(fc.oneof(goodRef, anyRef(canary))),
      hostile: fc.oneof(
        { weight: 2, arbitrary: fc.constant<string[]>([]) },
        { weight: 3, arbitrary: fc.array(anyRef(canary), { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(anyRef(canary), { minLength: 2, maxLength: 3 }) },
      ),
      parameters: fc.dictionary(
        nameArb,
        fc.record({ name: nameArb, in: fc.constant("query"), schema }),
        { maxKeys: 2 },
      ),
      webhooks: fc.option(fc.dictionary(nameArb, fc.record({ post: operation }), { maxKeys: 2 }), {
        nil: undefined,
      }),
    })
    .map(({ openapi, info, paths, schemas, bulk, hostile, parameters, webhooks }) => {
      const planted = Object.fromEntries(hostile.map((r, i) => [`Hostile${i}`, { $ref: r }]));
      const doc: { [key: string]: Json } = {
        openapi,
        info,
        paths,
        components: { schemas: { ...declared, ...schemas, ...bulk, ...planted }, parameters },
      };
      if (webhooks !== undefined) doc.webhooks = webhooks;
      return doc;
    });
}

/** Text damage: YAML anchors, aliases and bombs put in, lines cut, deleted or repeated. */
type Damage =
  | { kind: "none" }
  | { kind: "bomb"; levels: number }
  | { kind: "alias"; text: string }
  | { kind: "delete-line" | "repeat-line" | "cut"; at: number };

const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Damage>({ kind: "none" }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 2, max: 9 }).map((levels) => ({ kind: "bomb", levels }) as Damage),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        "x-a: *nowhere\n",
        "x-a: &loop { self: *loop }\n",
        "x-a: &a { type: string }\nx-b: *a\n",
        "x-a: &a [1]\nx-b: [*a, *a, *a]\n",
      )
      .map((text) => ({ kind: "alias", text }) as Damage),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("delete-line", "repeat-line", "cut") as fc.Arbitrary<
          "delete-line" | "repeat-line" | "cut"
        >,
        fc.nat(),
      )
      .map(([kind, at]) => ({ kind, at })),
  },
);

function damaged(text: string, damage: Damage): string {
  switch (damage.kind) {
    case "none":
      return text;
    case "bomb": {
      let bomb = "x-bomb:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
      for (let i = 1; i < damage.levels; i++)
        bomb += `  l${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(", ")}]\n`;
      return `${text.trimEnd()}\n${bomb}`;
    }
    case "alias":
      return `${text.trimEnd()}\n${damage.text}`;
    case "delete-line":
    case "repeat-line": {
      const lines = text.split("\n");
      const i = damage.at % lines.length;
      lines.splice(
        i,
        damage.kind === "delete-line" ? 1 : 0,
        ...(damage.kind === "repeat-line" ? [lines[i]!] : []),
      );
      return lines.join("\n");
    }
    case "cut":
      return text.slice(0, damage.at % (text.length + 1));
    default: {
      const never: never = damage;
      return never;
    }
  }
}

/** YAML text, or JSON (which is YAML too) where the YAML writer runs out of stack. */
function yaml(doc: Json): string {
  try {
    return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
  } catch {
    return JSON.stringify(doc);
  }
}

/** One case: the document's text and file name, the side file `case.yaml`, and `--ref-root`. */
export interface DocumentCase {
  name: "doc.yaml" | "doc.json";
  text: string;
  side: string;
  /** Whether to widen the reach to the folder above the document's (still not the canary's). */
  widen: boolean;
}

export function documentCase(canary: string): fc.Arbitrary<DocumentCase> {
  const ref = fc.oneof(goodRef, anyRef(canary));
  const side = fc.oneof(
    fc.constant("Case: { type: string }\n"),
    ref.map((r) => `Case: { $ref: ${JSON.stringify(r)} }\n`),
    fc.constant("Case: { $ref: 'doc.yaml#/components/schemas/Pet' }\n"),
    fc.constant("Case: { $ref: 'case.yaml#/Case' }\n"),
    fc.constant("Case: { $ref: '../sibling/sibling.yaml#/Shared' }\n"),
    fc.constant("Case: &a [*a]\n"),
  );
  return fc
    .record({
      doc: documentArb(canary),
      json: fc.boolean(),
      damage: damageArb,
      side,
      widen: fc.boolean(),
    })
    .map(({ doc, json, damage, side: sideText, widen }) => {
      const text = json
        ? JSON.stringify(doc, null, damage.kind === "none" ? undefined : 1)
        : yaml(doc);
      return {
        name: json ? "doc.json" : "doc.yaml",
        text: damaged(
          text,
          json && (damage.kind === "bomb" || damage.kind === "alias") ? { kind: "none" } : damage,
        ),
        side: sideText,
        widen,
      } satisfies DocumentCase;
    });
}
