/**
 * The one prettier configuration of this repository: the generator's own sources and the
 * runtime are formatted with it (`.prettierrc.json`), and every file the generator prints
 * must be a file prettier leaves as it is with it (test/code-style.test.ts). Prettier is not
 * part of a generator run; it judges the printer's style in the tests.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Options } from "prettier";
import { repoRoot } from "../helpers.ts";

export const prettierOptions: Options = JSON.parse(
  readFileSync(join(repoRoot, ".prettierrc.json"), "utf8"),
) as Options;

/**
 * The prettier parser of a generated file, by its name; undefined for the files a serializer
 * writes in its own canonical form (`openapi.json` is `JSON.stringify`'s, `openapi.yaml` the
 * YAML writer's), which prettier does not judge.
 */
export function prettierParser(path: string): string | undefined {
  if (path.endsWith(".ts")) return "typescript";
  if (path.endsWith(".md")) return "markdown";
  if (path.endsWith(".json") && !path.endsWith("openapi.json")) return "json";
  return undefined;
}
