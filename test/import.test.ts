/**
 * `--import`: an OpenAPI document becomes a spec folder that generates. The Petstore fixture
 * (test/fixtures/import/petstore.yaml, OpenAPI 3.0) covers schemas, operations, parameters,
 * bodies, security and servers; small documents written here cover 3.1 spellings and bad
 * input, which must be a clear error at its place with nothing written.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadModel } from "../generator/diff/load-base.ts";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { everyOutput, generateFrom, repoRoot, runCli, tempDir } from "./helpers.ts";

const made: string[] = [];
const scratch = () => {
  const dir = tempDir("apigen-import-");
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const petstore = join(repoRoot, "test/fixtures/import/petstore.yaml");

/** Imports a document into a fresh folder and reads every file back as YAML. */
function imported(input: string) {
  const outSpec = join(scratch(), "spec");
  const result = importSpec({ input, outSpec, schemaFile });
  writeSpecFolder(outSpec, result.files);
  const read = (path: string) => parse(readFileSync(join(outSpec, path), "utf8"));
  return { outSpec, result, read };
}

/** A document written into a scratch folder. */
function document(name: string, text: string): string {
  const dir = scratch();
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("importing the Petstore (OpenAPI 3.0)", () => {
  const { outSpec, result, read } = imported(petstore);

  it("splits the folder by area, each file with the schema modeline", () => {
    expect(result.files.map((f) => f.path).sort()).toEqual([
      "api.yaml",
      "endpoints/pets.yaml",
      "types/pets.yaml",
      "types/shared.yaml",
    ]);
    for (const file of result.files)
      expect(file.text).toMatch(
        /^# yaml-language-server: \$schema=(\.\.\/)+.*spec\.schema\.json\n/,
      );
  });

  it("carries api, environments and credentials", () => {
    const api = read("api.yaml");
    expect(api.api).toMatchObject({
      name: "petstore-api",
      title: "Swagger Petstore",
      version: "1.0.0",
    });
    expect(api.environments).toEqual({
      production: { description: "Production", baseUrl: "https://petstore.swagger.io/v2" },
    });
    expect(api.credentials).toEqual({ apiKey: { in: "header", header: "X-API-Key" } });
  });

  it("turns operations into endpoints: ids, params and their styles, bodies, responses, errors, auth", () => {
    const { endpoints } = read("endpoints/pets.yaml");
    expect(Object.keys(endpoints)).toEqual([
      "pets.list",
      "pets.create",
      "pets.showPetById",
      "pets.delete",
      "pets.uploadPhoto",
    ]);
    const list = endpoints["pets.list"];
    expect(list).toMatchObject({ method: "GET", path: "/pets", auth: ["apiKey"] });
    expect(list.errors).toEqual([{ description: "unexpected error" }]);
    expect(list.params.tags).toEqual({ in: "query", type: "string[]", style: "comma" });
    expect(list.params.limit).toMatchObject({ in: "query", type: "integer", maximum: 100 });
    expect(list.response).toMatchObject({
      status: 200,
      body: "Pets",
      headers: { "x-next": { type: "string" } },
    });
    expect(endpoints["pets.create"]).toMatchObject({
      body: "NewPet",
      errors: [{ status: 422, description: "Invalid pet" }],
    });
    expect(endpoints["pets.delete"].auth).toBeUndefined(); // security: [] overrides the document's
    expect(endpoints["pets.uploadPhoto"]).toMatchObject({
      contentType: "multipart/form-data",
      body: { fields: { file: { type: "binary", required: true }, caption: "string" } },
    });
  });

  it("turns schemas into named types: allOf as extends, nullable, enums, maps, tagged unions, recursion", () => {
    const { types } = read("types/pets.yaml");
    expect(types.Pet).toMatchObject({
      extends: "NewPet",
      fields: {
        id: { type: "integer", required: true },
        owner: "Owner",
        registered: { type: "string", format: "date-time", readOnly: true },
      },
    });
    expect(types.NewPet.fields).toEqual({
      name: { type: "string", required: true },
      tag: { type: "string", nullable: true },
      kind: { enum: ["dog", "cat", "bird"] },
      weight: { type: "number", exclusiveMinimum: 0, multipleOf: 0.01 },
      age: { type: "integer", exclusiveMaximum: 40 },
    });
    expect(types.Owner.fields.pets).toBe("Pet[]");
    expect(types.Owner.minProperties).toBe(1);
    // an array's count and the uniqueness of its items are carried
    expect(types.Pets).toEqual({ type: "Pet[]", maxItems: 100, uniqueItems: true });
    const shared = read("types/shared.yaml").types;
    expect(shared.Shape).toEqual({
      discriminator: "kind",
      union: { circle: "Circle", square: "Square" },
    });
    expect(shared.Labels).toBe("map<string>");
  });

  it("notes every loss with its JSON pointer, and --gaps lists them", async () => {
    expect(result.gaps).toBe(2);
    const run = await runCli(["--gaps", "--spec", outSpec]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("maxItems");
    expect(run.stdout).not.toContain("uniqueItems");
    // a readOnly property is carried (the field's readOnly), not noted
    expect(run.stdout).not.toContain("readOnly");
    expect(run.stdout).not.toContain("format date");
    // `default` beside a success is every other error status: an error entry, not a note
    expect(run.stdout).not.toContain("response default");
    expect(run.stdout).toContain("info.license (import: #/info/license)");
    expect(run.stdout).toContain(
      "format int64: a JavaScript number holds integers exactly only up to 2^53 (Number.MAX_SAFE_INTEGER) (import: #/components/schemas/Pet/allOf/1/properties/id/format)",
    );
  });

  it("generates a package from the imported folder", async () => {
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
    expect(client).toContain("list(");
    expect(client).toContain('"id":"pets.uploadPhoto"');
  });

  it("gives the same bytes on every run", () => {
    const again = importSpec({ input: petstore, outSpec, schemaFile });
    expect(again.files).toEqual(result.files);
  });
});

describe("OpenAPI 3.1 spellings", () => {
  it("reads type lists with null, const and examples", () => {
    const input = document(
      "doc.json",
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Things", version: "2" },
        paths: {
          "/things/{id}": {
            get: {
              operationId: "things/get",
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
              responses: {
                "200": {
                  description: "ok",
                  content: {
                    "application/json": { schema: { $ref: "#/components/schemas/Thing" } },
                  },
                },
              },
            },
          },
        },
        components: {
          schemas: {
            Thing: {
              type: "object",
              required: ["kind"],
              properties: {
                kind: { const: "thing" },
                note: { type: ["string", "null"], examples: ["hello"] },
                size: { type: ["integer", "string"] },
              },
            },
          },
        },
      }),
    );
    const { read } = imported(input);
    expect(read("types/things.yaml").types.Thing.fields).toEqual({
      kind: { const: "thing", required: true },
      note: { type: "string", nullable: true, example: "hello" },
      size: { union: ["integer", "string"] },
    });
    expect(Object.keys(read("endpoints/things.yaml").endpoints)).toEqual(["things.get"]);
  });
});

describe("bad input is an error at its place, and nothing is written", () => {
  const failing = async (text: string, name = "doc.yaml") => {
    const input = document(name, text);
    const outSpec = join(scratch(), "spec");
    const run = await runCli(["--import", input, "--out-spec", outSpec]);
    expect(run.status).toBe(1);
    expect(existsSync(outSpec)).toBe(false);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    return run.stderr;
  };

  it("refuses a Swagger document before 2.0", async () => {
    expect(await failing("swagger: '1.2'\ninfo: { title: x, version: '1' }\npaths: {}\n")).toMatch(
      /doc\.yaml:1:10 - error import-swagger-unsupported: a Swagger 1\.2 document; the importer reads Swagger 2\.0 and OpenAPI 3\.0 and 3\.1/,
    );
  });

  it("refuses a document that says it is both Swagger and OpenAPI", async () => {
    expect(
      await failing(
        "swagger: '2.0'\nopenapi: 3.0.3\ninfo: { title: x, version: '1' }\npaths: {}\n",
      ),
    ).toMatch(/doc\.yaml:1:10 - error import-bad-document: .*both `swagger` and `openapi`/);
  });

  it("refuses what is not OpenAPI, and versions it does not read", async () => {
    expect(await failing("title: hello\n")).toMatch(/error import-not-openapi/);
    expect(await failing("openapi: 4.0.0\npaths: {}\n")).toMatch(
      /doc\.yaml:1:10 - error import-version-unsupported: OpenAPI 4\.0\.0/,
    );
  });

  it("points at a broken $ref by line and pointer", async () => {
    const stderr = await failing(
      "openapi: 3.0.3\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: '#/components/schemas/Missing' }\n",
    );
    expect(stderr).toMatch(
      /doc\.yaml:11:23 - error import-ref-broken: \$ref #\/components\/schemas\/Missing points at nothing; an overlay can add what it names \(docs\/openapi-documents\.md, Overlays\) \(at #\/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\)/,
    );
  });

  it("lists every broken $ref of the document at once, but one in an example (data, left out)", async () => {
    const stderr = await failing(
      [
        "openapi: 3.0.3",
        "info: { title: x, version: '1' }",
        "paths:",
        "  /a:",
        "    get:",
        "      responses:",
        "        '200':",
        "          description: ok",
        "          content:",
        "            application/json:",
        "              schema: { $ref: '#/components/schemas/Later' }",
        "components:",
        "  schemas:",
        "    Later:",
        "      type: object",
        "      properties:",
        "        first: { $ref: '#/components/schemas/Missing' }",
        "        second: { $ref: '#/components/schemas/Gone' }",
        "        third: { type: string, example: { $ref: '#/components/examples/Nothing' } }",
        "",
      ].join("\n"),
    );
    const errors = stderr.split("\n").filter((line) => / - error /.test(line));
    expect(errors).toEqual([
      expect.stringMatching(
        /doc\.yaml:17:16 - error import-ref-broken: \$ref #\/components\/schemas\/Missing points at nothing; an overlay can add/,
      ),
      expect.stringMatching(
        /doc\.yaml:18:17 - error import-ref-broken: \$ref #\/components\/schemas\/Gone points at nothing/,
      ),
    ]);
  });

  it("reports invalid YAML at its line", async () => {
    expect(await failing("openapi: 3.0.3\ninfo: [unclosed\n")).toMatch(
      /doc\.yaml:\d+:\d+ - error import-syntax/,
    );
  });

  it("reports a quoted value whose lines are not indented past its key at the first such line (DWD's weather API)", async () => {
    const yaml =
      'openapi: 3.0.3\ninfo:\n  description: "The weather service.\n<br>\nMore.\n  "\n  title: T\n  version: "1"\npaths: {}\n';
    expect(await failing(yaml)).toContain(
      "doc.yaml:4:1 - error import-syntax: not valid JSON or YAML: the quoted value begun on line 3 is not closed before this line, which is not indented past its key: close the quote, or indent the value's lines past the key (or write it as a block scalar, |)",
    );
  });

  it("reports a comment in JSON at its place (YAML would have read it as part of the next key, losing `info`)", async () => {
    const json = (comment: string) =>
      `{\n  "openapi": "3.0.3", ${comment}\n  "info": { "title": "T", "version": "1" },\n  "paths": {}\n}\n`;
    const message =
      "error import-syntax: not valid JSON or YAML: a comment, which JSON does not have (take it out, or write the document as YAML, whose comments begin with #)";
    expect(await failing(json("// the version"), "doc.json")).toContain(
      `doc.json:2:23 - ${message}`,
    );
    expect(await failing(json("\n  /* the API */"), "doc.json")).toContain(
      `doc.json:3:3 - ${message}`,
    );
  });

  it("never writes into a folder that holds files", async () => {
    const outSpec = join(scratch(), "spec");
    mkdirSync(outSpec);
    writeFileSync(join(outSpec, "mine.yaml"), "keep me\n");
    const run = await runCli(["--import", petstore, "--out-spec", outSpec]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/error import-out-spec-not-empty/);
    expect(readdirSync(outSpec)).toEqual(["mine.yaml"]);
  });

  it("says import needs --out-spec, as a command and as --import, and that --out is another folder", async () => {
    for (const args of [
      ["import", petstore, "--out", "spec"],
      ["--import", petstore],
    ]) {
      const run = await runCli(args);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^import needs --out-spec DIR: the spec folder to write \(--out is the package's folder\)$/m,
      );
    }
  });
});

describe("apigen's own OpenAPI comes back (the round trip)", () => {
  /** Every endpoint of a spec folder, by id, as written. */
  const endpointsOf = (dir: string) =>
    Object.assign(
      {},
      ...readdirSync(dir, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".yaml"))
        .map((f) => parse(readFileSync(join(dir, f), "utf8"))?.endpoints ?? {}),
    ) as Record<string, Record<string, unknown>>;

  it("carries every endpoint's pagination (x-apigen-pagination)", () => {
    const { outSpec } = imported(
      join(repoRoot, "test/__snapshots__/features/pagination/openapi.json"),
    );
    const original = endpointsOf(join(repoRoot, "test/fixtures/features/pagination"));
    const back = endpointsOf(outSpec);
    expect(Object.keys(back).sort()).toEqual(Object.keys(original).sort());
    // The document names the Link header even where the spec leaves it to its default.
    const withDefaults = (p: unknown) => {
      const paging = p as Record<string, unknown>;
      return paging.style === "link" && !paging.field ? { header: "Link", ...paging } : paging;
    };
    for (const [id, endpoint] of Object.entries(original))
      expect(back[id]!.pagination, id).toEqual(withDefaults(endpoint.pagination));
  });

  it("carries generic types (x-apigen-generics) and each use (x-apigen-generic): the same document again", async () => {
    const document = join(repoRoot, "test/__snapshots__/features/generics/openapi.json");
    const { outSpec, read } = imported(document);
    const types = Object.assign(
      {},
      ...readdirSync(join(outSpec, "types")).map((f) => read(`types/${f}`).types),
    ) as Record<string, Record<string, unknown>>;
    expect(types.List!.typeParams).toEqual(["T"]);
    expect(types.Slice!.typeParams).toEqual(["Item", "Cursor"]);
    // A use's own schema is no type of the spec: it is written as the use.
    expect(Object.keys(types)).not.toContain("ListCustomer");
    expect(endpointsOf(outSpec)["orders.batches"]!.response).toEqual({
      status: 200,
      body: "List<List<Order>>",
    });
    const again = await generateFrom(outSpec, join(scratch(), "out"));
    const back = JSON.parse(again.files.find((f) => f.path === "openapi.json")!.contents);
    const original = JSON.parse(readFileSync(document, "utf8"));
    expect(back.components).toEqual(original.components);
    expect(back.paths).toEqual(original.paths);
  });

  it("carries environments' address variables (server variables), one without a default too (x-apigen-required)", () => {
    const { read } = imported(join(repoRoot, "test/__snapshots__/features/requests/openapi.json"));
    const original = parse(
      readFileSync(join(repoRoot, "test/fixtures/features/requests/api.yaml"), "utf8"),
    );
    expect(read("api.yaml").environments).toEqual(original.environments);
  });

  it("keeps an operation's deprecated and externalDocs (an http(s) link), noting one of another kind", () => {
    const path = document(
      "links.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: Links, version: 1.0.0 }",
        "paths:",
        "  /old:",
        "    get:",
        "      operationId: getOld",
        "      deprecated: true",
        "      externalDocs: { url: 'https://docs.example.com/old', description: The old call. }",
        "      responses: { '204': { description: none } }",
        "  /mail:",
        "    get:",
        "      operationId: getMail",
        "      externalDocs: { url: 'mailto:docs@example.com' }",
        "      responses: { '204': { description: none } }",
      ].join("\n"),
    );
    const { read, outSpec } = imported(path);
    const endpoints = readdirSync(join(outSpec, "endpoints")).flatMap(
      (file) => Object.values(read(`endpoints/${file}`).endpoints) as Record<string, unknown>[],
    );
    const old = endpoints.find((e) => e.path === "/old")!;
    expect(old.deprecated).toBe(true);
    expect(old.externalDocs).toEqual({
      url: "https://docs.example.com/old",
      description: "The old call.",
    });
    const mail = endpoints.find((e) => e.path === "/mail")!;
    expect(mail).not.toHaveProperty("externalDocs");
    expect(mail.undocumented).toBe(
      "externalDocs without an http(s) URL (import: #/paths/~1mail/get/externalDocs)",
    );
  });

  it("keeps a server's variables where the format can say them, and fills in the defaults where not", () => {
    const path = document(
      "servers.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: Servers, version: 1.0.0 }",
        "servers:",
        "  - url: https://{subdomain}.example.com/{version}",
        "    description: Production",
        "    variables:",
        "      subdomain: { default: acme, description: Your subdomain. }",
        "      version: { default: v2, enum: [v1, v2] }",
        "      unused: { default: x }",
        "  - url: '{scheme}://sandbox.example.com'",
        "    description: Sandbox",
        "    variables:",
        "      scheme: { default: https, enum: [https, http] }",
        "  - url: https://{host}/",
        "    description: Proxy",
        "    variables:",
        "      host: { default: 'proxy.example:8443/x?y' }",
        "  - url: https://{accountName}.example.com.br",
        "    description: Account",
        "    variables:",
        "      accountName: { default: '{accountName}', description: Your account. }",
        "paths: {}",
      ].join("\n"),
    );
    const { read } = imported(path);
    expect(read("api.yaml").environments).toEqual({
      production: {
        undocumented:
          "server variable unused is not in the URL: left out (import: #/servers/0/variables/unused)",
        description: "Production",
        baseUrl: "https://{subdomain}.example.com/{version}",
        variables: {
          subdomain: { description: "Your subdomain.", default: "acme" },
          version: { default: "v2", enum: ["v1", "v2"] },
        },
      },
      sandbox: {
        undocumented:
          "server variables; their defaults are filled in (import: #/servers/1/variables)",
        description: "Sandbox",
        baseUrl: "https://sandbox.example.com",
      },
      // filled in, the address has a query, which the client refuses: no address
      proxy: {
        undocumented: [
          "server variables; their defaults are filled in (import: #/servers/2/variables)",
          "server URL https://proxy.example:8443/x?y/ has a query or fragment, which endpoint paths cannot follow: left out (import: #/servers/2/url)",
        ],
        description: "Proxy",
      },
      // a default that is the variable's own placeholder (VTEX's): the caller gives it
      account: {
        description: "Account",
        baseUrl: "https://{accountName}.example.com.br",
        variables: { accountName: { description: "Your account." } },
      },
    });
  });

  it("carries expandable fields (x-apigen-expandable) and where a call lists them (x-apigen-expand)", () => {
    const { outSpec, read } = imported(
      join(repoRoot, "test/__snapshots__/features/expandable/openapi.json"),
    );
    const original = endpointsOf(join(repoRoot, "test/fixtures/features/expandable"));
    const back = endpointsOf(outSpec);
    for (const [id, endpoint] of Object.entries(original))
      expect(back[id]!.expand, id).toEqual(endpoint.expand);
    const types = Object.assign(
      {},
      ...readdirSync(join(outSpec, "types")).map((f) => read(`types/${f}`).types),
    ) as Record<string, { fields: Record<string, { expandable?: boolean }> }>;
    expect(types.Payment!.fields.customer!.expandable).toBe(true);
    expect(types.Charge!.fields.card!.expandable).toBe(true);
    expect(types.Charge!.fields.amount).not.toHaveProperty("expandable");
  });

  it("carries streams (x-apigen-stream, with its error item) and a flag's stream (x-apigen-stream-flag)", () => {
    const { outSpec } = imported(
      join(repoRoot, "test/__snapshots__/features/streaming/openapi.json"),
    );
    const original = endpointsOf(join(repoRoot, "test/fixtures/features/streaming"));
    const back = endpointsOf(outSpec);
    const streamKeys = (r: unknown) => {
      const { contentType, body, events, open, terminator, flag, error } = (r ?? {}) as Record<
        string,
        unknown
      >;
      return { contentType, body, events, open, terminator, flag, error };
    };
    for (const [id, endpoint] of Object.entries(original)) {
      expect(streamKeys(back[id]!.response), id).toEqual(streamKeys(endpoint.response));
      expect(streamKeys(back[id]!.streamResponse), id).toEqual(streamKeys(endpoint.streamResponse));
    }
  });

  it("carries the statuses retried for every method (x-errors' notProcessed)", () => {
    const { outSpec } = imported(
      join(repoRoot, "test/__snapshots__/features/errors-and-retries/openapi.json"),
    );
    const statusesOf = (dir: string) => {
      const files = readdirSync(dir, { recursive: true }).map(String);
      const api = files.find(
        (f) => f.endsWith(".yaml") && /statuses:/.test(readFileSync(join(dir, f), "utf8")),
      );
      const statuses = parse(readFileSync(join(dir, api!), "utf8")).errors.statuses as Record<
        string,
        Record<string, unknown>
      >;
      return Object.fromEntries(
        Object.entries(statuses).map(([status, info]) => [
          status,
          { retry: info.retry === true, notProcessed: info.notProcessed === true },
        ]),
      );
    };
    const original = statusesOf(join(repoRoot, "test/fixtures/features/errors-and-retries"));
    expect(original["429"]).toEqual({ retry: false, notProcessed: true });
    expect(statusesOf(outSpec)).toEqual(original);
  });

  it("carries where signed calls put their signing time and delivery id (x-apigen-timestamp, x-apigen-delivery-id)", async () => {
    const fixture = join(repoRoot, "test/fixtures/callbacks-replay");
    const generated = await generateFrom(fixture, join(scratch(), "out"));
    const openapi = generated.files.find((f) => f.path === "openapi.json")!.contents;
    const { outSpec } = imported(document("openapi.json", openapi));
    const credentialsOf = (dir: string) =>
      Object.assign(
        {},
        ...readdirSync(dir, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith(".yaml"))
          .map((f) => parse(readFileSync(join(dir, f), "utf8"))?.credentials ?? {}),
      ) as Record<string, Record<string, unknown>>;
    const places = (credentials: Record<string, Record<string, unknown>>) =>
      Object.fromEntries(
        Object.entries(credentials).map(([id, c]) => [
          id,
          { timestamp: c.timestamp, deliveryId: c.deliveryId },
        ]),
      );
    expect(places(credentialsOf(outSpec))).toEqual(places(credentialsOf(fixture)));
    expect(places(credentialsOf(outSpec)).hookSigner).toEqual({
      timestamp: { in: "signature", name: "t" },
      deliveryId: { in: "body", name: "id" },
    });
  });

  it("carries each credential's signature scheme, prefix and signs template (x-apigen-signature-scheme)", async () => {
    const fixture = join(repoRoot, "test/fixtures/callbacks-schemes");
    const generated = await generateFrom(fixture, join(scratch(), "out"));
    const openapi = generated.files.find((f) => f.path === "openapi.json")!.contents;
    const { outSpec } = imported(document("openapi.json", openapi));
    const signing = (dir: string) =>
      Object.fromEntries(
        loadModel(dir)
          .credentials.filter((c) => c.placement === "signature")
          .map((c) => [c.id, { scheme: c.signing, timestamp: c.timestamp, id: c.deliveryId }]),
      );
    expect(signing(outSpec)).toEqual(signing(fixture));
    expect(signing(outSpec).hexSigner!.scheme).toEqual({
      name: "hmac-sha256-hex",
      prefix: "sha256=",
    });
    expect(signing(outSpec).standardSigner!.scheme).toEqual({
      name: "standard-webhooks",
      id: "webhook-id",
      timestamp: "webhook-timestamp",
    });
    expect(signing(outSpec).slackSigner!.scheme).toEqual({
      name: "hmac-sha256-hex",
      prefix: "v0=",
      signs: "v0:{timestamp}:{body}",
      timestamp: "X-Slack-Request-Timestamp",
    });
    // the description says how the header is written, and the import leaves that out again
    const parameters = (JSON.parse(openapi) as { components: { parameters: Record<string, any> } })
      .components.parameters;
    expect(parameters["Stripe-Signature"].description).toContain(
      "Signature scheme `timestamped`: `t=<unix seconds>,v1=<hex>`",
    );
    const credentials = parse(readFileSync(join(outSpec, "api.yaml"), "utf8"))?.credentials;
    expect(JSON.stringify(credentials ?? {})).not.toContain("Signature scheme");
  });

  it("carries the webhooks' declared delivery headers (header parameters of each delivery)", async () => {
    const fixture = join(repoRoot, "test/fixtures/features/standard-webhooks");
    const generated = await generateFrom(fixture, join(scratch(), "out"));
    const openapi = generated.files.find((f) => f.path === "openapi.json")!.contents;
    const { outSpec, read } = imported(document("openapi.json", openapi));
    const headers = (dir: string) => {
      const node = loadModel(dir).webhooks?.headers;
      return node?.kind === "object"
        ? node.fields.map((f) => ({
            name: f.name,
            required: f.required,
            kind: f.type.kind,
            constraints: f.type.constraints,
            description: f.type.docs.description,
          }))
        : [];
    };
    expect(headers(outSpec)).toEqual(headers(fixture));
    expect(headers(outSpec).map((h) => h.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "X-Attempt",
      "X-Environment",
    ]);
    expect(read("webhooks.yaml").webhooks.headers["webhook-timestamp"]).toEqual({
      type: "integer",
      required: true,
    });
  });

  /**
   * The top-level statements of a generated file (each with its doc comment), after the
   * banner line, which names the spec folder.
   */
  const statementsOf = (text: string) =>
    text
      .slice(text.indexOf("\n") + 1)
      .split(
        /(?<!\*\/)\n(?=(?:\/\*\*(?:(?!\*\/)[\s\S])*?\*\/\n)?(?:export |const |function |class |import ))/,
      )
      .map((s) => s.trim())
      .filter(Boolean);

  /**
   * Where the package generated from the imported document differs from the committed one,
   * statement by statement (`file: first line`), each with why. Everything else is byte for
   * byte the same, in every source file of the package.
   */
  const expectedDifferences: Record<string, string> = {
    "src/client.ts: /**":
      "the client core's doc names the first endpoint function, and the import writes one endpoint file per tag, read in name order (orders first), where the spec has one file",
    "src/client.ts: /** Client of the Merchant Commerce API: one method per endpoint, grouped as in the endpoint ids. */":
      "its groups are listed in the same file order: orders, subscriptions, testing, transactions, webhooks",
    "src/testing.ts: const table: StandInTable = /* @__PURE__ */ tableOf(":
      "the stand-in's route table lists the same routes in the same file order",
    "src/openapi.ts: /**": "the embedded document lists its paths and tags in the same file order",
    "src/client.ts: /** The id of an endpoint of the client, as middleware's hooks are given it (`context.endpointId`): `switch` on it. */":
      "the union of endpoint ids lists them in the same file order",
    "src/msw.ts: /**": "MswAnswers lists the endpoints in the same file order",
    "src/tanstack-query.ts: /**": "the query options follow the endpoints in the same file order",
    "src/validators.ts: /** Each endpoint's success body and stream item validators: the client's `responseValidators`. */":
      "the table of response validators lists the endpoints in the same file order",
    "src/validators.ts: /** Each endpoint's parameter and body validators: the client's `requestValidators`, for the browser build, whose endpoints check requests only with them. */":
      "the table of request validators lists the endpoints in the same file order",
    "src/request-validators.ts: export {":
      "the endpoints' request validators are re-exported in the same file order",
    "src/request-validators.browser.ts: /** The browser build's request-validators.ts (package.json's `browser` map): no validator, so a bundle for browsers leaves them out; the client's `requestValidators` option brings them back. */":
      "its stand-ins of the validators follow the same file order, so the first statement after the doc comment is another",
    "src/request-validators.browser.ts: export const validateAuthorizeRequest: undefined = undefined;":
      "the same file order: a statement that follows another one here",
    "src/request-validators.browser.ts: export const validateCreateOrderRequest: undefined = undefined;":
      "the same file order: a statement that follows another one here",
  };

  it("gives back the Merchant package: every difference is listed with its reason", async () => {
    const { outSpec } = imported(join(repoRoot, "generated/openapi.json"));
    // with the outputs generated/ has (apigen.config.ts): every one
    const generated = await generateFrom(outSpec, join(scratch(), "out"), {
      outputs: everyOutput,
    });
    const after = new Map(generated.files.map((f) => [f.path, f.contents]));
    const differences = new Set<string>();
    const sources = readdirSync(join(repoRoot, "generated/src"), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts") && !f.startsWith("runtime"));
    for (const file of sources.map((f) => `src/${f}`)) {
      const text = after.get(file);
      if (text === undefined) {
        differences.add(file);
        continue;
      }
      const before = statementsOf(readFileSync(join(repoRoot, "generated", file), "utf8"));
      const back = new Set(statementsOf(text));
      const kept = new Set(before);
      for (const statement of [
        ...before.filter((s) => !back.has(s)),
        ...[...back].filter((s) => !kept.has(s)),
      ])
        differences.add(`${file}: ${statement.split("\n")[0]}`);
    }
    expect([...differences].sort()).toEqual(Object.keys(expectedDifferences).sort());
  });

  it("gives back the names, the shared headers and each endpoint's rules", () => {
    const { read, outSpec } = imported(join(repoRoot, "generated/openapi.json"));
    const spec = parse(readFileSync(join(repoRoot, "spec/api.yaml"), "utf8"));
    const api = read("api.yaml");
    for (const key of ["name", "clientName", "baseUrl", "callbackBaseUrl", "description"])
      expect(api.api[key], key).toBe(spec.api[key].trim());
    expect(Object.keys(api.headers)).toEqual(Object.keys(spec.headers));
    expect(api.headers["X-Nonce"]).toMatchObject({
      description: spec.headers["X-Nonce"].description,
      undocumented: spec.headers["X-Nonce"].undocumented,
    });
    const original = parse(readFileSync(join(repoRoot, "spec/endpoints.yaml"), "utf8")).endpoints;
    const back = endpointsOf(outSpec);
    const withRules = Object.keys(original).filter((id) => original[id].rules);
    expect(withRules.length).toBeGreaterThan(0);
    for (const id of Object.keys(original)) expect(back[id]!.rules, id).toEqual(original[id].rules);
    expect(back["transactions.list"]!.params).toBeUndefined(); // X-Nonce is the API's, not the endpoint's
  });
});

describe("what real documents do", () => {
  const real = () =>
    imported(
      document(
        "real.json",
        JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Discord HTTP API (Preview)", version: "10" },
          paths: {
            "/orgs/{org}/attestations/{attestation_id}": {
              delete: {
                operationId: "orgs/delete-attestation",
                parameters: [
                  { name: "org", in: "path", required: true, schema: { type: "string" } },
                  {
                    name: "attestation_id",
                    in: "path",
                    required: true,
                    schema: { type: "integer" },
                  },
                ],
                responses: { "204": { description: "gone" } },
              },
            },
            "/orgs/{org}/attestations/{subject_digest}": {
              get: {
                operationId: "orgs/list-attestations",
                parameters: [
                  { name: "org", in: "path", required: true, schema: { type: "string" } },
                  {
                    name: "subject_digest",
                    in: "path",
                    required: true,
                    schema: { type: "string" },
                  },
                ],
                responses: {
                  "200": {
                    description: "ok",
                    headers: { Link: { schema: { type: "string" } } },
                    content: {
                      "application/json": {
                        schema: {
                          type: "object",
                          properties: {
                            total_count: { type: "integer" },
                            attestations: { type: "array", items: { type: "string" } },
                          },
                          example: { $ref: "#/components/examples/attestations" },
                        },
                      },
                    },
                  },
                },
              },
            },
            "/orgs/{org}/repos": {
              get: {
                operationId: "orgs/list-repos",
                parameters: [
                  { name: "org", in: "path", required: true, schema: { type: "string" } },
                ],
                responses: {
                  "200": {
                    description: "ok",
                    headers: { link: { $ref: "#/components/headers/link" } },
                    content: {
                      "application/json": { schema: { type: "array", items: { type: "string" } } },
                    },
                  },
                },
              },
            },
          },
          components: {
            headers: { link: { schema: { type: "string" } } },
            examples: { attestations: { value: { total_count: 1, attestations: ["a"] } } },
          },
        }),
      ),
    );

  it("carries who writes a property (readOnly, writeOnly), through a $ref too; both at once is noted; keeps uri-template", () => {
    const path = document(
      "access.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: Access, version: 1.0.0 }",
        "paths: {}",
        "components:",
        "  schemas:",
        "    Id: { type: string, readOnly: true }",
        "    User:",
        "      type: object",
        "      required: [id, password]",
        "      properties:",
        "        id: { $ref: '#/components/schemas/Id' }",
        "        password: { type: string, writeOnly: true }",
        "        created: { type: string, readOnly: true, description: When it was made. }",
        "        odd: { type: string, readOnly: true, writeOnly: true }",
        "        plain: { type: string, readOnly: false }",
        "        issues_url: { type: string, format: uri-template }",
      ].join("\n"),
    );
    const { read, outSpec } = imported(path);
    const [file] = readdirSync(join(outSpec, "types"));
    const { User } = read(`types/${file}`).types;
    expect(User.fields).toEqual({
      id: { type: "Id", readOnly: true, required: true },
      password: { type: "string", writeOnly: true, required: true },
      created: { type: "string", description: "When it was made.", readOnly: true },
      odd: {
        type: "string",
        undocumented:
          "readOnly and writeOnly both: neither is carried (import: #/components/schemas/User/properties/odd/writeOnly)",
      },
      plain: "string",
      // GitHub's 3,599 `*_url` templates: a format of the spec, not a note
      issues_url: { type: "string", format: "uri-template" },
    });
    // a named schema's own readOnly is carried by the property that names it, and not noted
    expect(read(`types/${file}`).types.Id).toBe("string");
  });

  it("names the package and client from the API's name in the title, and pads a short version to semver", () => {
    const { read } = real();
    expect(read("api.yaml").api).toMatchObject({
      name: "discord-api",
      clientName: "DiscordClient",
      version: "10.0.0",
      undocumented: "info.version 10, written as 10.0.0 (import: #/info/version)",
    });
  });

  it("notes a title and a version the document does not give (OpenAPI requires both)", () => {
    const without = (info: object | undefined) =>
      imported(
        document("no-info.json", JSON.stringify({ openapi: "3.0.3", info, paths: {} })),
      ).read("api.yaml").api;
    expect(without(undefined)).toMatchObject({
      title: "API",
      version: "0.0.0",
      undocumented: [
        "no info.title: the API is titled API (import: #)",
        "no info.version: the package version is 0.0.0 (import: #)",
      ],
    });
    const titled = without({ title: "Shop" });
    expect(titled.undocumented).toBe(
      "no info.version: the package version is 0.0.0 (import: #/info)",
    );
    expect(without({ title: "Shop", version: "2.1.0" })).not.toHaveProperty("undocumented");
  });

  it("gives a path that differs from an earlier one only in parameter names the earlier names, with a note", () => {
    const { endpoints } = real().read("endpoints/orgs.yaml");
    const listed = endpoints["orgs.listAttestations"];
    expect(listed.path).toBe("/orgs/{org}/attestations/{attestation_id}");
    expect(listed.params).toEqual({ org: "string", attestation_id: "string" });
    expect(listed.undocumented).toContain(
      "path /orgs/{org}/attestations/{subject_digest} differs from /orgs/{org}/attestations/{attestation_id} only in parameter names, which OpenAPI forbids; written with subject_digest as attestation_id (import: #/paths/~1orgs~1{org}~1attestations~1{subject_digest}/get)",
    );
  });

  it("follows a $ref inside an example to the example's value", () => {
    const { endpoints } = real().read("endpoints/orgs.yaml");
    expect(endpoints["orgs.listAttestations"].response.body.example).toEqual({
      total_count: 1,
      attestations: ["a"],
    });
  });

  it("pages by the Link header where a success response declares one", () => {
    const { endpoints } = real().read("endpoints/orgs.yaml");
    expect(endpoints["orgs.listRepos"].pagination).toEqual({ style: "link", header: "link" });
    // An object body pages through its one array property.
    expect(endpoints["orgs.listAttestations"].pagination).toEqual({
      style: "link",
      items: "attestations",
    });
    expect(endpoints["orgs.deleteAttestation"].pagination).toBeUndefined();
  });
});

describe("webhooks and callbacks of other documents", () => {
  const event = (name: string, schema: string) => ({
    post: {
      parameters: [
        { name: "X-Event", in: "header", required: true, schema: { type: "string", const: name } },
      ],
      requestBody: {
        content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: { "200": { description: "ok" } },
    },
  });
  const doc = (webhooks: Record<string, unknown>, paths: Record<string, unknown> = {}) =>
    imported(
      document(
        "inbound.json",
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Shop", version: "1.0.0" },
          paths,
          webhooks,
          components: {
            schemas: {
              Order: { type: "object", properties: { id: { type: "string" } } },
              Refund: { type: "object", properties: { amount: { type: "integer" } } },
            },
          },
        }),
      ),
    );

  it("types each event where a header names it with a const, and the package has a router", async () => {
    const { read, outSpec } = doc({
      orderCreated: event("order.created", "Order"),
      refundIssued: event("refund.issued", "Refund"),
    });
    expect(read("webhooks.yaml").webhooks).toEqual({
      eventHeader: "X-Event",
      events: { "order.created": { payload: "Order" }, "refund.issued": { payload: "Refund" } },
    });
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    expect(generated.files.map((f) => f.path)).toContain("src/callbacks.ts");
  });

  it("makes webhooks that name one event (GitHub's issues-opened, issues-closed) one event of their union, losing none", async () => {
    const described = (name: string, schema: string, description: string) => {
      const { post } = event(name, schema);
      return { post: { ...post, description } };
    };
    const { read, outSpec } = doc({
      "order-created": described("order", "Order", "An order was created."),
      "order-refunded": described("order", "Refund", "An order was refunded."),
      "order-touched": event("order", "Order"),
      refundIssued: event("refund.issued", "Refund"),
    });
    expect(read("webhooks.yaml").webhooks).toEqual({
      eventHeader: "X-Event",
      events: {
        order: {
          payload: { union: ["Order", "Refund"] },
          description:
            "- order-created: An order was created.\n- order-refunded: An order was refunded.\n- order-touched",
        },
        "refund.issued": { payload: "Refund" },
      },
    });
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const callbacks = generated.files.find((f) => f.path === "src/callbacks.ts")!.contents;
    expect(callbacks).toContain(
      "order?: (payload: Order | Refund, ctx: WebhookContext) => void | Promise<void>;",
    );
  });

  it("reads a webhook's body from its own file, its $refs relative to that file (Rebilly's layout)", () => {
    const dir = scratch();
    const files: Record<string, string> = {
      "openapi.yaml": [
        "openapi: 3.1.0",
        "info: { title: Hooks, version: '1' }",
        "webhooks:",
        "  order-created: { post: { $ref: ./webhooks/order-created.yaml } }",
        "  order-paid: { post: { $ref: ./webhooks/order-paid.yaml } }",
      ].join("\n"),
      "webhooks/order-created.yaml":
        "requestBody: { $ref: ../components/requestBodies/Hooks/OrderCreated.yaml }\nresponses: { '200': { description: ok } }\n",
      "webhooks/order-paid.yaml":
        "requestBody: { $ref: ../components/requestBodies/Hooks/OrderPaid.yaml }\nresponses: { '200': { description: ok } }\n",
      "components/requestBodies/Hooks/OrderCreated.yaml":
        "content:\n  application/json:\n    schema:\n      properties:\n        eventType: { type: string, const: order.created }\n        orderId: { $ref: ../../schemas/OrderId.yaml }\n",
      "components/requestBodies/Hooks/OrderPaid.yaml":
        "content:\n  application/json:\n    schema:\n      properties:\n        orderId: { $ref: ../../schemas/OrderId.yaml }\n        eventType: { type: string, const: order.paid }\n",
      "components/schemas/OrderId.yaml": "type: string\ndescription: An order's id.\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const { read } = imported(join(dir, "openapi.yaml"));
    const webhooks = read("webhooks.yaml").webhooks;
    expect(webhooks.eventField).toBe("eventType");
    expect(Object.keys(webhooks.events)).toEqual(["order.created", "order.paid"]);
  });

  it("writes one payload, the union, with a note, where nothing names the event", () => {
    const plain = (schema: string) => {
      const { post } = event("x", schema);
      return { post: { ...post, parameters: [] } };
    };
    const { read } = doc({ a: plain("Order"), b: plain("Refund") });
    expect(read("webhooks.yaml").webhooks).toEqual({
      payload: { union: ["Order", "Refund"] },
      undocumented:
        "webhooks a, b: the document does not say how a delivery names its event, so one payload (their union) is written (import: #/webhooks)",
    });
  });

  it("reads the header parameters every delivery declares alike as delivery headers, noting the others", async () => {
    const header = (name: string, schema: object, more: object = {}) => ({
      name,
      in: "header",
      schema,
      ...more,
    });
    const shared = [
      header("X-Hook-Delivery", { type: "string" }, { required: true, description: "A GUID." }),
      header("X-Hook-Attempt", { type: "integer", minimum: 1 }),
      header("X-Hook-Target", { type: "string", enum: ["repository", "organization"] }),
      header("X-Hook-Shape", { type: "object" }),
    ];
    const delivery = (schema: string, parameters: object[]) => {
      const { post } = event("x", schema);
      return { post: { ...post, parameters } };
    };
    // GitHub's shape: nothing names the event, every delivery declares the same headers
    const { read, outSpec } = doc({
      a: delivery("Order", [...shared, header("X-Only-A", { type: "string" })]),
      b: delivery("Refund", [
        ...shared,
        header("x-hook-attempt", { type: "string" }),
        header("Bad Name", { type: "string" }),
      ]),
    });
    const webhooks = read("webhooks.yaml").webhooks;
    expect(webhooks.headers).toEqual({
      "X-Hook-Delivery": { type: "string", required: true, description: "A GUID." },
      "X-Hook-Attempt": { type: "integer", minimum: 1 },
      "X-Hook-Target": { enum: ["repository", "organization"] },
    });
    expect(webhooks.undocumented).toEqual([
      "delivery header X-Hook-Shape of a type a header cannot carry (import: #/webhooks/a/post/parameters/3)",
      "delivery header X-Only-A: not declared alike by every delivery, so not read as one of all (import: #/webhooks/a/post/parameters/4)",
      'delivery header "Bad Name" is no header name (import: #/webhooks/b/post/parameters/5)',
      expect.stringMatching(/^webhooks a, b: the document does not say how a delivery names/),
    ]);
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    expect(generated.model.webhooks?.headerValues).toEqual([
      { name: "X-Hook-Delivery" },
      { name: "X-Hook-Attempt", as: "number" },
      { name: "X-Hook-Target" },
    ]);
    // where a header names each event (a const), that header is the selector, not a delivery header
    const withDelivery = (name: string, schema: string) => {
      const { post } = event(name, schema);
      return { post: { ...post, parameters: [...post.parameters, shared[0]] } };
    };
    const typed = doc({
      orderCreated: withDelivery("order.created", "Order"),
      refundIssued: withDelivery("refund.issued", "Refund"),
    }).read("webhooks.yaml").webhooks;
    expect(typed.eventHeader).toBe("X-Event");
    expect(typed.undocumented).toBeUndefined();
    expect(typed.headers).toEqual({
      "X-Hook-Delivery": { type: "string", required: true, description: "A GUID." },
    });
  });

  it("turns an operation's callbacks into callbacks, the URL's expression in a note", () => {
    const { read } = doc(
      {},
      {
        "/streams": {
          post: {
            operationId: "streams/subscribe",
            responses: { "201": { description: "subscribed" } },
            callbacks: {
              onData: {
                "{$request.query.callbackUrl}/data": {
                  post: {
                    requestBody: {
                      content: {
                        "application/json": { schema: { $ref: "#/components/schemas/Order" } },
                      },
                    },
                    responses: {
                      "200": {
                        description: "ok",
                        content: {
                          "application/json": { schema: { $ref: "#/components/schemas/Refund" } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    );
    expect(read("callbacks.yaml").callbacks).toEqual({
      on_data: {
        method: "POST",
        path: "/data",
        body: "Order",
        success: "Refund",
        undocumented:
          "the callback URL is the runtime expression {$request.query.callbackUrl}/data; written as /data under the callback base address (import: #/paths/~1streams/post/callbacks/onData/{$request.query.callbackUrl}~1data/post)",
      },
    });
  });
});

describe("requests: media ranges, fixed and versioned headers, 304s and other hosts", () => {
  /** The package a spec folder gives: its sources (src/, not the runtime) by path, and its OpenAPI document. */
  const packageOf = async (specDir: string) => {
    const generated = await generateFrom(specDir, join(scratch(), "out"));
    const sources = new Map(
      generated.files
        .filter((f) => f.path.startsWith("src/") && !f.path.startsWith("src/runtime/"))
        .map((f) => [f.path, f.contents.slice(f.contents.indexOf("\n") + 1)]),
    );
    const openapi = generated.files.find((f) => f.path === "openapi.json")!.contents;
    return { sources, openapi };
  };

  it("gives back the requests feature's package from its own OpenAPI document, byte for byte", async () => {
    const before = await packageOf(join(repoRoot, "test/fixtures/features/requests"));
    const { outSpec } = imported(document("openapi.json", before.openapi));
    const after = await packageOf(outSpec);
    expect([...after.sources.keys()].sort()).toEqual([...before.sources.keys()].sort());
    for (const [path, text] of before.sources) expect(after.sources.get(path), path).toBe(text);
  });

  it("takes any media type a download declares: ranges, parameters and capitals", async () => {
    const binary = (type: string) => ({
      description: "ok",
      content: { [type]: { schema: { type: "string", format: "binary" } } },
    });
    const { outSpec, read } = imported(
      document(
        "media.json",
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Media", version: "1.0.0" },
          paths: {
            "/any": { get: { operationId: "media/any", responses: { "200": binary("*/*") } } },
            "/image": {
              get: { operationId: "media/image", responses: { "200": binary("image/*") } },
            },
            "/pdf": {
              get: {
                operationId: "media/pdf",
                responses: { "200": binary("Application/PDF; charset=binary") },
              },
            },
          },
        }),
      ),
    );
    const endpoints = read("endpoints/media.yaml").endpoints;
    expect(endpoints["media.any"].response).toMatchObject({
      status: 200,
      contentType: "*/*",
      body: "binary",
    });
    expect(endpoints["media.image"].response).toMatchObject({
      status: 200,
      contentType: "image/*",
      body: "binary",
    });
    expect(endpoints["media.pdf"].response).toMatchObject({
      status: 200,
      contentType: "application/pdf",
      body: "binary",
    });
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
    expect(client).toContain('"headers":{"Accept":"*/*"}');
    expect(client).toContain('"headers":{"Accept":"image/*, application/json;q=0.5"}');
  });

  it("reads a GET with a 304 and a conditional header parameter as notModified; a paged one keeps its 304 as a gap", async () => {
    const notModified = { description: "Not modified" };
    const ok = {
      description: "ok",
      headers: { Link: { schema: { type: "string" } } },
      content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
    };
    const ifNoneMatch = { name: "If-None-Match", in: "header", schema: { type: "string" } };
    const { outSpec, read } = imported(
      document(
        "conditional.json",
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Conditional", version: "1.0.0" },
          paths: {
            "/notes/{id}": {
              get: {
                operationId: "notes/get",
                parameters: [
                  { name: "id", in: "path", required: true, schema: { type: "string" } },
                  ifNoneMatch,
                  { name: "if-modified-since", in: "header", schema: { type: "string" } },
                ],
                responses: {
                  "200": {
                    description: "ok",
                    content: { "text/plain": { schema: { type: "string" } } },
                  },
                  "304": notModified,
                },
              },
            },
            "/notes": {
              get: {
                operationId: "notes/list",
                parameters: [
                  { name: "page", in: "query", schema: { type: "integer" } },
                  ifNoneMatch,
                ],
                responses: { "200": ok, "304": notModified },
              },
            },
            "/plain": {
              get: { operationId: "notes/plain", responses: { "200": ok, "304": notModified } },
            },
          },
        }),
      ),
    );
    const endpoints = read("endpoints/notes.yaml").endpoints;
    expect(endpoints["notes.get"].params).toEqual({ id: "string" });
    expect(endpoints["notes.get"].response).toMatchObject({ status: 200, notModified: true });
    expect(endpoints["notes.get"].undocumented).toBeUndefined();
    // paged by its Link header: a walk reads whole pages, so no notModified
    expect(endpoints["notes.list"].pagination).toBeDefined();
    expect(endpoints["notes.list"].params["If-None-Match"]).toMatchObject({ in: "header" });
    expect(endpoints["notes.list"].response.notModified).toBeUndefined();
    expect(String(endpoints["notes.list"].undocumented)).toContain("response 304");
    // a 304 without a conditional header the caller could send: a gap, as before
    expect(endpoints["notes.plain"].response.notModified).toBeUndefined();
    expect(String(endpoints["notes.plain"].undocumented)).toContain("response 304");
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
    expect(client).toContain("options?: ConditionalRequestOptions");
  });

  it("reads an operation's servers as the host it is served from, its variables at their defaults; an address it cannot hold stays a gap", async () => {
    const ok = { "200": { description: "ok" } };
    const uploads = {
      url: "{origin}/",
      variables: { origin: { default: "https://uploads.example.com" } },
    };
    const { outSpec, read } = imported(
      document(
        "hosts.json",
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Hosts", version: "1.0.0" },
          servers: [{ url: "https://api.example.com" }],
          paths: {
            "/assets": {
              post: { operationId: "assets/upload", servers: [uploads], responses: ok },
              get: { operationId: "assets/list", responses: ok },
            },
            "/assets/{id}": {
              parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
              put: { operationId: "assets/replace", servers: [uploads], responses: ok },
              delete: {
                operationId: "assets/remove",
                servers: [{ url: "/relative" }],
                responses: ok,
              },
            },
          },
        }),
      ),
    );
    expect(read("api.yaml").hosts).toEqual({ uploads: { baseUrl: "https://uploads.example.com" } });
    const endpoints = read("endpoints/assets.yaml").endpoints;
    expect(endpoints["assets.upload"].host).toBe("uploads");
    expect(endpoints["assets.replace"].host).toBe("uploads");
    expect(endpoints["assets.list"].host).toBeUndefined();
    expect(endpoints["assets.remove"].host).toBeUndefined();
    expect(String(endpoints["assets.remove"].undocumented)).toContain(
      "servers of the operation are not carried yet",
    );
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
    expect(client).toContain('hosts: { uploads: "https://uploads.example.com" }');
  });

  it("reads a last wildcard segment as a catch-all (`slashes: true`), another as the parameter it names, and a parameter without a schema as a string", async () => {
    const ok = { "200": { description: "ok" } };
    const { outSpec, read } = imported(
      document(
        "wildcards.json",
        JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Files", version: "1.0.0" },
          paths: {
            // Goa's and ASP.NET's catch-all, with Goa's parameter that has no schema
            "/public/{*path}": {
              get: {
                operationId: "public/get",
                parameters: [{ name: "path", in: "path", required: true }],
                responses: ok,
              },
            },
            // URI templates' explode and reserved forms
            "/files/{name*}/versions/{+version}": {
              get: {
                operationId: "files/version",
                parameters: [
                  { name: "name", in: "path", required: true, schema: { type: "string" } },
                  { name: "version", in: "path", required: true, schema: { type: "integer" } },
                ],
                responses: ok,
              },
            },
          },
        }),
      ),
    );
    const endpoints = read("endpoints/public.yaml").endpoints;
    expect(endpoints["public.get"]).toMatchObject({
      path: "/public/{path}",
      params: { path: { type: "string", slashes: true } },
    });
    expect(endpoints["public.get"].undocumented).toEqual([
      "parameter path has no schema: read as a string (import: #/paths/~1public~1{*path}/get/parameters/0)",
      "path /public/{*path}: its last parameter takes the rest of the path, slashes kept (import: #/paths/~1public~1{*path}/get)",
    ]);
    const version = read("endpoints/files.yaml").endpoints["files.version"];
    expect(version).toMatchObject({
      path: "/files/{name}/versions/{version}",
      params: { name: "string", version: "integer" },
    });
    // a wildcard that is not the last segment, or names a number, is one segment
    expect(version.undocumented).toContain(
      "path /files/{name*}/versions/{+version}: a wildcard segment is the parameter it names, sent as one segment (its slashes percent-encoded) (import: #/paths/~1files~1{name*}~1versions~1{+version}/get)",
    );
    const generated = await generateFrom(outSpec, join(scratch(), "out"));
    const client = generated.files.find((f) => f.path === "src/client.ts")!.contents;
    expect(client).toMatch(/"id":"public\.get".*"code":\[[^\]]*"segments"/);
  });

  it("reads a server whose variables' defaults give no host as an environment without an address, noted", async () => {
    const ok = { "200": { description: "ok" } };
    const { outSpec, read } = imported(
      document(
        "servers.json",
        JSON.stringify({
          openapi: "3.1.0",
          info: { title: "Servers", version: "1.0.0" },
          servers: [
            // Shlink's: the host defaults to ""
            {
              url: "{scheme}://{host}",
              description: "Self-hosted",
              variables: {
                scheme: { default: "https", enum: ["https", "http"] },
                host: { default: "" },
              },
            },
            { url: "https://api.example.com/v1/", description: "Cloud" },
          ],
          paths: { "/links": { get: { operationId: "links/list", responses: ok } } },
        }),
      ),
    );
    const environments = read("api.yaml").environments;
    expect(environments.self_hosted).not.toHaveProperty("baseUrl");
    expect(environments.self_hosted.undocumented).toEqual([
      "server variables; their defaults are filled in (import: #/servers/0/variables)",
      "server URL https:// names no host (import: #/servers/0/url)",
    ]);
    expect(environments.cloud.baseUrl).toBe("https://api.example.com/v1");
    await generateFrom(outSpec, join(scratch(), "out"));
  });

  it("gives back a host the spec shows no address for, from its placeholder", async () => {
    const spec = join(scratch(), "spec");
    mkdirSync(spec, { recursive: true });
    writeFileSync(
      join(spec, "api.yaml"),
      [
        "api: { name: files, title: Files, version: 1.0.0 }",
        "hosts:",
        "  files: { description: The account's own file host. }",
        "endpoints:",
        "  files.get:",
        "    method: GET",
        "    path: /files/{id}",
        "    host: files",
        "    params: { id: string }",
        "    response: { status: 200, body: string, contentType: text/plain }",
        "",
      ].join("\n"),
    );
    const before = await generateFrom(spec, join(scratch(), "out"));
    const openapi = before.files.find((f) => f.path === "openapi.json")!.contents;
    const { read } = imported(document("files.json", openapi));
    expect(read("api.yaml").hosts).toEqual({
      files: { description: "The account's own file host." },
    });
    expect(read("endpoints/files.yaml").endpoints["files.get"].host).toBe("files");
  });
});
