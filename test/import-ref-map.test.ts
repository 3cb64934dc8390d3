/**
 * Remote `$ref`s read from local copies (the config's `refMap`, `--ref-map URL=PATH`): the
 * importer reads no network on a document's say, so a `$ref` by URL is read from the copy a
 * URL prefix maps it to, or refused (`import-ref-remote`). OGC's and GA4GH's documents refer
 * to their standards' shared files by `https://` (docs/openapi-documents.md, session 26):
 * these are their shapes in small. A copy is in reach as the document's folder is: the rest
 * of the URL names a file inside it (`..` refused), its relative `$ref`s resolve among its
 * files, a symbolic link out of it is refused. A document fetched from a URL (a server on
 * 127.0.0.1) resolves its relative `$ref`s against its URL and reads them from the copies too:
 * the server sees the one request for the document.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli, tempDir } from "./helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const schemas = "https://schemas.example.org/v1/";

/** A document whose one response body is `schema` (a flow mapping). */
const documentWith = (schema: string) =>
  `openapi: 3.0.3\ninfo: { title: Shop, version: '1' }\npaths:\n  /things/{id}:\n    get:\n      operationId: getThing\n      parameters:\n        - { name: id, in: path, required: true, schema: { type: string } }\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: ${schema}\n`;

/**
 * A project: `api/doc.yaml` referring to `ref`, and `vendor/v1/`, the local copy of the
 * standard's schemas (`common.yaml`'s Thing refers to `parts/part.yaml` beside it), with
 * `files` written over them (paths relative to the project).
 */
function project(ref: string, files: Record<string, string> = {}) {
  const dir = tempDir("apigen-ref-map-");
  made.push(dir);
  const all = {
    "api/doc.yaml": documentWith(`{ $ref: '${ref}' }`),
    "vendor/v1/common.yaml":
      "Thing:\n  type: object\n  required: [id]\n  properties:\n    id: { type: string }\n    part: { $ref: 'parts/part.yaml#/Part' }\n",
    "vendor/v1/parts/part.yaml":
      "Part:\n  type: object\n  properties:\n    sku: { type: string }\n",
    "secret.yaml": "Secret:\n  type: object\n  description: CANARY-ref-map\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The types of the spec folder an import wrote (its `types/` files), by name. */
function typesOf(spec: string): Record<string, { fields?: Record<string, unknown> }> {
  const files = readdirSync(join(spec, "types")).map((name) => join(spec, "types", name));
  return Object.assign(
    {},
    ...files.map((file) => (parse(readFileSync(file, "utf8")) as { types: object }).types),
  );
}

describe("a remote $ref is read from the copy refMap names", () => {
  it("refuses it with no copy mapped, reading nothing, and says what to do", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    const run = await runCli(["import", "api/doc.yaml", "--out-spec", "spec"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `api/doc.yaml:14:23 - error import-ref-remote: $ref ${schemas}common.yaml#/Thing is remote, and the importer reads no network: save a copy of what it names and map the URL to it with refMap in the config (or --ref-map URL=PATH)`,
    );
    expect(existsSync(join(dir, "spec"))).toBe(false);
  });

  it("imports through a folder's copy (--ref-map), its own relative $refs among its files", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    const run = await runCli(
      ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", `${schemas}=vendor/v1`],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const types = typesOf(join(dir, "spec"));
    expect(Object.keys(types.Thing!.fields!)).toEqual(["id", "part"]);
    expect(Object.keys(types.Part!.fields!)).toEqual(["sku"]);
  });

  it("takes the config's refMap on the live route, and the up-to-date check hashes the copies", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    writeFileSync(
      join(dir, "apigen.config.json"),
      JSON.stringify({ spec: "api/doc.yaml", out: "pkg", refMap: { [schemas]: "vendor/v1/" } }),
    );
    const first = await runCli(["generate"], dir);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(readFileSync(join(dir, "pkg/src/types.ts"), "utf8")).toMatch(
      /export interface Thing \{\n {2}id: string;\n {2}part\?: Part;\n\}/,
    );
    const manifest = JSON.parse(readFileSync(join(dir, "pkg/.apigen-manifest.json"), "utf8"));
    expect(manifest.documentFiles).toEqual([
      "../vendor/v1/common.yaml",
      "../vendor/v1/parts/part.yaml",
      "doc.yaml",
    ]);
    expect((await runCli(["check"], dir)).stdout).toMatch(/is up to date/);
    // a field added in the copy's second file is a change of the package
    writeFileSync(
      join(dir, "vendor/v1/parts/part.yaml"),
      "Part:\n  type: object\n  properties:\n    sku: { type: string }\n    size: { type: integer }\n",
    );
    const check = await runCli(["check"], dir);
    expect(check.status).toBe(1);
    expect((await runCli(["generate"], dir)).status).toBe(0);
    expect(readFileSync(join(dir, "pkg/src/types.ts"), "utf8")).toMatch(/ {2}size\?: number;/);
  });

  it("is read by diff as by every build: the config's copies and overlays, on both sides", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    // the base: the same document before a field of the copy's Thing was required
    writeFileSync(
      join(dir, "api/doc-v1.yaml"),
      documentWith(`{ $ref: '${schemas}common.yaml#/Thing' }`),
    );
    writeFileSync(
      join(dir, "overlay.yaml"),
      "overlay: 1.0.0\ninfo: { title: names, version: 1.0.0 }\nactions:\n  - target: $.paths['/things/{id}'].get\n    update: { summary: Get a thing }\n",
    );
    writeFileSync(
      join(dir, "apigen.config.json"),
      JSON.stringify({
        spec: "api/doc.yaml",
        out: "pkg",
        refMap: { [schemas]: "vendor/v1/" },
        overlays: ["overlay.yaml"],
      }),
    );
    expect((await runCli(["generate"], dir)).status).toBe(0);
    const same = await runCli(["diff", "api/doc-v1.yaml"], dir);
    expect(same.stderr).toBe("");
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^semver: none/m);
    // the document's own change is seen, read with the same copy and overlay: a required
    // query parameter added breaks callers
    writeFileSync(
      join(dir, "api/doc.yaml"),
      documentWith(`{ $ref: '${schemas}common.yaml#/Thing' }`).replace(
        "      responses:",
        "        - { name: q, in: query, required: true, schema: { type: string } }\n      responses:",
      ),
    );
    const changed = await runCli(["diff", "api/doc-v1.yaml"], dir);
    expect(changed.stderr).toBe("");
    expect(changed.stdout).toMatch(/^BREAKING .*\bq\b/m);
    expect(changed.stdout).toMatch(/^semver: major/m);
  });

  it("maps a whole file's URL to a file", async () => {
    const dir = project("https://example.org/service-info.yaml#/Thing", {
      "vendor/service-info.yaml":
        "Thing:\n  type: object\n  properties:\n    name: { type: string }\n",
    });
    const map = "https://example.org/service-info.yaml=vendor/service-info.yaml";
    const run = await runCli(
      ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", map],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(Object.keys(typesOf(join(dir, "spec")).Thing!.fields!)).toEqual(["name"]);
  });

  it("uses the longest prefix that maps the URL", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`, {
      "other/common.yaml": "Thing:\n  type: object\n  properties:\n    other: { type: string }\n",
    });
    const run = await runCli(
      [
        "import",
        "api/doc.yaml",
        "--out-spec",
        "spec",
        "--ref-map",
        "https://schemas.example.org/=other",
        "--ref-map",
        `${schemas}=vendor/v1/`,
      ],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(Object.keys(typesOf(join(dir, "spec")).Thing!.fields!)).toEqual(["id", "part"]);
  });
});

describe("a copy is in reach as the document's folder is", () => {
  const refused = async (ref: string, files: Record<string, string> = {}) => {
    const dir = project(ref, files);
    const run = await runCli(
      ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", `${schemas}=vendor/v1/`],
      dir,
    );
    expect(run.status).toBe(1);
    expect(run.stderr + run.stdout).not.toContain("CANARY");
    expect(run.stderr).not.toContain(dir); // no absolute path
    expect(existsSync(join(dir, "spec"))).toBe(false);
    return run.stderr;
  };

  it("refuses a URL whose rest leads out of the copy, written or percent-encoded", async () => {
    for (const rest of ["../../secret.yaml", "%2e%2e/%2e%2e/secret.yaml"])
      expect(await refused(`${schemas}${rest}#/Secret`)).toContain(
        `error import-ref-outside: $ref ${schemas}${rest}#/Secret leads outside the copy refMap names for ${schemas}`,
      );
  });

  it("refuses a relative $ref of a copy that leads out of every folder in reach", async () => {
    const stderr = await refused(`${schemas}common.yaml#/Thing`, {
      "vendor/v1/common.yaml": "Thing:\n  $ref: '../../secret.yaml#/Secret'\n",
    });
    expect(stderr).toMatch(
      /vendor\/v1\/common\.yaml:2:3 - error import-ref-outside: \$ref \.\.\/\.\.\/secret\.yaml#\/Secret leads outside the document's folder and the copies refMap names/,
    );
  });

  it.skipIf(process.platform === "win32")(
    "refuses a symbolic link in the copy that leads out of it",
    async () => {
      const dir = project(`${schemas}link.yaml#/Secret`);
      symlinkSync(join(dir, "secret.yaml"), join(dir, "vendor/v1/link.yaml"));
      const run = await runCli(
        ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", `${schemas}=vendor/v1/`],
        dir,
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("through a symbolic link");
      expect(run.stderr).not.toContain("CANARY");
    },
  );

  it("refuses a map it cannot use, naming the entry", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    const cases: [string, RegExp][] = [
      [
        `${schemas}=vendor/v2/`,
        /error import-ref-map-invalid: refMap https:\/\/schemas\.example\.org\/v1\/ -> vendor\/v2 cannot map remote \$refs: it does not exist/,
      ],
      [
        "https://schemas.example.org/v1=vendor/v1",
        /error import-ref-map-invalid: refMap https:\/\/schemas\.example\.org\/v1 -> vendor\/v1 cannot map remote \$refs: a folder's URL prefix ends with \//,
      ],
    ];
    for (const [map, message] of cases) {
      const run = await runCli(
        ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", map],
        dir,
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    const usage = await runCli(
      ["import", "api/doc.yaml", "--out-spec", "spec", "--ref-map", "vendor/v1"],
      dir,
    );
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain(
      '--ref-map takes URL=PATH (an http:// or https:// URL prefix, the local copy\'s path), not "vendor/v1"',
    );
  });

  it("locates a config's refMap entry that is not a URL", async () => {
    const dir = project(`${schemas}common.yaml#/Thing`);
    writeFileSync(
      join(dir, "apigen.config.json"),
      `{\n  "spec": "api/doc.yaml",\n  "refMap": {\n    "schemas.example.org/v1/": "vendor/v1/"\n  }\n}\n`,
    );
    const run = await runCli(["generate"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^apigen\.config\.json:4:5 - error config-wrong-value: .*refMap\["schemas\.example\.org\/v1\/"\].*an http:\/\/ or https:\/\/ URL/m,
    );
  });
});

describe("a document fetched from a URL reads its relative $refs from the copies", () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      const ok = req.url === "/api/openapi.yaml";
      res.writeHead(ok ? 200 : 404, { "content-type": "application/yaml" });
      res.end(ok ? documentWith("{ $ref: 'schemas/common.yaml#/Thing' }") : "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("generates from the copy of the document's folder, fetching the document alone", async () => {
    const dir = project("unused");
    const spec = `${base}/api/openapi.yaml`;
    const refused = await runCli(["generate", "--spec", spec, "--out", "pkg"], dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "error import-ref-remote: $ref schemas/common.yaml#/Thing is remote",
    );
    const run = await runCli(
      ["generate", "--spec", spec, "--out", "pkg", "--ref-map", `${base}/api/schemas/=vendor/v1/`],
      dir,
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(join(dir, "pkg/src/types.ts"), "utf8")).toMatch(/export interface Part \{/);
    expect(requests).toEqual(["/api/openapi.yaml", "/api/openapi.yaml"]);
  });
});
