/**
 * The failure classes of real OpenAPI documents (issue 31), each as a document of a few lines
 * under test/fixtures/import/classes/<class>/: import -> generate -> strict tsc (TypeScript 6
 * and 7, one program over every fixture's package so it stays fast), what the endpoint became,
 * and for the classes where the wire matters, a typed call against a node:http server on
 * 127.0.0.1 that records the request the client sent.
 */
import { spawn } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
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

const fixtures = join(repoRoot, "test/fixtures/import/classes");
const classes = readdirSync(fixtures).sort();
const scratch = tempDir("apigen-import-classes-");
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
    imported.set(name, one);
  }
  // One project over every package: each package's src, with the packages' own strict options.
  writeFileSync(
    join(scratch, "tsconfig.json"),
    JSON.stringify({
      extends: `./${classes[0]}/package/tsconfig.json`,
      include: ["*/package/src"],
    }),
  );
}, 120_000);

const of = (name: string): Imported => imported.get(name)!;

/** Runs a compiler without blocking the event loop (the test servers live in this process). */
function typeCheck(compiler: string, project: string) {
  return new Promise<{ status: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [compiler, "--noEmit", "-p", project]);
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

describe("every class fixture", () => {
  for (const [compiler, bin] of [
    ["TypeScript 6", "typescript/bin/tsc"],
    ["TypeScript 7", "typescript7/bin/tsc"],
  ] as const)
    it(`imports, generates and type-checks strictly with ${compiler}`, async () => {
      expect(imported.size).toBe(classes.length);
      const run = await typeCheck(
        join(repoRoot, "node_modules", bin),
        join(scratch, "tsconfig.json"),
      );
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
