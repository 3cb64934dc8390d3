/**
 * Issue 31's corpus (test/fixtures/corpus, 14 public OpenAPI and Swagger 2.0 documents of different styles and
 * sizes) taken all the way: each document is imported (in process) into a spec folder and
 * its package generated from that folder; read again straight from the document (the live
 * route, `generate --spec <document>`), it gives the same model, hence the same package
 * (test/live-route.test.ts compares the two routes' files on smaller documents). Every
 * package, with a consumer file of typed calls (test/fixtures/corpus/consumers), type-checks
 * strictly with TypeScript 6 and 7, all in one program per compiler, where the packages share one
 * copy of their (identical) runtime (test/support/shared-runtime.ts). Each consumer then runs,
 * as JavaScript that Node loads itself (test/support/compiled-import.ts), against the package's
 * own stand-in (`createStandIn`, served on 127.0.0.1): a GET with a
 * path parameter (and a query or header parameter where the operation has one) answered in
 * the typed shape, and a call answered with an error status, caught as the package's typed
 * API error with its body. Then the package's client calls its own stand-in for every GET
 * whose arguments its parameters' types give (test/sweep-calls.ts, the sweep's step), with
 * response validation on: each ends in a validated answer or the typed error.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { outputDefaults } from "../generator/emit/shared/outputs.ts";
import { loadApiModel } from "../generator/pipeline.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import {
  comparableModel,
  corpusDocuments,
  unpackCorpus,
  type CorpusName,
} from "./support/corpus.ts";
import { compileReachable, importCompiled } from "./support/compiled-import.ts";
import { programOverSharedRuntime } from "./support/shared-runtime.ts";
import { typeCheckAsync, typescript6, typescript7 } from "./support/typescript.ts";
import { sweepCalls } from "./sweep-calls.ts";
import type { ApiModel } from "../generator/ir/model.ts";

const scratch = tempDir("apigen-corpus-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const names = Object.keys(corpusDocuments) as CorpusName[];
/**
 * Every default output but the OpenAPI document, which nothing here reads (its emitter on
 * real documents is held to Redocly and swagger-parser by test/import-real-apis.test.ts):
 * about 3.5 s of the fourteen generations.
 */
const withoutOpenApi = { ...outputDefaults, openapi: false };
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");

interface Made {
  endpoints: number;
  /** The model of the folder route, for the stand-in's own calls. */
  model: ApiModel;
  /** Whether the two routes gave the same model (test/support/corpus.ts, comparableModel). */
  sameModel: boolean;
  out: string;
}
const made = new Map<CorpusName, Made>();
/** The tsconfig.json of the one program over every package. */
let project: string;

beforeAll(async () => {
  for (const name of names) {
    const dir = join(scratch, name);
    const input = unpackCorpus(name, join(dir, "document"));
    const outSpec = join(dir, "spec");
    const out = join(dir, "package");
    const imported = importSpec({ input, outSpec, schemaFile });
    writeSpecFolder(outSpec, imported.files);
    const { model } = await writeGenerated(outSpec, out, { outputs: withoutOpenApi });
    const viaFolder = comparableModel(model, outSpec, "/");
    const live = comparableModel(loadApiModel({ specDir: input }).model, input, "#");
    copyFileSync(
      join(repoRoot, "test/fixtures/corpus/consumers", `${name}.ts`),
      join(out, "consumer.ts"),
    );
    made.set(name, { endpoints: imported.endpoints, model, sameModel: viaFolder === live, out });
  }
  // one program per compiler for every package and its consumer, under the packages' settings,
  // over one copy of their runtime (which every package carries the same: shown there)
  project = programOverSharedRuntime(
    scratch,
    names.map((name) => `${name}/package`),
    names.map((name) => `${name}/package/consumer.ts`),
  );
  // the calls run the packages as JavaScript that Node loads (test/support/compiled-import.ts):
  // each consumer and each stand-in, with what they import
  compileReachable(
    names.flatMap((name) => {
      const out = join(scratch, name, "package");
      return [join(out, "consumer.ts"), join(out, "src/testing.ts")];
    }),
  );
}, 300_000);

// TypeScript 6 as a process: a program of fourteen packages is too large to keep beside the
// worker's own heap
const typeCheck = (compiler: string, project: string) =>
  typeCheckAsync(compiler, project, 240_000, { process: true });

describe("every corpus document", () => {
  it.each(names)("%s: import and the live route give the same package", (name) => {
    const { endpoints, sameModel } = made.get(name)!;
    expect(endpoints).toBeGreaterThan(50);
    expect(sameModel).toBe(true);
  });

  it.each([
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ])(
    "every package and its consumer type-check strictly with %s, in one program",
    async (_, compiler) => {
      const run = await typeCheck(compiler, project);
      expect(run.output).toBe("");
      expect(run.status).toBe(0);
    },
    240_000,
  );
});

interface Consumer {
  standIn: object;
  run: (baseUrl: string) => Promise<{ answer: unknown; error: { status: number; body: unknown } }>;
}
interface Testing {
  createStandIn: (options: object) => unknown;
  listen: (standIn: unknown) => Promise<{ url: string; close(): Promise<void> }>;
}

describe.each(names)("%s: typed calls against its stand-in on 127.0.0.1", (name) => {
  it("answers the GET in its typed shape, and an error as the typed API error", async () => {
    const { out } = made.get(name)!;
    const consumer = await importCompiled<Consumer>(join(out, "consumer.ts"));
    const testing = await importCompiled<Testing>(join(out, "src/testing.ts"));
    const lines: string[] = [];
    const server = await testing.listen(
      testing.createStandIn({ ...consumer.standIn, log: (line: string) => lines.push(line) }),
    );
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { answer, error } = await consumer.run(server.url);
      expect(answer).toEqual(answers[name]);
      expect(error.status).toBe(errorStatuses[name]);
      expect(error.body).toBeDefined();
      // the stand-in answered the typed GET, then refused the second call
      expect(lines).toEqual([
        expect.stringMatching(/^GET \/\S+ -> 200$/),
        expect.stringMatching(/ -> [45]\d\d$/),
      ]);
    } finally {
      await server.close();
    }
  });
});

/** Calls of another method than GET answered, and streams read through, over every package. */
let answeredNotGet = 0;
let streams = 0;

describe.each(names)("%s: the package's client against its own stand-in", (name) => {
  it("every call its parameters' and body's types give arguments for ends in a validated answer or the typed error", async () => {
    const { model, out } = made.get(name)!;
    const report = await sweepCalls(model, out);
    expect(report.broken).toEqual([]);
    expect(report.answered).toBeGreaterThan(0);
    answeredNotGet += report.answeredNotGet;
    streams += report.streams;
  });
});

describe("the calls against the stand-ins", () => {
  it("include calls of other methods than GET, their bodies made from the body's type", () => {
    expect(answeredNotGet).toBeGreaterThan(20);
  });
  it("include streams, each item checked as it is read", () => {
    expect(streams).toBeGreaterThan(0);
  });
});

const text = expect.any(String);
const flag = expect.any(Boolean);
const count = expect.any(Number);

/** Each consumer's typed reading of its answer: the stand-in's made-up values in their types. */
const answers: Record<CorpusName, unknown> = {
  airflow: { dagId: text, paused: flag, owners: [text] },
  asana: { gid: text, name: text },
  "aws-connect": { statuses: [expect.stringMatching(/^(ROUTABLE|CUSTOM|OFFLINE)$/)] },
  box: { days: count, subject: text },
  digitalocean: { uuid: text, price: count },
  docker: { name: text, driver: text },
  discourse: { id: count, name: text },
  gitea: { context: text },
  jira: { key: text, groups: [text], unlimited: flag },
  openai: { object: "assistant", created: count, tools: [text] },
  sendgrid: { scopes: expect.arrayContaining([text]) },
  stripe: { name: text, email: text },
  telnyx: { id: text, country: text },
  twilio: { sid: text, status: text },
};

/** The status of each consumer's refused call: a listed error, a rejected key, or 429. */
const errorStatuses: Record<CorpusName, number> = {
  airflow: 404,
  asana: 404,
  "aws-connect": 482,
  box: 404,
  digitalocean: 404,
  docker: 404,
  discourse: 429,
  gitea: 401,
  jira: 404,
  openai: 429,
  sendgrid: 404,
  stripe: 401,
  telnyx: 404,
  twilio: 401,
};
