/**
 * The generated package runs on Node 18+, browsers, Deno, Bun and edge runtimes: no
 * runtime dependency, no Node-only module or global in any of its sources.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

const manifest = JSON.parse(
  readFileSync(join(repoRoot, "generated/package.json"), "utf8"),
) as Record<string, Record<string, unknown> | undefined>;
/** The package's peer dependencies that are optional: an integration's library, never loaded by the main entry. */
const optionalPeers = Object.fromEntries(
  Object.keys(manifest.peerDependencies ?? {})
    .filter((name) => (manifest.peerDependenciesMeta?.[name] as { optional?: boolean })?.optional)
    .map((name) => [name, true]),
);

/** The runtime folders of integrations that load their optional peer: folder -> the peer. */
const integrationFolders: Record<string, string> = { "/runtime/msw/": "msw" };

describe("the generated package", () => {
  // The Merchant package, and the client runtime modules only some packages get (stream.ts).
  const files = [
    ...sources(join(repoRoot, "generated/src")),
    ...sources(join(repoRoot, "generator/runtime/client")),
  ];

  it("has sources to check", () => {
    expect(files.map((f) => relative(repoRoot, f))).toEqual(
      expect.arrayContaining(["generated/src/client.ts", "generated/src/runtime/client/core.ts"]),
    );
  });

  it.each(files.map((f) => [relative(repoRoot, f), f]))(
    "%s uses no Node-only module or global",
    (_name, file) => {
      const code = readFileSync(file!, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code).not.toMatch(/from\s+["']node:|require\(|\bBuffer\b|\bprocess\.|\b__dirname\b/);
      // `import type` is erased: the types of an optional peer dependency (an integration's entry) load nothing
      const loaded = code.replace(/import\s+type\s[^;]*;/g, "");
      // an integration's own runtime folder (runtime/msw/, which only the `./msw` entry imports) loads its peer
      const own = Object.entries(integrationFolders).find(([folder]) => file!.includes(folder));
      expect(
        [...loaded.matchAll(/from\s+["']([^"']+)["']/g)]
          .map((m) => m[1])
          .filter((s) => !s!.startsWith(".") && s !== own?.[1]),
      ).toEqual([]);
      const typesFrom = [...code.matchAll(/import\s+type\s[^;]*?from\s+["']([^"'.][^"']*)["']/g)];
      expect(typesFrom.map((m) => m[1]).filter((s) => !(s! in optionalPeers))).toEqual([]);
    },
  );

  it("has no runtime dependency", () => {
    const pkg = JSON.parse(
      readFileSync(join(repoRoot, "generated/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    // every peer dependency is optional (an integration's, behind its own entry)
    expect(Object.keys(optionalPeers)).toEqual(Object.keys(pkg.peerDependencies ?? {}));
    for (const peer of Object.values(integrationFolders))
      expect(optionalPeers).toHaveProperty(peer);
  });
});
