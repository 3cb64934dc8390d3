/**
 * Request bodies by content type, responses beyond JSON and response metadata, end to end:
 * the client of test/fixtures/features/bodies-and-responses, generated into a temp folder,
 * against a node:http server on 127.0.0.1 that records the raw bytes of every request. The
 * server checks what arrived (Content-Type, the exact form encoding, each multipart part with
 * its file name and type, raw bytes); the client's answers are checked by kind (void, Blob,
 * text, typed headers, the raw stream, ApiError's server message and request id); a bad value
 * of each kind is refused before anything is sent, naming its field. The spec's own mistakes
 * (test/fixtures/broken/body-content-types) are in diagnostics.test.ts.
 */
import { rmSync, writeFileSync } from "node:fs";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeGenerated, repoRoot, tempDir } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Answer = (request: Received, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let received: Received[] = [];
let answer: Answer = (_req, res) => res.end("{}");
let out: string;
// The generated module: its types are checked by the type-check below, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;

beforeAll(async () => {
  out = tempDir("apigen-bodies-");
  await writeGenerated("test/fixtures/features/bodies-and-responses", out);
  compileInPlace(out);
  generated = await importCompiled<typeof generated>(join(out, "src/index.ts"));
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(request);
      answer(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(out, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
  answer = (_req, res) => res.end("{}");
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function client(options: Record<string, unknown> = {}): any {
  return new generated.FilesClient({ baseUrl, token: "tok_secret_123", maxRetries: 0, ...options });
}

/** Answers with `status`, a JSON body (or none for undefined) and `headers`. */
function json(status: number, body?: unknown, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    res.writeHead(status, {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
}

/** The multipart parts a request carried, read by the Web platform's own parser. */
async function partsOf(request: Received): Promise<FormData> {
  const type = request.headers["content-type"]!;
  return new Response(new Uint8Array(request.body), {
    headers: { "content-type": type },
  }).formData();
}

/** The error a call rejects with (fails the test if it resolves). */
async function rejection(call: PromiseLike<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the call to fail");
}

/** A stream of `chunks`, as a caller streaming an upload would pass it. */
function streamOf(...chunks: number[][]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
}

describe("application/x-www-form-urlencoded", () => {
  it("sends nested objects and arrays in bracket form, booleans as words, undefined left out", async () => {
    answer = json(200, { id: "pi_1", amount: 1200 });
    const intent = await client().paymentIntents.create({
      amount: 1200,
      currency: "usd",
      confirm: true,
      metadata: { order: "1", "a b": "c&d=e" },
      expand: ["customer", "latest_charge"],
      items: [{ price: "p_1", quantity: 2 }, { price: "p_2" }],
      shipping: { name: "Ada", address: { city: "Paris", line1: undefined } },
      extra: { off_session: false, tags: [] },
    });
    expect(intent).toEqual({ id: "pi_1", amount: 1200 });
    const [request] = received;
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request!.body.toString()).toBe(
      [
        "amount=1200",
        "currency=usd",
        "confirm=true",
        "metadata%5Border%5D=1",
        "metadata%5Ba+b%5D=c%26d%3De",
        "expand%5B%5D=customer",
        "expand%5B%5D=latest_charge",
        "items%5B0%5D%5Bprice%5D=p_1",
        "items%5B0%5D%5Bquantity%5D=2",
        "items%5B1%5D%5Bprice%5D=p_2",
        "shipping%5Bname%5D=Ada",
        "shipping%5Baddress%5D%5Bcity%5D=Paris",
        "extra%5Boff_session%5D=false",
      ].join("&"),
    );
  });

  it("refuses a value a form cannot carry, naming its field, and sends nothing", async () => {
    const error = await rejection(
      client().paymentIntents.create({
        amount: 1,
        currency: "usd",
        extra: { nested: { big: 10n } },
      }),
    );
    expect(error.name).toBe("RequestValidationError");
    expect(error.field).toBe("body.extra.nested.big");
    expect(error.message).toContain("cannot be sent in a form: it is a bigint");
    const binary = await rejection(
      client().paymentIntents.create({ amount: 1, currency: "usd", extra: { f: new Blob(["x"]) } }),
    );
    expect(binary.field).toBe("body.extra.f");
    expect(binary.message).toContain("use multipart");
    expect(received).toHaveLength(0);
  });
});

describe("multipart/form-data", () => {
  it("sends file parts with their file names and types, text parts, repeated arrays and JSON objects", async () => {
    answer = json(201, { id: "file_1" });
    const file = await client().files.create({
      file: {
        data: new Uint8Array([1, 2, 3]),
        filename: "a.bin",
        contentType: "application/x-thing",
      },
      purpose: "dispute_evidence",
      tags: ["x", "y"],
      attachments: [
        new Blob(["hello"], { type: "text/plain" }),
        { data: streamOf([4, 5], [6]), filename: "s.dat" },
        { data: new Uint8Array([7]).buffer, filename: "b.raw", contentType: "image/png" },
      ],
      options: { public: true },
    });
    expect(file).toEqual({ id: "file_1" });
    const [request] = received;
    expect(request!.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.body.toString("latin1")).toContain(
      'Content-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/x-thing\r\n',
    );
    const parts = await partsOf(request!);
    const main = parts.get("file") as File;
    expect([main.name, main.type, [...new Uint8Array(await main.arrayBuffer())]]).toEqual([
      "a.bin",
      "application/x-thing",
      [1, 2, 3],
    ]);
    expect(parts.get("purpose")).toBe("dispute_evidence");
    expect(parts.getAll("tags")).toEqual(["x", "y"]);
    const attachments = parts.getAll("attachments") as File[];
    expect(attachments.map((f) => [f.name, f.type])).toEqual([
      ["blob", "text/plain"],
      ["s.dat", "application/octet-stream"],
      ["b.raw", "image/png"],
    ]);
    expect(await attachments[0]!.text()).toBe("hello");
    expect([...new Uint8Array(await attachments[1]!.arrayBuffer())]).toEqual([4, 5, 6]);
    expect(JSON.parse(parts.get("options") as string)).toEqual({ public: true });
  });

  it("sends the parts of whichever object of a union body the call gives, a file among them", async () => {
    answer = json(200, { id: "file_1" });
    await client().files.update("file_1", {
      file: { data: new Uint8Array([9, 8]), filename: "new.bin" },
      name: "renamed",
    });
    await client().files.update("file_1", { name: "only-a-name" });
    const [replaced, renamed] = received;
    expect(replaced!.method).toBe("PATCH");
    const parts = await partsOf(replaced!);
    const file = parts.get("file") as File;
    expect([file.name, [...new Uint8Array(await file.arrayBuffer())]]).toEqual(["new.bin", [9, 8]]);
    expect(parts.get("name")).toBe("renamed");
    expect([...(await partsOf(renamed!)).entries()]).toEqual([["name", "only-a-name"]]);
  });

  it("refuses a value that is not binary in a binary field, naming it, and sends nothing", async () => {
    const error = await rejection(client().files.create({ file: "C:/report.pdf", purpose: "x" }));
    expect(error.name).toBe("RequestValidationError");
    expect(error.field).toBe("body.file");
    expect(error.message).toContain(
      "must be a Blob, File, Uint8Array, ArrayBuffer, ReadableStream or { data, filename?, contentType? }, not a string",
    );
    const named = await rejection(
      client().files.create({ file: { data: new Uint8Array(1), filename: 7 }, purpose: "x" }),
    );
    expect(named.field).toBe("body.file.filename");
    expect(received).toHaveLength(0);
  });
});

describe("application/octet-stream and text/plain bodies", () => {
  it("sends the bytes as they are, and a 204 resolves to undefined", async () => {
    answer = json(204);
    const result = await client().files.upload("f 1", new Uint8Array([0, 255, 1]));
    expect(result).toBeUndefined();
    const [request] = received;
    expect(request!.method).toBe("PUT");
    expect(request!.url).toBe("/v1/files/f%201/content");
    expect(request!.headers["content-type"]).toBe("application/octet-stream");
    expect([...request!.body]).toEqual([0, 255, 1]);
  });

  it("streams a ReadableStream body, and never sends it twice (no retry once sent)", async () => {
    answer = json(204);
    await client().files.upload("f1", streamOf([1, 2], [3]));
    expect([...received[0]!.body]).toEqual([1, 2, 3]);
    received = [];
    answer = json(503, { error: { message: "busy" } });
    const error = await rejection(
      client({ maxRetries: 3, retryBackoffMs: 1 }).files.upload("f1", streamOf([9]), {
        idempotencyKey: "k1",
      }),
    );
    expect(error.status).toBe(503);
    expect(received).toHaveLength(1);
    // A Blob body can be sent again: it is retried.
    received = [];
    await rejection(
      client({ maxRetries: 1, retryBackoffMs: 1 }).files.upload("f1", new Blob(["z"]), {
        idempotencyKey: "k2",
      }),
    );
    expect(received.map((r) => r.body.toString())).toEqual(["z", "z"]);
  });

  it("a 307 redirect of a streamed body is a RedirectError (it cannot be sent again); of bytes, it is followed", async () => {
    answer = (req, res) => {
      if (req.url.startsWith("/moved")) return json(204)(req, res);
      res.writeHead(307, { location: "/moved" });
      res.end();
    };
    const error = await rejection(client().files.upload("f1", streamOf([1])));
    expect([error.name, error.status]).toEqual(["RedirectError", 307]);
    expect(error.message).toContain("streamed body");
    received = [];
    await client().files.upload("f1", new Uint8Array([5, 6]));
    expect(received.map((r) => [r.url, [...r.body]])).toEqual([
      ["/v1/files/f1/content", [5, 6]],
      ["/moved", [5, 6]],
    ]);
  });

  it("refuses a body that is not binary, and a text body that is not a string", async () => {
    const error = await rejection(client().files.upload("f1", { bytes: [1] }));
    expect([error.name, error.field]).toEqual(["RequestValidationError", "body"]);
    const text = await rejection(client().notes.setText("n1", 42));
    expect([text.name, text.field, text.message]).toEqual([
      "RequestValidationError",
      "body",
      "notes.setText: body must be a string, not number 42",
    ]);
    expect(received).toHaveLength(0);
  });

  it("sends a text body as text/plain", async () => {
    answer = json(204);
    expect(await client().notes.setText("n1", "héllo\nworld")).toBeUndefined();
    expect(received[0]!.headers["content-type"]).toBe("text/plain");
    expect(received[0]!.body.toString()).toBe("héllo\nworld");
  });
});

describe("JSON bodies", () => {
  it("go out as application/json on an endpoint that lists no Content-Type header", async () => {
    answer = json(201, { text: "hi" }, { location: "/v1/notes/n_1" });
    const { data, status, headers, response } = await client()
      .notes.create({ text: "hi" })
      .withResponse();
    expect(received[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received[0]!.body.toString())).toEqual({ text: "hi" });
    expect([data, status, headers]).toEqual([{ text: "hi" }, 201, { Location: "/v1/notes/n_1" }]);
    expect(response).toBeInstanceOf(Response);
  });
});

describe("responses beyond JSON", () => {
  it("a 204 resolves to undefined", async () => {
    answer = json(204);
    expect(await client().files.delete("f1")).toBeUndefined();
    expect(received[0]!.method).toBe("DELETE");
  });

  it("a binary response is a Blob of its bytes and media type", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(Buffer.from([37, 80, 68, 70, 0, 255]));
    };
    const pdf: Blob = await client().invoices.pdf("in_1");
    // It asks for the PDF, and for JSON error bodies after it.
    expect(received[0]!.headers.accept).toBe("application/pdf, application/json;q=0.5");
    expect(pdf).toBeInstanceOf(Blob);
    expect(pdf.type).toBe("application/pdf");
    expect([...new Uint8Array(await pdf.arrayBuffer())]).toEqual([37, 80, 68, 70, 0, 255]);
  });

  it("a binary response over maxResponseBytes is an error, not a cut Blob", async () => {
    answer = (_req, res) => res.end(Buffer.alloc(100));
    const error = await rejection(client({ maxResponseBytes: 10 }).invoices.pdf("in_1"));
    expect(error.name).toBe("ResponseTooLargeError");
  });

  it("asResponse() gives the raw Response with its body unread", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.write(Buffer.from([1, 2]));
      setTimeout(() => res.end(Buffer.from([3])), 20);
    };
    const response: Response = await client().invoices.pdf("in_1").asResponse();
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(false);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("a text response is a string", async () => {
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("Invoice in_1: 12.00 €");
    };
    expect(await client().invoices.summary("in_1")).toBe("Invoice in_1: 12.00 €");
  });
});

describe("response metadata", () => {
  it("withResponse() gives the status, the response and the declared headers parsed by type", async () => {
    answer = (_req, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        link: '<https://api.example.com/v1/invoices?page=2>; rel="next"',
        "x-ratelimit-remaining": "42",
        "x-cached": "true",
        "x-other": "not declared",
      });
      res.end(JSON.stringify([{ id: "in_1" }]));
    };
    const result = await client().invoices.list({ page: 1 }).withResponse();
    expect(received[0]!.url).toBe("/v1/invoices?page=1");
    expect(result.data).toEqual([{ id: "in_1" }]);
    expect(result.status).toBe(200);
    expect(result.headers).toEqual({
      Link: '<https://api.example.com/v1/invoices?page=2>; rel="next"',
      "X-RateLimit-Remaining": 42,
      "X-Cached": true,
    });
    expect(result.response.headers.get("x-other")).toBe("not declared");
  });

  it("the API's responseHeaders are every endpoint's too, parsed by type; an endpoint's own of the same name wins", async () => {
    answer = json(
      201,
      { text: "hi" },
      {
        location: "/v1/notes/n_2",
        "x-ratelimit-remaining": "7",
        "x-ratelimit-reset": "1767225600",
      },
    );
    const created = await client().notes.create({ text: "hi" }).withResponse();
    expect(created.headers).toEqual({
      Location: "/v1/notes/n_2",
      "X-RateLimit-Remaining": 7,
      "X-RateLimit-Reset": 1767225600,
    });
    // a call whose spec declares no headers of its own reads the API's
    answer = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "x-ratelimit-reset": "1767225600" });
      res.end("total 10");
    };
    expect((await client().invoices.summary("in_1").withResponse()).headers).toEqual({
      "X-RateLimit-Reset": 1767225600,
    });
  });

  it("a declared header that is absent, or does not read as its type, is left out", async () => {
    answer = json(200, [], { "x-ratelimit-remaining": "lots", "x-cached": "yes" });
    expect((await client().invoices.list().withResponse()).headers).toEqual({});
  });

  it("a call kept and awaited later is sent once, and can still give its response", async () => {
    answer = json(200, [], { link: "<next>" });
    const call = client().invoices.list();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toHaveLength(1);
    expect(await call).toEqual([]);
    expect((await call.withResponse()).headers).toEqual({ Link: "<next>" });
    expect(received).toHaveLength(1);
    const error = await rejection(call.asResponse());
    expect(error.message).toBe(
      "asResponse() must be called on the call's result before it is awaited",
    );
  });
});

describe("ApiError", () => {
  it("keeps the server's message and the request id (errors.requestIdHeader) apart from its summary", async () => {
    answer = json(
      404,
      { error: { message: "No such invoice: in_9" } },
      { "x-files-request-id": "req_123", "x-request-id": "other" },
    );
    const error = await rejection(client().invoices.pdf("in_9"));
    expect(error).toBeInstanceOf(generated.FilesApiError);
    expect(error.message).toBe("invoices.pdf failed with 404: No such invoice: in_9");
    expect(error.serverMessage).toBe("No such invoice: in_9");
    expect(error.requestId).toBe("req_123");
  });

  it("has no server message when the body gives none", async () => {
    answer = json(500, { unexpected: true });
    const error = await rejection(client().files.delete("f1"));
    expect(error.message).toBe("files.delete failed with 500: HTTP 500");
    expect(error.serverMessage).toBeUndefined();
    expect(error.requestId).toBeUndefined();
  });
});

describe("types of the generated calls", () => {
  it("type-check: void, Blob, string, typed headers, BinaryInput", () => {
    writeFileSync(
      join(out, "src/usage-check.ts"),
      [
        'import { FilesClient, type ApiPromise, type FilesUploadResponseHeaders } from "./index.js";',
        'const c = new FilesClient({ baseUrl: "http://127.0.0.1" });',
        "export async function check(): Promise<void> {",
        '  const none: void = await c.files.delete("f");',
        '  const pdf: Blob = await c.invoices.pdf("i");',
        '  const text: string = await c.invoices.summary("i");',
        '  const raw: Response = await c.invoices.pdf("i").asResponse();',
        "  const { headers, status } = await c.invoices.list().withResponse();",
        '  const remaining: number | undefined = headers["X-RateLimit-Remaining"];',
        "  const link: string | undefined = headers.Link;",
        "  // every call's headers hold the API's responseHeaders",
        '  const call: ApiPromise<void, FilesUploadResponseHeaders> = c.files.upload("f", new Uint8Array(1));',
        '  const reset: number | undefined = (await call.withResponse()).headers["X-RateLimit-Reset"];',
        '  const asPromise: Promise<Blob> = c.invoices.pdf("i");',
        '  await c.files.create({ file: { data: new Blob([]), filename: "a" }, purpose: "p" });',
        "  // @ts-expect-error a string is not binary",
        '  await c.files.create({ file: "a.pdf", purpose: "p" });',
        "  // @ts-expect-error Link is a string",
        "  const wrong: number | undefined = headers.Link;",
        "  void [none, pdf, text, raw, status, remaining, link, call, reset, asPromise, wrong];",
        "}",
        "",
      ].join("\n"),
    );
    const tsc = typescript6;
    const run = runTypeScript(tsc, ["-p", join(withRuntimeDeclarations(out), "tsconfig.json")]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
  }, 60_000);
});

describe("--diff", () => {
  it("lists a change of request media type, response kind and declared headers, each for callers", async () => {
    const { compareModels } = await import("../generator/diff/compare.ts");
    const { loadModel } = await import("../generator/diff/load-base.ts");
    const before = loadModel(join(repoRoot, "test/fixtures/features/bodies-and-responses"));
    const after = structuredClone(before);
    const endpoint = (id: string) => after.endpoints.find((e) => e.id === id)!;
    endpoint("paymentIntents.create").requestBody = {
      encoding: "json",
      contentType: "application/json",
      header: "application/json",
    };
    Object.assign(endpoint("invoices.summary").response, {
      kind: "binary",
      contentType: "application/pdf",
    });
    const list = endpoint("invoices.list").response;
    list.headers = list.headers
      .filter((h) => h.name !== "Link")
      .map((h) => (h.name === "X-Cached" ? { ...h, parse: "string" as const } : h));
    list.headers.push({ ...list.headers[0]!, name: "X-Total" });
    expect(
      compareModels(before, after).map((c) => `${c.level} ${c.subject}: ${c.description}`),
    ).toEqual([
      "breaking endpoints.paymentIntents.create.body: sent as application/x-www-form-urlencoded -> application/json",
      "breaking endpoints.invoices.summary.response: text/plain -> application/pdf",
      "breaking endpoints.invoices.list.response: header X-Cached: boolean -> string",
      "minor endpoints.invoices.list.response: header X-Total declared",
      "breaking endpoints.invoices.list.response: header Link no longer declared",
    ]);
    expect(compareModels(before, before)).toEqual([]);
  });
});
