#!/usr/bin/env node
// @ts-check
/**
 * Builds the generator ahead of time: generator/*.ts bundled by esbuild into
 * dist/generator/ (ES modules, split so each stage loads only what it imports), with a stamp
 * of the sources it was built from. `npm ci` runs it (the `prepare` script); `npm run
 * generate` runs the build (launch.mjs) and builds again only when a source changed since.
 * Node 20 cannot run TypeScript itself, and a loader costs more at start-up than a current
 * run takes.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const generatorDir = dirname(fileURLToPath(import.meta.url));
const templatesDir = join(generatorDir, "..", "templates");
/** Where the build goes. */
export const distDir = join(generatorDir, "..", "dist", "generator");
/** Where the package's own entry goes (`import { defineConfig } from "apigen-cli"`). */
const publicDir = join(generatorDir, "..", "dist", "public");
const publicSource = join(generatorDir, "public", "config.ts");

/** A stamp of every source's and template's path, size and mtime: it changes when one does. */
export function sourceStamp() {
  const hash = createHash("sha256").update(generatorDir);
  const files = [generatorDir, templatesDir].flatMap((dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|mjs|json|hbs)$/.test(e.name))
      .map((e) => join(e.parentPath, e.name)),
  );
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest("hex").slice(0, 16);
}

/** The stamp the current build was made from, if there is one. */
export function builtStamp() {
  try {
    return readFileSync(join(distDir, "stamp"), "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * An esbuild plugin that gives every module its own `import.meta.url`, as an absolute path:
 * for the modules the build itself imports from a temporary folder (importSource), which
 * read the generator's sources where they are.
 * @type {import("esbuild").Plugin}
 */
const keepModuleUrls = {
  name: "keep-module-urls",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
};

/**
 * An esbuild plugin that gives every module of the build its own `import.meta.url` (and
 * `import.meta.dirname`) relative to the bundle: the generator finds its runtime sources,
 * templates and schema relative to the file that names them, and the bundle sits two folders
 * below the package root (dist/generator/) both in this repository and in an installed
 * package, so the same build works wherever the package is installed (an absolute path would
 * name the machine it was built on).
 * @type {import("esbuild").Plugin}
 */
const relativeModuleUrls = {
  name: "relative-module-urls",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const path = relative(distDir, args.path).split(sep).join("/");
      const url = `new URL(${JSON.stringify(path)}, import.meta.url).href`;
      if (!source.includes("import.meta.dirname"))
        return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
      // import.meta.dirname is Node 20.11+; the URL gives it on every Node 20
      const contents = [
        'import { fileURLToPath as apigenFileURLToPath } from "node:url";',
        `const apigenDirname = apigenFileURLToPath(new URL(".", ${url})).replace(/[\\\\/]$/, "");`,
        source
          .replaceAll("import.meta.url", url)
          .replaceAll("import.meta.dirname", "apigenDirname"),
      ].join("\n");
      return { contents, loader: "ts" };
    });
  },
};

/**
 * An esbuild plugin that compiles the templates ahead of time: `emit/templates.ts` becomes a
 * module holding each `templates/*.hbs` precompiled (with the options of
 * emit/template-helpers.ts), over handlebars' runtime (bundled in, so neither handlebars'
 * compiler nor its CommonJS loading is paid at run time).
 * @param {object} templateOptions
 * @returns {import("esbuild").Plugin}
 */
const precompileTemplates = (templateOptions) => ({
  name: "precompile-templates",
  setup(build) {
    const module = join(generatorDir, "emit", "templates.ts");
    build.onLoad({ filter: /[\\/]emit[\\/]templates\.ts$/ }, async (args) => {
      if (args.path !== module) return undefined;
      const { default: Handlebars } = await import("handlebars");
      const specs = readdirSync(templatesDir)
        .filter((name) => name.endsWith(".hbs"))
        .sort()
        .map((file) => {
          const spec = Handlebars.precompile(
            readFileSync(join(templatesDir, file), "utf8"),
            templateOptions,
          );
          return `${JSON.stringify(file.slice(0, -".hbs".length))}: ${spec}`;
        });
      const helpers = JSON.stringify(join(dirname(module), "template-helpers.ts"));
      return {
        loader: "ts",
        resolveDir: dirname(module),
        contents: [
          'import Handlebars from "handlebars/dist/cjs/handlebars.runtime.js";',
          `import { registerHelpers } from ${helpers};`,
          "const handlebars = Handlebars.create();",
          "registerHelpers(handlebars);",
          `const specs: Record<string, any> = { ${specs.join(",\n")} };`,
          "const compiled = new Map<string, (view: object) => string>();",
          "export function template(name: string): (view: object) => string {",
          "  let found = compiled.get(name);",
          "  if (!found) compiled.set(name, (found = handlebars.template(specs[name])));",
          "  return found;",
          "}",
        ].join("\n"),
      };
    });
  },
});

/**
 * Marks every package import external (as `packages: "external"` would) except handlebars'
 * runtime, which the precompiled templates need and which is bundled in.
 * @type {import("esbuild").Plugin}
 */
const bundleHandlebarsRuntime = {
  name: "bundle-handlebars-runtime",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("handlebars/dist/cjs/")
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * A module of the generator's own sources, bundled into `temp` and imported, for what the
 * build needs of it: the generator's fingerprint (write/generator-fingerprint.ts, so the build
 * carries it instead of reading every source at each run) and the templates' compile options.
 * @param {typeof import("esbuild").build} build
 * @param {string} temp
 * @param {string} source path below generator/
 */
async function importSource(build, temp, source) {
  const outfile = join(temp, "build-time", source.replace(/\.ts$/, ".mjs"));
  await build({
    entryPoints: [join(generatorDir, source)],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "silent",
    plugins: [keepModuleUrls],
  });
  return import(pathToFileURL(outfile).href);
}

/**
 * The package's entry, from generator/public/config.ts alone: an ES module and a CommonJS one
 * (a config written as .cts or .cjs requires it), and the declarations of each, made by
 * TypeScript from the source (`transpileDeclaration`: no type-check, the module imports
 * nothing). Built again only when the source changed: loading TypeScript costs more than the
 * rest of the build.
 * @param {typeof import("esbuild").build} build
 */
async function buildPublicEntry(build) {
  const source = readFileSync(publicSource, "utf8");
  const stamp = createHash("sha256").update(source).digest("hex").slice(0, 16);
  try {
    if (readFileSync(join(publicDir, "stamp"), "utf8").trim() === stamp) return;
  } catch {
    // not built yet
  }
  const temp = `${publicDir}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  const common = /** @type {const} */ ({
    entryPoints: [publicSource],
    platform: "node",
    target: "node20",
    logLevel: "silent",
  });
  try {
    await build({ ...common, format: "esm", outfile: join(temp, "config.js") });
    await build({ ...common, format: "cjs", outfile: join(temp, "config.cjs") });
    const { default: ts } = await import("typescript");
    const declarations = ts.transpileDeclaration(source, {
      fileName: publicSource,
      reportDiagnostics: true,
    });
    const [problem] = declarations.diagnostics ?? [];
    if (problem)
      throw new Error(
        `${publicSource}: ${ts.flattenDiagnosticMessageText(problem.messageText, "\n")}`,
      );
    writeFileSync(join(temp, "config.d.ts"), declarations.outputText);
    writeFileSync(join(temp, "config.d.cts"), declarations.outputText);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
  writeFileSync(join(temp, "stamp"), `${stamp}\n`);
  rmSync(publicDir, { recursive: true, force: true });
  try {
    renameSync(temp, publicDir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (readFileSync(join(publicDir, "stamp"), "utf8").trim() !== stamp) throw error;
  }
}

/**
 * Builds into a fresh folder and renames it into place, so a run never sees half a build.
 * Throws with each build error at `file:line:col` when a source does not compile.
 */
export async function buildGenerator() {
  const { build } = await import("esbuild");
  const stamp = sourceStamp();
  const temp = `${distDir}.tmp-${process.pid}`;
  try {
    const { generatorFingerprint } = await importSource(
      build,
      temp,
      "write/generator-fingerprint.ts",
    );
    const { templateOptions } = await importSource(build, temp, "emit/template-helpers.ts");
    const fingerprint = generatorFingerprint();
    rmSync(join(temp, "build-time"), { recursive: true, force: true });
    await build({
      define: { __APIGEN_GENERATOR_FINGERPRINT__: JSON.stringify(fingerprint) },
      entryPoints: { cli: join(generatorDir, "cli.ts") },
      outdir: temp,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      plugins: [precompileTemplates(templateOptions), bundleHandlebarsRuntime, relativeModuleUrls],
    });
    await buildPublicEntry(build);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    const errors =
      /** @type {{ errors?: { text: string, location?: { file: string, line: number, column: number } }[] }} */ (
        error
      ).errors;
    const lines = errors?.map(
      (e) =>
        (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1} - ` : "") +
        e.text,
    );
    throw new Error(
      `the generator's own sources do not build:\n${lines?.join("\n") ?? String(error)}`,
    );
  }
  writeFileSync(join(temp, "stamp"), `${stamp}\n`);
  // The old build is moved aside, not removed, before the new one takes its place: a process
  // running the old build (a test's CLI, which imports its chunks as it needs them) finds a
  // folder there at every moment but the one between two renames, and the same sources give
  // chunks of the same names.
  const old = `${distDir}.old-${process.pid}`;
  try {
    renameSync(distDir, old);
  } catch {
    // no build yet
  }
  try {
    renameSync(temp, distDir);
  } catch (error) {
    // Another run built the same sources first: theirs is as good as ours.
    rmSync(temp, { recursive: true, force: true });
    if (builtStamp() !== stamp) throw error;
  }
  rmSync(old, { recursive: true, force: true });
}

/** The package's entry alone, when its source changed (the tests that import "apigen-cli" run it). */
export async function buildPublic() {
  const { build } = await import("esbuild");
  await buildPublicEntry(build);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv[2] === "public") await buildPublic();
    else await buildGenerator();
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
}
