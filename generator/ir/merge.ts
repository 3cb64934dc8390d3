/**
 * Merges the sections of every spec file into one set of declarations, each still
 * pointing at the file and data path it came from. A name declared twice is reported
 * at the second place, naming the first.
 */
import type { DiagnosticBag } from "../diagnostics/diagnostic.ts";
import type { DataPath, SpecFile } from "../load/spec-file.ts";

export interface Decl<T = Record<string, unknown>> {
  name: string;
  value: T;
  file: SpecFile;
  path: DataPath;
}

export interface MergedSpec {
  api?: Decl;
  idempotency?: Decl;
  versioning?: Decl;
  errors?: Decl;
  webhooks?: Decl;
  environments: Decl[];
  hosts: Decl[];
  credentials: Decl[];
  headers: Decl[];
  /** `responseHeaders:`: the response headers of every endpoint. */
  responseHeaders: Decl<unknown>[];
  versions: Decl[];
  errorCodes: Decl[];
  errorStatuses: Decl[];
  errorResponses: Decl[];
  types: Decl<unknown>[];
  endpoints: Decl[];
  callbacks: Decl[];
  lifecycles: Decl[];
  limits: Decl[];
}

type Data = Record<string, unknown>;

/** Every declaration of every file, in file order then source order. */
export function mergeSpec(files: readonly SpecFile[], bag: DiagnosticBag): MergedSpec {
  const merged: MergedSpec = {
    environments: [],
    hosts: [],
    credentials: [],
    headers: [],
    responseHeaders: [],
    versions: [],
    errorCodes: [],
    errorStatuses: [],
    errorResponses: [],
    types: [],
    endpoints: [],
    callbacks: [],
    lifecycles: [],
    limits: [],
  };
  const firstSeen = new Map<string, Decl<unknown>>();
  const where = (d: Decl<unknown>) => {
    const l = d.file.locate(d.path, "key");
    return `${l.file}:${l.line}:${l.col}`;
  };
  const declare = <T>(
    kind: string,
    list: Decl<T>[] | undefined,
    decl: Decl<T>,
  ): Decl<T> | undefined => {
    const key = `${kind}\u0000${decl.name}`;
    const first = firstSeen.get(key);
    if (first) {
      bag.report(
        "duplicate-declaration",
        { kind, name: decl.name, first: where(first) },
        decl.file.locate(decl.path, "key"),
      );
      return undefined;
    }
    firstSeen.set(key, decl as Decl<unknown>);
    list?.push(decl);
    return decl;
  };
  const entries = <T>(
    file: SpecFile,
    path: DataPath,
    section: unknown,
    kind: string,
    list: Decl<T>[],
  ) => {
    for (const [name, value] of Object.entries((section ?? {}) as Data)) {
      declare(kind, list, { name, value: value as T, file, path: [...path, name] });
    }
  };
  for (const file of files) {
    const data = file.data as Data;
    for (const single of ["api", "idempotency", "webhooks"] as const) {
      if (data[single] !== undefined) {
        const decl = declare("section", undefined, {
          name: single,
          value: data[single] as Data,
          file,
          path: [single],
        });
        if (decl) merged[single] = decl;
      }
    }
    const versioning = data.versioning as Data | undefined;
    if (versioning) {
      const decl = declare("section", undefined, {
        name: "versioning",
        value: versioning,
        file,
        path: ["versioning"],
      });
      if (decl) merged.versioning = decl;
      entries(file, ["versioning", "versions"], versioning.versions, "version", merged.versions);
    }
    const errors = data.errors as Data | undefined;
    if (errors) {
      if (
        errors.description !== undefined ||
        errors.undocumented !== undefined ||
        errors.requestIdHeader !== undefined ||
        errors.body !== undefined ||
        errors.codeField !== undefined ||
        errors.messageField !== undefined
      ) {
        const decl = declare("section", undefined, {
          name: "errors",
          value: errors,
          file,
          path: ["errors"],
        });
        if (decl) merged.errors = decl;
      }
      entries(file, ["errors", "codes"], errors.codes, "error code", merged.errorCodes);
      entries(file, ["errors", "statuses"], errors.statuses, "status", merged.errorStatuses);
      ((errors.responses ?? []) as Data[]).forEach((value, i) =>
        merged.errorResponses.push({
          name: String(i),
          value,
          file,
          path: ["errors", "responses", i],
        }),
      );
    }
    entries(file, ["environments"], data.environments, "environment", merged.environments);
    entries(file, ["hosts"], data.hosts, "host", merged.hosts);
    entries(file, ["credentials"], data.credentials, "credential", merged.credentials);
    entries(file, ["headers"], data.headers, "header", merged.headers);
    entries(
      file,
      ["responseHeaders"],
      data.responseHeaders,
      "response header",
      merged.responseHeaders,
    );
    entries(file, ["types"], data.types, "type", merged.types);
    entries(file, ["endpoints"], data.endpoints, "endpoint", merged.endpoints);
    entries(file, ["callbacks"], data.callbacks, "callback", merged.callbacks);
    entries(file, ["lifecycles"], data.lifecycles, "lifecycle", merged.lifecycles);
    entries(file, ["limits"], data.limits, "limit", merged.limits);
  }
  return merged;
}
