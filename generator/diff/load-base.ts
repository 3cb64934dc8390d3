/**
 * The model to compare against: a spec folder, or a git revision of the spec folder
 * (extracted to a temporary folder with `git show`, nothing checked out).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { ApiModel } from "../ir/model.ts";
import { buildModel } from "../ir/build-ir.ts";
import { loadSpec } from "../load/load-spec.ts";

function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Writes the spec folder as it was at `revision` into a fresh temporary folder. */
export function extractRevision(specDir: string, revision: string): string {
  // The caller removes the folder (loadBaseModel does, once the model is built).
  const top = git(specDir, ["rev-parse", "--show-toplevel"]).trim();
  const inRepo = relative(top, specDir).split("\\").join("/");
  const files = git(top, ["ls-tree", "-r", "--name-only", revision, "--", inRepo])
    .split("\n")
    .filter((f) => /\.ya?ml$/.test(f));
  if (files.length === 0)
    throw new Error(`revision ${revision} has no spec files under ${inRepo}/`);
  const out = mkdtempSync(join(tmpdir(), "apigen-base-"));
  for (const file of files) {
    const target = join(out, relative(inRepo, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, git(top, ["show", `${revision}:${file}`]));
  }
  return out;
}

/**
 * The model of the spec that BASE names: a folder as is, otherwise a git revision of
 * `specDir`, extracted into a temporary folder that is removed once it is loaded (its texts
 * stay in `texts` for code frames).
 */
export function loadBaseModel(
  base: string,
  specDir: string,
  texts?: Map<string, string>,
): ApiModel {
  if (existsSync(base) && statSync(base).isDirectory()) return loadModel(base, texts);
  const extracted = extractRevision(specDir, base);
  try {
    return loadModel(extracted, texts);
  } finally {
    rmSync(extracted, { recursive: true, force: true });
  }
}

/** Loads and resolves a spec folder; throws DiagnosticsError when it is broken. */
export function loadModel(specDir: string, texts?: Map<string, string>): ApiModel {
  const bag = new DiagnosticBag();
  const loaded = loadSpec(specDir, bag);
  for (const [path, text] of loaded.texts) texts?.set(path, text);
  bag.throwIfErrors();
  return buildModel(loaded.files, bag);
}
