/**
 * Validation combinators of unions, apart from `validate.ts` so that a package whose spec has
 * no union does not carry them: `tagged` reads the tag and checks only the variant it names,
 * `union` takes a value any member accepts. Any value gets issues, never an exception.
 */
import {
  child,
  describe,
  fail,
  furtherProblems,
  isPlainObject,
  type ValidationIssue,
  type Validator,
} from "./validate.js";

declare const unknownTag: unique symbol;

/**
 * The tag of a variant of an open union that this version of the package does not know. At
 * run time it is a string; it is typed apart from `string` because TypeScript keeps every
 * member whose tag is any kind of string when it narrows on a known tag, and then
 * `if (pm.type === "card") pm.card` would not compile. Compare it as `String(value.type)`.
 */
export type UnknownTag = typeof unknownTag;

/** A variant of an open union that this version of the package does not know: its tag and any fields. */
export type UnknownVariant<Tag extends string> = { [K in Tag]: UnknownTag } & {
  [field: string]: unknown;
};

/**
 * An event of an open stream (server-sent events with named events) that this version of the
 * package does not know: its name, typed apart from `string` as `UnknownTag` is, so that
 * `if (e.event === "delta") e.data` narrows; its data as JSON where it is JSON, else as text.
 */
export type UnknownEvent = { event: UnknownTag; data: unknown; id?: string };

/**
 * A tagged union: the tag field first (one issue when it is missing, not a string, or, for a
 * closed union, a tag not listed), then only the variant the tag names, its problems under
 * `path<tag>` (`body.payment_method<card>.card.last4`). An open union accepts any other tag.
 */
export function tagged(
  field: string,
  variants: Readonly<Record<string, Validator>>,
  open: boolean,
): Validator {
  const tagPath = child("", field);
  const known = Object.keys(variants);
  return (value, path, issues) => {
    if (!isPlainObject(value))
      return fail(issues, path, `must be an object, not ${describe(value)}`);
    const tag = Object.prototype.hasOwnProperty.call(value, field) ? value[field] : undefined;
    if (tag === undefined) return fail(issues, path + tagPath, "is required");
    if (typeof tag !== "string")
      return fail(issues, path + tagPath, `must be a string, not ${describe(tag)}`);
    if (Object.prototype.hasOwnProperty.call(variants, tag))
      return variants[tag]!(value, `${path}<${tag}>`, issues);
    if (!open)
      fail(
        issues,
        path + tagPath,
        `must be one of ${known.map((k) => JSON.stringify(k)).join(", ")}`,
      );
  };
}

/**
 * Members that failed after looking inside the value (its fields or items), in the outermost
 * union being checked, and how many unions are open. A member that looks inside and fails,
 * followed by another that looks inside, doubles the work at each level of unions nested in
 * unions; past `maxAttempts` a union gives up with one issue, so a hostile value cannot make
 * it exponential. A member refused by the value's kind costs nothing and is not counted, so a
 * large valid JSON document of `string | number | JsonValue[] | map<JsonValue>` is never cut short.
 */
let attempts = 0;
let openUnions = 0;
export const maxAttempts = 10_000;

/**
 * An untagged union: the value passes when any member accepts it. Otherwise the issues of the
 * member that got furthest (past the value's kind, with the fewest issues), or one issue
 * naming every member when none did or two tie.
 */
/** How many of a member's problems are fields of the value itself that it does not have. */
function missingFields(found: readonly ValidationIssue[], path: string): number {
  let missing = 0;
  for (const issue of found)
    if (
      issue.message === "is required" &&
      issue.path.startsWith(path) &&
      !/[.[]/.test(issue.path.slice(path.length + 1))
    )
      missing++;
  return missing;
}

export function union(members: readonly Validator[], names: readonly string[]): Validator {
  return (value, path, issues) => {
    openUnions++;
    try {
      let closest: ValidationIssue[] | undefined;
      let closestRank = [0, 0];
      let tie = false;
      for (const member of members) {
        if (attempts > maxAttempts)
          return fail(issues, path, "is too complex to check (too many union members tried)");
        const found: ValidationIssue[] = [];
        member(value, path, found);
        if (found.length === 0) return;
        // A member that refused the value itself (its kind) says nothing about its fields.
        if (found.every((issue) => issue.path === path)) continue;
        attempts++;
        // closest: the fewest of its own fields missing from the value (the member the value
        // was written as: Notion's `{ and: [...] }` is an AndFilter), then the fewest problems
        const rank = [missingFields(found, path), found.length];
        const order = closest ? rank[0]! - closestRank[0]! || rank[1]! - closestRank[1]! : -1;
        if (order < 0) {
          closest = found;
          closestRank = rank;
          tie = false;
        } else if (order === 0) tie = true;
      }
      // the member's own list was capped: its note goes where this list's cap puts it, once
      if (closest && !tie)
        for (const { path: at, message } of closest)
          fail(
            issues,
            at,
            message.endsWith(furtherProblems) ? message.slice(0, -furtherProblems.length) : message,
          );
      else fail(issues, path, `matches none of ${names.join(", ")} (it is ${describe(value)})`);
    } finally {
      if (--openUnions === 0) attempts = 0;
    }
  };
}
