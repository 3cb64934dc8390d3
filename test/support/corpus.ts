/**
 * The corpus of public OpenAPI documents (test/fixtures/corpus, README.md there: provenance),
 * unpacked for tests: each is kept gzipped, and DigitalOcean's multi-file document as
 * `{ entry, files: { path: text } }`.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import type { ApiModel } from "../../generator/ir/model.ts";

const corpus = join(import.meta.dirname, "../fixtures/corpus");

/** The corpus's documents by folder name, each as the file it is packed in. */
export const corpusDocuments = {
  airflow: "openapi.json.gz",
  asana: "openapi.json.gz",
  "aws-connect": "openapi.json.gz",
  box: "openapi.json.gz",
  digitalocean: "files.json.gz",
  docker: "openapi.yaml.gz",
  discourse: "openapi.json.gz",
  gitea: "openapi.json.gz",
  jira: "openapi.json.gz",
  openai: "openapi.yaml.gz",
  sendgrid: "openapi.json.gz",
  stripe: "openapi.json.gz",
  telnyx: "openapi.json.gz",
  twilio: "openapi.json.gz",
} as const;

export type CorpusName = keyof typeof corpusDocuments;

/** Unpacks the corpus document `name` into `dir`; its entry file. */
export function unpackCorpus(name: CorpusName, dir: string): string {
  const packed = corpusDocuments[name];
  const bytes = gunzipSync(readFileSync(join(corpus, name, packed)));
  mkdirSync(dir, { recursive: true });
  if (packed !== "files.json.gz") {
    const file = join(dir, packed.replace(/\.gz$/, ""));
    writeFileSync(file, bytes);
    return file;
  }
  const { entry, files } = JSON.parse(bytes.toString("utf8")) as {
    entry: string;
    files: Record<string, string>;
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, entry);
}

/**
 * A model as two routes to the same package are compared (test/corpus-calls.test.ts): its JSON
 * without the source locations, the spec's path (absolute, or as shown from the working
 * folder) before `separator` (`/` in a folder, `#` in a document's file names) made `SPEC/`, and the gaps in text order (each route lists them in the order
 * of its own locations, the spec folder's or the document's). The emitters are functions of
 * the model alone, so two models equal here make the same package but for where it names
 * its source (test/live-route.test.ts compares such packages file by file).
 */
export function comparableModel(model: ApiModel, specPath: string, separator: "/" | "#"): string {
  const withoutLocation = (key: string, value: unknown) => (key === "location" ? undefined : value);
  let text = JSON.stringify(model, (key, value: unknown) =>
    key === "gaps" && Array.isArray(value)
      ? value.map((gap) => JSON.stringify(gap, withoutLocation)).sort()
      : withoutLocation(key, value),
  );
  return text
    .replaceAll(`${specPath}${separator}`, "SPEC/")
    .replaceAll(`${relative(process.cwd(), specPath)}${separator}`, "SPEC/");
}
