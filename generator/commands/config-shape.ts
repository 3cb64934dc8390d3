/**
 * What a config holds, checked the same way whatever the file is: the data of
 * `apigen.config.json`, or the default export of `apigen.config.ts` (or .js, ...). One API (an
 * object) or several (an array, each with its name, spec and out); every problem is a
 * catalogue diagnostic at its place, found by the file kind's own locator.
 */
import { isRefMapPrefix, isSpecUrl, type RefMap } from "../load/spec-source.ts";
import { resolve } from "node:path";
import { diagnostic, suggestion, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { outputDefaults, type OutputName, type OutputSwitches } from "../emit/shared/outputs.ts";
import type { SourceLocation } from "../ir/model.ts";
import type { ApiConfig } from "../public/config.ts";

/** A path into the config's data: keys and array indexes. */
export type ConfigPath = readonly (string | number)[];

/** Where the key or the value at a path is in the file (undefined: the file as a whole). */
export type ConfigLocator = (path: ConfigPath, at: "key" | "value") => SourceLocation | undefined;

/** One API of the config, checked: its folders absolute, every output switch resolved. */
export interface ConfigApi {
  name?: string;
  /** Absolute spec folder or OpenAPI document (or its URL), when the config names one. */
  spec?: string;
  /** Absolute package folder, when the config names one. */
  out?: string;
  /** Absolute folder an imported document's `$ref`s may reach, when the config names one. */
  refRoot?: string;
  /** Absolute overlay files applied to the document in order, when the config names some. */
  overlays?: string[];
  /** Local copies (absolute) of what the document's remote `$ref`s name, by URL prefix. */
  refMap?: RefMap;
  outputs: OutputSwitches;
}

/** Each key an API may have, with what its value must be (generator/schema/config.schema.json says the same, for editors). */
export const apiKeys = {
  name: "a name of letters, digits, ., _ and - (what --api NAME picks the API by)",
  spec: "a path (the spec folder or an OpenAPI document, relative to this file) or an OpenAPI document's https:// URL",
  out: "a folder path (the package folder, relative to this file)",
  outputs: `an object of true or false by output (${Object.keys(outputDefaults).join(", ")})`,
  refRoot:
    "a folder path (the folder an imported document's $refs may reach, relative to this file)",
  overlays:
    "a list of file paths (OpenAPI Overlay 1.0 files applied to the document in order, relative to this file)",
  refMap:
    "an object of paths by URL prefix (the local copy, relative to this file, of what the document's remote $refs under each URL name)",
} as const satisfies Record<keyof ApiConfig, string>;

/** Keys a config of one API may have besides an API's: the JSON Schema editors check the file with. */
const topKeys = { $schema: "a string (the JSON Schema editors check the file with)" } as const;

const namePattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `3`, `"an empty string"`, `["a"]`: a wrong value as the message shows it. */
function shown(value: unknown): string {
  if (typeof value === "string") return value.trim() === "" ? "an empty string" : value;
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The APIs `data` (the config file's value, whose path is `file`) describes, and every
 * problem of its shape. Paths in it are resolved against the file's folder.
 */
export function checkConfig(
  data: unknown,
  file: string,
  shownFile: string,
  locate: ConfigLocator,
): { apis: ConfigApi[]; problems: Diagnostic[] } {
  const problems: Diagnostic[] = [];
  const base = resolve(file, "..");
  if (Array.isArray(data)) {
    if (data.length === 0)
      return {
        apis: [],
        problems: [diagnostic("config-empty", { file: shownFile }, locate([], "value"))],
      };
    const checked = data.map((entry: unknown, i) => {
      if (isObject(entry)) return checkApi(entry, [i], true, base, locate, problems);
      problems.push(
        diagnostic("config-api-not-object", { actual: shown(entry) }, locate([i], "value")),
      );
      return undefined;
    });
    problems.push(...duplicates(checked, data, locate));
    return { apis: checked.filter((api) => api !== undefined), problems };
  }
  if (!isObject(data))
    return {
      apis: [],
      problems: [
        diagnostic(
          "config-not-object",
          { file: shownFile, actual: shown(data) },
          locate([], "value"),
        ),
      ],
    };
  return { apis: [checkApi(data, [], false, base, locate, problems)], problems };
}

/** One API's keys: unknown ones, values of the wrong kind, and (in an array) missing ones. */
function checkApi(
  entry: Record<string, unknown>,
  path: ConfigPath,
  inArray: boolean,
  base: string,
  locate: ConfigLocator,
  problems: Diagnostic[],
): ConfigApi {
  const keys: Record<string, string> = inArray ? apiKeys : { ...topKeys, ...apiKeys };
  const wrong = (key: string, value: unknown) =>
    problems.push(
      diagnostic(
        "config-wrong-value",
        { key, expected: keys[key]!, actual: shown(value) },
        locate([...path, key], "value"),
      ),
    );
  const api: { -readonly [K in keyof ConfigApi]: ConfigApi[K] } = { outputs: outputDefaults };
  for (const [key, value] of Object.entries(entry)) {
    if (!(key in keys)) {
      const hint =
        suggestion(key, Object.keys(keys)) || `; expected one of: ${Object.keys(keys).join(", ")}`;
      problems.push(
        diagnostic(
          "config-unknown-key",
          { key, where: "the config file", hint },
          locate([...path, key], "key"),
        ),
      );
    } else if (key === "outputs") {
      if (isObject(value)) api.outputs = checkOutputs(value, [...path, key], locate, problems);
      else wrong(key, value);
    } else if (key === "refMap") {
      if (isObject(value)) api.refMap = checkRefMap(value, [...path, key], base, locate, problems);
      else wrong(key, value);
    } else if (key === "overlays") {
      if (Array.isArray(value) && value.every((f) => typeof f === "string" && f.trim() !== ""))
        api.overlays = value.map((file) => resolve(base, file as string));
      else wrong(key, value);
    } else if (typeof value !== "string" || value.trim() === "") wrong(key, value);
    else if (key === "name") {
      if (namePattern.test(value)) api.name = value;
      else wrong(key, value);
    } else if (key === "spec" && isSpecUrl(value)) api.spec = value;
    else if (key === "spec" || key === "out" || key === "refRoot") api[key] = resolve(base, value);
  }
  const missing = inArray
    ? (["name", "spec", "out"] as const).filter((k) => entry[k] === undefined)
    : [];
  if (missing.length > 0)
    problems.push(
      diagnostic(
        "config-missing-key",
        { keys: missing.join(missing.length === 3 ? ", " : " or ").replace(/, (?=\w+$)/, " or ") },
        locate(path, "value"),
      ),
    );
  return api;
}

/** The output switches an `outputs` object sets, over the defaults. */
function checkOutputs(
  value: Record<string, unknown>,
  path: ConfigPath,
  locate: ConfigLocator,
  problems: Diagnostic[],
): OutputSwitches {
  const names = Object.keys(outputDefaults);
  const switches: Record<string, boolean> = { ...outputDefaults };
  for (const [name, on] of Object.entries(value)) {
    if (!names.includes(name)) {
      const hint = suggestion(name, names) || `; expected one of: ${names.join(", ")}`;
      problems.push(
        diagnostic(
          "config-unknown-key",
          { key: name, where: "outputs", hint },
          locate([...path, name], "key"),
        ),
      );
    } else if (typeof on !== "boolean")
      problems.push(
        diagnostic(
          "config-wrong-value",
          { key: `outputs.${name}`, expected: "true or false", actual: shown(on) },
          locate([...path, name], "value"),
        ),
      );
    else switches[name as OutputName] = on;
  }
  // the msw handlers answer with the stand-in: its entry comes with them
  if (switches.msw && !switches.testing)
    problems.push(
      diagnostic(
        "config-wrong-value",
        {
          key: "outputs.msw",
          expected: "false while outputs.testing is false (its handlers answer with the stand-in)",
          actual: "true",
        },
        locate([...path, "msw"], "value"),
      ),
    );
  return switches as OutputSwitches;
}

/** A `refMap`'s copies by URL prefix, each path made absolute; a key that is no http(s) URL or a value that is no path is reported. */
function checkRefMap(
  value: Record<string, unknown>,
  path: ConfigPath,
  base: string,
  locate: ConfigLocator,
  problems: Diagnostic[],
): RefMap {
  const map: Record<string, string> = {};
  for (const [prefix, copy] of Object.entries(value)) {
    const wrong = (expected: string, actual: unknown, at: "key" | "value") =>
      problems.push(
        diagnostic(
          "config-wrong-value",
          { key: `refMap["${prefix}"]`, expected, actual: shown(actual) },
          locate([...path, prefix], at),
        ),
      );
    if (!isRefMapPrefix(prefix)) wrong("a key that is an http:// or https:// URL", prefix, "key");
    else if (typeof copy !== "string" || copy.trim() === "")
      wrong(
        "a path (a folder for a URL ending in /, else a file; relative to this file)",
        copy,
        "value",
      );
    else map[prefix] = resolve(base, copy);
  }
  return map;
}

/** Two APIs of an array with one name, or writing one folder: the second is reported, naming the first. */
function duplicates(
  apis: readonly (ConfigApi | undefined)[],
  entries: readonly unknown[],
  locate: ConfigLocator,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const key of ["name", "out"] as const) {
    const first = new Map<string, number>();
    apis.forEach((api, i) => {
      const value = api?.[key];
      if (value === undefined) return;
      const before = first.get(value);
      if (before === undefined) {
        first.set(value, i);
        return;
      }
      const at = locate([before, key], "value");
      problems.push(
        diagnostic(
          "config-duplicate",
          {
            key,
            value: String((entries[i] as Record<string, unknown>)[key]),
            first: at ? `line ${at.line}` : `API ${before + 1}`,
          },
          locate([i, key], "value"),
        ),
      );
    });
  }
  return problems;
}
