/**
 * Plain JSON values, as the emitters build data that is written out as JSON (the OpenAPI
 * document, the endpoint descriptors and validator shapes the runtime reads), and `obj`:
 * an object without its undefined entries, keys in the order written.
 */
export type Json = string | number | boolean | null | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** An object of the entries whose value is defined, in the order given: output key order is fixed by the code. */
export function obj(entries: Record<string, Json | undefined>): JsonObject {
  const out: JsonObject = {};
  // for-in visits a literal's own keys in the order Object.entries would, without the pairs.
  for (const key in entries) {
    const value = entries[key];
    if (value === undefined) continue;
    // A key `__proto__` (a spec's name) is an own entry, not the prototype of `out`.
    if (key === "__proto__")
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = value;
  }
  return out;
}
