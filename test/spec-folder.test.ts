/**
 * The spec folder as the loader lists it, and the up-to-date check that must agree with it:
 * symbolic links followed (an edit to a linked file's target is an edit), FIFOs never opened,
 * link loops and dangling links reported at the file, and a pending write never mistaken for
 * current output.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiagnosticBag, DiagnosticsError } from "../generator/diagnostics/diagnostic.ts";
import { specLabel } from "../generator/diagnostics/display-path.ts";
import { formatDiagnostic } from "../generator/diagnostics/format.ts";
import { loadSpec } from "../generator/load/load-spec.ts";
import { readSpecFolder } from "../generator/load/spec-folder.ts";
import { runPipeline } from "../generator/pipeline.ts";
import { currentOutputFiles, inputsFingerprint } from "../generator/write/inputs.ts";
import { stagingName } from "../generator/write/staging.ts";
import { planOutput, writeOutput } from "../generator/write/writer.ts";
import { repoRoot, runCli, runCliProcess, tempDir } from "./helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the `primitives` feature fixture in a fresh folder, with the folder it sits in. */
function specCopy(): { root: string; spec: string } {
  const root = tempDir("apigen-spec-folder-");
  made.push(root);
  const spec = join(root, "spec");
  cpSync(join(repoRoot, "test/fixtures/features/primitives"), spec, { recursive: true });
  return { root, spec };
}

/** The diagnostics of loading `spec`, as printed (paths relative to the working folder). */
function loadProblems(spec: string): string[] {
  const bag = new DiagnosticBag();
  try {
    loadSpec(spec, bag);
  } catch (error) {
    if (!(error instanceof DiagnosticsError)) throw error;
  }
  return bag.items.map((d) => formatDiagnostic(d, new Map()).replace(/^.*?\/spec\//, "spec/"));
}

/** Generates `spec` into `out` in-process, as `npm run generate` would write it. */
async function generate(spec: string, out: string): Promise<void> {
  const result = await runPipeline({ specDir: spec, outDir: out });
  writeOutput(out, result.files, result.plan);
}

describe("the spec folder", () => {
  it("follows a symbolic link to a spec file, and an edit of its target makes the output stale", async () => {
    const { root, spec } = specCopy();
    const shared = join(root, "shared.yaml");
    writeFileSync(shared, "types:\n  Shared:\n    fields:\n      id: string\n");
    symlinkSync(shared, join(spec, "shared.yaml"));
    const out = join(root, "out");
    await generate(spec, out);
    expect(readFileSync(join(out, "src/types.ts"), "utf8")).toContain("export interface Shared {");
    const label = specLabel(spec);
    const result = await runPipeline({ specDir: spec, outDir: out });
    expect(result.plan.changed).toEqual([]);

    writeFileSync(shared, "types:\n  Shared:\n    fields:\n      id: string\n      name: string\n");
    expect(currentOutputFiles(spec, out, label)).toBeUndefined();
    const again = await runPipeline({ specDir: spec, outDir: out });
    expect(again.plan.changed).toContain("src/types.ts");
  });

  it("reads a FIFO named like a spec file as a problem at that file, without waiting on it", async () => {
    const { spec } = specCopy();
    execFileSync("mkfifo", [join(spec, "pipe.yaml")]);
    expect(loadProblems(spec)).toEqual([
      "spec/pipe.yaml:1:1 - error spec-file-unreadable: cannot read this spec file: it is not a regular file (a FIFO, socket or device)",
    ]);
    // The whole command, --force included, ends with the diagnostic instead of hanging.
    const run = await runCli(["--spec", spec, "--out", join(spec, "..", "out"), "--force"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("pipe.yaml:1:1 - error spec-file-unreadable");
    expect(run.stderr).not.toMatch(/internal error|^\s+at /m);
  });

  it("reports a symbolic link loop and a link to nothing at the link, never an internal error", async () => {
    const { spec } = specCopy();
    symlinkSync("b.yaml", join(spec, "a.yaml"));
    symlinkSync("a.yaml", join(spec, "b.yaml"));
    symlinkSync("missing.yaml", join(spec, "gone.yaml"));
    mkdirSync(join(spec, "nested"));
    symlinkSync("..", join(spec, "nested", "up"));
    expect(loadProblems(spec)).toEqual([
      "spec/a.yaml:1:1 - error spec-file-unreadable: cannot read this spec file: its symbolic links form a loop",
      "spec/b.yaml:1:1 - error spec-file-unreadable: cannot read this spec file: its symbolic links form a loop",
      "spec/gone.yaml:1:1 - error spec-file-unreadable: cannot read this spec file: it does not exist (a symbolic link to nothing?)",
      "spec/nested/up:1:1 - error spec-file-unreadable: cannot read this spec file: a symbolic link leads back to a folder that contains it",
    ]);
    const run = await runCli(["--spec", spec, "--out", join(spec, "..", "out")]);
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/internal error|ELOOP|^\s+at /m);
  });

  // Permissions do not stop root, so this case runs only as another user (CI runners are not root).
  it.skipIf(process.getuid?.() === 0 || process.platform === "win32")(
    "names a spec file it may not read, without its absolute path",
    () => {
      const { spec } = specCopy();
      writeFileSync(join(spec, "secret.yaml"), "types: {}\n");
      chmodSync(join(spec, "secret.yaml"), 0o000);
      expect(loadProblems(spec)).toEqual([
        "spec/secret.yaml:1:1 - error spec-file-unreadable: cannot read this spec file: permission denied",
      ]);
    },
  );

  it("lists the same files for the loader and the up-to-date check, linked folders included", () => {
    const { root, spec } = specCopy();
    mkdirSync(join(root, "more"));
    writeFileSync(
      join(root, "more", "extra.yaml"),
      "types:\n  Extra:\n    fields:\n      id: string\n",
    );
    symlinkSync(join(root, "more"), join(spec, "more"));
    const listed = readSpecFolder(spec).sources.map((s) => s.path.slice(spec.length + 1));
    expect(listed).toContain("more/extra.yaml");
    expect(listed).toEqual([...listed].sort());
  });
});

describe("the inputs fingerprint", () => {
  /** The fingerprint of `spec` as a run computes it. */
  const fingerprint = (spec: string) => inputsFingerprint(spec, readSpecFolder(spec), "spec/");

  it("is the same for a checkout with CRLF line ends, and changes with a lone carriage return", () => {
    const lf = specCopy().spec;
    const crlf = specCopy().spec;
    const lone = specCopy().spec;
    const files = readdirSync(lf).filter((name) => name.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const text = readFileSync(join(lf, name), "utf8");
      writeFileSync(join(crlf, name), text.replaceAll("\n", "\r\n"));
      writeFileSync(join(lone, name), text.replace("\n", "\r\n").replace("\n", "\r \n"));
    }
    expect(fingerprint(lf)).toMatch(/^[0-9a-f]{32}$/);
    expect(fingerprint(crlf)).toBe(fingerprint(lf));
    expect(fingerprint(lone)).not.toBe(fingerprint(lf));
  });
});

describe("a write that was cut off or is under way", () => {
  const files = [{ path: "src/a.ts", contents: "// Generated by apigen\nexport const a = 1;\n" }];

  it("is never taken for current output, and --check reports it", async () => {
    const { root, spec } = specCopy();
    const out = join(root, "out");
    await generate(spec, out);
    const label = specLabel(spec);
    expect(currentOutputFiles(spec, out, label)).toBeGreaterThan(0);
    mkdirSync(join(out, stagingName));
    expect(currentOutputFiles(spec, out, label)).toBeUndefined();
    const check = await runCli(["--spec", spec, "--out", out, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(
      /error output-interrupted: .*out\/ holds a write that was cut off; run `npm run generate` to finish it/,
    );
    // The next write clears it.
    await generate(spec, out);
    expect(currentOutputFiles(spec, out, label)).toBeGreaterThan(0);
  });

  it("stops a second writer while the first is running, naming its process", async () => {
    const out = tempDir("apigen-busy-");
    made.push(out);
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], {
      stdio: "ignore",
    });
    try {
      mkdirSync(join(out, stagingName));
      writeFileSync(join(out, stagingName, "owner"), String(sleeper.pid));
      expect(() => writeOutput(out, files, planOutput(out, files))).toThrow(DiagnosticsError);
      try {
        writeOutput(out, files, planOutput(out, files));
      } catch (error) {
        expect(formatDiagnostic((error as DiagnosticsError).diagnostics[0]!, new Map())).toMatch(
          new RegExp(
            `error output-busy: .* is being written by another apigen run \\(process ${sleeper.pid}\\)`,
          ),
        );
      }
    } finally {
      sleeper.kill();
    }
    // Once the owner is gone, its staging folder is a leftover: the write goes ahead.
    await new Promise((resolve) => sleeper.once("exit", resolve));
    writeOutput(out, files, planOutput(out, files));
    expect(readFileSync(join(out, "src/a.ts"), "utf8")).toBe(files[0]!.contents);
  });

  it("names the file and leaves the folder as it was when a file cannot be written", () => {
    const out = tempDir("apigen-blocked-");
    made.push(out);
    writeFileSync(join(out, "src"), "a file of the user's where the package needs a folder\n");
    const plan = planOutput(out, files);
    expect(plan.added).toEqual(["src/a.ts"]);
    expect(() => writeOutput(out, files, plan)).toThrow(/1 problem/);
    try {
      writeOutput(out, files, plan);
    } catch (error) {
      expect(formatDiagnostic((error as DiagnosticsError).diagnostics[0]!, new Map())).toMatch(
        /error output-write-failed: cannot write .*src\/a\.ts: a file is in the way of its folder; the output folder is as it was/,
      );
    }
    expect(readdirSync(out)).toEqual(["src"]);
  });
});

describe("the spec folder as generated files name it", () => {
  /** Every file under `dir` by relative path, with its bytes. */
  const filesOf = (dir: string): Map<string, Buffer> => {
    const files = new Map<string, Buffer>();
    for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" }).sort()) {
      const path = join(dir, name);
      try {
        files.set(name, readFileSync(path));
      } catch {
        // a folder
      }
    }
    return files;
  };

  it("is the same from any working folder, however --spec is written: the same bytes", () => {
    const outs = [tempDir("apigen-label-a-"), tempDir("apigen-label-b-")];
    made.push(...outs);
    const fixture = "test/fixtures/features/operations";
    // From the repository with a relative --spec, then from the fixture's parent folder's
    // parent with an absolute one: each a process of its own (launch.mjs and the bundle), so
    // that its working folder is the process's own
    const runs: [string, string][] = [
      [repoRoot, fixture],
      [join(repoRoot, "test/fixtures"), join(repoRoot, fixture)],
    ];
    runs.forEach(([cwd, spec], i) => {
      const run = runCliProcess(["--spec", spec, "--out", outs[i]!], cwd);
      expect(run.status, run.stderr).toBe(0);
    });
    const [a, b] = outs.map(filesOf);
    expect([...a!.keys()]).toEqual([...b!.keys()]);
    for (const [name, bytes] of a!) expect(b!.get(name)?.equals(bytes), name).toBe(true);
    const readme = a!.get("README.md")!.toString("utf8");
    expect(readme).toContain(`from ${fixture}/ (`);
    expect(a!.get("src/types.ts")!.toString("utf8")).toContain(`from ${fixture}/ (`);
  });
});
