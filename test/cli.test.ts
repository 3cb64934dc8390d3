/**
 * The command line as a user runs it: --gaps, --timings, --help and a bad flag.
 */
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.ts";

describe("cli", () => {
  it("--gaps lists every undocumented note with its location, and writes nothing", () => {
    const run = runCli(["--gaps", "--out", tempDir()]);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    const notes = lines.filter((l) => /^spec\/[\w/.-]+\.yaml:\d+:\d+ {2}\S+: /.test(l));
    expect(notes.length).toBeGreaterThanOrEqual(28);
    expect(lines.at(-1)).toBe(`${notes.length} undocumented facts`);
    expect(run.stdout).toMatch(/^spec\/endpoints\.yaml:\d+:\d+ {2}endpoints\.transactions\.authorize\.response: Response body not shown\.$/m);
    expect(run.stdout).toMatch(/callbacks\.account\.login: Separator syntax between the four parameters not shown\./);
  });

  it("--timings prints the time of every stage", () => {
    const run = runCli(["--check", "--timings"]);
    expect(run.status).toBe(0);
    for (const stage of ["load + schema", "resolve (IR)", "emit types", "format", "total"]) {
      expect(run.stderr).toMatch(new RegExp(`^${stage.replace(/[()+]/g, "\\$&")} +\\d+\\.\\d ms$`, "m"));
    }
  });

  it("--help prints the usage", () => {
    const run = runCli(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/--check +write nothing/);
  });

  it("an unknown flag is a usage error, not a stack trace", () => {
    const run = runCli(["--frobnicate"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
