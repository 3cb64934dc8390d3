/**
 * The inputs of test/fuzz/names.fuzz.test.ts: a hostile alphabet of names, OpenAPI documents
 * and specs made of them.
 */
import fc from "fast-check";

// ---------------------------------------------------------------------------------------
// The alphabet

export const reservedWords =
  "arguments await break case catch class const continue debugger default delete do else enum eval export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield undefined NaN Infinity globalThis".split(
    " ",
  );
const objectMembers = [
  ...Object.getOwnPropertyNames(Object.prototype),
  "then",
  "prototype",
  "core",
];
const devices = [
  "con",
  "CON",
  "nul",
  "Nul",
  "aux",
  "prn",
  "com1",
  "COM9",
  "lpt1",
  "Lpt9",
  "conin$",
];
const generatedWords = [
  "Params",
  "Api",
  "Event",
  "ResponseHeaders",
  "Result",
  "Body",
  "Client",
  "Core",
  "Options",
  "ApiError",
  "Page",
  "Stream",
  "ErrorCode",
  "CallbackHandlers",
  "ClientCore",
  "Validator",
  "ValidationIssue",
  "RouterSpec",
  "UnknownEvent",
  "StandInTable",
  "Record",
  "Promise",
  "Omit",
  "Array",
  "JSON",
  "Error",
  "Blob",
  "Pick",
  "Readonly",
  "NonNullable",
  "Date",
  "Map",
  "File",
];
const caseVariants = ["users", "Users", "USERS", "user-s", "user_s", "userS", "User S"];
const punctuation = [
  "a-b",
  "a*/b",
  "a_b",
  "a.b",
  "a/b",
  "a b",
  "a*b",
  "a\\b",
  "a?b",
  "a#b",
  "a:b",
  "a|b",
  "a<b>",
  'a"b',
  "a'b",
  "a`b",
  "${a}",
  "*/",
  "-->",
  "a,b",
  "a=b",
  "a&b",
  "a+b",
  "a[b]",
  "a(b)",
  "~a",
  "^",
];
const nearlyEmpty = ["", " ", "_", "-", ".", "..", "0", "1a", "__", "$", "a."];
const unicode = ["ü", "Ünïcödé", "日本", "İ", "ß", "é", "e\u0301", "😀", "Ω", "ǅ", "ﬁ"];
const plainWords = [
  "a",
  "b",
  "x",
  "id",
  "get",
  "list",
  "order",
  "validate",
  "from",
  "data",
  "thing",
];

const fragments = [
  ...reservedWords,
  ...objectMembers,
  ...devices,
  ...generatedWords,
  ...caseVariants,
  ...punctuation,
  ...nearlyEmpty,
  ...unicode,
  ...plainWords,
];

/**
 * A hostile name: one fragment, two joined, a short string of awkward characters, or a
 * fragment repeated past what a file name may hold (255 bytes).
 */
export const hostileName: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...fragments) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...fragments), fc.constantFrom(...fragments))
      .map(([a, b]) => a + b),
  },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom(...Array.from("aAzZ_-./*$ é日😀0%")),
      maxLength: 6,
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...fragments), fc.integer({ min: 40, max: 120 }))
      .map(([fragment, times]) => (fragment || "a").repeat(times)),
  },
);

/** A name the document can use as written: no `%` (a pointer escape; the importer's reading of those is tested apart). */
const schemaName = hostileName.filter((n) => !n.includes("%"));
/** A path parameter's name: one a path template can hold. */
const pathParamName = hostileName.filter((n) => !/[{}/?#%]/.test(n));
/** A header name: an HTTP token (a header that is none is refused elsewhere). */
const headerName = hostileName.filter((n) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n));

// ---------------------------------------------------------------------------------------
// Documents

interface OperationInput {
  tag: string | undefined;
  operationId: string | undefined;
  method: "get" | "post";
  pathParams: string[];
  query: { name: string; required: boolean }[];
  headers: string[];
  schema: number;
  security: number;
}

export interface DocumentInput {
  operations: OperationInput[];
  schemas: { name: string; properties: { name: string; required: boolean }[] }[];
  schemes: string[];
}

export const documentInput: fc.Arbitrary<DocumentInput> = fc.record({
  operations: fc.array(
    fc.record({
      tag: fc.option(hostileName, { nil: undefined }),
      operationId: fc.option(hostileName, { nil: undefined }),
      method: fc.constantFrom("get" as const, "post" as const),
      pathParams: fc.uniqueArray(pathParamName, { maxLength: 2 }),
      query: fc.uniqueArray(fc.record({ name: hostileName, required: fc.boolean() }), {
        maxLength: 3,
        selector: (q) => q.name,
      }),
      headers: fc.uniqueArray(headerName, { maxLength: 2, selector: (h) => h.toLowerCase() }),
      schema: fc.nat(),
      security: fc.nat(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  schemas: fc.uniqueArray(
    fc.record({
      name: schemaName,
      properties: fc.uniqueArray(fc.record({ name: hostileName, required: fc.boolean() }), {
        maxLength: 5,
        selector: (p) => p.name,
      }),
    }),
    { minLength: 1, maxLength: 3, selector: (s) => s.name },
  ),
  schemes: fc.uniqueArray(hostileName, { maxLength: 3 }),
});

/** A JSON pointer token as a URI fragment carries it. */
const token = (name: string) => encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"));

/** A property that tells which type came from which schema: `marker<i>`. */
export const marker = (i: number) => `marker${i}`;

/** Sets an own entry, also `__proto__`. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** The OpenAPI document of an input. */
export function documentOf(input: DocumentInput): object {
  const schemas: Record<string, unknown> = {};
  input.schemas.forEach((s, i) => {
    const properties: Record<string, unknown> = {};
    put(properties, marker(i), { type: "string" });
    for (const p of s.properties) put(properties, p.name, { type: i % 2 ? "integer" : "string" });
    const required = s.properties.filter((p) => p.required).map((p) => p.name);
    put(schemas, s.name, { type: "object", properties, ...(required.length ? { required } : {}) });
  });
  const schemes: Record<string, unknown> = {};
  input.schemes.forEach((name, i) =>
    put(schemes, name, { type: "apiKey", in: "header", name: `X-Key-${i}` }),
  );
  const paths: Record<string, unknown> = {};
  input.operations.forEach((op, i) => {
    const path = `/op${i}${op.pathParams.map((p) => `/{${p}}`).join("")}`;
    const schema = input.schemas[op.schema % input.schemas.length]!;
    const parameters = [
      ...op.pathParams.map((name) => ({
        name,
        in: "path",
        required: true,
        schema: { type: "string" },
      })),
      ...op.query.map((q) => ({
        name: q.name,
        in: "query",
        required: q.required,
        schema: { type: "integer" },
      })),
      ...op.headers.map((name) => ({ name, in: "header", schema: { type: "string" } })),
    ];
    const scheme = input.schemes.length
      ? input.schemes[op.security % input.schemes.length]
      : undefined;
    const operation: Record<string, unknown> = {
      ...(op.tag !== undefined ? { tags: [op.tag] } : {}),
      ...(op.operationId !== undefined ? { operationId: op.operationId } : {}),
      parameters,
      responses: {
        "200": {
          description: "ok",
          content: {
            "application/json": { schema: { $ref: `#/components/schemas/${token(schema.name)}` } },
          },
        },
      },
    };
    if (scheme !== undefined) {
      const requirement = {};
      put(requirement, scheme, []);
      operation.security = [requirement];
    }
    paths[path] = { [op.method]: operation };
  });
  return {
    openapi: "3.1.0",
    info: { title: "Names fuzz", version: "1.0.0" },
    paths,
    components: { schemas, securitySchemes: schemes },
  };
}

// ---------------------------------------------------------------------------------------
// Specs written directly

/** camelCase words a group or method may be named (the format's `[a-z][A-Za-z0-9]*`). */
const camelWords = [
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "then",
  "core",
  "delete",
  "new",
  "class",
  "default",
  "static",
  "a",
  "aB",
  "b",
  "bX",
  "validate",
  "from",
  "data",
  "place",
  "params",
  "encode",
  "body",
  "open",
  "stream",
  "error",
  "codeMeanings",
  "users",
  "userS",
  "con",
  "nul",
  "com1",
  "undefined",
];
const camelName = fc.oneof(
  fc.constantFrom(...camelWords),
  fc
    .tuple(fc.constantFrom(...camelWords), fc.constantFrom(...camelWords))
    .map(([a, b]) => a + b[0]!.toUpperCase() + b.slice(1)),
);
/** Path parameters the format's templates take (`[A-Za-z_][A-Za-z0-9_]*`). */
const placeholderName = fc.constantFrom(
  "id",
  "__proto__",
  "constructor",
  "default",
  "class",
  "a_b",
  "_",
  "x1",
  "toString",
  "core",
  "options",
  "body",
  "query",
  "params",
  "undefined",
);
/** Error codes: whole numbers, or a letter first. */
const codeName = fc.constantFrom(
  "card_declined",
  "card-declined",
  "card.declined",
  "cardDeclined",
  "code7",
  "7",
  "constructor",
  "toString",
  "then",
  "a_b",
  "a-b",
  "aB",
);
/** Callback events (`order.shipping`, `order_shipping`). */
const eventName = fc.constantFrom(
  "order.shipping",
  "order_shipping",
  "ordershipping",
  "delete",
  "new",
  "constructor",
  "to_string",
  "then",
  "a.b",
  "a_b",
  "ab",
);
const typeWords = [
  "Order",
  "Thing",
  "Params",
  "Api",
  "Event",
  "Result",
  "Body",
  "Headers",
  "Core",
  "Stream2",
  "Infinity",
  "NaN",
  "Date",
  "Map",
  "File",
];
const typeName = fc.oneof(
  fc.constantFrom(...typeWords),
  fc.tuple(fc.constantFrom(...typeWords), fc.constantFrom(...typeWords)).map(([a, b]) => a + b),
);

export interface SpecInput {
  endpoints: {
    group: string;
    name: string;
    pathParams: string[];
    query: { key: string; wire: string | undefined; required: boolean }[];
    headers: { key: string; wire: string | undefined }[];
    body: number | undefined;
    takeName: "Params" | "Event" | "Api" | undefined;
  }[];
  types: { name: string; fields: { name: string; required: boolean }[] }[];
  codes: string[];
  callbacks: string[];
}

export const specInput: fc.Arbitrary<SpecInput> = fc.record({
  endpoints: fc.uniqueArray(
    fc.record({
      group: camelName,
      name: camelName,
      pathParams: fc.uniqueArray(placeholderName, { maxLength: 2 }),
      query: fc.uniqueArray(
        fc.record({
          key: hostileName,
          wire: fc.option(
            hostileName.filter((n) => n !== ""),
            { nil: undefined },
          ),
          required: fc.boolean(),
        }),
        { maxLength: 3, selector: (q) => q.wire ?? q.key },
      ),
      headers: fc.uniqueArray(
        fc.record({ key: hostileName, wire: fc.option(headerName, { nil: undefined }) }),
        { maxLength: 2, selector: (h) => h.key },
      ),
      body: fc.option(fc.nat(), { nil: undefined }),
      takeName: fc.constantFrom(undefined, "Params" as const, "Event" as const, "Api" as const),
    }),
    { minLength: 1, maxLength: 5, selector: (e) => `${e.group}.${e.name}` },
  ),
  types: fc.uniqueArray(
    fc.record({
      name: typeName,
      fields: fc.uniqueArray(fc.record({ name: hostileName, required: fc.boolean() }), {
        maxLength: 4,
        selector: (f) => f.name,
      }),
    }),
    { minLength: 1, maxLength: 3, selector: (t) => t.name },
  ),
  codes: fc.uniqueArray(codeName, { maxLength: 5 }),
  callbacks: fc.uniqueArray(eventName, { maxLength: 3 }),
});

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** A spec whose param keys are unique, with header wire names distinct from each other. */
export function usableSpec(input: SpecInput): SpecInput {
  return {
    ...input,
    endpoints: input.endpoints.map((e) => {
      const taken = new Set<string>(e.pathParams);
      const keep = <T extends { key: string }>(list: T[]) =>
        list.filter((p) => !taken.has(p.key) && (taken.add(p.key), true));
      const query = keep(e.query);
      const headers = keep(e.headers).filter(
        (h, i, all) =>
          all.findIndex(
            (o) => (o.wire ?? o.key).toLowerCase() === (h.wire ?? h.key).toLowerCase(),
          ) === i && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.wire ?? h.key),
      );
      return { ...e, query, headers };
    }),
  };
}

/** The spec folder's one file, as data. */
export function specOf(input: SpecInput): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const type of input.types) {
    const fields: Record<string, unknown> = {};
    for (const f of type.fields)
      put(fields, f.name, f.required ? { type: "string", required: true } : "string");
    put(types, type.name, { fields });
  }
  // A type that holds the name of what is generated for an endpoint (its params, events, group).
  for (const e of input.endpoints) {
    const taken =
      e.takeName === "Api"
        ? `${pascal(e.group)}Api`
        : e.takeName
          ? `${pascal(e.group)}${pascal(e.name)}${e.takeName}`
          : undefined;
    if (taken && types[taken] === undefined) put(types, taken, { fields: { kept: "string" } });
  }
  const endpoints: Record<string, unknown> = {};
  input.endpoints.forEach((e, i) => {
    const params: Record<string, unknown> = {};
    for (const p of e.pathParams) put(params, p, "string");
    for (const q of e.query)
      put(params, q.key, {
        in: "query",
        ...(q.wire !== undefined ? { name: q.wire } : {}),
        type: "string",
        ...(q.required ? { required: true } : {}),
      });
    for (const h of e.headers)
      put(params, h.key, {
        in: "header",
        ...(h.wire !== undefined ? { name: h.wire } : {}),
        type: "string",
      });
    const body = e.body === undefined ? undefined : input.types[e.body % input.types.length]!.name;
    endpoints[`${e.group}.${e.name}`] = {
      method: body ? "POST" : "GET",
      path: `/e${i}${e.pathParams.map((p) => `/{${p}}`).join("")}`,
      ...(Object.keys(params).length ? { params } : {}),
      ...(body
        ? { body: i % 2 ? body : { fields: { inline: { type: body, required: true } } } }
        : {}),
      response:
        e.takeName === "Event"
          ? { contentType: "text/event-stream", events: { tick: "string" } }
          : { status: 204 },
    };
  });
  const codes: Record<string, unknown> = {};
  for (const code of input.codes) put(codes, code, { meaning: `Code ${code}.` });
  const callbacks: Record<string, unknown> = {};
  input.callbacks.forEach((event, i) => {
    callbacks[event] = { method: "POST", path: `/c${i}`, body: input.types[0]!.name };
  });
  return {
    api: { name: "names-spec", title: "Names spec", version: "1.0.0" },
    ...(input.codes.length ? { errors: { codes } } : {}),
    types,
    endpoints,
    ...(input.callbacks.length ? { callbacks } : {}),
  };
}
