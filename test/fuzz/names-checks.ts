/**
 * The checks of test/fuzz/names.fuzz.test.ts: a model's identifiers valid and unique in each
 * scope, file names portable, and the input's names all in the model.
 */
import { expect } from "vitest";
import type { ApiModel } from "../../generator/ir/model.ts";
import { fixedNames } from "../../generator/ir/names.ts";
import { clientModuleValues, runtimeExportNames } from "../../generator/ir/reserved-names.ts";
import { marker, reservedWords, type DocumentInput, type SpecInput } from "./names-inputs.ts";

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const reserved = new Set(reservedWords);
/** What every object has, and what an object with it would be taken for (a promise, a prototype). */
const members = new Set([...Object.getOwnPropertyNames(Object.prototype), "then", "prototype"]);

/** `names` has no name twice; the message lists those it has twice. */
function expectUnique(names: readonly string[], scope: string): void {
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  expect(twice, `${scope}: names given twice`).toEqual([]);
}

/** Every name is an identifier a declaration may take. */
function expectDeclarable(names: readonly string[], scope: string): void {
  for (const name of names) {
    expect(identifier.test(name), `${scope}: ${JSON.stringify(name)} is no identifier`).toBe(true);
    expect(reserved.has(name), `${scope}: ${name} is a reserved word`).toBe(false);
  }
}

/** The identifiers of the model are valid and unique in each scope. */
export function expectIdentifiers(model: ApiModel): void {
  const endpoints = model.endpoints;
  const groups = [...new Map(endpoints.map((e) => [e.group, e])).values()];
  const responses = endpoints.flatMap((e) => [
    e.response,
    ...(e.streamResponse ? [e.streamResponse] : []),
  ]);
  const packageNames = [
    ...model.types.map((t) => t.name),
    ...model.paramsTypes.map((p) => p.name),
    ...groups.map((e) => e.groupClassName),
    ...responses.flatMap((r) => [r.headersTypeName, r.stream?.eventTypeName]),
    ...endpoints.map((e) => e.bodyValidatorName?.replace(/^validate/, "")),
    ...model.callbacks.map((c) => c.resultTypeName),
  ].filter((n): n is string => n !== undefined);
  expectUnique(
    [...packageNames, ...runtimeExportNames, ...fixedNames(model.api.clientName)],
    "package",
  );
  // Type names: a PascalCase name is never a reserved word (a type named `Infinity` is fine).
  for (const name of packageNames)
    expect(/^[A-Z][A-Za-z0-9]*$/.test(name), `package: ${JSON.stringify(name)}`).toBe(true);
  const functions = endpoints.map((e) => e.functionName);
  expectUnique(
    [...functions, ...packageNames.map((n) => `validate${n}`), ...clientModuleValues],
    "client module",
  );
  expectDeclarable(functions, "client module");
  const groupMembers = groups.map((e) => e.groupProperty);
  // Members may be reserved words (`client.delete`), never members every object has.
  expectUnique(groupMembers, "client members");
  for (const name of groupMembers) {
    expect(identifier.test(name), `client member ${JSON.stringify(name)}`).toBe(true);
    expect(members.has(name), `client member ${name}`).toBe(false);
  }
  for (const group of groups) {
    const methods = endpoints.filter((e) => e.group === group.group).map((e) => e.methodName);
    expectUnique(methods, `group ${group.group}`);
    for (const name of methods) {
      expect(identifier.test(name), `method ${JSON.stringify(name)}`).toBe(true);
      expect(members.has(name) || name === "core", `method ${name}`).toBe(false);
    }
  }
  for (const endpoint of endpoints) {
    // Path and trailing parameters are the function's parameters; the others are keys of one.
    const params = endpoint.params
      .filter((p) => p.placement === "path" || p.placement === "trailing")
      .map((p) => p.camelName);
    expectUnique(
      [...params, "core", "body", "query", "params", "options"],
      `${endpoint.id}'s parameters`,
    );
    expectDeclarable(params, `${endpoint.id}'s parameters`);
    expectUnique(
      endpoint.params.map((p) => p.name),
      `${endpoint.id}'s parameter keys`,
    );
  }
  const handlers = model.callbacks.map((c) => c.camelName);
  expectUnique(handlers, "handlers");
  expectDeclarable(handlers, "handlers");
  const codes = model.errors.codes.map((c) => c.name);
  expectUnique(codes, "error codes");
  for (const name of codes) expect(identifier.test(name) && name !== "__proto__").toBe(true);
}

const windowsDevice = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** File paths unique when case is ignored, and each part writable (and short enough) on every file system. */
export function expectPortable(paths: readonly string[], what: string): void {
  expectUnique(
    paths.map((p) => p.toLowerCase()),
    `${what} (case ignored)`,
  );
  for (const path of paths)
    for (const part of path.split("/")) {
      expect(windowsDevice.test(part.split(".")[0]!), `${what}: ${path} is a device name`).toBe(
        false,
      );
      expect(/[<>:"\\|?*\u0000-\u001f]|[. ]$/.test(part), `${what}: ${path}`).toBe(false);
      // A file system holds 255 bytes a name, Windows 260 characters a path.
      expect(Buffer.byteLength(part, "utf8"), `${what}: ${path} is too long`).toBeLessThanOrEqual(
        100,
      );
    }
}

/** Every name of the input is in the model under its own name on the wire. */
export function expectWireNames(input: DocumentInput, model: ApiModel): void {
  expect(model.endpoints).toHaveLength(input.operations.length);
  expect(model.credentials).toHaveLength(input.schemes.length);
  input.schemas.forEach((schema, i) => {
    const type = model.types.find(
      (t) => t.type.kind === "object" && t.type.fields.some((f) => f.name === marker(i)),
    );
    expect(type, `the type of schema ${JSON.stringify(schema.name)}`).toBeDefined();
    if (type?.type.kind !== "object") return;
    // In field order, but for integer-like names, which a JavaScript object (and so JSON
    // and YAML as read) puts first.
    const byName = (a: [string, boolean], b: [string, boolean]) => (a[0] < b[0] ? -1 : 1);
    const fields = type.type.fields.map((f): [string, boolean] => [f.name, f.required]);
    expect(fields.sort(byName)).toEqual(
      [
        [marker(i), false] as [string, boolean],
        ...schema.properties.map((p): [string, boolean] => [p.name, p.required]),
      ].sort(byName),
    );
  });
  input.operations.forEach((op, i) => {
    const endpoint = model.endpoints.find(
      (e) => e.path === `/op${i}` || e.path.startsWith(`/op${i}/`),
    );
    expect(endpoint, `operation ${i}`).toBeDefined();
    if (!endpoint) return;
    // As sets: a parameter keyed by an integer-like name comes first in a JavaScript object.
    const wire = (placement: string) =>
      endpoint.params
        .filter((p) => p.placement === placement)
        .map((p) => `${p.wireName ?? p.name}${p.required ? " (required)" : ""}`)
        .sort();
    expect(wire("query")).toEqual(
      op.query.map((q) => `${q.name}${q.required ? " (required)" : ""}`).sort(),
    );
    expect(wire("header")).toEqual([...op.headers].sort());
    expect(wire("path")).toHaveLength(op.pathParams.length);
  });
}

/** Every field, parameter key and wire name of the spec is in the model as written. */
export function expectSpecNames(input: SpecInput, model: ApiModel): void {
  for (const type of input.types) {
    const named = model.types.find((t) => t.name === type.name);
    expect(named?.type.kind).toBe("object");
    if (named?.type.kind !== "object") continue;
    expect(named.type.fields.map((f) => f.name).sort()).toEqual(
      type.fields.map((f) => f.name).sort(),
    );
  }
  input.endpoints.forEach((e) => {
    const endpoint = model.endpoints.find((m) => m.id === `${e.group}.${e.name}`)!;
    const wire = (placement: string) =>
      endpoint.params
        .filter((p) => p.placement === placement)
        .map((p) => `${p.name}=${p.wireName ?? p.name}`)
        .sort();
    expect(wire("query")).toEqual(e.query.map((q) => `${q.key}=${q.wire ?? q.key}`).sort());
    expect(wire("header")).toEqual(e.headers.map((h) => `${h.key}=${h.wire ?? h.key}`).sort());
    expect(wire("path")).toEqual(e.pathParams.map((p) => `${p}=${p}`).sort());
  });
  expect(model.errors.codes.map((c) => String(c.code)).sort()).toEqual([...input.codes].sort());
  expect(model.callbacks.map((c) => c.event)).toEqual(input.callbacks);
}

/**
 * A consumer of the package that names every method and function as callable: a method an
 * interface read as something else (`new(...)` is a construct signature) fails to type-check.
 */
export function consumerOf(model: ApiModel): string {
  const client = model.api.clientName;
  const lines = model.endpoints.flatMap((e, i) => [
    `export type Method${i} = Parameters<${client}[${JSON.stringify(e.groupProperty)}][${JSON.stringify(e.methodName)}]>;`,
    `export type Function${i} = Parameters<typeof index.${e.functionName}>;`,
  ]);
  return [
    'import type * as index from "./index.js";',
    `import type { ${client} } from "./index.js";`,
    ...lines,
    "",
  ].join("\n");
}
