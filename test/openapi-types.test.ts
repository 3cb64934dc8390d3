/**
 * openapi-typescript (a generator no one here wrote) turns each generated OpenAPI document
 * into TypeScript; for every named type and parameters interface, its
 * `components["schemas"][Name]` and our `types.ts` type must be assignable both ways. A use
 * of a generic type (`List<Customer>`) has a schema of its own (`ListCustomer`) but no
 * declaration in `types.ts`, which writes the use itself wherever it occurs: its schema is
 * checked against that use. One file of checks per spec, all compiled by one `tsc --noEmit`
 * (TypeScript 6, strict, with exactOptionalPropertyTypes as the generated package uses).
 */
import openapiTS, { astToString, type SchemaObject } from "openapi-typescript";
import ts from "typescript";

import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printSourceFile } from "../generator/emit/code/source-file.ts";
import { typeExpr } from "../generator/emit/shared/type-expr.ts";
import type { NamedType } from "../generator/ir/model.ts";
import { tempDir } from "./helpers.ts";
import { generateInto, removeFolders, specDirs, walk } from "./support/openapi.ts";
import { runTypeScript, typescript6 } from "./support/typescript.ts";

const tsc = typescript6;

/** What the checks of one spec compile to. */
interface Checked {
  folder: string;
  /** The schema names, one check line each from line `firstLine` of `check.ts` on. */
  names: string[];
  firstLine: number;
  /** openapi-typescript's output. */
  generatedTypes: string;
}

/**
 * How openapi-typescript reads the documents. `defaultNonNullable: false`: a property with a
 * `default` stays optional, as the document says (by default openapi-typescript makes it
 * required, reading responses where the server fills defaults in; ours are request types
 * too). Bytes (`contentMediaType`) become `Blob`, as its docs advise for file uploads,
 * instead of `string`.
 */
const readingOptions = {
  defaultNonNullable: false,
  transform(schema: SchemaObject) {
    return "contentMediaType" in schema ? ts.factory.createTypeReferenceNode("Blob") : undefined;
  },
};

const checks = new Map<string, Checked>();
let root = "";
const made: string[] = [];
afterAll(() => removeFolders([...made, root].filter(Boolean)));

/** `Mutual<A, B>` is `true` only when A and B are assignable to each other (no distribution over unions). */
const mutual = "type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;";
/** `Covers<Theirs, Ours>`: every value of theirs is one of ours. */
const covers = "type Covers<A, B> = [A] extends [B] ? true : false;";

/**
 * Schemas that reach an open union (`x-apigen-open`) or bytes (`contentMediaType`):
 * openapi-typescript does not know the extension and types the union closed, while ours
 * admits unknown variants; and bytes are a `Blob` to it (by the transform below) while ours
 * also take `Uint8Array`, `ArrayBuffer` and streams. And a `writeOnly` property is in theirs
 * (required where the schema says so) but not in ours, which is the type as answers carry it
 * (its request bodies take the `Writable` view). For these theirs must be assignable to ours,
 * not back.
 */
function reachingWiderTypes(schemas: Record<string, object>): Set<string> {
  const refs = new Map<string, string[]>();
  const open = new Set<string>();
  for (const [name, schema] of Object.entries(schemas)) {
    const found: string[] = [];
    walk(schema, (node) => {
      if (typeof node.$ref === "string") found.push(node.$ref.split("/").at(-1)!);
      if (
        node["x-apigen-open"] === true ||
        node.contentMediaType !== undefined ||
        node.writeOnly === true
      )
        open.add(name);
    });
    refs.set(name, found);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, targets] of refs)
      if (!open.has(name) && targets.some((t) => open.has(t))) {
        open.add(name);
        grew = true;
      }
  }
  return open;
}

/**
 * `uses.ts`: each use of a generic type as our `types.ts` writes it, under its schema's name
 * (`export type ListCustomer = List<Customer>;`, `ListOrder_2` where `ListOrder` is taken),
 * printed by the code model from the use the IR keeps, as the types file prints it. Empty
 * when the spec has no generic types.
 */
function usesModule(types: readonly NamedType[]): string {
  const uses = types.flatMap(({ name, instance, location }) =>
    instance
      ? [
          {
            statement: {
              kind: "type-alias" as const,
              name,
              isExported: true,
              type: typeExpr({
                kind: "ref",
                name,
                generic: instance,
                nullable: false,
                constraints: {},
                docs: { notes: [] },
                location,
              }),
            },
          },
        ]
      : [],
  );
  return uses.length ? printSourceFile({ path: "src/uses.ts", statements: uses }) : "";
}

/** `Ours.Customer`, or the use for a schema made for one (`Uses.ListCustomer`). */
const ourType = (name: string, types: readonly NamedType[]): string =>
  types.some((t) => t.name === name && t.instance) ? `Uses.${name}` : `Ours.${name}`;

beforeAll(async () => {
  root = tempDir("apigen-openapi-types-");
  for (const [i, specDir] of specDirs.entries()) {
    const g = await generateInto(specDir);
    made.push(g.dir);
    const folder = join(root, `spec${i}`);
    mkdirSync(folder);
    const generatedTypes = astToString(await openapiTS(g.document as never, readingOptions));
    writeFileSync(join(folder, "openapi-types.ts"), generatedTypes);
    copyFileSync(join(g.dir, "src/types.ts"), join(folder, "types.ts"));
    cpSync(join(g.dir, "src/runtime"), join(folder, "runtime"), { recursive: true });
    const schemas = g.document.components.schemas as Record<string, object>;
    const names = Object.keys(schemas);
    const oneWay = reachingWiderTypes(schemas);
    const types = g.result.model.types;
    const uses = usesModule(types);
    if (uses) writeFileSync(join(folder, "uses.ts"), uses);
    const header = [
      `import type { components } from "./openapi-types.ts";`,
      `import type * as Ours from "./types.ts";`,
      ...(uses ? [`import type * as Uses from "./uses.ts";`] : []),
      `type S = components["schemas"];`,
      `${mutual} ${covers}`,
    ];
    const lines = [
      ...header,
      // One line per name, so an error's line number names the type.
      ...names.map(
        (name) =>
          `export const check_${name}: ${oneWay.has(name) ? "Covers" : "Mutual"}<S[${JSON.stringify(name)}], ${ourType(name, types)}> = true;`,
      ),
    ];
    writeFileSync(join(folder, "check.ts"), `${lines.join("\n")}\n`);
    checks.set(specDir, { folder, names, firstLine: header.length + 1, generatedTypes });
  }
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ["*/check.ts"],
    }),
  );
}, 120_000);

let output: string | undefined;
/** tsc's output on every check file, run once. */
function compile(): string {
  output ??= (() => {
    const run = runTypeScript(tsc, ["--noEmit", "-p", join(root, "tsconfig.json")]);
    return `${run.stdout}${run.stderr}`;
  })();
  return output;
}

/** The schema name whose check is on line `line` of the spec's `check.ts`. */
function nameAt(specDir: string, line: number): string | undefined {
  const { names, firstLine } = checks.get(specDir)!;
  return names[line - firstLine];
}

/**
 * The named types of a spec whose check line has a compile error, and any other error. A
 * check that compiles to `false` (TS2322) is a type that differs; any other error on a check
 * line (a type our package does not export, TS2694) is named with tsc's message, which says
 * which it is.
 */
function failures(specDir: string): string[] {
  const { folder } = checks.get(specDir)!;
  // tsc names a file relative to its working directory (`../../tmp/.../spec3/check.ts`).
  const marker = `/${folder.slice(root.length + 1)}/`;
  return compile()
    .split("\n")
    .filter((line) => line.includes(marker))
    .map((line) => {
      const m = /check\.ts\((\d+),\d+\): error (TS\d+): (.*)/.exec(line);
      const name = m ? nameAt(specDir, Number(m[1])) : undefined;
      if (!m || !name) return line;
      return m[2] === "TS2322" ? `${name} is not assignable both ways` : `${name}: ${m[3]}`;
    });
}

let brokenCopies = 0;
/**
 * The schema names of `specDir` whose check fails once `edit` has changed our `types.ts`
 * (in a copy of its check folder), each once, in check order.
 */
function failuresWith(specDir: string, edit: (types: string) => string): string[] {
  const { folder } = checks.get(specDir)!;
  const broken = join(root, `broken${++brokenCopies}`);
  cpSync(folder, broken, { recursive: true });
  const types = readFileSync(join(folder, "types.ts"), "utf8");
  const edited = edit(types);
  expect(edited).not.toBe(types);
  writeFileSync(join(broken, "types.ts"), edited);
  const config = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as {
    include: string[];
  };
  writeFileSync(
    join(broken, "tsconfig.json"),
    JSON.stringify({ ...config, include: ["check.ts"] }),
  );
  const run = runTypeScript(tsc, ["--noEmit", "-p", join(broken, "tsconfig.json")]);
  const lines = [...run.stdout.matchAll(/check\.ts\((\d+),/g)].map((m) => Number(m[1]));
  return [...new Set(lines)]
    .sort((a, b) => a - b)
    .map((line) => nameAt(specDir, line) ?? `line ${line}`);
}

describe("openapi-typescript's types and ours are assignable both ways", () => {
  it.each(specDirs)("%s", (specDir) => {
    expect(checks.get(specDir)!.names.length).toBeGreaterThan(0);
    expect(failures(specDir)).toEqual([]);
  });

  it("the check is live: a type that differs is caught, and named", () => {
    // Money.amount becomes a string in our types only.
    const failed = failuresWith("spec", (types) =>
      types.replace(/(export interface Money \{[^}]*?amount\?: )number;/, "$1string;"),
    );
    expect(failed).toContain("Money");
    expect(failed).not.toContain("Address");
  });

  it("each use of a generic type is checked against the use (List<Customer>), body and arguments", () => {
    const generics = "test/fixtures/features/generics";
    // The body: List's `has_more` becomes optional in our types only; every use of List
    // fails (Envelope's too, whose `related` is a List), and no other.
    const body = failuresWith(generics, (types) =>
      types.replace(/(export interface List<T> \{[^}]*?has_more)(: boolean;)/, "$1?$2"),
    );
    expect(body).toEqual([
      "ListCustomer",
      "ListOrder_2",
      "EnvelopeSearch",
      "ListSearch",
      "EnvelopeMaybeCustomer",
      "ListMaybeCustomer",
      "ListListOrder",
    ]);
    // An argument: Customer's `email` loses its null; Customer and the uses it is an
    // argument of (directly or through Maybe<Customer>) fail.
    const argument = failuresWith(generics, (types) =>
      types.replace(/(export interface Customer \{[^}]*?email: string) \| null;/, "$1;"),
    );
    expect(argument).toEqual([
      "Customer",
      "ListCustomer",
      "MaybeCustomer",
      "EnvelopeMaybeCustomer",
      "ListMaybeCustomer",
    ]);
  });

  it("openapi-typescript reads the 3.1 forms as intended: nullable, open enums, maps, const", () => {
    const text = checks.get("spec")!.generatedTypes;
    expect(text).toMatch(/artifact\?: string \| null;/);
    expect(text).toMatch(/"\.tag"\?: "unprocessable_request" \| string;/);
    expect(text).toMatch(/metadata\?: \{\s*\[key: string\]: string;\s*\};/);
    expect(text).toMatch(/success\?: false;/);
  });
});
