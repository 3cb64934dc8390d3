/**
 * Schema classes that real OpenAPI documents use and that import once turned into specs
 * `generate` refused or packages strict tsc refused (issue 31), each a document of a few lines
 * in test/fixtures/import/classes/<class>/openapi.yaml: imported, generated, and every package
 * type-checked in ONE strict program per compiler (TypeScript 6 and 7) together with
 * classes/checks.ts, which says what the types mean (what must and must not compile). What
 * cannot be carried is a gap listed with the JSON pointer it came from.
 */
import { copyFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importSpec, writeSpecFolder } from "../generator/import/import.ts";
import { DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { repoRoot, tempDir, writeGenerated } from "./helpers.ts";
import { programOverSharedRuntime } from "./support/shared-runtime.ts";
import { typeCheckAsync, typescript6, typescript7 } from "./support/typescript.ts";

const classesDir = join(repoRoot, "test/fixtures/import/classes");
const classes = readdirSync(classesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const schemaFile = join(repoRoot, "generator/schema/spec.schema.json");
const scratch = tempDir("apigen-import-classes-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Imported {
  /** The spec's files, parsed. */
  spec: Record<string, Record<string, unknown>>;
  /** The generated package's gaps, as `apigen gaps` prints them (subject: text). */
  gaps: string[];
  /** What `generate` said when it refused the imported spec. */
  refused?: string;
}
const imported = new Map<string, Imported>();

beforeAll(async () => {
  for (const name of classes) {
    const outSpec = join(scratch, name, "spec");
    const result = importSpec({
      input: join(classesDir, name, "openapi.yaml"),
      outSpec,
      schemaFile,
    });
    writeSpecFolder(outSpec, result.files);
    const spec = Object.fromEntries(result.files.map((f) => [f.path, parse(f.text)]));
    try {
      const generated = await writeGenerated(outSpec, join(scratch, name, "pkg"));
      imported.set(name, {
        spec,
        gaps: generated.model.gaps.map((g) => `${g.subject}: ${g.text}`),
      });
    } catch (error) {
      const problems = error instanceof DiagnosticsError ? error.diagnostics : [];
      const refused = problems.map((d) => formatDiagnostic(d, new Map()).split("\n")[0]);
      imported.set(name, { spec, gaps: [], refused: refused.join("\n") || String(error) });
    }
  }
  copyFileSync(join(classesDir, "checks.ts"), join(scratch, "checks.ts"));
  writeFileSync(join(scratch, "package.json"), JSON.stringify({ type: "module" }));
  // one copy of the packages' identical runtime, checked once (test/support/shared-runtime.ts)
  const made = classes.filter((name) => imported.get(name)!.refused === undefined);
  programOverSharedRuntime(
    scratch,
    made.map((name) => `${name}/pkg`),
    ["checks.ts"],
  );
}, 120_000);

/** The named types of a class's spec, every types file together. */
function typesOf(name: string): Record<string, unknown> {
  const files = Object.entries(imported.get(name)!.spec).filter(([path]) =>
    path.startsWith("types/"),
  );
  return Object.assign({}, ...files.map(([, data]) => data.types));
}

/** A class's gaps that came from `pointer`. */
const gapsAt = (name: string, pointer: string) =>
  imported.get(name)!.gaps.filter((gap) => gap.includes(`(import: ${pointer})`));

const compilers = {
  "TypeScript 6": typescript6,
  "TypeScript 7": typescript7,
};

// each fixture's package checked against its runtime's declarations by TypeScript 6
// (test/support/typescript.ts, CheckOptions), whole by TypeScript 7
const typeCheck = (compiler: string, project: string) =>
  typeCheckAsync(compiler, project, 110_000, { runtimeDeclarations: true });

describe("schema classes of real documents: import, generate, strict tsc", () => {
  it("has a fixture per class", () => {
    expect(classes.length).toBeGreaterThanOrEqual(10);
    expect([...imported.keys()]).toEqual(classes);
  });

  it.each(classes)("%s: generate accepts what import wrote", (name) => {
    expect(imported.get(name)!.refused).toBeUndefined();
  });

  for (const [compiler, bin] of Object.entries(compilers))
    it(`every package, and what its types mean (checks.ts), type-check strictly with ${compiler}`, async () => {
      const run = await typeCheck(bin, join(scratch, "tsconfig.json"));
      expect(run.output).toBe("");
      expect(run.status).toBe(0);
    }, 120_000);

  it("allOf of a $ref to a non-object and a description: the referenced type, described", () => {
    const thing = typesOf("allof-ref-not-object").Thing as { fields: Record<string, unknown> };
    expect(thing.fields).toEqual({
      name: { type: "BotName", description: "The bot's name.", required: true },
      status: { type: "Status", nullable: true, description: "Its status." },
      count: { type: "Count", description: "How many." },
      tags: { type: "Tags", description: "Its tags." },
      choice: { type: "Choice", nullable: true },
    });
  });

  it("allOf of a nullable object and fields: its fields copied, no extends", () => {
    expect(typesOf("allof-nullable-base").Cause).toEqual({
      fields: {
        error_code: { type: "string", required: true },
        error_message: "string",
        item_id: { type: "string", required: true },
      },
    });
  });

  it("allOf of a nullable string and { nullable: false }: a string", () => {
    const item = typesOf("allof-nullable-false").Item as { fields: Record<string, unknown> };
    expect(item.fields.sequence_id).toEqual({
      type: "string",
      description: "The latest event applied.",
    });
  });

  it("a bare $ref and a one-member allOf, extended: extends the object behind them", () => {
    const types = typesOf("allof-alias-base");
    expect(types.XBase).toBe("XCompact");
    expect(types.XFull).toEqual({ extends: "XCompact", fields: { name: "string" } });
    expect(types.MetadataFull).toEqual({
      extends: "MetadataBase",
      fields: { $canEdit: "boolean" },
    });
    expect(types.MetadataPlaced).toMatchObject({
      extends: "MetadataBase",
      fields: { $parent: { type: "string", required: true } },
    });
  });

  it("allOf of a $ref to a string enum and a description or the type again: the enum", () => {
    const storage = typesOf("allof-enum-description").Storage as { fields: unknown };
    expect(storage.fields).toEqual({
      type: { type: "StorageType", description: "A valid storage type." },
      backup: "StorageType",
    });
  });

  it("a discriminator without a mapping takes each variant's one-value enum or const as its tag", () => {
    const types = typesOf("discriminator-enum-tags");
    expect(types.Item).toEqual({
      discriminator: "type",
      union: { message: "InputMessage", function_call: "FunctionCall" },
    });
    // two variants of one tag: untagged, with the reason
    expect(types.Output).toMatchObject({ type: "InputMessage | OutputMessage" });
    expect(gapsAt("discriminator-enum-tags", "#/components/schemas/Output/discriminator")).toEqual([
      "types.Output: discriminator type kept as an untagged union: InputMessage and OutputMessage have one tag, message (import: #/components/schemas/Output/discriminator)",
    ]);
  });

  it("a discriminator mapping entry that names no schema tags nothing: left out, noted (Cohere's)", () => {
    // import refused the document before (import-ref-broken at the entry)
    expect(typesOf("discriminator-enum-tags").ParsePage).toMatchObject({
      discriminator: "type",
      union: { message: "InputMessage", function_call: "FunctionCall" },
    });
    expect(
      gapsAt(
        "discriminator-enum-tags",
        "#/components/schemas/ParsePage/discriminator/mapping/raw_generation",
      ),
    ).toEqual([
      "types.ParsePage: discriminator mapping raw_generation: #/components/schemas/RawGenerationVariant is no schema of the document; left out (import: #/components/schemas/ParsePage/discriminator/mapping/raw_generation)",
    ]);
  });

  it("a discriminator with a nullable variant stays an untagged union, noted", () => {
    const types = typesOf("tagged-nullable-variant");
    expect(types.ScheduleInterval).toMatchObject({
      type: "TimeDelta | CronExpression",
      nullable: true,
    });
    expect(
      gapsAt("tagged-nullable-variant", "#/components/schemas/ScheduleInterval/discriminator"),
    ).toHaveLength(1);
  });

  it("a default or example that is not a value of its type is left out, each with a gap at its pointer", () => {
    const member = typesOf("default-not-value").Member as { fields: Record<string, unknown> };
    for (const name of ["role", "plan", "email", "active", "count", "roles"]) {
      expect(member.fields[name]).not.toHaveProperty("default");
      expect(
        gapsAt("default-not-value", `#/components/schemas/Member/properties/${name}/default`),
      ).toHaveLength(1);
    }
    expect(member.fields.kept).toEqual({ enum: ["a", "b"], default: "b" });
    // a list's example that is one item (BKK's), an object's or a map's that is text
    // (ClearBlade's, GOV.UK Pay's), a list's default that is its items joined (SoundCloud's)
    for (const name of ["ts", "level", "agencies", "about", "params"]) {
      expect(member.fields[name]).not.toHaveProperty("example");
      expect(
        gapsAt("default-not-value", `#/components/schemas/Member/properties/${name}/example`),
      ).toEqual([expect.stringContaining("is not a value of the type: left out")]);
    }
    expect(member.fields.shown).toEqual({ type: "integer", example: 7 });
    expect(member.fields.access).not.toHaveProperty("default");
    expect(
      gapsAt("default-not-value", "#/components/schemas/Member/properties/access/default"),
    ).toHaveLength(1);
    // an object's example that is text (Microcks'), an array's that is an object
    const types = typesOf("default-not-value");
    expect(types.Secret).not.toHaveProperty("example");
    expect(types.Secrets).not.toHaveProperty("example");
    for (const name of ["Secret", "Secrets"])
      expect(gapsAt("default-not-value", `#/components/schemas/${name}/example`)).toHaveLength(1);
  });

  it("control characters are left out of descriptions and examples, noted", () => {
    const contact = typesOf("control-characters").Contact as {
      fields: Record<string, { description?: string; example?: unknown }>;
    };
    expect(contact.fields.city!.description).toBe("The city of the contact.");
    expect(contact.fields.city!.example).toBe("\u020e\t\u010dC");
    expect(contact.fields.tags!.example).toEqual(["a"]);
    const at = "#/components/schemas/Contact/properties";
    expect(gapsAt("control-characters", `${at}/city/description`)).toHaveLength(1);
    expect(gapsAt("control-characters", `${at}/city/example`)).toHaveLength(1);
    expect(gapsAt("control-characters", `${at}/tags/example`)).toHaveLength(1);
  });

  it("an enum's values outside its type are left out, and values of two types are their types' union, noted", () => {
    const sample = typesOf("enum-mixed-types").Sample as { fields: Record<string, unknown> };
    expect(sample.fields).toMatchObject({
      code: { enum: ["01", "03", "12"], required: true },
      level: { type: "integer | string", required: true },
    });
    const at = "#/components/schemas/Sample/properties";
    expect(gapsAt("enum-mixed-types", `${at}/code/enum`)).toEqual([
      expect.stringContaining("enum values not of its type string were left out: [9]"),
    ]);
    expect(gapsAt("enum-mixed-types", `${at}/level/enum`)).toEqual([
      expect.stringContaining('enum of values the format cannot list: [1,"high",2]'),
    ]);
    const query = "#/paths/~1samples/get/parameters/0/schema/items/enum";
    expect(gapsAt("enum-mixed-types", query)[0]).toContain("left out: [9,8]");
  });

  it("an open enum's known values are each listed once, those not of its type left out", () => {
    const types = typesOf("open-enum-values");
    expect(types.Column).toMatchObject({ enum: ["health", "uuid", "index", "rto"], open: true });
    expect((types.Row as { fields: Record<string, unknown> }).fields.level).toMatchObject({
      enum: [1, 2],
      open: true,
      nullable: true,
    });
    expect(
      gapsAt("open-enum-values", "#/components/schemas/Row/properties/level/anyOf/0/enum"),
    ).toEqual([
      expect.stringContaining('enum values not of its type integer were left out: ["three"]'),
    ]);
  });

  it("bounds no value fits (a minimum past its maximum, a minLength past its maxLength): both left out, noted", () => {
    const location = typesOf("bounds-conflict").SharedLocation as {
      fields: Record<string, unknown>;
    };
    expect(location.fields).toEqual({
      latitude: { type: "number", required: true, undocumented: expect.any(String) },
      longitude: { type: "number", minimum: -180, maximum: 180, required: true },
      code: { type: "string", pattern: "^[A-Z]+$", undocumented: expect.any(String) },
      share: { type: "number", undocumented: expect.any(String) },
    });
    const at = "#/components/schemas/SharedLocation/properties";
    expect(gapsAt("bounds-conflict", `${at}/latitude/minimum`)).toEqual([
      expect.stringContaining(
        "minimum 18446744073709552000 is more than maximum 90, so no value fits: both are left out",
      ),
    ]);
    expect(gapsAt("bounds-conflict", `${at}/code/minLength`)).toEqual([
      expect.stringContaining("minLength 8 is more than maxLength 4, so no value fits"),
    ]);
    expect(gapsAt("bounds-conflict", `${at}/share/exclusiveMinimum`)).toEqual([
      expect.stringContaining("exclusiveMinimum 5 is not less than maximum 3, so no value fits"),
    ]);
  });

  it("a query parameter of two types is read by the stand-in as whichever the text is", async () => {
    const endpoints = imported.get("enum-mixed-types")!.spec["endpoints/samples.yaml"]!
      .endpoints as Record<string, { params: Record<string, { type: string }> }>;
    expect(endpoints["samples.list"]!.params.delivered!.type).toBe("boolean | integer");
    const testing = (await import(
      pathToFileURL(join(scratch, "enum-mixed-types/pkg/src/testing.ts")).href
    )) as {
      createStandIn: (options: object) => { fetch(request: Request): Promise<Response> };
    };
    const standIn = testing.createStandIn({});
    const status = async (query: string) =>
      (await standIn.fetch(new Request(`http://stand-in.test/samples?${query}`))).status;
    expect([await status("delivered=true"), await status("delivered=1")]).toEqual([200, 200]);
    expect(await status("delivered=maybe")).toBe(400);
  });

  it("a union member that is a named binary schema is a string in JSON, noted; the schema stays binary", () => {
    const spec = imported.get("union-bytes-member")!.spec;
    const report = (spec["endpoints/api.yaml"]!.endpoints as Record<string, { response: unknown }>)[
      "api.getReport"
    ]!;
    expect(report.response).toMatchObject({ body: { type: "Report | string" } });
    expect(typesOf("union-bytes-member").ReportCsv).toMatchObject({ type: "binary" });
    const at = "#/paths/~1reports~1{id}/get/responses/200/content/application~1json/schema/oneOf/1";
    expect(gapsAt("union-bytes-member", at)).toEqual([
      expect.stringContaining("a union member of bytes: a string (bytes in JSON travel encoded)"),
    ]);
  });

  it("a pattern that is no string and a length that is no count are left out, noted", () => {
    const thumbnail = typesOf("facet-wrong-kind").Thumbnail as { fields: Record<string, object> };
    expect(thumbnail.fields.timecode).not.toHaveProperty("pattern");
    expect(thumbnail.fields.label).not.toHaveProperty("minLength");
    expect(thumbnail.fields.label).not.toHaveProperty("maxLength");
    expect(thumbnail.fields.code).toEqual({
      type: "string",
      pattern: "^[A-Z]+[0-9]*$",
      maxLength: 8,
    });
    const at = "#/components/schemas/Thumbnail/properties";
    expect(gapsAt("facet-wrong-kind", `${at}/timecode/pattern`)[0]).toContain(
      "pattern 0 is not a string: left out",
    );
    expect(gapsAt("facet-wrong-kind", `${at}/label/minLength`)[0]).toContain(
      "minLength -1 is not a count: left out",
    );
    expect(gapsAt("facet-wrong-kind", `${at}/label/maxLength`)[0]).toContain(
      'maxLength "12" is not a count: left out',
    );
    expect(thumbnail.fields.account).toMatchObject({ pattern: "^[a-z0-9._]+$" });
    expect(gapsAt("facet-wrong-kind", `${at}/account/pattern`)[0]).toContain(
      "pattern /^[a-z0-9._]+$/ is written as a regular expression literal: its source is kept",
    );
    // a literal that begins with a lookahead (Redocly's demo): no path begins so
    expect(thumbnail.fields.password).toMatchObject({
      pattern: "(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])",
    });
    expect(thumbnail.fields.route).toEqual({ type: "string", pattern: "/users/[0-9]+/" });
    expect(thumbnail.fields.global).toMatchObject({ pattern: "[0-9]{3}" });
    expect(gapsAt("facet-wrong-kind", `${at}/global/pattern`)[0]).toContain("without its flags g");
    expect(thumbnail.fields.postcode).toMatchObject({ pattern: "^[0-9]{5}$" });
    expect(gapsAt("facet-wrong-kind", `${at}/postcode/pattern`)[0]).toContain(
      "without its flags i",
    );
  });

  it("a pattern that would refuse values the API allows is left out, noted", () => {
    const fields = (typesOf("facet-wrong-kind").Thumbnail as { fields: Record<string, object> })
      .fields;
    const at = "#/components/schemas/Thumbnail/properties";
    // `i` matches "ABC"; the source alone would refuse it
    expect(fields.handle).toEqual({ type: "string", undocumented: expect.any(String) });
    expect(gapsAt("facet-wrong-kind", `${at}/handle/pattern`)[0]).toContain(
      "pattern /^[a-z]+$/i is a regular expression literal whose flag i changes what it matches, which a JSON Schema pattern cannot say: the pattern is left out",
    );
    expect(fields.magnet).toEqual({
      type: "string",
      format: "uri",
      undocumented: expect.any(String),
    });
    expect(gapsAt("facet-wrong-kind", `${at}/magnet/pattern`)[0]).toContain("flag i changes");
    expect(fields.named).not.toHaveProperty("pattern");
    expect(gapsAt("facet-wrong-kind", `${at}/named/pattern`)[0]).toContain(
      "pattern ^(?P<year>[0-9]{4})$ is not a JavaScript regular expression (Invalid group): the pattern is left out",
    );
    expect(fields.username).not.toHaveProperty("pattern");
    expect(gapsAt("facet-wrong-kind", `${at}/username/pattern`)[0]).toContain(
      "pattern ^[\\w.@+-]+\\z is not a JavaScript regular expression (\\z is an anchor of Python, Ruby and PCRE patterns, which JavaScript reads as the letter z): the pattern is left out",
    );
    // a backslash escaped itself: the letter z, as written
    expect(fields.escaped).toMatchObject({ pattern: "^a\\\\z$" });
    // Java's classes, which JavaScript would read as other characters (every real id refused)
    expect(fields.changeId).not.toHaveProperty("pattern");
    expect(gapsAt("facet-wrong-kind", `${at}/changeId/pattern`)[0]).toContain(
      "is not a JavaScript regular expression (\\p{XDigit} is a character class of Java's dialect, which JavaScript reads as the text p{XDigit}): the pattern is left out",
    );
    expect(fields.planName).not.toHaveProperty("pattern");
    expect(gapsAt("facet-wrong-kind", `${at}/planName/pattern`)[0]).toContain(
      "(\\p{Print} is a character class of Java's dialect",
    );
    expect(fields.letters).toMatchObject({ pattern: "^\\p{L}+$" });
    expect(fields.clientId).toMatchObject({ minLength: 32, maxLength: 32 });
    expect(fields.clientId).not.toHaveProperty("pattern");
    expect(gapsAt("facet-wrong-kind", `${at}/clientId/pattern`)[0]).toContain(
      "pattern ^[a-z0-9]$ matches strings of exactly 1 character, and minLength is 32: the pattern is left out",
    );
  });

  it("format binary inside a JSON body is a string, and int64 is noted, never dropped silently", () => {
    const upload = typesOf("json-binary-field").Upload as { fields: Record<string, unknown> };
    expect(upload.fields.file).toMatchObject({ type: "string", required: true });
    const at = "#/components/schemas/Upload/properties";
    expect(gapsAt("json-binary-field", `${at}/file/format`)).toHaveLength(1);
    expect(gapsAt("json-binary-field", `${at}/size/format`)[0]).toContain("format int64");
    expect(upload.fields.value).toMatchObject({ type: "string" });
    expect(gapsAt("json-binary-field", `${at}/value/contentMediaType`)).toEqual([
      expect.stringContaining(
        "contentMediaType application/octet-stream inside a JSON value: a string (bytes in JSON travel encoded",
      ),
    ]);
  });

  it("OpenAPI 3.2: a stream's itemSchema types its items, an example's dataValue is its value, QUERY is an endpoint, additionalOperations are noted", () => {
    const { endpoints } = imported.get("openapi-3-2")!.spec["endpoints/items.yaml"] as {
      endpoints: Record<string, { response: Record<string, unknown> }>;
    };
    expect(Object.keys(endpoints)).toEqual([
      "items.list",
      "items.search",
      "items.feed",
      "items.events",
      "items.ticks",
    ]);
    // HTTP QUERY, with its body: noted and left out before the format had the method
    expect(endpoints["items.search"]).toMatchObject({ method: "QUERY", path: "/items" });
    expect(endpoints["items.search"]).toHaveProperty("body");
    expect(endpoints["items.feed"]!.response).toMatchObject({
      contentType: "application/jsonl",
      body: "Item",
    });
    // a server-sent event's JSON data, by its contentSchema
    expect(endpoints["items.events"]!.response).toMatchObject({
      contentType: "text/event-stream",
      body: "Item",
    });
    expect(endpoints["items.ticks"]!.response).toMatchObject({ body: "string" });
    expect(
      gapsAt(
        "openapi-3-2",
        "#/paths/~1items~1ticks/get/responses/200/content/text~1event-stream/itemSchema",
      ),
    ).toHaveLength(1);
    expect(typesOf("openapi-3-2").Item).toMatchObject({ example: { id: "i-1", name: "Lamp" } });
    const { environments } = imported.get("openapi-3-2")!.spec["api.yaml"] as {
      environments: Record<string, unknown>;
    };
    expect(environments).toEqual({
      production: { description: "The live service.", baseUrl: "https://search.example.com" },
      sandbox: { baseUrl: "https://sandbox.search.example.com" },
    });
    expect(gapsAt("openapi-3-2", "#/paths/~1items~1feed/get/parameters/0")[0]).toContain(
      "parameter filter in: querystring, the whole query string as one value; left out",
    );
    expect(gapsAt("openapi-3-2", "#/paths/~1items/additionalOperations/LINK")[0]).toContain(
      "LINK /items",
    );
  });
});
