/**
 * The error responses of an endpoint, from the IR's resolved `errors` (its own plus every
 * scoped response that applies, already de-duplicated and sorted). One response per
 * status (`4xx`/`5xx` become the OpenAPI ranges `4XX`/`5XX`), whose body is the error body
 * schema of the endpoint's version, with one example per code or tag that can appear with
 * it. An entry without a status (a code or tag that appears with any error status) is
 * listed, and given as an example, under every error response of the endpoint. Examples
 * are built from the error body type by examples.ts, so they validate against it.
 */
import type { ApiModel, Endpoint, ErrorResponse, ErrorStatus, NamedType } from "../../ir/model.ts";
import { codesByNumber, typesByName } from "../lookup.ts";
import { errorExample } from "./examples.ts";
import { notesOf, obj, text, type Json, type JsonObject } from "./json.ts";
import { schemaRef } from "./schemas.ts";

/** The key of a status in `responses`. */
export function statusKey(status: ErrorStatus | number): string {
  return typeof status === "number" ? String(status) : status.toUpperCase();
}

/** `Code 1005`, `Tag unprocessable_request`, or nothing. */
function entryLabel(entry: ErrorResponse): string | undefined {
  if (entry.code !== undefined)
    return `Code ${entry.code}${entry.tag !== undefined ? `, tag ${entry.tag}` : ""}`;
  return entry.tag !== undefined ? `Tag ${entry.tag}` : undefined;
}

/** One line of a response description for an entry. */
function entryLine(entry: ErrorResponse, anyStatus: boolean): string {
  const label = entryLabel(entry);
  const where = anyStatus ? " (with any error status)" : "";
  const description = entry.docs.description?.trim();
  return `- ${label ?? "Without a code"}${where}${description ? `: ${description}` : "."}`;
}

/** The example key of an entry: `code-1005`, `tag-unprocessable_request`. */
function exampleKey(entry: ErrorResponse): string {
  return entry.code !== undefined ? `code-${entry.code}` : `tag-${entry.tag}`;
}

interface Group {
  status: ErrorStatus;
  entries: ErrorResponse[];
}

/** Entries grouped by status, in the IR's order. */
function groupByStatus(errors: readonly ErrorResponse[]): Group[] {
  const groups: Group[] = [];
  for (const entry of errors) {
    if (entry.status === undefined) continue;
    const group = groups.find((g) => g.status === entry.status);
    if (group) group.entries.push(entry);
    else groups.push({ status: entry.status, entries: [entry] });
  }
  return groups;
}

/** `responses` entries for the errors of `endpoint`, keyed by status. */
export function errorResponses(model: ApiModel, endpoint: Endpoint): JsonObject {
  const version = model.versioning.versions.find((v) => v.name === endpoint.version);
  // A version's own error body wins; else the API's (`errors.body`).
  const bodyName = version?.errorBody ?? model.errors.body;
  const bodyType = bodyName !== undefined ? typesByName(model.types).get(bodyName) : undefined;
  // an entry of no status and no code or tag is every other error: OpenAPI's `default`
  const catchAll = endpoint.errors.filter((e) => e.status === undefined && !entryLabel(e));
  const anyStatus = endpoint.errors.filter((e) => e.status === undefined && entryLabel(e));
  const out: JsonObject = {};
  for (const group of groupByStatus(endpoint.errors)) {
    out[statusKey(group.status)] = errorResponse(model, group, anyStatus, bodyType);
  }
  if (catchAll.length) out.default = catchAllResponse(catchAll, bodyType);
  return out;
}

/** `default`: the error answers of every status the endpoint does not list, with the API's error body. */
function catchAllResponse(entries: readonly ErrorResponse[], bodyType: NamedType | undefined) {
  const said = entries.map((e) => e.docs.description?.trim()).filter((d) => d);
  return obj({
    description: said.length ? said.join("\n") : "Any other error.",
    content: bodyType
      ? { "application/json": { schema: { $ref: schemaRef(bodyType.name) } } }
      : undefined,
    "x-undocumented": notesOf(...entries.map((e) => e.docs)),
  });
}

function errorResponse(
  model: ApiModel,
  group: Group,
  allStatuses: readonly ErrorResponse[],
  bodyType: NamedType | undefined,
): JsonObject {
  // A code or tag this status already lists is not listed again as one of any status.
  const anyStatus = allStatuses.filter(
    (e) =>
      !group.entries.some(
        (own) => exampleKey(own) === exampleKey(e) && entryLabel(own) !== undefined,
      ),
  );
  const info = model.errors.statuses.find((s) => s.status === group.status);
  const meaning = info?.meaning ?? `Error ${statusKey(group.status)}.`;
  // An entry without code or tag that only repeats the status meaning adds nothing.
  const said = (e: ErrorResponse) =>
    entryLabel(e) !== undefined || (e.docs.description?.trim() ?? meaning) !== meaning;
  const lines = [
    ...group.entries.filter(said).map((e) => entryLine(e, false)),
    ...anyStatus.map((e) => entryLine(e, true)),
  ];
  const examples: JsonObject = {};
  const unplaced: ErrorResponse[] = [];
  for (const entry of [...group.entries, ...anyStatus]) {
    const value =
      bodyType && (entry.code !== undefined || entry.tag !== undefined)
        ? errorExample(bodyType, model.types, entry)
        : undefined;
    if (value === undefined) {
      unplaced.push(entry);
      continue;
    }
    examples[exampleKey(entry)] = exampleObject(model, entry, value);
  }
  const media = bodyType
    ? {
        "application/json": obj({
          schema: { $ref: schemaRef(bodyType.name) },
          examples: Object.keys(examples).length ? examples : undefined,
        }),
      }
    : undefined;
  return obj({
    description: text(meaning, lines.join("\n")),
    content: media,
    "x-retry": info?.retry || info?.notProcessed ? true : undefined,
    // The server did none of the work: the client retries every method on it.
    "x-apigen-not-processed": info?.notProcessed ? true : undefined,
    "x-undocumented": notesOf(info?.docs, ...unplaced.map((e) => e.docs)),
  });
}

function exampleObject(model: ApiModel, entry: ErrorResponse, value: Json): JsonObject {
  const code =
    entry.code === undefined ? undefined : codesByNumber(model.errors.codes).get(entry.code);
  const named = code && code.name !== `code${code.code}` ? ` (${code.name})` : "";
  return obj({
    summary: `${entryLabel(entry)}${named}`,
    description: entry.docs.description?.trim(),
    value,
    "x-undocumented": notesOf(entry.docs),
  });
}

/** One IR error entry as the spec writes it: status, code or tag, description, notes. */
function entryData(entry: ErrorResponse): JsonObject {
  return obj({
    status: entry.status,
    code: entry.code,
    tag: entry.tag,
    pathPrefix: entry.scope.kind === "pathPrefix" ? entry.scope.prefix : undefined,
    version: entry.scope.kind === "version" ? entry.scope.version : undefined,
    description: entry.docs.description?.trim(),
    "x-undocumented": notesOf(entry.docs),
  });
}

/**
 * `x-apigen-errors`: the endpoint's own error entries, as the spec lists them. The responses
 * above merge them with the API-wide ones into prose and examples; this keeps them apart, so
 * that an import of this document gives each back where it was declared.
 */
export function ownErrorsExtension(endpoint: Endpoint): JsonObject[] | undefined {
  const own = endpoint.errors.filter((e) => e.scope.kind === "endpoint");
  return own.length ? own.map(entryData) : undefined;
}

/** The API-wide error entries (`errors.responses`), for `x-errors.responses`. */
export function apiErrorEntries(model: ApiModel): JsonObject[] | undefined {
  return model.errors.responses.length ? model.errors.responses.map(entryData) : undefined;
}
