/**
 * Nothing in the repository's dependency tree runs at install time but what is allowed: the
 * esbuild binary's check. @scarf/scarf (pulled in by spectral, through orval, a benchmark
 * anchor) sent install-time telemetry and wrote to the temp folder on every `npm ci` (issue
 * 30 item 14); package.json puts the inert stub of stubs/scarf in its place. Checked in
 * package-lock.json (what `npm ci` installs) and in the installed node_modules/, so a new
 * dependency that brings an install script back fails here.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";

/** Packages allowed an install script, by name, with why. */
const allowed: Record<string, string> = {
  esbuild: "checks that its platform binary is installed (builds the generator on npm ci)",
  // its postinstall copies the browser worker script only into the folders a project's
  // package.json lists under msw.workerDirectory; this repository lists none
  msw: "copies its worker script where package.json's msw.workerDirectory says (here: nowhere)",
};

/** The lifecycle scripts npm runs when it installs a package. */
const installScripts = ["preinstall", "install", "postinstall"];

interface LockEntry {
  name?: string;
  version?: string;
  link?: boolean;
  resolved?: string;
  hasInstallScript?: boolean;
}

const lock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** A package's name from its place in the lockfile (`node_modules/a/node_modules/@b/c` is `@b/c`). */
const nameOf = (path: string) => path.split("node_modules/").at(-1)!.replace(/\/$/, "");

/** Every package.json below node_modules/ (nested ones too), by folder. */
function installedPackages(dir: string, found = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith("@") && entry.isDirectory()) {
      installedPackages(path, found);
      continue;
    }
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const manifest = join(path, "package.json");
    if (existsSync(manifest)) found.set(path, manifest);
    if (entry.isDirectory() && existsSync(join(path, "node_modules")))
      installedPackages(join(path, "node_modules"), found);
  }
  return found;
}

describe("install scripts in the dependency tree", () => {
  it("package-lock.json has no package with an install script but the allowed ones", () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.hasInstallScript)
      .map(([path]) => nameOf(path));
    expect(withScripts.filter((name) => !(name in allowed))).toEqual([]);
  });

  it("installs @scarf/scarf as the inert stub of stubs/scarf: no script, no telemetry", () => {
    const scarf = Object.entries(lock.packages).filter(([path]) => nameOf(path) === "@scarf/scarf");
    expect(scarf).toEqual([["node_modules/@scarf/scarf", { resolved: "stubs/scarf", link: true }]]);
    expect(realpathSync(join(repoRoot, "node_modules/@scarf/scarf"))).toBe(
      realpathSync(join(repoRoot, "stubs/scarf")),
    );
    const stub = JSON.parse(readFileSync(join(repoRoot, "stubs/scarf/package.json"), "utf8")) as {
      scripts?: object;
    };
    expect(stub.scripts).toBeUndefined();
  });

  it("no installed package has an install script but the allowed ones", () => {
    const offenders: string[] = [];
    for (const [folder, manifest] of installedPackages(join(repoRoot, "node_modules"))) {
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
        name?: string;
        scripts?: Record<string, string>;
      };
      const scripts = installScripts.filter((name) => pkg.scripts?.[name] !== undefined);
      // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script
      if (scripts.length === 0 && existsSync(join(folder, "binding.gyp"))) scripts.push("gyp");
      if (scripts.length > 0 && !(pkg.name! in allowed))
        offenders.push(`${pkg.name} (${scripts.join(", ")})`);
    }
    expect(offenders).toEqual([]);
  });
});
