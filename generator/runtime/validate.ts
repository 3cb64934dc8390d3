/**
 * Validation combinators for the generated validators (`validators.ts`): each builds a
 * validator once, and a validator appends one issue per problem it finds (up to
 * `maxIssues`), naming the field by its path. Fields a shape does not list always pass: the
 * service may add fields. Any value gets issues, never an exception: a validator stops at
 * `maxDepth` levels and at a cycle, since a caller's value may be anything (docs/security.md).
 * No dependency and no runtime-specific API.
 */

export interface ValidationIssue {
  /** Where the problem is, e.g. `body.cart.items[0].sku`. */
  path: string;
  message: string;
}

export type Validator = (value: unknown, path: string, issues: ValidationIssue[]) => void;

/** A format whose definition is exact enough to check; other formats are documentation only. */
export interface Format {
  name: string;
  test(value: string): boolean;
}

export interface StringRules {
  /** The generated validators name the format's own export, so a bundle keeps only the formats it checks. */
  format?: Format;
  pattern?: string;
  prefix?: string;
  minLength?: number;
  maxLength?: number;
}

export interface NumberRules {
  integer?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
}

/** A map's or an object's count of entries: `minProperties` and `maxProperties` of the spec. */
export interface EntryRules {
  minProperties?: number;
  maxProperties?: number;
}

/** An array's count (`minItems`, `maxItems`) and whether its items differ (`uniqueItems`). */
export interface ArrayRules {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export const uuidFormat: Format = {
  name: "uuid",
  test: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
};

/**
 * The time an RFC 3339 date-time names, in ms since the epoch, or NaN for a text that is none.
 * Fractions past milliseconds (Twitch's nanoseconds) are cut to them first: not every
 * runtime's `Date.parse` reads more digits.
 */
export function dateTimeMs(v: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v)
    ? Date.parse(v.replace(/(\.\d{3})\d+/, "$1"))
    : NaN;
}

export const dateTimeFormat: Format = {
  name: "date-time",
  test: (v) => !Number.isNaN(dateTimeMs(v)),
};

/** Days in each month of a leap year; February's 29th is checked against the year. */
const monthDays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** An ISO 8601 calendar date (RFC 3339 full-date, OpenAPI's `date`): `2024-02-29`, a day the month has. */
export const dateFormat: Format = {
  name: "date",
  test: (v) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (!m) return false;
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = month === 2 && !leap ? 28 : (monthDays[month - 1] ?? 0);
    return day >= 1 && day <= days;
  },
};

export const monthDayYearFormat: Format = {
  name: "MM-DD-YYYY",
  test: (v) => {
    const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(v);
    return (
      m !== null &&
      Number(m[1]) >= 1 &&
      Number(m[1]) <= 12 &&
      Number(m[2]) >= 1 &&
      Number(m[2]) <= 31
    );
  },
};

export const yearMonthFormat: Format = {
  name: "YYYY-MM",
  test: (v) => {
    const m = /^(\d{4})-(\d{2})$/.exec(v);
    return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12;
  },
};

export const uriFormat: Format = {
  name: "uri",
  test: (v) => {
    try {
      return new URL(v).protocol.length > 1;
    } catch {
      return false;
    }
  },
};

/** The checked formats by name (the generator looks a spec's format up here). */
export const formats: Readonly<Record<string, Format>> = {
  uuid: uuidFormat,
  "date-time": dateTimeFormat,
  date: dateFormat,
  "MM-DD-YYYY": monthDayYearFormat,
  "YYYY-MM": yearMonthFormat,
  uri: uriFormat,
};

/**
 * Deepest nesting of arrays and objects a validator checks. A value nested deeper gets one
 * issue where the limit is reached, and nothing below it is looked at: without a limit a
 * hostile body (a recursive type nested a thousand levels, 46 KB of JSON) overflows the
 * stack. 64 is far beyond any real payload of a spec's types.
 */
export const maxDepth = 64;

/**
 * Most issues one validation lists; past it the next problem is listed with a note and the
 * validator stops looking. Without it a 1 MiB body of wrong array items would make half a
 * million issues (and the work and the message to match).
 */
export const maxIssues = 100;

// The arrays and objects being checked, outermost first, and their paths: for the nesting
// limit and to find a cycle (a value the caller builds may contain itself). Module state,
// not per call: a check allocates nothing for it, and validators are synchronous.
const openValues: unknown[] = [];
const openPaths: string[] = [];
let depth = 0;

/** What a wrong value is, for a message: the kind only, never a string's or a function's text. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "number":
    case "boolean":
      return `${typeof value} ${String(value)}`;
    case "undefined":
      return "undefined";
    case "object":
      return "an object";
    default:
      return `a ${typeof value}`;
  }
}

/** What the first issue past `maxIssues` ends with. */
export const furtherProblems = " (further problems not listed)";

/** Appends an issue unless the list is full; the first one past `maxIssues` says so. */
export function fail(issues: ValidationIssue[], path: string, message: string): void {
  if (issues.length < maxIssues) issues.push({ path, message });
  else if (issues.length === maxIssues) issues.push({ path, message: message + furtherProblems });
}

/** Whether the list is past `maxIssues`, so checking can stop. */
function full(issues: ValidationIssue[]): boolean {
  return issues.length > maxIssues;
}

/**
 * Opens a container for checking: false, with an issue at `path`, when it is nested past
 * `maxDepth` or is one of the containers it sits in (a cycle). Every `enter` that returns
 * true is paired with `leave` in a `finally`, so a getter that throws cannot leave the
 * count behind.
 */
function enter(value: object, path: string, issues: ValidationIssue[]): boolean {
  if (depth >= maxDepth) {
    fail(issues, path, `is nested deeper than ${maxDepth} levels`);
    return false;
  }
  for (let i = 0; i < depth; i++) {
    if (openValues[i] === value) {
      fail(issues, path, `is a cycle: the same value as ${openPaths[i]}`);
      return false;
    }
  }
  openValues[depth] = value;
  openPaths[depth] = path;
  depth++;
  return true;
}

/** Closes the innermost container; drops the reference so a checked value is not kept alive. */
function leave(): void {
  depth--;
  openValues[depth] = undefined;
  openPaths[depth] = "";
}

/** Any value. */
export const anything: Validator = () => {};

/**
 * A spec's pattern as the package runs it: with the `u` flag where the pattern is a regular
 * expression in that mode, as JSON Schema reads one (`\p{L}` a letter, `.` one code point;
 * without it, `\p{L}` is the text `p{L}` and AWS's tag keys were refused), else without
 * (`\_` and `\-` outside a class, which Unicode mode refuses, are those characters).
 */
export function patternRegExp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return new RegExp(pattern);
  }
}

export function string(rules: StringRules = {}): Validator {
  const pattern = rules.pattern !== undefined ? patternRegExp(rules.pattern) : undefined;
  const format = rules.format;
  return (value, path, issues) => {
    if (typeof value !== "string")
      return fail(issues, path, `must be a string, not ${describe(value)}`);
    if (rules.prefix !== undefined && !value.startsWith(rules.prefix))
      fail(issues, path, `must begin with ${JSON.stringify(rules.prefix)}`);
    if (rules.minLength !== undefined && value.length < rules.minLength)
      fail(issues, path, `must be at least ${rules.minLength} characters long`);
    if (rules.maxLength !== undefined && value.length > rules.maxLength)
      fail(issues, path, `must be at most ${rules.maxLength} characters long`);
    if (pattern && !pattern.test(value)) fail(issues, path, `must match ${rules.pattern}`);
    if (format && !format.test(value)) fail(issues, path, `must be in ${format.name} format`);
  };
}

export function number(rules: NumberRules = {}): Validator {
  return (value, path, issues) => {
    if (typeof value !== "number" || !Number.isFinite(value))
      return fail(issues, path, `must be a number, not ${describe(value)}`);
    if (rules.integer && !Number.isInteger(value)) fail(issues, path, "must be an integer");
    if (rules.minimum !== undefined && value < rules.minimum)
      fail(issues, path, `must be at least ${rules.minimum}`);
    if (rules.maximum !== undefined && value > rules.maximum)
      fail(issues, path, `must be at most ${rules.maximum}`);
    if (rules.exclusiveMinimum !== undefined && value <= rules.exclusiveMinimum)
      fail(issues, path, `must be more than ${rules.exclusiveMinimum}`);
    if (rules.exclusiveMaximum !== undefined && value >= rules.exclusiveMaximum)
      fail(issues, path, `must be less than ${rules.exclusiveMaximum}`);
    if (rules.multipleOf !== undefined && !isMultiple(value, rules.multipleOf))
      fail(issues, path, `must be a multiple of ${rules.multipleOf}`);
  };
}

/**
 * Whether `value` is a whole multiple of `step`, within what a double holds: 0.3 is a multiple
 * of 0.1 though 0.3 / 0.1 is 2.9999999999999996.
 */
export function isMultiple(value: number, step: number): boolean {
  const quotient = value / step;
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

export const boolean: Validator = (value, path, issues) => {
  if (typeof value !== "boolean") fail(issues, path, `must be a boolean, not ${describe(value)}`);
};

/** Bytes the client can send: a Blob (a File is one), a typed array, an ArrayBuffer or a stream. */
export type BinaryData = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array>;

/**
 * A value of a `binary` field or body: the bytes, or the bytes with the file name and media
 * type a multipart part carries (a File's own name and type are used when these are absent).
 */
export type BinaryInput =
  | BinaryData
  | { data: BinaryData; filename?: string; contentType?: string };

/** Whether a value is bytes the client can send (checked by shape: a Blob or stream of another realm counts). */
export function isBinaryData(value: unknown): value is BinaryData {
  if (typeof value !== "object" || value === null) return false;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  const v = value as { arrayBuffer?: unknown; getReader?: unknown; size?: unknown };
  return (
    typeof v.getReader === "function" ||
    (typeof v.arrayBuffer === "function" && typeof v.size === "number")
  );
}

/** A `binary` value: bytes, or `{ data, filename?, contentType? }` around them. */
export const binary: Validator = (value, path, issues) => {
  if (isBinaryData(value)) return;
  const v = value as { data?: unknown; filename?: unknown; contentType?: unknown } | null;
  if (typeof v !== "object" || v === null || Array.isArray(v) || !isBinaryData(v.data))
    return fail(
      issues,
      path,
      `must be a Blob, File, Uint8Array, ArrayBuffer, ReadableStream or { data, filename?, contentType? }, not ${describe(value)}`,
    );
  if (v.filename !== undefined && typeof v.filename !== "string")
    fail(issues, `${path}.filename`, `must be a string, not ${describe(v.filename)}`);
  if (v.contentType !== undefined && typeof v.contentType !== "string")
    fail(issues, `${path}.contentType`, `must be a string, not ${describe(v.contentType)}`);
};

export function literal(expected: string | number | boolean): Validator {
  return (value, path, issues) => {
    if (value !== expected) fail(issues, path, `must be ${JSON.stringify(expected)}`);
  };
}

/** One of `values`; an open enum takes any value of their kind (a number: a finite one, as JSON can write). */
export function oneOf(values: readonly (string | number | boolean)[], open: boolean): Validator {
  const kind = typeof values[0];
  const ofKind = (value: unknown) =>
    typeof value === kind && (kind !== "number" || Number.isFinite(value));
  return (value, path, issues) => {
    if (open ? !ofKind(value) : !values.includes(value as string)) {
      fail(
        issues,
        path,
        open
          ? `must be a ${kind}, not ${describe(value)}`
          : `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
      );
    }
  };
}

export function nullable(inner: Validator): Validator {
  if (inner === anything) return anything;
  return (value, path, issues) => {
    if (value !== null) inner(value, path, issues);
  };
}

/**
 * An array whose every item passes `item`. A hole of a sparse array is checked as the
 * `undefined` it reads as (JSON would write it as null), never skipped; an array of
 * `anything` is not walked, so a huge sparse array (length 2^32 - 1) costs nothing.
 */
export function array(item: Validator, rules?: ArrayRules): Validator {
  return (value, path, issues) => {
    if (!Array.isArray(value))
      return fail(issues, path, `must be an array, not ${describe(value)}`);
    if (rules) {
      counted(value.length, rules.minItems, rules.maxItems, ["item", "items"], path, issues);
      if (rules.uniqueItems) distinct(value, path, issues);
    }
    if (item === anything || !enter(value, path, issues)) return;
    try {
      for (let i = 0; i < value.length && !full(issues); i++)
        item(value[i], `${path}[${i}]`, issues);
    } finally {
      leave();
    }
  };
}

/**
 * A count against its least and most (an array's items, a map's entries), in words of what
 * is counted: `["item", "items"]`.
 */
function counted(
  count: number,
  least: number | undefined,
  most: number | undefined,
  [one, many]: readonly [string, string],
  path: string,
  issues: ValidationIssue[],
): void {
  if (least !== undefined && count < least)
    fail(issues, path, `must have at least ${least} ${least === 1 ? one : many}, not ${count}`);
  if (most !== undefined && count > most)
    fail(issues, path, `must have at most ${most} ${most === 1 ? one : many}, not ${count}`);
}

/**
 * Each item that repeats an earlier one, as JSON Schema compares them: by value, an object's
 * fields in any order. An item too deep to be written out is taken as different.
 */
function distinct(items: readonly unknown[], path: string, issues: ValidationIssue[]): void {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length && !full(issues); i++) {
    const key = itemKey(items[i]);
    if (key === undefined) continue;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else fail(issues, `${path}[${i}]`, `must differ from item ${first}: the items are unique`);
  }
}

/** A text that two items share only when they are the same value. */
export function itemKey(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return `${typeof item}:${String(item)}`;
  try {
    return JSON.stringify(item, (_key, value: unknown) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, (value as Record<string, unknown>)[key]]),
          )
        : value,
    );
  } catch {
    return undefined;
  }
}

/** The count of a map's or an object's own keys against its rules. */
function entries(
  value: Record<string, unknown>,
  rules: EntryRules,
  path: string,
  issues: ValidationIssue[],
): void {
  const count = Object.keys(value).length;
  counted(count, rules.minProperties, rules.maxProperties, ["entry", "entries"], path, issues);
}

/** An object, not an array or null; any prototype (a null-prototype object is one too). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The path of a field: `.name` for an identifier, `["any key"]` (JSON) for any other key. */
export function child(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

/** An object whose every own enumerable value passes `values` (symbol keys, which JSON drops, are not looked at). */
export function map(values: Validator, rules?: EntryRules): Validator {
  return (value, path, issues) => {
    if (!isPlainObject(value))
      return fail(issues, path, `must be an object, not ${describe(value)}`);
    if (rules) entries(value, rules, path, issues);
    if (values === anything || !enter(value, path, issues)) return;
    try {
      for (const key of Object.keys(value)) {
        if (full(issues)) break;
        values(value[key], child(path, key), issues);
      }
    } finally {
      leave();
    }
  };
}

/** Field name -> validator, or -> [validator, required]. */
export interface Fields {
  readonly [name: string]: Validator | readonly [Validator, boolean];
}

/**
 * An object with these fields; fields it does not list pass unchecked. A field is required
 * when `required` names it or its `[validator, true]` entry says so. The generated validators
 * pass bare validators and the list: a tuple per field costs a type checker of the package
 * four times as much as the validator alone.
 */
export function object(
  fields: Fields,
  required: readonly string[] = [],
  rules?: EntryRules,
): Validator {
  // Each field's path suffix once, not on every check.
  const fieldChecks = Object.entries(fields).map(([name, entry]) => {
    const [check, marked] = typeof entry === "function" ? [entry, false] : entry;
    return [name, child("", name), check, marked || required.includes(name)] as const;
  });
  return (value, path, issues) => {
    if (!isPlainObject(value))
      return fail(issues, path, `must be an object, not ${describe(value)}`);
    if (rules) entries(value, rules, path, issues);
    if (fieldChecks.length === 0 || !enter(value, path, issues)) return;
    try {
      for (const [name, suffix, check, required] of fieldChecks) {
        if (full(issues)) break;
        if (!Object.prototype.hasOwnProperty.call(value, name) || value[name] === undefined) {
          if (required) fail(issues, path + suffix, "is required");
        } else {
          check(value[name], path + suffix, issues);
        }
      }
    } finally {
      leave();
    }
  };
}

/** Runs a validator and returns its issues. */
export function validate(check: Validator, value: unknown, path: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  check(value, path, issues);
  return issues;
}
