/**
 * What a request carries beyond its parameters and body, and what its answer may be, end to
 * end: the client of test/fixtures/features/requests, generated into a temp folder, against a
 * node:http server on 127.0.0.1 that records every request, and the package's own stand-in.
 * Downloads of any media type (`image/*`, `*\/*`) are Blobs of the type the server sends.
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
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compareModels } from "../generator/diff/compare.ts";
import { loadModel } from "../generator/diff/load-base.ts";
import type { ApiModel } from "../generator/ir/model.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";

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
  generated = await import(pathToFileURL(join(out, "src/index.ts")).href);
  testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
  ({ server, url: baseUrl } = await recordingServer());
}, 60_000);

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
      const { createStandIn } = await import(pathToFileURL(join(pkg, "src/testing.ts")).href);
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
});
