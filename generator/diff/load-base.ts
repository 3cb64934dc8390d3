/**
 * The model to compare against: a spec folder, or a git revision of the spec folder
 * (extracted to a temporary folder with `git show`, nothing checked out).
 */
import { checkDocumentSpec, importDocumentSpec } from "../import/live.ts";
import { reachOf, specSourceKind, type DocumentReachOptions } from "../load/spec-source.ts";

/** How a document is read as every build reads it: its reach and the config's overlays. */
export interface DocumentSource extends DocumentReachOptions {
  overlays?: readonly string[];
}
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import type { ApiModel } from "../ir/model.ts";
import { buildModel } from "../ir/build-ir.ts";
import { loadSpec } from "../load/load-spec.ts";

/**
 * BASE is neither a folder nor a revision git can read: the user's to fix, said in words of
 * its own. git's command line and its stderr are never shown (they name internals, and the
 * fix is the same whatever git said).
 */
export class BaseNotFound extends Error {}

function gitBytes(cwd: string, args: string[]): Buffer {
  return execFileSync("git", args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

function git(cwd: string, args: string[]): string {
  return gitBytes(cwd, args).toString("utf8");
}

/** The top folder of the git repository `specDir` is in; BaseNotFound when there is none. */
function repositoryOf(specDir: string, revision: string): string {
  try {
    return git(specDir, ["rev-parse", "--show-toplevel"]).trim();
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === "ENOENT" && existsSync(specDir)
        ? "git is not installed"
        : `${displayPath(specDir)}/ is in no git repository`;
    throw new BaseNotFound(`no folder ${revision}, and ${why} to read revision ${revision} from`);
  }
}

/**
 * The commit `revision` names, as its hash: anything else (no such name, a name of a tree
 * or a file, text git would take as an option) is BaseNotFound.
 */
function commitOf(top: string, revision: string): string {
  const noRevision = new BaseNotFound(
    `no folder ${revision} and no revision ${revision} in this repository: BASE is a spec folder, or a commit, branch or tag of the repository`,
  );
  // an argument that starts with "-" is an option to git, whatever follows it
  if (revision.startsWith("-") || revision.trim() === "") throw noRevision;
  try {
    return git(top, ["rev-parse", "--verify", "--quiet", `${revision}^{commit}`]).trim();
  } catch {
    throw noRevision;
  }
}

/** Writes the spec folder as it was at `revision` into a fresh temporary folder. */
export function extractRevision(
  specDir: string,
  revision: string,
  specFile: RegExp = /\.ya?ml$/,
): string {
  // The caller removes the folder (loadBaseModel does, once the model is built).
  const top = repositoryOf(specDir, revision);
  const commit = commitOf(top, revision);
  const inRepo = relative(top, specDir).split("\\").join("/");
  const files = git(top, ["ls-tree", "-r", "--name-only", commit, "--", inRepo])
    .split("\n")
    .filter((f) => specFile.test(f));
  if (files.length === 0)
    throw new BaseNotFound(`revision ${revision} has no spec files under ${inRepo}/`);
  const out = mkdtempSync(join(tmpdir(), "apigen-base-"));
  try {
    for (const file of files) {
      const target = join(out, relative(inRepo, file));
      mkdirSync(dirname(target), { recursive: true });
      // the bytes as committed: the loader reports what is not UTF-8 at its place
      writeFileSync(target, gitBytes(top, ["show", `${commit}:${file}`]));
    }
  } catch {
    rmSync(out, { recursive: true, force: true });
    throw new BaseNotFound(
      `revision ${revision}: its spec files under ${inRepo}/ could not be read`,
    );
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
  source: DocumentSource = {},
): ApiModel {
  if (existsSync(base) && statSync(base).isDirectory()) return loadModel(base, texts);
  const kind = specSourceKind(specDir);
  // a document BASE is read with the project's overlays and copies of remote `$ref`s; its
  // own folder is its reach (the current document's wider `refRoot` need not hold it)
  const asBase = {
    ...(source.refMap ? { refMap: source.refMap } : {}),
    ...(source.overlays?.length ? { overlays: source.overlays } : {}),
  };
  // an OpenAPI document as BASE, or the document's folder at a revision
  if (existsSync(base) && statSync(base).isFile()) return loadModel(base, texts, asBase);
  if (kind === "url")
    throw new BaseNotFound(
      `the spec is a URL, which has no git revisions: give BASE as a document file or a spec folder`,
    );
  const document = kind === "document";
  const extracted = document
    ? extractRevision(dirname(specDir), base, /\.(ya?ml|json)$/)
    : extractRevision(specDir, base);
  try {
    return loadModel(document ? join(extracted, basename(specDir)) : extracted, texts, asBase);
  } finally {
    rmSync(extracted, { recursive: true, force: true });
  }
}

/** Loads and resolves a spec folder; throws DiagnosticsError when it is broken. */
export function loadModel(
  specDir: string,
  texts?: Map<string, string>,
  source: DocumentSource = {},
): ApiModel {
  const bag = new DiagnosticBag();
  if (specSourceKind(specDir) !== "folder") {
    // an OpenAPI document: the live route's front end (import/live.ts), read as every build
    // reads it (its overlays, how far its `$ref`s reach)
    const imported = importDocumentSpec({
      spec: specDir,
      ...(texts ? { texts } : {}),
      ...reachOf(source),
      ...(source.overlays?.length ? { overlays: source.overlays } : {}),
    });
    const { files } = checkDocumentSpec(imported, bag);
    bag.throwIfErrors();
    return buildModel(files, bag);
  }
  const loaded = loadSpec(specDir, bag);
  for (const [path, text] of loaded.texts) texts?.set(path, text);
  bag.throwIfErrors();
  return buildModel(loaded.files, bag);
}
