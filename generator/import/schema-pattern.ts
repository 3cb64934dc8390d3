/**
 * A string schema's `pattern`, `minLength` and `maxLength` as the spec format takes them. A
 * pattern is a check every value must pass (the package's validators run it on requests and
 * answers), so one that would refuse what the API means to allow is left out with a note,
 * never kept stricter than the document: one that is no JavaScript regular expression, a
 * regular expression literal whose flags change what it matches, or one that no string of
 * the schema's lengths matches.
 */
import { boundConflicts, type BoundConflict } from "../ir/bounds.ts";
import { patternLengthConflict, patternSyntaxError } from "../ir/check-pattern.ts";
import { note, under, type ImportContext } from "./context.ts";
import type { JsonObject, Pointer } from "./document.ts";

/**
 * `/source/flags`: PeerTube writes `/^[a-z0-9._]+$/` and `/magnet:\?xt=…/i`, Redocly's demo a
 * password as `/(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])/`. A literal is told from a pattern of a
 * path (`/users/[0-9]+/`, which stays as written) by an anchor or a leading lookahead inside
 * its slashes, or by flags after them.
 */
const regexLiteral = /^\/(\^.*|.*\$|\(\?[=!].*)\/([dgimsuvy]*)$|^\/(.+)\/([dgimsuvy]+)$/s;

/**
 * The flags of a literal that would make its source alone refuse strings the literal accepts:
 * `i` where the source has a letter (`/^[0-9]{5}$/i` means what its source does), `m` where
 * it has an anchor, `s` where it has a `.`, and `v`, which reads classes otherwise. `g`, `d`,
 * `u` (JSON Schema's own reading) and `y` (the source alone accepts more) change nothing a
 * check refuses.
 */
function flagsThatMatter(source: string, flags: string): string {
  // what the source says outside its escapes (`\d`, `\x4A`, `\u{1F600}`, `\p{L}`)
  const plain = source.replace(
    /\\(?:u\{[^}]*\}|[pP]\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|.)/gsu,
    "",
  );
  const matter: Record<string, boolean> = {
    i: /\p{L}/u.test(plain),
    m: /[\^$]/.test(plain),
    s: plain.includes("."),
    v: true,
  };
  return [...flags].filter((flag) => matter[flag] === true).join("");
}

/** A whole number of characters or items: what a length or a count must be. */
export function isCount(value: unknown): value is number {
  return Number.isInteger(value) && Number(value) >= 0;
}

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
  const count = isCount;
  const lengths = {
    minLength: count(schema.minLength) ? (schema.minLength as number) : undefined,
    maxLength: count(schema.maxLength) ? (schema.maxLength as number) : undefined,
  };
  const [conflict] = boundConflicts(lengths);
  if (conflict) {
    note(ctx, facets, under(at, conflict.lowKey), rangeConflict(conflict));
    lengths.minLength = lengths.maxLength = undefined;
  }
  if (schema.pattern !== undefined)
    copyPattern(ctx, schema.pattern, under(at, "pattern"), facets, lengths);
  for (const key of ["minLength", "maxLength"] as const) {
    const value = schema[key];
    if (value === undefined) continue;
    if (lengths[key] !== undefined) facets[key] = value;
    else if (!count(value))
      note(ctx, facets, under(at, key), `${key} ${JSON.stringify(value)} is not a count: left out`);
  }
}

/**
 * The note of bounds no value fits between (ir/bounds.ts: `minimum` beside `maximum`,
 * `minLength` beside `maxLength`, ...): both are left out, as a pattern no string of the
 * schema's lengths matches is.
 */
export function rangeConflict({ lowKey, low, relation, highKey, high }: BoundConflict): string {
  return `${lowKey} ${low} is ${relation} ${highKey} ${high}, so no value fits: both are left out, so that no valid value is refused`;
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
  const matter = flagsThatMatter(source, flags);
  const why = matter
    ? `pattern ${pattern} is a regular expression literal whose flag${matter.length > 1 ? "s" : ""} ${matter} change${matter.length > 1 ? "" : "s"} what it matches, which a JSON Schema pattern cannot say`
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
