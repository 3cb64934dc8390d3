/**
 * What test/names.test.ts and test/import-names.test.ts share: tsc on a generated package,
 * a recording server on 127.0.0.1, and documents imported into spec folders.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parse } from "yaml";
import { importSpec, writeSpecFolder } from "../../generator/import/import.ts";
import { repoRoot } from "../helpers.ts";
import { runTypeScript, typescript6 } from "./typescript.ts";

/** tsc on a generated package: its output, empty when it type-checks. */
export function typecheck(out: string): string {
  const tsc = typescript6;
  const run = runTypeScript(tsc, ["--noEmit", "-p", join(out, "tsconfig.json")]);
  return `${run.stdout}${run.stderr}`.trim() || (run.status === 0 ? "" : `exit ${run.status}`);
}

/** A node:http server on 127.0.0.1 that answers 204 and records each request's method, URL and headers. */
export async function recorder(): Promise<{
  url: string;
  seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[];
  close: () => Promise<void>;
}> {
  const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] =
    [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Writes an OpenAPI document into `scratch`; its path. */
export function documentFile(scratch: string, name: string, doc: object): string {
  const path = join(scratch, `${name}.json`);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

/** Imports a document into a new spec folder under `scratch`; the folder. */
export function imported(scratch: string, name: string, doc: object): string {
  const outSpec = join(scratch, `${name}-spec`);
  const result = importSpec({
    input: documentFile(scratch, name, doc),
    outSpec,
    schemaFile: join(repoRoot, "generator/schema/spec.schema.json"),
  });
  writeSpecFolder(outSpec, result.files);
  return outSpec;
}

/** The parsed YAML of every file of a spec folder, by path within it. */
export function specFiles(folder: string): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else files.set(`${prefix}${entry.name}`, parse(readFileSync(join(dir, entry.name), "utf8")));
  };
  walk(folder, "");
  return files;
}

/** Responses of an operation that answers 204. */
export const noContent = { "204": { description: "ok" } };
