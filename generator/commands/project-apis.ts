/**
 * The APIs a command runs on: those of the config file (all, or the one `--api NAME` picks),
 * with `--spec` and `--out` applied, or without a config the one in `spec/` and `generated/`.
 */
import { cliIo, fromCwd } from "../cli-io.ts";
import { displayPath } from "../diagnostics/display-path.ts";
import { outputDefaults, type OutputSwitches } from "../emit/shared/outputs.ts";
import type { FlagValues } from "./flags.ts";
import { fetchedDocuments, isSpecUrl, reachOf, type RefMap } from "../load/spec-source.ts";
import { refMapOfFlags, UsageError } from "./options.ts";

/** One API, resolved: its folders absolute, its outputs on or off. */
export interface ApiTarget {
  /** Its name in the config, when it has one. */
  name?: string;
  /** The spec folder, or an OpenAPI document: a file, or a URL (fetched before the command runs). */
  specDir: string;
  outDir: string;
  outputs: OutputSwitches;
  /** The folder an imported document's `$ref`s may reach, when the config names one. */
  refRoot?: string;
  /** Local copies of what the document's remote `$ref`s name, by URL prefix (the config's, then `--ref-map`'s). */
  refMap?: RefMap;
  /** Overlay files applied to the document in order, when the config names some. */
  overlays?: string[];
}

export interface ProjectApis {
  /** At least one. */
  apis: ApiTarget[];
  /** The config file that applied, when there was one. */
  configFile?: string;
}

/** The flags' `--spec`, `--out`, `--config` and `--api`, read from the command line, then the config file. */
export async function projectApis(
  values: FlagValues,
  texts: Map<string, string>,
): Promise<ProjectApis> {
  const flag = (name: string) => (typeof values[name] === "string" ? values[name] : undefined);
  const { findConfig, loadConfig } = await import("./config.ts");
  const configFile =
    flag("config") !== undefined ? fromCwd(flag("config")!) : findConfig(fromCwd());
  const config = configFile !== undefined ? await loadConfig(configFile, texts) : undefined;
  let entries = config?.apis ?? [{ outputs: outputDefaults }];
  const picked = flag("api");
  if (picked !== undefined) {
    const names = entries.flatMap((api) => (api.name !== undefined ? [api.name] : []));
    if (configFile === undefined)
      throw new UsageError(`--api ${picked} picks an API of the config file, and there is none`);
    entries = entries.filter((api) => api.name === picked);
    if (entries.length === 0)
      throw new UsageError(
        `no API named ${picked} in ${displayPath(configFile)}${names.length ? `; its APIs: ${names.join(", ")}` : " (its API has no name)"}`,
      );
  }
  const spec = flag("spec");
  const out = flag("out");
  const refRootFlag = flag("ref-root");
  const refMapFlag = refMapOfFlags(values["ref-map"] as string[] | undefined);
  const perApi = spec ?? out ?? refRootFlag ?? refMapFlag;
  if (perApi !== undefined && entries.length > 1)
    throw new UsageError(
      `--spec, --out, --ref-root and --ref-map apply to one API, and ${displayPath(configFile!)} has ${entries.length} (${apiNames(entries)}): pick one with --api NAME`,
    );
  const apis = entries.map((api) => {
    const refRoot = refRootFlag !== undefined ? fromCwd(refRootFlag) : api.refRoot;
    return {
      ...(api.name !== undefined ? { name: api.name } : {}),
      specDir: spec !== undefined ? specPath(spec) : (api.spec ?? fromCwd("spec")),
      outDir: out !== undefined ? fromCwd(out) : (api.out ?? fromCwd("generated")),
      outputs: api.outputs,
      ...reachOf({ refRoot, refMap: { ...api.refMap, ...refMapFlag } }),
      ...(api.overlays?.length ? { overlays: api.overlays } : {}),
    };
  });
  return { apis, ...(configFile !== undefined ? { configFile } : {}) };
}

/** A spec folder or document made absolute; a URL as it is. */
const specPath = (spec: string): string => (isSpecUrl(spec) ? spec : fromCwd(spec));

/**
 * Fetches each API's document that is named by URL, once, before anything runs: the
 * pipeline and the up-to-date check are synchronous and read the bytes kept then.
 */
export async function fetchSpecDocuments(apis: readonly ApiTarget[]): Promise<void> {
  const urls = apis.map((api) => api.specDir).filter(isSpecUrl);
  if (urls.length === 0) return;
  const { fetchDocument, fetchLimits } = await import("../import/fetch-document.ts");
  // the limits the run's environment sets
  const limits = fetchLimits(cliIo().env);
  for (const url of urls) await fetchDocument(url, limits);
}

/** Forgets the documents fetched for `apis`: a later run in the same process fetches them again. */
export function forgetSpecDocuments(apis: readonly ApiTarget[]): void {
  for (const api of apis) fetchedDocuments.delete(api.specDir);
}

function apiNames(apis: readonly { name?: string }[]): string {
  return apis.map((api, i) => api.name ?? `API ${i + 1}`).join(", ");
}

/** The one API of a command that runs on one; a usage error when the config has several and --api picks none. */
export function oneApi(input: ProjectApis, command: string): ApiTarget {
  const [first, ...rest] = input.apis;
  if (rest.length > 0)
    throw new UsageError(
      `${command} runs on one API, and ${displayPath(input.configFile!)} has ${input.apis.length} (${apiNames(input.apis)}): pick one with --api NAME`,
    );
  return first!;
}
