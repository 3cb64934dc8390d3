/**
 * Hostile texts, and the places of a model they go into, for test/fuzz/texts.fuzz.test.ts.
 *
 * Every string of a model is classified by its path: a text (free in the spec or a document,
 * and written into comments, literals, markdown or JSON: fuzzed) or a name (constrained by the
 * spec schema's patterns and enums, or worked out by the IR: refused, not escaped, and not
 * fuzzed here). The list is read off real models, so a field added to the IR shows up as
 * unclassified and fails the test until it is put on one side or the other.
 */
import fc from "fast-check";
import type { ApiModel } from "../../generator/ir/model.ts";

/** Keys whose strings are texts. */
const textKeys = new Set([
  "description",
  "text", // a gap note
  "subject", // a gap note's readable path
  "title",
  "summary",
  "meaning",
  "rules",
  "usedBy",
  "username", // the half of a basic credential the spec fixes
  "password",
  "unit",
  "pattern",
  "prefix", // a constraint's, a version's, an error scope's
  "signs", // a signature scheme's template of what is signed
  "terminator",
  "condition",
  "effect",
  "trigger",
  "states",
  "from",
  "to",
  "baseUrl",
  "scheme",
  "tag",
  "value", // a literal's, a fixed header's, a discriminator case's
  "values", // an enum's
  "enum", // the values of an environment's address variable
  "url", // an endpoint's externalDocs link (a doc comment's @see, the OpenAPI operation's)
  "contentType",
  "accept",
  "path", // an endpoint's or a callback's (its `{param}` templates kept: see pathText)
  "example",
  "default",
  "file",
  "sourceFiles",
]);

/** Keys whose strings are names or enums: the schema's patterns refuse hostile ones. */
const nameKeys = new Set([
  "name",
  "id",
  "group",
  "camelName",
  "pascalName",
  "functionName",
  "groupPascalName",
  "clientName",
  "coreClassName",
  "errorClassName",
  "endpointIdTypeName",
  "environmentsName",
  "baseUrlName",
  "callbackBaseUrlName",
  "packageName",
  "version",
  "kind",
  "placement",
  "style",
  "format",
  "method",
  "encoding",
  "parse",
  "in",
  "status",
  "auth",
  "optionalAuth",
  "authAnyOf", // credential ids (issue 31)
  "event",
  "responseEvent",
  "signatureHeader",
  "header",
  "requestIdHeader",
  "field",
  "inheritedFrom",
  "without",
  "owner",
  "paramsTypeName",
  "headersTypeName",
  "eventTypeName",
  "errorBody",
  "validated",
  "flag",
  "param",
  "cursor",
  "token",
  "items",
  "hasMore",
  "total",
  "page",
  "perPage",
  "offset",
  "limit",
  "registration",
  "paths", // an endpoint's expandable paths: field names joined by dots
  "params", // a generic type's type parameters (strings only there)
  "type", // a discriminator case's variant
  "code", // an error code (a string code is text: see below)
  "timestamp", // a signature scheme's signing-time header or item key
  "as", // what a delivery header's text is read as (number, boolean)
  "answerAs", // how a webhook event's answer is sent (json, text)
  "timestampFormat", // a signing time's form in a signs template (date-time)
  // worked out by ir/names.ts (issue 30), like camelName
  "resultTypeName",
  "optionName",
  "bodyValidatorName",
  "groupClassName",
  "groupProperty",
  "methodName",
  "host", // an endpoint's host, a key of the API's hosts (issue 32, item 7)
  "current", // versioning's current version, a key of its versions
  "access", // who writes a field: readOnly or writeOnly (issue 31), from the schema's keys
  "of", // a writable view's type (PetWritable's Pet), a declared type's name
]);

/** How a string of the model at `path` (`.endpoints[].docs.description`) is treated, if known. */
export function slotKind(path: string): "text" | "name" | undefined {
  // The stand-in's table is written as one JSON string: all of it is text but the endpoint
  // ids that the emitter looks up.
  if (path.startsWith(".standIn.")) return path.endsWith(".endpoint") ? "name" : "text";
  if (/\.docs\.(example|default)(\.|\[|$)/.test(path)) return "text";
  if (path.includes(".failureShape.fixed.")) return "text"; // fixed values of a failure body
  if (path.includes(".failureShape.")) return "name"; // field names of a failure body
  if (path.endsWith(".requestBody.header")) return "text"; // a Content-Type value
  if (path === ".errors.codes[].code" || path === ".endpoints[].errors[].code") return "text";
  // How the API tells versions apart, which decides whether the client sends a version header
  // and has an `apiVersion` option: the spec schema's `versioning.scheme` is an enum
  // (`path-prefix`, `header`) and ir/build-requests.ts keeps only those two. A credential's
  // `scheme` (Bearer) stays a text.
  if (path === ".versioning.scheme") return "name";
  // The API's error body type (errors.body): a declared type's name, checked by the IR build.
  if (path === ".errors.body") return "name";
  // OAuth: the scopes a flow grants and an endpoint asks, and where tokens come from (URLs),
  // reach doc comments, the OpenAPI document and string literals of the client (issue 31).
  if (path.includes(".authScopes.") || /\.tokenSource\.flows\[\]\.scopes\[\]\.name$/.test(path))
    return "text";
  if (/\.tokenSource\.(url|flows\[\]\.[a-zA-Z]+Url)$/.test(path)) return "text";
  const key = /\.([^.[\]]+)(\[\])?$/.exec(path)?.[1] ?? "";
  if (textKeys.has(key)) return "text";
  if (nameKeys.has(key)) return "name";
  return undefined;
}

/** A place of one string in a model: the keys leading to it, and its normalised path. */
export interface Slot {
  keys: (string | number)[];
  path: string;
}

/** Every string of `model`, with its place. */
export function stringSlots(model: ApiModel): Slot[] {
  const slots: Slot[] = [];
  const walk = (value: unknown, keys: (string | number)[], path: string): void => {
    if (typeof value === "string") slots.push({ keys, path });
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...keys, i], `${path}[]`));
    else if (value !== null && typeof value === "object")
      for (const [key, v] of Object.entries(value)) walk(v, [...keys, key], `${path}.${key}`);
  };
  walk(model, [], "");
  return slots;
}

/** Sets the string at `slot` of `model` (a copy of it) to `text`. */
export function setSlot(model: object, slot: Slot, text: string): void {
  let target = model as Record<string | number, unknown>;
  for (const key of slot.keys.slice(0, -1))
    target = target[key] as Record<string | number, unknown>;
  target[slot.keys.at(-1)!] = text;
}

/**
 * Pieces of hostile text: every line end, the ends and starts of comments of each output
 * language, what opens code in a template literal, HTML and markdown markup, quotes and
 * backslashes, control characters and lone surrogates, and statements that report having run
 * (`globalThis.__pwned`, output) for a text that gets out of its place to run.
 */
export const hostilePieces = [
  "\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  "*/",
  "/*",
  "//",
  "-->",
  "<!--",
  "--!>",
  "`",
  "```",
  "${",
  "}",
  "</script>",
  "<script>globalThis.__pwned = 'script'</script>",
  "\u0000",
  "\u001b[2J",
  "\ud800",
  "\udfff",
  '"',
  "'",
  "\\",
  "|",
  "[x](javascript:globalThis.__pwned=1)",
  "![x](javascript:1)",
  "<img src=x onerror=alert(1)>",
  "# ",
  "- ",
  "1. ",
  "> ",
  "&lt;",
  "_",
  "*",
  "~~",
  "\u202e",
  "\ufeff",
  " ",
  "\t",
  'globalThis.__pwned = "text";',
  'console.log("PWNED");',
  'process.stdout.write("PWNED");',
  ");",
  "});",
];

/** Whether a text shows as nothing: only spaces, tabs and line ends (markdown shows them as one space at most). */
const blank = (text: string) => /^[ \t\n\r\u2028\u2029]*$/.test(text);

/** A hostile text: pieces and random characters, never blank (a blank text reads as absent). */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...hostilePieces) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map((parts) => {
    const text = parts.join("");
    return blank(text) ? `x${text}` : text;
  });

/** A hostile text a YAML spec can hold: no control characters and no lone surrogates (the loader refuses them). */
export const hostileYamlText: fc.Arbitrary<string> = hostileText.map((text) => {
  const clean = text
    .replace(/[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "");
  return blank(clean) ? `x${clean}` : clean;
});

/** A folder name: a hostile text without `/` (and NUL, which no file name holds). */
export const hostileFolderName: fc.Arbitrary<string> = hostileText.map((text) => {
  const name = text.replace(/[/\0]/g, "");
  return name === "" || name === "." || name === ".." ? `x${name}` : name;
});
