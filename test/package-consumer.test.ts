/**
 * A consumer project (test/fixtures/consumer-dist) type-checks against the BUILT package: it
 * imports `merchant-commerce-api` and `merchant-commerce-api/callbacks` by name, which resolve
 * through the workspace link and the exports map to generated/dist/*.d.ts, with TypeScript 6
 * and 7 under NodeNext and Bundler resolution. The generated README's examples are checked the
 * same way, so every example it shows compiles.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";
import { typeCheckProjects, type ProjectCheck } from "./support/type-check-batch.ts";
import { typescript6, typescript7 } from "./support/typescript.ts";

const consumer = join(repoRoot, "test/fixtures/consumer-dist");
const readmeProject = join(consumer, ".tmp-readme");
const compilers = {
  "TypeScript 6": typescript6,
  "TypeScript 7": typescript7,
};
const tsc = (bin: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 120_000 });
const batchDir = join(consumer, ".tmp-batch");

/**
 * The consumer under NodeNext and under Bundler, and the README's examples, checked by one
 * compiler run each (test/support/type-check-batch.ts: the compiler started and the lib files
 * read once, not three times), started by the first test that asks. Each is read through a
 * config in .tmp-batch that extends it (build mode leaves its .tsbuildinfo there); TypeScript
 * 6's adds `skipDefaultLibCheck` (what test/support/tsc6.cjs puts on a `-p` command line; build
 * mode takes it only from a config), TypeScript 7's nothing.
 */
const checks = new Map<string, Promise<Map<string, ProjectCheck>>>();
function typeCheck(bin: string, project: string): Promise<ProjectCheck> {
  const suffix = bin === typescript6 ? "ts6" : "ts7";
  const configOf = (extended: string) =>
    join(batchDir, `${extended.replace(/\W+/g, "-")}.${suffix}.json`);
  if (!checks.has(bin)) {
    mkdirSync(batchDir, { recursive: true });
    const extended = [
      "../tsconfig.json",
      "../tsconfig.bundler.json",
      "../.tmp-readme/tsconfig.json",
    ];
    for (const config of extended) {
      const compilerOptions = suffix === "ts6" ? { skipDefaultLibCheck: true } : {};
      writeFileSync(configOf(config), JSON.stringify({ extends: config, compilerOptions }));
    }
    // the README's examples (under the consumer's own settings, which it extends): their own
    // errors, TypeScript 6 typing what they use of the package, whose declarations the
    // consumer's first project checks whole
    const readme = configOf("../.tmp-readme/tsconfig.json");
    checks.set(
      bin,
      typeCheckProjects(bin, extended.map(configOf), repoRoot, 120_000, {
        ownFilesOnlyIn: [readme],
      }),
    );
  }
  return checks.get(bin)!.then((runs) => runs.get(configOf(project))!);
}

/** The TypeScript blocks of the generated README as one module: imports hoisted, each block in its own function. */
function readmeExamples(): string {
  const blocks = [
    ...readFileSync(join(repoRoot, "generated/README.md"), "utf8").matchAll(
      /```ts\n([\s\S]*?)```/g,
    ),
  ].map((m) => m[1]!);
  const imports = new Set<string>();
  const bodies = blocks.map((block, i) => {
    const lines = block.split("\n");
    for (const line of lines.filter((l) => l.startsWith("import "))) imports.add(line);
    return `export async function example${i}() {\n${lines.filter((l) => !l.startsWith("import ")).join("\n")}\n}\n`;
  });
  // The per-endpoint calls use the `client` of the README's Client section.
  return [
    ...imports,
    'declare const client: import("merchant-commerce-api").MerchantClient;',
    "",
    ...bodies,
  ].join("\n");
}

beforeAll(() => {
  mkdirSync(readmeProject, { recursive: true });
  writeFileSync(join(readmeProject, "examples.ts"), readmeExamples());
  writeFileSync(
    join(readmeProject, "tsconfig.json"),
    JSON.stringify({
      extends: "../tsconfig.json",
      compilerOptions: { noUnusedLocals: false },
      files: ["examples.ts"],
    }),
  );
});
afterAll(() => {
  rmSync(readmeProject, { recursive: true, force: true });
  rmSync(batchDir, { recursive: true, force: true });
});

describe.each(Object.entries(compilers))(
  "a consumer of the built package with %s",
  (_name, bin) => {
    it.each(["tsconfig.json", "tsconfig.bundler.json"])(
      "type-checks with %s, the wrong calls marked are errors",
      async (project) => {
        const run = await typeCheck(bin, `../${project}`);
        expect(run.output).toBe("");
        expect(run.status).toBe(0);
      },
    );

    it("reads the package's types from dist/*.d.ts, never from its TypeScript sources", () => {
      const run = tsc(bin, "-p", join(consumer, "tsconfig.json"), "--listFilesOnly");
      expect(run.status).toBe(0);
      const files = run.stdout.split("\n").filter((f) => f.includes("/generated/"));
      expect(files.map((f) => f.slice(f.indexOf("/generated/") + 1))).toEqual(
        expect.arrayContaining([
          "generated/dist/index.d.ts",
          "generated/dist/callbacks.d.ts",
          "generated/dist/types.d.ts",
        ]),
      );
      expect(files.filter((f) => !/\/generated\/dist\/.*\.d\.ts$/.test(f))).toEqual([]);
    });

    it("compiles every TypeScript example of the generated README", async () => {
      const run = await typeCheck(bin, "../.tmp-readme/tsconfig.json");
      expect(run.output).toBe("");
      expect(run.status).toBe(0);
    });
  },
);

describe("the README examples", () => {
  it("cover every endpoint and callback", () => {
    const code = readmeExamples();
    for (const call of [
      "transactions.authorize(",
      "transactions.list(",
      "transactions.get(",
      "orders.create(",
      "testing.trackMockShipment(",
      "subscriptions.cancel(",
      "webhooks.create(",
      "webhooks.delete(",
      "testing.getRandomPhone(",
    ]) {
      expect(code).toContain(`client.${call}`);
    }
    for (const event of ["product.info", "order.shipping", "cart.update", "account.login"])
      expect(code).toContain(`"${event}": async (`);
  });
});
