/**
 * `generate --watch`: an edited spec regenerates the output; a broken one prints its
 * diagnostics and leaves the last good output in place. Every save is seen however it is
 * made: written in place, or written to another file renamed over the spec file (sed -i,
 * vim, JetBrains' safe write), deleted and written again, a new file, a new folder.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { watchSpec, type WatchReport } from "../generator/watch.ts";
import { repoRoot, tempDir } from "./helpers.ts";

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether a `sed` that edits in place (`-i`, by writing a new file and renaming it) is here. */
const hasSed = spawnSync("sed", ["--version"]).status === 0;

describe("watch mode", () => {
  let stop: (() => void) | undefined;
  const folders: string[] = [];
  afterEach(() => {
    stop?.();
    stop = undefined;
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /**
   * A watch of a copy of `fixture`; `saved(n)` waits for the n-th report and returns it, with
   * the generated types then; `types()` reads them now.
   */
  async function watching(fixture: string, prepare?: (spec: string) => void) {
    const spec = tempDir("apigen-watch-spec-");
    const out = tempDir("apigen-watch-out-");
    folders.push(spec, out);
    cpSync(join(repoRoot, fixture), spec, { recursive: true });
    prepare?.(spec);
    const reports: WatchReport[] = [];
    stop = watchSpec({ specDir: spec, outDir: out }, "out", (r) => reports.push(r), 50).close;
    const types = () => readFileSync(join(out, "src/types.ts"), "utf8");
    const saved = async (n: number) => {
      await waitFor(() => reports.length >= n, 10_000);
      return { report: reports[n - 1]!, types: types() };
    };
    expect((await saved(1)).report.ok).toBe(true);
    return { spec, saved, types };
  }

  /** The spec with one more type, `name`, added at the top of its types. */
  const withType = (text: string, name: string) =>
    text.replace(/^types:\n/m, `types:\n  ${name}:\n    fields:\n      fresh: string\n`);

  it("sees every save that replaces the file by a rename, three in a row (issue 30 item 13)", async () => {
    const { spec, saved } = await watching("test/fixtures/features/primitives");
    const specFile = join(spec, "api.yaml");
    const original = readFileSync(specFile, "utf8");
    for (const [i, name] of ["First", "Second", "Third"].entries()) {
      // as an editor's safe write does: a new file beside it, renamed over the spec file
      const temp = join(spec, `.api.yaml.${i}.tmp`);
      writeFileSync(temp, withType(original, `${name}Save`));
      renameSync(temp, specFile);
      const { report, types } = await saved(2 + i);
      expect(report.ok, report.text).toBe(true);
      expect(types).toContain(`export interface ${name}Save {`);
    }
  });

  it.skipIf(!hasSed)("sees every `sed -i` save, three in a row", async () => {
    const { spec, saved } = await watching("test/fixtures/features/primitives");
    const specFile = join(spec, "api.yaml");
    writeFileSync(specFile, withType(readFileSync(specFile, "utf8"), "SedSave0"));
    await saved(2);
    for (const n of [1, 2, 3]) {
      const run = spawnSync("sed", ["-i", `s/SedSave${n - 1}:/SedSave${n}:/`, specFile]);
      expect(run.status, String(run.stderr)).toBe(0);
      const { report, types } = await saved(2 + n);
      expect(report.ok, report.text).toBe(true);
      expect(types).toContain(`export interface SedSave${n} {`);
    }
  });

  it("sees a spec file deleted and written again, a new file, and a file in a new folder", async () => {
    const { spec, saved, types } = await watching("test/fixtures/features/multi-file");
    const item = join(spec, "types/item.yaml");
    const itemText = readFileSync(item, "utf8");
    rmSync(item);
    expect((await saved(2)).report.ok).toBe(false); // the types it declared are missing now
    writeFileSync(item, `${itemText}\n  Recreated:\n    fields:\n      again: string\n`);
    const after = await saved(3);
    expect(after.report.ok, after.report.text).toBe(true);
    expect(after.types).toContain("export interface Recreated {");

    const added = (name: string) => `types:\n  ${name}:\n    fields:\n      a: string\n`;
    writeFileSync(join(spec, "types/added.yaml"), added("Added"));
    expect((await saved(4)).types).toContain("export interface Added {");

    // a folder made, then a file written into it, then replaced by a rename: each seen
    mkdirSync(join(spec, "more"));
    await new Promise((r) => setTimeout(r, 200));
    writeFileSync(join(spec, "more/deep.yaml"), added("Deep"));
    await waitFor(() => types().includes("export interface Deep {"), 10_000);
    writeFileSync(join(spec, "more/.deep.tmp"), added("Deeper"));
    renameSync(join(spec, "more/.deep.tmp"), join(spec, "more/deep.yaml"));
    await waitFor(() => types().includes("export interface Deeper {"), 10_000);
    expect(types()).not.toContain("export interface Deep {");
  });

  it("sees a rename-save of the file a linked spec file leads to, outside the spec folder", async () => {
    const shared = tempDir("apigen-watch-shared-");
    folders.push(shared);
    const target = join(shared, "api.yaml");
    const original = readFileSync(
      join(repoRoot, "test/fixtures/features/primitives/api.yaml"),
      "utf8",
    );
    const { saved } = await watching("test/fixtures/features/primitives", (spec) => {
      writeFileSync(target, original);
      rmSync(join(spec, "api.yaml"));
      symlinkSync(target, join(spec, "api.yaml"));
    });
    for (const n of [1, 2, 3]) {
      writeFileSync(join(shared, ".tmp"), withType(original, `Linked${n}`));
      renameSync(join(shared, ".tmp"), target);
      const { types } = await saved(1 + n);
      expect(types).toContain(`export interface Linked${n} {`);
    }
  });

  it("regenerates on a spec edit and keeps the last good output on a broken spec", async () => {
    const spec = tempDir("apigen-watch-spec-");
    const out = tempDir("apigen-watch-out-");
    cpSync(join(repoRoot, "test/fixtures/features/primitives"), spec, { recursive: true });
    const reports: WatchReport[] = [];
    stop = watchSpec({ specDir: spec, outDir: out }, "out", (r) => reports.push(r), 50).close;
    await waitFor(() => reports.length === 1);
    expect(reports[0]!.ok).toBe(true);
    expect(reports[0]!.text).toMatch(/^out\/: \d+ added, 0 changed, 0 unchanged in \d+ ms$/);
    const specFile = join(spec, "api.yaml");
    const original = readFileSync(specFile, "utf8");
    const typesFile = join(out, "src/types.ts");

    writeFileSync(
      specFile,
      original.replace(/^types:\n/m, "types:\n  Added:\n    fields:\n      fresh: string\n"),
    );
    await waitFor(() => reports.length === 2);
    expect(reports[1]!.ok).toBe(true);
    expect(reports[1]!.text).toMatch(/^out\/: 0 added, [1-9]\d* changed, \d+ unchanged in \d+ ms$/);
    const good = readFileSync(typesFile, "utf8");
    expect(good).toContain("export interface Added {");

    writeFileSync(
      specFile,
      original.replace(/^types:\n/m, "types:\n  Added:\n    fields:\n      fresh: Strng\n"),
    );
    await waitFor(() => reports.length === 3);
    expect(reports[2]!.ok).toBe(false);
    expect(reports[2]!.text).toMatch(
      /api\.yaml:\d+:\d+ - error unresolved-ref: unknown type Strng/,
    );
    expect(reports[2]!.text).toMatch(/out\/ keeps its last good output$/);
    expect(readFileSync(typesFile, "utf8")).toBe(good);
  });
});
