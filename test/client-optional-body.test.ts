/**
 * A body the call may leave out (`bodyOptional: true`, OpenAPI's `requestBody.required:
 * false`): the generated client sends nothing (no body, no Content-Type) without one and
 * checks one that is given; the stand-in takes a request without one and refuses a wrong one;
 * the types make the argument optional, or `T | undefined` before a required argument
 * (TypeScript 6 and 7, each mistake marked `@ts-expect-error`). A server on 127.0.0.1 records what
 * arrives.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callParams } from "../generator/emit/tanstack-query-parts.ts";
import type { ApiModel } from "../generator/ir/model.ts";
import { tempDir, writeGenerated } from "./helpers.ts";
import { checkUsage } from "./support/usage-check.ts";

const spec = `api: { name: notes-api, title: Notes, version: 1.0.0, clientName: NotesClient }
types:
  Patch:
    fields:
      text: { type: string, minLength: 1 }
endpoints:
  notes.touch:
    method: POST
    path: /notes/{id}/touch
    params: { id: string }
    body: Patch
    bodyOptional: true
    response: { status: 200, body: { fields: { ok: boolean } } }
  notes.search:
    method: POST
    path: /notes/search
    params:
      q: { in: query, type: string, required: true }
    body: Patch
    bodyOptional: true
    response: { status: 200, body: { fields: { ok: boolean } } }
  notes.create:
    method: POST
    path: /notes
    body: Patch
    response: { status: 200, body: { fields: { ok: boolean } } }
`;

let dir: string;
let out: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let pkg: any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let testing: any;
let server: Server;
let model: ApiModel;
let baseUrl: string;
const seen: { body: string; contentType: string | undefined }[] = [];

beforeAll(async () => {
  dir = tempDir("apigen-optional-body-");
  mkdirSync(join(dir, "spec"));
  writeFileSync(join(dir, "spec/api.yaml"), spec);
  out = join(dir, "pkg");
  ({ model } = await writeGenerated(join(dir, "spec"), out));
  pkg = await import(pathToFileURL(join(out, "src/index.ts")).href);
  testing = await import(pathToFileURL(join(out, "src/testing.ts")).href);
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ body, contentType: req.headers["content-type"] });
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("a body the call may leave out", () => {
  it("sends nothing without one, not even a Content-Type, and the body when given", async () => {
    const client = new pkg.NotesClient({ baseUrl, maxRetries: 0 });
    expect(await client.notes.touch("n1")).toEqual({ ok: true });
    expect(seen.at(-1)).toEqual({ body: "", contentType: undefined });
    await client.notes.touch("n1", { text: "hi" });
    expect(seen.at(-1)).toEqual({ body: '{"text":"hi"}', contentType: "application/json" });
    await client.notes.search(undefined, { q: "x" });
    expect(seen.at(-1)).toEqual({ body: "", contentType: undefined });
  });

  it("still checks a body that is given, and a required body is still required", async () => {
    const client = new pkg.NotesClient({ baseUrl, maxRetries: 0 });
    const before = seen.length;
    await expect(client.notes.touch("n1", { text: "" })).rejects.toThrow(/body\.text/);
    await expect(client.notes.create(undefined)).rejects.toThrow(/body/);
    expect(seen.length).toBe(before);
  });

  it("the stand-in takes a request without it, and refuses a wrong one", async () => {
    const running = await testing.listen(testing.createStandIn({ seed: 1 }));
    try {
      const post = (path: string, body?: string) =>
        fetch(`${running.url}${path}`, {
          method: "POST",
          ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
        });
      expect((await post("/notes/n1/touch")).status).toBe(200);
      expect((await post("/notes/n1/touch", '{"text":""}')).status).toBe(400);
      expect((await post("/notes")).status).toBe(400);
    } finally {
      await running.close();
    }
  });

  it("TanStack Query's entry repeats the call's arguments as the client declares them", () => {
    const body = (id: string) =>
      callParams(model.endpoints.find((e) => e.id === id)!).find((p) => p.name === "body");
    expect(body("notes.touch")).toMatchObject({ hasQuestionToken: true });
    expect(body("notes.search")).not.toHaveProperty("hasQuestionToken");
    expect(body("notes.search")!.type).toMatchObject({ kind: "union" });
    expect(body("notes.create")).not.toHaveProperty("hasQuestionToken");
  });

  it("types the argument optional, or T | undefined before a required one (TypeScript 6 and 7)", () => {
    for (const run of checkUsage(
      out,
      "usage-check.ts",
      [
        'import { NotesClient } from "./index.js";',
        "export async function uses(c: NotesClient): Promise<void> {",
        '  await c.notes.touch("n1");',
        '  await c.notes.touch("n1", { text: "hi" });',
        '  await c.notes.search(undefined, { q: "x" });',
        "  // @ts-expect-error the query, which is required, comes after the body",
        '  await c.notes.search({ q: "x" });',
        "  // @ts-expect-error a required body",
        "  await c.notes.create();",
        "}",
        "",
      ].join("\n"),
    )) {
      expect(run.output, run.compiler).toBe("");
      expect(run.status, run.compiler).toBe(0);
    }
  });
});
