/**
 * A write killed at a random moment: a child process writes a large output folder with the
 * generator's own writer and is killed (SIGKILL) at a moment fast-check picks within the
 * write. Afterwards every file must be wholly old or wholly new (never half-written, never
 * missing when both versions have it), and the next run, of either version, must leave
 * exactly that version's files with nothing of the killed run behind.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planOutput, writeOutput } from "../../generator/write/writer.ts";
import { repoRoot, tempDir } from "../helpers.ts";
import { syntheticOutput } from "../support/synthetic-output.ts";
import { fuzzParameters, fuzzTimeout } from "./settings.ts";

/** Files of a version: 150 files of 48 KB (about 7 MB), so a write lasts long enough to be cut. */
const count = 150;
const size = 48 * 1024;
const versions = { old: "aa", new: "bbb" } as const;

/** Every file below `dir` but the writer's staging folder, with its text. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    const path = relative(dir, full).split("\\").join("/");
    if (entry.isFile() && !path.startsWith(".apigen-staging"))
      out.set(path, readFileSync(full, "utf8"));
  }
  return out;
}

function expected(version: string): Map<string, string> {
  return new Map(syntheticOutput(version, count, size).map((f) => [f.path, f.contents]));
}

function writeInProcess(out: string, version: string): void {
  const files = syntheticOutput(version, count, size);
  writeOutput(out, files, planOutput(out, files));
}

let workDir: string;
let child: string;
/** How long the child's write takes from its `writing` line to its exit, measured once. */
let writeMs: number;

/** Runs the child writing `version` into `out`; kills it `killAfterMs` after it starts writing (or lets it finish). */
function runChild(
  out: string,
  version: string,
  killAfterMs?: number,
): Promise<{ killed: boolean; ms: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, out, version, String(count), String(size)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let started = 0;
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      if (started === 0 && chunk.toString().includes("writing")) {
        started = performance.now();
        if (killAfterMs !== undefined) setTimeout(() => proc.kill("SIGKILL"), killAfterMs);
      }
    });
    proc.on("error", reject);
    proc.on("exit", (code, signal) => {
      if (code !== 0 && signal !== "SIGKILL")
        return reject(new Error(`the writer child failed (${code}): ${stderr}`));
      resolve({ killed: signal === "SIGKILL", ms: performance.now() - started });
    });
  });
}

beforeAll(async () => {
  workDir = tempDir("apigen-killed-write-");
  child = join(workDir, "write-child.mjs");
  await build({
    entryPoints: [join(repoRoot, "test/support/write-child.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: child,
    logLevel: "silent",
  });
  const out = join(workDir, "calibrate");
  writeInProcess(out, versions.old);
  writeMs = (await runChild(out, versions.new)).ms;
  rmSync(out, { recursive: true, force: true });
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("a write killed at a random moment", () => {
  it(
    "leaves every file old or new, and the next run leaves exactly one version",
    async () => {
      const before = expected(versions.old);
      const after = expected(versions.new);
      let runs = 0;
      await fc.assert(
        // Any moment of the write (and just after it), with extra weight on its last part,
        // where files are being renamed into place.
        fc.asyncProperty(
          fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 70, max: 100 })),
          fc.constantFrom(versions.new, versions.old),
          async (percent, nextVersion) => {
            const out = join(workDir, `case-${runs++}`);
            writeInProcess(out, versions.old);
            await runChild(out, versions.new, (writeMs * percent) / 100);
            const left = snapshot(out);
            for (const path of new Set([...before.keys(), ...after.keys(), ...left.keys()])) {
              const now = left.get(path);
              const was = before.get(path);
              const will = after.get(path);
              if (was !== undefined && will !== undefined)
                expect(now, `${path} is missing`).toBeDefined();
              if (now !== undefined)
                expect(now === was || now === will, `${path} is neither old nor new`).toBe(true);
            }
            // The next run finishes or drops the killed write first, then writes its own version.
            writeInProcess(out, nextVersion);
            expect(snapshot(out)).toEqual(expected(nextVersion));
            expect(readdirSync(out).filter((name) => name.startsWith(".apigen-staging"))).toEqual(
              [],
            );
            rmSync(out, { recursive: true, force: true });
          },
        ),
        fuzzParameters(12, 200),
      );
      expect(existsSync(workDir)).toBe(true);
    },
    fuzzTimeout(60_000),
  );
});
