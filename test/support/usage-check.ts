/**
 * A consumer file of a generated package, type-checked as a user's project would: strict, with
 * exactOptionalPropertyTypes and noUncheckedIndexedAccess, by TypeScript 6 (against the
 * runtime's declarations, runtime-declarations.ts) and TypeScript 7. Each mistake the file
 * makes on purpose is marked `@ts-expect-error`, so a type looser than it should be fails too.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { withRuntimeDeclarations } from "./runtime-declarations.ts";
import { runTypeScript, typescript6, typescript7 } from "./typescript.ts";

/** Writes `src/<name>` of the package and checks it alone; one result per compiler. */
export function checkUsage(
  pkgDir: string,
  name: string,
  source: string,
): { compiler: string; output: string; status: number | null }[] {
  writeFileSync(join(pkgDir, "src", name), source);
  writeFileSync(
    join(pkgDir, "tsconfig.usage.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        types: [],
      },
      files: [`src/${name}`],
    }),
  );
  return [typescript6, typescript7].map((tsc) => {
    const dir = tsc === typescript6 ? withRuntimeDeclarations(pkgDir) : pkgDir;
    const run = runTypeScript(tsc, ["-p", join(dir, "tsconfig.usage.json")]);
    return { compiler: tsc, output: run.stdout + run.stderr, status: run.status };
  });
}
