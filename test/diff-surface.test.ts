/**
 * The package's TypeScript surface in `diff` (issue 34): every export of every entry point,
 * compared by type-checking a consumer probe against both versions' declarations. A change
 * that breaks a consumer's compile is breaking, whether it comes from the spec or from apigen
 * itself (a renamed export, a narrowed type); one that does not is compatible.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../generator/diff/load-base.ts";
import { compareSurfaces, type SurfaceChange } from "../generator/diff/surface/compare-surface.ts";
import { declarationsAlone, packageDeclarations } from "../generator/diff/surface/declarations.ts";
import {
  committedPackage,
  generatedPackage,
  type PackageSource,
} from "../generator/diff/surface/package-source.ts";
import { features, repoRoot, runCli, tempDir } from "./helpers.ts";

const merchant = generatedPackage(loadModel(join(repoRoot, "spec")), "spec/", "before");

/** A copy of the Merchant package with `edit` made to one of its files: what another apigen might make. */
function edited(path: string, edit: (text: string) => string): PackageSource {
  const files = new Map(merchant.files);
  const text = files.get(path)!;
  const changed = edit(text);
  expect(changed, `the edit of ${path} changed nothing`).not.toBe(text);
  files.set(path, changed);
  return { files, origin: "after" };
}

/** The changes of one comparison as `level entry name` lines (indirect ones marked). */
const summary = (changes: readonly SurfaceChange[]) =>
  changes.map((c) => `${c.level} ${c.entry} ${c.name}${c.indirect ? " (through its types)" : ""}`);

describe("the surface of two packages compared directly (a change in apigen, not in the spec)", () => {
  it("finds nothing between the Merchant package and itself", () => {
    const report = compareSurfaces(merchant, merchant);
    expect(report.changes).toEqual([]);
    expect(report.unchanged).toBeGreaterThan(100);
  });

  it("a renamed export is breaking (the old name is gone) and the new name an addition", () => {
    const renamed = edited("src/client.ts", (t) =>
      t.replace("export const transactionsGet:", "export const transactionGet:"),
    );
    expect(summary(compareSurfaces(merchant, renamed).changes)).toEqual([
      "breaking merchant-commerce-api transactionsGet",
      "minor merchant-commerce-api transactionGet",
    ]);
  });

  it("a narrowed parameter of a function is breaking, with what no longer fits", () => {
    const narrowed = edited("src/client.ts", (t) =>
      t.replace(
        "  reference: TransactionReference,\n  options?: RequestOptions,\n) => ApiPromise<Transaction>",
        "  reference: `TX-${string}`,\n  options?: RequestOptions,\n) => ApiPromise<Transaction>",
      ),
    );
    const { changes } = compareSurfaces(merchant, narrowed);
    expect(summary(changes)).toEqual(["breaking merchant-commerce-api transactionsGet"]);
    expect(changes[0]!.description).toMatch(/^a use of the old value no longer compiles: /);
  });

  it("a narrowed parameter of a method is breaking too (methods are compared strictly, not both ways)", () => {
    const narrowed = edited("src/client.ts", (t) =>
      t.replace(
        "  get(reference: TransactionReference, options?: RequestOptions): ApiPromise<Transaction>;",
        "  get(reference: `TX-${string}`, options?: RequestOptions): ApiPromise<Transaction>;",
      ),
    );
    const breaking = compareSurfaces(merchant, narrowed).changes.filter(
      (c) => c.level === "breaking",
    );
    expect(summary(breaking)).toEqual([
      "breaking merchant-commerce-api TransactionsApi",
      "breaking merchant-commerce-api MerchantClient (through its types)",
    ]);
  });

  it("a widened return type is breaking for those who read it", () => {
    const widened = edited("src/client.ts", (t) =>
      t.replace(
        "  options?: RequestOptions,\n) => ApiPromise<Transaction> =",
        "  options?: RequestOptions,\n) => ApiPromise<Transaction | undefined> =",
      ),
    );
    expect(summary(compareSurfaces(merchant, widened).changes)).toEqual([
      "breaking merchant-commerce-api transactionsGet",
    ]);
  });

  it("an added optional parameter and an added export are compatible", () => {
    const added = edited("src/client.ts", (t) =>
      t
        .replace(
          "  options?: RequestOptions,\n) => ApiPromise<Transaction> =",
          "  options?: RequestOptions,\n  trace?: string,\n) => ApiPromise<Transaction> =",
        )
        .concat("\nexport const apiVersion: string = '2';\n"),
    );
    expect(summary(compareSurfaces(merchant, added).changes)).toEqual([
      "minor merchant-commerce-api transactionsGet",
      "minor merchant-commerce-api apiVersion",
    ]);
  });

  it("an entry point that goes is breaking", () => {
    const files = new Map(merchant.files);
    const manifest = JSON.parse(files.get("package.json")!) as { exports: Record<string, unknown> };
    delete manifest.exports["./testing"];
    files.set("package.json", JSON.stringify(manifest));
    expect(summary(compareSurfaces(merchant, { files, origin: "after" }).changes)).toEqual([
      "breaking merchant-commerce-api/testing ",
    ]);
  });
});

describe("types are held the ways consumers use them", () => {
  it("a field added to what consumers read is compatible; a required one added to what they write breaks", () => {
    const money = edited("src/types.ts", (t) =>
      t.replace(/export interface Money \{\n/, "export interface Money {\n  rate?: number;\n"),
    );
    expect(summary(compareSurfaces(merchant, money).changes)).toEqual([
      "minor merchant-commerce-api Money",
    ]);
    // the callback handlers consumers write: a new required event breaks them
    const handlers = edited("src/callbacks.ts", (t) =>
      t.replace(
        "export type CallbackHandlers = {\n",
        'export type CallbackHandlers = {\n  "refund.notice": (body: unknown, ctx: CallbackContext) => void;\n',
      ),
    );
    const { changes } = compareSurfaces(merchant, handlers);
    expect(summary(changes).filter((c) => c.includes("CallbackHandlers"))).toEqual([
      "breaking merchant-commerce-api/callbacks CallbackHandlers",
    ]);
    expect(changes.find((c) => c.name === "CallbackHandlers")!.description).toMatch(
      /^consumers write it; what was written as the old type is no longer accepted: Property '"refund\.notice"' is missing/,
    );
  });

  it("a field removed from what consumers read breaks them, and what returns it, through its types", () => {
    const removed = edited("src/types.ts", (t) =>
      t.replace(/(export interface Money \{\n(?:.*\n)*?) {2}currency\??: [^;]+;\n/, "$1"),
    );
    const changes = compareSurfaces(merchant, removed).changes;
    expect(changes.find((c) => c.name === "Money")).toMatchObject({
      level: "breaking",
      indirect: false,
    });
    expect(changes.filter((c) => c.name !== "Money").every((c) => c.indirect)).toBe(true);
  });
});

describe("the declarations a surface is read from", () => {
  /** Every feature's package, generated once for the tests below. */
  let generated: PackageSource[] | undefined;
  const featurePackages = () =>
    (generated ??= features.map((feature) =>
      generatedPackage(
        loadModel(join(repoRoot, "test/fixtures/features", feature)),
        `${feature}/`,
        feature,
      ),
    ));

  it("every generated package's sources give their declarations alone (no type checker needed)", () => {
    for (const pkg of featurePackages()) {
      const sources = [...pkg.files.keys()].filter((p) => p.endsWith(".ts"));
      const declarations = packageDeclarations(pkg);
      expect([...declarations.keys()].sort()).toEqual(
        sources.map((p) => p.replace(/\.ts$/, ".d.ts")).sort(),
      );
    }
  });

  it("no source of a generated package needs the type checker for its declarations (a diff builds no program of the whole package)", () => {
    const needChecker = [merchant, ...featurePackages()].flatMap((pkg) =>
      [...pkg.files]
        .filter(([path]) => path.endsWith(".ts") && !path.endsWith(".d.ts"))
        .filter(([path, text]) => declarationsAlone(path, text) === undefined)
        .map(([path]) => `${pkg.origin} ${path}`),
    );
    expect(needChecker).toEqual([]);
  });
});

describe("diff BASE on a project whose package is committed", () => {
  const dir = tempDir("apigen-diff-surface-");
  const spec = join(dir, "spec");
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    cpSync(join(repoRoot, "test/fixtures/features/operations"), spec, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{ "name": "shop", "private": true }\n');
    // run in the project's own folder: the repository's apigen.config.ts (every output on) is not its config
    expect((await runCli(["--spec", spec, "--out", join(dir, "generated")], dir)).status).toBe(0);
    git("init", "-q");
    git("config", "user.email", "t@example.invalid");
    git("config", "user.name", "t");
    git("add", ".");
    git("commit", "-qm", "base");
  });
  const diff = (...args: string[]) =>
    runCli(["diff", "HEAD", "--spec", spec, "--out", join(dir, "generated"), ...args], dir);
  const types = join(spec, "types.yaml");
  const original = readFileSync(
    join(repoRoot, "test/fixtures/features/operations/types.yaml"),
    "utf8",
  );

  it("reads the committed package's files exactly as committed (one git process for all of them)", () => {
    const texts = {
      "package.json": '{ "name": "é-pkg" }\n',
      "src/empty.ts": "",
      "src/wide.ts": 'export const s = "naïve — 𝄞";\r\nexport const n = 1;',
      "src/deep/x.d.ts": "export declare const x: 1;\n",
    };
    const repo = tempDir("apigen-committed-");
    try {
      for (const [path, text] of Object.entries(texts)) {
        mkdirSync(join(repo, "pkg", dirname(path)), { recursive: true });
        writeFileSync(join(repo, "pkg", path), text);
      }
      writeFileSync(join(repo, "pkg/notes.md"), "not part of the surface\n");
      const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
      git("init", "-q");
      git("-c", "core.autocrlf=false", "add", ".");
      git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "base");
      // the working copy differs: the committed texts are what is read
      writeFileSync(join(repo, "pkg/src/empty.ts"), "export {};\n");
      const pkg = committedPackage(repo, join(repo, "pkg"), "HEAD", "pkg/ at HEAD");
      expect(Object.fromEntries(pkg!.files)).toEqual(texts);
      expect(committedPackage(repo, join(repo, "elsewhere"), "HEAD", "x")).toBeUndefined();
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("a spec change that breaks a consumer's compile: breaking in the surface too, and --fail-on breaking exits 1", async () => {
    // `total` of the Order that callers read becomes a string
    writeFileSync(
      types,
      original.replace("total: { type: integer, unit: cents }", "total: { type: string }"),
    );
    const run = await diff("--fail-on", "breaking");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /^TypeScript surface \(.*generated\/ at HEAD -> .*spec\/ as this apigen generates it\):$/m,
    );
    expect(run.stdout).toMatch(
      /^BREAKING @features\/operations Order: consumers read it; the new type does not fit where the old one was read: /m,
    );
    expect(run.stdout).toMatch(
      /^semver: major \(spec: 1 breaking, 0 minor, 0 patch; TypeScript surface: [1-9]\d* breaking/m,
    );
    expect(run.status).toBe(1);
  });

  it("one that does not: a required field added to what callers read is compatible, and --fail-on breaking exits 0", async () => {
    writeFileSync(
      types,
      original.replace(
        "total: { type: integer, unit: cents }",
        "total: { type: integer, unit: cents }\n      currency: { type: string, required: true }",
      ),
    );
    const run = await diff("--fail-on", "breaking");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /^minor {4}@features\/operations Order: changed compatibly \(consumers read it\)$/m,
    );
    // the client's instances, which give Orders to read, too
    expect(run.stdout).toMatch(
      /^minor {4}\d+ more exports through the types they use: .*OpsClient/m,
    );
    expect(run.stdout).not.toMatch(/^BREAKING/m);
    expect(run.status).toBe(0);
  });

  it("a change from apigen, not the spec: the committed package exported a name this apigen no longer does", async () => {
    writeFileSync(types, original);
    // as an older apigen would have made it: one more export, committed as the base
    const client = join(dir, "generated/src/client.ts");
    const text = readFileSync(client, "utf8");
    writeFileSync(
      client,
      `${text}\n/** An older apigen's name. */\nexport const ordersFetch: number = 1;\n`,
    );
    git("commit", "-qam", "older apigen");
    writeFileSync(client, text);
    const run = await diff("--fail-on", "breaking");
    expect(run.stdout).toMatch(/^no changes$/m); // the spec is the same
    expect(run.stdout).toMatch(
      /^BREAKING @features\/operations ordersFetch: export removed \(or renamed\)$/m,
    );
    expect(run.status).toBe(1);
  });
});
