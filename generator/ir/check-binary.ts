/**
 * Where bytes may be: a `binary` value travels only as a multipart file part (a field of a
 * multipart body, or an array of them), an application/octet-stream body, or a binary
 * response body. Anywhere else (inside a JSON or form body, a JSON response, a parameter, a
 * callback) it could not be sent or read, so it is an error at the `binary` node.
 */
import type { BuildContext } from "./build-context.ts";
import type { Callback, Endpoint, NamedType, TypeNode } from "./model.ts";
import { childTypes } from "./walk.ts";

const isBinary = (node: TypeNode) => node.kind === "primitive" && node.name === "binary";

/** Reports every `binary` node below `node` (through named types, each once), for `where`. */
function reportBinary(
  ctx: BuildContext,
  node: TypeNode,
  types: ReadonlyMap<string, NamedType>,
  where: string,
  seen: Set<unknown>,
): void {
  if (seen.has(node)) return;
  seen.add(node);
  if (isBinary(node)) {
    ctx.bag.report(
      "body-content-type",
      {
        detail: `binary cannot travel in ${where}; only as a multipart file part, an application/octet-stream body or a binary response body`,
      },
      node.location,
    );
    return;
  }
  if (node.kind === "ref") {
    const named = types.get(node.name);
    if (named && !seen.has(named.name)) {
      seen.add(named.name);
      reportBinary(ctx, named.type, types, where, seen);
    }
    return;
  }
  for (const child of childTypes(node)) reportBinary(ctx, child, types, where, seen);
}

/** `node` with the named types it refers to followed (an alias `File: binary` is binary); undefined for a name no type has. */
function throughNames(node: TypeNode, types: ReadonlyMap<string, NamedType>): TypeNode | undefined {
  for (const names = new Set<string>(); node.kind === "ref" && !names.has(node.name); ) {
    names.add(node.name);
    const named = types.get(node.name);
    if (!named) return undefined;
    node = named.type;
  }
  return node;
}

/**
 * The fields of a multipart body: each may be binary or an array of binary, written or named
 * (Mistral's `file: File`, `File` an alias of binary); below that, no bytes. A body that is a
 * union of objects has the fields of whichever variant a call sends as its parts (X-Road's
 * "a new URL, a new certificate file, or both": `anyOf` of three objects), so each variant
 * is checked as a body of its own.
 */
function checkMultipart(
  ctx: BuildContext,
  body: TypeNode,
  types: ReadonlyMap<string, NamedType>,
  where: string,
  seen: Set<unknown>,
  unions = new Set<TypeNode>(),
): void {
  const node = throughNames(body, types);
  if (node === undefined) return;
  if (node.kind === "union") {
    // a union naming itself again (through its variants' names) is checked once
    if (unions.has(node)) return;
    unions.add(node);
    for (const variant of node.variants) checkMultipart(ctx, variant, types, where, seen, unions);
    return;
  }
  if (node.kind !== "object") return reportBinary(ctx, body, types, where, seen);
  for (const field of node.fields) {
    const value = throughNames(field.type, types);
    const item = value?.kind === "array" ? throughNames(value.items, types) : value;
    if (item === undefined || !isBinary(item))
      reportBinary(ctx, field.type, types, `${where} (field ${field.name})`, seen);
  }
}

/** Checks every place a `binary` type is written, once the named types are known. */
export function checkBinaryPlaces(
  ctx: BuildContext,
  namedTypes: readonly NamedType[],
  endpoints: readonly Endpoint[],
  callbacks: readonly Callback[],
): void {
  const types = new Map(namedTypes.map((t) => [t.name, t]));
  const seen = new Set<unknown>();
  for (const e of endpoints) {
    const where = `endpoint ${e.id}`;
    const { body, requestBody, response } = e;
    if (body && requestBody?.encoding === "multipart")
      checkMultipart(ctx, body, types, `the multipart body of ${where}`, seen);
    // A body that is binary itself where it may not be is reported by build-bodies.ts.
    else if (body && !isBinary(body) && requestBody?.encoding !== "binary")
      reportBinary(ctx, body, types, `the ${requestBody?.contentType} body of ${where}`, seen);
    for (const r of e.streamResponse ? [response, e.streamResponse] : [response]) {
      const payloads = [
        ...(r.body && (r.kind === "json" || r.stream) ? [r.body] : []),
        ...(r.stream?.events.map((event) => event.type) ?? []),
      ];
      for (const node of payloads)
        reportBinary(ctx, node, types, `the ${r.contentType} response of ${where}`, seen);
    }
    for (const p of e.params) reportBinary(ctx, p.type, types, `a parameter of ${where}`, seen);
  }
  for (const c of callbacks)
    for (const node of [c.body, c.success, c.failure, ...c.params.map((p) => p.type)])
      if (node) reportBinary(ctx, node, types, `callback ${c.event}`, seen);
}
