/**
 * The build-step case and the launcher: a run whose spec, generator and output are unchanged
 * stops after comparing hashes, and says exactly what a full run would; anything else that
 * changed sends it down the full pipeline. `npm run generate` starts from a bundle of the
 * sources that is rebuilt when a source changes.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, runCliFromSources, tempDir } from "./helpers.ts";

const stagesRan = (stderr: string) => /^load \+ schema /m.test(stderr);

describe("a run whose output is current", () => {
  let spec: string;
  let out: string;
  beforeAll(async () => {
    spec = join(tempDir(), "spec");
    cpSync(join(repoRoot, "test/fixtures/features/objects"), spec, { recursive: true });
    out = tempDir();
    const first = await runCli(["--spec", spec, "--out", out, "--timings"]);
    expect(first.status, first.stderr).toBe(0);
    expect(stagesRan(first.stderr)).toBe(true);
  });

  it("stops at the fingerprint and reports what a full run reports", async () => {
    const quick = await runCli(["--spec", spec, "--out", out, "--timings"]);
    const full = await runCli(["--spec", spec, "--out", out, "--timings", "--force"]);
    expect(quick.status).toBe(0);
    expect(stagesRan(quick.stderr)).toBe(false);
    expect(quick.stderr).toMatch(/^up-to-date check +\d+\.\d ms$/m);
    expect(stagesRan(full.stderr)).toBe(true);
    expect(quick.stdout).toBe(full.stdout);
    expect(quick.stdout).toMatch(/: 0 added, 0 changed, \d+ unchanged\n$/);
    const check = await runCli(["--spec", spec, "--out", out, "--check", "--timings"]);
    expect(check.status).toBe(0);
    expect(stagesRan(check.stderr)).toBe(false);
    expect(check.stdout).toMatch(/is up to date with the spec \(\d+ files\)/);
  });

  it("runs in full when a spec file changes, and records the new fingerprint", async () => {
    const types = join(spec, "api.yaml");
    const before = readFileSync(types, "utf8");
    writeFileSync(
      types,
      `${before}\n# a comment changes no output, but the spec is not the one recorded\n`,
    );
    try {
      const run = await runCli(["--spec", spec, "--out", out, "--timings"]);
      expect(run.status, run.stderr).toBe(0);
      expect(stagesRan(run.stderr)).toBe(true);
      expect(run.stdout).toMatch(/0 added, 1 changed/); // the manifest, with the new fingerprint
      expect(stagesRan((await runCli(["--spec", spec, "--out", out, "--timings"])).stderr)).toBe(
        false,
      );
    } finally {
      writeFileSync(types, before);
      await runCli(["--spec", spec, "--out", out]);
    }
  });

  it("runs in full when an output file was edited or removed, and repairs it", async () => {
    const file = join(out, "src/types.ts");
    const generated = readFileSync(file, "utf8");
    writeFileSync(file, `${generated}// edited by hand\n`);
    const check = await runCli(["--spec", spec, "--out", out, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/src\/types\.ts is out of date/);
    expect((await runCli(["--spec", spec, "--out", out])).stdout).toMatch(/0 added, 1 changed/);
    expect(readFileSync(file, "utf8")).toBe(generated);
    rmSync(file);
    expect((await runCli(["--spec", spec, "--out", out])).stdout).toMatch(/1 added, 0 changed/);
    expect(readFileSync(file, "utf8")).toBe(generated);
  });

  it("runs in full when the manifest records no fingerprint", async () => {
    const manifestPath = join(out, ".apigen-manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { inputs?: string };
    delete manifest.inputs;
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    const run = await runCli(["--spec", spec, "--out", out, "--timings"]);
    expect(stagesRan(run.stderr)).toBe(true);
    expect(run.stdout).toMatch(/0 added, 1 changed/);
  });
});

/** Runs `node <root>/generator/launch.mjs ...args` in `root`. */
function launch(root: string, args: string[]) {
  return spawnSync(process.execPath, [join(root, "generator/launch.mjs"), ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 120_000,
  });
}

describe("the launcher (npm run generate)", () => {
  it("runs the same command line as the sources", async () => {
    const out = tempDir();
    const bundled = launch(repoRoot, ["--spec", "test/fixtures/features/objects", "--out", out]);
    expect(bundled.status, bundled.stderr).toBe(0);
    expect(launch(repoRoot, ["--help"]).stdout).toBe((await runCliFromSources(["--help"])).stdout);
    const check = await runCliFromSources([
      "--spec",
      "test/fixtures/features/objects",
      "--out",
      out,
      "--check",
      "--force",
    ]);
    expect(check.status, check.stderr).toBe(0);
  });

  it("carries the fingerprint the sources compute: the build stops at it on output the sources wrote", async () => {
    const out = tempDir();
    const written = await runCliFromSources([
      "--spec",
      "test/fixtures/features/objects",
      "--out",
      out,
    ]);
    expect(written.status, written.stderr).toBe(0);
    const args = ["--spec", "test/fixtures/features/objects", "--out", out, "--check", "--timings"];
    const built = launch(repoRoot, args);
    expect(built.status, built.stderr).toBe(0);
    // a full run would time its stages; the shortcut times only its own check
    expect(built.stdout + built.stderr).not.toMatch(/^load \+ schema/m);
  });

  it("bundles again when a generator source changes, and reports a source that does not build", () => {
    // A copy of the generator beside the real node_modules, so its sources can be edited.
    const root = tempDir();
    for (const dir of ["generator", "templates"])
      cpSync(join(repoRoot, dir), join(root, dir), { recursive: true });
    cpSync(join(repoRoot, "package.json"), join(root, "package.json"));
    symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
    mkdirSync(join(root, "node_modules/.cache/apigen"), { recursive: true });
    const options = join(root, "generator/commands/command-line.ts");
    const source = readFileSync(options, "utf8");
    expect(launch(root, ["--help"]).stdout).toMatch(/^Usage: apigen \[command\]/);
    writeFileSync(
      options,
      source.replace("Usage: apigen [command]", "Usage (edited): apigen [command]"),
    );
    expect(launch(root, ["--help"]).stdout).toMatch(/^Usage \(edited\): apigen \[command\]/);
    writeFileSync(options, `${source}\nexport const broken = ;\n`);
    const broken = launch(root, ["--help"]);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(
      /^the generator's own sources do not build:\n.*generator\/commands\/command-line\.ts:\d+:\d+ - /,
    );
    expect(broken.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
