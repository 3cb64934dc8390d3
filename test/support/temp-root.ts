/**
 * Vitest global setup: one temporary folder for the whole run, removed at its end. Node's
 * `os.tmpdir()` reads TMPDIR at each call, so every folder a test (or a tool a test runs:
 * npm, tsc, Prism) makes under the system temp folder lands inside this one, and the run
 * leaves the system temp folder as it found it even when a test is cut off before its own
 * clean-up. Tests still remove what they make; this is the net under them.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  // Each vitest project runs the global setup (vitest.config.ts has two): the first makes the
  // run's folder, the others use it (a folder of their own inside it would be removed under them).
  const made = process.env.APIGEN_TEST_ROOT;
  if (made !== undefined && existsSync(made)) return () => {};
  const systemTemp = tmpdir();
  const root = mkdtempSync(join(systemTemp, "apigen-test-run-"));
  process.env.APIGEN_TEST_ROOT = root;
  process.env.TMPDIR = root;
  process.env.TEMP = root;
  process.env.TMP = root;
  return () => {
    const left = existsSync(root) ? readdirSync(root) : [];
    if (left.length > 0 && process.env.APIGEN_DEBUG)
      console.log(
        `temp-root: ${left.length} entries left by tests: ${left.slice(0, 10).join(", ")}`,
      );
    rmSync(root, { recursive: true, force: true });
    process.env.TMPDIR = systemTemp;
    delete process.env.APIGEN_TEST_ROOT;
  };
}
