/**
 * The TypeScript compilers tests type-check with (docs/test-suite.md, "Type-checking"):
 * TypeScript 6 (JavaScript) and the native TypeScript 7. Run each as
 * `node <compiler> -p <project>`.
 */
import { join } from "node:path";

const root = join(import.meta.dirname, "../..");

/**
 * TypeScript 6's tsc without re-checking TypeScript's own lib files in every project
 * (`--skipDefaultLibCheck`, test/support/tsc6.cjs): what every test that type-checks a
 * generated package, a consumer or an example runs. Each file of the project itself, .d.ts
 * files included, is checked as before.
 */
export const typescript6 = join(import.meta.dirname, "tsc6.cjs");

/**
 * TypeScript 6's own tsc, lib files checked too: only test/typecheck.test.ts, which checks
 * the lib files once per run under the generated package's settings.
 */
export const typescript6Full = join(root, "node_modules/typescript/bin/tsc");

/** The native TypeScript 7 compiler (cheap: it checks everything, lib files included). */
export const typescript7 = join(root, "node_modules/typescript7/bin/tsc");
