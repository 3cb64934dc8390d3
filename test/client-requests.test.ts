/**
 * What a request carries beyond its parameters and body, and what its answer may be, end to
 * end: the client of test/fixtures/features/requests, generated into a temp folder, against a
 * node:http server on 127.0.0.1 that records every request, and the package's own stand-in.
 * Downloads of any media type (`image/*`, `*\/*`) are Blobs of the type the server sends.
 */
import { existsSync, rmSync, writeFileSync } from "node:fs";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compareModels } from "../generator/diff/compare.ts";
import { loadModel } from "../generator/diff/load-base.ts";
import type { ApiModel } from "../generator/ir/model.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { compileInPlace, importCompiled } from "./support/compiled-import.ts";
import { withRuntimeDeclarations } from "./support/runtime-declarations.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

interface Received {
  /** The Host header: which server of the two it reached. */
  host: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

type Answer = (request: Received, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
/** A second server on 127.0.0.1, as the uploads host: it records into `received` and answers with `answer` too. */
let uploads: Server;
let uploadsUrl: string;
let received: Received[] = [];
let answer: Answer = (_req, res) => res.end("{}");
let out: string;
// The generated modules: their types are checked by the type-check of each part, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let generated: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let testing: any;

/** A node:http server on 127.0.0.1 that records each request and answers with `answer`. */
async function recordingServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = {
        host: req.headers.host ?? "",
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
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  out = tempDir("apigen-requests-");
  await writeGenerated("test/fixtures/features/requests", out);
  compileInPlace(out);
  generated = await importCompiled(join(out, "src/index.ts"));
  testing = await importCompiled(join(out, "src/testing.ts"));
  ({ server, url: baseUrl } = await recordingServer());
  ({ server: uploads, url: uploadsUrl } = await recordingServer());
}, 60_000);

afterAll(async () => {
  for (const s of [server, uploads]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  rmSync(out, { recursive: true, force: true });
});

beforeEach(() => {
  received = [];
  answer = (_req, res) => res.end("{}");
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function client(options: Record<string, unknown> = {}): any {
  return new generated.MediaClient({ baseUrl, token: "tok_secret_1", maxRetries: 0, ...options });
}

/** Answers with `status`, `body` as it is, and `headers`. */
function bytes(status: number, body: Uint8Array | string, headers: Record<string, string>): Answer {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
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

describe("downloads of any media type", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);

  it("gives an image/* download as a Blob of the image type the server sends, asking for image/*", async () => {
    answer = bytes(200, png, { "content-type": "image/webp" });
    const blob: Blob = await client().photos.raw("p1");
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe("image/webp");
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(png);
    expect(received[0]!.headers.accept).toBe("image/*, application/json;q=0.5");
  });

  it("gives a */* download as a Blob of whatever type comes, JSON included, asking for */*", async () => {
    answer = bytes(200, "%PDF-1.7", { "content-type": "application/pdf" });
    const pdf: Blob = await client().files.download("f1");
    expect([pdf.type, await pdf.text()]).toEqual(["application/pdf", "%PDF-1.7"]);
    expect(received[0]!.headers.accept).toBe("*/*");
    answer = bytes(200, '{"a":1}', { "content-type": "application/json" });
    const json: Blob = await client().files.download("f1");
    expect([json.type, await json.text()]).toEqual(["application/json", '{"a":1}']);
  });

  it("still throws the API's error for an error status, its JSON body read", async () => {
    answer = bytes(404, JSON.stringify({ message: "no such photo" }), {
      "content-type": "application/json",
    });
    const error = await rejection(client().photos.raw("p1"));
    expect(error).toBeInstanceOf(generated.MediaApiError);
    expect([error.status, error.serverMessage]).toEqual([404, "no such photo"]);
  });

  it("the stand-in answers a range with a type it covers, and bytes", async () => {
    const standIn = testing.createStandIn();
    const ask = (path: string) =>
      standIn.fetch(
        new Request(`http://stand-in.test${path}`, { headers: { authorization: "Bearer t" } }),
      );
    const photo = await ask("/photos/p1/raw");
    expect([photo.status, photo.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await photo.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const file = await ask("/files/f1");
    expect([file.status, file.headers.get("content-type")]).toEqual([
      200,
      "application/octet-stream",
    ]);
    // and the generated client reads either as a Blob of that type
    const viaStandIn = client({
      fetch: (input: RequestInfo, init?: RequestInit) => standIn.fetch(new Request(input, init)),
    });
    const blob: Blob = await viaStandIn.photos.raw("p1");
    expect([blob.type, blob.size > 0]).toEqual(["image/png", true]);
  });
});

describe("the stand-in's downloads", () => {
  it("answers bytes of the media type for a download whose body the spec does not show", async () => {
    const dir = tempDir("apigen-requests-spec-");
    const pkg = tempDir("apigen-requests-pkg-");
    try {
      writeFileSync(
        join(dir, "api.yaml"),
        [
          "api: { name: pdfs, title: Pdfs, version: 1.0.0 }",
          "endpoints:",
          "  invoices.pdf:",
          "    method: GET",
          "    path: /invoices/{id}/pdf",
          "    params: { id: string }",
          "    response: { status: 200, contentType: application/pdf }",
          "",
        ].join("\n"),
      );
      await writeGenerated(dir, pkg);
      compileInPlace(pkg);
      const { createStandIn } = await importCompiled<typeof testing>(join(pkg, "src/testing.ts"));
      const answer: Response = await createStandIn().fetch(
        new Request("http://stand-in.test/invoices/i1/pdf"),
      );
      expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/pdf"]);
      expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(pkg, { recursive: true, force: true });
    }
  });
});

describe("--diff of requests", () => {
  /** The changes from the fixture to `change(model)`, one line each. */
  async function changes(change: (model: ApiModel) => void): Promise<string[]> {
    const before = loadModel(join(repoRoot, "test/fixtures/features/requests"));
    const after = structuredClone(before);
    change(after);
    return compareModels(before, after).map((c) => `${c.level} ${c.subject}: ${c.description}`);
  }
  const endpoint = (model: ApiModel, id: string) => model.endpoints.find((e) => e.id === id)!;

  it("a download of another media type is a Blob all the same: minor; a Blob that becomes JSON breaks callers", async () => {
    expect(
      await changes((m) => {
        endpoint(m, "photos.raw").response.contentType = "image/png";
        Object.assign(endpoint(m, "files.download").response, {
          kind: "json",
          contentType: "application/json",
        });
      }),
    ).toEqual([
      "breaking endpoints.files.download.response: */* -> application/json",
      "minor endpoints.photos.raw.response: image/* -> image/png",
    ]);
  });

  it("headers every request sends change the wire only: minor; a version removed breaks callers who pin it", async () => {
    expect(
      await changes((m) => {
        m.fixedHeaders[0]!.value = "application/vnd.media.v2+json";
        m.fixedHeaders.splice(1, 1);
        m.fixedHeaders.push({ name: "X-Tenant", value: "t1", required: true, docs: { notes: [] } });
        m.versioning.current = "2023-01-01";
        m.versioning.versions = m.versioning.versions.filter((v) => v.name !== "2024-06-01");
        m.versioning.versions.push({
          name: "2025-01-01",
          docs: { notes: [] },
          location: m.api.location,
        });
      }),
    ).toEqual([
      "minor headers: every request sends Accept: application/vnd.media+json -> Accept: application/vnd.media.v2+json",
      "minor headers: every request now sends X-Tenant: t1",
      "minor headers: requests no longer send X-Client-Name: apigen-feature",
      "minor versioning: the client sends version 2024-06-01 -> 2023-01-01",
      "minor versioning: version 2025-01-01 added",
      "breaking versioning: version 2024-06-01 removed (apiVersion no longer takes it)",
    ]);
    expect(
      await changes((m) => void (m.versioning = { ...m.versioning, scheme: "path-prefix" })),
    ).toEqual(["breaking versioning: versioned by header -> path-prefix"]);
  });

  it("where calls go is minor; a host the hosts option no longer takes, or must now be given, breaks callers", async () => {
    expect(
      await changes((m) => {
        m.hosts[0]!.baseUrl = "https://up.media.example";
        endpoint(m, "albums.get").host = "uploads";
        m.hosts.push({ name: "cdn", docs: { notes: [] }, location: m.api.location });
      }),
    ).toEqual([
      "minor hosts.uploads: address https://uploads.media.example -> https://up.media.example",
      "breaking hosts.cdn: host added",
      "minor endpoints.albums.get: served from the base address -> host uploads",
    ]);
    expect(
      await changes((m) => {
        delete m.hosts[0]!.baseUrl;
      }),
    ).toEqual([
      "breaking hosts.uploads: address https://uploads.media.example -> none (the hosts option must give one)",
    ]);
    expect(
      await changes((m) => {
        m.hosts = [];
        delete endpoint(m, "photos.upload").host;
      }),
    ).toEqual([
      "breaking hosts.uploads: host removed (the hosts option no longer takes it)",
      "minor endpoints.photos.upload: served from host uploads -> the base address",
    ]);
  });

  it("a 304 that becomes a result, or stops being one, breaks callers", async () => {
    expect(
      await changes((m) => {
        endpoint(m, "albums.get").response.notModified = true;
        delete endpoint(m, "photos.get").response.notModified;
      }),
    ).toEqual([
      "breaking endpoints.albums.get.response: a 304 is now a result: the call resolves to the body or a NotModified",
      "breaking endpoints.photos.get.response: a 304 is no longer a result: the ifNoneMatch and ifModifiedSince options go",
    ]);
  });
});

describe("headers every request sends, and the version in a header", () => {
  const album = { id: "a1", title: "Summer", photos: 3 };
  const jsonAnswer: Answer = (_req, res) => {
    res.writeHead(200, { "content-type": "application/vnd.media+json" });
    res.end(JSON.stringify(album));
  };

  it("sends the API's headers and the package's version on every request, its own Accept where the response is not JSON", async () => {
    answer = jsonAnswer;
    const c = client();
    expect(await c.albums.get("a1")).toEqual(album);
    await c.albums.get("a2"); // the second call reuses the headers built for the first
    await c.albums.get("a3", { headers: { "X-Trace": "t-1" } }); // built for the call
    for (const request of received)
      expect(request.headers).toMatchObject({
        accept: "application/vnd.media+json",
        "x-client-name": "apigen-feature",
        "media-version": "2024-06-01",
        authorization: "Bearer tok_secret_1",
      });
    expect(received[2]!.headers["x-trace"]).toBe("t-1");
    received = [];
    answer = bytes(200, "<p>Summer</p>", { "content-type": "text/html" });
    expect(await c.pages.render("a1")).toBe("<p>Summer</p>");
    expect(received[0]!.headers).toMatchObject({
      accept: "text/html, application/json;q=0.5",
      "x-client-name": "apigen-feature",
      "media-version": "2024-06-01",
    });
  });

  it("lets an endpoint's own header win over the API's, and the caller's headers over both", async () => {
    answer = jsonAnswer;
    await client().albums.rename("a1", { title: "Winter" });
    expect(received[0]!.headers).toMatchObject({
      "x-client-name": "album-renamer",
      accept: "application/vnd.media+json",
      "content-type": "application/json",
    });
    await client({ headers: { "x-client-name": "mine" } }).albums.get("a1");
    await client().albums.get("a1", { headers: { "X-Client-Name": "this-call" } });
    expect(received.slice(1).map((r) => r.headers["x-client-name"])).toEqual(["mine", "this-call"]);
  });

  it("sends the version the apiVersion option picks, and refuses one the spec does not list", async () => {
    answer = jsonAnswer;
    await client({ apiVersion: "2023-01-01" }).albums.get("a1");
    expect(received[0]!.headers["media-version"]).toBe("2023-01-01");
    expect(() => client({ apiVersion: "1999-01-01" })).toThrow(
      expect.objectContaining({ name: "ClientOptionsError", option: "apiVersion" }),
    );
    expect(() => client({ apiVersion: "1999-01-01" })).toThrow(
      "apiVersion is not a version the spec lists (2024-06-01, 2023-01-01)",
    );
    expect(received).toHaveLength(1);
  });

  it("the stand-in answers in the version the request names: its error body, invalid-input status and listed errors", async () => {
    const standIn = testing.createStandIn();
    const rename = (headers: Record<string, string>) =>
      standIn.fetch(
        new Request("http://stand-in.test/albums/a1", {
          method: "PATCH",
          headers: { authorization: "Bearer t", "content-type": "application/json", ...headers },
          body: JSON.stringify({ title: "" }),
        }),
      );
    const current = await rename({});
    expect([current.status, await current.json()]).toEqual([
      422,
      { message: "body.title: must be at least 1 characters long" },
    ]);
    const first = await rename({ "Media-Version": "2023-01-01" });
    expect([first.status, await first.json()]).toEqual([
      400,
      { detail: "body.title: must be at least 1 characters long" },
    ]);
    const unknown = await rename({ "Media-Version": "1999-01-01" });
    expect([unknown.status, await unknown.json()]).toEqual([
      400,
      {
        message:
          'Media-Version: "1999-01-01" is not a version of the API; it has 2024-06-01, 2023-01-01',
      },
    ]);
    // 410 is listed for the first version only
    const gone = (version: string) =>
      standIn.fetch(
        new Request("http://stand-in.test/albums/a1", {
          headers: { authorization: "Bearer t", prefer: "code=410", "media-version": version },
        }),
      );
    expect((await gone("2023-01-01")).status).toBe(410);
    expect((await gone("2024-06-01")).status).toBe(400);
  });
});

describe("conditional requests: a 304 is a typed NotModified", () => {
  const photo = { id: "p1", album_id: "a1", width: 640 };
  /** Answers 304 with the ETag when If-None-Match names it, else the photo with that ETag. */
  const etagged: Answer = (req, res) => {
    if (req.headers["if-none-match"] === '"v1"') {
      res.writeHead(304, { etag: '"v1"', "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" });
      return res.end();
    }
    res.writeHead(200, { "content-type": "application/json", etag: '"v1"' });
    res.end(JSON.stringify(photo));
  };

  it("sends ifNoneMatch as If-None-Match and resolves a 304 to a NotModified with the response's ETag", async () => {
    answer = etagged;
    const c = client();
    const first = await c.photos.get("p1").withResponse();
    expect([first.status, first.data, first.headers.ETag]).toEqual([200, photo, '"v1"']);
    const again = await c.photos.get("p1", { ifNoneMatch: first.headers.ETag });
    expect(again).toBeInstanceOf(generated.NotModified);
    expect([again.status, again.etag, again.lastModified]).toEqual([
      304,
      '"v1"',
      "Mon, 01 Jan 2024 00:00:00 GMT",
    ]);
    const seen = await c.photos.get("p1", { ifNoneMatch: '"v1"' }).withResponse();
    expect([seen.status, seen.data instanceof generated.NotModified]).toEqual([304, true]);
    expect(received.map((r) => r.headers["if-none-match"])).toEqual([undefined, '"v1"', '"v1"']);
    // the headers built for a call without conditions are not changed by one with them
    await c.photos.get("p1");
    expect(received[3]!.headers["if-none-match"]).toBeUndefined();
  });

  it("sends ifModifiedSince as an HTTP date, and a changed resource still arrives as its body", async () => {
    answer = etagged;
    const since = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(await client().photos.get("p1", { ifModifiedSince: since })).toEqual(photo);
    expect(received[0]!.headers["if-modified-since"]).toBe("Tue, 02 Jan 2024 03:04:05 GMT");
  });

  it("takes a 304 as an error where the spec does not say notModified, and retries no 304", async () => {
    answer = bytes(304, "", { etag: '"v1"' });
    const error = await rejection(client({ maxRetries: 2 }).albums.get("a1"));
    expect(error).toBeInstanceOf(generated.MediaApiError);
    expect(error.status).toBe(304);
    const notModified = await client({ maxRetries: 2 }).photos.get("p1", { ifNoneMatch: "*" });
    expect(notModified).toBeInstanceOf(generated.NotModified);
    expect(received).toHaveLength(2);
  });

  it("refuses a validator no header can carry, or a Date that is no time, sending nothing", async () => {
    const bad = await rejection(client().photos.get("p1", { ifNoneMatch: '"a"\r\nX-Evil: 1' }));
    expect([bad.name, bad.field]).toEqual(["RequestValidationError", "options.ifNoneMatch"]);
    const never = await rejection(client().photos.get("p1", { ifModifiedSince: new Date(NaN) }));
    expect([never.name, never.message]).toEqual([
      "RequestValidationError",
      "photos.get: options.ifModifiedSince is not a valid Date",
    ]);
    expect(received).toHaveLength(0);
  });

  it("brings its runtime only into a package with such an endpoint", () => {
    const module = "src/runtime/client/conditional.ts";
    expect([
      existsSync(join(out, module)),
      existsSync(join(repoRoot, "generated", module)),
    ]).toEqual([true, false]);
  });

  it("the stand-in sends an ETag and Last-Modified, and answers 304 to a request that names them", async () => {
    const standIn = testing.createStandIn();
    const viaStandIn = client({
      fetch: (input: RequestInfo, init?: RequestInit) => standIn.fetch(new Request(input, init)),
    });
    const first = await viaStandIn.photos.get("p1").withResponse();
    expect(first.status).toBe(200);
    expect(first.headers.ETag).toMatch(/^"[0-9a-f]+"$/);
    expect(first.headers["Last-Modified"]).toBe("Mon, 01 Jan 2024 00:00:00 GMT");
    const again = await viaStandIn.photos.get("p1", { ifNoneMatch: first.headers.ETag });
    expect([again instanceof generated.NotModified, again.etag]).toEqual([
      true,
      first.headers.ETag,
    ]);
    const weak = await viaStandIn.photos.get("p1", { ifNoneMatch: `"x", W/${first.headers.ETag}` });
    expect(weak).toBeInstanceOf(generated.NotModified);
    expect(await viaStandIn.photos.get("p1", { ifNoneMatch: '"other"' })).toEqual(first.data);
    const since = (date: string) => viaStandIn.photos.get("p1", { ifModifiedSince: date });
    expect(await since("Mon, 01 Jan 2024 00:00:00 GMT")).toBeInstanceOf(generated.NotModified);
    expect(await since("Sun, 31 Dec 2023 23:59:59 GMT")).toEqual(first.data);
    // another photo has another body, so another ETag
    const other = await viaStandIn.photos.get("p2").withResponse();
    expect(other.headers.ETag).not.toBe(first.headers.ETag);
  });
});

describe("an endpoint served from another host", () => {
  const photo = { id: "p9", album_id: "a1" };
  const created: Answer = (_req, res) => {
    res.writeHead(201, { "content-type": "application/json" });
    res.end(JSON.stringify(photo));
  };
  const hostOf = (url: string) => new URL(url).host;

  it("sends it to the hosts option's address, with the API's headers and credential; every other endpoint to baseUrl", async () => {
    answer = created;
    const c = client({ hosts: { uploads: uploadsUrl } });
    const bytesIn = new Uint8Array([1, 2, 3]);
    expect(await c.photos.upload(new Blob([bytesIn]))).toEqual(photo);
    answer = (_req, res) => res.end(JSON.stringify({ id: "a1", title: "Summer" }));
    await c.albums.get("a1");
    expect(received.map((r) => [r.host, r.method, r.url])).toEqual([
      [hostOf(uploadsUrl), "POST", "/photos"],
      [hostOf(baseUrl), "GET", "/albums/a1"],
    ]);
    expect(received[0]!.headers).toMatchObject({
      authorization: "Bearer tok_secret_1",
      "media-version": "2024-06-01",
      "content-type": "application/octet-stream",
    });
    expect([...received[0]!.body]).toEqual([1, 2, 3]);
  });

  it("goes to the spec's address of the host without the option", async () => {
    const urls: string[] = [];
    const recording = async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(JSON.stringify(photo), {
        status: 201,
        headers: { "content-type": "application/json" },
      });
    };
    await client({ fetch: recording }).photos.upload(new Blob(["x"]));
    expect(urls).toEqual(["https://uploads.media.example/photos"]);
  });

  it("follows a redirect within the host's origin, and refuses one to the API's own", async () => {
    let n = 0;
    answer = (req, res) => {
      n++;
      if (req.url === "/photos") {
        const to = n === 1 ? `${uploadsUrl}/photos/moved` : `${baseUrl}/photos/moved`;
        res.writeHead(307, { location: to });
        return res.end();
      }
      created(req, res);
    };
    const c = client({ hosts: { uploads: uploadsUrl } });
    expect(await c.photos.upload(new Blob(["x"]))).toEqual(photo);
    expect(received.map((r) => [r.host, r.url])).toEqual([
      [hostOf(uploadsUrl), "/photos"],
      [hostOf(uploadsUrl), "/photos/moved"],
    ]);
    const refused = await rejection(c.photos.upload(new Blob(["x"])));
    expect(refused.name).toBe("RedirectError");
    expect(received).toHaveLength(3);
  });

  it("refuses a host address that is not one, or a host the spec does not name, when the client is made", () => {
    expect(() => client({ hosts: { uploads: "ftp://uploads.example" } })).toThrow(
      expect.objectContaining({ name: "ClientOptionsError", option: "hosts.uploads" }),
    );
    expect(() => client({ hosts: { uploads: "ftp://uploads.example" } })).toThrow(
      "hosts.uploads is not an http: or https: URL",
    );
    expect(() => client({ hosts: { cdn: "https://cdn.example" } })).toThrow(
      "hosts.cdn is not a host of the spec (uploads)",
    );
    expect(received).toHaveLength(0);
  });

  it("makes the hosts option required where the spec shows a host without an address", async () => {
    const dir = tempDir("apigen-requests-hosts-");
    const pkg = tempDir("apigen-requests-hosts-pkg-");
    try {
      writeFileSync(
        join(dir, "api.yaml"),
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
      await writeGenerated(dir, pkg);
      compileInPlace(pkg);
      const { FilesClient } = await importCompiled<typeof generated>(join(pkg, "src/index.ts"));
      expect(() => new FilesClient({ baseUrl })).toThrow(
        "hosts.files is required: the spec gives no address for it",
      );
      answer = bytes(200, "hello", { "content-type": "text/plain" });
      const files = new FilesClient({
        baseUrl: "https://unused.invalid",
        hosts: { files: uploadsUrl },
      });
      expect(await files.files.get("f1")).toBe("hello");
      expect(received.map((r) => [r.host, r.url])).toEqual([[hostOf(uploadsUrl), "/files/f1"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(pkg, { recursive: true, force: true });
    }
  });
});

describe("types of the generated calls", () => {
  /** Type-checks `lines` (a module beside the package's index) with the package's tsconfig. */
  function typeCheck(lines: string[]): string {
    writeFileSync(join(out, "src/usage-check.ts"), [...lines, ""].join("\n"));
    const tsc = typescript6;
    const run = runTypeScript(tsc, ["-p", join(withRuntimeDeclarations(out), "tsconfig.json")]);
    return run.stdout + run.stderr;
  }

  it("type-check: the apiVersion option takes the listed versions only; downloads are Blobs; a conditional GET gives the body or a NotModified; hosts are typed", () => {
    expect(
      typeCheck([
        "import {",
        "  MediaClient,",
        "  NotModified,",
        "  type ConditionalRequestOptions,",
        "  type Photo,",
        '} from "./index.js";',
        'const base = "http://127.0.0.1";',
        'const c = new MediaClient({ baseUrl: base, apiVersion: "2023-01-01" });',
        "// @ts-expect-error not a version of the spec",
        'new MediaClient({ baseUrl: base, apiVersion: "1999-01-01" });',
        "export async function check(): Promise<void> {",
        '  const photo: Blob = await c.photos.raw("p");',
        '  const file: Blob = await c.files.download("f");',
        '  const page: string = await c.pages.render("a");',
        '  const details = await c.photos.get("p", { ifNoneMatch: \'"v1"\' });',
        "  // @ts-expect-error a 304 is a result: the Photo is only one of two",
        "  const notNarrowed: Photo = details;",
        "  const etag: string | undefined =",
        "    details instanceof NotModified ? details.etag : details.album_id;",
        "  const since: ConditionalRequestOptions = { ifModifiedSince: new Date() };",
        "  void [photo, file, page, notNarrowed, etag, since];",
        "}",
        'new MediaClient({ baseUrl: base, hosts: { uploads: "https://uploads.test" } });',
        "// @ts-expect-error not a host of the spec",
        'new MediaClient({ baseUrl: base, hosts: { cdn: "https://cdn.test" } });',
        "export async function upload(): Promise<void> {",
        '  const uploaded: Photo = await c.photos.upload(new Blob(["x"]));',
        "  void uploaded;",
        "}",
      ]),
    ).toBe("");
  }, 60_000);
});
