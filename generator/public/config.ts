/**
 * The typed config file, `apigen.config.ts`: what `import { defineConfig } from "apigen-cli"`
 * gives. The build turns this module into the package's entry (dist/public/: ES module,
 * CommonJS, and their declarations, derived from this file alone), so it imports nothing:
 * its declarations must stand on their own in the installed package. The CLI checks a loaded
 * config against the same keys (commands/config-shape.ts), so a JavaScript config, or one
 * written without this type, gets the same answers at its place.
 */

/**
 * The parts of the generated package, each on (`true`, the default) or off. An output that
 * is off leaves its files, its entry in the package's `exports` and its README section out.
 */
export interface Outputs {
  /** The fetch client (`src/client.ts`, the error classes) in the main entry. Default: true. */
  client?: boolean;
  /** The callback router, entry `<package>/callbacks`, when the spec has callbacks or webhooks. Default: true. */
  callbacks?: boolean;
  /** The OpenAPI 3.1 document: `openapi.json`, `openapi.yaml` and the entry `<package>/openapi`. Default: true. */
  openapi?: boolean;
  /** The stand-in service, entry `<package>/testing` (`createStandIn()`, `listen()`). Default: true. */
  testing?: boolean;
  /** msw request handlers over the stand-in, entry `<package>/msw` (msw its optional peer); needs `testing`. Default: false. */
  msw?: boolean;
  /** TanStack Query options per endpoint, entry `<package>/tanstack-query` (`@tanstack/query-core` an optional peer). Default: false. */
  tanstackQuery?: boolean;
}

/** One API: where it is described, where its package goes, and which outputs it has. */
export interface ApiConfig {
  /**
   * Its name among the config's APIs: `apigen generate --api NAME` runs this one alone.
   * Required in an array.
   */
  name?: string;
  /** Where the API is described, relative to the config file: a spec folder, an OpenAPI document (JSON or YAML, read at every build) or its `https://` URL. Default: `spec`; required in an array. */
  spec?: string;
  /** The package folder to write, relative to the config file. Default: `generated`; required in an array. */
  out?: string;
  /** The parts of the package to generate; every one is on unless set to false. */
  outputs?: Outputs;
  /**
   * The folder an imported OpenAPI document's `$ref`s may reach, relative to the config file.
   * Default: the document's own folder; nothing wider unless named here (docs/openapi-documents.md).
   */
  refRoot?: string;
  /**
   * OpenAPI Overlay 1.0 files (relative to the config file) applied in order to the OpenAPI
   * document `spec` names before it is read, at every build and by `apigen import`: what the
   * document cannot say (x-apigen-* paging, names) without editing the document the server
   * writes (docs/openapi-documents.md, "Overlays").
   */
  overlays?: readonly string[];
  /**
   * Local copies of what the OpenAPI document's remote `$ref`s name, by URL prefix: a folder
   * (relative to the config file) for a prefix ending in `/`, whose rest of the URL is a path
   * in it, or a file for a whole file's URL. apigen reads no network for a `$ref`; an unmapped
   * remote one is an error (docs/openapi-documents.md, "What a document can reach").
   * `{ "https://schemas.example.org/v1/": "vendor/schemas" }`
   */
  refMap?: Readonly<Record<string, string>>;
}

/** The config file's default export: one API, or several (each with its `name`, `spec` and `out`). */
export type ApigenConfig = ApiConfig | readonly ApiConfig[];

/**
 * The config, as it is: the function only gives the editor the type to check and complete
 * it with.
 *
 * ```ts
 * import { defineConfig } from "apigen-cli";
 *
 * export default defineConfig({ spec: "api/spec", out: "packages/api", outputs: { testing: false } });
 * ```
 */
export function defineConfig(config: ApigenConfig): ApigenConfig {
  return config;
}
