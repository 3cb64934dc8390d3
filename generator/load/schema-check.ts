/**
 * Validates spec data against the JSON Schema and turns Ajv's errors into catalogue
 * diagnostics at the exact key or value they concern.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv";
import { diagnostic, nearest, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { DataPath, SpecFile } from "./spec-file.ts";

const require = createRequire(import.meta.url);
const schemaPath = fileURLToPath(new URL("../schema/spec.schema.json", import.meta.url));

let compiled: ValidateFunction | undefined;

/**
 * The schema validator. Compiling the schema costs about 200 ms, so the compiled code is
 * kept in node_modules/.cache/apigen, keyed by the schema's and Ajv's bytes; loading it
 * costs about 20 ms. Without a writable cache it is compiled in memory each run.
 */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  const ajvPackage = require.resolve("ajv/package.json");
  const schemaText = readFileSync(schemaPath, "utf8");
  const key = createHash("sha256")
    .update(schemaText)
    .update(readFileSync(ajvPackage))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = join(
    dirname(dirname(ajvPackage)),
    ".cache",
    "apigen",
    `spec-validator-${key}.cjs`,
  );
  if (existsSync(cacheFile)) {
    compiled = require(cacheFile) as ValidateFunction;
    return compiled;
  }
  const { default: Ajv } = require("ajv") as typeof import("ajv");
  const { default: standaloneCode } =
    require("ajv/dist/standalone") as typeof import("ajv/dist/standalone/index.js");
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { source: true } });
  compiled = ajv.compile(JSON.parse(schemaText) as object);
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, standaloneCode(ajv, compiled));
    renameSync(temp, cacheFile);
  } catch {
    // A read-only install still validates; it only compiles again next time.
  }
  return compiled;
}

/** Every schema problem of one file. */
export function checkSchema(file: SpecFile): Diagnostic[] {
  const validate = validator();
  if (validate(file.data)) return [];
  const errors = collapseAlternatives(validate.errors ?? []);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const error of errors) {
    const d = toDiagnostic(file, error);
    const key = `${d.location?.line}:${d.location?.col}:${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

/**
 * A `oneOf` whose every branch failed on type becomes one "expected A or B" error;
 * otherwise the errors of the branch whose type matched speak for it.
 */
function collapseAlternatives(errors: ErrorObject[]): ErrorObject[] {
  // A bad property name is reported by the inner `pattern` error, which knows the name.
  const alternatives = errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  let rest = errors.filter((e) => !alternatives.includes(e) && e.keyword !== "propertyNames");
  const merged: ErrorObject[] = [];
  for (const alt of alternatives) {
    const within = (e: ErrorObject) =>
      branchOf(alt, e) !== undefined &&
      (e.instancePath === alt.instancePath || e.instancePath.startsWith(`${alt.instancePath}/`));
    const children = rest.filter(within);
    const typeMisses = children.filter(
      (e) => e.keyword === "type" && e.instancePath === alt.instancePath,
    );
    const branches = (alt.schema as unknown[]).length;
    // A branch of the wrong type says nothing about the value (`2000` is no `4xx`): only the
    // branches whose type matched speak, so one bad value gives one error.
    const missed = new Set(typeMisses.map((e) => branchOf(alt, e)));
    // Of the branches of the right type, one that lacks a key it requires says less than one
    // that has its keys (`{ anyOf: [...] }` is no `{ credential }` missing its credential): the
    // ones that have them speak, where there are such.
    const typed = [...new Set(children.map((e) => branchOf(alt, e)))].filter((b) => !missed.has(b));
    const lacking = new Set(
      children
        .filter((e) => e.keyword === "required" && e.instancePath === alt.instancePath)
        .map((e) => branchOf(alt, e)),
    );
    const unheard = typed.length > lacking.size ? lacking : new Set<string>();
    rest = rest.filter(
      (e) =>
        !children.includes(e) || (!missed.has(branchOf(alt, e)) && !unheard.has(branchOf(alt, e))),
    );
    if (typeMisses.length >= branches) {
      rest = rest.filter((e) => !children.includes(e));
      const expected = [
        ...new Set(typeMisses.map((e) => String((e.params as { type: string }).type))),
      ];
      merged.push({ ...typeMisses[0]!, params: { type: expected.join(" or ") } });
    }
  }
  return [...rest, ...merged];
}

/**
 * Index of the branch of `alt` (a `oneOf`/`anyOf` error) that `error` comes from: by its
 * schema path, under the alternative's own or, for a branch that is a `$ref`
 * (`#/definitions/camelName`), under the definition it names; undefined for neither.
 */
function branchOf(alt: ErrorObject, error: ErrorObject): string | undefined {
  if (error.schemaPath.startsWith(`${alt.schemaPath}/`))
    return error.schemaPath.slice(alt.schemaPath.length + 1).split("/", 1)[0]!;
  const index = (alt.schema as { $ref?: unknown }[]).findIndex(
    (branch) => typeof branch?.$ref === "string" && error.schemaPath.startsWith(`${branch.$ref}/`),
  );
  return index >= 0 ? String(index) : undefined;
}

/**
 * The data path of a JSON pointer into `data`: an index into a list is a number, as the
 * locators expect (a string segment would stop at the list, so a problem in its third item
 * would point at the list's first).
 */
function pathOf(pointer: string, data: unknown): DataPath {
  if (pointer === "") return [];
  const path: (string | number)[] = [];
  let value = data;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const step = Array.isArray(value) ? Number(segment) : segment;
    path.push(step);
    value = (value as Record<string | number, unknown> | undefined)?.[step];
  }
  return path;
}

function valueAt(data: unknown, path: DataPath): unknown {
  let value = data;
  for (const segment of path)
    value = (value as Record<string, unknown> | undefined)?.[segment as string];
  return value;
}

function describe(value: unknown): string {
  if (value === null) return "null (an empty value)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

const typeWords: Record<string, string> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "a boolean",
};

/**
 * An unknown key that is really the rest of a value cut at a comma inside `{ }`
 * (`{ description: Results per page (max 100, default 30). }` reads `default 30).` as a
 * key): the hint to quote the value, instead of a list of allowed keys that cannot help.
 * Recognised by a key without a value that follows a comma, right after a text value.
 */
function splitFlowValue(file: SpecFile, path: DataPath, key: string): Diagnostic | undefined {
  const parent = valueAt(file.data, path);
  if (typeof parent !== "object" || parent === null || Array.isArray(parent)) return undefined;
  const entries = Object.entries(parent as Record<string, unknown>);
  // back over the keys without a value (a text with several commas gives one per comma) to
  // the text value they were cut from: one diagnostic for all of them, at the first
  let origin = entries.findIndex(([k]) => k === key);
  if (origin < 1 || entries[origin]![1] !== null) return undefined;
  while (origin > 0 && entries[origin - 1]![1] === null) origin--;
  const previous = entries[origin - 1];
  if (previous === undefined || typeof previous[1] !== "string") return undefined;
  const first = entries[origin]![0];
  const where = file.locate([...path, first], "key");
  const start = file.locate([...path, previous[0]]);
  const lines = file.text.split("\n");
  const line = lines[where.line - 1] ?? "";
  if (!/,\s*$/.test(line.slice(0, where.col - 1))) return undefined;
  // the last key of the run on this line: the quoted value runs to its end
  let last = origin;
  while (
    entries[last + 1]?.[1] === null &&
    file.locate([...path, entries[last + 1]![0]], "key").line === where.line
  )
    last++;
  const end = file.locate([...path, entries[last]![0]], "key");
  const whole =
    start.line === where.line
      ? line.slice(start.col - 1, end.col - 1 + entries[last]![0].length)
      : `${previous[1]}, ${first}`;
  return diagnostic(
    "schema-comma-in-flow",
    { key: first, field: previous[0], value: JSON.stringify(whole) },
    where,
  );
}

/**
 * Why a key has no value, where the line after it is not indented past it (a trial of Zoom's
 * API moved a field out one level, beside `fields:`, which then held nothing): said with the
 * empty value, which read as a mystery alone.
 */
function notIndentedUnder(file: SpecFile, at: { line: number }): string {
  const lines = file.text.split("\n");
  const indent = (line: string) => /^ */.exec(line)![0].length;
  const keyLine = lines[at.line - 1] ?? "";
  const next = lines.slice(at.line).find((line) => !/^\s*(#.*)?$/.test(line));
  if (next === undefined || indent(next) > indent(keyLine)) return "";
  const key = /^\s*(?:-\s+)?([^:#]+):/.exec(keyLine)?.[1]?.trim();
  return key ? `: nothing below ${key}: is indented under it` : "";
}

let typeNamePattern: string | undefined;

/** Whether a failed pattern is that of a type name (compared by text: a cached validator has its own schema objects). */
function isTypeNamePattern(pattern: unknown): boolean {
  typeNamePattern ??= (
    JSON.parse(readFileSync(schemaPath, "utf8")) as {
      definitions: { typeName: { pattern: string } };
    }
  ).definitions.typeName.pattern;
  return pattern === typeNamePattern;
}

/** Keys of a parameter that a type does not take. */
const parameterKeys = new Set(["name", "in", "style", "sendDefault", "slashes"]);

/**
 * For a key unknown at the level of a named type that has `fields` (a field written one level
 * too far out, as a dedent makes it): where a field goes.
 */
function fieldHint(file: SpecFile, path: DataPath): string {
  if (path.length !== 2 || path[0] !== "types") return "";
  const type = valueAt(file.data, path);
  return type !== null && typeof type === "object" && "fields" in type
    ? " (a field of the type goes under its fields:)"
    : "";
}

function toDiagnostic(file: SpecFile, error: ErrorObject): Diagnostic {
  const path = pathOf(error.instancePath, file.data);
  const params = error.params as Record<string, unknown>;
  const parent = error.parentSchema as
    | { patternDescription?: string; properties?: Record<string, unknown> }
    | undefined;
  const patternText = parent?.patternDescription ?? `a match of /${String(params.pattern)}/`;
  if (error.propertyName !== undefined) {
    // A name with a line break or another control character is quoted, so the message stays one line.
    const name = error.propertyName;
    const shown = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)
      ? JSON.stringify(name)
      : name;
    return diagnostic(
      "schema-bad-name",
      { what: "name", value: shown, pattern: patternText },
      file.locate([...path, error.propertyName], "key"),
    );
  }
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const split = splitFlowValue(file, path, key);
      if (split) return split;
      // a parameter's own keys are no type's (the schema shares one definition for both): listed
      // only for a parameter (a webhook event's `success` listed `in` and `slashes`, Twitch's trial)
      const properties = parent?.properties ?? {};
      const shared = "slashes" in properties && "sendDefault" in properties;
      const isParam = path.length >= 2 && path[path.length - 2] === "params";
      const keys = Object.keys(properties).filter(
        (k) => !shared || isParam || !parameterKeys.has(k),
      );
      const near = nearest(key, keys);
      const hint = near ? ` (did you mean ${near}?)` : fieldHint(file, path);
      return diagnostic(
        "schema-unknown-key",
        { key, hint, allowed: keys.join(", ") },
        file.locate([...path, key], "key"),
      );
    }
    case "required":
      return diagnostic(
        "schema-missing-key",
        { key: String(params.missingProperty) },
        file.locate(path, "key"),
      );
    case "type": {
      const expected = String(params.type)
        .split(/,| or /)
        .map((t) => typeWords[t] ?? t)
        .join(" or ");
      const value = valueAt(file.data, path);
      const where = file.locate(path);
      return diagnostic(
        "schema-wrong-type",
        {
          expected,
          actual: describe(value) + (value === null ? notIndentedUnder(file, where) : ""),
        },
        where,
      );
    }
    case "enum": {
      const value = valueAt(file.data, path);
      const allowed = (params.allowedValues as unknown[]).map(String);
      // one edit in a short value: FETCH is no misspelled PATCH
      const near =
        typeof value === "string"
          ? nearest(value, allowed, Math.max(1, Math.floor(value.length / 3)))
          : undefined;
      return diagnostic(
        "schema-not-allowed",
        {
          value: JSON.stringify(value),
          hint: near ? ` (did you mean ${near}?)` : "",
          allowed: allowed.join(", "),
        },
        file.locate(path),
      );
    }
    case "pattern":
      // `extends: A | B`: say what is wrong (one type is expected), not that it is no PascalCase name.
      if (isTypeNamePattern(params.pattern) && String(valueAt(file.data, path)).includes("|"))
        return diagnostic(
          "union-not-allowed",
          { value: JSON.stringify(valueAt(file.data, path)), key: String(path.at(-1) ?? "value") },
          file.locate(path),
        );
      return diagnostic(
        "schema-bad-name",
        { what: "value", value: JSON.stringify(valueAt(file.data, path)), pattern: patternText },
        file.locate(path),
      );
    case "uniqueItems": {
      // `auth: [key, key]`: say which entry repeats which, at the repeat
      const { i, j } = params as { i: number; j: number };
      const list = valueAt(file.data, path);
      const item = Array.isArray(list) ? list[i] : undefined;
      const shown = typeof item === "string" ? item : `item ${j + 1}`;
      return diagnostic(
        "schema-bad-value",
        {
          detail: `${path.at(-1) ?? "the list"} lists ${shown} twice (items ${j + 1} and ${i + 1}): once is enough`,
        },
        file.locate([...path, i]),
      );
    }
    default:
      return diagnostic(
        "schema-bad-value",
        { detail: `${path.at(-1) ?? "value"} ${error.message ?? "is invalid"}` },
        file.locate(path),
      );
  }
}
