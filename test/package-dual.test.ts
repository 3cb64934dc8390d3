/**
 * The built generated package from both module systems, as two new projects use it: a
 * CommonJS one (`"type": "commonjs"`, as `npm init -y` writes it) and an ES module one, each
 * with the packed package unpacked into its node_modules, compiled by tsc (the CommonJS one
 * under `module: node16`, whose `import` becomes `require()`, the ES module one under
 * `nodenext`) and run by node without `require()` of ES modules, as on Node 18. Each
 * loads every entry point its own way, makes a typed call to the package's stand-in on
 * 127.0.0.1, loads the package's other build too, and tests the errors each build's client
 * throws against the other build's classes (runtime/client/brand.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDir } from "./helpers.ts";

const scratch = tempDir("apigen-dual-");
const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");

function run(command: string, args: string[], cwd = scratch) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { ...result, output: `${command} ${args.join(" ")}\n${result.stdout}${result.stderr}` };
}

/** What both consumers do once they hold both builds, `own` being the one they loaded by their own module system. */
const exercise = `
  const service = await listen(createStandIn({ keys: { apiKey: { valid: ["sandbox-key"] } } }));
  try {
    const client = new MerchantClient({ baseUrl: service.url, apiKey: "sandbox-key" });
    const transaction: Transaction = await client.transactions.get("ABCD-EFGH-IJKL");
    const refused = (call: () => PromiseLike<unknown>) =>
      Promise.resolve(call()).then(
        () => undefined,
        (error: unknown) => error,
      );
    const options = { baseUrl: service.url, apiKey: "wrong-key" };
    const ownError = await refused(() =>
      new MerchantClient(options).transactions.get("ABCD-EFGH-IJKL"),
    );
    const otherError = await refused(() =>
      new other.MerchantClient(options).transactions.get("ABCD-EFGH-IJKL"),
    );
    const described =
      ownError instanceof MerchantApiError
        ? { name: ownError.name, status: ownError.status, code: ownError.code }
        : String(ownError);
    console.log(
      JSON.stringify({
        entries: {
          main: typeof MerchantClient,
          callbacks: typeof createCallbackRouter,
          testing: typeof listen,
          openapi: openApiDocument["openapi"],
        },
        resolved: entries.map(resolve),
        transaction: typeof transaction.reference,
        refused: described,
        twoBuilds: (other.MerchantApiError as unknown) !== MerchantApiError,
        ownIsOthers: ownError instanceof other.MerchantApiError && ownError instanceof other.ClientError,
        othersIsOwn: otherError instanceof MerchantApiError && otherError instanceof ClientError,
        notAnotherClass: ownError instanceof other.TimeoutError || otherError instanceof ConnectionError,
      }),
    );
  } finally {
    await service.close();
  }
`;

const imports = `import {
  ClientError,
  ConnectionError,
  MerchantApiError,
  MerchantClient,
  type Transaction,
} from "merchant-commerce-api";
import { createCallbackRouter } from "merchant-commerce-api/callbacks";
import { openApiDocument } from "merchant-commerce-api/openapi";
import { createStandIn, listen } from "merchant-commerce-api/testing";
`;

const entries = `const entries = ["merchant-commerce-api", "merchant-commerce-api/callbacks", "merchant-commerce-api/testing", "merchant-commerce-api/openapi"];`;

const projects = {
  // `import` compiles to require(): the CommonJS build; import() loads the ES module one
  commonjs: {
    module: "node16",
    main: `${imports}
${entries}
const resolve = (entry: string) => require.resolve(entry);

async function main(): Promise<void> {
  const other = await import("merchant-commerce-api");
${exercise}
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`,
  },
  // `import` loads the ES module build; createRequire's require() the CommonJS one
  module: {
    module: "nodenext",
    main: `import { createRequire } from "node:module";
${imports}
${entries}
const resolve = (entry: string) => import.meta.resolve(entry);
const other = createRequire(import.meta.url)("merchant-commerce-api") as typeof import("merchant-commerce-api");
${exercise}
`,
  },
};

beforeAll(() => {
  // built by the global setup; --ignore-scripts skips the prepack rebuild
  const pack = run(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch],
    join(repoRoot, "generated"),
  );
  expect(pack.status, pack.output).toBe(0);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  for (const [type, project] of Object.entries(projects)) {
    const dir = join(scratch, type);
    const installed = join(dir, "node_modules/merchant-commerce-api");
    mkdirSync(installed, { recursive: true });
    const unpack = run("tar", [
      "-xzf",
      join(scratch, filename),
      "-C",
      installed,
      "--strip-components=1",
    ]);
    expect(unpack.status, unpack.output).toBe(0);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: `${type}-consumer`,
        version: "1.0.0",
        main: "index.js",
        type,
        dependencies: { "merchant-commerce-api": "0.1.0" },
      }),
    );
    writeFileSync(join(dir, "main.ts"), project.main);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM"],
          module: project.module,
          strict: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [join(repoRoot, "node_modules/@types")],
        },
        files: ["main.ts"],
      }),
    );
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the built package in a CommonJS project and an ES module project", () => {
  it("compiles in both with tsc", () => {
    // both projects in one compiler process, which reads the lib files once
    const build = run(process.execPath, [tsc, "-b", "commonjs", "module"]);
    expect(build.stdout + build.stderr).toBe("");
    expect(build.status).toBe(0);
  });

  it.each(Object.keys(projects))(
    "runs in the %s project: every entry, a typed call, errors that are instances of both builds' classes",
    (type) => {
      // as on Node 18, where require() cannot load an ES module
      const noRequireEsm = process.allowedNodeEnvironmentFlags.has(
        "--no-experimental-require-module",
      )
        ? ["--no-experimental-require-module"]
        : [];
      const node = run(process.execPath, [...noRequireEsm, "main.js"], join(scratch, type));
      expect(node.stderr, node.output).toBe("");
      expect(node.status).toBe(0);
      const built = type === "commonjs" ? "dist/cjs" : "dist";
      expect(JSON.parse(node.stdout)).toEqual({
        entries: { main: "function", callbacks: "function", testing: "function", openapi: "3.1.0" },
        resolved: ["index", "callbacks", "testing", "openapi"].map((file) =>
          expect.stringMatching(
            new RegExp(`/${type}/node_modules/merchant-commerce-api/${built}/${file}\\.js$`),
          ),
        ),
        transaction: "string",
        refused: { name: "MerchantApiError", status: 403, code: 1005 },
        twoBuilds: true,
        ownIsOthers: true,
        othersIsOwn: true,
        notAnotherClass: false,
      });
    },
  );
});
