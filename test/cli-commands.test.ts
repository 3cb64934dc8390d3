/**
 * The command line's subcommands (commands/table.ts): each command's help, the old flag
 * spellings running the same thing, usage errors, the project's config file and its
 * diagnostics, and `init` (a spec folder that generates cleanly, never overwriting a file).
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiKeys } from "../generator/commands/config.ts";
import { outputDefaults } from "../generator/emit/shared/outputs.ts";
import { commands } from "../generator/commands/table.ts";
import { everyOutput, repoRoot, runCli, tempDir } from "./helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh project folder with a package.json, removed after the tests. */
function project(pkg: object = { name: "shop", version: "1.0.0" }): string {
  const dir = tempDir("apigen-cli-commands-");
  made.push(dir);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  return dir;
}

describe("subcommands", () => {
  it("the overview lists every command of the table, and each command has its own help", async () => {
    const overview = await runCli(["--help"]);
    expect(overview.status).toBe(0);
    for (const command of commands) {
      expect(overview.stdout).toMatch(new RegExp(`^ {2}${command.name} +\\S`, "m"));
      const help = await runCli([command.name, "--help"]);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: apigen ${command.name}[ \\[]`));
      expect(help.stdout).toMatch(/^ {2}--spec DIR /m);
    }
    expect((await runCli(["diff", "--help"])).stdout).toMatch(
      /^Usage: apigen diff BASE \[options\]/,
    );
  });

  it("a subcommand runs what its old flag spelling runs", async () => {
    const out = tempDir();
    made.push(out);
    expect((await runCli(["gaps", "--out", out])).stdout).toBe(
      (await runCli(["--gaps", "--out", out])).stdout,
    );
    // the two diff runs read only, and each loads the TypeScript compiler for the package's
    // surface (seconds): side by side, not one after the other
    const diff = ["test/fixtures/diff/base", "--spec", "test/fixtures/diff/response-field-removed"];
    const [viaCommand, viaFlag] = await Promise.all([
      runCli(["diff", ...diff, "--fail-on", "breaking"]),
      runCli(["--diff", ...diff, "--fail-on", "breaking"]),
    ]);
    expect(viaCommand.stdout).toBe(viaFlag.stdout);
    expect([viaCommand.status, viaFlag.status]).toEqual([1, 1]);
    const spec = "test/fixtures/features/objects";
    expect((await runCli(["check", "--spec", spec, "--out", out])).status).toBe(1); // nothing written yet
    expect((await runCli(["generate", "--spec", spec, "--out", out])).status).toBe(0);
    const [check, checkViaFlag] = await Promise.all([
      runCli(["check", "--spec", spec, "--out", out]),
      runCli(["--check", "--spec", spec, "--out", out]),
    ]);
    expect(check.stdout).toBe(checkViaFlag.stdout);
    expect(check.stdout).toMatch(/is up to date with the spec/);
  }, 180_000);

  it("an unknown command, a missing argument and a stray one are usage errors that say the fix", async () => {
    const unknown = await runCli(["chek"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /^unknown command chek; did you mean check\?\n\nUsage: apigen \[command\]/,
    );
    const missing = await runCli(["diff"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^diff takes BASE\n\nUsage: apigen diff BASE/);
    const stray = await runCli(["check", "extra"]);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toMatch(/^check takes no arguments, not extra\n/);
    const flag = await runCli(["gaps", "--force"]);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/Unknown option '--force'/);
    expect(flag.stderr + unknown.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("the config file", () => {
  it("takes the keys its JSON Schema (for editors) lists, no more", () => {
    const schema = JSON.parse(
      readFileSync(join(repoRoot, "generator/schema/config.schema.json"), "utf8"),
    ) as {
      definitions: { api: { properties: object }; outputs: { properties: object } };
      oneOf: [{ properties: object }, unknown];
    };
    const keys = (o: object) => Object.keys(o).sort();
    expect(keys(schema.definitions.api.properties)).toEqual(keys(apiKeys));
    expect(keys(schema.oneOf[0].properties)).toEqual(keys({ ...apiKeys, $schema: "" }));
    expect(keys(schema.definitions.outputs.properties)).toEqual(keys(outputDefaults));
  });

  it("gives the spec and package folders, relative to the file, to every command run in the project; flags win", async () => {
    const dir = project();
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), join(dir, "api/spec"), {
      recursive: true,
    });
    writeFileSync(join(dir, "apigen.config.json"), '{ "spec": "api/spec", "out": "pkg" }\n');
    mkdirSync(join(dir, "src"));
    const run = await runCli(["generate"], join(dir, "src")); // found from a subfolder too
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\.\.\/pkg\/: \d+ added, 0 changed, 0 unchanged\n$/);
    expect(readFileSync(join(dir, "pkg/src/types.ts"), "utf8")).toMatch(
      /^\/\/ Generated by apigen from api\/spec\//,
    );
    expect((await runCli(["check"], dir)).status).toBe(0);
    expect((await runCli(["generate", "--out", "other"], dir)).status).toBe(0);
    expect(existsSync(join(dir, "other/package.json"))).toBe(true);
    const elsewhere = join(dir, "elsewhere.json");
    writeFileSync(elsewhere, '{ "spec": "api/spec", "out": "third" }\n');
    expect((await runCli(["generate", "--config", "elsewhere.json"], dir)).status).toBe(0);
    expect(existsSync(join(dir, "third/package.json"))).toBe(true);
  });

  it("reports each problem at file:line:col through the catalogue, writes nothing, and shows no stack", async () => {
    const dir = project();
    const config = join(dir, "apigen.config.json");
    writeFileSync(config, '{\n  "spec": "spec",\n  "sepc": "x",\n  "out": 3\n}\n');
    const run = await runCli(["generate"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^apigen\.config\.json:3:3 - error config-unknown-key: unknown key sepc in the config file; did you mean spec\?\n.*\n> 3 \| {3}"sepc": "x",\n/,
    );
    expect(run.stderr).toMatch(
      /^apigen\.config\.json:4:10 - error config-wrong-value: out must be a folder path \(the package folder, relative to this file\), not 3$/m,
    );
    expect(existsSync(join(dir, "generated"))).toBe(false);
    // a trailing comma and a comment at their own place, in words of our own (issue 30 item 14)
    writeFileSync(config, '{\n  "spec": "spec",\n}\n');
    const syntax = await runCli(["check"], dir);
    expect(syntax.status).toBe(1);
    expect(syntax.stderr).toBe(
      [
        "apigen.config.json:2:17 - error config-syntax: the config file is not JSON: a comma before } is not JSON; remove it",
        "  1 | {",
        '> 2 |   "spec": "spec",',
        "    |                 ^",
        "",
        "1 error",
        "",
      ].join("\n"),
    );
    writeFileSync(config, '{\n  "spec": "spec", // the spec folder\n  "out": "pkg"\n}\n');
    const comment = await runCli(["check"], dir);
    expect(comment.status).toBe(1);
    expect(comment.stderr).toMatch(
      /^apigen\.config\.json:2:19 - error config-syntax: the config file is not JSON: comments are not JSON; remove this one\n/,
    );
    expect(syntax.stderr + comment.stderr).not.toMatch(/Unexpected token|position \d|SyntaxError/);
    writeFileSync(config, '"spec"\n');
    expect((await runCli(["gaps"], dir)).stderr).toMatch(
      /^apigen\.config\.json:1:1 - error config-not-object: apigen\.config\.json must hold an API, an object such as \{ "spec": "spec", "out": "generated" \}, or an array of them, not spec\n/,
    );
    writeFileSync(config, '[\n  "spec"\n]\n');
    expect((await runCli(["gaps"], dir)).stderr).toMatch(
      /^apigen\.config\.json:2:3 - error config-api-not-object: /,
    );
    const missing = await runCli(["generate", "--config", "nope.json"], dir);
    expect(missing.stderr).toMatch(
      /^error config-unreadable: cannot read the config file nope\.json: it does not exist\n/,
    );
    for (const r of [run, syntax, missing]) expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
  });

  it("reads apigen.config.ts as it reads the JSON file, and refuses two config files in one folder rather than pass one over (issue 33 item 6)", async () => {
    const dir = project();
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), join(dir, "spec"), {
      recursive: true,
    });
    writeFileSync(
      join(dir, "apigen.config.ts"),
      'const out: string = "pkg";\nexport default { spec: "spec", out };\n',
    );
    const alone = await runCli(["generate"], join(dir, "spec")); // found from a subfolder too
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/^\.\.\/pkg\/: \d+ added, 0 changed, 0 unchanged\n$/);
    expect(existsSync(join(dir, "pkg/package.json"))).toBe(true);
    expect(existsSync(join(dir, "generated"))).toBe(false);

    writeFileSync(join(dir, "apigen.config.json"), '{ "out": "other" }\n');
    const both = await runCli(["generate"], dir);
    expect(both.status).toBe(1);
    expect(both.stderr).toBe(
      "error config-several: apigen.config.ts, apigen.config.json are each a config file; apigen reads one: remove the others, or name one with --config FILE\n\n1 error\n",
    );
    expect(existsSync(join(dir, "other"))).toBe(false);
    const named = await runCli(["generate", "--config", "apigen.config.json"], dir);
    expect(named.status, named.stderr).toBe(0);
    expect(existsSync(join(dir, "other/package.json"))).toBe(true);
  });

  it("refuses a config file that is a FIFO without waiting on it", async () => {
    const dir = project();
    execFileSync("mkfifo", [join(dir, "apigen.config.json")]);
    const run = await runCli(["check"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^error config-unreadable: cannot read the config file apigen\.config\.json: it is not a regular file/,
    );
  });
});

describe("init", () => {
  it("writes a spec folder that generates without a warning, and a generate script; never overwrites", async () => {
    const dir = project({ name: "shop", version: "1.0.0", scripts: { test: "vitest" } });
    const run = await runCli(["init"], dir);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^spec\/: api\.yaml, types\.yaml, endpoints\.yaml, callbacks\.yaml \(shop-api\)$/m,
    );
    const api = readFileSync(join(dir, "spec/api.yaml"), "utf8");
    const schema = /^# yaml-language-server: \$schema=(\S+)\n/.exec(api)?.[1];
    expect(resolve(join(dir, "spec"), schema!)).toBe(
      join(repoRoot, "generator/schema/spec.schema.json"),
    );
    expect(api).toMatch(/^ {2}clientName: ShopClient$/m);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      scripts: object;
      version: string;
    };
    expect(pkg.scripts).toEqual({ test: "vitest", generate: "apigen generate" });
    expect(pkg.version).toBe("1.0.0");

    const generate = await runCli(["generate"], dir);
    expect(generate.status, generate.stderr).toBe(0);
    expect(generate.stderr).toBe("");
    expect(readFileSync(join(dir, "generated/src/client.ts"), "utf8")).toContain(
      "export class ShopClient",
    );
    expect(readFileSync(join(dir, "generated/src/callbacks.ts"), "utf8")).toContain(
      '"item.changed"',
    );
    expect((await runCli(["check"], dir)).status).toBe(0);

    const again = await runCli(["init"], dir);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^spec\/ already holds spec files: init never overwrites a file/);
    expect(readFileSync(join(dir, "spec/api.yaml"), "utf8")).toBe(api);
  });

  it("records other folders in a config file, keeps a generate script it finds, and checks --name", async () => {
    const dir = project({ name: "@acme/store", scripts: { generate: "make gen" } });
    const run = await runCli(["init", "--spec", "apis/store", "--out", "packages/store-api"], dir);
    expect(run.status, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, "apigen.config.json"), "utf8")) as {
      $schema: string;
    };
    expect(config).toEqual({
      $schema: expect.stringMatching(/^\.\.?\//),
      spec: "apis/store",
      out: "packages/store-api",
    });
    expect(resolve(dir, config.$schema)).toBe(
      join(repoRoot, "generator/schema/config.schema.json"),
    );
    expect(run.stdout).toMatch(
      /package\.json: has a generate script already \("make gen"\); left as it is/,
    );
    expect(readFileSync(join(dir, "apis/store/api.yaml"), "utf8")).toMatch(
      /^ {2}name: "@acme\/store-api"$/m,
    );
    expect((await runCli(["generate"], dir)).status).toBe(0);
    expect(existsSync(join(dir, "packages/store-api/package.json"))).toBe(true);
    const bad = await runCli(["init", "--spec", "x", "--name", "Not A Name"], project());
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--name Not A Name is not an npm package name/);
  });
});

describe("a spec folder anywhere on disk", () => {
  it("gives generated/'s bytes, its banners naming the folder within its project", async () => {
    const outside = project({ name: "elsewhere" });
    cpSync(join(repoRoot, "spec"), join(outside, "spec"), { recursive: true });
    // generated/ has the opt-in outputs on too (apigen.config.ts); the flags below pick the folders
    writeFileSync(
      join(outside, "apigen.config.json"),
      '{ "outputs": { "tanstackQuery": true } }\n',
    );
    const work = join(outside, "some/other/folder");
    mkdirSync(work, { recursive: true });
    // every output on, as the repository's apigen.config.ts has it for generated/
    writeFileSync(join(outside, "apigen.config.json"), JSON.stringify({ outputs: everyOutput }));
    const run = await runCli(
      ["generate", "--spec", "../../../spec", "--out", "../../../pkg"],
      work,
    );
    expect(run.status, run.stderr).toBe(0);
    const files = readdirSync(join(repoRoot, "generated"), { recursive: true, withFileTypes: true })
      .filter(
        (e) =>
          e.isFile() && !relative(join(repoRoot, "generated"), e.parentPath).startsWith("dist"),
      )
      .map((e) => relative(join(repoRoot, "generated"), join(e.parentPath, e.name)));
    expect(files.length).toBeGreaterThan(30);
    for (const file of files)
      expect(readFileSync(join(outside, "pkg", file), "utf8"), file).toBe(
        readFileSync(join(repoRoot, "generated", file), "utf8"),
      );
    expect(readFileSync(join(outside, "pkg/src/types.ts"), "utf8")).toMatch(
      /^\/\/ Generated by apigen from spec\/ \(Merchant Commerce API /,
    );
  });
});
