/**
 * Helpers of the OpenAPI tests: the specs they run on, generating a spec's package into a
 * fresh folder (so the tools read what the generator makes now), and walking a document.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PipelineResult } from "../../generator/pipeline.ts";
import { features, generateFrom, tempDir } from "../helpers.ts";

export { features, type Feature } from "../helpers.ts";

/** The specs of public APIs in examples/ (other teams' APIs, written in the format). */
export const exampleSpecDirs = [
  "examples/github-issues/spec",
  "examples/stripe-payments/spec",
  "examples/openai-chat/spec",
];

/**
 * Every spec the tools check: the Merchant Commerce API first, then each feature fixture,
 * then the public-API examples.
 */
export const specDirs: readonly string[] = [
  "spec",
  ...features.map((f) => `test/fixtures/features/${f}`),
  ...exampleSpecDirs,
];

export interface Generated {
  specDir: string;
  result: PipelineResult;
  /** Folder the package was written to. */
  dir: string;
  /** The parsed `openapi.json`. */
  document: Record<string, any>;
}

/** Generates `specDir` into a fresh temp folder, every file written as the CLI would. */
export async function generateInto(specDir: string): Promise<Generated> {
  const dir = tempDir("apigen-openapi-");
  const result = await generateFrom(specDir, dir);
  for (const file of result.files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  const json = result.files.find((f) => f.path === "openapi.json");
  if (!json) throw new Error(`${specDir} produced no openapi.json`);
  return { specDir, result, dir, document: JSON.parse(json.contents) as Record<string, any> };
}

/** Removes the folders `generateInto` (or a test) made. */
export function removeFolders(folders: Iterable<string>): void {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}

/** Calls `visit` on every object and array of a JSON value, with its JSON pointer. */
export function walk(
  value: unknown,
  visit: (node: Record<string, unknown>, pointer: string) => void,
  pointer = "",
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, visit, `${pointer}/${i}`));
  } else if (typeof value === "object" && value !== null) {
    visit(value as Record<string, unknown>, pointer);
    for (const [key, inner] of Object.entries(value))
      walk(inner, visit, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  }
}

/** Every `x-undocumented` list of a document, with where it is. */
export function undocumentedLists(document: unknown): { pointer: string; texts: string[] }[] {
  const lists: { pointer: string; texts: string[] }[] = [];
  walk(document, (node, pointer) => {
    if (Array.isArray(node["x-undocumented"]))
      lists.push({ pointer, texts: node["x-undocumented"] as string[] });
  });
  return lists;
}
