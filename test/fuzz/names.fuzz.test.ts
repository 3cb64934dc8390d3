/**
 * Names into the output (issue 30, item 7; docs/security.md, "Names"). Random names from a
 * hostile alphabet (reserved words, Object.prototype's members, `__proto__`, names of what
 * the package generates, Windows device names, case variants, punctuation, unicode, names
 * that are nearly empty) are given to tags, operationIds, schemas, properties, path, query
 * and header parameters and security schemes of an OpenAPI document, which is imported and
 * generated; and to groups, methods, types, fields, parameters and error codes of a spec
 * written directly. Every case must import and generate (warnings allowed), and then:
 *
 * - every identifier of the model is valid and unique in its scope: the package's type
 *   names, the client module's functions, the client's and each group's members, each
 *   function's parameters, the handlers, the error constants;
 * - every file name (the spec folder's and the package's) is unique when case is ignored and
 *   portable: no Windows device name, no character Windows refuses, no trailing dot or space;
 * - no wire name is lost: every property is a field of its type under its own name, every
 *   query and header parameter travels under its own name, every operation, schema and
 *   security scheme is there.
 *
 * A few fixed cases are also type-checked with tsc (slow: not per case). `npm test` runs a
 * bounded, seeded few; `npm run fuzz` 10,000 per property.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { importSpec } from "../../generator/import/import.ts";
import type { ApiModel } from "../../generator/ir/model.ts";
import { fixedNames } from "../../generator/ir/names.ts";
import { clientModuleValues, runtimeExportNames } from "../../generator/ir/reserved-names.ts";
import { runPipeline, type PipelineResult } from "../../generator/pipeline.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import { fuzzParameters, fuzzTimeout, longRun } from "./settings.ts";

const work = tempDir("apigen-names-fuzz-");
afterAll(() => rmSync(work, { recursive: true, force: true }));
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");

// ---------------------------------------------------------------------------------------
// The alphabet

const reservedWords =
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

/** A hostile name: one fragment, two joined, or a short string of awkward characters. */
const hostileName: fc.Arbitrary<string> = fc.oneof(
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

interface DocumentInput {
  operations: OperationInput[];
  schemas: { name: string; properties: { name: string; required: boolean }[] }[];
  schemes: string[];
}

const documentInput: fc.Arbitrary<DocumentInput> = fc.record({
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
const marker = (i: number) => `marker${i}`;

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
function documentOf(input: DocumentInput): object {
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

let cases = 0;

/** Imports a document into a fresh folder and generates it; the spec files and the result. */
function importAndGenerate(doc: object): { specPaths: string[]; result: PipelineResult } {
  const dir = join(work, `case-${cases++}`);
  const input = `${dir}.json`;
  mkdirSync(dir);
  writeFileSync(input, JSON.stringify(doc));
  const spec = join(dir, "spec");
  const imported = importSpec({ input, outSpec: spec, schemaFile });
  for (const file of imported.files) {
    mkdirSync(dirname(join(spec, file.path)), { recursive: true });
    writeFileSync(join(spec, file.path), file.text);
  }
  try {
    const result = runPipeline({ specDir: spec, outDir: join(dir, "out") });
    return { specPaths: imported.files.map((f) => f.path), result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(input, { force: true });
  }
}

// ---------------------------------------------------------------------------------------
// The checks

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const reserved = new Set(reservedWords);
/** What every object has, and what an object with it would be taken for (a promise, a prototype). */
const members = new Set([...Object.getOwnPropertyNames(Object.prototype), "then", "prototype"]);

/** `names` has no name twice; the message lists those it has twice. */
function expectUnique(names: readonly string[], scope: string): void {
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  expect(twice, `${scope}: names given twice`).toEqual([]);
}

/** Every name is an identifier a declaration may take. */
function expectDeclarable(names: readonly string[], scope: string): void {
  for (const name of names) {
    expect(identifier.test(name), `${scope}: ${JSON.stringify(name)} is no identifier`).toBe(true);
    expect(reserved.has(name), `${scope}: ${name} is a reserved word`).toBe(false);
  }
}

/** The identifiers of the model are valid and unique in each scope. */
function expectIdentifiers(model: ApiModel): void {
  const endpoints = model.endpoints;
  const groups = [...new Map(endpoints.map((e) => [e.group, e])).values()];
  const responses = endpoints.flatMap((e) => [
    e.response,
    ...(e.streamResponse ? [e.streamResponse] : []),
  ]);
  const packageNames = [
    ...model.types.map((t) => t.name),
    ...model.paramsTypes.map((p) => p.name),
    ...groups.map((e) => e.groupClassName),
    ...responses.flatMap((r) => [r.headersTypeName, r.stream?.eventTypeName]),
    ...endpoints.map((e) => e.bodyValidatorName?.replace(/^validate/, "")),
    ...model.callbacks.map((c) => c.resultTypeName),
  ].filter((n): n is string => n !== undefined);
  expectUnique(
    [...packageNames, ...runtimeExportNames, ...fixedNames(model.api.clientName)],
    "package",
  );
  // Type names: a PascalCase name is never a reserved word (a type named `Infinity` is fine).
  for (const name of packageNames)
    expect(/^[A-Z][A-Za-z0-9]*$/.test(name), `package: ${JSON.stringify(name)}`).toBe(true);
  const functions = endpoints.map((e) => e.functionName);
  expectUnique(
    [...functions, ...packageNames.map((n) => `validate${n}`), ...clientModuleValues],
    "client module",
  );
  expectDeclarable(functions, "client module");
  const groupMembers = groups.map((e) => e.groupProperty);
  // Members may be reserved words (`client.delete`), never members every object has.
  expectUnique(groupMembers, "client members");
  for (const name of groupMembers) {
    expect(identifier.test(name), `client member ${JSON.stringify(name)}`).toBe(true);
    expect(members.has(name), `client member ${name}`).toBe(false);
  }
  for (const group of groups) {
    const methods = endpoints.filter((e) => e.group === group.group).map((e) => e.methodName);
    expectUnique(methods, `group ${group.group}`);
    for (const name of methods) {
      expect(identifier.test(name), `method ${JSON.stringify(name)}`).toBe(true);
      expect(members.has(name) || name === "core", `method ${name}`).toBe(false);
    }
  }
  for (const endpoint of endpoints) {
    // Path and trailing parameters are the function's parameters; the others are keys of one.
    const params = endpoint.params
      .filter((p) => p.placement === "path" || p.placement === "trailing")
      .map((p) => p.camelName);
    expectUnique(
      [...params, "core", "body", "query", "params", "options"],
      `${endpoint.id}'s parameters`,
    );
    expectDeclarable(params, `${endpoint.id}'s parameters`);
    expectUnique(
      endpoint.params.map((p) => p.name),
      `${endpoint.id}'s parameter keys`,
    );
  }
  const handlers = model.callbacks.map((c) => c.camelName);
  expectUnique(handlers, "handlers");
  expectDeclarable(handlers, "handlers");
  const codes = model.errors.codes.map((c) => c.name);
  expectUnique(codes, "error codes");
  for (const name of codes) expect(identifier.test(name) && name !== "__proto__").toBe(true);
}

const windowsDevice = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** File paths unique when case is ignored, and each part writable on every file system. */
function expectPortable(paths: readonly string[], what: string): void {
  expectUnique(
    paths.map((p) => p.toLowerCase()),
    `${what} (case ignored)`,
  );
  for (const path of paths)
    for (const part of path.split("/")) {
      expect(windowsDevice.test(part.split(".")[0]!), `${what}: ${path} is a device name`).toBe(
        false,
      );
      expect(/[<>:"\\|?*\u0000-\u001f]|[. ]$/.test(part), `${what}: ${path}`).toBe(false);
    }
}

/** Every name of the input is in the model under its own name on the wire. */
function expectWireNames(input: DocumentInput, model: ApiModel): void {
  expect(model.endpoints).toHaveLength(input.operations.length);
  expect(model.credentials).toHaveLength(input.schemes.length);
  input.schemas.forEach((schema, i) => {
    const type = model.types.find(
      (t) => t.type.kind === "object" && t.type.fields.some((f) => f.name === marker(i)),
    );
    expect(type, `the type of schema ${JSON.stringify(schema.name)}`).toBeDefined();
    if (type?.type.kind !== "object") return;
    // In field order, but for integer-like names, which a JavaScript object (and so JSON
    // and YAML as read) puts first.
    const byName = (a: [string, boolean], b: [string, boolean]) => (a[0] < b[0] ? -1 : 1);
    const fields = type.type.fields.map((f): [string, boolean] => [f.name, f.required]);
    expect(fields.sort(byName)).toEqual(
      [
        [marker(i), false] as [string, boolean],
        ...schema.properties.map((p): [string, boolean] => [p.name, p.required]),
      ].sort(byName),
    );
  });
  input.operations.forEach((op, i) => {
    const endpoint = model.endpoints.find(
      (e) => e.path === `/op${i}` || e.path.startsWith(`/op${i}/`),
    );
    expect(endpoint, `operation ${i}`).toBeDefined();
    if (!endpoint) return;
    // As sets: a parameter keyed by an integer-like name comes first in a JavaScript object.
    const wire = (placement: string) =>
      endpoint.params
        .filter((p) => p.placement === placement)
        .map((p) => `${p.wireName ?? p.name}${p.required ? " (required)" : ""}`)
        .sort();
    expect(wire("query")).toEqual(
      op.query.map((q) => `${q.name}${q.required ? " (required)" : ""}`).sort(),
    );
    expect(wire("header")).toEqual([...op.headers].sort());
    expect(wire("path")).toHaveLength(op.pathParams.length);
  });
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

interface SpecInput {
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

const specInput: fc.Arbitrary<SpecInput> = fc.record({
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
function usableSpec(input: SpecInput): SpecInput {
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
function specOf(input: SpecInput): Record<string, unknown> {
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

/** Writes a spec and generates it; the result. */
function generateSpec(spec: Record<string, unknown>): PipelineResult {
  const dir = join(work, `spec-${cases++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "api.yaml"), stringify(spec));
  try {
    return runPipeline({ specDir: dir, outDir: join(dir, "out") });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every field, parameter key and wire name of the spec is in the model as written. */
function expectSpecNames(input: SpecInput, model: ApiModel): void {
  for (const type of input.types) {
    const named = model.types.find((t) => t.name === type.name);
    expect(named?.type.kind).toBe("object");
    if (named?.type.kind !== "object") continue;
    expect(named.type.fields.map((f) => f.name).sort()).toEqual(
      type.fields.map((f) => f.name).sort(),
    );
  }
  input.endpoints.forEach((e) => {
    const endpoint = model.endpoints.find((m) => m.id === `${e.group}.${e.name}`)!;
    const wire = (placement: string) =>
      endpoint.params
        .filter((p) => p.placement === placement)
        .map((p) => `${p.name}=${p.wireName ?? p.name}`)
        .sort();
    expect(wire("query")).toEqual(e.query.map((q) => `${q.key}=${q.wire ?? q.key}`).sort());
    expect(wire("header")).toEqual(e.headers.map((h) => `${h.key}=${h.wire ?? h.key}`).sort());
    expect(wire("path")).toEqual(e.pathParams.map((p) => `${p}=${p}`).sort());
  });
  expect(model.errors.codes.map((c) => String(c.code)).sort()).toEqual([...input.codes].sort());
  expect(model.callbacks.map((c) => c.event)).toEqual(input.callbacks);
}

// ---------------------------------------------------------------------------------------
// Fixed cases, type-checked

/**
 * A consumer of the package that names every method and function as callable: a method an
 * interface read as something else (`new(...)` is a construct signature) fails to type-check.
 */
function consumerOf(model: ApiModel): string {
  const client = model.api.clientName;
  const lines = model.endpoints.flatMap((e, i) => [
    `export type Method${i} = Parameters<${client}[${JSON.stringify(e.groupProperty)}][${JSON.stringify(e.methodName)}]>;`,
    `export type Function${i} = Parameters<typeof index.${e.functionName}>;`,
  ]);
  return [
    'import type * as index from "./index.js";',
    `import type { ${client} } from "./index.js";`,
    ...lines,
    "",
  ].join("\n");
}

/** tsc on a package written from a result, with a consumer: its output, empty when it type-checks. */
function typecheck(result: PipelineResult): string {
  const out = join(work, `tsc-${cases++}`);
  for (const file of result.files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.contents);
  }
  writeFileSync(join(out, "src/consumer.ts"), consumerOf(result.model));
  try {
    const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
    const run = spawnSync(process.execPath, [tsc, "--noEmit", "-p", join(out, "tsconfig.json")], {
      encoding: "utf8",
      timeout: 300_000,
    });
    return `${run.stdout}${run.stderr}`.trim() || (run.status === 0 ? "" : `exit ${run.status}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The `count` inputs with the most names among 200 drawn from a fixed seed. */
function richest<T>(arbitrary: fc.Arbitrary<T>, count: number): T[] {
  const size = (value: T) => JSON.stringify(value).length;
  return fc
    .sample(arbitrary, { seed: 20261127, numRuns: 200 })
    .sort((a, b) => size(b) - size(a))
    .slice(0, count);
}

describe("names into the output", () => {
  it(
    "from an OpenAPI document: imported and generated, every identifier valid and unique, every file portable, no wire name lost",
    () => {
      fc.assert(
        fc.property(documentInput, (input) => {
          const { specPaths, result } = importAndGenerate(documentOf(input));
          expectIdentifiers(result.model);
          expectPortable(specPaths, "spec folder");
          expectPortable(
            result.files.map((f) => f.path),
            "package",
          );
          expectWireNames(input, result.model);
        }),
        fuzzParameters(40),
      );
    },
    fuzzTimeout(60_000),
  );

  it(
    "from a spec: generated, every identifier valid and unique, every file portable, no name lost",
    () => {
      fc.assert(
        fc.property(specInput.map(usableSpec), (input) => {
          const result = generateSpec(specOf(input));
          expectIdentifiers(result.model);
          expectPortable(
            result.files.map((f) => f.path),
            "package",
          );
          expectSpecNames(input, result.model);
        }),
        fuzzParameters(60),
      );
    },
    fuzzTimeout(60_000),
  );

  const fixed = longRun ? 3 : 1;
  it(
    `type-checks the package of ${fixed} fixed document(s) and ${fixed} fixed spec(s)`,
    () => {
      for (const input of richest(documentInput, fixed))
        expect(typecheck(importAndGenerate(documentOf(input)).result)).toBe("");
      for (const input of richest(specInput.map(usableSpec), fixed))
        expect(typecheck(generateSpec(specOf(input)))).toBe("");
    },
    fuzzTimeout(240_000),
  );
});
