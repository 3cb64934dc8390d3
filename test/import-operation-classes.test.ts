/**
 * The failure classes of real OpenAPI documents (issue 31), each as a document of a few lines
 * under test/fixtures/import/operation-classes/<class>/: import -> generate -> strict tsc (TypeScript 6
 * and 7, one program over every fixture's package so it stays fast), what the endpoint became,
 * and for the classes where the wire matters, a typed call against a node:http server on
 * 127.0.0.1 that records the request the client sent.
 */
import {
  copyFileSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { importSpec, writeSpecFolder, type ImportResult } from "../generator/import/import.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { programOverSharedRuntime } from "./support/shared-runtime.ts";
import { typeCheckAsync, typescript6, typescript7 } from "./support/typescript.ts";

const fixtures = join(repoRoot, "test/fixtures/import/operation-classes");
const classes = readdirSync(fixtures).sort();
const scratch = tempDir("apigen-import-operation-classes-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Imported {
  result: ImportResult;
  /** Every endpoint of the spec folder, by id. */
  endpoints: Record<string, Record<string, unknown>>;
  /** The spec folder's `api.yaml` data. */
  top: Record<string, unknown>;
  /** The folder of the generated package. */
  out: string;
}

const imported = new Map<string, Imported>();

function importClass(name: string): Imported {
  const outSpec = join(scratch, name, "spec");
  const result = importSpec({
    input: join(fixtures, name, "openapi.yaml"),
    outSpec,
    schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
  });
  writeSpecFolder(outSpec, result.files);
  const endpoints: Record<string, Record<string, unknown>> = {};
  let top: Record<string, unknown> = {};
  for (const file of result.files) {
    const data = parse(file.text) as Record<string, unknown>;
    if (file.path === "api.yaml") top = data;
    Object.assign(endpoints, data.endpoints ?? {});
  }
  return { result, endpoints, top, out: join(scratch, name, "package") };
}

beforeAll(async () => {
  for (const name of classes) {
    const one = importClass(name);
    await writeGenerated(join(scratch, name, "spec"), one.out);
    // A class's typed consumer, type-checked with its package (and run by its test).
    const consumer = join(fixtures, name, "consumer.ts");
    if (existsSync(consumer)) copyFileSync(consumer, join(one.out, "src/consumer.ts"));
    imported.set(name, one);
  }
  // One project over every package: each package's src, with the packages' own strict options,
  // and one copy of their identical runtime, checked once (test/support/shared-runtime.ts).
  programOverSharedRuntime(
    scratch,
    classes.map((name) => `${name}/package`),
  );
}, 120_000);

const of = (name: string): Imported => imported.get(name)!;

// each fixture's package checked against its runtime's declarations by TypeScript 6
// (test/support/typescript.ts, CheckOptions), whole by TypeScript 7
const typeCheck = (compiler: string, project: string) =>
  typeCheckAsync(compiler, project, 120_000, { runtimeDeclarations: true });

describe("every class fixture", () => {
  for (const [compiler, bin] of [
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ] as const)
    it(`imports, generates and type-checks strictly with ${compiler}`, async () => {
      expect(imported.size).toBe(classes.length);
      const run = await typeCheck(bin, join(scratch, "tsconfig.json"));
      expect(run.output).toBe("");
      expect(run.status).toBe(0);
    }, 120_000);
});

/** A server on 127.0.0.1 that answers `answer` and records each request. */
interface Recorder {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  server: Server;
}

async function recorder(
  answer: (req: IncomingMessage) => { status: number; type?: string; body?: string },
): Promise<Recorder> {
  const requests: Recorder["requests"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const { status, type, body: text } = answer(req);
      res.writeHead(status, type ? { "content-type": type } : {});
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, server };
}

const stop = (r: Recorder) => new Promise<void>((resolve) => r.server.close(() => resolve()));

/** The generated package's client module. */
async function clientOf(name: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(join(of(name).out, "src/index.ts")).href)) as Record<
    string,
    unknown
  >;
}

describe("operations, path items and parameters that are $refs into other files", () => {
  it("keeps every operation with its parameters and responses", () => {
    const { endpoints } = of("multi-file-refs");
    expect(Object.keys(endpoints).sort()).toEqual(["things.delete", "things.get", "things.list"]);
    expect(endpoints["things.get"]).toMatchObject({
      method: "GET",
      path: "/things/{thing_id}",
      params: { thing_id: "string", verbose: { in: "query", type: "boolean" } },
      response: { status: 200, body: "Thing" },
      errors: [{ status: 404 }],
    });
    expect(endpoints["things.list"]).toMatchObject({
      params: { verbose: { in: "query", type: "boolean" } },
      response: { status: 200, body: "Thing[]" },
    });
    expect(endpoints["things.delete"]).toMatchObject({
      method: "DELETE",
      response: { status: 204 },
    });
  });

  it("stops at a $ref that cannot be resolved, at its line, instead of emptying the operation", () => {
    const run = () =>
      importSpec({
        input: join(repoRoot, "test/fixtures/import/broken-ref/openapi.yaml"),
        outSpec: join(scratch, "broken-spec"),
        schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
      });
    expect(run).toThrow(DiagnosticsError);
    try {
      run();
    } catch (error) {
      const [first] = (error as DiagnosticsError).diagnostics.map((d) =>
        formatDiagnostic(d, new Map()),
      );
      expect(first).toMatch(/openapi\.yaml:6:\d+ - error import-file-unreadable: .*missing\.yaml/);
      expect(first).toContain("#/paths/~1things/get");
    }
  });
});

/** The query pairs of a recorded request, decoded, in order. */
const queryOf = (url: string) => [...new URL(url, "http://x").searchParams];

describe("a GET or DELETE with a requestBody", () => {
  it("makes the body's fields the query parameters, typed, and drops an empty body", () => {
    const { endpoints } = of("get-body-as-query");
    const search = endpoints["search.run"]!;
    expect(search.body).toBeUndefined();
    expect(search.params).toEqual({
      q: { in: "query", type: "string", required: true, description: "The words to find." },
      limit: { in: "query", type: "integer" },
      tags: { in: "query", type: "string[]" },
      range: {
        in: "query",
        fields: { gte: "integer", lte: "integer" },
        style: "deepObject",
      },
    });
    expect(search.undocumented).toContain(
      "the request body of a GET (application/x-www-form-urlencoded) is sent as the query string (import: #/paths/~1search/get/requestBody)",
    );
    expect(endpoints["search.deleteItem"]!.body).toBeUndefined();
  });

  it("sends the fields in the query string, and no body", async () => {
    const server = await recorder(() => ({
      status: 200,
      type: "application/json",
      body: '{"total":2}',
    }));
    try {
      const { SearchClient } = (await clientOf("get-body-as-query")) as {
        SearchClient: new (o: { baseUrl: string }) => {
          search: {
            run(q: Record<string, unknown>): Promise<unknown>;
            deleteItem(id: string): Promise<unknown>;
          };
        };
      };
      const client = new SearchClient({ baseUrl: server.url });
      const answer = await client.search.run({
        q: "red shoes",
        limit: 5,
        tags: ["a", "b"],
        range: { gte: 1, lte: 9 },
      });
      expect(answer).toEqual({ total: 2 });
      await client.search.deleteItem("i1");
      const [get, del] = server.requests;
      expect(get!.method).toBe("GET");
      expect(queryOf(get!.url)).toEqual([
        ["q", "red shoes"],
        ["limit", "5"],
        ["tags", "a"],
        ["tags", "b"],
        ["range[gte]", "1"],
        ["range[lte]", "9"],
      ]);
      expect(get!.body).toBe("");
      expect(get!.headers["content-type"]).toBeUndefined();
      expect(del).toMatchObject({ method: "DELETE", url: "/items/i1", body: "" });
    } finally {
      await stop(server);
    }
  });
});

describe("query parameters that are objects, nested objects or arrays of objects", () => {
  it("an array of objects: the overlay its note names makes it a text parameter generate takes", async () => {
    const overlay = join(scratch, "lines.overlay.yaml");
    writeFileSync(
      overlay,
      [
        "overlay: 1.0.0",
        "info: { title: lines as text, version: 1.0.0 }",
        "actions:",
        "  - target: $.paths['/charges'].get.parameters[?(@.name == 'lines')]",
        "    update: { schema: { type: string } }",
        "",
      ].join("\n"),
    );
    const outSpec = join(scratch, "lines-overlaid", "spec");
    const result = importSpec({
      input: join(fixtures, "query-shapes", "openapi.yaml"),
      outSpec,
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
      overlays: [overlay],
    });
    writeSpecFolder(outSpec, result.files);
    const endpoints = Object.assign(
      {},
      ...result.files.map((f) => (parse(f.text) as { endpoints?: object }).endpoints ?? {}),
    ) as Record<string, { params?: Record<string, unknown>; undocumented?: string[] }>;
    const list = Object.values(endpoints).find((e) => e.params?.lines !== undefined)!;
    expect(list.params!.lines).toEqual({ in: "query", type: "string" });
    expect(JSON.stringify(list.undocumented ?? [])).not.toContain("query parameter lines");
    await writeGenerated(outSpec, join(scratch, "lines-overlaid", "package"));
  });

  it("carries what a query string can say and notes the rest at its pointer", () => {
    const list = of("query-shapes").endpoints["charges.list"]!;
    expect(list.params).toEqual({
      created: { in: "query", fields: { gte: "integer" }, style: "deepObject" },
      "created[range]": {
        in: "query",
        fields: { from: "string", to: "string" },
        style: "deepObject",
      },
      status: { in: "query", type: "string" },
      limit: { in: "query", type: "integer" },
      tags: { in: "query", type: "string[]", style: "space" },
      ids: { in: "query", type: "integer[]", style: "pipe" },
      codes: { in: "query", type: "string[]", style: "comma" },
      window: { in: "query", fields: { from: "string" }, style: "deepObject" },
    });
    const notes = list.undocumented as string[];
    // a deepObject that lost fields says which, and why, at the parameter (it read "(none)")
    expect(notes).toContain(
      "query parameter window is sent without its field lines (an array of objects), which style deepObject cannot carry (import: #/paths/~1charges/get/parameters/8/schema)",
    );
    expect(notes).toContain(
      "query parameter only is left out: style deepObject cannot carry its field either (a union holding objects), and it has no other (import: #/paths/~1charges/get/parameters/9/schema)",
    );
    expect(notes.join("\n")).not.toContain("(none)");
    // carried: the delimited styles are no loss
    expect(notes.join("\n")).not.toMatch(/style (space|pipe)Delimited/);
    expect(notes).toContain(
      "query parameter lines is an array of objects, whose encoding in the query OpenAPI leaves undefined (style form; servers read a[0][b]=1, a[][b]=1 or JSON); an overlay giving it schema {type: string} sends the text the caller encodes; it is left out (import: #/paths/~1charges/get/parameters/2/schema)",
    );
    expect(notes).toContain(
      "query parameter discounts is a union holding objects or arrays, which no query style of the format can send; it is left out (import: #/paths/~1charges/get/parameters/4/schema)",
    );
    expect(notes).toContain(
      "query parameter report is a union holding objects or arrays, which no query style of the format can send; it is left out (import: #/paths/~1charges/get/parameters/10/schema)",
    );
    expect(notes.join("\n")).toContain(
      "query parameter metadata is a free-form object in style form, whose keys the format cannot send as query parameters; it is left out (import: #/paths/~1charges/get/parameters/3/schema)",
    );
    // an object by a type list (`[object, "null"]`) is an object: generate refused it as a scalar
    expect(notes.join("\n")).toContain(
      "query parameter extras is a free-form object in style form, whose keys the format cannot send as query parameters; it is left out (import: #/paths/~1charges/get/parameters/11/schema)",
    );
  });

  it("sends what the server reads: deepObject fields at every level, form objects as their fields", async () => {
    const server = await recorder(() => ({ status: 200, type: "application/json", body: "[]" }));
    try {
      const { ChargesClient } = (await clientOf("query-shapes")) as {
        ChargesClient: new (o: { baseUrl: string }) => {
          charges: { list(q: Record<string, unknown>): Promise<unknown> };
        };
      };
      const client = new ChargesClient({ baseUrl: server.url });
      await client.charges.list({
        created: { gte: 10 },
        "created[range]": { from: "a", to: "b" },
        status: "open",
        limit: 5,
        tags: ["a", "b c"],
        ids: [1, 2],
        codes: ["x", "y"],
      });
      expect(server.requests[0]!.url).toContain("&tags=a%20b+c&ids=1|2&codes=x,y");
      expect(queryOf(server.requests[0]!.url)).toEqual([
        ["created[gte]", "10"],
        ["created[range][from]", "a"],
        ["created[range][to]", "b"],
        ["status", "open"],
        ["limit", "5"],
        ["tags", "a b c"],
        ["ids", "1|2"],
        ["codes", "x,y"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("Accept and Content-Type declared as header parameters, */* and HEAD responses", () => {
  it("makes them media types, not parameters; */* is a range of bytes; a HEAD answer has no body", () => {
    const { endpoints } = of("media-headers");
    expect(endpoints["reports.get"]).toMatchObject({
      headers: { Accept: "application/json" },
      params: { id: "string" },
    });
    expect(endpoints["reports.put"]!.params).toEqual({ id: "string" });
    expect(endpoints["reports.put"]!.body).toEqual({ fields: { title: "string" } });
    expect(endpoints["reports.head"]!.response).toEqual({ status: 200, description: "Exists." });
    expect(endpoints["reports.raw"]!.response).toMatchObject({
      contentType: "application/octet-stream",
      body: "binary",
    });
    // a media range stays one (issue 32 item 10): the client reads any type it covers as a Blob
    expect(endpoints["reports.download"]!.response).toMatchObject({
      contentType: "*/*",
      body: "binary",
    });
  });
});

describe("keys of a content map that are not media types (Akeneo's _links, current_page)", () => {
  it("are noted as no media type, ignored, at their pointer; the JSON body is kept", () => {
    const { endpoints } = of("media-headers");
    const list = endpoints["reports.list"]!;
    expect(list.response).toMatchObject({
      status: 200,
      body: { fields: { items: "string[]" } },
      undocumented: [
        "_links is not a media type (type/subtype), so it was ignored (import: #/paths/~1reports/get/responses/200/content/_links)",
        "current_page is not a media type (type/subtype), so it was ignored (import: #/paths/~1reports/get/responses/200/content/current_page)",
        "x-example-1 is not a media type (type/subtype), so it was ignored (import: #/paths/~1reports/get/responses/200/content/x-example-1)",
      ],
    });
    expect((list.response as Record<string, unknown>).contentType).toBeUndefined();
    const create = endpoints["reports.create"]!;
    expect(create.body).toEqual({ fields: { title: "string" } });
    expect(create.contentType).toBeUndefined();
    expect(create.undocumented).toBe(
      "_embedded is not a media type (type/subtype), so it was ignored (import: #/paths/~1reports/post/requestBody/content/_embedded)",
    );
  });
});

describe("a request body of another media type (application/xml, text/csv, application/pdf)", () => {
  it("is sent as its own media type: text as a string, a binary schema as bytes", async () => {
    const { endpoints, out } = of("media-headers");
    expect(endpoints["reports.sendXml"]).toMatchObject({
      contentType: "application/xml",
      body: "string",
    });
    expect(endpoints["reports.importCsv"]).toMatchObject({
      contentType: "text/csv",
      body: "string",
    });
    expect(endpoints["reports.putScan"]).toMatchObject({
      contentType: "application/pdf",
      body: "binary",
    });
    expect(endpoints["reports.sendXml"]!.undocumented).toBe(
      "request body of media type application/xml is text the caller writes; its schema is not carried (import: #/paths/~1reports~1{id}~1xml/post/requestBody/content/application~1xml/schema)",
    );
    for (const id of ["reports.importCsv", "reports.putScan"])
      expect(endpoints[id]!.undocumented).toBeUndefined();
    // the re-emitted OpenAPI keeps each media type
    const document = JSON.parse(readFileSync(join(out, "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { requestBody: { content: object } }>>;
    };
    const mediaOf = (path: string, method: string) =>
      Object.keys(document.paths[path]![method]!.requestBody.content);
    expect(mediaOf("/reports/{id}/xml", "post")).toEqual(["application/xml"]);
    expect(mediaOf("/reports/import", "post")).toEqual(["text/csv"]);
    expect(mediaOf("/reports/{id}/scan", "put")).toEqual(["application/pdf"]);
    const server = await recorder(() => ({ status: 204 }));
    try {
      const { ReportsClient } = (await clientOf("media-headers")) as {
        ReportsClient: new (o: { baseUrl: string }) => {
          reports: {
            sendXml(id: string, body: string): Promise<unknown>;
            importCsv(body: string): Promise<unknown>;
            putScan(id: string, body: Uint8Array): Promise<unknown>;
          };
        };
      };
      const client = new ReportsClient({ baseUrl: server.url });
      await client.reports.sendXml("r1", "<report><title>Q3</title></report>");
      await client.reports.importCsv("id,title\nr1,Q3\n");
      await client.reports.putScan("r1", new TextEncoder().encode("%PDF-1.7"));
      expect(
        server.requests.map((r) => [r.method, r.url, r.headers["content-type"], r.body]),
      ).toEqual([
        ["POST", "/reports/r1/xml", "application/xml", "<report><title>Q3</title></report>"],
        ["POST", "/reports/import", "text/csv", "id,title\nr1,Q3\n"],
        ["PUT", "/reports/r1/scan", "application/pdf", "%PDF-1.7"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("an Authorization header parameter (SendGrid declares one on every operation)", () => {
  it("becomes the credential that travels in that header, not a parameter the client refuses", () => {
    const { endpoints } = of("authorization-header");
    expect(endpoints["alerts.list"]).toMatchObject({ auth: ["authorization"] });
    expect(endpoints["alerts.list"]!.params).toBeUndefined();
    expect(endpoints["alerts.list"]!.undocumented).toBe(
      "header parameter Authorization is the credential authorization, which the client sends (import: #/paths/~1alerts/get/parameters/0)",
    );
    // the operation's own security names it already: sent once, the parameter dropped
    expect(endpoints["alerts.delete"]).toMatchObject({
      auth: ["authorization"],
      params: { id: "string" },
    });
  });

  it("sends the credential in the Authorization header", async () => {
    const server = await recorder(() => ({ status: 200, type: "application/json", body: "[]" }));
    try {
      const { AlertsClient } = (await clientOf("authorization-header")) as {
        AlertsClient: new (o: { baseUrl: string; authorization: string }) => {
          alerts: { list(): Promise<unknown> };
        };
      };
      const client = new AlertsClient({ baseUrl: server.url, authorization: "Bearer k-1" });
      expect(await client.alerts.list()).toEqual([]);
      expect(server.requests[0]!.headers.authorization).toBe("Bearer k-1");
    } finally {
      await stop(server);
    }
  });
});

describe("a request body offered as JSON and as multipart with a file", () => {
  it("keeps the multipart one, which carries the file, with a note; one binary is a file part", () => {
    const { endpoints } = of("multipart-and-json");
    expect(endpoints["files.create"]).toMatchObject({
      contentType: "multipart/form-data",
      body: { fields: { file: { type: "binary", required: true }, purpose: "string" } },
      response: { status: 201, body: { fields: { id: "string" } } }, // application/JSON; charset=utf-8 is JSON
      undocumented:
        "request body as application/json too; multipart/form-data is kept, as the one that carries files (import: #/paths/~1files/post/requestBody/content/application~1json)",
    });
    expect(endpoints["files.addAttachment"]).toMatchObject({
      contentType: "multipart/form-data",
      body: { fields: { file: { type: "binary", required: true } } },
    });
  });

  it("a binary field of a schema both uploaded as multipart and answered as JSON is a string, noted (DRF's)", () => {
    const { result } = of("multipart-and-json");
    const types = Object.assign(
      {},
      ...result.files.map((f) => (parse(f.text) as { types?: object }).types ?? {}),
    ) as Record<string, { fields: Record<string, { undocumented?: string }> }>;
    // generate refused it before: bytes cannot travel in the JSON answer
    const picture = types.Child!.fields.picture!;
    expect(picture).toMatchObject({ type: "string", nullable: true });
    // offered as JSON beside multipart, but answered by no JSON: the multipart body is carried
    expect(types.Attachment!.fields.file).toMatchObject({ type: "binary" });
    expect(String(picture.undocumented)).toContain(
      "format binary in a multipart body's schema that a JSON body or response has too: a string, which a JSON value can carry (the multipart body sends it as a text part; an overlay giving the upload a schema of its own keeps the file) (import: #/components/schemas/Child/properties/picture/format)",
    );
  });

  it("sends a field whose type is a named binary schema as a file part (Mistral's upload)", async () => {
    const { endpoints } = of("multipart-and-json");
    // generate refused it before: the multipart check did not follow the name to `binary`
    expect(endpoints["files.uploadDocument"]!.body).toMatchObject({
      fields: { file: { type: "File", required: true } },
    });
    const server = await recorder(() => ({ status: 200 }));
    try {
      const { UploadsClient } = (await clientOf("multipart-and-json")) as Record<
        string,
        new (o: object) => { files: { uploadDocument(id: string, body: object): Promise<unknown> } }
      >;
      const file = new Blob(["%PDF-1.7"], { type: "application/pdf" });
      await new UploadsClient!({ baseUrl: server.url }).files.uploadDocument("lib-1", { file });
      const [request] = server.requests;
      expect(request!.url).toBe("/libraries/lib-1/documents");
      expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(request!.body).toMatch(
        /Content-Disposition: form-data; name="file"; filename="[^"]*"\r\nContent-Type: application\/pdf\r\n\r\n%PDF-1\.7/,
      );
    } finally {
      await stop(server);
    }
  });
});

describe("streams, every security scheme, the version, untagged groups", () => {
  it("carries them", () => {
    const { endpoints, top } = of("streams-security-untagged");
    expect(Object.keys(endpoints).sort()).toEqual([
      "chat.createChatCompletion",
      "events.stream",
      "models.list",
      "models.retrieve",
    ]);
    // a JSON Lines response's schema is each line's (before, bytes, which generate refused)
    expect(endpoints["events.stream"]!.response).toMatchObject({
      contentType: "application/jsonl",
      body: "Chunk",
    });
    const chat = endpoints["chat.createChatCompletion"]!;
    expect(chat.streamResponse).toEqual({
      flag: "stream",
      status: 200,
      contentType: "text/event-stream",
      body: "Chunk",
    });
    // basic or bearer: any one will do, the first the client has is sent
    expect(chat.auth).toEqual([{ anyOf: ["basicAuth", "bearerAuth"] }]);
    expect((top.api as Record<string, unknown>).version).toBe("1.4.0");
  });

  it("a mutualTLS scheme is no credential: a gap at the scheme, and its operations need no other", async () => {
    const { endpoints, top } = of("streams-security-untagged");
    expect(Object.keys(top.credentials as object).sort()).toEqual(["basicAuth", "bearerAuth"]);
    expect((top.api as Record<string, unknown>).undocumented).toContain(
      "security scheme clientCert is mutualTLS: the client cannot present a client certificate through fetch, so it is no credential of the client; a Node caller passes a fetch whose dispatcher (undici's Agent) carries the certificate (import: #/components/securitySchemes/clientCert)",
    );
    expect(endpoints["models.retrieve"]!.auth).toBeUndefined();
    // the certificate is an alternative to the token: the token is sent when the client has it
    expect(endpoints["models.list"]!.auth).toEqual([{ credential: "bearerAuth", optional: true }]);
    const server = await recorder(() => ({ status: 200, type: "application/json", body: '"m"' }));
    try {
      const { ChatClient } = (await clientOf("streams-security-untagged")) as {
        ChatClient: new (o: { baseUrl: string; bearerAuth?: string }) => {
          models: { retrieve(model: string): Promise<unknown>; list(): Promise<unknown> };
        };
      };
      expect(await new ChatClient({ baseUrl: server.url }).models.retrieve("m1")).toBe("m");
      await new ChatClient({ baseUrl: server.url, bearerAuth: "t-1" }).models.list();
      expect(server.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
        ["/v1/models/m1", undefined],
        ["/v1/models", "Bearer t-1"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("an API key whose header name no request can send (RapidAPI's documents)", () => {
  it("is no credential: a gap at its name, and the alternative is sent when the client has it", async () => {
    const { endpoints, top } = of("key-header-not-a-name");
    // generate refused the folder import wrote before: a credential's header must be a token
    expect(top.credentials).toEqual({
      vendorToken: { in: "header", header: "X-Vendor-Token" },
    });
    expect((top.api as Record<string, unknown>).undocumented).toContain(
      'security scheme X-RapidAPI-Key sends its key in "RapidAPI.com API Key", which is no HTTP header name (a token: letters, digits and !#$%&\'*+-.^_`|~): no request can send it, so it is no credential of the client (an overlay that names the header makes it one) (import: #/components/securitySchemes/X-RapidAPI-Key/name)',
    );
    // one of two alternatives: the other, when the client has it; the only one: none
    expect(endpoints["templates.get"]!.auth).toEqual([
      { credential: "vendorToken", optional: true },
    ]);
    expect(endpoints["status.get"]!.auth).toBeUndefined();
    const server = await recorder(() => ({ status: 200, type: "application/json", body: '"ok"' }));
    try {
      const { TemplatesClient } = (await clientOf("key-header-not-a-name")) as {
        TemplatesClient: new (o: { baseUrl: string; vendorToken?: string }) => {
          templates: { get(id: string): Promise<unknown> };
          status: { get(): Promise<unknown> };
        };
      };
      await new TemplatesClient({ baseUrl: server.url, vendorToken: "v-1" }).templates.get("t1");
      expect(await new TemplatesClient({ baseUrl: server.url }).status.get()).toBe("ok");
      expect(server.requests.map((r) => [r.url, r.headers["x-vendor-token"]])).toEqual([
        ["/templates/t1", "v-1"],
        ["/status", undefined],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("objects in a path segment or a header, and path styles other than simple (ReadMe's examples)", () => {
  it("an object is a string the caller writes, a matrix style is sent as simple, each noted", async () => {
    const { endpoints } = of("segment-shapes");
    const paint = endpoints["paint.paint"]!;
    // generate refuses an object path or header parameter (param-value-shape): the client sent `[object Object]`
    expect(paint.params).toEqual({
      color: { type: "string", description: "A color by its channels." },
      layers: "string[]",
      "X-Palette": { in: "header", type: "string", description: "A color by its channels." },
    });
    expect(paint.undocumented).toEqual(
      expect.arrayContaining([
        "path parameter color is an object (style simple), which a path parameter does not carry: it is a string the caller writes as the server reads it (import: #/paths/~1paint~1{color}~1{layers}/get/parameters/0/schema)",
        "style matrix of path parameter layers: sent in the simple style (the value as it is, a list comma-separated) (import: #/paths/~1paint~1{color}~1{layers}/get/parameters/1/style)",
        "header parameter X-Palette is an object (style simple, exploded), which a header parameter does not carry: it is a string the caller writes as the server reads it (import: #/paths/~1paint~1{color}~1{layers}/get/parameters/2/schema)",
      ]),
    );
    const server = await recorder(() => ({ status: 204 }));
    try {
      const { StylesClient } = (await clientOf("segment-shapes")) as {
        StylesClient: new (o: { baseUrl: string }) => {
          paint: { paint(color: string, layers: string[], params?: object): Promise<unknown> };
        };
      };
      await new StylesClient({ baseUrl: server.url }).paint.paint("R,100,G,200", ["a", "b"], {
        "X-Palette": "R=1,G=2",
      });
      expect(server.requests.map((r) => [r.url, r.headers["x-palette"]])).toEqual([
        ["/paint/R%2C100%2CG%2C200/a%2Cb", "R=1,G=2"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("a security requirement that names no security scheme (ReadMe's api_key)", () => {
  it("sends no credential for it, with a gap at the requirement; an alternative is kept", () => {
    const { endpoints } = of("undefined-scheme");
    const cached = endpoints["cache.cached"]!;
    // generate refused the folder import wrote before: unknown credential apiKey
    expect(cached.auth).toBeUndefined();
    expect(cached.undocumented).toContain(
      "security requirement api_key, which no security scheme defines: no credential is sent for it (import: #/paths/~1cache/get/security)",
    );
    // beside it, the bearer token is sent when the client has it (as beside a mutualTLS scheme)
    expect(endpoints["cache.either"]!.auth).toEqual([{ credential: "bearer", optional: true }]);
  });
});

describe("one security requirement of two schemes in one header (springdoc's basic and bearer)", () => {
  it("is read as either: each sent when the client has it, noted; the stand-in takes one", async () => {
    const { endpoints, out } = of("undefined-scheme");
    const both = endpoints["cache.both"]!;
    // before, both were required: generate now refuses that (auth-header-shared), and the
    // stand-in refused every call of Halo's console API, which no request could satisfy
    expect(both.auth).toEqual([
      { credential: "basic", optional: true },
      { credential: "bearer", optional: true },
    ]);
    expect(both.undocumented).toContain(
      "security requirement basic and bearer: both travel in the authorization header, which a request sends once; read as alternatives (import: #/paths/~1both/get/security)",
    );
    const { BehavioursClient } = (await clientOf("undefined-scheme")) as Record<
      string,
      new (o: object) => { cache: { both(o?: object): Promise<unknown> } }
    >;
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn(): { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn();
    const fetch = (input: Request | URL | string, init?: RequestInit) =>
      standIn.fetch(new Request(input, init));
    for (const credential of [{ bearer: "t-1" }, { basic: { username: "u", password: "p" } }])
      await expect(
        new BehavioursClient!({
          baseUrl: "https://api.example.com",
          fetch,
          ...credential,
        }).cache.both(),
      ).resolves.toEqual(expect.any(String));
  });
});

describe("the stand-in under the path of the document's server address (https://api.example.com/v1)", () => {
  it("answers there as at its root, the same answers, and nowhere else", async () => {
    const { out } = of("key-header-not-a-name");
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn: (options: object) => unknown;
      listen: (standIn: unknown) => Promise<{ url: string; close(): Promise<void> }>;
    };
    const service = await testing.listen(testing.createStandIn({ seed: 3 }));
    try {
      const get = async (path: string) => {
        const response = await fetch(`${service.url}${path}`, {
          headers: { "X-Vendor-Token": "v-1" },
        });
        return [response.status, await response.text()] as const;
      };
      const [rootStatus, rootBody] = await get("/templates/t1");
      expect(rootStatus).toBe(200);
      // Prism serves the root alone; a client or proxy that keeps /v1 reaches this one too
      expect(await get("/v1/templates/t1")).toEqual([200, rootBody]);
      expect((await get("/v2/templates/t1"))[0]).toBe(404);
      expect((await get("/v1"))[0]).toBe(404);
      const { TemplatesClient } = (await clientOf("key-header-not-a-name")) as {
        TemplatesClient: new (o: { baseUrl: string; vendorToken?: string }) => {
          templates: { get(id: string): Promise<unknown> };
        };
      };
      const client = new TemplatesClient({ baseUrl: `${service.url}/v1`, vendorToken: "v-1" });
      expect(await client.templates.get("t1")).toEqual(JSON.parse(rootBody));
    } finally {
      await service.close();
    }
  });
});

describe("root extensions of another tool under names apigen writes (Vonage's x-errors)", () => {
  it("are left out with a note where each is, not read as apigen's sections", () => {
    const { endpoints, top } = of("foreign-root-extensions");
    expect(top.errors).toBeUndefined();
    expect(top.versioning).toBeUndefined();
    const notes = (top.api as Record<string, unknown>).undocumented;
    for (const key of ["x-errors", "x-versioning"])
      expect(notes).toContain(
        `${key}: another tool's extension, left out (apigen reads its own root extensions from a document it wrote, marked by info.x-apigen-api) (import: #/${key})`,
      );
    expect(Object.keys(endpoints)).toEqual(["account.getAccountBalance"]);
  });
});

describe("operations without an operationId (Hetzner Cloud's document)", () => {
  it("are named by method and path without the segments that name their group, and in full where two would share a name", () => {
    expect(Object.keys(of("path-names").endpoints).sort()).toEqual([
      "floatingIPs.getById",
      "images.getById",
      "images.patchByName",
      "images.putByImageId",
      "sSHKeys.get",
      "serverActions.getActions",
      "serverActions.getByActionId",
      "serverActions.getServersIdActions",
      "serverActions.postReboot",
      "servers.deleteById",
      "servers.get",
      "servers.getById",
      "servers.getMetrics",
      "servers.post",
    ]);
  });
});

describe("path keys with a #fragment, a ?query or a trailing slash; a DELETE with a JSON body", () => {
  it("sends the route the server knows, once, and keeps a DELETE's JSON body", () => {
    const { endpoints } = of("path-keys");
    expect(Object.keys(endpoints).sort()).toEqual([
      "files.deleteConnector",
      "files.deleteOrders",
      "files.getConnector",
      "files.latestFaqs",
      "files.listFolders",
      "files.listResponses",
      "files.update",
    ]);
    // one route, one set of names: generate refused the two (endpoint-path-names-differ)
    expect(endpoints["files.deleteConnector"]).toMatchObject({
      path: "/connectors/{connector_id_or_name}",
      params: { connector_id_or_name: "string" },
    });
    expect(endpoints["files.deleteConnector"]!.undocumented).toContain(
      "path /connectors/{connector_id}#id differs from /connectors/{connector_id_or_name} only in parameter names, which OpenAPI forbids; written with connector_id as connector_id_or_name (import: #/paths/~1connectors~1{connector_id}#id/delete)",
    );
    expect(endpoints["files.update"]!.undocumented).toContain(
      "PUT /files/{file_id}#add_shared_link has this endpoint's route; left out (import: #/paths/~1files~1{file_id}#add_shared_link/put)",
    );
    expect(endpoints["files.listResponses"]).toMatchObject({
      path: "/responses",
      params: { beta: { in: "query", type: "string", default: "true", sendDefault: true } },
    });
    expect(endpoints["files.listFolders"]!.path).toBe("/folders/");
    // a path key without its leading slash is the route under the server (phpMyFAQ's)
    expect(endpoints["files.latestFaqs"]).toMatchObject({ path: "/v4.0/faqs/latest" });
    expect(endpoints["files.latestFaqs"]!.undocumented).toBe(
      "path v4.0/faqs/latest: written as /v4.0/faqs/latest (import: #/paths/v4.0~1faqs~1latest/get)",
    );
    expect(endpoints["files.deleteOrders"]!.body).toEqual({ fields: { ids: "string[]" } });
  });

  it("sends the path's query and keeps the trailing slash", async () => {
    const server = await recorder(() => ({ status: 204 }));
    try {
      const { PathsClient } = (await clientOf("path-keys")) as {
        PathsClient: new (o: { baseUrl: string }) => {
          files: { listResponses(): Promise<unknown>; listFolders(): Promise<unknown> };
        };
      };
      const client = new PathsClient({ baseUrl: server.url });
      await client.files.listResponses();
      await client.files.listFolders();
      expect(server.requests.map((r) => r.url)).toEqual(["/responses?beta=true", "/folders/"]);
    } finally {
      await stop(server);
    }
  });
});

describe("error responses that share one schema (the API's error body)", () => {
  it("makes the shared schema errors.body and notes only the error body of another schema", () => {
    const { top, endpoints, result } = of("error-body");
    expect(top.errors).toEqual({ body: "Problem" });
    // 404 by a components response, 500 directly, 400 as application/problem+json: all Problem.
    expect(endpoints["pets.get"]!.errors).toEqual([
      { status: 404, description: "No such pet." },
      { status: 500, description: "Server error." },
    ]);
    const errors = endpoints["pets.create"]!.errors as Record<string, unknown>[];
    expect(errors[0]).toEqual({ status: 400, description: "Invalid pet." });
    expect(errors[1]!.undocumented).toBe(
      "the error body's schema: not the API's error body (errors.body), and the format has one (import: #/paths/~1pets/post/responses/409/content)",
    );
    // One note per error body before (4); now only the 409's.
    expect(result.gaps).toBe(1);
  });

  it("without a majority, takes the schema of every catch-all response (Discord's 4XX beside its 429)", () => {
    const op = (id: string) => ({
      operationId: id,
      responses: {
        "200": { description: "OK." },
        "429": { $ref: "#/components/responses/Limited" },
        "4XX": { $ref: "#/components/responses/Failed" },
      },
    });
    const media = (name: string) => ({
      "application/json": { schema: { $ref: `#/components/schemas/${name}` } },
    });
    const object = { type: "object", properties: { message: { type: "string" } } };
    const input = join(scratch, "tie.json");
    writeFileSync(
      input,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Tie", version: "1.0.0" },
        paths: { "/a": { get: op("getA") }, "/b": { get: op("getB") } },
        components: {
          responses: {
            Limited: { description: "Slow down.", content: media("RateLimited") },
            Failed: { description: "Failed.", content: media("Failure") },
          },
          schemas: { RateLimited: object, Failure: object },
        },
      }),
    );
    const result = importSpec({
      input,
      outSpec: join(scratch, "tie-spec"),
      schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
    });
    const top = parse(result.files.find((f) => f.path === "api.yaml")!.text) as {
      errors?: unknown;
    };
    expect(top.errors).toEqual({ body: "Failure" });
    // The two 429s keep their notes; the 4XX ones need none.
    expect(result.gaps).toBe(2);
  });

  it("types error.body as that schema: a 404's fields read from the typed error", async () => {
    const server = await recorder(() => ({
      status: 404,
      type: "application/json",
      body: '{"code":"no_pet","message":"No pet p404.","details":["checked the shelter"]}',
    }));
    try {
      const url = pathToFileURL(join(of("error-body").out, "src/consumer.ts")).href;
      const { readMissingPet } = (await import(url)) as {
        readMissingPet(baseUrl: string): Promise<Record<string, unknown>>;
      };
      expect(await readMissingPet(server.url)).toEqual({
        status: 404,
        code: "no_pet",
        message: "No pet p404.",
        details: ["checked the shelter"],
      });
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /pets/p404"]);
    } finally {
      await stop(server);
    }
  });
});

describe("request bodies sent as text/plain whose schema is no plain string (Conjur, Netatmo, Meilisearch)", () => {
  it("makes each a string body (a named string alias kept), the schema noted, and sends the text", async () => {
    const { endpoints } = of("text-plain-bodies");
    expect(endpoints["keys.rotate"]).toMatchObject({ contentType: "text/plain", body: "ApiKey" });
    expect(endpoints["schedules.create"]).toMatchObject({
      contentType: "text/plain",
      body: "string",
      undocumented:
        "request body of media type text/plain is text the caller writes; its schema is not carried (import: #/paths/~1schedules/post/requestBody/content/text~1plain/schema)",
    });
    expect(endpoints["documents.delete"]).toMatchObject({
      contentType: "text/plain",
      body: "string",
    });
    const server = await recorder((req) =>
      req.url!.startsWith("/authn")
        ? { status: 200, type: "text/plain", body: "k".repeat(12) }
        : { status: req.method === "DELETE" ? 202 : 204 },
    );
    try {
      const { PlainTextClient } = (await clientOf("text-plain-bodies")) as {
        PlainTextClient: new (o: { baseUrl: string }) => {
          keys: { rotate(account: string, body: string): Promise<unknown> };
          schedules: { create(body: string): Promise<unknown> };
          documents: { delete(id: string, body?: string): Promise<unknown> };
        };
      };
      const client = new PlainTextClient({ baseUrl: server.url });
      expect(await client.keys.rotate("acme", "old-key-0123")).toBe("k".repeat(12));
      await client.schedules.create("zones: kitchen");
      await client.documents.delete("d1", "1");
      expect(
        server.requests.map((r) => [r.method, r.url, r.headers["content-type"], r.body]),
      ).toEqual([
        ["POST", "/authn/acme/login", "text/plain", "old-key-0123"],
        ["POST", "/schedules", "text/plain", "zones: kitchen"],
        ["DELETE", "/documents/d1", "text/plain", "1"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("JSON media types whose schema is bytes (MarketCheck's cached image, Noosh's upload)", () => {
  it("sends and reads them as application/octet-stream bytes, noted", async () => {
    const { endpoints } = of("json-bytes");
    expect(endpoints["images.get"]!.response).toMatchObject({
      body: "binary",
      contentType: "application/octet-stream",
      undocumented:
        "a response as application/json whose schema is binary: read as bytes (import: #/paths/~1images~1{id}/get/responses/200/content/application~1json)",
    });
    expect(endpoints["images.put"]).toMatchObject({
      contentType: "application/octet-stream",
      body: "binary",
    });
    expect(endpoints["images.put"]!.undocumented).toContain(
      "a request body as application/json whose schema is binary: sent as application/octet-stream (import: #/paths/~1images~1{id}/post/requestBody/content/application~1json)",
    );
    const server = await recorder((req) =>
      req.method === "GET"
        ? { status: 200, type: "image/jpeg", body: "JFIF" }
        : { status: 200, type: "application/json", body: '{"size":4}' },
    );
    try {
      const { ImagesClient } = (await clientOf("json-bytes")) as {
        ImagesClient: new (o: { baseUrl: string }) => {
          images: {
            get(id: string): Promise<Blob>;
            put(id: string, body: Uint8Array): Promise<unknown>;
          };
        };
      };
      const client = new ImagesClient({ baseUrl: server.url });
      const image = await client.images.get("i1");
      expect(image).toBeInstanceOf(Blob);
      expect(await image.text()).toBe("JFIF");
      expect(await client.images.put("i1", new TextEncoder().encode("PNG!"))).toEqual({ size: 4 });
      expect(server.requests[1]).toMatchObject({
        method: "POST",
        url: "/images/i1",
        headers: { "content-type": "application/octet-stream" },
        body: "PNG!",
      });
    } finally {
      await stop(server);
    }
  });
});

describe("parameters declared in: path that the path does not have (Weatherbit, Ecotaco)", () => {
  it("sends them in the query, noted at each parameter", async () => {
    const { endpoints } = of("path-params-not-in-path");
    expect(endpoints["forecast.daily"]!.params).toEqual({
      city: { in: "query", type: "string", required: true, description: "City name." },
      days: { in: "query", type: "integer" },
      lat: { in: "query", type: "number" },
    });
    expect(endpoints["forecast.daily"]!.undocumented).toEqual([
      "parameter city is declared in: path but the path has no {city}: sent in the query (import: #/paths/~1forecast~1daily/get/parameters/0)",
      "parameter days is declared in: path but the path has no {days}: sent in the query (import: #/paths/~1forecast~1daily/get/parameters/1)",
    ]);
    // the path item's parameters too; the one the template has stays a path parameter
    expect(endpoints["forecast.listAlerts"]!.params).toEqual({
      region: "string",
      lang: { in: "query", type: "string", required: true },
    });
    const server = await recorder(() => ({
      status: 200,
      type: "application/json",
      body: '{"count":1}',
    }));
    try {
      const { WeatherClient } = (await clientOf("path-params-not-in-path")) as {
        WeatherClient: new (o: { baseUrl: string }) => {
          forecast: { daily(q: Record<string, unknown>): Promise<unknown> };
        };
      };
      const client = new WeatherClient({ baseUrl: server.url });
      expect(await client.forecast.daily({ city: "Raleigh,NC", lat: 35.7 })).toEqual({ count: 1 });
      const [get] = server.requests;
      expect(new URL(get!.url, "http://x").pathname).toBe("/forecast/daily");
      expect(queryOf(get!.url)).toEqual([
        ["city", "Raleigh,NC"],
        ["lat", "35.7"],
      ]);
    } finally {
      await stop(server);
    }
  });
});

describe("a title that begins with a digit (BigOven's, 1Forge's)", () => {
  it("names the client class with a letter first, and the package works", async () => {
    const { top } = of("digit-title");
    expect(top.api).toMatchObject({ name: "1-000-000-api", clientName: "Api1000000Client" });
    const server = await recorder(() => ({
      status: 200,
      type: "application/json",
      body: '{"title":"Soup"}',
    }));
    try {
      const { Api1000000Client } = (await clientOf("digit-title")) as {
        Api1000000Client: new (o: { baseUrl: string }) => {
          recipes: { get(id: string): Promise<unknown> };
        };
      };
      const client = new Api1000000Client({ baseUrl: server.url });
      expect(await client.recipes.get("r1")).toEqual({ title: "Soup" });
    } finally {
      await stop(server);
    }
  });
});

describe('header parameters no request can send (Notion\'s named "")', () => {
  it('leaves each out, noted at its pointer, and keeps the others (a query named "" too)', () => {
    const page = of("unnamed-parameters").endpoints["pages.get"]!;
    expect(page.params).toEqual({
      id: "string",
      "": { in: "query", type: "string" },
      filter: { in: "query", type: "string" },
    });
    expect(page.undocumented).toEqual([
      'header parameter "": not a name a request can send; left out (import: #/paths/~1pages~1{id}/get/parameters/1)',
      'header parameter "Notion Version": not a name a request can send; left out (import: #/paths/~1pages~1{id}/get/parameters/2)',
    ]);
  });
});

describe("TRACE beside a GET of the same path (httpbin)", () => {
  it("is the GET's route, left out and noted; alone it is written as GET", () => {
    const { endpoints } = of("trace-beside-get");
    expect(Object.keys(endpoints).sort()).toEqual(["echo.getAnything", "echo.traceLoop"]);
    expect(endpoints["echo.getAnything"]).toMatchObject({
      method: "GET",
      path: "/anything",
      undocumented:
        "TRACE /anything has this endpoint's route; left out (import: #/paths/~1anything/trace)",
    });
    expect(endpoints["echo.traceLoop"]).toMatchObject({ method: "GET", path: "/loop" });
  });
});

describe("array parameters in a path, a header and a named query schema (DaniWeb)", () => {
  it("travel joined by commas and come back as arrays to the package's own stand-in", async () => {
    expect(of("array-params").endpoints["apps.getAppsById"]!.params).toMatchObject({
      ID: { type: "array" },
      "X-Fields": { in: "header", required: true },
      tags: { in: "query", type: "TagList", required: true },
    });
    const { AppsClient } = (await clientOf("array-params")) as {
      AppsClient: new (options: object) => any;
    };
    const { createStandIn } = (await import(
      pathToFileURL(join(of("array-params").out, "src/testing.ts")).href
    )) as { createStandIn: () => { fetch: (request: Request) => Promise<Response> } };
    const standIn = createStandIn();
    const sent: string[] = [];
    const client = new AppsClient({
      baseUrl: "http://stand-in.local",
      maxRetries: 0,
      fetch: (input: Request | string | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        sent.push(`${request.url} ${request.headers.get("x-fields")}`);
        return standIn.fetch(request);
      },
    });
    const apps = await client.apps.getAppsById([2, 3], {
      "X-Fields": ["name", "owner"],
      tags: ["a", "b"],
    });
    expect(Array.isArray(apps)).toBe(true);
    expect(sent).toEqual(["http://stand-in.local/apps/2%2C3?tags=a&tags=b name,owner"]);
    // an item the array's type refuses is still refused, by its place in the array
    const refused = await standIn.fetch(
      new Request("http://stand-in.local/apps/2,0?tags=a", { headers: { "X-Fields": "name" } }),
    );
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("params.ID[1]");
  });
});

describe("path parameters declared in another order than the path names them (Adafruit, Apacta)", () => {
  it("are the call's positional arguments in the path's order", async () => {
    const { FeedsClient } = (await clientOf("path-param-order")) as {
      FeedsClient: new (options: object) => any;
    };
    const server = await recorder(() => ({ status: 204 }));
    try {
      const client = new FeedsClient({ baseUrl: server.url, maxRetries: 0 });
      await client.groups.addFeedToGroup("ada", "weather", { feed_key: "temp" });
      await client.projects.getProjectUser("p1", 7).catch(() => undefined);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        "POST /ada/groups/weather/add?feed_key=temp",
        "GET /projects/p1/users/7",
      ]);
    } finally {
      await stop(server);
    }
    const client = readFileSync(join(of("path-param-order").out, "src/client.ts"), "utf8");
    expect(client).toMatch(/addFeedToGroup\(\s*username: string,\s*groupKey: string,/);
  });
});

describe("a URL-encoded form whose schema is a string (LibreTranslate)", () => {
  it("sends the string as the form's text, with the form's media type", async () => {
    const { TranslateClient } = (await clientOf("form-string-body")) as {
      TranslateClient: new (options: object) => any;
    };
    const server = await recorder(() => ({
      status: 200,
      type: "application/json",
      body: '{"success":true}',
    }));
    try {
      const client = new TranslateClient({ baseUrl: server.url, maxRetries: 0 });
      expect(await client.feedback.postSuggest("q=hello&s=hola")).toEqual({ success: true });
      expect(server.requests.map((r) => [r.headers["content-type"], r.body])).toEqual([
        ["application/x-www-form-urlencoded", "q=hello&s=hola"],
      ]);
    } finally {
      await stop(server);
    }
  });

  it("takes a multipart body whose schema is a string or an array, and a form's array, as an object of any fields, noted", async () => {
    const translate = of("form-string-body").endpoints["translate.postTranslateFile"]!;
    expect(translate).toMatchObject({ contentType: "multipart/form-data", body: "object" });
    expect(translate.undocumented).toContain(
      "a multipart body whose schema is a string, not its fields: an object of any fields",
    );
    const columns = of("form-string-body").endpoints["filters.setColumns"]!;
    expect(columns).toMatchObject({ contentType: "multipart/form-data", body: "object" });
    expect(String(columns.undocumented)).toContain(
      "a multipart body whose schema is an array, not its fields: an object of any fields",
    );
    // a form given as bytes is its text, already encoded (generate refused a binary form)
    const upload = of("form-string-body").endpoints["studio.uploadForm"]!;
    expect(upload).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      body: "string",
    });
    expect(String(upload.undocumented)).toContain(
      "a form body whose schema is binary: written as the form's text, already encoded",
    );
    const studio = of("form-string-body").endpoints["studio.editInStudio"]!;
    expect(studio).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      body: "object",
    });
    expect(String(studio.undocumented)).toContain(
      "a form body whose schema is an array, not its fields: an object of any fields",
    );
    const { TranslateClient } = (await clientOf("form-string-body")) as {
      TranslateClient: new (options: object) => any;
    };
    const server = await recorder(() => ({ status: 200, type: "text/plain", body: "hola" }));
    try {
      const client = new TranslateClient({ baseUrl: server.url, maxRetries: 0 });
      await client.translate.postTranslateFile({
        file: new Blob(["hello"], { type: "text/plain" }),
        source: "en",
      });
      const [sent] = server.requests;
      expect(sent!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
      expect(sent!.body).toContain('name="source"\r\n\r\nen');
      expect(sent!.body).toContain('name="file"; filename="blob"');
    } finally {
      await stop(server);
    }
  });
});

describe("response headers the HTTP layer writes, documented as an answer's (VTEX); Accept-Language and Accept-Encoding left out (Zalando, Conjur)", () => {
  it("are left to the server by the stand-in listening on 127.0.0.1, which makes up the API's own", async () => {
    const out = of("http-owned-headers").out;
    const { LogisticsClient } = (await clientOf("http-owned-headers")) as {
      LogisticsClient: new (options: object) => any;
    };
    const testing = (await import(pathToFileURL(join(out, "src/testing.ts")).href)) as {
      createStandIn: () => unknown;
      listen: (standIn: unknown) => Promise<{ url: string; close(): Promise<void> }>;
    };
    const running = await testing.listen(testing.createStandIn());
    try {
      const client = new LogisticsClient({ baseUrl: running.url, maxRetries: 0 });
      const { data, response } = await client.docks.list().withResponse();
      expect(Array.isArray(data)).toBe(true);
      expect(response.headers.get("x-track")).toEqual(expect.any(String));
      expect(response.headers.get("content-encoding")).toBeNull();
      expect(["keep-alive", "close", null]).toContain(response.headers.get("connection"));
      // with the language given, and refused outside the listed ones
      expect(Array.isArray(await client.docks.list({ "Accept-Language": "de" }))).toBe(true);
      expect(Array.isArray(await client.docks.list({ "Accept-Encoding": "base64" }))).toBe(true);
      const refused = await fetch(`${running.url}/docks`, { headers: { "Accept-Language": "fr" } });
      expect(refused.status).toBe(400);
      // the runtime's own User-Agent (the calls above sent `node`) is no header; another agent
      // is held to the pattern
      expect(Array.isArray(await client.docks.list({ "User-Agent": "meta-sdk/1.2.3" }))).toBe(true);
      const agent = await fetch(`${running.url}/docks`, { headers: { "User-Agent": "curl 8" } });
      expect(agent.status).toBe(400);
      // Content-Length is left to fetch: the upload takes no such parameter and sends the body's
      const upload = of("http-owned-headers").endpoints["artifacts.upload"]!;
      // one Idempotency-Key, the operation's own (required), whatever the case of the other
      expect(upload.params).toEqual({
        hash: "string",
        "Idempotency-Key": { in: "header", type: "string", required: true },
      });
      expect(String(upload.undocumented)).toContain(
        "header parameter Content-Length is written by fetch from the request itself; left out",
      );
      expect(String(upload.undocumented)).toContain(
        "header parameter idempotency-key is the header Idempotency-Key again (header names are case-insensitive): the first is kept",
      );
      await client.artifacts.upload("h1", new Uint8Array([1, 2, 3]), { "Idempotency-Key": "k1" });
    } finally {
      await running.close();
    }
  });
});

describe("a $ref to a URL a schema of the document names as its $id (schema-ids, OpenAPI 3.1)", () => {
  it("names that schema, and a part of it by the URL's fragment", () => {
    const { endpoints } = of("schema-ids");
    expect(endpoints["pets.list"]!.response).toMatchObject({ body: "Pet[]" });
    // a part named by a $ref is a named type, as a local `#/components/schemas/Pet/...` one is
    expect(endpoints["pets.getOwner"]!.response).toMatchObject({ body: "Owner" });
  });
});

describe("shapes the Swagger 2.0 fuzz property found (odd-shapes, in OpenAPI 3.0)", () => {
  it("leaves out what no request can carry, noted, and writes what generate accepts", () => {
    const { endpoints, result } = of("odd-shapes");
    expect(result.endpoints).toBe(4);
    // a parameter in no place a request has; the path's placeholder declared, the query's renamed
    expect(endpoints["things.touch"]!.params).toEqual({
      id_query: { in: "query", name: "id", type: "string", required: true },
      id: "string",
    });
    expect(endpoints["things.touch"]!.undocumented).toContain(
      "parameter file with in: nowhere, a place no request has; left out (import: #/paths/~1things~1{id}/post/parameters/1)",
    );
    // a GET's body as its query: the file, the array of arrays and the loop left out, noted
    const search = endpoints["things.search"]!;
    expect(search.params).toEqual({ term: { in: "query", type: "string" } });
    const notes = (search.undocumented as string[]).join("\n");
    expect(notes).toMatch(/field upload of the request body is bytes/);
    expect(notes).toMatch(/query parameter matrix is an array of arrays/);
    expect(notes).toMatch(/query parameter loop is left out/);
    // a text/plain body of an enum is its text; JSON Lines of bytes are bytes
    expect(endpoints["notes.add"]).toMatchObject({ contentType: "text/plain", body: "string" });
    expect(endpoints["notes.add"]!.response).toMatchObject({
      contentType: "application/octet-stream",
      body: "binary",
    });
  });

  it("writes a union of null alone as null, and leaves out a property whose name holds a control character", () => {
    const types = Object.assign(
      {},
      ...of("odd-shapes").result.files.map(
        (f) => (parse(f.text) as { types?: object }).types ?? {},
      ),
    ) as Record<string, unknown>;
    expect(types.NullOnly).toEqual({ type: "unknown", nullable: true });
    expect(types.Escaped).toEqual({
      fields: { plain: "string" },
      undocumented:
        'property "foo\\fbar" has a control character in its name, which a spec file cannot hold: left out (import: #/components/schemas/Escaped/properties)',
    });
  });
});
