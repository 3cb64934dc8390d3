/**
 * Lookups by name over the model's lists, built once per list. Emitters ask for a type or
 * an error code per endpoint, per field, per example: a search of the whole list each time
 * made emission grow with the square of the spec.
 */
import type { ErrorCode, NamedType } from "../ir/model.ts";

const typeMaps = new WeakMap<readonly NamedType[], ReadonlyMap<string, NamedType>>();
const codeMaps = new WeakMap<readonly ErrorCode[], ReadonlyMap<ErrorCode["code"], ErrorCode>>();

/** Entries by key; the first of equal keys wins, as `list.find` would return it. */
function firstByKey<K, T>(list: readonly T[], key: (item: T) => K): Map<K, T> {
  const map = new Map<K, T>();
  for (const item of list) if (!map.has(key(item))) map.set(key(item), item);
  return map;
}

/** The named types of a model by name (the model is not changed after it is built). */
export function typesByName(types: readonly NamedType[]): ReadonlyMap<string, NamedType> {
  let map = typeMaps.get(types);
  if (!map) typeMaps.set(types, (map = firstByKey(types, (t) => t.name)));
  return map;
}

/** The error codes of a model by their code (a number or a string). */
export function codesByNumber(
  codes: readonly ErrorCode[],
): ReadonlyMap<ErrorCode["code"], ErrorCode> {
  let map = codeMaps.get(codes);
  if (!map) codeMaps.set(codes, (map = firstByKey(codes, (c) => c.code)));
  return map;
}
