/**
 * Real APIs, imported: GitHub's whole REST API (@octokit/openapi, 1,223 operations),
 * Discord's (its official document, test/fixtures/import/discord), Figma's
 * (@figma/rest-api-spec) and the Swagger Petstore (@readme/oas-examples). Each document is
 * imported once per run and its package generated once; the tests share them:
 *
 * - the counts and gap count are the ones docs/openapi-documents.md keeps;
 * - the package and a consumer file (test/fixtures/import/consumers) type-check strictly with
 *   TypeScript 6 and 7 (the four in one program per compiler);
 * - the re-emitted OpenAPI passes Redocly lint (recommended; no error) and swagger-parser;
 * - the consumer's typed calls run against a stand-in on 127.0.0.1
 *   (test/support/import-stand-ins.ts): GitHub's walk through issues follows Link headers.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSpec, writeSpecFolder, type ImportResult } from "../generator/import/import.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { compileReachable, importCompiled } from "./support/compiled-import.ts";
import { startStandIn, standIns } from "./support/import-stand-ins.ts";
import { lintFiles, type LintReport } from "./support/redocly.ts";
import type { TestServer } from "./support/test-server.ts";
import { programOverSharedRuntime } from "./support/shared-runtime.ts";
import { typeCheckAsync, typescript6, typescript7 } from "./support/typescript.ts";

const modules = join(repoRoot, "node_modules");
const scratch = tempDir("apigen-real-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const compilers = {
  "TypeScript 6": typescript6,
  "TypeScript 7": typescript7,
};
/** Each API's generated package (its folder), made before any test runs. */
const packages = new Map<RealApi["name"], string>();

/**
 * Each compiler checks every API's package and consumer in one program (started once, its lib
 * files read once), the packages sharing one copy of their identical runtime
 * (test/support/shared-runtime.ts), started by the first test that asks; each API's test reads
 * the diagnostics of its own folder (an error's continuation lines go with it), and those of
 * no API's folder (the shared runtime, the command line).
 */
const checks = new Map<keyof typeof compilers, ReturnType<typeof typeCheckAsync>>();
async function typeCheck(compiler: keyof typeof compilers, api: RealApi["name"]) {
  if (!checks.has(compiler)) {
    const timeoutMs = apis.reduce((sum, each) => sum + each.timeoutMs, 0);
    checks.set(
      compiler,
      // TypeScript 6 as a process: the real APIs' program is too large to keep beside the
      // worker's own heap
      typeCheckAsync(compilers[compiler], join(scratch, "tsconfig.json"), timeoutMs, {
        process: true,
      }),
    );
  }
  const run = await checks.get(compiler)!;
  const folderOf = (line: string) => apis.find((each) => line.includes(`/${folder(each.name)}/`));
  let owner: RealApi | undefined;
  const lines = run.output.split("\n").filter((line) => {
    if (!/^\s/.test(line)) owner = folderOf(line);
    return line !== "" && (owner === undefined || owner.name === api);
  });
  return { output: lines.join("\n"), status: run.output === "" ? run.status : null };
}

/**
 * Each API's re-emitted openapi.json linted by Redocly, all four in one CLI process (its
 * start paid once), started by the first test that asks.
 */
let lints: Promise<LintReport[]> | undefined;
async function lintReport(api: RealApi): Promise<LintReport> {
  lints ??= lintFiles(
    apis.map((each) => join(packages.get(each.name)!, "openapi.json")),
    Math.max(...apis.map((each) => each.timeoutMs)),
  );
  return (await lints)[apis.indexOf(api)]!;
}

/** The folder of an API's document, spec and package in the run's scratch folder. */
function folder(name: RealApi["name"]): string {
  return name.toLowerCase();
}

/** The row of docs/openapi-documents.md's table for `name`: endpoints, types and notes, as numbers. */
function documentedCounts(name: string): number[] | undefined {
  const text = readFileSync(join(repoRoot, "docs/openapi-documents.md"), "utf8");
  const row = text.split("\n").find((line) => line.startsWith(`| ${name} |`));
  return row
    ?.split("|")
    .slice(3, 6)
    .map((cell) => Number(cell.trim().replaceAll(",", "")));
}

interface RealApi {
  name: keyof typeof standIns;
  /** The document's path; Discord's is unpacked into the API's scratch folder first. */
  input: (dir: string) => string;
  consumer: string;
  timeoutMs: number;
}

const apis: RealApi[] = [
  {
    name: "GitHub",
    input: () => join(modules, "@octokit/openapi/generated/api.github.com.json"),
    consumer: "github.ts",
    timeoutMs: 300_000,
  },
  {
    name: "Discord",
    input: (dir) => {
      const path = join(dir, "discord-openapi.json");
      const packed = readFileSync(join(repoRoot, "test/fixtures/import/discord/openapi.json.gz"));
      writeFileSync(path, gunzipSync(packed));
      return path;
    },
    consumer: "discord.ts",
    timeoutMs: 120_000,
  },
  {
    name: "Figma",
    input: () => join(modules, "@figma/rest-api-spec/openapi/openapi.yaml"),
    consumer: "figma.ts",
    timeoutMs: 120_000,
  },
  {
    name: "Petstore",
    input: () => join(modules, "@readme/oas-examples/3.0/json/petstore.json"),
    consumer: "petstore.ts",
    timeoutMs: 60_000,
  },
];

/**
 * Every API imported and its package generated before the first test, so that one compiler
 * run can check them all (typeCheck); each API's stand-in starts with its own tests.
 */
const imported = new Map<RealApi["name"], ImportResult>();
beforeAll(
  async () => {
    for (const api of apis) {
      const dir = join(scratch, folder(api.name));
      mkdirSync(dir);
      const outSpec = join(dir, "spec");
      const out = join(dir, "package");
      const result = importSpec({
        input: api.input(dir),
        outSpec,
        schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
      });
      writeSpecFolder(outSpec, result.files);
      await writeGenerated(outSpec, out);
      copyFileSync(
        join(repoRoot, "test/fixtures/import/consumers", api.consumer),
        join(out, "consumer.ts"),
      );
      imported.set(api.name, result);
      packages.set(api.name, out);
    }
    programOverSharedRuntime(
      scratch,
      apis.map((api) => `${folder(api.name)}/package`),
      apis.map((api) => `${folder(api.name)}/package/consumer.ts`),
    );
  },
  apis.reduce((sum, each) => sum + each.timeoutMs, 0),
);

describe.each(apis)("$name, imported", (api) => {
  let result: ImportResult;
  let out: string;
  let server: TestServer;

  beforeAll(async () => {
    result = imported.get(api.name)!;
    out = packages.get(api.name)!;
    server = await startStandIn(standIns[api.name]());
  });
  afterAll(async () => server?.stop());

  it("imports with the counts docs/openapi-documents.md keeps", () => {
    console.log(
      `${api.name}: ${result.endpoints} endpoints, ${result.types} types, ${result.gaps} gaps noted`,
    );
    expect(documentedCounts(api.name)).toEqual([result.endpoints, result.types, result.gaps]);
  });

  for (const compiler of Object.keys(compilers) as (keyof typeof compilers)[])
    it(
      `the package and its consumer type-check strictly with ${compiler}`,
      async () => {
        const run = await typeCheck(compiler, api.name);
        expect(run.output).toBe("");
        expect(run.status).toBe(0);
      },
      api.timeoutMs,
    );

  it(
    "re-emits an OpenAPI document that Redocly lint finds no error in",
    async () => {
      const report = await lintReport(api);
      const errors = report.problems.filter((p) => p.severity === "error");
      expect(errors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    },
    api.timeoutMs,
  );

  it("re-emits an OpenAPI document that swagger-parser validates", async () => {
    const document = (await SwaggerParser.validate(join(out, "openapi.json"))) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  }, 60_000);

  it("makes the consumer's typed calls against a stand-in on 127.0.0.1", async () => {
    // as JavaScript that Node loads itself (test/support/compiled-import.ts), not through
    // vitest's module runner, which transformed and source-mapped GitHub's whole client
    const entry = join(out, "consumer.ts");
    compileReachable([entry]);
    const consumer = await importCompiled<{
      run: (baseUrl: string) => Promise<Record<string, unknown>>;
    }>(entry);
    expect(await consumer.run(server.url)).toEqual(expectedRuns[api.name]);
  });
});

/** What each consumer's calls give back from its stand-in. */
const expectedRuns: Record<RealApi["name"], Record<string, unknown>> = {
  GitHub: {
    fullName: "octo-org/hello-world",
    stars: 80,
    titles: ["Issue 1", "Issue 2", "Issue 3", "Issue 4", "Issue 5"],
    pages: [
      { numbers: [1, 2], link: expect.stringContaining('rel="next"') },
      { numbers: [3, 4], link: expect.stringContaining('rel="next"') },
      { numbers: [5], link: expect.not.stringContaining('rel="next"') },
    ],
    missing: { status: 404 },
  },
  Discord: {
    me: "Nelly",
    recent: ["first", "second"],
    sent: { id: "3", content: "hello from apigen" },
  },
  Figma: { handle: "Ada", email: "ada@example.com", file: "Design system", document: "DOCUMENT" },
  Petstore: { found: ["Rex", "Tom"], added: null, fetched: "doggie" },
};
