/** Bundle size: esbuild (minified, ESM, browser) + gzip (node:zlib) of one client operation (standalone function, and through the grouped class), the whole client and openapi-fetch's createClient. */
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { root } from "./proc.ts";
import { atMost, type Row, type Section } from "./stats.ts";

const index = JSON.stringify(join(root, "generated/src/index.ts"));
const entries: Record<string, string> = {
  "one operation (transactions.get) with its runtime": `import { MerchantCore, transactionsGet } from ${index};
export const get = (ref) => transactionsGet(new MerchantCore({ baseUrl: "https://x" }), ref);`,
  // The grouped class refers to every endpoint, so it keeps them all: shown for honesty.
  "one operation through the grouped MerchantClient (keeps every endpoint)": `import { MerchantClient } from ${index};
export const get = (ref) => new MerchantClient({ baseUrl: "https://x" }).transactions.get(ref);`,
  "whole client (main entry)": `export * from ${index};`,
  "openapi-fetch createClient": `import createClient from "openapi-fetch";
export const get = (ref) => createClient({ baseUrl: "https://x" }).GET("/v1/merchant/transactions/{reference}", { params: { path: { reference: ref } } });`,
};

export async function runBundle(): Promise<Section> {
  const rows: Row[] = [];
  for (const [label, contents] of Object.entries(entries)) {
    const r = await build({
      stdin: { contents, resolveDir: root, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      treeShaking: true,
    });
    const code = r.outputFiles[0]!.contents;
    const gz = gzipSync(code, { level: 9 }).length / 1024;
    const one = label.startsWith("one operation (");
    rows.push({
      label,
      value: `${(code.length / 1024).toFixed(1)} KB min, ${gz.toFixed(2)} KB min+gz (deterministic: 1 run)`,
      ...(one ? { target: "≤ 3.0 KB min+gz", verdict: atMost(gz, 3, "KB", 2) } : {}),
    });
  }
  return {
    title: "Bundle size (esbuild minify + gzip -9)",
    rows,
    notes: [
      "One operation is the standalone endpoint function with the core it needs (`transactionsGet(new MerchantCore(…), ref)`). What remains in it besides the endpoint: the request loop with retries, back-off and Retry-After, the shared timeouts, the typed error classes and error-body parsing, and the validators of its parameters — the features openapi-fetch does not have.",
    ],
  };
}
