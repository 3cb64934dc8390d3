/**
 * `apigen init`: a spec folder for a new API (spec/ unless --spec), and a `generate` script
 * in the project's package.json; a config file only when the folders are not the defaults.
 * It never overwrites a file: a spec folder that already holds YAML files, or a config file
 * in the way, ends it before anything is written.
 */
import { fromCwd, cliIo, printOut } from "../cli-io.ts";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { displayPath } from "../diagnostics/display-path.ts";
import { configFileName } from "./config.ts";
import { initNames, initSpecFiles } from "./init-spec.ts";
import { CommandError, UsageError } from "./options.ts";
import { oneApi } from "./project-apis.ts";
import type { CommandInput } from "./table.ts";

/** The JSON Schemas of the format and of the config file, in the installed package (or this repository). */
const schemaFile = fileURLToPath(new URL("../schema/spec.schema.json", import.meta.url));
const configSchemaFile = fileURLToPath(new URL("../schema/config.schema.json", import.meta.url));

const npmName = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/** `path` from `from`, with `/` separators (a modeline and a config file are the same on every OS). */
const posix = (from: string, path: string) => relative(from, path).split(sep).join("/") || ".";

interface ProjectPackage {
  file: string;
  json: Record<string, unknown> | undefined;
  indent: string;
}

/** The package.json of the project (the working folder), if there is one. */
function readProjectPackage(): ProjectPackage {
  const file = fromCwd("package.json");
  if (!existsSync(file)) return { file, json: undefined, indent: "  " };
  const text = readFileSync(file, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CommandError(`package.json is not JSON (${(error as Error).message}); fix it first`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new CommandError("package.json does not hold a JSON object; fix it first");
  return {
    file,
    json: json as Record<string, unknown>,
    indent: /\n([ \t]+)"/.exec(text)?.[1] ?? "  ",
  };
}

/** The working folder's name as an npm name: lower case, other characters as `-`. */
const folderName = () =>
  basename(cliIo().cwd)
    .toLowerCase()
    .replace(/[^a-z0-9-._~]+/g, "-");

/** The package name: --name, else the project's name + `-api`. */
function packageName(input: CommandInput, project: ProjectPackage): string {
  const given = input.values.name;
  if (typeof given === "string") {
    if (!npmName.test(given)) throw new UsageError(`--name ${given} is not an npm package name`);
    return given;
  }
  const base = typeof project.json?.name === "string" ? project.json.name : folderName();
  const name = `${base}-api`;
  return npmName.test(name) ? name : "my-api";
}

/** The project's package.json with a `generate` script added; what was done, for the report. */
function addGenerateScript(project: ProjectPackage): string {
  const json = project.json ?? { name: folderName(), version: "0.1.0", private: true };
  const scripts = (json.scripts ?? {}) as Record<string, unknown>;
  if (scripts.generate !== undefined)
    return `package.json: has a generate script already (${JSON.stringify(scripts.generate)}); left as it is`;
  json.scripts = { ...scripts, generate: "apigen generate" };
  writeFileSync(project.file, `${JSON.stringify(json, null, project.indent)}\n`);
  return `package.json: ${project.json ? "" : "written, with "}"generate": "apigen generate"`;
}

/** Refuses, before writing anything, when a file init would write is there already. */
function refuseExisting(specDir: string, config: string | undefined): void {
  const yaml = existsSync(specDir)
    ? readdirSync(specDir, { recursive: true }).filter((f) => String(f).endsWith(".yaml"))
    : [];
  if (yaml.length > 0)
    throw new CommandError(
      `${displayPath(specDir)}/ already holds spec files: init never overwrites a file. Choose another folder with --spec.`,
    );
  if (config !== undefined && existsSync(config))
    throw new CommandError(`${displayPath(config)} exists: init never overwrites a file.`);
}

/** Whether the project can resolve `typescript`, which `npm run build` of the package needs. */
function hasTypeScript(): boolean {
  try {
    createRequire(fromCwd("package.json")).resolve("typescript/package.json");
    return true;
  } catch {
    return false;
  }
}

export async function initCommand(input: CommandInput): Promise<number> {
  const { specDir, outDir } = oneApi(input, "init");
  const project = readProjectPackage();
  const names = initNames(packageName(input, project));
  // A config file records folders that are not the defaults, so every command finds them.
  const custom =
    input.configFile === undefined &&
    (input.values.spec !== undefined || input.values.out !== undefined);
  const config = custom ? fromCwd(configFileName) : undefined;
  refuseExisting(specDir, config);
  const files = initSpecFiles(names, posix(specDir, schemaFile));
  mkdirSync(specDir, { recursive: true });
  for (const file of files) writeFileSync(join(specDir, file.name), file.text, { flag: "wx" });
  const lines = [
    `${displayPath(specDir)}/: ${files.map((f) => f.name).join(", ")} (${names.packageName})`,
  ];
  if (config !== undefined) {
    const settings = {
      $schema: `./${posix(cliIo().cwd, configSchemaFile)}`.replace(/^\.\/\.\.\//, "../"),
      spec: posix(cliIo().cwd, specDir),
      out: posix(cliIo().cwd, outDir),
    };
    writeFileSync(config, `${JSON.stringify(settings, null, 2)}\n`, { flag: "wx" });
    lines.push(`${displayPath(config)}: spec and out folders`);
  }
  lines.push(addGenerateScript(project));
  const out = displayPath(outDir);
  const steps: [string, string][] = [
    // npm installs TypeScript as apigen's peer, unless legacy-peer-deps is set
    ...(hasTypeScript()
      ? []
      : [["npm install -D typescript", "to build the package"] as [string, string]]),
    ["npm run generate", `${displayPath(specDir)}/ -> ${out}/`],
    [`npm run build --prefix ${out}`, `${out}/src -> ${out}/dist`],
    [`npm install ./${out}`, `then import { ${names.clientName} } from "${names.packageName}"`],
  ];
  const width = Math.max(...steps.map(([command]) => command.length)) + 2;
  lines.push("", "Next:", ...steps.map(([command, why]) => `  ${command.padEnd(width)}# ${why}`));
  printOut(lines.join("\n"));
  return 0;
}
