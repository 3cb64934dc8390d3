/**
 * A string schema's `pattern`, `minLength` and `maxLength` as the spec format takes them. A
 * pattern is a check every value must pass (the package's validators run it on requests and
 * answers), so one that would refuse what the API means to allow is left out with a note,
 * never kept stricter than the document: one that is no JavaScript regular expression, a
 * regular expression literal whose flags change what it matches, or one that no string of
 * the schema's lengths matches.
 */
import { patternLengthConflict, patternSyntaxError } from "../ir/check-pattern.ts";
import { note, under, type ImportContext } from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";

/**
 * `/source/flags`: PeerTube writes `/^[a-z0-9._]+$/` and `/magnet:\?xt=…/i`. A literal is
 * told from a pattern of a path (`/users/[0-9]+/`, which stays as written) by an anchor
 * inside its slashes or by flags after them.
 */
const regexLiteral = /^\/(\^.*|.*\$)\/([dgimsuvy]*)$|^\/(.+)\/([dgimsuvy]+)$/s;

/** Flags that change which strings match; `g`, `d` and `u` (JSON Schema's own reading) do not. */
const matchingFlags = /[imsvy]/;

/**
 * Copies `pattern`, `minLength` and `maxLength` of a string schema into `facets`, in that
 * order (the order of the spec's keys and of the notes).
 */
export function copyStringFacets(
  ctx: ImportContext,
  schema: JsonObject,
  at: Pointer,
  facets: JsonObject,
): void {
  // api.video writes `pattern: 0` and lengths of other kinds: facets that say nothing a check can use
  const count = (value: unknown) => Number.isInteger(value) && Number(value) >= 0;
  const lengths = {
    minLength: count(schema.minLength) ? (schema.minLength as number) : undefined,
    maxLength: count(schema.maxLength) ? (schema.maxLength as number) : undefined,
  };
  if (schema.pattern !== undefined)
    copyPattern(ctx, schema.pattern, under(at, "pattern"), facets, lengths);
  for (const key of ["minLength", "maxLength"] as const) {
    const value = schema[key];
    if (value === undefined) continue;
    if (lengths[key] !== undefined) facets[key] = value;
    else
      note(ctx, facets, under(at, key), `${key} ${JSON.stringify(value)} is not a count: left out`);
  }
}

/** The pattern's source into `facets`, or a note of why it is left out. */
function copyPattern(
  ctx: ImportContext,
  pattern: unknown,
  where: Pointer,
  facets: JsonObject,
  lengths: { minLength: number | undefined; maxLength: number | undefined },
): void {
  if (typeof pattern !== "string") {
    note(ctx, facets, where, `pattern ${JSON.stringify(pattern)} is not a string: left out`);
    return;
  }
  const literal = regexLiteral.exec(pattern);
  const source = literal ? (literal[1] ?? literal[3]!) : pattern;
  const flags = literal ? (literal[2] ?? literal[4]!) : "";
  const syntax = patternSyntaxError(source);
  const why = matchingFlags.test(flags)
    ? `pattern ${pattern} is a regular expression literal whose flags ${flags} a JSON Schema pattern cannot carry`
    : syntax !== undefined
      ? `pattern ${pattern} is not a JavaScript regular expression (${syntax})`
      : patternLengthConflict(source, lengths.minLength, lengths.maxLength);
  if (why !== undefined) {
    note(ctx, facets, where, `${why}: the pattern is left out, so that no valid value is refused`);
    return;
  }
  facets.pattern = source;
  if (literal)
    note(
      ctx,
      facets,
      where,
      `pattern ${pattern} is written as a regular expression literal: its source is kept${flags ? `, without its flags ${flags}` : ""}`,
    );
}
