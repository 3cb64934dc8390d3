/**
 * The generator's part of a run's fingerprint: a hash of its own sources and templates (which
 * shape the output: the runtime is copied verbatim) and of the versions of the packages that
 * shape the output. Computed from the files when the generator runs from its sources; the
 * ahead-of-time build (generator/build.mjs) computes it once with this same module and builds
 * it in, so a run of the build reads none of those files.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));
/** Folders whose files shape the output: the generator (runtime copied verbatim included) and the templates. */
const generatorFolders = ["generator", "templates"];
/** Packages whose version changes the emitted bytes. */
const outputPackages = ["yaml", "js-yaml", "handlebars", "ajv"];

/** Every file below `dir`, as sorted paths relative to it with `/` separators. */
function filesBelow(dir: string): string[] {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

/** Adds each file's path and text to the hash; CRLF is read as LF so a Windows checkout agrees. */
function hashFolder(hash: ReturnType<typeof createHash>, label: string, dir: string): void {
  for (const path of filesBelow(dir)) {
    hash.update(`\0${label}/${path}\0`);
    hash.update(readFileSync(join(dir, path), "utf8").replaceAll("\r\n", "\n"));
  }
}

/** Version of an installed package, read from its package.json next to its resolved entry. */
function packageVersion(require: NodeJS.Require, name: string): string {
  let dir = require.resolve(name);
  for (;;) {
    const parent = join(dir, "..");
    if (parent === dir) return "unknown";
    dir = parent;
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === name) return pkg.version ?? "unknown";
    } catch {
      // no package.json at this level: keep walking up
    }
  }
}

/** Set by the ahead-of-time build: this module's result at build time. */
declare const __APIGEN_GENERATOR_FINGERPRINT__: string | undefined;

let generatorHash: string | undefined =
  typeof __APIGEN_GENERATOR_FINGERPRINT__ === "string"
    ? __APIGEN_GENERATOR_FINGERPRINT__
    : undefined;

/** The generator's part of the fingerprint, computed once per process (watch reuses it). */
export function generatorFingerprint(): string {
  if (generatorHash) return generatorHash;
  const hash = createHash("sha256");
  for (const folder of generatorFolders) hashFolder(hash, folder, join(projectRoot, folder));
  const require = createRequire(import.meta.url);
  for (const name of outputPackages) hash.update(`\0${name}@${packageVersion(require, name)}`);
  generatorHash = hash.digest("hex");
  return generatorHash;
}
