/**
 * Names that broke or lost output (issue 30, item 7; docs/security.md, "Names"), each
 * through the real pipeline: packages generated into temp folders, type-checked with tsc,
 * and called against node:http servers, the stand-in and the router on 127.0.0.1.
 *
 * - test/fixtures/names/members: groups and methods named like object members
 *   (`constructor`, `toString`, `then`, a group's `core`), endpoint ids, error codes and
 *   callbacks whose identifiers collapse to one (`aB.x` and `a.bX`, `card_declined` and
 *   `card-declined`), and types that hold a generated name.
 * - test/fixtures/names/wire: `__proto__` as a field and as parameters, and parameters of
 *   one name in two places (`name:`).
 * - OpenAPI documents written here: what the importer makes of the same names, of tags and
 *   parameters whose names collapse, of file names that collide or are Windows devices, of
 *   `$ref` cycles and deep schemas, and of an `--out-spec` that is a file or a link.
 */
import { spawnSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import {
  diagnosticsOf,
  generateFrom,
  repoRoot,
  runCli,
  tempDir,
  writeGenerated,
} from "./helpers.ts";

const scratch = tempDir("apigen-names-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** tsc on a generated package: its output, empty when it type-checks. */
function typecheck(out: string): string {
  const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
  const run = spawnSync(process.execPath, [tsc, "--noEmit", "-p", join(out, "tsconfig.json")], {
    encoding: "utf8",
    timeout: 120_000,
  });
  return `${run.stdout}${run.stderr}`.trim() || (run.status === 0 ? "" : `exit ${run.status}`);
}

/** A node:http server on 127.0.0.1 that answers 204 and records each request's method, URL and headers. */
async function recorder(): Promise<{
  url: string;
  seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[];
  close: () => Promise<void>;
}> {
  const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] =
    [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes an OpenAPI document into the scratch folder; its path. */
function documentFile(name: string, doc: object): string {
  const path = join(scratch, `${name}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

/** Imports a document into a new spec folder under the scratch folder; the folder. */
function imported(name: string, doc: object): string {
  const outSpec = join(scratch, `${name}-spec`);
  const result = importSpec({
    input: documentFile(name, doc),
    outSpec,
    schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
  });
  writeSpecFolder(outSpec, result.files);
  return outSpec;
}

/** The parsed YAML of every file of a spec folder, by path within it. */
function specFiles(folder: string): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else files.set(`${prefix}${entry.name}`, parse(readFileSync(join(dir, entry.name), "utf8")));
  };
  walk(folder, "");
  return files;
}

const ok = { description: "ok" };
const noContent = { "204": ok };

describe("groups and methods named like object members, and names that collapse to one identifier", () => {
  const out = join(scratch, "members");
  // The generated client, loosely typed: its types are what tsc checks below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let pkg: any;
  let server: Awaited<ReturnType<typeof recorder>>;
  let warnings: string[] = [];
  let names: Record<string, string | undefined> = {};

  beforeAll(async () => {
    mkdirSync(out);
    const result = await writeGenerated("test/fixtures/names/members", out);
    warnings = result.warnings.map((w) => `${w.code}: ${w.message}`);
    const endpoint = (id: string) => result.model.endpoints.find((e) => e.id === id)!;
    names = {
      groupClassName: endpoint("constructor.constructor").groupClassName,
      paramsTypeName: endpoint("aB.x").paramsTypeName,
    };
    pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
    server = await recorder();
  }, 60_000);
  afterAll(() => server?.close());

  it("gives a package that type-checks, and a consumer calling every method by its type", () => {
    // In the package's src, so its tsconfig checks it with the rest.
    writeFileSync(
      join(out, "src/consumer.ts"),
      [
        'import { ErrorCode, MembersClient, MembersCore, aBX, aBX2, fromData_, validateOrder_ } from "./index.js";',
        'const client = new MembersClient({ baseUrl: "http://127.0.0.1", fetchCredential: "k" });',
        "export const calls = [",
        "  client.constructor_.constructor_(), client.constructor_.core_(), client.constructor_.toString_(),",
        "  client.constructor_.then_(), client.constructor_.valueOf_(), client.prototype_.hasOwnProperty_(),",
        "  client.prototype_.prototype_(), client.toString_.isPrototypeOf_(), client.then_.propertyIsEnumerable_(),",
        "  client.valueOf_.toLocaleString_(), client.hasOwnProperty_.delete(), client.core.new_(),",
        '  client.aB.x({ q: "a" }), client.a.bX(), client.validate.order({ id: "o" }), client.from.data(),',
        '  client.order.inline({ note: "n" }), client.orderInline.x({ other: 1 }),',
        "];",
        'const core = new MembersCore({ baseUrl: "http://127.0.0.1" });',
        'export const functions = [aBX(core), aBX2(core, { q: "b" }), validateOrder_(core, { id: "o" }), fromData_(core)];',
        "export const codes: ErrorCode[] = [ErrorCode.cardDeclined, ErrorCode.cardDeclined4, ErrorCode.code72];",
        "",
      ].join("\n"),
    );
    expect(typecheck(out)).toBe("");
  }, 120_000);

  it("makes every method callable under its member name, each sending its own request", async () => {
    const client = new pkg.MembersClient({
      baseUrl: server.url,
      maxRetries: 0,
      fetchCredential: "k",
    });
    const calls: [unknown, string][] = [
      [() => client.constructor_.constructor_(), "/m/1"],
      [() => client.constructor_.core_(), "/m/2"],
      [() => client.constructor_.toString_(), "/m/3"],
      [() => client.constructor_.then_(), "/m/4"],
      [() => client.constructor_.valueOf_(), "/m/5"],
      [() => client.prototype_.hasOwnProperty_(), "/m/6"],
      [() => client.prototype_.prototype_(), "/m/7"],
      [() => client.toString_.isPrototypeOf_(), "/m/8"],
      [() => client.then_.propertyIsEnumerable_(), "/m/9"],
      [() => client.valueOf_.toLocaleString_(), "/m/10"],
      [() => client.hasOwnProperty_.delete(), "/m/11"],
      [() => client.core.new_(), "/m/12"],
      [() => client.aB.x(), "/m/13"],
      [() => client.a.bX(), "/m/14"],
      [() => client.validate.order({ id: "o1" }), "/m/15"],
      [() => client.from.data(), "/m/16"],
    ];
    for (const [call, path] of calls) {
      server.seen.length = 0;
      await (call as () => Promise<unknown>)();
      expect(server.seen.map((r) => r.url)).toEqual([path]);
    }
    // What the language reads is left as it is: the client's class, its groups' core, no `then`.
    expect(client.constructor).toBe(pkg.MembersClient);
    expect(client.constructor_.then).toBeUndefined();
    expect(String(client.toString_)).toBe("[object Object]");
  });

  it("gives a credential named like a client option an option of its own", async () => {
    const client = new pkg.MembersClient({
      baseUrl: server.url,
      maxRetries: 0,
      fetchCredential: "k1",
    });
    server.seen.length = 0;
    await client.from.data();
    expect(server.seen.map((r) => [r.url, r.headers["x-fetch"]])).toEqual([["/m/16", "k1"]]);
  });

  it("gives colliding endpoint ids their own function and parameters interface", async () => {
    const core = new pkg.MembersCore({ baseUrl: server.url, maxRetries: 0, fetchCredential: "k2" });
    server.seen.length = 0;
    await pkg.aBX(core, { q: "one" });
    await pkg.aBX2(core, { q: "two" });
    await pkg.validateOrder_(core, { id: "o2" });
    await pkg.fromData_(core);
    expect(server.seen.map((r) => r.url)).toEqual(["/m/13?q=one", "/m/14?q=two", "/m/15", "/m/16"]);
  });

  it("keeps a spec type's name and numbers the generated one, with a warning at the type", async () => {
    // The spec's ConstructorApi and ABXParams are its types; the group class and the
    // parameters interface take the next free number.
    expect(typeof pkg.ConstructorApi2).toBe("function");
    expect(names).toEqual({ groupClassName: "ConstructorApi2", paramsTypeName: "ABXParams2" });
    expect(warnings).toEqual([
      "generated-name-taken: type ConstructorApi has the name of the class of the methods generated for group constructor, which is called ConstructorApi2 instead; rename the type to keep ConstructorApi for it",
      "generated-name-taken: type ABXParams has the name of the parameters interface generated for endpoint aB.x, which is called ABXParams2 instead; rename the type to keep ABXParams for it",
    ]);
  });

  it("gives error codes whose names collapse a constant each", () => {
    expect(pkg.ErrorCode).toEqual({
      code7: 7,
      cardDeclined: "card_declined",
      cardDeclined2: "card-declined",
      cardDeclined3: "card.declined",
      cardDeclined4: "cardDeclined",
      code72: "code7",
    });
  });

  it("gives callbacks whose names collapse a handler each, reached by their own path", async () => {
    const { createCallbackRouter } = await import(
      pathToFileURL(join(out, "src/callbacks.ts")).href
    );
    const seen: string[] = [];
    const router = createCallbackRouter({
      signingSecrets: [],
      handlers: {
        "order.shipping": async () => void seen.push("order.shipping"),
        order_shipping: async () => void seen.push("order_shipping"),
        delete: async () => void seen.push("delete"),
      },
    });
    for (const path of ["/order-shipping-dotted", "/order-shipping-underscored", "/delete"]) {
      const answer = await router.fetch(
        new Request(`http://127.0.0.1${path}`, { method: "POST", body: '{"id":"o"}' }),
      );
      expect(answer.status).toBe(204);
    }
    expect(seen).toEqual(["order.shipping", "order_shipping", "delete"]);
  });
});

describe("`__proto__` and parameters of one name in two places", () => {
  const out = join(scratch, "wire");
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let pkg: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let testing: any;
  let server: Awaited<ReturnType<typeof recorder>>;

  beforeAll(async () => {
    mkdirSync(out);
    await writeGenerated("test/fixtures/names/wire", out);
    pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
    testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
    server = await recorder();
  }, 60_000);
  afterAll(() => server?.close());

  it("gives a package that type-checks", () => {
    expect(typecheck(out)).toBe("");
  }, 120_000);

  it("keeps the keys through the OpenAPI document and back (x-apigen-key)", () => {
    const outSpec = join(scratch, "wire-again");
    const result = importSpec({
      input: join(out, "openapi.json"),
      outSpec,
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    writeSpecFolder(outSpec, result.files);
    const endpoints = [...specFiles(outSpec).values()].find((f) => f.endpoints)!.endpoints as any;
    const params = endpoints["things.get"].params;
    expect(Object.keys(params)).toEqual([
      "id",
      "__proto__",
      "id_query",
      "proto_query",
      "toString",
      "id_header",
    ]);
    expect(params.id_query).toEqual({ in: "query", name: "id", type: "integer", required: true });
    expect(params.proto_query).toEqual({ in: "query", name: "__proto__", type: "string" });
    expect(params.id_header).toEqual({ in: "header", name: "X-Id", type: "string" });
  });

  it("sends each parameter under its own name, where it belongs", async () => {
    const client = new pkg.WireClient({ baseUrl: server.url, maxRetries: 0 });
    server.seen.length = 0;
    await client.things
      .get("i 1", "p/2", { id_query: 5, proto_query: "q", toString: "t", id_header: "h" })
      .catch(() => undefined); // 204 is no Thing: only the request matters here
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.url).toBe("/things/i%201/p%2F2?id=5&__proto__=q&toString=t");
    expect(server.seen[0]!.headers["x-id"]).toBe("h");
  });

  it("enforces required `__proto__` fields and parameters before sending", async () => {
    const client = new pkg.WireClient({ baseUrl: server.url, maxRetries: 0 });
    server.seen.length = 0;
    const missing = await client.things.create({ constructor: "c" }).catch((e: Error) => e);
    expect(missing).toBeInstanceOf(pkg.RequestValidationError);
    expect(missing.message).toContain("body.__proto__");
    const query = await client.things.get("a", "b", {}).catch((e: Error) => e);
    expect(query).toBeInstanceOf(pkg.RequestValidationError);
    expect(query.message).toContain("params.id_query");
    expect(server.seen).toEqual([]);
    await client.things.create(JSON.parse('{"__proto__":"x","constructor":"c"}'));
    expect(server.seen.map((r) => r.body)).toEqual(['{"__proto__":"x","constructor":"c"}']);
  });

  it("reads them back in the stand-in: the parameters, and a `__proto__` field in its answers", async () => {
    const running = await testing.listen(testing.createStandIn({ seed: 1 }), { port: 0 });
    try {
      const client = new pkg.WireClient({ baseUrl: running.url, maxRetries: 0 });
      const thing = await client.things.get("i", "p", { id_query: 5, proto_query: "q" });
      expect(Object.hasOwn(thing, "__proto__")).toBe(true);
      expect(typeof thing.__proto__).toBe("string");
      const bare = await fetch(`${running.url}/things/i/p`);
      expect(bare.status).toBe(400);
      expect(await bare.text()).toContain("params.id_query");
      const given = await fetch(`${running.url}/things/i/p?id=5`);
      expect(given.status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it("reads them back in the callback router", async () => {
    const { createCallbackRouter } = await import(
      pathToFileURL(join(out, "src/callbacks.ts")).href
    );
    const seen: unknown[] = [];
    const router = createCallbackRouter({
      signingSecrets: [],
      handlers: {
        "thing.made": async (body: unknown, ctx: { params: unknown }) =>
          void seen.push([body, ctx.params]),
      },
    });
    const post = (query: string) =>
      router.fetch(
        new Request(`http://127.0.0.1/made${query}`, {
          method: "POST",
          body: '{"__proto__":"x"}',
        }),
      );
    expect((await post("?__proto__=p&made=m")).status).toBe(204);
    expect((await post("?made=m")).status).toBe(400);
    expect(seen).toHaveLength(1);
    const [body, params] = seen[0] as [Record<string, unknown>, Record<string, unknown>];
    expect(Object.hasOwn(body, "__proto__") && Object.hasOwn(params, "__proto__")).toBe(true);
    expect({ body: body.__proto__, proto: params.__proto__, made: params.made_query }).toEqual({
      body: "x",
      proto: "p",
      made: "m",
    });
  });
});

describe("spec types named like what the package declares or the globals it names", () => {
  it("are an error at the type's key", async () => {
    const spec = join(scratch, "declared-types");
    mkdirSync(spec);
    writeFileSync(
      join(spec, "api.yaml"),
      [
        "api: { name: declared, title: Declared, version: 1.0.0, clientName: ShopClient }",
        "types:",
        "  ShopCore: { fields: { a: string } }",
        "  CallbackHandlers: { fields: { a: string } }",
        "  Record: { fields: { a: string } }",
        "  Blob: { fields: { a: string } }",
        "",
      ].join("\n"),
    );
    const declared =
      "the name of one the generated package declares (its client, the client's options, core or error class, or the callback router's types); rename it";
    expect(await diagnosticsOf(spec)).toEqual([
      expect.stringMatching(
        new RegExp(
          `api\\.yaml:3:3 - error type-name-generated: type ShopCore has ${escape(declared)}$`,
        ),
      ),
      expect.stringMatching(
        /api\.yaml:4:3 - error type-name-generated: type CallbackHandlers has the name of one the generated package declares/,
      ),
      expect.stringMatching(
        /api\.yaml:5:3 - error type-name-generated: type Record has the name of a global the generated code names; rename it$/,
      ),
      expect.stringMatching(
        /api\.yaml:6:3 - error type-name-generated: type Blob has the name of a global the generated code names; rename it$/,
      ),
    ]);
  });

  it("are prefixed by the importer, with a note", () => {
    const schemas = Object.fromEntries(
      ["ShopClient", "CallbackHandlers", "Record", "Promise"].map((name) => [
        name,
        { type: "object", properties: { a: { type: "string" } } },
      ]),
    );
    const files = specFiles(
      imported("declared", {
        openapi: "3.1.0",
        info: { title: "Shop", version: "1.0.0" },
        paths: { "/a": { get: { operationId: "a/get", responses: noContent } } },
        components: { schemas },
      }),
    );
    const types = files.get("types/shared.yaml")!.types as Record<string, any>;
    expect(Object.keys(types)).toEqual([
      "ShopShopClient",
      "ShopCallbackHandlers",
      "ShopRecord",
      "ShopPromise",
    ]);
    expect(types.ShopRecord.undocumented).toBe(
      "schema Record is written as ShopRecord: the generated code names the global Record (import: #/components/schemas/Record)",
    );
  });
});

/** A text as a regular expression that matches it. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the importer, on names", () => {
  const doc = {
    openapi: "3.1.0",
    info: { title: "Names", version: "1.0.0" },
    security: [{ "a-b": [] }],
    paths: {
      "/things/{id}": {
        get: {
          operationId: "constructor",
          tags: ["constructor"],
          security: [{ "a*/b": [] }],
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "id", in: "query", required: true, schema: { type: "integer" } },
            { name: "id", in: "header", schema: { type: "string" } },
            { name: "__proto__", in: "query", required: true, schema: { type: "string" } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
      "/pairs/{a-b}/{a*b}/{__proto__}": {
        get: {
          operationId: "pairs",
          tags: ["a-b"],
          parameters: ["a-b", "a*b", "__proto__"].map((name) => ({
            name,
            in: "path",
            required: true,
            schema: { type: "string" },
          })),
          responses: noContent,
        },
      },
      ...Object.fromEntries(
        ["a*/b", "users", "user-s", "Users", "nul", "CON", "com1", "Lpt9"].map((tag, i) => [
          `/tag${i}`,
          { get: { operationId: `op${i}`, tags: [tag], responses: noContent } },
        ]),
      ),
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          required: ["__proto__"],
          properties: {
            // computed: `__proto__: ...` in an object literal would set its prototype
            ["__proto__"]: { type: "string" },
            constructor: { type: "string" },
            "a-b": { type: "string" },
            "a*/b": { type: "integer" },
          },
        },
      },
      securitySchemes: {
        "a-b": { type: "apiKey", in: "header", name: "X-A" },
        "a*/b": { type: "apiKey", in: "header", name: "X-B" },
      },
    },
  };

  it("keeps `__proto__` fields and parameters, required ones marked", () => {
    const files = specFiles(imported("proto", doc));
    const types = [...files.values()].find((f) => f.types)!.types as Record<string, any>;
    expect(Object.hasOwn(types.Thing.fields, "__proto__")).toBe(true);
    expect(Object.keys(types.Thing.fields)).toEqual(["__proto__", "constructor", "a-b", "a*/b"]);
    expect(types.Thing.fields.__proto__).toEqual({ type: "string", required: true });
    const get = (files.get("endpoints/constructor.yaml")!.endpoints as any)[
      "constructor.constructor"
    ];
    expect(Object.keys(get.params)).toEqual(["id", "id_query", "id_header", "__proto__"]);
    expect(get.params.__proto__).toEqual({ in: "query", type: "string", required: true });
  });

  it("keys a query and a header parameter named like the path parameter apart, keeping the wire name", () => {
    const files = specFiles(imported("places", doc));
    const get = (files.get("endpoints/constructor.yaml")!.endpoints as any)[
      "constructor.constructor"
    ];
    expect(get.params.id).toBe("string");
    expect(get.params.id_query).toEqual({
      in: "query",
      name: "id",
      type: "integer",
      required: true,
    });
    expect(get.params.id_header).toEqual({ in: "header", name: "id", type: "string" });
  });

  it("gives path parameters and credentials whose names collapse one each", () => {
    const files = specFiles(imported("collapse", doc));
    const pairs = (files.get("endpoints/aB.yaml")!.endpoints as any)["aB.pairs"];
    expect(pairs.path).toBe("/pairs/{a_b}/{a_b2}/{__proto__}");
    expect(Object.keys(pairs.params)).toEqual(["a_b", "a_b2", "__proto__"]);
    expect(pairs.auth).toEqual(["aB"]);
    const api = files.get("api.yaml")!;
    expect(Object.keys(api.credentials as object)).toEqual(["aB", "aB2"]);
    expect((api.credentials as any).aB2.header).toBe("X-B");
    const get = (files.get("endpoints/constructor.yaml")!.endpoints as any)[
      "constructor.constructor"
    ];
    expect(get.auth).toEqual(["aB2"]);
  });

  it("gives tags whose names collapse a group each, in files every file system keeps apart", () => {
    const files = [...specFiles(imported("files", doc)).keys()].filter((f) =>
      f.startsWith("endpoints/"),
    );
    expect(files.sort()).toEqual(
      [
        "endpoints/aB.yaml",
        "endpoints/aB2.yaml",
        "endpoints/cON_.yaml",
        "endpoints/com1_.yaml",
        "endpoints/constructor.yaml",
        "endpoints/lpt9_.yaml",
        "endpoints/nul_.yaml",
        "endpoints/userS-2.yaml",
        "endpoints/users.yaml",
        "endpoints/users2.yaml",
      ].sort(),
    );
    const lower = files.map((f) => f.toLowerCase());
    expect(new Set(lower).size).toBe(files.length);
  });

  it("writes a spec that generates a package that type-checks", async () => {
    const spec = imported("generates", doc);
    const out = join(scratch, "generates-out");
    mkdirSync(out);
    const result = await writeGenerated(spec, out);
    expect(result.model.endpoints.map((e) => `${e.groupProperty}.${e.methodName}`)).toContain(
      "constructor_.constructor_",
    );
    expect(typecheck(out)).toBe("");
  }, 120_000);
});

describe("the importer, on $ref cycles and deep schemas", () => {
  const deep = (levels: number): object =>
    levels === 0 ? { type: "string" } : { type: "object", properties: { x: deep(levels - 1) } };
  const doc = {
    openapi: "3.1.0",
    info: { title: "Cycles", version: "1.0.0" },
    paths: {
      "/a": {
        get: {
          operationId: "a/get",
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: deep(100) } } },
          },
        },
      },
    },
    components: {
      schemas: {
        A: { $ref: "#/components/schemas/B" },
        B: { $ref: "#/components/schemas/A" },
        C: {
          type: "object",
          required: ["d"],
          properties: { d: { $ref: "#/components/schemas/D" } },
        },
        D: {
          type: "object",
          required: ["c"],
          properties: { c: { $ref: "#/components/schemas/C" } },
        },
        F: { oneOf: [{ $ref: "#/components/schemas/F" }, { type: "string" }] },
        G: { allOf: [{ $ref: "#/components/schemas/G" }] },
        J: { allOf: [{ $ref: "#/components/schemas/K" }], properties: { j: { type: "string" } } },
        K: { allOf: [{ $ref: "#/components/schemas/J" }], properties: { k: { type: "string" } } },
        Deep: deep(100),
      },
    },
  };

  it("writes a spec the generator takes, every cut noted at its pointer", async () => {
    const spec = imported("cycles", doc);
    const result = await generateFrom(spec);
    expect(result.model.types.length).toBeGreaterThan(9);
    expect(result.model.gaps.map((g) => `${g.subject}: ${g.text}`)).toEqual([
      "types.B: type B, $ref of A, written as unknown: the $refs lead back here (A -> B -> A) with nothing between, which no value can satisfy (import: #/components/schemas/B)",
      "types.D.c: field c is optional here: required, only an infinite value could fill it (C.d -> D.c -> C) (import: #/components/schemas/D/properties/c)",
      "types.F: member F of the union left out: it names this type again (F -> F), which TypeScript cannot declare (import: #/components/schemas/F)",
      "types.G: type G, $ref of G, written as unknown: the $refs lead back here (G -> G) with nothing between, which no value can satisfy (import: #/components/schemas/G)",
      "types.K: allOf of J left out: it leads back here (J -> K -> J), and a type cannot extend itself (import: #/components/schemas/K)",
    ]);
  });

  it("names the levels of a deep schema instead of nesting them past what a spec may", async () => {
    const spec = imported("deep", doc);
    const result = await generateFrom(spec);
    const names = result.model.types.map((t) => t.name);
    expect(names.filter((n) => n.startsWith("AGetResponseBody")).length).toBeGreaterThan(1);
    expect(names.filter((n) => n.startsWith("DeepX")).length).toBeGreaterThan(1);
    // Nothing is lost: 100 levels of `x` down to the string.
    const byName = new Map(result.model.types.map((t) => [t.name, t.type]));
    let node = byName.get("Deep")!;
    let levels = 0;
    while (node.kind !== "primitive") {
      const resolved = node.kind === "ref" ? byName.get(node.name)! : node;
      if (resolved.kind !== "object") throw new Error(`level ${levels} is ${resolved.kind}`);
      node = resolved.fields[0]!.type;
      levels++;
    }
    expect(levels).toBe(100);
  });
});

describe("import --out-spec", () => {
  const input = () =>
    documentFile("out-spec", {
      openapi: "3.1.0",
      info: { title: "Out", version: "1.0.0" },
      paths: { "/a": { get: { operationId: "a/get", responses: noContent } } },
    });

  it.each([
    ["a file", (at: string) => writeFileSync(at, "mine"), "a file"],
    [
      "a link to a file",
      (at: string) => (writeFileSync(`${at}.target`, "mine"), symlinkSync(`${at}.target`, at)),
      "a link to a file",
    ],
    ["a link to nothing", (at: string) => symlinkSync(`${at}.nowhere`, at), "a link to nothing"],
  ])("refuses %s clearly, writing nothing", (_, make, what) => {
    const at = join(scratch, `out-${what.replace(/ /g, "-")}`);
    make(at);
    const document = input();
    const before = readdirSync(scratch).sort();
    const run = runCli(["import", document, "--out-spec", at]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain(`is ${what}, not a folder; name a new or empty folder`);
    expect(readdirSync(scratch).sort()).toEqual(before);
  });

  it("writes through a link to an empty folder, which stays a link", () => {
    const target = join(scratch, "out-target");
    const link = join(scratch, "out-link");
    mkdirSync(target);
    symlinkSync(target, link);
    const run = runCli(["import", input(), "--out-spec", link]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(target));
    expect(readdirSync(target).sort()).toEqual(["api.yaml", "endpoints"]);
  });
});
