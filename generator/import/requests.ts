/**
 * What apigen's own document says every request carries, read back: the headers sent on
 * every request (the root's `x-apigen-headers`), which become the `headers:` entries with a
 * value, and the component parameters it writes for them and for the version header, which
 * are the API's, not each operation's parameters.
 */
import { isObject, type ImportContext } from "./context.ts";
import type { JsonObject, JsonValue } from "./document.ts";
import { plainNotes } from "./extensions.ts";

/** Whether a parameter is one apigen writes for every operation: a fixed header or the version header. */
export function isFixedOrVersionHeader(param: JsonObject): boolean {
  return param["x-apigen-fixed-header"] === true || param["x-apigen-versioning"] === true;
}

/** The headers every request sends (`x-apigen-headers`), as `headers:` entries with a value. */
export function fixedHeadersSection(ctx: ImportContext): JsonObject {
  const listed = (ctx.doc.root.value as JsonObject)["x-apigen-headers"];
  if (!isObject(listed)) return {};
  const out: JsonObject = {};
  for (const [name, entry] of Object.entries(listed)) {
    if (typeof entry === "string") out[name] = entry;
    else if (isObject(entry) && typeof entry.value === "string")
      out[name] = plainNotes([entry as JsonValue])[0]!;
  }
  return out;
}
