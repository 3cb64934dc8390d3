/**
 * `generate --watch`: an edited spec regenerates the output; a broken one prints its
 * diagnostics and leaves the last good output in place.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
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

describe("watch mode", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

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
