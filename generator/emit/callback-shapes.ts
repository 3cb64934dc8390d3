/**
 * What the callback router needs to know about a callback's response types, read off the
 * model: where a failure body puts its code and its explanation (`error: {code, message}`,
 * `errors: [{code, data: [{reason}]}]`, ...), which response fields the router fills with
 * the event name, and which header carries the signature. Shared by the router emitter and
 * the handler scaffold, so neither spells an event's shape by hand.
 */
import type { ApiModel, Callback, Field, Literal, TypeNode } from "../ir/model.ts";
import type { FailureShape } from "../runtime/callbacks/failure.ts";
import { typesByName } from "./lookup.ts";

/** A failure shape as the emitter works it out (the runtime's `FailureShape`, mutable). */
export type FailureShapeData = FailureShape & { fixed: Record<string, Literal> };

/** Name of the field that carries the event in requests and responses, as the spec writes it. */
export const eventFieldName = "event";

/** Name of the field of the numeric code in an error, as the spec writes it. */
export const codeFieldName = "code";

/** Name of the error code of a signature failure in the spec's catalogue. */
export const signatureCodeName = "signatureInvalid";

/** Follows references (aliases) to the type they name; a cycle stops where it closes. */
export function resolveType(node: TypeNode, model: ApiModel): TypeNode {
  const seen = new Set<string>();
  let current = node;
  while (current.kind === "ref" && !seen.has(current.name)) {
    const name = current.name;
    seen.add(name);
    const named = typesByName(model.types).get(name);
    if (!named) break;
    current = named.type;
  }
  return current;
}

/** The fields of a type that is an object (through references), else `undefined`. */
export function objectFieldsOf(node: TypeNode | undefined, model: ApiModel): Field[] | undefined {
  if (!node) return undefined;
  const resolved = resolveType(node, model);
  return resolved.kind === "object" ? resolved.fields : undefined;
}

/** The object fields of an array's items, when `node` is an array of objects. */
function itemFieldsOf(node: TypeNode, model: ApiModel): Field[] | undefined {
  const resolved = resolveType(node, model);
  return resolved.kind === "array" ? objectFieldsOf(resolved.items, model) : undefined;
}

/** A field that can hold an explanation: a string (or a value of unshown type). */
function isTextType(node: TypeNode, model: ApiModel): boolean {
  const resolved = resolveType(node, model);
  return (
    (resolved.kind === "primitive" && resolved.name === "string") || resolved.kind === "unknown"
  );
}

/** Where the explanation goes among `fields`: the first text field, or list of one-field objects. */
function textPlacement(fields: readonly Field[], model: ApiModel): FailureShapeData["text"] {
  for (const field of fields) {
    if (field.name === codeFieldName) continue;
    if (isTextType(field.type, model)) return { field: field.name };
    const item = itemFieldsOf(field.type, model)?.[0];
    if (item) return { field: field.name, item: item.name };
  }
  return undefined;
}

/** Parts of an error object: its code field and its text placement. */
function errorParts(
  fields: readonly Field[],
  model: ApiModel,
): Pick<FailureShapeData, "code" | "text"> {
  const text = textPlacement(fields, model);
  return {
    ...(fields.some((f) => f.name === codeFieldName) ? { code: codeFieldName } : {}),
    ...(text ? { text } : {}),
  };
}

/**
 * The failure shape of a callback from its failure type, or `undefined` where the spec gives
 * no object failure type (the runtime's generic `{ error: { code, message } }` is used).
 */
export function failureShapeOf(callback: Callback, model: ApiModel): FailureShapeData | undefined {
  const fields = objectFieldsOf(callback.failure, model);
  if (!fields) return undefined;
  const fixed: Record<string, Literal> = {};
  let event: string | undefined;
  const rest: Field[] = [];
  for (const field of fields) {
    const type = resolveType(field.type, model);
    if (type.kind === "literal" && !type.nullable) fixed[field.name] = type.value;
    else if (field.name === eventFieldName) event = field.name;
    else rest.push(field);
  }
  const base = { fixed, ...(event !== undefined ? { event } : {}) };
  for (const field of rest) {
    const single = objectFieldsOf(field.type, model);
    if (single?.some((f) => f.name === codeFieldName))
      return {
        ...base,
        container: { field: field.name, list: false },
        ...errorParts(single, model),
      };
    const items = itemFieldsOf(field.type, model);
    if (items?.some((f) => f.name === codeFieldName))
      return { ...base, container: { field: field.name, list: true }, ...errorParts(items, model) };
  }
  const parts = errorParts(rest, model);
  return parts.code !== undefined || parts.text !== undefined ? { ...base, ...parts } : undefined;
}

/** The response types a callback's handler may return. */
function responseTypes(callback: Callback): TypeNode[] {
  return [callback.success, callback.failure].filter((t): t is TypeNode => t !== undefined);
}

/** `event` when every response type of the callback has that field: the router fills it, handlers leave it out. */
export function responseEventField(callback: Callback, model: ApiModel): string | undefined {
  const types = responseTypes(callback);
  const all =
    types.length > 0 &&
    types.every((t) => objectFieldsOf(t, model)?.some((f) => f.name === eventFieldName));
  return all ? eventFieldName : undefined;
}

/** The header of the first `in: signature` credential among `auth`, if any. */
export function signatureHeaderOf(auth: readonly string[], model: ApiModel): string | undefined {
  for (const id of auth) {
    const credential = model.credentials.find((c) => c.id === id);
    if (credential?.placement === "signature" && credential.header) return credential.header;
  }
  return undefined;
}

/** The catalogue's code for a signature failure (named `signatureInvalid`); else 422, the status. */
export function signatureCodeOf(model: ApiModel): number {
  return model.errors.codes.find((c) => c.name === signatureCodeName)?.code ?? 422;
}

/** How a parameter's URL text becomes the value its validator checks. */
export function paramConversion(node: TypeNode, model: ApiModel): "number" | "boolean" | undefined {
  const resolved = resolveType(node, model);
  switch (resolved.kind) {
    case "primitive":
      return resolved.name === "boolean"
        ? "boolean"
        : resolved.name === "string"
          ? undefined
          : "number";
    case "literal":
      return typeof resolved.value === "string"
        ? undefined
        : typeof resolved.value === "number"
          ? "number"
          : "boolean";
    case "enum": {
      const first = resolved.values[0];
      return typeof first === "number"
        ? "number"
        : typeof first === "boolean"
          ? "boolean"
          : undefined;
    }
    case "unknown":
    case "ref":
    case "array":
    case "map":
    case "object":
      return undefined;
    default: {
      const unhandled: never = resolved;
      throw new Error(`unhandled type kind ${JSON.stringify(unhandled)}`);
    }
  }
}
