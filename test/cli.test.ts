/**
 * The command line as a user runs it: --gaps, --timings, --help and a bad flag; run in this
 * process against an io of its own (runCli), and as a process (launch.mjs, the sources).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { repoRoot, runCli, runCliProcess, tempDir } from "./helpers.ts";

describe("cli", () => {
  it("--gaps lists every undocumented note with its location, and writes nothing", async () => {
    const run = await runCli(["--gaps", "--out", tempDir()]);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    const notes = lines.filter((l) => /^spec\/[\w/.-]+\.yaml:\d+:\d+ {2}\S+: /.test(l));
    expect(notes.length).toBeGreaterThanOrEqual(28);
    expect(lines.at(-1)).toBe(`${notes.length} undocumented facts`);
    // by file, then line and column (the model keeps them in the order it noted them)
    const places = notes.map((l) => /^(\S+):(\d+):(\d+)/.exec(l)!.slice(1));
    const byPlace = [...places].sort(
      ([f1, l1, c1], [f2, l2, c2]) => f1!.localeCompare(f2!) || +l1! - +l2! || +c1! - +c2!,
    );
    expect(places).toEqual(byPlace);
    expect(new Set(places.map(([file]) => file)).size).toBeGreaterThan(2);
    expect(run.stdout).toMatch(
      /^spec\/endpoints\.yaml:\d+:\d+ {2}endpoints\.transactions\.authorize\.response: Response body not shown\.$/m,
    );
    expect(run.stdout).toMatch(
      /callbacks\.account\.login: Separator syntax between the four parameters not shown\./,
    );
  });

  it("--timings prints the time of every stage", async () => {
    const run = await runCli(["--out", tempDir(), "--timings"]);
    expect(run.status).toBe(0);
    for (const stage of ["load + schema", "resolve (IR)", "emit types", "emit client", "total"]) {
      expect(run.stderr).toMatch(
        new RegExp(`^${stage.replace(/[()+]/g, "\\$&")} +\\d+\\.\\d ms$`, "m"),
      );
    }
  });

  it("--help prints the usage", async () => {
    const run = await runCli(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ {2}check +write nothing/m);
  });

  it("an unknown flag is a usage error, not a stack trace", async () => {
    const run = await runCli(["--frobnicate"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it("--diff prints each change, who it breaks and the bump; --fail-on gates on it", async () => {
    const args = [
      "--diff",
      "test/fixtures/diff/base",
      "--spec",
      "test/fixtures/diff/response-field-removed",
    ];
    const run = await runCli(args);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^BREAKING for callers +types\.Order\.total: field removed \(callers read it\)$/m,
    );
    // the field's type goes from the package's surface too: its own line, under the spec's
    expect(run.stdout).toMatch(/^BREAKING [\w@/-]+ Order: a key consumers use by name is gone /m);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(
      /^semver: major \(spec: 1 breaking, 0 minor, 0 patch; TypeScript surface: [1-9]\d* breaking, /,
    );
    expect((await runCli([...args, "--fail-on", "breaking"])).status).toBe(1);
    const additive = [
      "--diff",
      "test/fixtures/diff/base",
      "--spec",
      "test/fixtures/diff/response-field-added",
    ];
    expect((await runCli([...additive, "--fail-on", "breaking"])).status).toBe(0);
    expect((await runCli([...additive, "--fail-on", "minor"])).status).toBe(1);
  }, 240_000); // four diff runs, each loading the TypeScript compiler for the package's surface

  it("--diff against a git revision of spec/ finds no change in a clean tree", async () => {
    const run = await runCli(["--diff", "HEAD"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("semver: none");
  });

  it("modes that cannot be combined are a usage error", async () => {
    const run = await runCli(["--check", "--watch"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^--check, --watch cannot be combined/);
  });

  it("--watch regenerates on a spec edit until interrupted", async () => {
    const spec = tempDir("apigen-cli-watch-");
    const out = tempDir("apigen-cli-watch-out-");
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), spec, { recursive: true });
    // a process (launch.mjs, the bundle): watch runs until the process is interrupted
    const child = spawn(
      process.execPath,
      [join(repoRoot, "generator/launch.mjs"), "--watch", "--spec", spec, "--out", out],
      { cwd: repoRoot },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const waitFor = async (pattern: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!pattern.test(stdout)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${stdout}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await waitFor(/\d+ added, 0 changed, 0 unchanged in \d+ ms/);
      const file = join(spec, "api.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          /^types:\n/m,
          "types:\n  Fresh:\n    fields:\n      id: string\n",
        ),
      );
      await waitFor(/0 added, [1-9]\d* changed, \d+ unchanged in \d+ ms/);
      expect(readFileSync(join(out, "src/types.ts"), "utf8")).toContain("export interface Fresh {");
    } finally {
      child.kill("SIGINT");
    }
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
  });
});

describe("the io of a run", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is the one main is given: paths from its working folder, colour from its environment, output on its streams, nothing of the process's", async () => {
    const dir = tempDir("apigen-cli-io-");
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), join(dir, "spec"), {
      recursive: true,
    });
    writeFileSync(join(dir, "package.json"), '{ "name": "io" }\n');
    const stdout = vi.spyOn(process.stdout, "write");
    const stderr = vi.spyOn(process.stderr, "write");
    const run = await runCli(["generate", "--out", "pkg"], dir, { FORCE_COLOR: "1" });
    expect(run.status, run.stderr).toBe(0);
    // the run's folder, not this process's (the repository): spec/ and pkg/ are the run's
    expect(run.stdout).toMatch(/^\u001b\[1mpkg\/\u001b\[22m: \u001b\[32m\d+ added/);
    expect(existsSync(join(dir, "pkg/src/types.ts"))).toBe(true);
    expect(existsSync(join(repoRoot, "pkg"))).toBe(false);
    expect(process.env.FORCE_COLOR).toBeUndefined();
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    // a diagnostic's path is shown from the run's folder too
    const api = join(dir, "spec/api.yaml");
    writeFileSync(
      api,
      readFileSync(api, "utf8").replace("title: Primitives", "title: [Primitives"),
    );
    const broken = await runCli(["check", "--out", "pkg"], dir);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^spec\/api\.yaml:\d+:\d+ - error /);
  });

  it("as a process (launch.mjs): the exit status the run gives, its output on the process's streams", async () => {
    // help, a usage error, and a check that fails (another spec against generated/, read only)
    const cases = [["--help"], ["--frobnicate"], ["check", "--spec", "test/fixtures/diff/base"]];
    const statuses: (number | null)[] = [];
    for (const args of cases) {
      const child = runCliProcess(args);
      expect(await runCli(args), args.join(" ")).toEqual(child);
      statuses.push(child.status);
    }
    expect(statuses).toEqual([0, 2, 1]);
  });
});
