/**
 * Vitest global setup: one temporary folder for the whole run, removed at its end. Node's
 * `os.tmpdir()` reads TMPDIR at each call, so every folder a test (or a tool a test runs:
 * npm, tsc, Prism) makes under the system temp folder lands inside this one, and the run
 * leaves the system temp folder as it found it even when a test is cut off before its own
 * clean-up. Tests still remove what they make; this is the net under them.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const systemTemp = tmpdir();
  const root = mkdtempSync(join(systemTemp, "apigen-test-run-"));
  process.env.TMPDIR = root;
  process.env.TEMP = root;
  process.env.TMP = root;
  return () => {
    const left = readdirSync(root);
    if (left.length > 0 && process.env.APIGEN_DEBUG)
      console.log(
        `temp-root: ${left.length} entries left by tests: ${left.slice(0, 10).join(", ")}`,
      );
    rmSync(root, { recursive: true, force: true });
    process.env.TMPDIR = systemTemp;
  };
}
