/**
 * The generated package's entry points, listed once: package.json's `main`, `module`, `types`,
 * `exports` and `typesVersions` (each module entry built as an ES module and as CommonJS), its
 * `browser` map, and the README's table of what each entry exports.
 */
import type { EmitContext } from "./context.ts";
import { jsonText, markdownCode } from "./shared/escape.ts";
import type { JsonObject } from "./shared/json.ts";
import { markdownTable } from "./shared/markdown.ts";

/** Whether the package has the TanStack Query entry: the output is on, and so is the client it calls. */
export function hasTanstackQuery(ctx: EmitContext): boolean {
  return ctx.outputs.tanstackQuery && ctx.outputs.client;
}

/** Whether the package has the callback router: the spec has callbacks or webhooks, and the output is on. */
export function hasCallbacks(ctx: EmitContext): boolean {
  const { model } = ctx;
  return (model.callbacks.length > 0 || model.webhooks !== undefined) && ctx.outputs.callbacks;
}

/** One module entry: its subpath, the file it is built from (src/<file>.ts) and, for the README, what it exports. */
interface ModuleEntry {
  subpath: string;
  file: string;
  what: string;
}

/** The package's module entries, in the order package.json and the README list them. */
function moduleEntries(ctx: EmitContext): ModuleEntry[] {
  const { client, openapi, testing, msw } = ctx.outputs;
  const { clientName, coreClassName, errorClassName } = ctx.model.api;
  const code = markdownCode;
  const entries: ModuleEntry[] = [
    {
      subpath: ".",
      file: "index",
      what: client
        ? `the client (${code(clientName)}), ${code(coreClassName)} and a function per endpoint, ${code(errorClassName)} and the other error classes, ${code("ErrorCode")}, every type`
        : "every type",
    },
    {
      subpath: "./validators",
      file: "validators",
      what: `each validated type's validator and Standard Schema (${code("…Schema")}), ${code("responseValidators")}, which the client's validateResponses option checks with, and ${code("requestValidators")}, with which the browser build checks requests; the main entry never loads them`,
    },
  ];
  if (client)
    entries.push({
      subpath: "./client-features",
      file: "client-features",
      what: `the features the browser build of the client runs when given them (${["retries", "timeouts", "redirectErrors", "allFeatures"].map(code).join(", ")}): \`features: [retries, timeouts]\`; the Node build has them all`,
    });
  if (hasCallbacks(ctx))
    entries.push({
      subpath: "./callbacks",
      file: "callbacks",
      what: `the callback router (${code("createCallbackRouter")}), for servers (kept out of the main entry, so browser bundles never pull it in)`,
    });
  if (testing)
    entries.push({
      subpath: "./testing",
      file: "testing",
      what: `a stand-in of the service for tests (${code("createStandIn")}, ${code("listen")}); the main entry never loads it`,
    });
  if (msw)
    entries.push({
      subpath: "./msw",
      file: "msw",
      what: `msw request handlers over the stand-in (${code("standInHandlers")}), for browser and component tests; msw is an optional peer dependency`,
    });
  if (hasTanstackQuery(ctx))
    entries.push({
      subpath: "./tanstack-query",
      file: "tanstack-query",
      what: `TanStack Query options per endpoint (${code("queryKeys")}, ${code("queryKeyRoot")}, ${code("…QueryOptions")}, ${code("…MutationOptions")}, ${code("…InfiniteQueryOptions")}); ${code("@tanstack/query-core")} is an optional peer dependency`,
    });
  if (openapi)
    entries.push({
      subpath: "./openapi",
      file: "openapi",
      what: `the OpenAPI 3.1 document as an object (${code("openApiDocument")})`,
    });
  return entries;
}

/**
 * The table of the package's entry points (package.json's `exports`), each with what it
 * exports by name: test/package-readme.test.ts checks every name against the entry's exports.
 */
export function entryTable(ctx: EmitContext): string {
  const entry = (subpath: string) =>
    markdownCode(`${ctx.model.api.packageName}${subpath.slice(1)}`);
  return markdownTable(
    ["import", "what"],
    [
      ...moduleEntries(ctx).map(({ subpath, what }) => [entry(subpath), what]),
      ...(ctx.outputs.openapi
        ? [
            [
              `${entry("./openapi.json")}, ${entry("./openapi.yaml")}`,
              "the OpenAPI 3.1 document as files",
            ],
          ]
        : []),
    ],
  );
}

/**
 * package.json's `browser` map: a bundler for browsers (esbuild, webpack, Vite, Rollup's
 * node-resolve with `browser: true`, Parcel) takes the lean request loop (runtime
 * browser.ts) in place of core.ts, and every other file as it is (docs/client.md, "The
 * browser build"). The built file, and its source as a bundler that compiles src/ asks for
 * it (the bench and the tests bundle src/). Undefined without a client.
 */
export function browserMap(ctx: EmitContext): Record<string, string> | undefined {
  if (!ctx.outputs.client) return undefined;
  const loop = "runtime/client/core.js";
  const lean = "runtime/client/browser.js";
  // The source's key is the path as written in an import (esbuild matches it before it finds
  // the .ts), its value the file itself.
  // The endpoints' request validators: none in the browser build (request-validators-file.ts).
  const checks = "request-validators.js";
  const noChecks = "request-validators.browser.js";
  return {
    [`./dist/${loop}`]: `./dist/${lean}`,
    [`./dist/${checks}`]: `./dist/${noChecks}`,
    // a bundler for browsers that resolves `require` (webpack building a CommonJS app) takes dist/cjs
    [`./dist/cjs/${loop}`]: `./dist/cjs/${lean}`,
    [`./dist/cjs/${checks}`]: `./dist/cjs/${noChecks}`,
    [`./src/${loop}`]: `./src/${lean.replace(/\.js$/, ".ts")}`,
    [`./src/${checks}`]: `./src/${noChecks.replace(/\.js$/, ".ts")}`,
  };
}

/**
 * Where package.json sends each entry point: its fields `main`, `module`, `types`, `exports`
 * and `typesVersions`, printed as package.json's template inserts them. Every module entry is
 * built twice (tsconfig.build.json: ES modules in dist/; tsconfig.cjs.json: CommonJS in
 * dist/cjs/, which the build marks `"type": "commonjs"`), each with its declarations:
 * `require` gets the CommonJS build, every other condition (`import`, browsers, Deno, Bun,
 * edge runtimes) the ES module one. `main`, `types` and `typesVersions` are for resolvers that
 * do not read `exports` (TypeScript's `node10`, old bundlers): CommonJS, as they are. The two
 * builds share their classes' `instanceof` through brands (runtime/client/brand.ts).
 */
export function entryPointsJson(ctx: EmitContext): string {
  const modules = moduleEntries(ctx);
  const built = (folder: string, file: string) => ({
    types: `./${folder}/${file}.d.ts`,
    default: `./${folder}/${file}.js`,
  });
  const exports: JsonObject = {};
  for (const { subpath, file } of modules)
    exports[subpath] = { require: built("dist/cjs", file), default: built("dist", file) };
  if (ctx.outputs.openapi) {
    exports["./openapi.json"] = "./openapi.json";
    exports["./openapi.yaml"] = "./openapi.yaml";
  }
  exports["./package.json"] = "./package.json";
  const subpaths = modules.filter(({ subpath }) => subpath !== ".");
  return jsonFields({
    main: "./dist/cjs/index.js",
    module: "./dist/index.js",
    types: "./dist/cjs/index.d.ts",
    exports,
    ...(subpaths.length
      ? {
          typesVersions: {
            "*": Object.fromEntries(
              subpaths.map(({ subpath, file }) => [subpath.slice(2), [`./dist/cjs/${file}.d.ts`]]),
            ),
          },
        }
      : {}),
  });
}

/**
 * Fields of package.json's top-level object as prettier prints them: each on its own lines,
 * objects expanded, arrays of one string kept on the line; a comma after each.
 */
function jsonFields(fields: JsonObject): string {
  return Object.entries(fields)
    .map(([key, value]) => {
      const text = jsonText(value, 2).replace(/\[\n\s*("(?:[^"\\]|\\.)*")\n\s*\]/g, "[$1]");
      return `  ${jsonText(key)}: ${text.replace(/\n/g, "\n  ")},`;
    })
    .join("\n");
}
