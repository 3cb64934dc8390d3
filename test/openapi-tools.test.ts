/**
 * Tools no one here wrote read the generated OpenAPI documents (the Merchant Commerce API
 * and every feature fixture, generated afresh into temp folders):
 *
 * - `@redocly/cli lint` with its recommended ruleset: no error; the warnings left are those
 *   docs/openapi.md lists with their reason (for the Merchant document, exactly: no
 *   license, and the components no operation refers to).
 * - `@apidevtools/swagger-parser`: validates the JSON and the YAML file against the
 *   OpenAPI 3.1 schema, and dereferences every `$ref`.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";
import { lint, lintFiles, type LintReport } from "./support/redocly.ts";
import { generateInto, removeFolders, specDirs, walk, type Generated } from "./support/openapi.ts";

const generated = new Map<string, Generated>();
const reports = new Map<string, LintReport>();

beforeAll(async () => {
  for (const specDir of specDirs) generated.set(specDir, await generateInto(specDir));
  // Two lint processes (the machine has two cores), each over half the documents: the CLI
  // starts once per half, not once per document.
  const mid = Math.ceil(specDirs.length / 2);
  const halves = [specDirs.slice(0, mid), specDirs.slice(mid)];
  const done = await Promise.all(
    halves.map((half) => lintFiles(half.map((s) => join(generated.get(s)!.dir, "openapi.yaml")))),
  );
  halves.flat().forEach((s, i) => reports.set(s, done.flat()[i]!));
}, 180_000);
afterAll(() => removeFolders([...generated.values()].map((g) => g.dir)));

const docsText = () => readFileSync(join(repoRoot, "docs/openapi.md"), "utf8");

/** Names of the schemas that nothing outside `components.schemas` reaches through `$ref`, directly or not. */
function unreachableSchemas(document: Record<string, any>): string[] {
  const refsIn = (value: unknown): string[] => {
    const names: string[] = [];
    walk(value, (node) => {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/components/schemas/"))
        names.push(ref.slice("#/components/schemas/".length).split("/")[0]!);
    });
    return names;
  };
  const { schemas, ...otherComponents } = document.components as Record<
    string,
    Record<string, unknown>
  >;
  const reached = new Set<string>();
  const queue = refsIn([document.paths, document.webhooks, otherComponents]);
  while (queue.length) {
    const name = queue.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    queue.push(...refsIn(schemas![name]));
  }
  return Object.keys(schemas!).filter((name) => !reached.has(name));
}

describe("@redocly/cli lint (recommended)", () => {
  it.each(specDirs)("%s: no errors", (specDir) => {
    const report = reports.get(specDir)!;
    expect(
      report.problems
        .filter((p) => p.severity === "error")
        .map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
    ).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("the Merchant document: warnings are exactly no license and the components no operation uses, each listed in docs/openapi.md", () => {
    const report = reports.get("spec")!;
    const warnings = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`).sort();
    const unused = unreachableSchemas(generated.get("spec")!.document);
    expect(unused).toEqual([
      "Subscription",
      "Webhook",
      "TransactionsGetParams",
      "SubscriptionsCancelParams",
      "WebhooksDeleteParams",
      "AccountLoginParams",
    ]);
    expect(warnings).toEqual(
      [
        "info-license #/info",
        ...unused.map((n) => `no-unused-components #/components/schemas/${n}`),
      ].sort(),
    );
    const docs = docsText();
    for (const rule of new Set(report.problems.map((p) => p.ruleId)))
      expect(docs, rule).toContain(`\`${rule}\``);
    for (const name of unused) expect(docs, name).toContain(`\`${name}\``);
  });

  it.each(specDirs.slice(1))(
    "%s: every warning is of a rule docs/openapi.md explains",
    (specDir) => {
      const docs = docsText();
      for (const problem of reports.get(specDir)!.problems)
        expect(docs, problem.ruleId).toContain(`\`${problem.ruleId}\``);
    },
  );

  it("reports a real defect: a document with an error fails (the check is live)", async () => {
    const g = generated.get("test/fixtures/features/operations")!;
    const broken = structuredClone(g.document);
    delete broken.paths["/v1/orders/{order_id}"].get.summary;
    const file = join(g.dir, "broken.json");
    writeFileSync(file, JSON.stringify(broken));
    const report = await lint(file);
    expect(report.problems.map((p) => p.ruleId)).toContain("operation-summary");
    expect(report.totals.errors).toBeGreaterThan(0);
  });
});

describe("@apidevtools/swagger-parser", () => {
  it.each(
    specDirs.flatMap((s) => [
      [s, "openapi.json"],
      [s, "openapi.yaml"],
    ]),
  )("%s/%s validates against the OpenAPI 3.1 schema", async (specDir, file) => {
    const api = (await SwaggerParser.validate(join(generated.get(specDir)!.dir, file))) as {
      openapi: string;
    };
    expect(api.openapi).toBe("3.1.0");
  });

  it.each(specDirs)("%s dereferences: no $ref is left", async (specDir) => {
    const parser = new SwaggerParser();
    const api = await parser.dereference(join(generated.get(specDir)!.dir, "openapi.json"));
    const left: string[] = [];
    const seen = new Set<unknown>();
    const visit = (value: unknown, path: string): void => {
      if (typeof value !== "object" || value === null || seen.has(value)) return;
      seen.add(value);
      if ("$ref" in value) left.push(path);
      for (const [key, inner] of Object.entries(value)) visit(inner, `${path}/${key}`);
    };
    visit(api, "");
    expect(left).toEqual([]);
    if (specDir === "spec") {
      // Transaction holds Transaction[]: the dereferenced document is circular, as the model is.
      expect(parser.$refs.circular).toBe(true);
      const get = (api as any).paths["/v1/merchant/transactions/{reference}"].get;
      const transaction = get.responses["200"].content["application/json"].schema;
      expect(transaction.properties.refund_transactions.items).toBe(transaction);
    }
  });

  it("rejects a document with a broken $ref (the check is live)", async () => {
    const g = generated.get("spec")!;
    const broken = structuredClone(g.document);
    broken.paths["/v1/webhooks"].post.requestBody.content["application/json"].schema = {
      $ref: "#/components/schemas/NoSuchType",
    };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/NoSuchType/);
  });
});
