/**
 * A command line that looks alive (issue 33 item 7): colour when a stream is a terminal, as
 * FORCE_COLOR and NO_COLOR say, on diagnostics, the summary lines and diff's marks; and a
 * progress line on long runs, on a terminal only, rewritten in place and cleared at the end.
 * The CLI runs here with its output piped, so the default is what a CI log gets: no escape
 * codes at all.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initNames, initSpecFiles } from "../generator/commands/init-spec.ts";
import { progressDelayMs, progressLine } from "../generator/commands/progress.ts";
import { colourOn } from "../generator/diagnostics/colours.ts";
import { repoRoot, runCli, tempDir } from "./helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = tempDir("apigen-terminal-");
  made.push(dir);
  return dir;
}

const escape = /\u001b\[/;
const red = (text: string) => `\u001b[31m${text}\u001b[39m`;
const yellow = (text: string) => `\u001b[33m${text}\u001b[39m`;
const green = (text: string) => `\u001b[32m${text}\u001b[39m`;

describe("colour", () => {
  it("is on for a terminal, unless NO_COLOR or TERM=dumb; FORCE_COLOR decides above both", () => {
    // given whether the stream is a terminal and the environment, want colour
    const table: [boolean, Record<string, string>, boolean][] = [
      [true, {}, true],
      [false, {}, false],
      [true, { NO_COLOR: "1" }, false],
      [true, { NO_COLOR: "" }, true], // set but empty: as if unset (no-color.org)
      [true, { TERM: "dumb" }, false],
      [false, { FORCE_COLOR: "1" }, true],
      [false, { FORCE_COLOR: "3" }, true],
      [false, { FORCE_COLOR: "true" }, true],
      [false, { FORCE_COLOR: "" }, false],
      [true, { FORCE_COLOR: "0" }, false],
      [true, { FORCE_COLOR: "false" }, false],
      [false, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
      [false, { FORCE_COLOR: "1", TERM: "dumb" }, true],
    ];
    for (const [terminal, env, want] of table)
      expect(colourOn(terminal, env), `${terminal} ${JSON.stringify(env)}`).toBe(want);
  });

  it("colours diagnostics and summaries under FORCE_COLOR, and nothing when piped or under NO_COLOR", async () => {
    const dir = scratch();
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), join(dir, "spec"), {
      recursive: true,
    });
    writeFileSync(join(dir, "package.json"), '{ "name": "shop" }\n');
    const args = ["--spec", "spec", "--out", "pkg"];
    const forced = await runCli(args, dir, { FORCE_COLOR: "1" });
    expect(forced.stdout).toBe(
      `\u001b[1mpkg/\u001b[22m: ${green(`${/(\d+) added/.exec(forced.stdout)![1]} added`)}, 0 changed, \u001b[90m0 unchanged\u001b[39m\n`,
    );
    expect((await runCli(["check", ...args], dir, { FORCE_COLOR: "1" })).stdout).toMatch(
      /^\u001b\[1mpkg\/\u001b\[22m is \u001b\[32mup to date\u001b\[39m with the spec/,
    );

    const types = join(dir, "spec/api.yaml");
    writeFileSync(
      types,
      readFileSync(types, "utf8").replace("title: Primitives", "title: [Primitives"),
    );
    const broken = await runCli(args, dir, { FORCE_COLOR: "1" });
    expect(broken.status).toBe(1);
    const [head, , , caret] = broken.stderr.split("\n");
    expect(head).toMatch(
      new RegExp(
        `^\\u001b\\[36mspec/api\\.yaml\\u001b\\[39m:\\u001b\\[33m\\d+\\u001b\\[39m:\\u001b\\[33m\\d+\\u001b\\[39m - ${red("error").replace(/\[/g, "\\[")} \\u001b\\[90m[a-z-]+\\u001b\\[39m: `,
      ),
    );
    expect(caret).toMatch(new RegExp(`${red("^").replace(/[[^]/g, "\\$&")}$`));
    expect(broken.stderr).toMatch(/\n\u001b\[31m\d+ errors?\u001b\[39m\n$/);

    // piped (the default here), NO_COLOR, FORCE_COLOR=0: the same run without one escape
    for (const env of [{}, { NO_COLOR: "1" }, { FORCE_COLOR: "0" }]) {
      const plain = await runCli(args, dir, env);
      expect(plain.stderr, JSON.stringify(env)).not.toMatch(escape);
      expect(plain.stderr.replace(/\n/g, "")).toBe(
        broken.stderr.replace(/\u001b\[\d+m/g, "").replace(/\n/g, ""),
      );
    }
    // a warning is yellow, its caret too
    const out = join(dir, "warned");
    const warned = await runCli(
      ["--spec", join(repoRoot, "test/fixtures/warnings/pattern-backtracking"), "--out", out],
      repoRoot,
      { FORCE_COLOR: "1" },
    );
    expect(warned.status, warned.stderr).toBe(0);
    expect(warned.stderr).toContain(
      ` - ${yellow("warning")} \u001b[90mpattern-backtracking\u001b[39m: `,
    );
    expect(warned.stderr).toContain(`| ${" ".repeat(13)}${yellow("^")}\n`);
    expect(warned.stderr).toMatch(
      new RegExp(`0 errors, ${yellow("1 warning").replace(/\[/g, "\\[")}\n$`),
    );
  });

  it("marks diff's breaking changes red and compatible ones green under FORCE_COLOR", async () => {
    const diff = [
      "diff",
      "test/fixtures/diff/base",
      "--spec",
      "test/fixtures/diff/response-field-removed",
    ];
    const added = "test/fixtures/diff/request-field-added-optional";
    // three read-only runs, each loading the TypeScript compiler for the surface: side by side
    const [forced, plain, minor] = await Promise.all([
      runCli(diff, repoRoot, { FORCE_COLOR: "1" }),
      runCli(diff, repoRoot),
      runCli(["diff", "test/fixtures/diff/base", "--spec", added], repoRoot, {
        FORCE_COLOR: "1",
      }),
    ]);
    expect(forced.stdout).toMatch(/^\u001b\[31m\u001b\[1mBREAKING\u001b\[22m\u001b\[39m for /m);
    expect(forced.stdout).toMatch(/^semver: \u001b\[31mmajor\u001b\[39m \(/m);
    expect(plain.stdout).not.toMatch(escape);
    expect(plain.stdout).toBe(forced.stdout.replace(/\u001b\[\d+m/g, ""));
    expect(minor.stdout).toMatch(/^\u001b\[32mminor\u001b\[39m {4}/m);
  });
});

/** A stream that records what is written, a terminal or not, and a clock the test moves. */
function fakeTerminal(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  return {
    stream: { isTTY, columns: 40, write: (text: string) => written.push(text) },
    written,
    clock: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("progress", () => {
  it("shows a stage only after the first second (or from the start when large), rewrites it in place, and clears it", () => {
    const t = fakeTerminal(true);
    const progress = progressLine(t.stream, {}, t.clock);
    progress.stage("read spec", 1, 3);
    t.advance(progressDelayMs - 1);
    progress.stage("load + schema", 2, 3);
    expect(t.written).toEqual([]);
    t.advance(1);
    progress.stage("emit a stage whose name is far too long for the terminal", 3, 3);
    progress.done();
    expect(t.written).toEqual([
      "\r\u001b[2Kapigen [3/3] emit a stage whose name i…",
      "\r\u001b[2K",
    ]);
    const large = fakeTerminal(true);
    const eager = progressLine(large.stream, {}, large.clock);
    eager.stage("resolve (IR)", 4, 9, true);
    eager.done();
    expect(large.written).toEqual(["\r\u001b[2Kapigen [4/9] resolve (IR)… 0.0 s", "\r\u001b[2K"]);
    // a quick run writes nothing at all, not even the clearing
    const quick = fakeTerminal(true);
    const none = progressLine(quick.stream, {}, quick.clock);
    none.stage("read spec", 1, 2);
    none.done();
    expect(quick.written).toEqual([]);
  });

  it("is never written into a pipe, a CI log or a dumb terminal, whatever FORCE_COLOR says; APIGEN_PROGRESS forces it either way", () => {
    // given a terminal or not and the environment, want progress
    const table: [boolean, Record<string, string>, boolean][] = [
      [true, {}, true],
      [false, {}, false],
      [false, { FORCE_COLOR: "1" }, false],
      [true, { CI: "true" }, false],
      [true, { TERM: "dumb" }, false],
      [false, { APIGEN_PROGRESS: "1" }, true],
      [true, { APIGEN_PROGRESS: "0" }, false],
    ];
    for (const [terminal, env, want] of table) {
      const t = fakeTerminal(terminal);
      const progress = progressLine(t.stream, env, t.clock);
      progress.stage("read spec", 1, 1, true);
      expect(t.written.length > 0, `${terminal} ${JSON.stringify(env)}`).toBe(want);
    }
  });

  it("on a large spec (1,000 endpoints): each stage in place on stderr, cleared at the end, the output untouched; nothing when piped", async () => {
    const dir = scratch();
    mkdirSync(join(dir, "spec"));
    const files = initSpecFiles(initNames("big-api"), "schema.json");
    for (const file of files) writeFileSync(join(dir, "spec", file.name), file.text);
    const endpoint = files.find((f) => f.name === "endpoints.yaml")!.text;
    const one = endpoint.slice(endpoint.indexOf("  items.get:"));
    // 1,000 operations make a spec large (pipeline.ts): the line shows from the start
    const endpoints = Array.from({ length: 1000 }, (_, i) =>
      one.replace("items.get", `items${i}.get`).replace("/items/", `/items${i}/`),
    );
    writeFileSync(join(dir, "spec/endpoints.yaml"), `endpoints:\n${endpoints.join("")}`);
    writeFileSync(join(dir, "package.json"), '{ "name": "big" }\n');

    const shown = await runCli(["generate"], dir, { APIGEN_PROGRESS: "1" });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^generated\/: \d+ added, 0 changed, 0 unchanged\n$/);
    const lines = shown.stderr.split("\r\u001b[2K").filter(Boolean);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line).toMatch(/^apigen (\[\d+\/\d+\] )?[^\n]+… \d+\.\d s$/);
    expect(lines).toContainEqual(expect.stringMatching(/^apigen \[\d+\/\d+\] emit client… /));
    expect(lines.at(-1)).toMatch(/^apigen write \d+ files to generated\/… /);
    expect(shown.stderr.endsWith("\r\u001b[2K")).toBe(true);
    expect(shown.stderr).not.toMatch(/\n/);

    // two read-only checks of the 1,000 endpoints, side by side
    const [piped, forcedCheck] = await Promise.all([
      runCli(["check"], dir, { FORCE_COLOR: "1" }),
      runCli(["check", "--force"], dir),
    ]);
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stderr).toBe("");
    expect(forcedCheck.stderr).toBe("");
  }, 240_000);

  it("on importing a large OpenAPI document (over a megabyte): from the start, cleared at the end", async () => {
    const dir = scratch();
    const operation = (i: number) => ({
      get: {
        operationId: `getItem${i}`,
        summary: `Get item ${i} of the catalogue, with every field the item has`,
        // a megabyte makes a document large (progress.ts largeInputBytes), not its operations
        description: `Item ${i}: ${"every field the item has, described at length. ".repeat(120)}`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "The item",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
          },
        },
      },
    });
    const document = {
      openapi: "3.1.0",
      info: { title: "Big", version: "1.0.0" },
      paths: Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [`/items${i}/{id}`, operation(i)]),
      ),
      components: {
        schemas: { Item: { type: "object", properties: { id: { type: "string" } } } },
      },
    };
    const text = JSON.stringify(document, null, 2);
    expect(text.length).toBeGreaterThan(1 << 20);
    writeFileSync(join(dir, "openapi.json"), text);
    const args = ["import", "openapi.json", "--out-spec", "spec"];
    const shown = await runCli(args, dir, { APIGEN_PROGRESS: "1" });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^spec: \d+ files, 200 endpoints/);
    expect(shown.stderr).toMatch(
      /^\r\u001b\[2Kapigen \[1\/2\] import openapi\.json… \d+\.\d s\r\u001b\[2Kapigen \[2\/2\] write \d+ spec files… \d+\.\d s\r\u001b\[2K$/,
    );
    rmSync(join(dir, "spec"), { recursive: true });
    const piped = await runCli(args, dir);
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stderr).toBe("");
  }, 240_000);
});
