/**
 * Names that broke or lost output (issue 30, item 7; docs/security.md, "Names"), each
 * through the real pipeline: packages generated into temp folders, type-checked with tsc,
 * and called against node:http servers, the stand-in and the router on 127.0.0.1.
 *
 * - test/fixtures/names/members: groups and methods named like object members
 *   (`constructor`, `toString`, `then`, a group's `core`, a method `new`), endpoint ids,
 *   error codes and callbacks whose identifiers collapse to one (`aB.x` and `a.bX`,
 *   `card_declined` and `card-declined`), types that hold a generated name, and a
 *   credential named like a client option.
 * - test/fixtures/names/wire: `__proto__` as a field and as parameters, and parameters of
 *   one name in two places (`name:`).
 * - spec types named like what the package declares or the globals it names.
 *
 * What the importer makes of such names is in test/import-names.test.ts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmitContext } from "../generator/emit/context.ts";
import { emitHandlersScaffold } from "../generator/emit/handlers-scaffold.ts";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { diagnosticsOf, repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { imported, noContent, recorder, specFiles, typecheck } from "./support/names.ts";

const scratch = tempDir("apigen-names-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("groups and methods named like object members, and names that collapse to one identifier", () => {
  const out = join(scratch, "members");
  // The generated client, loosely typed: its types are what tsc checks below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let pkg: any;
  let server: Awaited<ReturnType<typeof recorder>>;
  let warnings: string[] = [];
  let names: Record<string, string | undefined> = {};
  let handlerNames: string[] = [];

  beforeAll(async () => {
    mkdirSync(out);
    const result = await writeGenerated("test/fixtures/names/members", out);
    warnings = result.warnings.map((w) => `${w.code}: ${w.message}`);
    // The handler scaffold, in the package's src so that its type-check covers it.
    const scaffold = emitHandlersScaffold(
      createEmitContext(result.model, "test/fixtures/names/members/"),
      "src/handlers.ts",
      "./callbacks.js",
    );
    writeFileSync(join(out, scaffold.path), scaffold.contents);
    handlerNames = result.model.callbacks.map((c) => c.camelName);
    const endpoint = (id: string) => result.model.endpoints.find((e) => e.id === id)!;
    names = {
      groupClassName: endpoint("constructor.constructor").groupClassName,
      paramsTypeName: endpoint("aB.x").paramsTypeName,
    };
    compileInPlace(out);
    pkg = await importCompiled<typeof pkg>(join(out, "src/index.ts"));
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
    expect(typecheck(withRuntimeDeclarations(out))).toBe("");
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
    expect(warnings.filter((w) => w.startsWith("generated-name-taken:"))).toEqual([
      "generated-name-taken: type ConstructorApi has the name of the class of the methods generated for group constructor, which is called ConstructorApi2 instead; rename the type to keep ConstructorApi for it",
      "generated-name-taken: type ABXParams has the name of the parameters interface generated for endpoint aB.x, which is called ABXParams2 instead; rename the type to keep ABXParams for it",
    ]);
  });

  it("keeps each validator apart from the variable another one holds its shape in (Run, RunShape, RunShape2)", async () => {
    const validators = await importCompiled<
      Record<string, (value: unknown, path: string, issues: { path: string }[]) => void>
    >(join(out, "src/validators.ts"));
    const check = (name: string, value: unknown) => {
      const issues: { path: string }[] = [];
      validators[name]!(value, "body", issues);
      return issues.map((i) => i.path);
    };
    expect(check("validateRun", { shape: { steps: 1 }, next: { label: "l" } })).toEqual([]);
    expect(check("validateRun", { shape: { steps: "1" }, next: { label: 2 } })).toEqual([
      "body.shape.steps",
      "body.next.label",
    ]);
    expect(check("validateRunShape", { steps: "1" })).toEqual(["body.steps"]);
    expect(check("validateRunShape2", { label: 2 })).toEqual(["body.label"]);
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
    const { createCallbackRouter } = await importCompiled<typeof pkg>(
      join(out, "src/callbacks.ts"),
    );
    const seen: string[] = [];
    const router = createCallbackRouter({
      handlers: {
        "order.shipping": async () => void seen.push("order.shipping"),
        order_shipping: async () => void seen.push("order_shipping"),
        delete: async () => void seen.push("delete"),
        handlers: async () => void seen.push("handlers"),
      },
    });
    for (const path of ["/order-shipping-dotted", "/order-shipping-underscored", "/delete"]) {
      const answer = await router.fetch(
        new Request(`http://127.0.0.1${path}`, { method: "POST", body: '{"id":"o"}' }),
      );
      expect(answer.status).toBe(204);
    }
    expect(seen).toEqual(["order.shipping", "order_shipping", "delete"]);
    // The scaffold's handlers (type-checked with the package above) are named apart.
    expect(handlerNames).toEqual(["orderShipping", "orderShipping2", "delete_", "handlers2"]);
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
    compileInPlace(out);
    pkg = await importCompiled<typeof pkg>(join(out, "src/index.ts"));
    testing = await importCompiled<typeof testing>(join(out, "src/testing.ts"));
    server = await recorder();
  }, 60_000);
  afterAll(() => server?.close());

  it("gives a package that type-checks", () => {
    expect(typecheck(withRuntimeDeclarations(out))).toBe("");
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
    const { createCallbackRouter } = await importCompiled<typeof pkg>(
      join(out, "src/callbacks.ts"),
    );
    const seen: unknown[] = [];
    const router = createCallbackRouter({
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
        "  ClientCore: { fields: { a: string } }",
        "  WebhookDeliveryHeaders: { fields: { a: string } }",
        "  SignatureScheme: { fields: { a: string } }",
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
      expect.stringMatching(
        /api\.yaml:7:3 - error type-name-reserved: type ClientCore has the name of one the generated package exports from its runtime; rename it$/,
      ),
      expect.stringMatching(
        /api\.yaml:8:3 - error type-name-generated: type WebhookDeliveryHeaders has the name of one the generated package declares/,
      ),
      expect.stringMatching(
        /api\.yaml:9:3 - error type-name-reserved: type SignatureScheme has the name of one the generated package exports from its runtime; rename it$/,
      ),
    ]);
  });

  it("are prefixed by the importer, with a note", () => {
    const schemas = Object.fromEntries(
      ["ShopClient", "CallbackHandlers", "Record", "Promise", "ClientCore", "ApiError"].map(
        (name) => [name, { type: "object", properties: { a: { type: "string" } } }],
      ),
    );
    const files = specFiles(
      imported(scratch, "declared", {
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
      "ShopClientCore",
      // ShopApiError is the package's error class
      "ShopApiError2",
    ]);
    expect(types.ShopRecord.undocumented).toBe(
      "schema Record is written as ShopRecord: the generated code names the global Record (import: #/components/schemas/Record)",
    );
  });
});

/** A text as a regular expression that matches it. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
