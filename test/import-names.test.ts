/**
 * What the importer makes of names (issue 30, item 7; docs/security.md, "Names"): `__proto__`
 * fields and parameters, a path, query and header parameter of one name, path parameters,
 * security schemes and tags whose names collapse to one, tags whose files would collide when
 * case is ignored or be Windows devices, `$ref` cycles and 100-deep schemas the generator
 * would refuse, and an `--out-spec` that is a file or a link. Each document is written here,
 * imported, and (where the spec is the point) generated, type-checked with tsc.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFrom, runCli, tempDir, writeGenerated } from "./helpers.ts";
import { documentFile, imported, noContent, specFiles, typecheck } from "./support/names.ts";
import { clientNameOf, titleName } from "../generator/import/sections.ts";

const scratch = tempDir("apigen-import-names-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    const files = specFiles(imported(scratch, "proto", doc));
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
    const files = specFiles(imported(scratch, "places", doc));
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
    const files = specFiles(imported(scratch, "collapse", doc));
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
    const files = [...specFiles(imported(scratch, "files", doc)).keys()].filter((f) =>
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
    const spec = imported(scratch, "generates", doc);
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
    const spec = imported(scratch, "cycles", doc);
    const result = await generateFrom(spec);
    expect(result.model.types.length).toBeGreaterThan(9);
    expect(result.model.gaps.map((g) => `${g.subject}: ${g.text}`)).toEqual([
      "types.B: type B, $ref of A, written as unknown: the $refs lead back here (A -> B -> A) with nothing between, which no value can satisfy (import: #/components/schemas/B)",
      "types.D.c: field c is optional here: required, only an infinite value could fill it (C.d -> D.c -> C) (import: #/components/schemas/D/properties/c)",
      "types.F: member F of the union left out: it names this type again (F -> F), which TypeScript cannot declare (import: #/components/schemas/F)",
      "types.G: type G, $ref of G, written as unknown: the $refs lead back here (G -> G) with nothing between, which no value can satisfy (import: #/components/schemas/G)",
    ]);
    // J and K extend each other: K, converted while J is under way, copies J's own fields
    // instead of extending it, so nothing is cut (each has j and k, as the document means).
    const byName = new Map(result.model.types.map((t) => [t.name, t.type]));
    for (const name of ["J", "K"]) {
      const own = byName.get(name);
      const fields = own?.kind === "object" ? own.fields.map((f) => f.name) : [];
      expect(fields.sort(), name).toEqual(["j", "k"]);
    }
  });

  it("names the levels of a deep schema instead of nesting them past what a spec may", async () => {
    const spec = imported(scratch, "deep", doc);
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

describe("the importer, on very long names", () => {
  const long = (c: string, tail = "") => `${c.repeat(300)}${tail}`;
  const doc = {
    openapi: "3.1.0",
    info: { title: "Long", version: "1.0.0" },
    paths: {
      "/one": {
        get: {
          operationId: "one",
          tags: [long("t", "A")],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Mine" } } },
            },
          },
        },
      },
      "/two": { get: { operationId: "two", tags: [long("t", "B")], responses: noContent } },
      "/three": { get: { operationId: "three", tags: ["ab-".repeat(100)], responses: noContent } },
      "/four": { get: { operationId: `${long("o")}/list`, responses: noContent } },
      [`/${long("p")}`]: { get: { responses: noContent } },
    },
    components: { schemas: { Mine: { type: "object", properties: { a: { type: "string" } } } } },
  };
  const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

  it("writes files of bounded names, apart from each other, the same on every import", async () => {
    const first = [...specFiles(imported(scratch, "long-1", doc)).keys()].sort();
    const second = [...specFiles(imported(scratch, "long-2", doc)).keys()].sort();
    expect(second).toEqual(first);
    expect(first.filter((f) => f.startsWith("endpoints/"))).toHaveLength(5);
    expect(first.filter((f) => f.startsWith("types/"))).toHaveLength(1);
    for (const file of first) expect(utf8(file.split("/").pop()!)).toBeLessThanOrEqual(100);
    expect(new Set(first.map((f) => f.toLowerCase())).size).toBe(first.length);
    // The groups keep their whole names: only the files' names are cut.
    const result = await generateFrom(join(scratch, "long-1-spec"));
    const groups = new Set(result.model.endpoints.map((e) => e.group));
    expect(groups.size).toBe(5);
    expect([...groups].every((g) => g.length >= 200)).toBe(true);
  });
});

describe("import --out-spec", () => {
  const input = () =>
    documentFile(scratch, "out-spec", {
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
  ])("refuses %s clearly, writing nothing", async (_, make, what) => {
    const at = join(scratch, `out-${what.replace(/ /g, "-")}`);
    make(at);
    const document = input();
    const before = readdirSync(scratch).sort();
    const run = await runCli(["import", document, "--out-spec", at]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toContain("internal error");
    expect(run.stderr).toContain(`is ${what}, not a folder; name a new or empty folder`);
    expect(readdirSync(scratch).sort()).toEqual(before);
  });

  it("writes through a link to an empty folder, which stays a link", async () => {
    const target = join(scratch, "out-target");
    const link = join(scratch, "out-link");
    mkdirSync(target);
    symlinkSync(target, link);
    const run = await runCli(["import", input(), "--out-spec", link]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(link)).toBe(realpathSync(target));
    expect(readdirSync(target).sort()).toEqual(["api.yaml", "endpoints"]);
  });
});

describe("FastAPI's operationIds (the route's name, then the path and the method)", () => {
  it("keep the route's name, so a method name does not repeat its path and method", () => {
    const get = (operationId: string, tag: string) => ({
      get: { operationId, tags: [tag], responses: noContent },
    });
    const folder = imported(scratch, "fastapi", {
      openapi: "3.1.0",
      info: { title: "Racing", version: "1.0.0" },
      security: [{ HTTPBasic: [] }],
      components: { securitySchemes: { HTTPBasic: { type: "http", scheme: "basic" } } },
      paths: {
        "/v1/courses": get("list_courses_v1_courses_get", "courses"),
        "/v1/courses/regions": get("list_regions_v1_courses_regions_get", "courses"),
        "/v1/horses/{horse_id}/pro": get("horse_pro_v1_horses__horse_id__pro_get", "horses"),
        // not FastAPI's pattern (another path): kept whole, then shortened as any name is
        "/v1/other": get("other_v1_courses_get", "other"),
      },
    });
    const endpoints = Object.fromEntries(
      [...specFiles(folder).values()].flatMap((f) =>
        Object.entries((f.endpoints ?? {}) as Record<string, unknown>),
      ),
    );
    expect(Object.keys(endpoints).sort()).toEqual([
      "courses.list",
      "courses.listRegions",
      "horses.pro",
      "other.v1CoursesGet",
    ]);
    // a scheme named HTTPBasic is the client option httpBasic (its leading acronym lowered whole)
    expect(specFiles(folder).get("api.yaml")!.credentials).toHaveProperty("httpBasic");
  });
});

describe("the package's and client's names from a document's title", () => {
  it.each([
    ["Stripe API", "Stripe", "StripeClient"],
    ["GitHub's official OpenAPI spec + Octokit extension", "GitHub", "GitHubClient"],
    ["Swagger Petstore - OpenAPI 3.0", "Petstore", "PetstoreClient"],
    ["1Password Connect", "1Password Connect", "Api1PasswordConnectClient"],
    // session 26's sweep: words about the document, not the API
    ["Lago API documentation", "Lago", "LagoClient"],
    ["Twitch API Swagger UI (Unofficial)", "Twitch", "TwitchClient"],
    ["Trigger.dev v3 REST API", "Trigger.dev", "TriggerDevClient"],
    [
      "Spotify Web API with fixes and improvements from sonallux",
      "Spotify Web",
      "SpotifyWebClient",
    ],
    ["lightning.proto", "lightning", "LightningClient"],
    // AutoRest names its title as a client already
    ["DnsManagementClient", "DnsManagementClient", "DnsManagementClient"],
    // a connector before the API's name is part of it
    ["Built by Devs API", "Built by Devs", "BuiltByDevsClient"],
    ["API", "API", "APIClient"],
  ])("%s -> %s, %s", (title, name, client) => {
    expect(titleName(title)).toBe(name);
    expect(clientNameOf(titleName(title))).toBe(client);
  });
});
