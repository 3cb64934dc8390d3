/**
 * `--import <openapi> --out-spec <folder>`: an OpenAPI 3.0 or 3.1 document becomes a spec
 * folder. Everything the format cannot say is an `undocumented` note naming its JSON pointer.
 * Bad input is an error with its location, and nothing is written: the folder appears whole
 * (written beside it, then renamed) or not at all, and an existing folder with files in it is
 * never written into.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import {
  componentsOf,
  deref,
  isObject,
  note,
  noteShown,
  ownDocument,
  under,
  type ImportContext,
  type TypeOut,
} from "./context.ts";
import { importError, OpenApiDocument, type JsonObject, type Pointer } from "./document.ts";
import { reachOf, type RefMap } from "../load/spec-source.ts";
import { endpointsOf } from "./operations.ts";
import { declareAskedScopes } from "./oauth.ts";
import { chooseErrorBody, errorBodyType } from "./error-body.ts";
import { extensionSections, lifecyclesSection } from "./extensions.ts";
import { inboundSections } from "./inbound.ts";
import { declareGenerics, isGenericUse } from "./generics.ts";
import { fixedHeadersSection, hostsSection } from "./requests.ts";
import { convertDeferred, namedType, typeOf } from "./schemas.ts";
import { hoistDeepTypes, shapeTypes, typeRoots } from "./shape.ts";
import { pascalCase } from "../ir/casing.ts";
import { fixedNames } from "../ir/names.ts";
import {
  apiSection,
  credentialsSection,
  environmentsSection,
  sharedHeadersSection,
  titleName,
} from "./sections.ts";
import { applyOverlays, readOverlay } from "./overlay.ts";
import { responseHeadersSection } from "./response-headers.ts";
import { fromSwagger2, type ConversionLoss } from "./swagger2.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { portableFileNames, specFileText, type SpecFile } from "./write-spec.ts";

export interface ImportOptions {
  /** The OpenAPI document (JSON or YAML). */
  input: string;
  /** The spec folder to create. */
  outSpec: string;
  /** The JSON Schema of the format, for the modeline. */
  schemaFile: string;
  /** npm name of the package; default from the title. */
  packageName?: string;
  /** A wider folder than the document's own that its `$ref`s may reach (`--ref-root`). */
  refRoot?: string;
  /** Local copies of what its remote `$ref`s name, by URL prefix (`--ref-map`). */
  refMap?: RefMap;
  /** Receives the text of every file read, by its shown path, for code frames. */
  texts?: Map<string, string>;
  /** Overlay files (OpenAPI Overlay 1.0) applied to the document in order before it is read. */
  overlays?: string[];
}

export interface ImportResult {
  files: SpecFile[];
  endpoints: number;
  types: number;
  gaps: number;
  /** Warnings of the overlays (an action whose target selects nothing), located in their files. */
  warnings?: Diagnostic[];
}

/** One file of the spec as data: its path in the folder and its sections. */
export interface SpecData {
  path: string;
  sections: JsonObject;
}

/**
 * The spec the document gives, as data (what a spec folder's files parse to), with the
 * context that says where each part came from (`ctx.sources`, `ctx.typeSources`).
 */
export interface ImportedSpec {
  data: SpecData[];
  ctx: ImportContext;
  /** Where each top-level section, and each entry of the `types` sections, came from. */
  keySources: WeakMap<object, Map<string, Pointer>>;
  endpoints: number;
  /** Warnings of the overlays (an action whose target selects nothing), located in their files. */
  warnings: Diagnostic[];
}

export type DocumentInput = Pick<
  ImportOptions,
  "input" | "packageName" | "refRoot" | "refMap" | "texts" | "overlays"
> & {
  /** The document's bytes when it was fetched from the URL `input`. */
  fetched?: Uint8Array;
};

/** Reads the document and builds the spec folder's files (nothing written). */
export function importSpec(options: ImportOptions): ImportResult {
  const imported = importDocument(options);
  const schemaFrom = (path: string) =>
    relative(dirname(join(resolve(options.outSpec), path)), resolve(options.schemaFile))
      .split("\\")
      .join("/");
  const files = imported.data.map(({ path, sections }) => ({
    path,
    text: specFileText(sections, schemaFrom(path)),
  }));
  const { ctx, warnings } = imported;
  return {
    files,
    endpoints: imported.endpoints,
    types: ctx.types.size,
    gaps: ctx.gaps,
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * Reads the document and builds the spec it gives as data: the one conversion both routes
 * share (`import` prints it as files, the live route hands it to the loader's checks).
 */
export function importDocument(options: DocumentInput): ImportedSpec {
  const doc = new OpenApiDocument(options.input, {
    ...reachOf(options),
    ...(options.texts !== undefined ? { texts: options.texts } : {}),
    ...(options.fetched !== undefined ? { fetched: options.fetched } : {}),
  });
  const warnings = overlaid(doc, options);
  const losses = convertedFromSwagger2(doc);
  const version = checkVersion(doc);
  const ctx: ImportContext = {
    doc,
    version,
    schemaNames: new Map(),
    takenNames: new Set(),
    types: new Map(),
    typeSources: new Map(),
    typeAreas: new Map(),
    area: "shared",
    namePrefix: "",
    generatedNames: new Set(),
    gaps: 0,
    depth: 0,
    deferred: [],
    copying: new Set(),
    sources: new WeakMap(),
  };
  const api = apiSection(ctx, options.packageName);
  ctx.namePrefix = pascalCase(titleName(String(api.title))) || "Api";
  ctx.generatedNames = new Set(fixedNames(String(api.clientName)));
  const environments = environmentsSection(ctx);
  const credentials = credentialsSection(ctx, api);
  const headers = { ...fixedHeadersSection(ctx), ...sharedHeadersSection(ctx) };
  const responseHeaders = responseHeadersSection(ctx);
  const hosts = hostsSection(ctx);
  chooseErrorBody(ctx);
  const errorBody = errorBodyType(ctx);
  const endpoints = endpointsOf(ctx, hosts);
  declareAskedScopes(ctx, credentials);
  const inbound = inboundSections(ctx);
  ctx.area = "shared";
  nameEverySchema(ctx);
  convertDeferred(ctx);
  shapeTypes(ctx);
  hoistDeepTypes(ctx, typeRoots(endpoints, inbound));
  noteUncarried(ctx, api);
  for (const loss of losses) noteShown(ctx, api, loss.pointer, loss.what);
  const top: JsonObject = { api };
  if (environments) top.environments = environments;
  if (hosts) top.hosts = hosts;
  if (credentials) top.credentials = credentials;
  if (Object.keys(headers).length) top.headers = headers;
  if (responseHeaders) top.responseHeaders = responseHeaders;
  Object.assign(top, extensionSections(ctx, api));
  if (errorBody !== undefined && ctx.types.has(errorBody))
    top.errors = { ...(isObject(top.errors) ? top.errors : {}), body: errorBody };
  const keySources = new WeakMap<object, Map<string, Pointer>>();
  const data = layout(ctx, top, endpoints, inbound, keySources);
  return { data, ctx, keySources, endpoints: endpoints.length, warnings };
}

/** Where each top-level section of the spec comes from in the document. */
const sectionPointers: Record<string, string> = {
  api: "#/info",
  environments: "#/servers",
  hosts: "#/servers",
  credentials: "#/components/securitySchemes",
  endpoints: "#/paths",
  callbacks: "#/webhooks",
  webhooks: "#/webhooks",
  types: "#/components/schemas",
};

/** Records where the sections of one file came from (and, for `types`, each type). */
function recordSections(
  ctx: ImportContext,
  sections: JsonObject,
  keySources: WeakMap<object, Map<string, Pointer>>,
): void {
  const file = ctx.doc.root.path;
  const keys = new Map<string, Pointer>();
  for (const key of Object.keys(sections))
    if (sectionPointers[key] !== undefined) keys.set(key, { file, pointer: sectionPointers[key] });
  keySources.set(sections, keys);
  const types = sections.types;
  if (isObject(types)) {
    const named = new Map<string, Pointer>();
    for (const name of Object.keys(types)) {
      const at = ctx.typeSources.get(name);
      if (at) named.set(name, at);
    }
    keySources.set(types, named);
  }
}

/**
 * The overlays applied to the document's root file, in order; their warnings. A node an
 * overlay adds has no place in the document's text: a note on it is located at the nearest
 * place the text has.
 */
function overlaid(doc: OpenApiDocument, options: DocumentInput): Diagnostic[] {
  if (!options.overlays?.length) return [];
  const sources = options.overlays.map((path) => {
    const source = readOverlay(path, options.texts);
    // the up-to-date check hashes the overlays with the document: a changed overlay is a new run
    doc.overlayRead(resolve(path), source.bytes);
    return source;
  });
  const { document, warnings } = applyOverlays(doc.root.value, sources);
  doc.root.value = document;
  return warnings;
}

/**
 * A Swagger 2.0 document is read as the OpenAPI 3.0 document it converts to (swagger2.ts),
 * after the overlays (written against the document the team has); what it could not carry.
 */
function convertedFromSwagger2(doc: OpenApiDocument): ConversionLoss[] {
  const root = doc.root.value;
  // `swagger: 2.0` unquoted in YAML is the number 2
  if (!isObject(root) || root.openapi !== undefined || !["2.0", "2"].includes(String(root.swagger)))
    return [];
  const { document, pointers, losses } = fromSwagger2(root);
  doc.root.value = document;
  doc.converted = pointers;
  return losses;
}

/**
 * `openapi: 3.0.x | 3.1.x | 3.2.x` (or Swagger 2.0, converted); anything else is an error. A
 * 3.2 document's schemas are 3.1's (JSON Schema 2020-12); what 3.2 added that the format has no
 * place for (the QUERY method, `additionalOperations`) is noted where the importer meets it.
 */
function checkVersion(doc: OpenApiDocument): "3.0" | "3.1" | "3.2" {
  const root = doc.root.value;
  const at = (pointer: string) => doc.at({ file: doc.root.path, pointer });
  if (!isObject(root))
    throw importError("import-not-openapi", { detail: ": it is not a mapping" }, at("#"));
  if (root.swagger !== undefined && root.openapi !== undefined)
    throw importError(
      "import-bad-document",
      { detail: "it has both `swagger` and `openapi`: keep the one the document is" },
      at("#/swagger"),
      "#/swagger",
    );
  if (root.swagger !== undefined)
    throw importError(
      "import-swagger-unsupported",
      { version: String(root.swagger) },
      at("#/swagger"),
      "#/swagger",
    );
  if (root.openapi === undefined) throw importError("import-not-openapi", { detail: "" }, at("#"));
  const version = String(root.openapi);
  const match = /^3\.([012])\.\d+/.exec(version);
  if (!match)
    throw importError("import-version-unsupported", { version }, at("#/openapi"), "#/openapi");
  if (!isObject(root.paths) && !isObject(root.webhooks))
    throw importError("import-bad-document", { detail: "the document has no paths" }, at("#"));
  return match[1] === "0" ? "3.0" : match[1] === "1" ? "3.1" : "3.2";
}

/** Every component schema becomes a named type, used or not. */
function nameEverySchema(ctx: ImportContext): void {
  declareGenerics(ctx, (schema, at) => typeOf(ctx, schema, at, true));
  const schemas = componentsOf(ctx, "schemas");
  // apigen's own parameters interfaces come from the endpoints, and each use of a generic type
  // is written as the use: neither is a type of the spec.
  for (const [name, schema] of Object.entries(schemas))
    if (
      !isObject(schema) ||
      (schema["x-apigen-params"] === undefined && !isGenericUse(ctx, schema))
    )
      namedType(ctx, schema, {
        file: ctx.doc.root.path,
        pointer: `#/components/schemas/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      });
}

/** Parts of the document not carried yet, noted on `api` so `--gaps` lists them. */
function noteUncarried(ctx: ImportContext, api: JsonObject): void {
  const root = ctx.doc.root.value as JsonObject;
  const at = (pointer: string) => ({ file: ctx.doc.root.path, pointer });
  // apigen's own tag descriptions list each group's endpoints: nothing the spec holds.
  if (Array.isArray(root.tags) && !ownDocument(ctx)) {
    const described = root.tags.filter((t) => isObject(t) && typeof t.description === "string");
    if (described.length) note(ctx, api, at("#/tags"), "tag descriptions");
  }
  if (root.externalDocs !== undefined) note(ctx, api, at("#/externalDocs"), "externalDocs");
  noteOtherMethods(ctx, api);
}

/**
 * OpenAPI 3.2's operations of methods the format has no endpoint for (`additionalOperations`:
 * any method but its own eight and QUERY), noted on the API where they are, and left out.
 */
function noteOtherMethods(ctx: ImportContext, api: JsonObject): void {
  const root = ctx.doc.root.value as JsonObject;
  const rootAt: Pointer = { file: ctx.doc.root.path, pointer: "#" };
  for (const [path, raw] of Object.entries(isObject(root.paths) ? root.paths : {})) {
    const { value: item, at: itemAt } = deref(ctx, raw, under(rootAt, "paths", path));
    if (!isObject(item)) continue;
    const others = isObject(item.additionalOperations) ? item.additionalOperations : {};
    for (const method of Object.keys(others))
      note(
        ctx,
        api,
        under(itemAt, "additionalOperations", method),
        `${method.toUpperCase()} ${path}: a method the format has no endpoint for; left out`,
      );
  }
}

/** The files of the folder, as data. */
function layout(
  ctx: ImportContext,
  top: JsonObject,
  endpoints: ReturnType<typeof endpointsOf>,
  inbound: JsonObject,
  keySources: WeakMap<object, Map<string, Pointer>>,
): SpecData[] {
  const files: SpecData[] = [{ path: "api.yaml", sections: top }];
  const groups = new Map<string, JsonObject>();
  for (const e of endpoints) {
    const group = groups.get(e.group) ?? {};
    group[e.id] = e.value;
    groups.set(e.group, group);
  }
  const groupFiles = portableFileNames([...groups.keys()]);
  for (const [group, list] of groups) {
    const path = `endpoints/${groupFiles.get(group)}.yaml`;
    files.push({ path, sections: { endpoints: list } });
  }
  const areas = new Map<string, Record<string, TypeOut>>();
  for (const [name, type] of ctx.types) {
    const area = ctx.typeAreas.get(name) ?? "shared";
    const types = areas.get(area) ?? {};
    types[name] = type;
    areas.set(area, types);
  }
  for (const section of ["callbacks", "webhooks"] as const)
    if (inbound[section] !== undefined) {
      const path = `${section}.yaml`;
      files.push({ path, sections: { [section]: inbound[section] } });
    }
  const lifecycles = lifecyclesSection(ctx);
  if (lifecycles) files.push({ path: "lifecycles.yaml", sections: { lifecycles } });
  const sorted = [...areas].sort(([a], [b]) => a.localeCompare(b));
  const areaFiles = portableFileNames(sorted.map(([area]) => area));
  for (const [area, types] of sorted) {
    const path = `types/${areaFiles.get(area)}.yaml`;
    files.push({ path, sections: { types: types as JsonObject } });
  }
  for (const file of files) recordSections(ctx, file.sections, keySources);
  return files;
}

/**
 * Writes the folder whole: into a sibling staging folder, renamed into place at the end.
 * `outSpec` is a new folder, an empty one, or a link to an empty one (written through: the
 * link stays and leads to the spec); a file, a link to nothing and a folder with files are
 * refused before anything is written.
 */
export function writeSpecFolder(outSpec: string, files: readonly SpecFile[]): void {
  const target = outFolder(outSpec);
  const staging = join(dirname(target), `.${basename(target)}.apigen-import-${process.pid}`);
  try {
    rmSync(staging, { recursive: true, force: true });
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
    if (existsSync(target)) rmSync(target, { recursive: true });
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw importError("import-out-spec-unwritable", { dir: outSpec, reason });
  }
}

/**
 * The folder the spec is written to: `outSpec` itself, or the folder a link there leads to.
 * Refuses what is not a new or empty folder, naming what it is.
 */
function outFolder(outSpec: string): string {
  const given = resolve(outSpec);
  let link;
  try {
    link = lstatSync(given);
  } catch {
    return given; // nothing there yet
  }
  let target = given;
  if (link.isSymbolicLink()) {
    try {
      target = realpathSync(given);
    } catch {
      throw importError("import-out-spec-not-folder", { dir: outSpec, what: "a link to nothing" });
    }
  }
  const stat = statSync(target);
  if (!stat.isDirectory())
    throw importError("import-out-spec-not-folder", {
      dir: outSpec,
      what: link.isSymbolicLink() ? "a link to a file" : "a file",
    });
  if (readdirSync(target).length > 0)
    throw importError("import-out-spec-not-empty", { dir: outSpec });
  return target;
}
