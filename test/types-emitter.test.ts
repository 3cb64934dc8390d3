/**
 * The type emitter on small valid specs that together use every feature of the spec model
 * (test/fixtures/features/<feature>/). `src/types.ts` and `src/index.ts` of each are kept
 * as file snapshots under test/__snapshots__/features/<feature>/ (refresh them with
 * `npm run test:update`, then read the diff); the snapshots must type-check with
 * TypeScript 6 and 7; and a few facts are asserted directly, independent of snapshots.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PipelineResult } from "../generator/pipeline.ts";
import { features, generateFrom, repoRoot, tempDir, type Feature } from "./helpers.ts";
import { importRuntimeFrom } from "./support/shared-runtime.ts";
import { runTypeScript, typescript6, typescript7 } from "./support/typescript.ts";

const results = new Map<Feature, PipelineResult>();

// With every validator (response types' too), so each feature's snapshot shows how the
// validators emitter writes every kind of type it has; which validators a package keeps by
// default is test/validated.test.ts's subject. Nothing else in the package differs.
beforeAll(async () => {
  for (const feature of features)
    results.set(
      feature,
      await generateFrom(`test/fixtures/features/${feature}`, undefined, { validators: "all" }),
    );
});

function result(feature: Feature): PipelineResult {
  const found = results.get(feature);
  if (!found) throw new Error(`${feature} was not generated`);
  return found;
}

function fileOf(feature: Feature, path: string): string {
  const file = result(feature).files.find((f) => f.path === path);
  if (!file) throw new Error(`${feature} produced no ${path}`);
  return file.contents;
}

const typesOf = (feature: Feature) => fileOf(feature, "src/types.ts");

/** The text of one exported declaration (`interface X {...}` or `type X = ...;`), with its JSDoc. */
function declaration(feature: Feature, name: string): string {
  const text = typesOf(feature);
  const start = text.search(new RegExp(`^export (interface|type) ${name}\\b`, "m"));
  if (start < 0) throw new Error(`${feature}: no declaration of ${name}`);
  const docStart = text.lastIndexOf("/**", start);
  const between = docStart >= 0 ? text.slice(docStart, start) : "";
  const from =
    docStart >= 0 && /^\/\*\*[\s\S]*\*\/\n$/.test(between) && !between.includes("export ")
      ? docStart
      : start;
  const next = text.slice(start + 1).search(/^(\/\*\*|export )/m);
  return text.slice(from, next < 0 ? undefined : start + 1 + next).trimEnd();
}

/** Package sources that are snapshotted: all of src/ but the copied runtime. */
const isSnapshotted = (path: string) => path.startsWith("src/") && !path.startsWith("src/runtime/");
const snapshotted = [
  "src/types.ts",
  "src/index.ts",
  "src/validators.ts",
  "src/client.ts",
  "src/request-validators.ts",
  "src/request-validators.browser.ts",
  "src/client-features.ts",
  "src/errors.ts",
  "src/callbacks.ts",
  "src/openapi.ts",
  "src/testing.ts",
];

it("covers every folder of test/fixtures/features", () => {
  expect([...features].sort()).toEqual(
    readdirSync(join(repoRoot, "test/fixtures/features")).sort(),
  );
});

describe.each(features)("feature %s", (feature) => {
  it("generates without diagnostics", () => {
    expect(result(feature).model.api.title).toBeTruthy();
  });

  it("has a snapshot for every package source it emits", () => {
    const sources = result(feature)
      .files.map((f) => f.path)
      .filter(isSnapshotted);
    expect(sources.filter((p) => !snapshotted.includes(p))).toEqual([]);
  });

  it.each(snapshotted)("%s matches its snapshot", async (path) => {
    const file = result(feature).files.find((f) => f.path === path);
    if (!file) return; // this feature's spec has nothing for that output
    await expect(file.contents).toMatchFileSnapshot(
      `./__snapshots__/features/${feature}/${path.slice("src/".length)}`,
    );
  });

  it("shows every gap note of its types as an @undocumented line, and no other", () => {
    const notes = result(feature)
      .model.gaps.filter((g) => g.subject.startsWith("types."))
      .map((g) => `@undocumented ${g.text}`)
      .sort();
    const lines = typesOf(feature)
      .split("\n")
      .map((line) =>
        line
          .trim()
          .replace(/^(\*|\/\*\*) /, "")
          .replace(/ \*\/$/, ""),
      )
      .filter((line) => line.startsWith("@undocumented "))
      .sort();
    expect(lines).toEqual(notes);
  });
});

describe("direct facts of the emitted types", () => {
  it("primitives: integer is number, object is open, unknown and unspecified are unknown", () => {
    expect(declaration("primitives", "Primitives")).toContain("count?: number;");
    expect(declaration("primitives", "Primitives")).toContain("must_text: string;");
    expect(declaration("primitives", "Primitives")).toContain("bag?: Record<string, unknown>;");
    expect(declaration("primitives", "Bag")).toMatch(
      /^export interface Bag \{\n[\s\S]*\[field: string\]: unknown;\n\}$/m,
    );
    expect(declaration("primitives", "Mystery")).toBe(
      ["/** @undocumented Type not shown. */", "export type Mystery = unknown;"].join("\n"),
    );
    expect(declaration("primitives", "MaybeCount")).toBe("export type MaybeCount = number | null;");
  });

  it("containers: arrays, nested arrays, maps and their mapping forms", () => {
    const c = declaration("containers", "Containers");
    expect(c).toContain("grid?: Array<number[]>;");
    expect(c).toContain("item_grid?: Array<Item[]>;");
    expect(c).toContain("maybe_names?: string[] | null;");
    expect(c).toContain("names_or_nulls?: Array<string | null>;");
    expect(c).toContain("labels?: Record<string, string>;");
    expect(c).toContain("nested_maps?: Record<string, Record<string, number>>;");
    expect(c).toContain("map_of_lists?: Record<string, Item[]>;");
    expect(c).toContain("list_of_maps?: Array<Record<string, string>>;");
    expect(c).toContain("maybe_scores?: Record<string, number> | null;");
    expect(c).toContain("optional_values?: Record<string, Item | null>;");
    expect(declaration("containers", "Counters")).toContain(
      "export type Counters = Record<string, number>;",
    );
  });

  it("objects: open objects get an index signature, odd wire names are quoted, nullable objects are aliases", () => {
    const profile = declaration("objects", "Profile");
    expect(profile).toContain("[field: string]: unknown;");
    expect(profile).toContain('".tag": string;');
    expect(profile).toContain('"x-request-id"?: string;');
    expect(profile).toContain('"2fa_enabled"?: boolean;');
    expect(profile).toContain('"with space"?: number;');
    expect(profile).toContain("$schema?: string;");
    expect(profile).toContain("shipping_address: Address | null;");
    expect(profile).toContain("billing_address?: Address | null;");
    expect(profile).toContain("history?: Address[] | null;");
    expect(declaration("objects", "Settings")).toMatch(
      /^export type Settings = \{[\s\S]*\} \| null;$/m,
    );
    expect(declaration("objects", "OpenBag")).toMatch(
      /^export interface OpenBag \{[\s\S]*\[field: string\]: unknown;\n\}$/m,
    );
  });

  it("enums: literal unions; open enums admit any other value of their kind", () => {
    expect(declaration("enums-and-literals", "Status")).toContain(
      'export type Status = "pending" | "paid" | "cancelled";',
    );
    expect(declaration("enums-and-literals", "OpenStatus")).toContain(
      'export type OpenStatus = "succeeded" | "failed" | (string & {});',
    );
    expect(declaration("enums-and-literals", "OpenCode")).toContain(
      "export type OpenCode = 100 | 200 | (number & {});",
    );
    expect(declaration("enums-and-literals", "Priority")).toContain(
      "export type Priority = 1 | 2 | 3;",
    );
    expect(declaration("enums-and-literals", "Yes")).toContain("export type Yes = true;");
    const r = declaration("enums-and-literals", "Result");
    expect(r).toContain('status: "success";');
    expect(r).toContain('level: "low" | "high" | (string & {});');
    expect(r).toContain('kind?: "a" | "b" | null;');
  });

  it("constraints and docs: every facet becomes a JSDoc tag", () => {
    const payment = declaration("constraints-and-docs", "Payment");
    for (const tag of [
      "@format uuid",
      "@format date-time",
      "@format timestamp",
      "@format MM-DD-YYYY",
      "@pattern `^[A-Z]{3}$`",
      "@prefix `wh_`",
      "@minLength 5",
      "@maxLength 64",
      "@minimum 0",
      "@maximum 1000000",
      "@minimum -1.5",
      "@unit cents",
      "@example 1250",
      '@example "USD"',
      '@example {"gift":true,"wrap":"paper"}',
      "@deprecated",
      "@undocumented Refund fields not shown.",
    ]) {
      // a tag on a line of a doc comment, or the whole of a one-line comment
      expect(
        [` * ${tag}\n`, `/** ${tag} */\n`].some((line) => payment.includes(line)),
        tag,
      ).toBe(true);
    }
    // A `*/` in a pattern or description must not end the comment early.
    expect(payment).not.toMatch(/\*\/\$`/);
    expect(payment).toContain("like /* this *\\/.");
  });

  it("recursion: Tree refers to itself, Person and Company to each other", () => {
    const tree = declaration("recursion", "Tree");
    expect(tree).toContain("children?: Tree[];");
    expect(tree).toContain("parent?: Tree | null;");
    expect(declaration("recursion", "Person")).toContain("employer?: Company;");
    expect(declaration("recursion", "Company")).toContain("employees: Person[];");
    expect(declaration("recursion", "LinkedNode")).toContain("next: LinkedNode | null;");
    expect(declaration("recursion", "Forest")).toContain("export type Forest = Tree[];");
  });

  it("extends: an object has its base's fields (less omit), its own fields win, chains and openness carry over", () => {
    const fieldsOf = (name: string) => {
      const type = result("extends-and-omit").model.types.find((t) => t.name === name)!.type;
      return type.kind === "object"
        ? type.fields.map(
            (f) =>
              `${f.name}${f.required ? "" : "?"}${f.inheritedFrom ? `<${f.inheritedFrom}` : ""}`,
          )
        : [];
    };
    expect(fieldsOf("Public")).toEqual(["id<Base", "created_at?<Base", "name?"]);
    expect(fieldsOf("Detailed")).toEqual([
      "id<Base",
      "created_at?<Base",
      "name?<Public",
      "details?",
    ]);
    expect(fieldsOf("Override")).toEqual(["id<Base", "created_at?<Base", "secret"]);
    expect(declaration("extends-and-omit", "Public")).toMatch(
      /^export interface Public extends Omit<Base, "secret"> \{\n\s+name\?: string;\n\}/m,
    );
    expect(declaration("extends-and-omit", "Detailed")).toMatch(
      /^export interface Detailed extends Public \{\n\s+details\?: string;\n\}/m,
    );
    expect(declaration("extends-and-omit", "Override")).toMatch(
      /extends Omit<Base, "secret"> \{\n\s+secret: string;\n\}/,
    );
    expect(declaration("extends-and-omit", "OpenChild")).toMatch(
      /^export interface OpenChild extends OpenBase \{\n\s+extra\?: number;\n\}/m,
    );
    const holder = declaration("extends-and-omit", "Holder");
    expect(holder).toMatch(/summary\?: \{\n\s+id: string;\n\s+\};/);
    expect(holder).toContain("secret?: string;");
  });

  it("multi-file: files are read in path order and refer to each other", () => {
    const model = result("multi-file").model;
    expect(model.sourceFiles).toEqual([
      "test/fixtures/features/multi-file/api.yaml",
      "test/fixtures/features/multi-file/types/cart.yaml",
      "test/fixtures/features/multi-file/types/common.yaml",
      "test/fixtures/features/multi-file/types/item.yaml",
    ]);
    expect(model.types.map((t) => t.name)).toEqual(["Cart", "CartId", "Money", "CartItem"]);
    expect(declaration("multi-file", "CartItem")).toContain("cart?: Cart;");
  });

  it("operations: endpoints take their version and the error responses whose scope matches", () => {
    const model = result("operations").model;
    const byId = new Map(model.endpoints.map((e) => [e.id, e]));
    const errorsOf = (id: string) =>
      byId
        .get(id)!
        .errors.map((e) => `${e.status ?? "any"}/${e.code ?? e.tag ?? "-"}/${e.scope.kind}`);
    expect(byId.get("orders.get")!.version).toBe("v1");
    expect(byId.get("files.download")!.version).toBe("v2");
    expect(errorsOf("orders.get")).toEqual([
      "401/1005/pathPrefix",
      "403/18/all",
      "404/2001/endpoint",
      "422/-/version",
      "5xx/-/all",
      "any/2001/all",
    ]);
    expect(errorsOf("files.download")).toEqual([
      "400/invalid_request/version",
      "403/18/all",
      "5xx/-/all",
      "any/2001/all",
    ]);
    expect(
      byId.get("orders.get")!.params.map((p) => `${p.name}:${p.placement}:${p.required}`),
    ).toEqual(["order_id:path:true", "expand:query:false", "page:query:true"]);
    expect(byId.get("files.download")!.params.map((p) => p.placement)).toEqual([
      "trailing",
      "trailing",
    ]);
    expect(model.api.clientName).toBe("OpsClient");
    expect(model.credentials.map((c) => `${c.id}:${c.placement}`)).toEqual([
      "apiKey:header",
      "token:header",
      "signingSecret:signature",
      "dashboardLogin:none",
    ]);
    expect(model.webhooks?.registration).toEqual(["webhooks.create", "webhooks.delete"]);
    expect(model.lifecycles[0]?.transitions.map((t) => t.trigger ?? "-")).toEqual([
      "orders.cancel",
      "-",
    ]);
  });

  it("unions: each tagged variant carries its tag as a required literal, an open union adds UnknownVariant, shorthand unions keep `| null`", () => {
    const types = fileOf("unions", "src/types.ts");
    expect(types).toContain(
      'export type PaymentMethod = CardPaymentMethod | SepaDebitPaymentMethod | UnknownVariant<"type">;',
    );
    expect(types).toContain("export type Event = ChargeSucceeded | ChargeFailed;");
    // The tag is a required literal in each variant: declared as string, as the const, or not at all.
    expect(types).toMatch(/export interface CardPaymentMethod \{[^}]*\n {2}type: "card";/);
    expect(types).toMatch(
      /export interface SepaDebitPaymentMethod \{[^}]*?\n {2}type: "sepa_debit";/,
    );
    expect(types).toMatch(/export interface ChargeFailed \{[^}]*\n {2}kind: "charge\.failed";\n\}/);
    expect(types).toMatch(/^import type \{ UnknownVariant \} from "\.\/runtime\/unions\.js";$/m);
    expect(types).toContain("  customer: string | Customer;");
    expect(types).toContain("  labels?: Label | string;");
    expect(types).toContain("  reference?: number | string;");
    expect(types).toContain("  refunded_by?: string | Customer | null;");
    expect(types).toContain("  sources?: string[] | Customer;");
    expect(types).toContain("  attempts?: Array<number | string>;");
    expect(types).toContain("  by_region?: Record<string, Customer | string>;");
    expect(types).toContain("  previous?: PaymentMethod | null;");
    expect(types).toContain("export type Amount = number | string;");
    const union = result("unions").model.types.find((t) => t.name === "PaymentMethod")!.type;
    expect(union).toMatchObject({
      kind: "union",
      open: true,
      discriminator: {
        field: "type",
        cases: [
          { value: "card", type: "CardPaymentMethod" },
          { value: "sepa_debit", type: "SepaDebitPaymentMethod" },
        ],
      },
    });
  });

  it("the gap count of each fixture is what its notes and unspecified types add up to", () => {
    const counts = Object.fromEntries(features.map((f) => [f, result(f).model.gaps.length]));
    expect(counts).toEqual({
      primitives: 2, // Primitives.mystery and Mystery are `unspecified`
      containers: 0,
      objects: 1,
      "enums-and-literals": 0,
      "constraints-and-docs": 9, // 7 notes, plus risk and Opaque are `unspecified`
      recursion: 0,
      "extends-and-omit": 0,
      operations: 19, // 18 notes, plus the `unspecified` response body of files.download
      "multi-file": 1,
      "params-and-credentials": 0,
      oauth: 0,
      "typed-webhooks": 0,
      "typed-webhooks-field": 1, // customer.deleted's note
      "standard-webhooks": 0,
      "bodies-and-responses": 0,
      unions: 0,
      pagination: 0,
      streaming: 0,
      "stand-in": 1, // the undocumented body of admin.reset
      generics: 0,
      expandable: 0,
      "read-and-write-only": 0,
      requests: 0,
      "errors-and-retries": 0,
    });
  });

  it("generics: a generic type is declared once with its parameters, and each use is written as a use", () => {
    expect(declaration("generics", "List")).toContain("export interface List<T> {");
    expect(declaration("generics", "List")).toContain("data: T[];");
    expect(declaration("generics", "Slice")).toContain("export interface Slice<Item, Cursor> {");
    expect(declaration("generics", "Slice")).toContain("next: Cursor | null;");
    expect(declaration("generics", "Maybe")).toContain("export type Maybe<T> = T | null;");
    expect(declaration("generics", "Envelope")).toContain(
      "export interface Envelope<T> extends Meta {",
    );
    expect(declaration("generics", "Envelope")).toContain("related?: List<T>;");
    expect(declaration("generics", "Tree")).toContain("children: Tree<T>[];");
    // The instantiations are named types of the model, never declarations of the package.
    const types = typesOf("generics");
    for (const name of ["ListCustomer", "ListOrder_2", "SliceOrderString", "TreeString"])
      expect(types).not.toMatch(new RegExp(`\\b${name}\\b`));
    const client = fileOf("generics", "src/client.ts");
    expect(client).toContain("PagePromise<List<Customer>, Customer>");
    expect(client).toContain("ApiPromise<Slice<Order, string>>");
    expect(client).toContain("ApiPromise<Envelope<Maybe<Customer>>>");
    expect(client).toContain("ApiPromise<List<List<Order>>>");
    expect(client).toContain("@returns The List<Customer>.");
  });

  it("an unspecified type is listed as a gap (docs: `it is listed as a gap too`)", () => {
    expect(result("primitives").model.gaps.map((g) => g.subject)).toEqual([
      "types.Primitives.mystery",
      "types.Mystery",
    ]);
  });

  it("index.ts re-exports the types", () => {
    expect(fileOf("primitives", "src/index.ts")).toMatch(/^export type \* from "\.\/types\.js";$/m);
  });
});

describe("a recursive map alias", () => {
  it("type-checks (Record<string, Self> is a circular alias in TypeScript, in a union too, and through another alias)", async () => {
    const out = tempDir("apigen-recursive-map-");
    const generated = await generateFrom("test/fixtures/recursive-map-alias", out);
    for (const file of generated.files) {
      mkdirSync(dirname(join(out, file.path)), { recursive: true });
      writeFileSync(join(out, file.path), file.contents);
    }
    // its types (and what they import) under the package's settings: the alias is in types.ts
    writeFileSync(
      join(out, "tsconfig.types.json"),
      JSON.stringify({ extends: "./tsconfig.json", include: [], files: ["src/types.ts"] }),
    );
    const run = runTypeScript(typescript6, ["-p", join(out, "tsconfig.types.json")]);
    expect(run.stdout + run.stderr).toBe("");
    expect(run.status).toBe(0);
    const types = generated.files.find((f) => f.path === "src/types.ts")!.contents;
    expect(types).toContain(
      [
        "export type JsonValue =",
        "  | string",
        "  | number",
        "  | boolean",
        "  | JsonValue[]",
        "  | { [key: string]: JsonValue }",
        "  | null;",
      ].join("\n"),
    );
    expect(types).toContain("export type JsonDocument = { [key: string]: JsonEntry };");
    // through an interface the loop is deferred: Record stays
    expect(types).toContain("export type HeldMap = Record<string, HeldEntry>;");
  });
});

describe("the feature snapshots type-check", () => {
  const compilers = [
    ["TypeScript 6", typescript6],
    ["TypeScript 7", typescript7],
  ] as const;
  // The snapshots leave out src/runtime/ (verbatim copies of generator/runtime/): one copy of it
  // beside them all, which each fixture's files import, so that the program checks it once
  // (test/support/shared-runtime.ts says why), not once per fixture.
  const project = tempDir("apigen-snapshots-");
  cpSync(join(repoRoot, "test/__snapshots__/features"), project, { recursive: true });
  writeFileSync(join(project, "package.json"), '{ "type": "module" }\n');
  // but the integrations' runtimes (msw/, tanstack/), which import their peers: the features'
  // packages leave those outputs off, and a temp folder cannot resolve the peers
  const integrations = ["msw", "tanstack"].map((name) => join(repoRoot, "generator/runtime", name));
  cpSync(join(repoRoot, "generator/runtime"), join(project, "runtime"), {
    recursive: true,
    filter: (source) => !integrations.includes(source),
  });
  for (const feature of features)
    importRuntimeFrom(join(project, feature), join(project, "runtime"));

  // One project of every fixture: TypeScript 6 takes about a minute of it on a loaded machine.
  it.each(compilers)(
    "with %s",
    (_name, tsc) => {
      const run = runTypeScript(tsc, ["-p", join(project, "tsconfig.json")], { cwd: repoRoot });
      expect(run.stdout + run.stderr, run.stdout + run.stderr).toBe("");
      expect(run.status).toBe(0);
    },
    180_000,
  );
});
